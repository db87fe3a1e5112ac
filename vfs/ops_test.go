package vfs

import (
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestNewRoot(t *testing.T) {
	f := New(Options{})
	fi, err := f.Stat("/")
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	require.Equal(t, "/", fi.Name())
	s := fi.Sys().(*Stat)
	require.Equal(t, fs.ModeDir|0o755, s.Mode)
	require.Equal(t, uint32(1000), s.Uid)
	require.Equal(t, uint32(1000), s.Gid)
	require.Equal(t, uint64(2), s.Nlink)
	_, inodes := f.Usage()
	require.Equal(t, int64(1), inodes)
}

func TestBadPaths(t *testing.T) {
	f, _ := newTestFS(t)
	long := strings.Repeat("a", 256)
	tests := []struct {
		name string
		path string
		want syscall.Errno
	}{
		{"empty", "", syscall.ENOENT},
		{"nul", "/a\x00b", syscall.EINVAL},
		{"long component", "/" + long, syscall.ENAMETOOLONG},
		{"long path", "/" + strings.Repeat("a/", 2049), syscall.ENAMETOOLONG},
		{"missing parent", "/nope/x", syscall.ENOENT},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.Stat(tc.path)
			requireErrno(t, tc.want, err)
			requireErrno(t, tc.want, f.Mkdir(tc.path, 0o755))
			_, err = f.OpenFile(tc.path, os.O_CREATE|os.O_WRONLY, 0o644)
			requireErrno(t, tc.want, err)
			requireErrno(t, tc.want, f.Symlink("x", tc.path))
		})
	}
	// 255 bytes is fine.
	require.NoError(t, f.WriteFile("/"+long[:255], nil, 0o644))
	requireErrno(t, syscall.EINVAL, f.Symlink("a\x00", "/l"))
	requireErrno(t, syscall.ENOENT, f.Symlink("", "/l"))
}

func TestPathCleaning(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b", 0o755))
	mustWrite(t, f, "/a/b/c", "x")
	for _, p := range []string{"//a/./b/../b/c", "a/b/c", "/../../a/b/c", "/a//b///c", "./a/b/c"} {
		require.Equal(t, "x", mustRead(t, f, p), p)
	}
	fi, err := f.Stat("/a/b/")
	require.NoError(t, err)
	require.Equal(t, "b", fi.Name())
	_, err = f.Stat("/a/b/c/")
	requireErrno(t, syscall.ENOTDIR, err)
	_, err = f.Stat("/a/b/c/.")
	requireErrno(t, syscall.ENOTDIR, err)
	_, err = f.Stat("/a/b/c/d")
	requireErrno(t, syscall.ENOTDIR, err)
	fl, err := f.Open("a/./b/../b/c")
	require.NoError(t, err)
	require.Equal(t, "/a/b/c", fl.Name())
	require.NoError(t, fl.Close())
}

func TestMkdir(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o750))
	s := st(t, f, "/d")
	require.Equal(t, fs.ModeDir|0o750, s.Mode)
	require.Equal(t, uint64(3), st(t, f, "/").Nlink)
	require.NoError(t, f.Mkdir("/d/e/", 0o755)) // trailing slash is fine for mkdir
	require.Equal(t, uint64(3), st(t, f, "/d").Nlink)
	tests := []struct {
		path string
		want syscall.Errno
	}{
		{"/d", syscall.EEXIST},
		{"/", syscall.EEXIST},
		{"/d/.", syscall.EEXIST},
		{"/d/..", syscall.EEXIST},
		{"/x/y", syscall.ENOENT},
	}
	for _, tc := range tests {
		requireErrno(t, tc.want, f.Mkdir(tc.path, 0o755), tc.path)
	}
	mustWrite(t, f, "/file", "")
	requireErrno(t, syscall.EEXIST, f.Mkdir("/file", 0o755))
	requireErrno(t, syscall.ENOTDIR, f.Mkdir("/file/x", 0o755))
}

