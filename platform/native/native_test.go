package native

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
)

func TestHello(t *testing.T) {
	r := runOurs(t, cGuest(t, "hello"), vfs.New(vfs.Options{}), runOpt{args: []string{"hello"}})
	require.NoError(t, r.err)
	assert.Equal(t, "hello, world\n", r.stdout)
	assert.Equal(t, 0, r.code)
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		code int
	}{{"0", 0}, {"1", 1}, {"42", 42}, {"255", 255}, {"256", 0}} {
		t.Run(tc.arg, func(t *testing.T) {
			r := runOurs(t, cGuest(t, "exitcode"), vfs.New(vfs.Options{}), runOpt{args: []string{"exitcode", tc.arg}})
			require.NoError(t, r.err)
			assert.Equal(t, tc.code, r.code)
			assert.Equal(t, "exiting with "+tc.arg+"\n", r.stdout)
		})
	}
}

func TestTraps(t *testing.T) {
	for _, tc := range []struct{ what, reason string }{
		{"unreachable", "unreachable"},
		{"oob", "out of bounds memory access"},
		{"stack", "stack overflow"},
		{"div", "integer divide by zero"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			r := runOurs(t, cGuest(t, "trap"), vfs.New(vfs.Options{}), runOpt{args: []string{"trap", tc.what}})
			require.ErrorIs(t, r.err, platform.ErrTrap)
			assert.Equal(t, platform.ExitTrap, r.code)
			assert.Equal(t, "before "+tc.what+"\n", r.stdout)
			assert.Equal(t, "wasmsand: trap: trap: "+tc.reason+"\n", r.stderr)
		})
	}
	// The engine survives and runs the next guest.
	r := runOurs(t, cGuest(t, "hello"), vfs.New(vfs.Options{}), runOpt{args: []string{"hello"}})
	assert.Equal(t, "hello, world\n", r.stdout)
}

func TestInvalidModule(t *testing.T) {
	e := testEngine(t)
	for name, bin := range map[string][]byte{
		"garbage":   []byte("not wasm at all"),
		"empty":     {},
		"truncated": cGuest(t, "hello")[:100],
		// (module (import "env" "f" (func)) (memory (export "memory") 1) (func (export "_start")))
		"unknown import": {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
			0x02, 0x09, 0x01, 0x03, 'e', 'n', 'v', 0x01, 'f', 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
			0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x13, 0x02, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00,
			0x06, '_', 's', 't', 'a', 'r', 't', 0x00, 0x01, 0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b},
		// (module (memory (export "memory") 1))
		"no _start": {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x05, 0x03, 0x01, 0x00, 0x01,
			0x07, 0x0a, 0x01, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.Compile(context.Background(), "", bin)
			require.ErrorIs(t, err, platform.ErrInvalidModule)
			t.Log(err)
		})
	}
}

func TestMemoryLimit(t *testing.T) {
	r := runOurs(t, cGuest(t, "oom"), vfs.New(vfs.Options{}), runOpt{
		args: []string{"oom"}, limits: platform.Limits{MemoryPages: 256}, // 16 MiB
	})
	require.ErrorIs(t, r.err, platform.ErrMemoryLimit)
	assert.NotZero(t, r.code)
	assert.Contains(t, r.stderr, "oom: malloc failed after 1")
	// The host is fine and a guest with room runs.
	r = runOurs(t, cGuest(t, "hello"), vfs.New(vfs.Options{}), runOpt{args: []string{"hello"}, limits: platform.Limits{MemoryPages: 256}})
	require.NoError(t, r.err)
	// A limit below the module's declared minimum is refused up front.
	r = runOurs(t, cGuest(t, "hello"), vfs.New(vfs.Options{}), runOpt{args: []string{"hello"}, limits: platform.Limits{MemoryPages: 1}})
	require.ErrorIs(t, r.err, platform.ErrMemoryLimit)
}

func TestTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := runOurs(t, cGuest(t, "spin"), vfs.New(vfs.Options{}), runOpt{args: []string{"spin"}, ctx: ctx})
	took := time.Since(start)
	require.ErrorIs(t, r.err, platform.ErrTimeout)
	assert.Equal(t, platform.ExitTimeout, r.code)
	assert.Less(t, took, time.Second, "killed near its deadline")

	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	r = runOurs(t, cGuest(t, "spin"), vfs.New(vfs.Options{}), runOpt{args: []string{"spin"}, ctx: ctx})
	require.ErrorIs(t, r.err, platform.ErrKilled)
	assert.Equal(t, platform.ExitKilled, r.code)
}

