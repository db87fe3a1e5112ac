package vfs

import (
	"bytes"
	"io"
	"os"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOpenFlags(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o755))
	mustWrite(t, f, "/f", "hello")
	tests := []struct {
		name string
		path string
		flag int
		want syscall.Errno
	}{
		{"missing", "/nope", os.O_RDONLY, syscall.ENOENT},
		{"excl existing", "/f", os.O_CREATE | os.O_EXCL | os.O_WRONLY, syscall.EEXIST},
		{"dir for write", "/d", os.O_WRONLY, syscall.EISDIR},
		{"dir rdwr", "/d", os.O_RDWR, syscall.EISDIR},
		{"dir with create", "/d", os.O_CREATE | os.O_RDONLY, syscall.EISDIR},
		{"O_DIRECTORY on file", "/f", os.O_RDONLY | O_DIRECTORY, syscall.ENOTDIR},
		{"create with trailing slash", "/new/", os.O_CREATE | os.O_WRONLY, syscall.EISDIR},
		{"create in missing dir", "/x/y", os.O_CREATE | os.O_WRONLY, syscall.ENOENT},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.OpenFile(tc.path, tc.flag, 0o644)
			requireErrno(t, tc.want, err)
		})
	}
	fl, err := f.OpenFile("/d", os.O_RDONLY|O_DIRECTORY, 0)
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	requireErrno(t, syscall.EBADF, fl.Close())

	fl, err = f.OpenFile("/f", os.O_WRONLY|os.O_TRUNC, 0)
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	require.Equal(t, "", mustRead(t, f, "/f"))

	fl, err = f.OpenFile("/new", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o640)
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	require.Equal(t, os.FileMode(0o640), st(t, f, "/new").Mode)
}

func TestFileReadWriteSeek(t *testing.T) {
	f, _ := newTestFS(t)
	fl, err := f.OpenFile("/f", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer fl.Close()

	n, err := fl.Write([]byte("hello world"))
	require.NoError(t, err)
	require.Equal(t, 11, n)
	buf := make([]byte, 5)
	n, err = fl.Read(buf)
	require.Equal(t, 0, n)
	require.Equal(t, io.EOF, err)

	off, err := fl.Seek(6, io.SeekStart)
	require.NoError(t, err)
	require.Equal(t, int64(6), off)
	n, err = fl.Read(buf)
	require.NoError(t, err)
	require.Equal(t, "world", string(buf[:n]))

	off, err = fl.Seek(-5, io.SeekEnd)
	require.NoError(t, err)
	require.Equal(t, int64(6), off)
	off, err = fl.Seek(-1, io.SeekCurrent)
	require.NoError(t, err)
	require.Equal(t, int64(5), off)
	_, err = fl.Seek(-100, io.SeekCurrent)
	requireErrno(t, syscall.EINVAL, err)
	_, err = fl.Seek(0, 7)
	requireErrno(t, syscall.EINVAL, err)

	// Write past EOF leaves a zero-filled hole.
	_, err = fl.Seek(20, io.SeekStart)
	require.NoError(t, err)
	_, err = fl.Write([]byte("!"))
	require.NoError(t, err)
	require.Equal(t, "hello world\x00\x00\x00\x00\x00\x00\x00\x00\x00!", mustRead(t, f, "/f"))

	// ReadAt / WriteAt don't move the offset.
	n, err = fl.ReadAt(buf, 0)
	require.NoError(t, err)
	require.Equal(t, "hello", string(buf[:n]))
	n, err = fl.ReadAt(buf, 19)
	require.Equal(t, io.EOF, err)
	require.Equal(t, "\x00!", string(buf[:n]))
	n, err = fl.ReadAt(buf, 100)
	require.Equal(t, io.EOF, err)
	require.Equal(t, 0, n)
	_, err = fl.ReadAt(buf, -1)
	requireErrno(t, syscall.EINVAL, err)
	_, err = fl.WriteAt([]byte("HE"), 0)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte("x"), -1)
	requireErrno(t, syscall.EINVAL, err)
	off, _ = fl.Seek(0, io.SeekCurrent)
	require.Equal(t, int64(21), off)
	require.Equal(t, "HEllo", mustRead(t, f, "/f")[:5])

	fi, err := fl.Stat()
	require.NoError(t, err)
	require.Equal(t, int64(21), fi.Size())
	require.Equal(t, "f", fi.Name())
	require.NoError(t, fl.Sync())
}