func TestMkdirAll(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b/c/d", 0o755))
	require.NoError(t, f.MkdirAll("/a/b/c/d", 0o755))
	require.NoError(t, f.MkdirAll("/a/b/c/d/", 0o755))
	require.NoError(t, f.MkdirAll("/", 0o755))
	fi, err := f.Stat("/a/b/c/d")
	require.NoError(t, err)
	require.True(t, fi.IsDir())
	mustWrite(t, f, "/a/file", "")
	requireErrno(t, syscall.ENOTDIR, f.MkdirAll("/a/file", 0o755))
	requireErrno(t, syscall.ENOTDIR, f.MkdirAll("/a/file/x/y", 0o755))
	require.NoError(t, f.Symlink("/a/b", "/link"))
	require.NoError(t, f.MkdirAll("/link/new/deeper", 0o755))
	_, err = f.Stat("/a/b/new/deeper")
	require.NoError(t, err)
}

func TestUnlinkRmdirRemove(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/d/sub", 0o755))
	mustWrite(t, f, "/d/f", "data")
	require.NoError(t, f.Symlink("/d", "/ld"))

	requireErrno(t, syscall.EISDIR, f.Unlink("/d"))
	requireErrno(t, syscall.ENOTEMPTY, f.Rmdir("/d"))
	requireErrno(t, syscall.ENOTEMPTY, f.Remove("/d"))
	requireErrno(t, syscall.ENOTDIR, f.Rmdir("/d/f"))
	requireErrno(t, syscall.ENOTDIR, f.Rmdir("/ld")) // the link, not its target
	requireErrno(t, syscall.ENOENT, f.Unlink("/nope"))
	requireErrno(t, syscall.EBUSY, f.Rmdir("/"))
	requireErrno(t, syscall.EINVAL, f.Rmdir("/d/sub/."))
	requireErrno(t, syscall.ENOTDIR, f.Unlink("/d/f/"))

	require.NoError(t, f.Unlink("/ld")) // removes the link only
	_, err := f.Stat("/d")
	require.NoError(t, err)
	require.NoError(t, f.Unlink("/d/f"))
	require.NoError(t, f.Rmdir("/d/sub"))
	require.Equal(t, uint64(2), st(t, f, "/d").Nlink)
	require.NoError(t, f.Remove("/d"))
	b, n := f.Usage()
	require.Equal(t, int64(0), b)
	require.Equal(t, int64(1), n)
}

func TestRemoveAll(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/r/a/b/c", 0o755))
	mustWrite(t, f, "/r/a/x", "12345")
	mustWrite(t, f, "/keep", "1")
	require.NoError(t, f.Link("/keep", "/r/a/b/hard"))
	require.NoError(t, f.Symlink("/keep", "/r/link"))
	require.NoError(t, f.RemoveAll("/r"))
	_, err := f.Stat("/r")
	requireErrno(t, syscall.ENOENT, err)
	require.Equal(t, "1", mustRead(t, f, "/keep"))
	require.Equal(t, uint64(1), st(t, f, "/keep").Nlink)
	require.NoError(t, f.RemoveAll("/r"))           // missing is fine
	require.NoError(t, f.RemoveAll("/nope/deeper")) // missing parent too
	b, n := f.Usage()
	require.Equal(t, int64(1), b)
	require.Equal(t, int64(2), n)
	require.Equal(t, uint64(2), st(t, f, "/").Nlink)
	requireErrno(t, syscall.EINVAL, f.RemoveAll("/"))
}

