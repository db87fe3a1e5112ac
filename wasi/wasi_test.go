package wasi

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/vfs"
)

// tenv calls host functions directly over a SliceMemory, without an engine.
type tenv struct {
	t   *testing.T
	p   *Proc
	m   *SliceMemory
	fns map[string]Func
	out *bytes.Buffer
}

func newEnv(t *testing.T) *tenv {
	fsys := vfs.NewDefault(vfs.Options{}, nil)
	require.NoError(t, fsys.MkdirAll("/data/dir", 0o755))
	require.NoError(t, fsys.WriteFile("/data/a.txt", []byte("alpha\n"), 0o644))
	for i := 0; i < 50; i++ {
		require.NoError(t, fsys.WriteFile(fmt.Sprintf("/data/dir/file-%02d", i), nil, 0o644))
	}
	require.NoError(t, fsys.Symlink("a.txt", "/data/link"))
	out := &bytes.Buffer{}
	e := &tenv{t: t, m: &SliceMemory{Buf: make([]byte, 65536)}, fns: map[string]Func{}, out: out,
		p: &Proc{Args: []string{"prog", "arg"}, Env: []string{"A=1"}, Cwd: "/data", FS: fsys,
			Stdin: strings.NewReader("input"), Stdout: out, Stderr: io.Discard}}
	require.NoError(t, e.p.Init())
	t.Cleanup(func() { e.p.Close() })
	for _, f := range Funcs() {
		e.fns[f.Module+"."+f.Name] = f
	}
	return e
}

func (e *tenv) call(name string, args ...uint64) Errno {
	e.t.Helper()
	f, ok := e.fns[name]
	if !ok {
		f, ok = e.fns[ModuleWASI+"."+name]
	}
	require.True(e.t, ok, name)
	stack := make([]uint64, max(len(f.Params), len(f.Results), 1))
	copy(stack, args)
	f.Call(context.Background(), e.p, e.m, stack)
	return Errno(stack[0])
}

func (e *tenv) str(off uint32, s string) (uint64, uint64) {
	copy(e.m.Buf[off:], s)
	return uint64(off), uint64(len(s))
}

func (e *tenv) u32(off uint32) uint32 { return binary.LittleEndian.Uint32(e.m.Buf[off:]) }

// open opens path (relative to the preopen) and returns the fd.
func (e *tenv) open(path string, oflags uint16, rights uint64) uint32 {
	e.t.Helper()
	p, n := e.str(1000, path)
	require.Equal(e.t, ESUCCESS, e.call("path_open", PreopenFD, 1, p, n, uint64(oflags), rights, 0, 0, 2000))
	return e.u32(2000)
}

var wasiNames = []string{
	"args_get", "args_sizes_get", "environ_get", "environ_sizes_get", "clock_res_get", "clock_time_get",
	"fd_advise", "fd_allocate", "fd_close", "fd_datasync", "fd_fdstat_get", "fd_fdstat_set_flags",
	"fd_fdstat_set_rights", "fd_filestat_get", "fd_filestat_set_size", "fd_filestat_set_times",
	"fd_pread", "fd_prestat_get", "fd_prestat_dir_name", "fd_pwrite", "fd_read", "fd_readdir",
	"fd_renumber", "fd_seek", "fd_sync", "fd_tell", "fd_write", "path_create_directory",
	"path_filestat_get", "path_filestat_set_times", "path_link", "path_open", "path_readlink",
	"path_remove_directory", "path_rename", "path_symlink", "path_unlink_file", "poll_oneoff",
	"proc_exit", "proc_raise", "sched_yield", "random_get", "sock_accept", "sock_recv", "sock_send",
	"sock_shutdown",
}

func TestFuncTable(t *testing.T) {
	seen := map[string]int{}
	for _, f := range Funcs() {
		seen[f.Module+"."+f.Name]++
		assert.Len(t, f.ParamNames, len(f.Params), f.Name)
		assert.NotNil(t, f.Call, f.Name)
		if f.Name != "proc_exit" && f.Name != TickName {
			assert.Equal(t, []ValType{I32}, f.Results, f.Name)
		}
	}
	for _, n := range wasiNames {
		assert.Equal(t, 1, seen[ModuleWASI+"."+n], n)
	}
	for _, n := range []string{"spawn", "wait", "trywait", "kill", "pipe", "dup", "dup2", "getpid", "stat_ext", "chmod", "chown", "mknod", TickName} {
		assert.Equal(t, 1, seen[ModuleWasmsand+"."+n], n)
	}
	assert.Len(t, seen, len(wasiNames)+13)
}

