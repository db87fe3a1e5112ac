package core

import (
	"context"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/internal/testguest"
	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/platform/native"
)

// installGuests puts the test guests into /usr/bin of a sandbox.
func installGuests(t *testing.T, sb *Sandbox, names ...string) {
	t.Helper()
	for _, n := range names {
		wasm := testguest.C(t, "testdata/guests/"+n+".c")
		require.NoError(t, sb.WriteFile("/usr/bin/"+n, wasm, 0o755))
	}
}

func TestGuestPipelines(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "yes", "cat")

	// yes | reader: the reader's exit closes the pipe and yes ends (EPIPE).
	res := mustRun(t, sb, "yes | { read -r l; echo \"first: $l\"; }; echo \"${PIPESTATUS[@]}\"")
	assert.Equal(t, "first: y\n1 0\n", string(res.Stdout), string(res.Stderr))

	// A big file streams through a pipeline of guests.
	big := strings.Repeat("0123456789abcdef\n", 200_000) // 3.4 MB
	require.NoError(t, sb.WriteFile("/home/user/big.txt", []byte(big), 0))
	res = mustRun(t, sb, "cat big.txt | cat | cat > out.txt; n=0; while read -r l; do n=$((n+1)); done < out.txt; echo $n")
	assert.Equal(t, "200000\n", string(res.Stdout), string(res.Stderr))

	res = mustRun(t, sb, "cat nosuch; echo st=$?")
	assert.Equal(t, "st=1\n", string(res.Stdout))
	assert.Contains(t, string(res.Stderr), "nosuch: No such file or directory")
}

func TestGuestTimeoutKilled(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: 500 * time.Millisecond})
	installGuests(t, sb, "spin")
	start := time.Now()
	res := mustRun(t, sb, "spin")
	assert.True(t, res.TimedOut)
	assert.Equal(t, 124, res.ExitCode)
	assert.Less(t, time.Since(start), 5*time.Second, "killed near its timeout")
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
}

func TestGuestMemoryLimit(t *testing.T) {
	sb := testSandbox(t, Options{MemoryLimitMB: 32})
	installGuests(t, sb, "oom")
	res := mustRun(t, sb, "oom; echo st=$?")
	assert.NotContains(t, string(res.Stdout), "st=0")
	assert.True(t, strings.Contains(string(res.Stdout), "malloc failed") || strings.Contains(string(res.Stderr), "memory"),
		"stdout %q stderr %q", res.Stdout, res.Stderr)
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
}

func TestSpawnAndSystem(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "system", "cat")
	res := mustRun(t, sb, `X=exported; export X; system 'echo "in child: $X $PWD"; echo piped | cat; exit 3'`)
	assert.Equal(t, "in child: exported /home/user\npiped\nchild status 3\n", string(res.Stdout), string(res.Stderr))
}

func TestSpawnBombStopped(t *testing.T) {
	sb := testSandbox(t, Options{MaxProcesses: 16, Timeout: 20 * time.Second})
	installGuests(t, sb, "bomb")
	res := mustRun(t, sb, "bomb")
	assert.False(t, res.TimedOut)
	assert.Contains(t, string(res.Stderr), "bomb: spawn")

	// The same from shell scripts: each script is a process.
	require.NoError(t, sb.WriteFile("/home/user/b.sh", []byte("#!/bin/bash\n./b.sh | ./b.sh\n"), 0o755))
	res = mustRun(t, sb, "./b.sh")
	assert.False(t, res.TimedOut)
	assert.Contains(t, string(res.Stderr), "Resource temporarily unavailable")
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
}

func TestShellForkBombStopped(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: 10 * time.Second})
	before := runtime.NumGoroutine()
	res := mustRun(t, sb, "bomb() { bomb | bomb; }; bomb")
	assert.Contains(t, string(res.Stderr), "Resource temporarily unavailable")
	// The classic one keeps replacing its jobs at the limit, as under a
	// kernel's process limit, until the run's timeout ends it, or, on a
	// loaded machine, the flood of "fork: retry" messages does first
	// (output past twice OutputLimit ends a run with 141).
	res, err := sb.Run(context.Background(), ":(){ :|:& };:; while :; do :; done", RunOptions{Timeout: 2 * time.Second})
	require.NoError(t, err)
	assert.Contains(t, string(res.Stderr), "Resource temporarily unavailable")
	assert.True(t, res.TimedOut || res.ExitCode == exitFlooded && res.Truncated, "exit %d", res.ExitCode)
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
	require.Eventually(t, func() bool { return runtime.NumGoroutine() < before+100 }, 20*time.Second, 100*time.Millisecond,
		"the bomb's goroutines end")
}