func TestSymlinks(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b", 0o755))
	mustWrite(t, f, "/a/b/file", "content")
	require.NoError(t, f.Symlink("b/file", "/a/rel"))
	require.NoError(t, f.Symlink("/a/b", "/abs"))
	require.NoError(t, f.Symlink("../b/file", "/a/b/up"))
	require.NoError(t, f.Symlink("nowhere", "/dangling"))
	require.NoError(t, f.Symlink("loop2", "/loop1"))
	require.NoError(t, f.Symlink("loop1", "/loop2"))
	require.NoError(t, f.Symlink(".", "/self"))

	require.Equal(t, "content", mustRead(t, f, "/a/rel"))
	require.Equal(t, "content", mustRead(t, f, "/abs/file"))
	require.Equal(t, "content", mustRead(t, f, "/a/b/up"))
	// ".." after a symlinked directory is the physical parent (/a), not "/".
	require.Equal(t, "content", mustRead(t, f, "/abs/../b/file"))

	fi, err := f.Lstat("/a/rel")
	require.NoError(t, err)
	require.Equal(t, fs.ModeSymlink|0o777, fi.Mode())
	require.Equal(t, int64(len("b/file")), fi.Size())
	fi, err = f.Stat("/a/rel")
	require.NoError(t, err)
	require.True(t, fi.Mode().IsRegular())

	target, err := f.Readlink("/abs")
	require.NoError(t, err)
	require.Equal(t, "/a/b", target)
	_, err = f.Readlink("/a/b/file")
	requireErrno(t, syscall.EINVAL, err)

	_, err = f.Stat("/dangling")
	requireErrno(t, syscall.ENOENT, err)
	_, err = f.Lstat("/dangling")
	require.NoError(t, err)
	_, err = f.Stat("/loop1")
	requireErrno(t, syscall.ELOOP, err)
	_, err = f.Open("/loop1/x")
	requireErrno(t, syscall.ELOOP, err)
	require.Equal(t, "content", mustRead(t, f, "/self/self/self/a/rel"))
	requireErrno(t, syscall.EEXIST, f.Symlink("x", "/abs"))

	// Writing through a dangling symlink creates its target.
	mustWrite(t, f, "/dangling", "made")
	require.Equal(t, "made", mustRead(t, f, "/nowhere"))

	// O_NOFOLLOW on a symlink → ELOOP; O_CREATE|O_EXCL on a symlink → EEXIST.
	_, err = f.OpenFile("/a/rel", os.O_RDONLY|O_NOFOLLOW, 0)
	requireErrno(t, syscall.ELOOP, err)
	_, err = f.OpenFile("/dangling", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	requireErrno(t, syscall.EEXIST, err)
}

func TestSymlinkHopLimit(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/l0", "end")
	for i := 1; i <= 41; i++ {
		require.NoError(t, f.Symlink("/l"+itoa(i-1), "/l"+itoa(i)))
	}
	require.Equal(t, "end", mustRead(t, f, "/l40"))
	_, err := f.Stat("/l41")
	requireErrno(t, syscall.ELOOP, err)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestRealpath(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b/c", 0o755))
	mustWrite(t, f, "/a/b/c/f", "")
	require.NoError(t, f.Symlink("/a/b", "/lb"))
	require.NoError(t, f.Symlink("c/f", "/a/b/lf"))
	tests := map[string]string{
		"/":             "/",
		"/a/b/../b/c":   "/a/b/c",
		"/lb":           "/a/b",
		"/lb/":          "/a/b",
		"/lb/c/f":       "/a/b/c/f",
		"/lb/lf":        "/a/b/c/f",
		"/lb/..":        "/a",
		"/a/./b/c/./f":  "/a/b/c/f",
		"lb/c":          "/a/b/c",
		"/../../lb/../": "/a",
	}
	for in, want := range tests {
		got, err := f.Realpath(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	_, err := f.Realpath("/lb/nope")
	requireErrno(t, syscall.ENOENT, err)
}

func TestHardLinks(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/a", "shared")
	require.NoError(t, f.Mkdir("/d", 0o755))
	require.NoError(t, f.Link("/a", "/d/b"))
	sa, sb := st(t, f, "/a"), st(t, f, "/d/b")
	require.Equal(t, sa.Ino, sb.Ino)
	require.Equal(t, uint64(2), sa.Nlink)
	mustWrite(t, f, "/d/b", "changed")
	require.Equal(t, "changed", mustRead(t, f, "/a"))
	require.NoError(t, f.Unlink("/a"))
	require.Equal(t, uint64(1), st(t, f, "/d/b").Nlink)
	require.Equal(t, "changed", mustRead(t, f, "/d/b"))

	requireErrno(t, syscall.EPERM, f.Link("/d", "/d2"))
	requireErrno(t, syscall.EEXIST, f.Link("/d/b", "/d/b"))
	requireErrno(t, syscall.ENOENT, f.Link("/nope", "/x"))
	requireErrno(t, syscall.ENOENT, f.Link("/d/b", "/nope/x"))
	// Linking a symlink links the symlink itself.
	require.NoError(t, f.Symlink("d/b", "/sl"))
	require.NoError(t, f.Link("/sl", "/sl2"))
	fi, err := f.Lstat("/sl2")
	require.NoError(t, err)
	require.Equal(t, fs.ModeSymlink, fi.Mode().Type())
	b, _ := f.Usage()
	require.Equal(t, int64(len("changed")), b)
}

func TestChmodChownChtimes(t *testing.T) {
	f, clock := newTestFS(t)
	mustWrite(t, f, "/f", "x")
	require.NoError(t, f.Symlink("/f", "/l"))
	before := st(t, f, "/f")

	require.NoError(t, f.Chmod("/l", 0o600|fs.ModeSetuid|fs.ModeSticky))
	s := st(t, f, "/f")
	require.Equal(t, 0o600|fs.ModeSetuid|fs.ModeSticky, s.Mode)
	require.True(t, s.Ctime.After(before.Ctime))
	require.Equal(t, before.Mtime, s.Mtime)
	require.Equal(t, fs.ModeSymlink|0o777, st(t, f, "/l").Mode) // link untouched

	require.NoError(t, f.Chmod("/f", fs.ModeDir|0o644)) // type bits are ignored
	require.Equal(t, fs.FileMode(0o644), st(t, f, "/f").Mode)

	require.NoError(t, f.Chown("/l", 0, 5))
	s = st(t, f, "/f")
	require.Equal(t, uint32(0), s.Uid)
	require.Equal(t, uint32(5), s.Gid)
	require.NoError(t, f.Chown("/f", -1, 7))
	require.Equal(t, uint32(0), st(t, f, "/f").Uid)
	require.Equal(t, uint32(7), st(t, f, "/f").Gid)
	require.NoError(t, f.Lchown("/l", 42, 43))
	require.Equal(t, uint32(42), st(t, f, "/l").Uid)
	require.Equal(t, uint32(0), st(t, f, "/f").Uid)
	requireErrno(t, syscall.EINVAL, f.Chown("/f", -2, 0))

	at := time.Date(2000, 1, 2, 3, 4, 5, 6, time.UTC)
	mt := time.Date(2001, 1, 2, 3, 4, 5, 6, time.UTC)
	require.NoError(t, f.Chtimes("/l", at, mt, true))
	s = st(t, f, "/f")
	require.True(t, s.Atime.Equal(at))
	require.True(t, s.Mtime.Equal(mt))
	require.NoError(t, f.Chtimes("/f", time.Time{}, at, true)) // zero atime: unchanged
	s = st(t, f, "/f")
	require.True(t, s.Atime.Equal(at))
	require.True(t, s.Mtime.Equal(at))
	require.NoError(t, f.Chtimes("/l", at, at, false))
	require.True(t, st(t, f, "/l").Mtime.Equal(at))

	requireErrno(t, syscall.ENOENT, f.Chmod("/nope", 0o644))
	_ = clock
}

func TestTimestamps(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o755))
	d0 := st(t, f, "/d")
	mustWrite(t, f, "/d/f", "a")
	d1 := st(t, f, "/d")
	require.True(t, d1.Mtime.After(d0.Mtime), "create updates parent mtime")
	f0 := st(t, f, "/d/f")

	fl, err := f.OpenFile("/d/f", os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = fl.Write([]byte("b"))
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	f1 := st(t, f, "/d/f")
	require.True(t, f1.Mtime.After(f0.Mtime))
	require.True(t, f1.Ctime.After(f0.Ctime))
	require.Equal(t, f0.Atime, f1.Atime)
	require.Equal(t, d1.Mtime, st(t, f, "/d").Mtime, "writing a file leaves the dir alone")

	_ = mustRead(t, f, "/d/f")
	require.Equal(t, f1.Atime, st(t, f, "/d/f").Atime, "reads never update atime")

	require.NoError(t, f.Link("/d/f", "/d/g"))
	f2 := st(t, f, "/d/f")
	require.True(t, f2.Ctime.After(f1.Ctime))
	require.Equal(t, f1.Mtime, f2.Mtime)

	require.NoError(t, f.Rename("/d/g", "/h"))
	require.True(t, st(t, f, "/d").Mtime.After(d1.Mtime))
	require.True(t, st(t, f, "/h").Ctime.After(f2.Ctime))

	require.NoError(t, f.Truncate("/h", 10))
	require.True(t, st(t, f, "/h").Mtime.After(f2.Mtime))
}

func TestReadDir(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o755))
	for _, n := range []string{"c", "a", "b"} {
		mustWrite(t, f, "/d/"+n, n)
	}
	require.NoError(t, f.Mkdir("/d/sub", 0o700))
	require.NoError(t, f.Symlink("a", "/d/ln"))
	ents, err := f.ReadDir("/d")
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"a", "b", "c", "ln", "sub"}, names)
	require.True(t, ents[4].IsDir())
	require.Equal(t, fs.ModeSymlink, ents[3].Type())
	info, err := ents[0].Info()
	require.NoError(t, err)
	require.Equal(t, int64(1), info.Size())

	_, err = f.ReadDir("/d/a")
	requireErrno(t, syscall.ENOTDIR, err)
	_, err = f.ReadDir("/nope")
	requireErrno(t, syscall.ENOENT, err)
	ents, err = f.ReadDir("/d/sub")
	require.NoError(t, err)
	require.Empty(t, ents)
}