// mknod makes named pipes (narrowed by the umask) and nothing else.
func TestMknod(t *testing.T) {
	e := newEnv(t)
	p, n := e.str(1000, "fifo")
	require.Equal(t, ESUCCESS, e.call("wasmsand.mknod", PreopenFD, p, n, 0o010666, 0))
	fi, err := e.p.FS.Stat("/fifo") // (the preopen is the root)
	require.NoError(t, err)
	assert.Equal(t, fs.ModeNamedPipe|0o644, fi.Mode(), "S_IFIFO | 0666 &^ umask 022")
	assert.Equal(t, EEXIST, e.call("wasmsand.mknod", PreopenFD, p, n, 0o010666, 0))
	p, n = e.str(1000, "dev")
	assert.Equal(t, EPERM, e.call("wasmsand.mknod", PreopenFD, p, n, 0o020666, 0x0103), "a character device")
	assert.Equal(t, EPERM, e.call("wasmsand.mknod", PreopenFD, p, n, 0o100644, 0), "a regular file")
	p, n = e.str(1000, "nodir/f")
	assert.Equal(t, ENOENT, e.call("wasmsand.mknod", PreopenFD, p, n, 0o010666, 0))
}

// Every function, fed garbage, answers with an errno and never panics (except the two
// that exit on purpose).
func TestNoPanicOnGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	interesting := []uint64{0, 1, 2, 3, 4, 99, 0xffff, 0xfff0, 0x10000, 0xfffffff0, 0xffffffff, 1 << 40, ^uint64(0)}
	for _, f := range Funcs() {
		if f.Name == "proc_exit" || f.Name == "proc_raise" {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			e := newEnv(t)
			e.p.Clock = &jumpClock{}       // poll_oneoff's sleeps return at once
			e.p.Spawner = failingSpawner{} // spawn gets as far as the process manager
			for i := 0; i < 300; i++ {
				stack := make([]uint64, max(len(f.Params), 1))
				for j := range stack {
					if rng.IntN(2) == 0 {
						stack[j] = interesting[rng.IntN(len(interesting))]
					} else {
						stack[j] = uint64(rng.Uint32() % 70000)
					}
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s%v panicked: %v", f.Name, stack, r)
						}
					}()
					f.Call(context.Background(), e.p, e.m, stack)
				}()
			}
		})
	}
}

// jumpClock's Sleep advances time instead of waiting.
type jumpClock struct{ now int64 }

func (c *jumpClock) Now() time.Time                           { return time.Unix(0, c.now) }
func (c *jumpClock) Nanotime() int64                          { return c.now }
func (c *jumpClock) Sleep(_ context.Context, d time.Duration) { c.now += int64(d) }

type failingSpawner struct{}

func (failingSpawner) Spawn(context.Context, SpawnRequest) (Child, error) { return nil, ENOENT }

func TestEFAULT(t *testing.T) {
	const bad = 0xfffffff0
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		args []uint64
	}{
		{"args_sizes_get", []uint64{bad, 0}},
		{"args_get", []uint64{bad, 100}},
		{"environ_get", []uint64{100, bad}},
		{"clock_time_get", []uint64{0, 0, bad}},
		{"clock_res_get", []uint64{1, 65535}},
		{"random_get", []uint64{65000, 1000}},
		{"fd_fdstat_get", []uint64{1, bad}},
		{"fd_filestat_get", []uint64{1, 65530}},
		{"fd_write", []uint64{1, bad, 1, 0}},
		{"fd_read", []uint64{0, 65532, 2, 0}},
		{"fd_prestat_get", []uint64{3, bad}},
		{"fd_seek", []uint64{3, 0, 0, bad}},
		{"fd_readdir", []uint64{3, 65000, 1000, 0, 0}},
		{"path_open", []uint64{3, 0, bad, 10, 0, 0, 0, 0, 0}},
		{"path_filestat_get", []uint64{3, 0, 65530, 100, 0}},
		{"poll_oneoff", []uint64{65500, 0, 2, 0}},
		{"wasmsand.pipe", []uint64{65532}},
		{"wasmsand.stat_ext", []uint64{1, 0, 0, 0, 65530}},
	} {
		assert.Equal(t, EFAULT, e.call(tc.name, tc.args...), tc.name)
	}
	// An iovec pointing outside memory.
	binary.LittleEndian.PutUint32(e.m.Buf[100:], bad)
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 16)
	assert.Equal(t, EFAULT, e.call("fd_write", 1, 100, 1, 200))
	assert.Equal(t, EFAULT, e.call("fd_read", 0, 100, 1, 200))
}

