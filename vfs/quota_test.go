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

// TestQuotaCountsSnapshots: bytes a snapshot keeps after the tree changed
// or removed them are memory too: they count toward the quota until the
// snapshot is restored; a fork's shared bytes are the other tree's.
func TestQuotaCountsSnapshots(t *testing.T) {
	f := New(Options{MaxBytes: 100})
	mustWrite(t, f, "/a", string(make([]byte, 80)))
	s := f.Snapshot()
	requireErrno(t, syscall.ENOSPC, f.WriteFile("/a", make([]byte, 80), 0o644))
	require.Equal(t, int64(80), f.Held(), "the 80 bytes the snapshot keeps")
	requireErrno(t, syscall.ENOSPC, f.WriteFile("/b", make([]byte, 30), 0o644))
	mustWrite(t, f, "/b", string(make([]byte, 20)))
	require.NoError(t, f.Remove("/b"))

	// overwriting in place copies the shared chunk: counted too
	f.Restore(s)
	require.Equal(t, int64(80), f.Held())
	fl, err := f.OpenFile("/a", os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte("x"), 0)
	requireErrno(t, syscall.ENOSPC, err) // (a copy of the 80-byte chunk the snapshot keeps)
	require.NoError(t, fl.Close())
	h := New(Options{MaxBytes: 200})
	mustWrite(t, h, "/a", string(make([]byte, 80)))
	h.Snapshot()
	hf, err := h.OpenFile("/a", os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = hf.WriteAt([]byte("x"), 0)
	require.NoError(t, err)
	require.NoError(t, hf.Close())
	require.Equal(t, int64(160), h.Held())
	f.Restore(s)
	require.Equal(t, int64(80), f.Held(), "restored: what was kept is the tree's again")

	// a loop of write, snapshot, remove ends at the quota
	g := New(Options{MaxBytes: 1000})
	var snaps []*Snapshot
	i := 0
	for ; i < 100; i++ {
		if err := g.WriteFile("/x", make([]byte, 100), 0o644); err != nil {
			break
		}
		snaps = append(snaps, g.Snapshot())
		require.NoError(t, g.Remove("/x"))
	}
	require.Less(t, i, 11, "each snapshot keeps 100 bytes of 1000")
	require.LessOrEqual(t, g.Held(), int64(1000))

	// a fork: the bytes it shares with its parent are the parent's to count
	c := f.Clone()
	require.NoError(t, c.Remove("/a"))
	mustWrite(t, c, "/c", string(make([]byte, 90)))
	require.Equal(t, int64(90), c.Held())
}