func TestMkfifoMknod(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkfifo("/p", 0o644))
	require.Equal(t, fs.ModeNamedPipe|0o644, st(t, f, "/p").Mode)
	requireErrno(t, syscall.EEXIST, f.Mkfifo("/p", 0o644))
	require.NoError(t, f.Mknod("/null", 0o666, DevNull))
	s := st(t, f, "/null")
	require.Equal(t, fs.ModeDevice|fs.ModeCharDevice|0o666, s.Mode)
	require.Equal(t, uint64(1<<8|3), s.Rdev)
	requireErrno(t, syscall.EINVAL, f.Mknod("/bad", 0o666, Device(99)))
	requireErrno(t, syscall.EINVAL, f.Truncate("/p", 0))
}

func TestTruncatePath(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/f", "hello world")
	require.NoError(t, f.Truncate("/f", 5))
	require.Equal(t, "hello", mustRead(t, f, "/f"))
	require.NoError(t, f.Truncate("/f", 8))
	require.Equal(t, "hello\x00\x00\x00", mustRead(t, f, "/f"))
	require.NoError(t, f.Truncate("/f", 0))
	require.Equal(t, "", mustRead(t, f, "/f"))
	requireErrno(t, syscall.EINVAL, f.Truncate("/f", -1))
	requireErrno(t, syscall.EISDIR, f.Truncate("/", 0))
	requireErrno(t, syscall.ENOENT, f.Truncate("/nope", 0))
	requireErrno(t, syscall.EFBIG, f.Truncate("/f", maxFileSize+1))
	b, _ := f.Usage()
	require.Equal(t, int64(0), b)
}

