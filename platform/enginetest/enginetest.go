// Package enginetest is the suite every platform.Engine passes, run on
// wazero by platform/native's tests and on the JS engine by platform/js's
// (under GOOS=js, in Node), as wazero's internal/testing/enginetest runs
// the same cases on its compiler and interpreter. Engine-specific tests
// (wazero's own WASI as a reference, disk caches, pre-initialization) stay
// with their engine.
//
// The guests are the C programs of testdata/guests, built natively by
// internal/testguest; a GOOS=js test binary cannot run clang, so
// TestExportGuests (natively, with WASMSAND_EXPORT_GUESTS=DIR) writes them
// out for it first (make test-js does).
package enginetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// Guests are the programs of testdata/guests the suite runs.
var Guests = []string{"hello", "exitcode", "trap", "oom", "spin", "cat", "args", "poll", "fdlimit", "pwd", "state"}

// Harness is what an engine's test gives the suite.
type Harness struct {
	Engine platform.Engine
	// Guest returns the wasm of testdata/guests/<name>.c.
	Guest func(t testing.TB, name string) []byte
}

// Run runs every case as a subtest.
func Run(t *testing.T, h Harness) {
	for _, c := range []struct {
		name string
		f    func(*testing.T, Harness)
	}{
		{"Hello", testHello},
		{"ExitCodes", testExitCodes},
		{"Traps", testTraps},
		{"InvalidModule", testInvalidModule},
		{"MemoryLimit", testMemoryLimit},
		{"Timeout", testTimeout},
		{"Cancel", testCancel},
		{"CatStdin", testCatStdin},
		{"ArgsEnv", testArgsEnv},
		{"Poll", testPoll},
		{"FDLimit", testFDLimit},
		{"Cwd", testCwd},
		{"StdoutToVFSFile", testStdoutToVFSFile},
		{"CompileCachesByKey", testCompileCachesByKey},
		{"FreshState", testFreshState},
	} {
		t.Run(c.name, func(t *testing.T) { c.f(t, h) })
	}
}

type result struct {
	stdout, stderr string
	code           int
	err            error
}

type runOpt struct {
	args   []string
	env    []string
	stdin  io.Reader
	stdout io.Writer
	limits platform.Limits
	ctx    context.Context
	maxFDs int
	cwd    string
	fs     *vfs.FS
}

func (h Harness) run(t testing.TB, guest string, o runOpt) result {
	t.Helper()
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := h.Engine.Compile(ctx, "", h.Guest(t, guest))
	if err != nil {
		t.Fatalf("compile %s: %v", guest, err)
	}
	if o.fs == nil {
		o.fs = vfs.New(vfs.Options{})
	}
	if o.args == nil {
		o.args = []string{guest}
	}
	var out, errb strings.Builder
	p := &wasi.Proc{Args: o.args, Env: o.env, FS: o.fs, Stdin: o.stdin, Stdout: &out, Stderr: &errb,
		MaxFDs: o.maxFDs, Cwd: o.cwd}
	if o.stdout != nil {
		p.Stdout = o.stdout
	}
	code, err := m.Run(ctx, p, o.limits)
	p.Close()
	return result{stdout: out.String(), stderr: errb.String(), code: code, err: err}
}

func eq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s: got %#v, want %#v", what, got, want)
	}
}

func isErr(t testing.TB, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func ok(t testing.TB, r result) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("run: %v (stderr %q)", r.err, r.stderr)
	}
}

func testHello(t *testing.T, h Harness) {
	r := h.run(t, "hello", runOpt{})
	ok(t, r)
	eq(t, "stdout", r.stdout, "hello, world\n")
	eq(t, "exit", r.code, 0)
}

func testExitCodes(t *testing.T, h Harness) {
	for _, c := range []struct {
		arg  string
		code int
	}{{"0", 0}, {"1", 1}, {"42", 42}, {"255", 255}, {"256", 0}} {
		r := h.run(t, "exitcode", runOpt{args: []string{"exitcode", c.arg}})
		ok(t, r)
		eq(t, "exit "+c.arg, r.code, c.code)
		eq(t, "stdout", r.stdout, "exiting with "+c.arg+"\n")
	}
}

