package native

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	wazwasi "github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// node is one entry of a test tree, created identically on the host (for wazero's WASI)
// and in the vfs (for ours).
type node struct {
	path, data, link string
	dir              bool
}

var fsTree = []node{
	{path: "/data", dir: true},
	{path: "/data/a.txt", data: "alpha\n"},
	{path: "/data/b.txt", data: "bravo\n"},
	{path: "/data/dir", dir: true},
	{path: "/data/dir/a", data: "dir/a\n"},
	{path: "/data/dir/b", data: "dir/b\n"},
	{path: "/data/dir/sub", dir: true},
	{path: "/data/dir/sub/deep", data: "deep\n"},
	{path: "/data/empty", dir: true},
	{path: "/data/link-to-a", link: "a.txt"},
	{path: "/data/link-to-dir", link: "dir"},
	{path: "/tmp", dir: true},
}

func hostTree(t testing.TB, tree []node) string {
	root := t.TempDir()
	for _, n := range tree {
		p := filepath.Join(root, n.path)
		switch {
		case n.dir:
			require.NoError(t, os.MkdirAll(p, 0o755))
		case n.link != "":
			require.NoError(t, os.Symlink(n.link, p))
		default:
			require.NoError(t, os.WriteFile(p, []byte(n.data), 0o644))
		}
	}
	return root
}

func vfsTree(t testing.TB, tree []node) *vfs.FS {
	f := vfs.New(vfs.Options{})
	for _, n := range tree {
		switch {
		case n.dir:
			require.NoError(t, f.MkdirAll(n.path, 0o755))
		case n.link != "":
			require.NoError(t, f.Symlink(n.link, n.path))
		default:
			require.NoError(t, f.WriteFile(n.path, []byte(n.data), 0o644))
		}
	}
	return f
}

// dumpHost and dumpVFS list a subtree the same way, to compare the effects of a run.
func dumpHost(t testing.TB, root, dir string) string {
	var lines []string
	filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			lines = append(lines, "error "+err.Error())
			return nil
		}
		rel := "/" + filepath.ToSlash(strings.TrimPrefix(p, root+"/"))
		switch {
		case d.Type()&os.ModeSymlink != 0:
			tgt, _ := os.Readlink(p)
			lines = append(lines, rel+" -> "+tgt)
		case d.IsDir():
			lines = append(lines, rel+"/")
		default:
			b, _ := os.ReadFile(p)
			lines = append(lines, fmt.Sprintf("%s %q", rel, b))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func dumpVFS(t testing.TB, f *vfs.FS, dir string) string {
	var lines []string
	var walk func(p string)
	walk = func(p string) {
		fi, err := f.Lstat(p)
		if err != nil {
			lines = append(lines, "error "+err.Error())
			return
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			tgt, _ := f.Readlink(p)
			lines = append(lines, p+" -> "+tgt)
		case fi.IsDir():
			lines = append(lines, p+"/")
			ents, _ := f.ReadDir(p)
			for _, e := range ents {
				walk(path.Join(p, e.Name()))
			}
		default:
			b, _ := f.ReadFile(p)
			lines = append(lines, fmt.Sprintf("%s %q", p, b))
		}
	}
	walk(dir)
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

type result struct {
	stdout, stderr string
	code           int
	err            error
}

var (
	engOnce sync.Once
	eng     *Engine
)

// testEngine is shared by the tests (memory-only cache, like a fresh process would have
// after the first compile).
func testEngine(t testing.TB) *Engine {
	engOnce.Do(func() {
		var err error
		eng, err = New(context.Background(), Options{})
		if err != nil {
			panic(err)
		}
	})
	return eng
}

type runOpt struct {
	args    []string
	env     []string
	stdin   io.Reader
	limits  platform.Limits
	ctx     context.Context
	spawner wasi.Spawner
	maxFDs  int
	cwd     string
}

func runOurs(t testing.TB, wasm []byte, fsys *vfs.FS, o runOpt) result {
	t.Helper()
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := testEngine(t).Compile(ctx, "", wasm)
	require.NoError(t, err)
	var out, errb bytes.Buffer
	p := &wasi.Proc{Args: o.args, Env: o.env, FS: fsys, Stdin: o.stdin, Stdout: &out, Stderr: &errb,
		Spawner: o.spawner, MaxFDs: o.maxFDs, Cwd: o.cwd}
	code, err := m.Run(ctx, p, o.limits)
	p.Close()
	return result{stdout: out.String(), stderr: errb.String(), code: code, err: err}
}

var (
	refOnce sync.Once
	refRT   wazero.Runtime
	refMu   sync.Mutex
	refMods = map[string]wazero.CompiledModule{}
)

// runWazero runs the guest on wazero's built-in WASI with root mounted as "/".
func runWazero(t testing.TB, wasm []byte, root string, o runOpt) result {
	t.Helper()
	ctx := context.Background()
	refOnce.Do(func() {
		refRT = wazero.NewRuntime(ctx)
		wazwasi.MustInstantiate(ctx, refRT)
	})
	refMu.Lock()
	sum := sha256.Sum256(wasm)
	key := string(sum[:])
	cm, ok := refMods[key]
	if !ok {
		var err error
		cm, err = refRT.CompileModule(ctx, wasm)
		require.NoError(t, err)
		refMods[key] = cm
	}
	refMu.Unlock()
	var out, errb bytes.Buffer
	cfg := wazero.NewModuleConfig().WithName("").WithArgs(o.args...).
		WithStdout(&out).WithStderr(&errb).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().WithRandSource(rand.Reader).
		WithFSConfig(wazero.NewFSConfig().WithDirMount(root, "/"))
	if o.stdin != nil {
		cfg = cfg.WithStdin(o.stdin)
	}
	for _, kv := range o.env {
		k, v, _ := strings.Cut(kv, "=")
		cfg = cfg.WithEnv(k, v)
	}
	mod, err := refRT.InstantiateModule(ctx, cm, cfg)
	code := 0
	if err != nil {
		var ee *sys.ExitError
		if errors.As(err, &ee) {
			code = int(ee.ExitCode())
			err = nil
		}
	} else {
		mod.Close(ctx)
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code, err: err}
}

func newProc(f *vfs.FS, args, env []string, stdout, stderr io.Writer) *wasi.Proc {
	return &wasi.Proc{Args: args, Env: env, FS: f, Stdout: stdout, Stderr: stderr}
}