func TestFileAccessModes(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/f", "abc")
	r, err := f.Open("/f")
	require.NoError(t, err)
	_, err = r.Write([]byte("x"))
	requireErrno(t, syscall.EBADF, err)
	_, err = r.WriteAt([]byte("x"), 0)
	requireErrno(t, syscall.EBADF, err)
	requireErrno(t, syscall.EINVAL, r.Truncate(0))
	require.NoError(t, r.Close())
	_, err = r.Read(make([]byte, 1))
	requireErrno(t, syscall.EBADF, err)
	_, err = r.Stat()
	requireErrno(t, syscall.EBADF, err)

	w, err := f.OpenFile("/f", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = w.Read(make([]byte, 1))
	requireErrno(t, syscall.EBADF, err)
	require.NoError(t, w.Close())

	d, err := f.Open("/")
	require.NoError(t, err)
	_, err = d.Read(make([]byte, 1))
	requireErrno(t, syscall.EISDIR, err)
	require.NoError(t, d.Close())
}

func TestAppend(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/log", "a")
	w1, err := f.OpenFile("/log", os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	w2, err := f.OpenFile("/log", os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, _ = w1.Write([]byte("b"))
	_, _ = w2.Write([]byte("c"))
	_, _ = w1.Write([]byte("d"))
	require.Equal(t, "abcd", mustRead(t, f, "/log"))
	_, err = w1.WriteAt([]byte("x"), 0)
	requireErrno(t, syscall.EINVAL, err) // like os.File
	require.NoError(t, w1.Close())
	require.NoError(t, w2.Close())
}

func TestFileTruncate(t *testing.T) {
	f, _ := newTestFS(t)
	fl, err := f.OpenFile("/f", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer fl.Close()
	data := bytes.Repeat([]byte("0123456789"), 20000) // 200 KB: several chunks
	_, err = fl.Write(data)
	require.NoError(t, err)
	require.NoError(t, fl.Truncate(70000))
	got := mustRead(t, f, "/f")
	require.Equal(t, string(data[:70000]), got)
	require.NoError(t, fl.Truncate(140000))
	got = mustRead(t, f, "/f")
	require.Equal(t, string(data[:70000]), got[:70000])
	require.Equal(t, string(make([]byte, 70000)), got[70000:])
	// Writing inside the regrown region must not resurrect old bytes.
	_, err = fl.WriteAt([]byte("X"), 100000)
	require.NoError(t, err)
	got = mustRead(t, f, "/f")
	require.Equal(t, string(make([]byte, 30000)), got[70000:100000])
	require.Equal(t, byte('X'), got[100000])
	require.Equal(t, string(make([]byte, 39999)), got[100001:])
	b, _ := f.Usage()
	require.Equal(t, int64(140000), b)
	requireErrno(t, syscall.EINVAL, fl.Truncate(-1))
}

func TestSmallTruncateRegrow(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/f", "abcdef")
	require.NoError(t, f.Truncate("/f", 2))
	fl, err := f.OpenFile("/f", os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = fl.Seek(0, io.SeekEnd)
	require.NoError(t, err)
	require.NoError(t, fl.Truncate(4))
	_, err = fl.Write([]byte("Z"))
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	require.Equal(t, "ab\x00\x00Z", mustRead(t, f, "/f"))
}

func TestSparseLargeOffset(t *testing.T) {
	f, _ := newTestFS(t)
	fl, err := f.OpenFile("/sparse", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte("end"), 1<<30)
	require.NoError(t, err)
	fi, _ := fl.Stat()
	require.Equal(t, int64(1<<30+3), fi.Size())
	buf := make([]byte, 4)
	n, err := fl.ReadAt(buf, 1<<29)
	require.NoError(t, err)
	require.Equal(t, []byte{0, 0, 0, 0}, buf[:n])
	n, _ = fl.ReadAt(buf, 1<<30)
	require.Equal(t, "end", string(buf[:n]))
	_, err = fl.WriteAt([]byte("x"), maxFileSize)
	requireErrno(t, syscall.EFBIG, err)
	require.NoError(t, fl.Close())
}

func TestFileReadDir(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o755))
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		mustWrite(t, f, "/d/"+n, "")
	}
	d, err := f.Open("/d")
	require.NoError(t, err)
	defer d.Close()
	ents, err := d.ReadDir(2)
	require.NoError(t, err)
	require.Len(t, ents, 2)
	require.Equal(t, "a", ents[0].Name())
	require.NoError(t, f.Unlink("/d/c")) // removed after listing started: skipped
	ents, err = d.ReadDir(2)
	require.NoError(t, err)
	require.Equal(t, []string{"d"}, names(ents))
	ents, err = d.ReadDir(2)
	require.NoError(t, err)
	require.Equal(t, []string{"e"}, names(ents))
	_, err = d.ReadDir(2)
	require.Equal(t, io.EOF, err)
	ents, err = d.ReadDir(-1)
	require.NoError(t, err)
	require.Empty(t, ents)
	_, err = d.Seek(0, io.SeekStart)
	require.NoError(t, err)
	ents, err = d.ReadDir(-1)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "d", "e"}, names(ents))

	fl, err := f.Open("/d/a")
	require.NoError(t, err)
	_, err = fl.ReadDir(1)
	requireErrno(t, syscall.ENOTDIR, err)
	fl.Close()
}