func TestEBADF(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		args []uint64
	}{
		{"fd_close", []uint64{99}},
		{"fd_write", []uint64{99, 0, 0, 0}},
		{"fd_read", []uint64{1 << 31, 0, 0, 0}},
		{"fd_fdstat_get", []uint64{99, 0}},
		{"fd_filestat_get", []uint64{99, 0}},
		{"fd_seek", []uint64{99, 0, 0, 0}},
		{"fd_readdir", []uint64{99, 0, 100, 0, 200}},
		{"fd_readdir", []uint64{1, 0, 100, 0, 200}}, // not a directory: wazero says EBADF too
		{"fd_prestat_get", []uint64{1, 0}},
		{"fd_renumber", []uint64{99, 5}},
		{"path_open", []uint64{99, 0, 0, 1, 0, 0, 0, 0, 0}},
		{"fd_read", []uint64{1, 0, 0, 0}},  // stdout is write-only
		{"fd_write", []uint64{0, 0, 0, 0}}, // stdin is read-only
		{"wasmsand.dup", []uint64{99, 0}},
		{"wasmsand.dup2", []uint64{1, 1 << 20}},
	} {
		assert.Equal(t, EBADF, e.call(tc.name, tc.args...), "%s%v", tc.name, tc.args)
	}
	assert.Equal(t, ENOTDIR, e.call("path_open", 1, 0, 0, 1, 0, 0, 0, 0, 0), "dirfd is not a directory")
}

func TestArgsEnviron(t *testing.T) {
	e := newEnv(t)
	require.Equal(t, ESUCCESS, e.call("args_sizes_get", 0, 4))
	assert.Equal(t, uint32(2), e.u32(0))
	assert.Equal(t, uint32(len("prog\x00arg\x00")), e.u32(4))
	require.Equal(t, ESUCCESS, e.call("args_get", 100, 200))
	assert.Equal(t, uint32(200), e.u32(100))
	assert.Equal(t, uint32(205), e.u32(104))
	assert.Equal(t, "prog\x00arg\x00", string(e.m.Buf[200:209]))
	require.Equal(t, ESUCCESS, e.call("environ_sizes_get", 0, 4))
	assert.Equal(t, uint32(2), e.u32(0), "A=1 and the added PWD")
	require.Equal(t, ESUCCESS, e.call("environ_get", 100, 200))
	assert.Equal(t, "A=1\x00PWD=/data\x00", string(e.m.Buf[200:214]))
}

func TestReaddir(t *testing.T) {
	e := newEnv(t)
	fd := e.open("data/dir", oflagDirectory, rightFdReaddir)
	assert.Equal(t, EINVAL, e.call("fd_readdir", uint64(fd), 4096, 23, 0, 100))
	// Read with a small buffer, following cookies like wasi-libc does.
	var names []string
	cookie := uint64(0)
	for rounds := 0; rounds < 1000; rounds++ {
		require.Equal(t, ESUCCESS, e.call("fd_readdir", uint64(fd), 4096, 100, cookie, 100))
		used := e.u32(100)
		buf := e.m.Buf[4096 : 4096+used]
		progress := false
		for len(buf) >= direntSize {
			next := binary.LittleEndian.Uint64(buf)
			n := binary.LittleEndian.Uint32(buf[16:])
			if uint32(len(buf)) < direntSize+n {
				break // cut: ask again from this entry's cookie
			}
			names = append(names, string(buf[direntSize:direntSize+n]))
			cookie, progress = next, true
			buf = buf[direntSize+n:]
		}
		if used < 100 {
			break
		}
		require.True(t, progress, "a 100-byte buffer holds one entry")
	}
	require.Len(t, names, 52)
	assert.Equal(t, []string{".", ".."}, names[:2])
	assert.Equal(t, "file-00", names[2])
	assert.Equal(t, "file-49", names[51])
	// The header of an entry that does not fit is still written (wasi-libc then grows its buffer).
	require.Equal(t, ESUCCESS, e.call("fd_readdir", uint64(fd), 4096, 24+1+24+2+24, 0, 100))
	assert.Equal(t, uint32(24+1+24+2+24), e.u32(100))
	assert.Equal(t, ENOENT, e.call("fd_readdir", uint64(fd), 4096, 100, 1000, 100))
	// Past the end: nothing, not an error.
	require.Equal(t, ESUCCESS, e.call("fd_readdir", uint64(fd), 4096, 100, 52, 100))
	assert.Equal(t, uint32(0), e.u32(100))
}

