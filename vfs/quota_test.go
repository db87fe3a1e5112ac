package vfs

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestByteQuota(t *testing.T) {
	f := New(Options{MaxBytes: 100})
	mustWrite(t, f, "/a", string(bytes.Repeat([]byte("a"), 60)))
	fl, err := f.OpenFile("/b", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer fl.Close()
	n, err := fl.Write(bytes.Repeat([]byte("b"), 50))
	requireErrno(t, syscall.ENOSPC, err)
	require.Equal(t, 0, n, "nothing partial")
	fi, _ := fl.Stat()
	require.Equal(t, int64(0), fi.Size())
	n, err = fl.Write(bytes.Repeat([]byte("b"), 40))
	require.NoError(t, err)
	require.Equal(t, 40, n)
	used, _ := f.Usage()
	require.Equal(t, int64(100), used)

	// Overwriting in place costs nothing.
	_, err = fl.WriteAt([]byte("xxxx"), 0)
	require.NoError(t, err)
	// Holes count too.
	_, err = fl.WriteAt([]byte("x"), 40)
	requireErrno(t, syscall.ENOSPC, err)
	requireErrno(t, syscall.ENOSPC, fl.Truncate(41))
	requireErrno(t, syscall.ENOSPC, f.Truncate("/a", 61))
	_, err = f.Stat("/a")
	require.NoError(t, err)
	require.Equal(t, int64(60), st(t, f, "/a").Size)

	// Freeing makes room again.
	require.NoError(t, f.Truncate("/a", 10))
	_, err = fl.Write(bytes.Repeat([]byte("c"), 50))
	require.NoError(t, err)
	requireErrno(t, syscall.ENOSPC, f.WriteFile("/c", []byte("1"), 0o644))
	_, err = f.Stat("/c")
	require.NoError(t, err, "the file is created, the write fails (like a full disk)")
}

func TestInodeQuota(t *testing.T) {
	f := New(Options{MaxInodes: 4}) // "/" + 3
	require.NoError(t, f.Mkdir("/d", 0o755))
	mustWrite(t, f, "/d/f", "")
	require.NoError(t, f.Symlink("f", "/d/l"))
	requireErrno(t, syscall.ENOSPC, f.Mkdir("/x", 0o755))
	requireErrno(t, syscall.ENOSPC, f.WriteFile("/x", nil, 0o644))
	requireErrno(t, syscall.ENOSPC, f.Symlink("a", "/y"))
	requireErrno(t, syscall.ENOSPC, f.Mkfifo("/p", 0o644))
	require.NoError(t, f.Link("/d/f", "/hard"), "hard links need no inode")
	require.NoError(t, f.Unlink("/d/l"))
	require.NoError(t, f.Mkdir("/x", 0o755))
	_, n := f.Usage()
	require.Equal(t, int64(4), n)
}

func TestQuotaPerClone(t *testing.T) {
	f := New(Options{MaxBytes: 100})
	mustWrite(t, f, "/a", string(make([]byte, 80)))
	c := f.Clone()
	mustWrite(t, c, "/a", "") // frees 80 in the clone only
	mustWrite(t, c, "/b", string(make([]byte, 90)))
	requireErrno(t, syscall.ENOSPC, f.WriteFile("/b", make([]byte, 30), 0o644))
	cb, _ := c.Usage()
	fb, _ := f.Usage()
	require.Equal(t, int64(90), cb)
	require.Equal(t, int64(80), fb)
	s := c.Snapshot()
	require.NoError(t, c.Remove("/b"))
	c.Restore(s)
	cb, _ = c.Usage()
	require.Equal(t, int64(90), cb, "usage is part of the snapshot")
}

func TestQuotaManyFiles(t *testing.T) {
	f := New(Options{MaxBytes: 1000, MaxInodes: 50})
	var err error
	i := 0
	for ; i < 100; i++ {
		if err = f.WriteFile(fmt.Sprintf("/f%d", i), []byte("0123456789"), 0o644); err != nil {
			break
		}
	}
	requireErrno(t, syscall.ENOSPC, err)
	require.Equal(t, 49, i)
}