// A guest blocked reading a pipe that nobody writes is still stopped by its deadline
// once the pipe is closed by the process manager (here: by hand).
func TestTimeoutWhileBlockedOnStdin(t *testing.T) {
	pr, pw := vfs.Pipe(0)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	context.AfterFunc(ctx, func() { pw.Close() })
	r := runOurs(t, cGuest(t, "cat"), vfs.New(vfs.Options{}), runOpt{args: []string{"cat"}, ctx: ctx, stdin: pr})
	require.ErrorIs(t, r.err, platform.ErrTimeout)
}

func TestCatStdin(t *testing.T) {
	in := strings.Repeat("0123456789abcdef", 10000)
	r := runOurs(t, cGuest(t, "cat"), vfs.New(vfs.Options{}), runOpt{args: []string{"cat"}, stdin: strings.NewReader(in)})
	require.NoError(t, r.err)
	assert.Equal(t, in, r.stdout)
	assert.Equal(t, "cat: 160000 bytes\n", r.stderr)
}

// yes | head -1: yes must end once its reader is gone.
func TestEPIPE(t *testing.T) {
	pr, pw := vfs.Pipe(0)
	done := make(chan result, 1)
	go func() {
		m, err := testEngine(t).Compile(context.Background(), "", cGuest(t, "yes"))
		if err != nil {
			done <- result{err: err}
			return
		}
		var errb strings.Builder
		p := newProc(vfs.New(vfs.Options{}), []string{"yes"}, nil, pw, &errb)
		code, err := m.Run(context.Background(), p, platform.Limits{})
		done <- result{code: code, err: err, stderr: errb.String()}
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "y\n", line)
	pr.Close()
	select {
	case r := <-done:
		require.NoError(t, r.err)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, "yes: Broken pipe")
	case <-time.After(5 * time.Second):
		t.Fatal("yes did not stop after its reader closed")
	}
}

func TestArgsEnv(t *testing.T) {
	r := runOurs(t, cGuest(t, "args"), vfs.New(vfs.Options{}), runOpt{
		args: []string{"args", "one", "two words", ""}, env: []string{"A=1", "B=x=y"}, cwd: "/home/user",
	})
	require.NoError(t, r.err)
	assert.Equal(t, "argc=4\nargv[0]=[args]\nargv[1]=[one]\nargv[2]=[two words]\nargv[3]=[]\n"+
		"env [A=1]\nenv [B=x=y]\nenv [PWD=/home/user]\n", r.stdout)
}

func TestPoll(t *testing.T) {
	r := runOurs(t, cGuest(t, "poll"), vfs.New(vfs.Options{}), runOpt{args: []string{"poll"}, stdin: strings.NewReader("ping")})
	require.NoError(t, r.err)
	assert.Equal(t, "poll stdin -> 1 revents in=1\nread 4 [ping]\npoll stdout -> 1 out=1\n"+
		"poll none 30ms -> 0\nwaited >= 30ms: 1\npoll bad fd -> 1 nval=1\n", r.stdout)
}

func TestFDLimit(t *testing.T) {
	f := vfsTree(t, fsTree)
	for _, max := range []int{8, 64} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			r := runOurs(t, cGuest(t, "fdlimit"), f, runOpt{args: []string{"fdlimit"}, maxFDs: max})
			require.NoError(t, r.err)
			assert.Equal(t, 0, r.code)
			assert.Equal(t, fmt.Sprintf("opened %d, then No file descriptors available (last fd %d)\n", max-4, max-1), r.stdout)
		})
	}
}

func TestGoGuest(t *testing.T) {
	f := vfsTree(t, fsTree)
	r := runOurs(t, goGuest(t, "fsgo"), f, runOpt{args: []string{"fsgo"}, env: []string{"GREETING=hi"}, cwd: "/data"})
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, 0, r.code, r.stderr)
	t.Log(r.stdout)
}

func TestConcurrentRuns(t *testing.T) {
	m, err := testEngine(t).Compile(context.Background(), "", cGuest(t, "cat"))
	require.NoError(t, err)
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		go func() {
			in := strings.Repeat(fmt.Sprintf("guest %d\n", i), 1000)
			var out strings.Builder
			p := newProc(vfs.New(vfs.Options{}), []string{"cat"}, nil, &out, nil)
			p.Stdin = strings.NewReader(in)
			code, err := m.Run(context.Background(), p, platform.Limits{MemoryPages: 64})
			if err == nil && (code != 0 || out.String() != in) {
				err = fmt.Errorf("guest %d: code %d, %d bytes", i, code, out.Len())
			}
			errs <- err
		}()
	}
	for i := 0; i < 16; i++ {
		require.NoError(t, <-errs)
	}
}

