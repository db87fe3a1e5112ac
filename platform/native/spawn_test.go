package native

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// fakeSpawner plays the process manager: argv[0] names a test guest, run on the same
// engine and vfs in a goroutine.
type fakeSpawner struct {
	t       *testing.T
	fs      *vfs.FS
	nextPid atomic.Int32
	mu      sync.Mutex
	reqs    []wasi.SpawnRequest
}

type fakeChild struct {
	pid    int
	done   chan struct{}
	status int
	cancel context.CancelFunc
}

func (c *fakeChild) Pid() int  { return c.pid }
func (c *fakeChild) Wait() int { <-c.done; return c.status }
func (c *fakeChild) TryWait() (int, bool) {
	select {
	case <-c.done:
		return c.status, true
	default:
		return 0, false
	}
}
func (c *fakeChild) Kill(sig int) error {
	c.cancel()
	return nil
}

func (s *fakeSpawner) Spawn(ctx context.Context, req wasi.SpawnRequest) (wasi.Child, error) {
	known := map[string]bool{"exitcode": true, "cat": true, "args": true, "spin": true, "hello": true}
	if !known[req.Argv[0]] {
		return nil, wasi.ENOENT
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	m, err := testEngine(s.t).Compile(ctx, "", cGuest(s.t, req.Argv[0]))
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithCancel(ctx)
	c := &fakeChild{pid: int(s.nextPid.Add(1)) + 100, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(c.done)
		defer cancel()
		p := &wasi.Proc{Args: req.Argv, Env: req.Env, Cwd: req.Dir, FS: s.fs,
			Stdin: req.Stdin, Stdout: req.Stdout, Stderr: req.Stderr}
		code, _ := m.Run(cctx, p, platform.Limits{})
		p.Close()
		// The Spawner owns the request's streams: release them once the child is done.
		for _, x := range []any{req.Stdin, req.Stdout, req.Stderr} {
			if cl, ok := x.(io.Closer); ok {
				cl.Close()
			}
		}
		c.status = code
	}()
	return c, nil
}

func TestSpawn(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"pipe", "== pipe\npipe fds 4 5\nspawned: 1\nchild said [exiting with 7] (read rc 0)\nwait -> 1 status 7\nwait again -> -1 No child process\n"},
		{"stdin", "== stdin\ncat status 0, file size 8890\n"},
		{"env", "== env\nargc=3\nargv[0]=[args]\nargv[1]=[a b]\nargv[2]=[]\nenv [ONLY=1]\nenv [PWD=/tmp]\n"},
		{"errors", "== errors\nspawn missing -> -1 No such file or directory\nspawn bad fd -> -1 Bad file descriptor\n" +
			"wait unknown -> -1 No child process\nkill unknown -> -1 No such process\n"},
		{"kill", "== kill\nkill 0 -> 0\nkill 9 -> 0\nkilled status 137\n"},
		// dprintf writes at once, printf when stdout is flushed: hence the order.
		{"dup", "== dup\nvia dup\ndup(1) -> 4\nvia /dev/stdout (fd 4)\nvia /dev/fd/1\ndup2 bad -> -1 Bad file descriptor\n" +
			"file has [into the file]\nopen /dev/fd/55 -> -1 No such file or directory\n"},
		{"modes", "== modes\nnew file mode 100644 uid 1000 gid 1000 nlink 1\nchmod 4751 -> 0\nnow 104751\nchown -> 0\n" +
			"uid 0 gid 1000\nnew dir mode 40755\nsymlink mode 120000\nthrough symlink 104751\nrelative 104751\n" +
			"stat_ext missing -> -1 No such file or directory\nstdin type 10000\nfchmod -> 0\nfstat_ext 100600\ngetpid 0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewDefault(vfs.Options{}, nil)
			sp := &fakeSpawner{t: t, fs: fsys}
			r := runOurs(t, cGuest(t, "spawn"), fsys, runOpt{args: []string{"spawn", tc.name}, spawner: sp, stdin: eofReader{}})
			require.NoError(t, r.err, r.stderr)
			assert.Equal(t, tc.want, r.stdout)
			assert.Equal(t, 0, r.code)
		})
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

func TestSpawnWithoutSpawner(t *testing.T) {
	r := runOurs(t, cGuest(t, "spawn"), vfs.NewDefault(vfs.Options{}, nil), runOpt{args: []string{"spawn", "errors"}})
	require.NoError(t, r.err)
	assert.Contains(t, r.stdout, "spawn missing -> -1 Function not implemented\n")
}
