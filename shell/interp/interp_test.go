package interp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/conformance"
	"github.com/wasmsand/wasmsand/vfs"
)

// testRunner is a shell over a fresh default VFS whose programs are not
// run (Exec answers 127 for anything outside the shell).
// syncBuffer collects output written by concurrent pipeline stages.
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

func testRunner(t testing.TB) (*Runner, *syncBuffer, *syncBuffer) {
	fsys := vfs.NewDefault(vfs.Options{MaxBytes: 64 << 20}, []string{"cat", "true"})
	cfg := &Config{
		FS: fsys, UID: 1000, GID: 1000, Version: "5.2.15(1)-release",
		VersInfo:     []string{"5", "2", "15", "1", "release", "wasm32-wasmsand"},
		LookPath:     func(env []string, dir, name string) (string, error) { return "", syscall.ENOENT },
		Exec:         func(context.Context, *ExecRequest) int { return 127 },
		MaxSubshells: 64,
	}
	r := New(cfg, []string{"PATH=/usr/bin:/bin", "HOME=/home/user"}, "/home/user", 1, 0)
	var out, errb syncBuffer
	r.SetStdio(strings.NewReader(""), &out, &errb)
	r.SetCommandMode(true)
	return r, &out, &errb
}

func runScript(t testing.TB, src string) (string, string, int) {
	r, out, errb := testRunner(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st := r.Run(ctx, src, RunOpts{Script: true})
	return out.String(), errb.String(), st
}

// These one-liners crashed the whole host process with the borrowed
// interpreter (a panic on a goroutine nobody could recover).
func TestFormerPanics(t *testing.T) {
	for _, tc := range []struct{ src, out string }{
		{"declare -A A=(1 2 3); declare -p A", "declare -A A=([3]=\"\" [1]=\"2\" )\n"},
		{"declare -A a; echo \"${a[a+1]}\"", "\n"},
		{"declare -A A; (( A[5] = 10 )); echo ${A[5]}", "10\n"},
		{"for w in a b a; do (( count[$w]++ )); done; echo ${count[0]}", "3\n"},
		{"(( a[99]=1 )); echo ${!a[@]}", "99\n"},
	} {
		out, errOut, st := runScript(t, tc.src)
		assert.Equal(t, tc.out, out, "%s: %s", tc.src, errOut)
		assert.Equal(t, 0, st, tc.src)
		assert.NotContains(t, errOut, "internal error", tc.src)
	}
}

// Bash parses and runs one complete command at a time: the commands before
// a bad arithmetic expression run, and an EXIT trap set before it fires.
func TestArithmeticErrorsAtRunTime(t *testing.T) {
	out, errOut, st := runScript(t, "trap 'echo trap' EXIT\na=(1 2 3); echo $(( a[1] )); echo $(( a[1][1] ))\necho next")
	assert.Equal(t, "2\nnext\ntrap\n", out)
	assert.Equal(t, "bash: line 2: a[1][1] : syntax error: invalid arithmetic operator (error token is \"[1] \")\n", errOut)
	assert.Equal(t, 0, st)
}

// seedScripts are the conformance suite's scripts.
// seedScripts seeds a fuzz target with the shell's conformance cases (the
// bash-* groups and "shell"; the other groups exercise guest programs, which
// the test runner does not have). Go fails a fuzz run whose -fuzztime ends
// before every seed has run once, so the seeds are kept to those.
func seedScripts(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/conformance/cases/bash-*.txt")
	files = append(files, "../../testdata/conformance/cases/shell.txt")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		group := strings.TrimSuffix(filepath.Base(p), ".txt")
		cases, err := conformance.ParseCases(group, data)
		if err != nil {
			continue
		}
		for _, c := range cases {
			f.Add(c.Script)
		}
	}
}

// FuzzRun: no script makes the shell panic (a recovered panic shows as an
// internal error) or hang past its context.
func FuzzRun(f *testing.F) {
	seedScripts(f)
	f.Add("declare -A A=(1 2 3)")
	f.Add("x=(a b); echo ${x[@]:1:-1} ${!x[*]} ${x[@]@Q}")
	f.Fuzz(func(t *testing.T, src string) {
		r, _, errb := testRunner(t)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.Run(ctx, src, RunOpts{Script: true})
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the shell did not stop at its context's end: %q", src)
		}
		require.NotContains(t, errb.String(), "internal error", "script %q", src)
	})
}

// staleCtx is past its deadline with its timer not fired yet, as a context is under
// GOOS=js while a guest holds the thread: Err() is still nil.
type staleCtx struct {
	context.Context
	deadline time.Time
}

func (c staleCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// A program stopped by the run's deadline stops the shell, even before the context's
// timer fires (the npm CLI ran `sleep 5; echo no` past --timeout and printed no).
func TestStopsWhenAProgramWasStoppedPastTheDeadline(t *testing.T) {
	for _, src := range []string{"guest; echo no", "guest || echo no", "x=$(guest); echo no", "echo $(guest) no",
		"(guest); echo no", "(guest) || echo no", "{ guest; }; echo no", "f() { guest; }; f; echo no"} {
		r, out, _ := testRunner(t)
		r.cfg.LookPath = func(env []string, dir, name string) (string, error) {
			if name == "guest" {
				return "/usr/bin/guest", nil
			}
			return "", syscall.ENOENT
		}
		r.cfg.Exec = func(context.Context, *ExecRequest) int { return 124 } // as the platform says for a timeout
		ctx := staleCtx{context.Background(), time.Now().Add(-time.Second)}
		if st := r.Run(ctx, src, RunOpts{Script: true}); st != 124 || out.String() != "" {
			t.Errorf("%q: status %d, output %q; want 124 and none", src, st, out.String())
		}
	}
}