func TestPrestat(t *testing.T) {
	e := newEnv(t)
	require.Equal(t, ESUCCESS, e.call("fd_prestat_get", 3, 0))
	assert.Equal(t, uint32(0), e.u32(0), "tag dir")
	assert.Equal(t, uint32(1), e.u32(4), "len(\"/\")")
	assert.Equal(t, ENAMETOOLONG, e.call("fd_prestat_dir_name", 3, 100, 0))
	require.Equal(t, ESUCCESS, e.call("fd_prestat_dir_name", 3, 100, 1))
	assert.Equal(t, byte('/'), e.m.Buf[100])
	assert.Equal(t, EBADF, e.call("fd_prestat_get", 4, 0))
}

func TestFdstatRights(t *testing.T) {
	e := newEnv(t)
	stat := func(fd uint32) (uint8, uint16, uint64) {
		require.Equal(t, ESUCCESS, e.call("fd_fdstat_get", uint64(fd), 0))
		return e.m.Buf[0], binary.LittleEndian.Uint16(e.m.Buf[2:]), binary.LittleEndian.Uint64(e.m.Buf[8:])
	}
	ft, _, r := stat(0)
	assert.Equal(t, FiletypeUnknown, ft, "a pipe-like stream is not a tty")
	assert.Equal(t, rightFdRead, r&(rightFdRead|rightFdWrite))
	_, _, r = stat(1)
	assert.Equal(t, rightFdWrite, r&(rightFdRead|rightFdWrite))
	ft, _, _ = stat(3)
	assert.Equal(t, FiletypeDirectory, ft)
	fd := e.open("data/a.txt", 0, rightFdRead)
	ft, _, r = stat(fd)
	assert.Equal(t, FiletypeRegularFile, ft)
	assert.Equal(t, rightFdRead, r&(rightFdRead|rightFdWrite), "F_GETFL sees O_RDONLY")
	assert.NotZero(t, r&rightFdSeek)
	p, n := e.str(1000, "data/a.txt")
	require.Equal(t, ESUCCESS, e.call("path_open", 3, 1, p, n, 0, rightFdRead|rightFdWrite, 0, uint64(fdflagAppend), 2000))
	_, flags, r := stat(e.u32(2000))
	assert.Equal(t, fdflagAppend, flags)
	assert.Equal(t, rightFdRead|rightFdWrite, r&(rightFdRead|rightFdWrite))
	dn := e.open("dev/null", 0, rightFdWrite)
	ft, _, r = stat(dn)
	assert.Equal(t, FiletypeCharacterDevice, ft)
	assert.NotZero(t, r&rightFdSeek, "/dev/null is not a tty")
}

func TestTerminalStream(t *testing.T) {
	e := newEnv(t)
	p := &Proc{FS: e.p.FS, Stdout: ttyWriter{}}
	require.NoError(t, p.Init())
	f := e.fns[ModuleWASI+".fd_fdstat_get"]
	s := []uint64{1, 0}
	f.Call(context.Background(), p, e.m, s)
	require.Equal(t, uint64(0), s[0])
	assert.Equal(t, FiletypeCharacterDevice, e.m.Buf[0])
	assert.Zero(t, binary.LittleEndian.Uint64(e.m.Buf[8:])&(rightFdSeek|rightFdTell), "isatty() is true")
}

type ttyWriter struct{}

func (ttyWriter) Write(b []byte) (int, error) { return len(b), nil }
func (ttyWriter) IsTerminal() bool            { return true }

