package core

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestCloseCancelsRun: closing a sandbox ends the run in progress (a
// server deleting a session must not leave its loop running).
func TestCloseCancelsRun(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: time.Hour})
	done := make(chan error, 1)
	go func() {
		_, err := sb.Run(context.Background(), "while :; do :; done", RunOptions{})
		done <- err
	}()
	for sb.runID.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	sb.Close()
	select {
	case err := <-done:
		var ce *Error
		assert.True(t, errors.As(err, &ce) && ce.Code == CodeCanceled, "%v", err)
	case <-time.After(time.Minute):
		t.Fatal("Close did not end the run")
	}
	_, err := sb.Run(context.Background(), "true", RunOptions{})
	var ce *Error
	assert.True(t, errors.As(err, &ce) && ce.Code == CodeClosed, "%v", err)
}
