//go:build !js

package hostdir

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wasmsand/wasmsand/vfs"
)

// A guest with a read-write mount attacks the host as a local user would
// want it to: setuid files, owners, devices, and symlinks a host program
// follows later. The host process may be root, so the kernel stops none of it.

func modeOnHost(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	require.NoError(t, err)
	return fi.Mode()
}

func TestNoSetIDThroughMount(t *testing.T) {
	f, root, _ := mounted(t, false)
	require.NoError(t, f.WriteFile("/mnt/host/prog", []byte("\x7fELF"), 0o755))
	for _, m := range []fs.FileMode{
		0o755 | fs.ModeSetuid,
		0o777 | fs.ModeSetuid | fs.ModeSetgid,
		0o777 | fs.ModeSticky,
		0o7777,
	} {
		require.NoError(t, f.Chmod("/mnt/host/prog", m), "%v", m)
		got := modeOnHost(t, filepath.Join(root, "prog"))
		require.Zero(t, got&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), "chmod %v gave %v on the host", m, got)
		require.Equal(t, m&fs.ModePerm&^processUmask(), got.Perm())
	}
	// The same through an open file (fchmod) and on a directory.
	fh, err := f.OpenFile("/mnt/host/prog", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, fh.Chmod(0o755|fs.ModeSetuid|fs.ModeSetgid))
	require.NoError(t, fh.Close())
	require.Zero(t, modeOnHost(t, filepath.Join(root, "prog"))&(fs.ModeSetuid|fs.ModeSetgid))
	require.NoError(t, f.Mkdir("/mnt/host/d", 0o755))
	require.NoError(t, f.Chmod("/mnt/host/d", 0o777|fs.ModeSetgid|fs.ModeSticky))
	require.Zero(t, modeOnHost(t, filepath.Join(root, "d"))&(fs.ModeSetgid|fs.ModeSticky))

	// Created files and directories never carry them either.
	require.NoError(t, f.WriteFile("/mnt/host/new", nil, 0o7777))
	require.Zero(t, modeOnHost(t, filepath.Join(root, "new"))&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	require.NoError(t, f.Mkdir("/mnt/host/d2", 0o7777))
	require.Zero(t, modeOnHost(t, filepath.Join(root, "d2"))&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
}

func TestWriteClearsHostSetID(t *testing.T) {
	// A setuid program already in the mount: a guest that writes its own code
	// into it must not keep the bit (the kernel clears it only for writers
	// without CAP_FSETID, and the host process may be root).
	f, root, _ := mounted(t, false)
	p := filepath.Join(root, "su")
	require.NoError(t, os.WriteFile(p, []byte("orig"), 0o755))
	require.NoError(t, os.Chmod(p, 0o755|fs.ModeSetuid|fs.ModeSetgid))
	require.NoError(t, f.WriteFile("/mnt/host/su", []byte("evil"), 0o755))
	require.Zero(t, modeOnHost(t, p)&(fs.ModeSetuid|fs.ModeSetgid))
	require.Equal(t, fs.FileMode(0o755), modeOnHost(t, p).Perm())

	require.NoError(t, os.Chmod(p, 0o755|fs.ModeSetuid))
	fh, err := f.OpenFile("/mnt/host/su", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	require.Zero(t, modeOnHost(t, p)&fs.ModeSetuid)

	// Reading it leaves it as the host made it.
	require.NoError(t, os.Chmod(p, 0o755|fs.ModeSetuid))
	_, err = f.ReadFile("/mnt/host/su")
	require.NoError(t, err)
	require.NotZero(t, modeOnHost(t, p)&fs.ModeSetuid)
}

func TestNoOwnerChangeThroughMount(t *testing.T) {
	f, root, _ := mounted(t, false)
	require.NoError(t, f.WriteFile("/mnt/host/x", []byte("x"), 0o644))
	before, err := os.Stat(filepath.Join(root, "x"))
	require.NoError(t, err)
	for _, ids := range [][2]int{{0, 0}, {0, -1}, {-1, 0}, {65534, 65534}, {1000, 0}} {
		require.Equal(t, syscall.EPERM, errno(f.Chown("/mnt/host/x", ids[0], ids[1])), "%v", ids)
		require.Equal(t, syscall.EPERM, errno(f.Lchown("/mnt/host/x", ids[0], ids[1])), "%v", ids)
	}
	// To the owner the sandbox sees (1000), or -1: nothing to change.
	require.NoError(t, f.Chown("/mnt/host/x", 1000, 1000))
	require.NoError(t, f.Chown("/mnt/host/x", -1, -1))
	require.Equal(t, syscall.ENOENT, errno(f.Chown("/mnt/host/missing", 1000, 1000)))
	after, err := os.Stat(filepath.Join(root, "x"))
	require.NoError(t, err)
	require.Equal(t, before.Sys().(*syscall.Stat_t).Uid, after.Sys().(*syscall.Stat_t).Uid)
	require.Equal(t, before.Sys().(*syscall.Stat_t).Gid, after.Sys().(*syscall.Stat_t).Gid)
}

func TestNoDevicesOrFIFOsThroughMount(t *testing.T) {
	f, root, _ := mounted(t, false)
	require.Equal(t, syscall.EPERM, errno(f.Mkfifo("/mnt/host/fifo", 0o666)))
	require.Equal(t, syscall.EPERM, errno(f.Mknod("/mnt/host/null", 0o666, vfs.DevNull)))
	for _, n := range []string{"fifo", "null"} {
		_, err := os.Lstat(filepath.Join(root, n))
		require.True(t, os.IsNotExist(err), n)
	}
	// A mode with type bits asks for a plain file at most.
	require.NoError(t, f.WriteFile("/mnt/host/typed", nil, fs.ModeNamedPipe|fs.ModeDevice|0o644))
	require.True(t, modeOnHost(t, filepath.Join(root, "typed")).IsRegular())
}

func TestSymlinksStayInsideMount(t *testing.T) {
	f, root, _ := mounted(t, false)
	require.NoError(t, f.MkdirAll("/mnt/host/a/b", 0o755))
	require.NoError(t, f.Symlink(".", "/mnt/host/self"))   // a link to the root itself
	require.NoError(t, f.Symlink("a/b", "/mnt/host/deep")) // a link two levels down
	for _, c := range []struct{ link, target string }{
		{"/mnt/host/e1", "/etc/shadow"},
		{"/mnt/host/e2", "/"},
		{"/mnt/host/e3", ".."},
		{"/mnt/host/e4", "../outside/secret"},
		{"/mnt/host/a/e5", "../../etc"},
		{"/mnt/host/a/b/e6", "../../../x"},
		{"/mnt/host/e7", "a/../../x"}, // climbs after a name: refused
		{"/mnt/host/e8", "self/../x"}, // self is the root: .. leaves it
		{"/mnt/host/self/e9", "../x"}, // the link's real directory is the root
		{"/mnt/host/self/self/e10", "../x"},
		{"/mnt/host/e11", "./../x"},
		{"/mnt/host/e12", "a//..//..//x"},
	} {
		require.Equal(t, syscall.EPERM, errno(f.Symlink(c.target, c.link)), "%s -> %s", c.link, c.target)
		_, err := os.Lstat(filepath.Join(root, c.link[len("/mnt/host/"):]))
		require.True(t, os.IsNotExist(err), c.link)
	}
	for _, c := range []struct{ link, target string }{
		{"/mnt/host/a/b/ok1", "../../inside.txt"},
		{"/mnt/host/a/ok2", "../sub"},
		{"/mnt/host/ok3", "a/b"},
		{"/mnt/host/deep/ok4", "../../inside.txt"}, // deep's real directory is a/b
		{"/mnt/host/ok5", "dangling/later"},
		{"/mnt/host/ok6", "."},
	} {
		require.NoError(t, f.Symlink(c.target, c.link), "%s -> %s", c.link, c.target)
	}
	b, err := f.ReadFile("/mnt/host/deep/ok4")
	require.NoError(t, err)
	require.Equal(t, "inside", string(b))
}

func TestMovesKeepSymlinksInside(t *testing.T) {
	f, root, _ := mounted(t, false)
	require.NoError(t, f.MkdirAll("/mnt/host/a/b/c", 0o755))
	require.NoError(t, f.Symlink("../../../inside.txt", "/mnt/host/a/b/c/l"))
	require.NoError(t, f.Symlink("../..", "/mnt/host/a/b/up"))

	// The link itself moved nearer the root would point outside.
	require.Equal(t, syscall.EPERM, errno(f.Rename("/mnt/host/a/b/c/l", "/mnt/host/l")))
	require.Equal(t, syscall.EPERM, errno(f.Link("/mnt/host/a/b/c/l", "/mnt/host/l")))
	// So would the directory that holds it.
	require.Equal(t, syscall.EPERM, errno(f.Rename("/mnt/host/a/b/c", "/mnt/host/c")))
	require.Equal(t, syscall.EPERM, errno(f.Rename("/mnt/host/a/b", "/mnt/host/b")))
	_, err := os.Lstat(filepath.Join(root, "a/b/c/l"))
	require.NoError(t, err, "nothing moved")

	// Deeper, or at the same depth, is fine.
	require.NoError(t, f.Rename("/mnt/host/a/b/c", "/mnt/host/a/b/c2"))
	require.NoError(t, f.MkdirAll("/mnt/host/sub/x/y", 0o755))
	require.NoError(t, f.Rename("/mnt/host/a/b/c2", "/mnt/host/sub/x/y/c"))
	require.NoError(t, f.Rename("/mnt/host/sub/x/y/c/l", "/mnt/host/sub/x/y/c/l2"))
	b, err := f.ReadFile("/mnt/host/a/b/up/inside.txt")
	require.NoError(t, err)
	require.Equal(t, "inside", string(b))
}
