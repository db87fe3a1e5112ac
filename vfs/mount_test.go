package vfs

import (
	"io"
	"os"
	"syscall"
	"testing"

	"github.com/hack-pad/hackpadfs/mem"
	"github.com/stretchr/testify/require"
)

func newMem(t *testing.T) *mem.FS {
	m, err := mem.NewFS()
	require.NoError(t, err)
	require.NoError(t, m.Mkdir("sub", 0o755))
	f, err := m.OpenFile("sub/hello", os.O_CREATE|os.O_WRONLY, 0o644)
	require.NoError(t, err)
	_, err = f.(io.Writer).Write([]byte("from mem"))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return m
}

func TestMountReadWrite(t *testing.T) {
	f := NewDefault(Options{}, nil)
	require.NoError(t, f.Mkdir("/mnt/m", 0o755))
	require.NoError(t, f.Mount("/mnt/m", newMem(t), false))

	require.Equal(t, "from mem", mustRead(t, f, "/mnt/m/sub/hello"))
	require.Equal(t, "from mem", mustRead(t, f, "/mnt/m/sub/../sub/./hello"))
	// ".." above the mount root goes back into the tree.
	require.Equal(t, "wasmsand\n", mustRead(t, f, "/mnt/m/../../etc/hostname"))

	fi, err := f.Stat("/mnt/m")
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	require.Equal(t, "m", fi.Name())
	s := fi.Sys().(*Stat)
	require.NotEqual(t, uint64(treeDev), s.Dev)
	fi, err = f.Stat("/mnt/m/sub/hello")
	require.NoError(t, err)
	require.Equal(t, int64(8), fi.Size())
	require.NotZero(t, fi.Sys().(*Stat).Ino)

	mustWrite(t, f, "/mnt/m/new.txt", "written")
	require.Equal(t, "written", mustRead(t, f, "/mnt/m/new.txt"))
	require.NoError(t, f.Mkdir("/mnt/m/d2", 0o755))
	require.NoError(t, f.Rename("/mnt/m/new.txt", "/mnt/m/d2/moved.txt"))
	ents, err := f.ReadDir("/mnt/m/d2")
	require.NoError(t, err)
	require.Equal(t, []string{"moved.txt"}, names(ents))
	info, err := ents[0].Info()
	require.NoError(t, err)
	require.IsType(t, &Stat{}, info.Sys())

	fl, err := f.OpenFile("/mnt/m/d2/moved.txt", os.O_RDWR, 0)
	require.NoError(t, err)
	buf := make([]byte, 3)
	_, err = fl.Read(buf)
	require.NoError(t, err)
	require.Equal(t, "wri", string(buf))
	fst, err := fl.Stat()
	require.NoError(t, err)
	require.Equal(t, int64(7), fst.Size())
	require.NoError(t, fl.Close())

	d, err := f.Open("/mnt/m")
	require.NoError(t, err)
	ents, err = d.ReadDir(-1)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"sub", "d2"}, names(ents))
	require.NoError(t, d.Close())

	require.NoError(t, f.Remove("/mnt/m/d2/moved.txt"))
	_, err = f.Stat("/mnt/m/d2/moved.txt")
	requireErrno(t, syscall.ENOENT, err)

	// Realpath through the mount.
	p, err := f.Realpath("/mnt/m/sub/../sub/hello")
	require.NoError(t, err)
	require.Equal(t, "/mnt/m/sub/hello", p)
}

func TestMountErrors(t *testing.T) {
	f := NewDefault(Options{}, nil)
	require.NoError(t, f.Mkdir("/mnt/m", 0o755))
	m := newMem(t)
	requireErrno(t, syscall.ENOENT, f.Mount("/nope", m, false))
	requireErrno(t, syscall.ENOTDIR, f.Mount("/etc/passwd", m, false))
	requireErrno(t, syscall.EINVAL, f.Mount("/mnt/m", nil, false))
	require.NoError(t, f.Mount("/mnt/m", m, false))
	requireErrno(t, syscall.EBUSY, f.Mount("/mnt/m", m, false))
	requireErrno(t, syscall.EINVAL, f.Mount("/mnt/m/sub", m, false))

	// Crossing the mount boundary.
	requireErrno(t, syscall.EXDEV, f.Rename("/etc/passwd", "/mnt/m/passwd"))
	requireErrno(t, syscall.EXDEV, f.Rename("/mnt/m/sub/hello", "/tmp/hello"))
	requireErrno(t, syscall.EXDEV, f.Link("/etc/passwd", "/mnt/m/passwd"))
	requireErrno(t, syscall.EBUSY, f.Rename("/mnt/m", "/mnt/other"))
	requireErrno(t, syscall.EBUSY, f.Rmdir("/mnt/m"))
	requireErrno(t, syscall.EBUSY, f.RemoveAll("/mnt"))
	requireErrno(t, syscall.EBUSY, f.Remove("/mnt/m"))
	requireErrno(t, syscall.EPERM, f.Mkfifo("/mnt/m/fifo", 0o644))

	requireErrno(t, syscall.EINVAL, f.Unmount("/mnt"))
	require.NoError(t, f.Unmount("/mnt/m"))
	_, err := f.Stat("/mnt/m/sub")
	requireErrno(t, syscall.ENOENT, err)
	require.NoError(t, f.Rmdir("/mnt/m"))
}

