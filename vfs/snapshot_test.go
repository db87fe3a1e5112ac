package vfs

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSnapshotRestore(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b", 0o755))
	mustWrite(t, f, "/a/b/f", "v1")
	mustWrite(t, f, "/a/keep", "k")
	s := f.Snapshot()
	sb, sn := s.Usage()

	mustWrite(t, f, "/a/b/f", "v2-longer")
	require.NoError(t, f.Chmod("/a/keep", 0o600))
	require.NoError(t, f.Rename("/a/b", "/moved"))
	mustWrite(t, f, "/new", "n")
	require.NoError(t, f.Remove("/a/keep"))

	f.Restore(s)
	require.Equal(t, "v1", mustRead(t, f, "/a/b/f"))
	require.Equal(t, "k", mustRead(t, f, "/a/keep"))
	require.Equal(t, os.FileMode(0o644), st(t, f, "/a/keep").Mode)
	_, err := f.Stat("/new")
	requireErrno(t, syscall.ENOENT, err)
	_, err = f.Stat("/moved")
	requireErrno(t, syscall.ENOENT, err)
	b, n := f.Usage()
	require.Equal(t, sb, b)
	require.Equal(t, sn, n)

	// Restoring twice works: the snapshot itself never changed.
	mustWrite(t, f, "/a/b/f", "v3")
	f.Restore(s)
	require.Equal(t, "v1", mustRead(t, f, "/a/b/f"))

	// Inode numbers are not reused after a restore.
	mustWrite(t, f, "/after", "")
	require.Greater(t, st(t, f, "/after").Ino, uint64(6))
}

func TestSnapshotIndependenceBigFile(t *testing.T) {
	f, _ := newTestFS(t)
	big := bytes.Repeat([]byte{'a'}, 5*chunkSize+123)
	require.NoError(t, f.WriteFile("/big", big, 0o644))
	s := f.Snapshot()
	fl, err := f.OpenFile("/big", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte("ZZ"), 2*chunkSize-1) // straddles two chunks
	require.NoError(t, err)
	_, err = fl.Seek(0, 2)
	require.NoError(t, err)
	_, err = fl.Write([]byte("tail"))
	require.NoError(t, err)
	require.NoError(t, fl.Truncate(chunkSize+5))
	require.NoError(t, fl.Truncate(3*chunkSize))
	require.NoError(t, fl.Close())

	cur, _ := f.ReadFile("/big")
	require.Equal(t, 3*chunkSize, len(cur))
	require.Equal(t, byte('a'), cur[chunkSize+4]) // ZZ (at 2*chunk-1) was cut off at chunk+5
	require.Equal(t, make([]byte, 3*chunkSize-(chunkSize+5)), cur[chunkSize+5:])

	f.Restore(s)
	require.Equal(t, big, []byte(mustRead(t, f, "/big")))
}

func TestCloneIndependence(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o755))
	for i := 0; i < 100; i++ {
		mustWrite(t, f, fmt.Sprintf("/d/f%03d", i), fmt.Sprint(i))
	}
	c := f.Clone()
	mustWrite(t, c, "/d/f000", "clone")
	mustWrite(t, f, "/d/f001", "orig")
	require.NoError(t, c.Unlink("/d/f002"))
	require.NoError(t, f.Mkdir("/d/onlyorig", 0o755))
	require.NoError(t, c.Chown("/d/f003", 7, 7))

	require.Equal(t, "0", mustRead(t, f, "/d/f000"))
	require.Equal(t, "clone", mustRead(t, c, "/d/f000"))
	require.Equal(t, "1", mustRead(t, c, "/d/f001"))
	require.Equal(t, "orig", mustRead(t, f, "/d/f001"))
	require.Equal(t, "2", mustRead(t, f, "/d/f002"))
	_, err := c.Stat("/d/f002")
	requireErrno(t, syscall.ENOENT, err)
	_, err = c.Stat("/d/onlyorig")
	requireErrno(t, syscall.ENOENT, err)
	require.Equal(t, uint32(1000), st(t, f, "/d/f003").Uid)

	// Clones of clones, and snapshots of clones.
	s := c.Snapshot()
	cc := c.Clone()
	mustWrite(t, cc, "/d/f000", "grandchild")
	mustWrite(t, c, "/d/f000", "child2")
	c.Restore(s)
	require.Equal(t, "clone", mustRead(t, c, "/d/f000"))
	require.Equal(t, "grandchild", mustRead(t, cc, "/d/f000"))
	require.Equal(t, "0", mustRead(t, f, "/d/f000"))
}