func TestReadWriteSeek(t *testing.T) {
	e := newEnv(t)
	iov := func(off, n uint32) {
		binary.LittleEndian.PutUint32(e.m.Buf[100:], off)
		binary.LittleEndian.PutUint32(e.m.Buf[104:], n)
	}
	// stdin → memory
	iov(500, 3)
	require.Equal(t, ESUCCESS, e.call("fd_read", 0, 100, 1, 200))
	assert.Equal(t, uint32(3), e.u32(200))
	assert.Equal(t, "inp", string(e.m.Buf[500:503]))
	// memory → stdout, two iovecs
	copy(e.m.Buf[600:], "hello world")
	iov(600, 5)
	binary.LittleEndian.PutUint32(e.m.Buf[108:], 605)
	binary.LittleEndian.PutUint32(e.m.Buf[112:], 6)
	require.Equal(t, ESUCCESS, e.call("fd_write", 1, 100, 2, 200))
	assert.Equal(t, uint32(11), e.u32(200))
	assert.Equal(t, "hello world", e.out.String())
	assert.Equal(t, ESPIPE, e.call("fd_seek", 1, 0, 0, 300))
	assert.Equal(t, ESPIPE, e.call("fd_pread", 0, 100, 1, 0, 200))
	// a file
	fd := uint64(e.open("data/a.txt", 0, rightFdRead|rightFdWrite))
	assert.Equal(t, EINVAL, e.call("fd_seek", fd, 0, 3, 300))
	require.Equal(t, ESUCCESS, e.call("fd_seek", fd, 2, 0, 300))
	require.Equal(t, ESUCCESS, e.call("fd_tell", fd, 300))
	assert.Equal(t, uint32(2), e.u32(300))
	neg := int64(-100)
	assert.Equal(t, EINVAL, e.call("fd_seek", fd, uint64(neg), 1, 300))
	iov(500, 10)
	require.Equal(t, ESUCCESS, e.call("fd_pread", fd, 100, 1, 1, 200))
	assert.Equal(t, "lpha\n", string(e.m.Buf[500:500+e.u32(200)]))
	assert.Equal(t, EINVAL, e.call("fd_pread", fd, 100, 1, uint64(neg), 200))
	assert.Equal(t, EISDIR, e.call("fd_seek", 3, 0, 0, 300))
}

func TestRenumberAndDup(t *testing.T) {
	e := newEnv(t)
	fd := uint64(e.open("data/a.txt", 0, rightFdRead))
	assert.Equal(t, ENOTSUP, e.call("fd_renumber", 3, 10), "preopens stay")
	assert.Equal(t, ENOTSUP, e.call("fd_renumber", fd, 3))
	require.Equal(t, ESUCCESS, e.call("fd_renumber", fd, 10))
	assert.Equal(t, EBADF, e.call("fd_close", fd))
	require.Equal(t, ESUCCESS, e.call("wasmsand.dup", 10, 0))
	dup := uint64(e.u32(0))
	assert.Equal(t, fd, dup, "lowest free fd")
	require.Equal(t, ESUCCESS, e.call("fd_seek", 10, 3, 0, 300))
	require.Equal(t, ESUCCESS, e.call("fd_tell", dup, 300))
	assert.Equal(t, uint32(3), e.u32(300), "dups share the offset")
	require.Equal(t, ESUCCESS, e.call("fd_close", 10))
	require.Equal(t, ESUCCESS, e.call("fd_tell", dup, 300), "still open through the dup")
	require.Equal(t, ESUCCESS, e.call("wasmsand.dup2", 1, 20))
	assert.Equal(t, ESUCCESS, e.call("wasmsand.dup2", 20, 20))
	assert.Equal(t, EBADF, e.call("fd_renumber", 1, uint64(DefaultMaxFDs)))
}

func TestReadlinkTruncates(t *testing.T) {
	e := newEnv(t)
	p, n := e.str(1000, "data/link")
	require.Equal(t, ESUCCESS, e.call("path_readlink", 3, p, n, 500, 3, 200))
	assert.Equal(t, uint32(3), e.u32(200))
	assert.Equal(t, "a.t", string(e.m.Buf[500:503]))
	assert.Equal(t, EINVAL, e.call("path_readlink", 3, p, n, 500, 0, 200))
}