func TestMountReadOnly(t *testing.T) {
	f := NewDefault(Options{}, nil)
	require.NoError(t, f.Mount("/mnt", newMem(t), true))
	require.Equal(t, "from mem", mustRead(t, f, "/mnt/sub/hello"))
	p := "/mnt/sub/hello"
	checks := map[string]error{
		"write":    f.WriteFile(p, []byte("x"), 0o644),
		"create":   f.WriteFile("/mnt/new", []byte("x"), 0o644),
		"mkdir":    f.Mkdir("/mnt/d", 0o755),
		"mkdirall": f.MkdirAll("/mnt/d/e", 0o755),
		"remove":   f.Remove(p),
		"unlink":   f.Unlink(p),
		"rmall":    f.RemoveAll("/mnt/sub"),
		"rename":   f.Rename(p, "/mnt/sub/x"),
		"chmod":    f.Chmod(p, 0o600),
		"chown":    f.Chown(p, 1, 1),
		"chtimes":  f.Chtimes(p, f.mustNow(), f.mustNow(), true),
		"truncate": f.Truncate(p, 0),
		"symlink":  f.Symlink("x", "/mnt/l"),
	}
	for name, err := range checks {
		requireErrno(t, syscall.EROFS, err, name)
	}
	_, err := f.OpenFile(p, os.O_RDWR, 0)
	requireErrno(t, syscall.EROFS, err)
	fl, err := f.Open(p)
	require.NoError(t, err)
	requireErrno(t, syscall.EROFS, fl.Chmod(0o600))
	_, err = fl.Write([]byte("x"))
	requireErrno(t, syscall.EBADF, err)
	require.NoError(t, fl.Close())
	require.Equal(t, "from mem", mustRead(t, f, p))
}

func TestMountVFSInVFS(t *testing.T) {
	inner, _ := newTestFS(t)
	require.NoError(t, inner.MkdirAll("/data/x", 0o755))
	mustWrite(t, inner, "/data/x/f", "inner")
	require.NoError(t, inner.Symlink("x/f", "/data/link"))
	outer := NewDefault(Options{}, nil)
	require.NoError(t, outer.Mount("/mnt", inner.Hackpad(), false))
	require.Equal(t, "inner", mustRead(t, outer, "/mnt/data/x/f"))
	require.Equal(t, "inner", mustRead(t, outer, "/mnt/data/link"))
	target, err := outer.Readlink("/mnt/data/link")
	require.NoError(t, err)
	require.Equal(t, "x/f", target)
	fi, err := outer.Lstat("/mnt/data/link")
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, fi.Mode().Type())
	require.NoError(t, outer.Link("/mnt/data/x/f", "/mnt/data/hard"))
	require.Equal(t, uint64(2), st(t, inner, "/data/x/f").Nlink)

	// Snapshots don't include mounted content.
	s := outer.Snapshot()
	mustWrite(t, outer, "/mnt/data/x/f", "changed")
	outer.Restore(s)
	require.Equal(t, "changed", mustRead(t, outer, "/mnt/data/x/f"))

	// Mounted at the root.
	root := New(Options{})
	require.NoError(t, root.Mount("/", inner.Hackpad(), true))
	require.Equal(t, "changed", mustRead(t, root, "/data/x/f"))
	require.Equal(t, "changed", mustRead(t, root, "/../data/x/../x/f"))
	requireErrno(t, syscall.EROFS, root.WriteFile("/data/x/f", nil, 0))
}

func (f *FS) mustNow() (t0 timeT) { return timeNow() }