// Unbounded recursion in the shell stops at a depth limit, long before its
// goroutine's stack could threaten the process; moderate recursion works.
func TestShellRecursionStopped(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: time.Minute})
	for _, script := range []string{"f() { f; }; f; echo after", "g() { eval g; }; g", "h() { x=$(h); }; h"} {
		res := mustRun(t, sb, script)
		assert.False(t, res.TimedOut, script)
		assert.Equal(t, 1, res.ExitCode, script)
		assert.NotContains(t, string(res.Stdout), "after", script)
		// the depth limit, or the process limit for nested $(...)
		assert.Regexp(t, "maximum function nesting level exceeded|Resource temporarily unavailable", string(res.Stderr), script)
	}
	res := mustRun(t, sb, "f() { if [ $1 -gt 0 ]; then f $(( $1 - 1 )); else echo bottom; fi; }; f 1000")
	assert.Equal(t, "bottom\n", string(res.Stdout), "%s", res.Stderr)
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
}

// The shell's own memory (variables, captured output) is bounded: a script
// doubling a string or an array stops with an error instead of growing the
// host process until it dies.
func TestShellMemoryBounded(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: time.Minute})
	for _, script := range []string{
		"x=a; while :; do x=$x$x; done",
		"x=a; for i in {1..40}; do x+=$x; done",
		"f() { local y=a; for i in {1..40}; do y=$y$y; done; }; f",
		"a=(x); for i in {1..40}; do a=(\"${a[@]}\" \"${a[@]}\"); done",
		"declare -A m=([k]=v); for i in {1..40}; do m[k]=${m[k]}${m[k]}; done",
	} {
		res := mustRun(t, sb, script+"; echo after")
		assert.False(t, res.TimedOut, script)
		assert.Equal(t, 1, res.ExitCode, script)
		assert.NotContains(t, string(res.Stdout), "after", script)
		assert.Contains(t, string(res.Stderr), "xrealloc: cannot allocate", script)
	}
	installGuests(t, sb, "yes")
	res := mustRun(t, sb, `x=$(yes); echo "status=$? bytes=${#x}"`)
	assert.Equal(t, "status=1 bytes=67108863\n", string(res.Stdout), "%s", res.Stderr)
	// Ordinary use is untouched, $? included.
	res = mustRun(t, sb, `x=$(echo 1 2 3); y=$(false); echo "$? $x"; set -x; z=1`)
	assert.Equal(t, "1 1 2 3\n", string(res.Stdout))
	assert.Equal(t, "+ z=1\n", string(res.Stderr))
}

func TestRunWASI(t *testing.T) {
	sb := testSandbox(t, Options{})
	require.NoError(t, sb.WriteFile("/home/user/in.txt", []byte("file data\n"), 0))
	res, err := sb.RunWASI(context.Background(), testguest.C(t, "testdata/guests/cat.c"), []string{"cat", "in.txt"}, RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "file data\n", string(res.Stdout))
	assert.Equal(t, 0, res.ExitCode)

	_, err = sb.RunWASI(context.Background(), []byte("\x00asm\x01\x00\x00\x00junk"), nil, RunOptions{})
	assert.Equal(t, CodeInvalidModule, ErrorCode(err))

	sb2 := testSandbox(t, Options{Timeout: 300 * time.Millisecond})
	res, err = sb2.RunWASI(context.Background(), testguest.C(t, "testdata/guests/spin.c"), nil, RunOptions{})
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
}

// seqEngine makes the native engine look like one whose guests cannot yield
// (the JS engine), so the batched scheduler runs here too.
type seqEngine struct{ platform.Engine }

func (seqEngine) Sequential() bool { return true }