func TestPathEdgeCases(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		fn, path string
		want     Errno
	}{
		{"path_remove_directory", "data/dir/.", EINVAL},
		{"path_remove_directory", "data/..", ENOTEMPTY},
		{"path_unlink_file", "data/a.txt/", ENOTDIR},
		{"path_unlink_file", "data/dir/", EISDIR},
		{"path_unlink_file", "data/dir", EISDIR},
		{"path_create_directory", "data/a.txt", EEXIST},
		{"path_create_directory", "", ENOENT},
		{"path_create_directory", "x\x00y", EINVAL},
		{"path_create_directory", strings.Repeat("x", 5000), ENAMETOOLONG},
		{"path_create_directory", "../../data/new", ESUCCESS}, // ".." stops at the root
	} {
		p, n := e.str(1000, tc.path)
		assert.Equal(t, tc.want, e.call(tc.fn, 3, p, n), "%s %q", tc.fn, tc.path)
	}
	_, err := e.p.FS.Stat("/data/new")
	assert.NoError(t, err)
}

func TestDevices(t *testing.T) {
	e := newEnv(t)
	zero := uint64(e.open("dev/zero", 0, rightFdRead))
	for i := range 16 {
		e.m.Buf[500+i] = 0xff
	}
	binary.LittleEndian.PutUint32(e.m.Buf[100:], 500)
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 16)
	require.Equal(t, ESUCCESS, e.call("fd_read", zero, 100, 1, 200))
	assert.Equal(t, make([]byte, 16), e.m.Buf[500:516])
	null := uint64(e.open("dev/null", 0, rightFdWrite))
	require.Equal(t, ESUCCESS, e.call("fd_write", null, 100, 1, 200))
	assert.Equal(t, uint32(16), e.u32(200))
	// /dev/stdout is our fd 1 (a dup), not the vfs placeholder node.
	so := uint64(e.open("dev/stdout", 0, rightFdWrite))
	copy(e.m.Buf[500:], "to stdout")
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 9)
	require.Equal(t, ESUCCESS, e.call("fd_write", so, 100, 1, 200))
	assert.Equal(t, "to stdout", e.out.String())
}

func TestPipeInterrupt(t *testing.T) {
	e := newEnv(t)
	require.Equal(t, ESUCCESS, e.call("wasmsand.pipe", 0))
	r := uint64(e.u32(0))
	binary.LittleEndian.PutUint32(e.m.Buf[100:], 500)
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 16)
	time.AfterFunc(50*time.Millisecond, e.p.Interrupt)
	done := make(chan Errno, 1)
	go func() { done <- e.call("fd_read", r, 100, 1, 200) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Interrupt did not unblock a read on the guest's own pipe")
	}
}

func TestFDRefKeepsPipeOpen(t *testing.T) {
	e := newEnv(t)
	require.Equal(t, ESUCCESS, e.call("wasmsand.pipe", 0))
	r, w := int(e.u32(0)), int(e.u32(4))
	pr, err := e.p.Ref(r)
	require.NoError(t, err)
	ref, err := e.p.Ref(w)
	require.NoError(t, err)
	require.Equal(t, ESUCCESS, e.call("fd_close", uint64(w)))
	_, err = ref.Write([]byte("x"))
	require.NoError(t, err, "the write end lives on through the reference")
	require.NoError(t, ref.Close())
	b, err := io.ReadAll(pr)
	require.NoError(t, err)
	assert.Equal(t, "x", string(b), "EOF after the last holder closed")
	_, err = ref.Write([]byte("y"))
	assert.Error(t, err)
}

func TestProcExitAndRaise(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		name string
		arg  uint64
		code uint32
	}{{"proc_exit", 3, 3}, {"proc_raise", 6, 134}} {
		func() {
			defer func() {
				ee, ok := recover().(*ExitError)
				require.True(t, ok)
				assert.Equal(t, tc.code, ee.Code)
			}()
			e.call(tc.name, tc.arg)
			t.Fatalf("%s returned", tc.name)
		}()
	}
}