func TestConcurrentClones(t *testing.T) {
	// Run with -race: clones share nodes but must never write shared ones.
	base := NewDefault(Options{}, []string{"ls", "cat"})
	mustWrite(t, base, "/tmp/shared", "base")
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		c := base.Clone()
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				p := fmt.Sprintf("/tmp/f%d", j%10)
				if err := c.WriteFile(p, []byte(fmt.Sprint(i, j)), 0o644); err != nil {
					t.Error(err)
					return
				}
				c.ReadDir("/tmp")
				c.ReadFile("/tmp/shared")
				if j%50 == 0 {
					c.Snapshot()
				}
			}
		}(i)
	}
	for j := 0; j < 200; j++ {
		base.ReadDir("/tmp")
		base.WriteFile("/tmp/shared", []byte(fmt.Sprint(j)), 0o644)
	}
	wg.Wait()
}

func TestConcurrentWritersOneFS(t *testing.T) {
	f, _ := newTestFS(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			fl, err := f.OpenFile("/shared.log", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				t.Error(err)
				return
			}
			defer fl.Close()
			for j := 0; j < 100; j++ {
				fl.Write([]byte("0123456789"))
				if j%25 == 0 {
					f.Snapshot()
				}
			}
		}(i)
	}
	wg.Wait()
	b, err := f.ReadFile("/shared.log")
	require.NoError(t, err)
	require.Len(t, b, 8*100*10)
}

func TestRestoreWithOpenFiles(t *testing.T) {
	f, _ := newTestFS(t)
	s := f.Snapshot()
	fl, err := f.OpenFile("/created-later", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	f.Restore(s)
	_, err = fl.Write([]byte("x"))
	requireErrno(t, syscall.EBADF, err)
	require.NoError(t, fl.Close())

	// An orphan (unlinked but open) captured in a snapshot is reaped when
	// the snapshot is restored and nothing has it open.
	mustWrite(t, f, "/o", "12345")
	fl, err = f.Open("/o")
	require.NoError(t, err)
	require.NoError(t, f.Unlink("/o"))
	s2 := f.Snapshot()
	require.NoError(t, fl.Close())
	b, n := f.Usage()
	require.Equal(t, int64(0), b)
	require.Equal(t, int64(1), n)
	f.Restore(s2)
	b, n = f.Usage()
	require.Equal(t, int64(0), b)
	require.Equal(t, int64(1), n)
}

// Unchanged: true until anything of the tree changes (contents, modes, names), not
// after reads.
func TestUnchanged(t *testing.T) {
	for name, change := range map[string]func(f *FS) error{
		"write":  func(f *FS) error { return f.WriteFile("/a", []byte("y"), 0o644) },
		"chmod":  func(f *FS) error { return f.Chmod("/a", 0o600) },
		"mkdir":  func(f *FS) error { return f.Mkdir("/d2", 0o755) },
		"rename": func(f *FS) error { return f.Rename("/a", "/b") },
		"remove": func(f *FS) error { return f.Remove("/a") },
		"made and removed": func(f *FS) error {
			if err := f.WriteFile("/t", nil, 0o644); err != nil {
				return err
			}
			return f.Remove("/t")
		},
	} {
		f := New(Options{})
		require.NoError(t, f.WriteFile("/a", []byte("x"), 0o644))
		s := f.Snapshot()
		_, err := f.ReadFile("/a")
		require.NoError(t, err)
		_, err = f.Stat("/a")
		require.NoError(t, err)
		require.True(t, f.Unchanged(s), name)
		require.NoError(t, change(f), name)
		require.False(t, f.Unchanged(s), name)
	}
}
