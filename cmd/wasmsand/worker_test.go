package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWorkerInvoke: `wasmsand worker` with its embedded NATS server serves a
// manifest's tools; `wasmsand invoke` prints a result (exit 0), an error (exit 1,
// promptly when no worker serves the tool); SIGTERM drains the worker (exit 0).
func TestWorkerInvoke(t *testing.T) {
	bin, assets := builtCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte(`version: 1
tools:
  echo_tool: {module: example_tools, function: echo_tool}
  words: {runtime: shell, command: "jq -r .text | wc -w"}
`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "example_tools.py"), []byte(
		"def echo_tool(message, ctx):\n    ctx.send_status('working')\n    ctx.save_artifact('out.txt', message)\n"+
			"    return {'echo': message, 'input': ctx.load_artifact('in.txt', as_text=True)}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in.txt"), []byte("from a file"), 0o644))
	env := append(os.Environ(), "WASMSAND_ASSETS="+assets)
	addr, worker, wlog := startWorker(t, bin, env, dir, "--artifacts", filepath.Join(dir, "store"))
	invoke := func(args ...string) (string, string, int) {
		c := exec.Command(bin, append([]string{"invoke", "--nats", "nats://" + addr}, args...)...)
		c.Env, c.Dir = env, dir
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		code := 0
		if x, ok := err.(*exec.ExitError); ok {
			code = x.ExitCode()
		}
		return out.String(), errb.String(), code
	}
	out, errOut, code := invoke("echo_tool", "--args", `{"message":"hi"}`, "--artifact", "in.txt=in.txt", "--user", "alice")
	require.Equal(t, 0, code, errOut)
	var res struct {
		ToolResult       map[string]string           `json:"tool_result"`
		CreatedArtifacts []struct{ Filename string } `json:"created_artifacts"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	assert.Equal(t, map[string]string{"echo": "hi", "input": "from a file"}, res.ToolResult)
	require.Len(t, res.CreatedArtifacts, 1, out)
	assert.Equal(t, "out.txt", res.CreatedArtifacts[0].Filename)
	assert.Contains(t, errOut, "status: working")

	// the bus takes no anonymous client; the operator's credentials are 0600
	_, err := nats.Connect("nats://"+addr, nats.Timeout(2*time.Second))
	assert.Error(t, err, "an anonymous client joined the worker's bus")
	fi, err := os.Stat(defaultCredsPath(addr))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	b, err := os.ReadFile(filepath.Join(dir, "store", "default", "alice", "user", "out.txt", "0"))
	require.NoError(t, err)
	assert.Equal(t, "hi", string(b))

	out, _, code = invoke("--args", `{"text":"one two three"}`, "words")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `"tool_result": 3`)

	start := time.Now()
	_, errOut, code = invoke("nobody")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "NO_WORKER")
	assert.Less(t, time.Since(start), 5*time.Second)

	_, errOut, code = invoke()
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "which tool?")

	require.NoError(t, worker.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- worker.Wait() }()
	select {
	case err := <-done:
		assert.NoError(t, err, fmt.Sprint(wlog.String()))
	case <-time.After(30 * time.Second):
		t.Fatal("the worker did not stop on SIGTERM")
	}
}

// startWorker starts `wasmsand worker` on dir's manifest with an embedded NATS server
// on a free loopback port, and waits until it serves; it is killed when the test ends.
func startWorker(t *testing.T, bin string, env []string, dir string, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	worker := exec.Command(bin, append([]string{"worker", "--manifest", filepath.Join(dir, "manifest.yaml"), "--nats-listen", addr}, args...)...)
	worker.Env = env
	wlog := &syncBuffer{}
	worker.Stderr = wlog
	require.NoError(t, worker.Start())
	t.Cleanup(func() { _ = worker.Process.Kill(); _ = worker.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(wlog.String(), "msg=serving") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	return addr, worker, wlog
}

// syncBuffer is a bytes.Buffer a process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWorkerInvokeDurable: --durable and --artifact-store nats with the embedded
// server: an input sent by reference through the object store, an output stored there.
func TestWorkerInvokeDurable(t *testing.T) {
	bin, assets := builtCLI(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte(
		"version: 1\ntools:\n  up: {runtime: shell, command: 'tr a-z A-Z < input/in.txt > output/up.txt; cat output/up.txt'}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in.txt"), []byte("by reference"), 0o644))
	env := append(os.Environ(), "WASMSAND_ASSETS="+assets)
	addr, _, wlog := startWorker(t, bin, env, dir, "--durable", "--artifact-store", "nats", "--nats-store", filepath.Join(dir, "js"))
	c := exec.Command(bin, "invoke", "--nats", "nats://"+addr, "--durable", "--artifact-store", "nats",
		"--artifact", "in.txt=in.txt", "--user", "bob", "up")
	c.Env, c.Dir = env, dir
	out, err := c.CombinedOutput()
	require.NoError(t, err, "%s\n%s", out, wlog.String())
	assert.Contains(t, string(out), `"stdout": "BY REFERENCE"`)
	assert.Contains(t, string(out), `"filename": "up.txt"`)
}