// A second engine (a new process) over the same cache dir finds the compiled code.
func TestDiskCache(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		e, err := New(ctx, Options{CacheDir: dir})
		require.NoError(t, err)
		m, err := e.Compile(ctx, "", cGuest(t, "hello"))
		require.NoError(t, err)
		var out strings.Builder
		code, err := m.Run(ctx, newProc(vfs.New(vfs.Options{}), []string{"hello"}, nil, &out, nil), platform.Limits{})
		require.NoError(t, err)
		assert.Equal(t, 0, code)
		assert.Equal(t, "hello, world\n", out.String())
		require.NoError(t, e.Close(ctx))
		ents, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.NotEmpty(t, ents, "compiled code on disk")
	}
	d1, err := Default(ctx)
	require.NoError(t, err)
	d2, _ := Default(ctx)
	assert.Same(t, d1, d2)
}

func TestCompileCachesByKey(t *testing.T) {
	e := testEngine(t)
	ctx := context.Background()
	m1, err := e.Compile(ctx, "k-hello", cGuest(t, "hello"))
	require.NoError(t, err)
	m2, err := e.Compile(ctx, "k-hello", nil) // same key: the bytes are not looked at again
	require.NoError(t, err)
	assert.Same(t, m1, m2)
}

// C guests linked with assets/shim/cwd.c start in Proc.Cwd.
func TestCwdConstructor(t *testing.T) {
	r := runOurs(t, cGuest(t, "pwd"), vfsTree(t, fsTree), runOpt{args: []string{"pwd"}, cwd: "/data"})
	require.NoError(t, r.err, r.stderr)
	assert.Equal(t, "cwd /data\na.txt: alpha\n", r.stdout)
}

// Natively the shell may hand a guest *os.File pipes: EPIPE must come through them too.
func TestEPIPEOsPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pw.Close()
	done := make(chan result, 1)
	go func() {
		var errb strings.Builder
		m, _ := testEngine(t).Compile(context.Background(), "", cGuest(t, "yes"))
		p := newProc(vfs.New(vfs.Options{}), []string{"yes"}, nil, pw, &errb)
		code, err := m.Run(context.Background(), p, platform.Limits{})
		done <- result{code: code, err: err, stderr: errb.String()}
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "y\n", line)
	pr.Close()
	select {
	case r := <-done:
		require.NoError(t, r.err)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, "yes: Broken pipe")
	case <-time.After(5 * time.Second):
		t.Fatal("yes did not stop after its reader closed")
	}
}

// A *vfs.File as stdout (a shell redirect) is a real file to the guest.
func TestStdoutToVFSFile(t *testing.T) {
	fsys := vfsTree(t, fsTree)
	f, err := fsys.OpenFile("/tmp/out.txt", os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	require.NoError(t, err)
	m, err := testEngine(t).Compile(context.Background(), "", cGuest(t, "cat"))
	require.NoError(t, err)
	p := newProc(fsys, []string{"cat"}, nil, f, nil)
	p.Stdin = strings.NewReader("redirected\n")
	code, err := m.Run(context.Background(), p, platform.Limits{})
	require.NoError(t, err)
	assert.Equal(t, 0, code)
	p.Close()
	require.NoError(t, f.Close(), "the creator still owns (and closes) the file")
	b, err := fsys.ReadFile("/tmp/out.txt")
	require.NoError(t, err)
	assert.Equal(t, "redirected\n", string(b))
}

func TestEngineCloseStopsRuns(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	require.NoError(t, err)
	m, err := e.Compile(ctx, "", cGuest(t, "spin"))
	require.NoError(t, err)
	time.AfterFunc(50*time.Millisecond, func() { e.Close(ctx) })
	code, err := m.Run(ctx, newProc(vfs.New(vfs.Options{}), []string{"spin"}, nil, nil, nil), platform.Limits{})
	require.ErrorIs(t, err, platform.ErrKilled)
	assert.Equal(t, platform.ExitKilled, code)
	_, err = e.Compile(ctx, "", cGuest(t, "hello"))
	assert.Error(t, err)
}
