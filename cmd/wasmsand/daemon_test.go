package main

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDaemon: run through the daemon behaves as run itself: streams, exit
// status, stdin, the caller's directory; requests at once are served one
// after the other; the daemon ends once idle.
func TestDaemon(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("WASMSAND_DAEMON_SOCKET", filepath.Join(dir, "d.sock"))
	t.Setenv("WASMSAND_DAEMON_IDLE", "1s")
	cwd, err := os.Getwd()
	require.NoError(t, err)
	done := make(chan int)
	go func() { done <- serveDaemon(os.Stderr) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "d.sock")); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	script := filepath.Join(dir, "s.sh")
	require.NoError(t, os.WriteFile(script, []byte("read -r l; echo \"got $l\"; echo err >&2; exit 4\n"), 0o644))
	call := func(stdin string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code, ok := runViaDaemon(args, strings.NewReader(stdin), &out, &errb)
		require.True(t, ok)
		return out.String(), errb.String(), code
	}
	out, errOut, code := call("line\n", "run", script)
	assert.Equal(t, []any{"got line\n", "err\n", 4}, []any{out, errOut, code})
	out, _, code = call("", "run", "--cwd", "/tmp", "-c", "echo $PWD; x=1; echo ${x}")
	assert.Equal(t, []any{"/tmp\n1\n", 0}, []any{out, code})
	_, errOut, code = call("", "run", "--bogus")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "flag provided but not defined")

	// a client that goes away takes its run with it (else the next request
	// would wait an hour behind it)
	conn, err := net.Dial("unix", filepath.Join(dir, "d.sock"))
	require.NoError(t, err)
	h, _ := json.Marshal(daemonHeader{Args: []string{"run", "--timeout", "1h", "-c", "while :; do :; done"}, Cwd: cwd, Env: os.Environ()})
	require.NoError(t, writeFrame(conn, 'h', h))
	time.Sleep(100 * time.Millisecond)
	conn.Close()
	out, _, code = call("", "run", "-c", "echo next")
	assert.Equal(t, []any{"next\n", 0}, []any{out, code})

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, _, code := call("", "run", "-c", "for i in {1..3}; do echo $i; done")
			assert.Equal(t, []any{"1\n2\n3\n", 0}, []any{out, code})
		}()
	}
	wg.Wait()
	select {
	case code := <-done:
		assert.Equal(t, 0, code)
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not end once idle")
	}
	after, _ := os.Getwd()
	assert.Equal(t, cwd, after)
}