func TestBatchedScheduler(t *testing.T) {
	eng, err := native.Default(context.Background())
	require.NoError(t, err)
	sb := testSandbox(t, Options{Engine: seqEngine{eng}, BatchLimit: 1 << 20})
	installGuests(t, sb, "yes", "cat")

	res := mustRun(t, sb, "yes | { read -r l; echo \"first: $l\"; }")
	assert.Equal(t, "first: y\n", string(res.Stdout), "a full buffer ends the producer like a closed pipe")

	data := strings.Repeat("line\n", 100_000)
	require.NoError(t, sb.WriteFile("/home/user/in.txt", []byte(data), 0))
	res = mustRun(t, sb, "cat in.txt | cat | cat > out.txt")
	require.Equal(t, 0, res.ExitCode, string(res.Stderr))
	out, err := sb.ReadFile("/home/user/out.txt")
	require.NoError(t, err)
	assert.Equal(t, data, string(out), "stages run one after another with the same result")
}

// blockingReader never returns: a guest reading it must still end at the timeout.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

func TestBlockedStdinEndsAtTimeout(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: 300 * time.Millisecond, KillGrace: 10 * time.Second})
	installGuests(t, sb, "cat")
	start := time.Now()
	res, err := sb.Run(context.Background(), "cat", RunOptions{Stdin: blockingReader{}})
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	assert.Less(t, time.Since(start), 5*time.Second, "not held until the kill grace")
}

func TestTerminalStdin(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "isatty")
	tty, w, err := os.Pipe() // an *os.File standing in for a terminal
	require.NoError(t, err)
	w.Close()
	defer tty.Close()
	res, err := sb.Run(context.Background(), "isatty; echo | isatty", RunOptions{Stdin: tty, Terminal: true})
	require.NoError(t, err)
	assert.Equal(t, "1 0 0\n0 0 0\n", string(res.Stdout), string(res.Stderr))
	res, err = sb.Run(context.Background(), "isatty", RunOptions{Stdin: tty})
	require.NoError(t, err)
	assert.Equal(t, "0 0 0\n", string(res.Stdout))
}

// TestDevTTY: /dev/tty is the run's terminal when it has one (its
// controlling terminal: read from the terminal's input even when stdin is
// redirected, written to its output), for the shell and for guests; without
// one, opening it fails with ENXIO, as on Linux.
func TestDevTTY(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "cat")
	in := &chunkReader{chunks: []string{"typed\n", "more\n"}}
	var out ttyOut
	res, err := sb.Run(context.Background(), `read a </dev/tty; echo "got $a"; [ -t 1 ] && echo t1; echo prompt >/dev/tty; cat /dev/tty >/dev/null; echo "status $?"; cat /dev/tty`, RunOptions{Stdin: in, Terminal: true, Stdout: &out})
	require.NoError(t, err)
	assert.Equal(t, "got typed\nt1\nprompt\nstatus 0\n", out.String(), string(res.Stderr))

	res = mustRun(t, sb, `echo x >/dev/tty; echo "status $?"; cat /dev/tty; echo "status $?"; [ -c /dev/tty ] && echo device`)
	assert.Equal(t, "status 1\nstatus 1\ndevice\n", string(res.Stdout))
	assert.Equal(t, "bash: /dev/tty: No such device or address\ncat: /dev/tty: No such device or address\n", string(res.Stderr))
}

type ttyOut struct{ strings.Builder }

func (*ttyOut) IsTerminal() bool { return true }

// TestNoStdinIsDevNull: a run given no stdin reads /dev/null, the device,
// as a process started with </dev/null does (rg searches the working
// directory then, where it would search an empty pipe), and it is no tty.
func TestNoStdinIsDevNull(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "isatty", "cat")
	res := mustRun(t, sb, `[ -c /dev/stdin ] && echo device; [ -p /dev/stdin ] || echo no-pipe; isatty; cat; echo "cat: $?"; echo x | { [ -p /dev/stdin ] && echo pipe; }`)
	assert.Equal(t, "device\nno-pipe\n0 0 0\ncat: 0\npipe\n", string(res.Stdout), string(res.Stderr))
	res, err := sb.Run(context.Background(), `[ -c /dev/stdin ] || echo not-null; cat`, RunOptions{Stdin: strings.NewReader("in\n")})
	require.NoError(t, err)
	assert.Equal(t, "not-null\nin\n", string(res.Stdout), string(res.Stderr))
}