// Traps end with 134 and the same reason on every engine.
func testTraps(t *testing.T, h Harness) {
	for _, c := range []struct{ what, reason string }{
		{"unreachable", "unreachable"},
		{"oob", "out of bounds memory access"},
		{"stack", "stack overflow"},
		{"div", "integer divide by zero"},
	} {
		r := h.run(t, "trap", runOpt{args: []string{"trap", c.what}})
		isErr(t, r.err, platform.ErrTrap)
		eq(t, c.what+": exit", r.code, platform.ExitTrap)
		eq(t, c.what+": stdout", r.stdout, "before "+c.what+"\n")
		eq(t, c.what+": stderr", r.stderr, "wasmsand: trap: trap: "+c.reason+"\n")
	}
	// the engine survives and runs the next guest
	eq(t, "after", h.run(t, "hello", runOpt{}).stdout, "hello, world\n")
}

func testInvalidModule(t *testing.T, h Harness) {
	for name, bin := range map[string][]byte{
		"garbage":   []byte("not wasm at all"),
		"empty":     {},
		"truncated": h.Guest(t, "hello")[:100],
		// (module (import "env" "f" (func)) (memory (export "memory") 1) (func (export "_start")))
		"unknown import": {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
			0x02, 0x09, 0x01, 0x03, 'e', 'n', 'v', 0x01, 'f', 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
			0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x13, 0x02, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00,
			0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x01, 0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b},
		// (module (memory (export "memory") 1))
		"no _start": {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01,
			0x07, 0x0a, 0x01, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00},
	} {
		_, err := h.Engine.Compile(context.Background(), "", bin)
		if !errors.Is(err, platform.ErrInvalidModule) {
			t.Errorf("%s: error %v, want ErrInvalidModule", name, err)
		}
	}
}

func testMemoryLimit(t *testing.T, h Harness) {
	lim := platform.Limits{MemoryPages: 256} // 16 MiB
	r := h.run(t, "oom", runOpt{limits: lim})
	isErr(t, r.err, platform.ErrMemoryLimit)
	if r.code == 0 || !strings.Contains(r.stderr, "oom: malloc failed after 1") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	// the host is fine and a guest with room runs
	ok(t, h.run(t, "hello", runOpt{limits: lim}))
	// a limit below the module's declared minimum is refused up front
	isErr(t, h.run(t, "hello", runOpt{limits: platform.Limits{MemoryPages: 1}}).err, platform.ErrMemoryLimit)
}

// An endless loop ends near its deadline (through the instrumentation's
// tick: no engine can preempt a guest otherwise).
func testTimeout(t *testing.T, h Harness) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := h.run(t, "spin", runOpt{ctx: ctx})
	isErr(t, r.err, platform.ErrTimeout)
	eq(t, "exit", r.code, platform.ExitTimeout)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("stopped %v after its start, deadline 200ms", took)
	}
}

// A run canceled from outside is killed: by a timer natively, by a polled
// interrupt (how a JS AbortSignal arrives) where no timer can fire while a
// guest runs.
func testCancel(t *testing.T, h Harness) {
	start := time.Now()
	ctx, cancel := interrupt.With(context.Background(), func() bool { return time.Since(start) > 50*time.Millisecond })
	defer cancel()
	time.AfterFunc(50*time.Millisecond, cancel)
	r := h.run(t, "spin", runOpt{ctx: ctx})
	isErr(t, r.err, platform.ErrKilled)
	eq(t, "exit", r.code, platform.ExitKilled)
	ok(t, h.run(t, "hello", runOpt{}))
}