func TestPollClock(t *testing.T) {
	e := newEnv(t)
	sub := func(off uint32, userdata uint64, tag uint8, clockID uint32, timeout uint64, flags uint16) {
		b := e.m.Buf[off : off+48]
		clear(b)
		binary.LittleEndian.PutUint64(b, userdata)
		b[8] = tag
		binary.LittleEndian.PutUint32(b[16:], clockID)
		binary.LittleEndian.PutUint64(b[24:], timeout)
		binary.LittleEndian.PutUint16(b[40:], flags)
	}
	start := time.Now()
	sub(0, 7, eventClock, clockMonotonic, uint64(20*time.Millisecond), 0)
	sub(48, 8, eventClock, clockMonotonic, uint64(time.Hour), 0)
	require.Equal(t, ESUCCESS, e.call("poll_oneoff", 0, 1000, 2, 2000))
	assert.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond)
	assert.Equal(t, uint32(1), e.u32(2000), "only the expired clock fires")
	assert.Equal(t, uint64(7), binary.LittleEndian.Uint64(e.m.Buf[1000:]))
	// Absolute realtime deadline in the past fires at once.
	sub(0, 9, eventClock, clockRealtime, uint64(time.Now().Add(-time.Second).UnixNano()), subclockAbstime)
	require.Equal(t, ESUCCESS, e.call("poll_oneoff", 0, 1000, 1, 2000))
	assert.Equal(t, uint32(1), e.u32(2000))
	sub(0, 9, eventClock, clockRealtime, 0, 4)
	assert.Equal(t, EINVAL, e.call("poll_oneoff", 0, 1000, 1, 2000), "unknown subclock flags")
	assert.Equal(t, EINVAL, e.call("poll_oneoff", 0, 1000, 0, 2000))
}

func TestToErrno(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want Errno
	}{
		{nil, ESUCCESS},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOENT}, ENOENT},
		{syscall.ENOTEMPTY, ENOTEMPTY},
		{syscall.EPIPE, EPIPE},
		{io.ErrClosedPipe, EPIPE},
		{fs.ErrNotExist, ENOENT},
		{fmt.Errorf("wrapped: %w", EMFILE), EMFILE},
		{io.ErrUnexpectedEOF, EIO},
	} {
		assert.Equal(t, tc.want, ToErrno(tc.err), "%v", tc.err)
	}
	assert.Equal(t, "ENOENT", ENOENT.String())
	assert.Equal(t, "errno(200)", Errno(200).String())
}

// poll_oneoff waits for a vfs pipe (through TryRead) and what it peeked is read first.
func TestPollPipe(t *testing.T) {
	e := newEnv(t)
	pr, pw := vfs.Pipe(0)
	e.p = &Proc{FS: e.p.FS, Stdin: pr, Stdout: io.Discard}
	require.NoError(t, e.p.Init())
	sub := func(off uint32, tag uint8, fdOrClock uint32, timeout uint64) {
		b := e.m.Buf[off : off+48]
		clear(b)
		b[8] = tag
		binary.LittleEndian.PutUint32(b[16:], fdOrClock)
		binary.LittleEndian.PutUint64(b[24:], timeout)
	}
	sub(0, eventFdRead, 0, 0)
	sub(48, eventClock, clockMonotonic, uint64(30*time.Millisecond))
	require.Equal(t, ESUCCESS, e.call("poll_oneoff", 0, 1000, 2, 2000))
	assert.Equal(t, uint32(1), e.u32(2000))
	assert.Equal(t, uint8(eventClock), e.m.Buf[1010], "empty pipe: the clock fires")

	time.AfterFunc(20*time.Millisecond, func() { pw.Write([]byte("data")) })
	sub(48, eventClock, clockMonotonic, uint64(5*time.Second))
	require.Equal(t, ESUCCESS, e.call("poll_oneoff", 0, 1000, 2, 2000))
	assert.Equal(t, uint32(1), e.u32(2000))
	assert.Equal(t, uint8(eventFdRead), e.m.Buf[1010])

	binary.LittleEndian.PutUint32(e.m.Buf[100:], 500)
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 2)
	require.Equal(t, ESUCCESS, e.call("fd_read", 0, 100, 1, 200))
	assert.Equal(t, "da", string(e.m.Buf[500:502]))
	pw.Close()
	require.Equal(t, ESUCCESS, e.call("fd_read", 0, 100, 1, 200))
	assert.Equal(t, "ta", string(e.m.Buf[500:502]))
	require.Equal(t, ESUCCESS, e.call("poll_oneoff", 0, 1000, 1, 2000), "EOF is readable")
	require.Equal(t, ESUCCESS, e.call("fd_read", 0, 100, 1, 200))
	assert.Equal(t, uint32(0), e.u32(200))
	require.Equal(t, ESUCCESS, e.call("fd_read", 0, 100, 1, 200))
	assert.Equal(t, uint32(0), e.u32(200), "EOF stays")
}