func TestNeverPanics(t *testing.T) {
	f := NewDefault(Options{}, []string{"ls"})
	weird := []string{"", "/", ".", "..", "//", "\x00", "/dev/null/x", "/dev/stdin", "a/../../..",
		strings.Repeat("/", 5000), strings.Repeat("x", 300), "/tmp/" + strings.Repeat("../", 100)}
	for _, p := range weird {
		f.Stat(p)
		f.Lstat(p)
		f.Mkdir(p, 0)
		f.MkdirAll(p, 0)
		f.ReadDir(p)
		f.Readlink(p)
		f.Realpath(p)
		f.Chmod(p, 0)
		f.Chown(p, 1, 1)
		f.Truncate(p, 1)
		f.Link(p, p)
		f.Symlink(p, p)
		f.Rename(p, "/tmp/x")
		f.Rename("/tmp/x", p)
		f.Mkfifo(p, 0)
		if fl, err := f.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644); err == nil {
			fl.Close()
		}
		f.Unlink(p)
		f.Rmdir(p)
		f.RemoveAll(p)
	}
}

func TestDeepPaths(t *testing.T) {
	f, _ := newTestFS(t)
	p := ""
	for i := 0; i < 60; i++ { // deeper than the walk's inline frame array
		p += "/d" + itoa(i)
	}
	require.NoError(t, f.MkdirAll(p, 0o755))
	mustWrite(t, f, p+"/f", "deep")
	require.Equal(t, "deep", mustRead(t, f, p+"/../d59/f"))
	rp, err := f.Realpath(p + "/../../d58/d59/./f")
	require.NoError(t, err)
	require.Equal(t, p+"/f", rp)
	require.NoError(t, f.Symlink(p, "/short"))
	rp, err = f.Realpath("/short/..")
	require.NoError(t, err)
	require.Equal(t, p[:strings.LastIndex(p, "/")], rp)
	require.NoError(t, f.RemoveAll("/d0"))
	_, n := f.Usage()
	require.Equal(t, int64(2), n)
}