func TestPermissionsApply(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "cat")
	res := mustRun(t, sb, `echo x > f; chmod_() { :; }; cat f > /dev/null && echo readable`)
	assert.Equal(t, "readable\n", string(res.Stdout))
	require.NoError(t, sb.FS().Chmod("/home/user/f", 0o200))
	res = mustRun(t, sb, `cat f; echo st=$?; echo y > f && echo written; echo z > /etc/passwd; echo st=$?`)
	assert.Equal(t, "st=1\nwritten\nst=1\n", string(res.Stdout))
	assert.Contains(t, string(res.Stderr), "f: Permission denied")
	assert.Contains(t, string(res.Stderr), "bash: /etc/passwd: Permission denied")
	// The host API is not a sandbox process: it may write anywhere.
	require.NoError(t, sb.WriteFile("/etc/motd", []byte("hi\n"), 0))
}

// chunkReader is a ContextReader handing out its chunks one Read at a
// time (a person typing lines), then end of file, or with block set, waiting
// until its run's context ends.
type chunkReader struct {
	chunks []string
	block  bool
	ctx    context.Context
	reads  int
}

func (c *chunkReader) WithContext(ctx context.Context) io.Reader { c.ctx = ctx; return c }

func (c *chunkReader) ReadsInPlace() bool { return true }

func (c *chunkReader) Read(p []byte) (int, error) {
	c.reads++
	if len(c.chunks) > 0 {
		n := copy(p, c.chunks[0])
		if c.chunks[0] = c.chunks[0][n:]; c.chunks[0] == "" {
			c.chunks = c.chunks[1:]
		}
		return n, nil
	}
	if !c.block {
		return 0, io.EOF
	}
	<-c.ctx.Done()
	return 0, c.ctx.Err()
}

func TestContextReaderStdin(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: 2 * time.Second, KillGrace: 10 * time.Second})
	installGuests(t, sb, "cat", "isatty")
	// read directly, so what the shell's read builtin leaves is there for the next
	// reader (no read-ahead); a tty to guests with Terminal
	in := &chunkReader{chunks: []string{"one\n", "two\nthree\n"}}
	res, err := sb.Run(context.Background(), "read a; echo got $a; isatty; [ -t 0 ] && echo shell-tty; cat", RunOptions{Stdin: in, Terminal: true})
	require.NoError(t, err)
	assert.Equal(t, "got one\n1 0 0\nshell-tty\ntwo\nthree\n", string(res.Stdout), string(res.Stderr))
	require.NotNil(t, in.ctx)
	// read takes its line a byte at a time: the rest stays in the reader
	in = &chunkReader{chunks: []string{"a\nb\n"}}
	res, err = sb.Run(context.Background(), "read x; echo $x", RunOptions{Stdin: in, Terminal: true})
	require.NoError(t, err)
	assert.Equal(t, "a\n", string(res.Stdout))
	assert.Equal(t, []string{"b\n"}, in.chunks)
	// a reader waiting for input that does not come ends with the run's timeout
	in = &chunkReader{chunks: []string{"x\n"}, block: true}
	start := time.Now()
	res, err = sb.Run(context.Background(), "while read l; do echo got $l; done", RunOptions{Stdin: in, Timeout: 300 * time.Millisecond})
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
	assert.Equal(t, "got x\n", string(res.Stdout))
	assert.Less(t, time.Since(start), 5*time.Second, "not held until the kill grace")
	// without Terminal it is no tty; a run that does not read it never calls Read
	in = &chunkReader{chunks: []string{"x\n"}}
	res, err = sb.Run(context.Background(), "isatty </dev/null; echo done", RunOptions{Stdin: in})
	require.NoError(t, err)
	assert.Equal(t, "0 0 0\ndone\n", string(res.Stdout))
	assert.Equal(t, 0, in.reads)

	// the batched scheduler (the JS engine's) gives it to guests as it is, not read
	// to its end first: a tty, read as input comes
	eng, err := native.Default(context.Background())
	require.NoError(t, err)
	sb = testSandbox(t, Options{Engine: seqEngine{eng}, KillGrace: 10 * time.Second})
	installGuests(t, sb, "cat", "isatty")
	in = &chunkReader{chunks: []string{"one\n", "two\n"}}
	res, err = sb.Run(context.Background(), "read a; echo got $a; isatty; cat", RunOptions{Stdin: in, Terminal: true})
	require.NoError(t, err)
	assert.Equal(t, "got one\n1 0 0\ntwo\n", string(res.Stdout), string(res.Stderr))
	in = &chunkReader{chunks: []string{"x\n"}, block: true}
	res, err = sb.Run(context.Background(), "cat", RunOptions{Stdin: in, Timeout: 300 * time.Millisecond})
	require.NoError(t, err)
	assert.True(t, res.TimedOut)
}