func TestSetFlagsAppendAndLink(t *testing.T) {
	e := newEnv(t)
	fd := uint64(e.open("data/a.txt", 0, rightFdRead|rightFdWrite))
	require.Equal(t, ESUCCESS, e.call("fd_fdstat_set_flags", fd, uint64(fdflagAppend)))
	require.Equal(t, ESUCCESS, e.call("fd_seek", fd, 0, 0, 300))
	copy(e.m.Buf[500:], "X")
	binary.LittleEndian.PutUint32(e.m.Buf[100:], 500)
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 1)
	require.Equal(t, ESUCCESS, e.call("fd_write", fd, 100, 1, 200))
	b, err := e.p.FS.ReadFile("/data/a.txt")
	require.NoError(t, err)
	assert.Equal(t, "alpha\nX", string(b), "FD_APPEND set later still appends")
	assert.Equal(t, EINVAL, e.call("fd_fdstat_set_flags", fd, uint64(fdflagSync)))
	assert.Equal(t, EISDIR, e.call("fd_fdstat_set_flags", 3, 0))

	// path_link with SYMLINK_FOLLOW links the target, without it the symlink itself.
	op, on := e.str(1000, "data/link")
	np, nn := e.str(1100, "data/hard-follow")
	require.Equal(t, ESUCCESS, e.call("path_link", 3, 1, op, on, 3, np, nn))
	fi, err := e.p.FS.Lstat("/data/hard-follow")
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular())
	np, nn = e.str(1100, "data/hard-nofollow")
	require.Equal(t, ESUCCESS, e.call("path_link", 3, 0, op, on, 3, np, nn))
	fi, err = e.p.FS.Lstat("/data/hard-nofollow")
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&fs.ModeSymlink)
}

func TestInheritedFiles(t *testing.T) {
	e := newEnv(t)
	f, err := e.p.FS.Open("/data/a.txt")
	require.NoError(t, err)
	defer f.Close()
	var five bytes.Buffer
	p := &Proc{FS: e.p.FS, Files: map[int]any{3: strings.NewReader("three"), 5: &five, 6: f}}
	require.NoError(t, p.Init())
	defer p.Close()
	call := func(name string, args ...uint64) Errno {
		fn := e.fns[ModuleWASI+"."+name]
		stack := make([]uint64, max(len(fn.Params), len(fn.Results), 1))
		copy(stack, args)
		fn.Call(context.Background(), p, e.m, stack)
		return Errno(stack[0])
	}
	require.Equal(t, ESUCCESS, call("fd_prestat_get", 3, 0), "3 stays the preopen")
	assert.Equal(t, EBADF, call("fd_prestat_get", 4, 0), "the inherited 3 does not look like a preopen")
	// iovec at 100 → buffer 200, 16 bytes
	binary.LittleEndian.PutUint32(e.m.Buf[100:], 200)
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 16)
	copy(e.m.Buf[200:], "x\n")
	binary.LittleEndian.PutUint32(e.m.Buf[108:], 2)
	require.Equal(t, ESUCCESS, call("fd_write", 5, 100, 1, 300), "5 keeps its number")
	assert.Equal(t, "x", five.String()[:1])
	binary.LittleEndian.PutUint32(e.m.Buf[104:], 16)
	path, n := e.str(1000, "dev/fd/3")
	require.Equal(t, ESUCCESS, call("path_open", PreopenFD, 1, path, n, 0, rightFdRead, 0, 0, 2000))
	require.Equal(t, ESUCCESS, call("fd_read", uint64(e.u32(2000)), 100, 1, 300))
	assert.Equal(t, "three", string(e.m.Buf[200:200+e.u32(300)]), "/dev/fd/3 is the inherited 3")
	// a regular file named by /dev/fd/N is opened anew, from offset 0
	_, err = f.Read(make([]byte, 3))
	require.NoError(t, err)
	path, n = e.str(1000, "dev/fd/6")
	require.Equal(t, ESUCCESS, call("path_open", PreopenFD, 1, path, n, 0, rightFdRead, 0, 0, 2000))
	require.Equal(t, ESUCCESS, call("fd_read", uint64(e.u32(2000)), 100, 1, 300))
	assert.Equal(t, "alpha\n", string(e.m.Buf[200:200+e.u32(300)]))
}
