package core

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEvents(t *testing.T) {
	var mu sync.Mutex
	var got []string
	sb := testSandbox(t, Options{
		Commands: []Command{{Name: "shout", Run: upper}},
		OnEvent: func(e Event) {
			mu.Lock()
			defer mu.Unlock()
			s := e.Kind
			if e.Argv != nil {
				s += " " + strings.Join(e.Argv, " ")
			}
			if e.Status != nil {
				s += " status " + strconv.Itoa(*e.Status)
			}
			if e.Script != "" {
				s += " [" + e.Script + "]"
			}
			if e.TimedOut {
				s += " timed out"
			}
			if e.Kind == "output" {
				s += " " + e.Stream + " " + string(e.Data)
			}
			if e.Limit != "" {
				s += " " + e.Limit
			}
			got = append(got, s)
			if e.Kind == "process_exit" {
				panic("a handler's panic must not reach the sandbox")
			}
		},
	})
	res := mustRun(t, sb, "echo hi | shout 3")
	assert.Equal(t, "HI\n", string(res.Stdout))
	_, err := sb.Run(context.Background(), "while :; do :; done", RunOptions{Timeout: 100 * time.Millisecond})
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{
		"run_start [echo hi | shout 3]", "process_start shout 3", "output stdout HI\n", "process_exit status 3", "run_end status 3",
		"run_start [while :; do :; done]", "output stderr wasmsand: run timed out after 100ms and was killed\n",
		"limit timeout", "run_end status 124 timed out",
	}, got)
}