func testCatStdin(t *testing.T, h Harness) {
	in := strings.Repeat("0123456789abcdef", 10000)
	r := h.run(t, "cat", runOpt{stdin: strings.NewReader(in)})
	ok(t, r)
	eq(t, "stdout", r.stdout, in)
	eq(t, "stderr", r.stderr, "cat: 160000 bytes\n")
}

func testArgsEnv(t *testing.T, h Harness) {
	r := h.run(t, "args", runOpt{args: []string{"args", "one", "two words", ""}, env: []string{"A=1", "B=x=y"}, cwd: "/home/user"})
	ok(t, r)
	eq(t, "stdout", r.stdout, "argc=4\nargv[0]=[args]\nargv[1]=[one]\nargv[2]=[two words]\nargv[3]=[]\n"+
		"env [A=1]\nenv [B=x=y]\nenv [PWD=/home/user]\n")
}

func testPoll(t *testing.T, h Harness) {
	r := h.run(t, "poll", runOpt{stdin: strings.NewReader("ping")})
	ok(t, r)
	eq(t, "stdout", r.stdout, "poll stdin -> 1 revents in=1\nread 4 [ping]\npoll stdout -> 1 out=1\n"+
		"poll none 30ms -> 0\nwaited >= 30ms: 1\npoll bad fd -> 1 nval=1\n")
}

// Tree is a small file tree some cases run in.
func Tree(t testing.TB) *vfs.FS {
	f := vfs.New(vfs.Options{})
	for _, d := range []string{"/data/dir/sub", "/data/empty", "/tmp"} {
		if err := f.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, data := range map[string]string{"/data/a.txt": "alpha\n", "/data/b.txt": "bravo\n",
		"/data/dir/a": "dir/a\n", "/data/dir/b": "dir/b\n", "/data/dir/sub/deep": "deep\n"} {
		if err := f.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func testFDLimit(t *testing.T, h Harness) {
	for _, max := range []int{8, 64} {
		r := h.run(t, "fdlimit", runOpt{fs: Tree(t), maxFDs: max})
		ok(t, r)
		eq(t, fmt.Sprint("max ", max), r.stdout,
			fmt.Sprintf("opened %d, then No file descriptors available (last fd %d)\n", max-4, max-1))
	}
}

// C guests linked with assets/shim/cwd.c start in Proc.Cwd.
func testCwd(t *testing.T, h Harness) {
	r := h.run(t, "pwd", runOpt{fs: Tree(t), cwd: "/data"})
	ok(t, r)
	eq(t, "stdout", r.stdout, "cwd /data\na.txt: alpha\n")
}

// A *vfs.File as stdout (a shell redirect) is a real file to the guest.
func testStdoutToVFSFile(t *testing.T, h Harness) {
	fsys := Tree(t)
	f, err := fsys.OpenFile("/tmp/out.txt", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	ok(t, h.run(t, "cat", runOpt{fs: fsys, stdout: f, stdin: strings.NewReader("redirected\n")}))
	if err := f.Close(); err != nil {
		t.Fatal("the creator still owns (and closes) the file:", err)
	}
	b, _ := fsys.ReadFile("/tmp/out.txt")
	eq(t, "file", string(b), "redirected\n")
}

func testCompileCachesByKey(t *testing.T, h Harness) {
	ctx := context.Background()
	m1, err := h.Engine.Compile(ctx, "k-hello", h.Guest(t, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	m2, err := h.Engine.Compile(ctx, "k-hello", nil) // same key: the bytes are not looked at again
	if err != nil || m1 != m2 {
		t.Errorf("second compile: %v, same module %v", err, m1 == m2)
	}
}

// Every run starts from a fresh instance's state (bss, data, heap), even
// where an engine reuses instances, and after a run that trapped.
func testFreshState(t *testing.T, h Harness) {
	for i := 0; i < 3; i++ {
		r := h.run(t, "state", runOpt{})
		ok(t, r)
		eq(t, fmt.Sprint("run ", i), r.stdout, "counter=0 data=fresh heap=0\n")
		h.run(t, "trap", runOpt{args: []string{"trap", "oob"}})
	}
}
