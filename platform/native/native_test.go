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
	"github.com/wasmsand/wasmsand/platform/enginetest"
	"github.com/wasmsand/wasmsand/vfs"
)

// A guest blocked reading a pipe that nobody writes is still stopped by its deadline
// once the pipe is closed by the process manager (here: by hand).
// TestEngine runs the suite every engine passes (platform/enginetest).
func TestEngine(t *testing.T) {
	enginetest.Run(t, enginetest.Harness{Engine: testEngine(t), Guest: cGuest})
}

func TestTimeoutWhileBlockedOnStdin(t *testing.T) {
	pr, pw := vfs.Pipe(0)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	context.AfterFunc(ctx, func() { pw.Close() })
	r := runOurs(t, cGuest(t, "cat"), vfs.New(vfs.Options{}), runOpt{args: []string{"cat"}, ctx: ctx, stdin: pr})
	require.ErrorIs(t, r.err, platform.ErrTimeout)
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