func names(ents []os.DirEntry) []string {
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestFileMetadataOps(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/f", "x")
	fl, err := f.Open("/f")
	require.NoError(t, err)
	require.NoError(t, fl.Chmod(0o600))
	require.NoError(t, fl.Chown(1, 2))
	require.NoError(t, fl.Chtimes(st(t, f, "/").Mtime, st(t, f, "/").Mtime))
	s := st(t, f, "/f")
	require.Equal(t, os.FileMode(0o600), s.Mode)
	require.Equal(t, uint32(1), s.Uid)
	require.Equal(t, st(t, f, "/").Mtime, s.Mtime)
	require.NoError(t, fl.Close())
	requireErrno(t, syscall.EBADF, fl.Chmod(0o644))
}

func TestUnlinkedOpenFile(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/tmpf", "still here")
	fl, err := f.OpenFile("/tmpf", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, f.Unlink("/tmpf"))
	_, err = f.Stat("/tmpf")
	requireErrno(t, syscall.ENOENT, err)
	b, n := f.Usage()
	require.Equal(t, int64(10), b, "open file still holds its bytes")
	require.Equal(t, int64(2), n)
	got, err := io.ReadAll(fl)
	require.NoError(t, err)
	require.Equal(t, "still here", string(got))
	_, err = fl.Write([]byte("!"))
	require.NoError(t, err)
	fi, err := fl.Stat()
	require.NoError(t, err)
	require.Equal(t, uint64(0), fi.Sys().(*Stat).Nlink)
	require.NoError(t, fl.Close())
	b, n = f.Usage()
	require.Equal(t, int64(0), b)
	require.Equal(t, int64(1), n)
}

func TestDevices(t *testing.T) {
	f := NewDefault(Options{}, nil)
	null, err := f.OpenFile("/dev/null", os.O_RDWR, 0)
	require.NoError(t, err)
	n, err := null.Write([]byte("gone"))
	require.NoError(t, err)
	require.Equal(t, 4, n)
	_, err = null.Read(make([]byte, 4))
	require.Equal(t, io.EOF, err)
	require.NoError(t, null.Close())

	zero, err := f.Open("/dev/zero")
	require.NoError(t, err)
	buf := []byte{1, 2, 3}
	n, err = zero.Read(buf)
	require.NoError(t, err)
	require.Equal(t, []byte{0, 0, 0}, buf[:n])
	zero.Close()

	rnd, err := f.Open("/dev/urandom")
	require.NoError(t, err)
	buf = make([]byte, 64)
	n, err = rnd.Read(buf)
	require.NoError(t, err)
	require.Equal(t, 64, n)
	require.NotEqual(t, make([]byte, 64), buf)
	rnd.Close()

	for _, p := range []string{"/dev/stdin", "/dev/stdout", "/dev/stderr"} {
		_, err = f.Open(p)
		requireErrno(t, syscall.ENXIO, err, p)
	}
	b, err := f.ReadFile("/dev/null")
	require.NoError(t, err)
	require.Empty(t, b)
	require.NoError(t, f.WriteFile("/dev/null", []byte("x"), 0))
}

func TestFIFO(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkfifo("/p", 0o644))
	var wg sync.WaitGroup
	var got []byte
	var rerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		r, err := f.Open("/p") // reader first: must wait for a writer, not see EOF
		if err != nil {
			rerr = err
			return
		}
		got, rerr = io.ReadAll(r)
		r.Close()
	}()
	w, err := f.OpenFile("/p", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = w.Write([]byte("through the fifo"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	wg.Wait()
	require.NoError(t, rerr)
	require.Equal(t, "through the fifo", string(got))

	// Reader gone → writer gets EPIPE.
	r, err := f.Open("/p")
	require.NoError(t, err)
	w, err = f.OpenFile("/p", os.O_WRONLY, 0)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	_, err = w.Write([]byte("x"))
	requireErrno(t, syscall.EPIPE, err)
	require.NoError(t, w.Close())
	_, err = r.Seek(0, io.SeekStart)
	requireErrno(t, syscall.EBADF, err)
	f.omu.Lock()
	require.Empty(t, f.fifos, "idle FIFOs are forgotten")
	f.omu.Unlock()
}
