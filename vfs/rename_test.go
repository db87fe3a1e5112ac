package vfs

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRenameErrors(t *testing.T) {
	setup := func(t *testing.T) *FS {
		f, _ := newTestFS(t)
		require.NoError(t, f.MkdirAll("/dir/sub", 0o755))
		require.NoError(t, f.MkdirAll("/full/x", 0o755))
		require.NoError(t, f.Mkdir("/empty", 0o755))
		mustWrite(t, f, "/file", "f")
		mustWrite(t, f, "/dir/inner", "i")
		return f
	}
	tests := []struct {
		name     string
		old, new string
		want     syscall.Errno
	}{
		{"missing source", "/nope", "/x", syscall.ENOENT},
		{"missing target parent", "/file", "/nope/x", syscall.ENOENT},
		{"dir onto file", "/dir", "/file", syscall.ENOTDIR},
		{"file onto dir", "/file", "/empty", syscall.EISDIR},
		{"dir onto non-empty dir", "/dir", "/full", syscall.ENOTEMPTY},
		{"dir into itself", "/dir", "/dir/sub/new", syscall.EINVAL},
		{"dir into itself directly", "/dir", "/dir/new", syscall.EINVAL},
		{"root", "/", "/x", syscall.EBUSY},
		{"onto root", "/empty", "/", syscall.EBUSY},
		{"dot", "/dir/.", "/x", syscall.EINVAL},
		{"file with trailing slash", "/file/", "/x", syscall.ENOTDIR},
		{"file to trailing slash", "/file", "/x/", syscall.ENOTDIR},
		{"target under a file", "/file", "/file/x", syscall.ENOTDIR},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := setup(t)
			b0, n0 := f.Usage()
			requireErrno(t, tc.want, f.Rename(tc.old, tc.new))
			b1, n1 := f.Usage()
			require.Equal(t, b0, b1)
			require.Equal(t, n0, n1)
		})
	}
}

func TestRenameOK(t *testing.T) {
	t.Run("file replaces file", func(t *testing.T) {
		f, _ := newTestFS(t)
		mustWrite(t, f, "/a", "A")
		mustWrite(t, f, "/b", "BBB")
		require.NoError(t, f.Rename("/a", "/b"))
		require.Equal(t, "A", mustRead(t, f, "/b"))
		_, err := f.Stat("/a")
		requireErrno(t, syscall.ENOENT, err)
		b, n := f.Usage()
		require.Equal(t, int64(1), b)
		require.Equal(t, int64(2), n)
	})
	t.Run("onto itself is a no-op", func(t *testing.T) {
		f, _ := newTestFS(t)
		mustWrite(t, f, "/a", "A")
		require.NoError(t, f.Link("/a", "/h"))
		require.NoError(t, f.Rename("/a", "/a"))
		require.NoError(t, f.Rename("/a", "/h")) // same inode: POSIX does nothing
		require.Equal(t, "A", mustRead(t, f, "/a"))
		require.Equal(t, "A", mustRead(t, f, "/h"))
		require.Equal(t, uint64(2), st(t, f, "/a").Nlink)
		require.NoError(t, f.Mkdir("/d", 0o755))
		require.NoError(t, f.Rename("/d", "/d"))
	})
	t.Run("dir replaces empty dir", func(t *testing.T) {
		f, _ := newTestFS(t)
		require.NoError(t, f.MkdirAll("/src/sub", 0o755))
		mustWrite(t, f, "/src/sub/f", "x")
		require.NoError(t, f.MkdirAll("/other/dst", 0o755))
		require.NoError(t, f.Rename("/src", "/other/dst"))
		require.Equal(t, "x", mustRead(t, f, "/other/dst/sub/f"))
		require.Equal(t, uint64(3), st(t, f, "/other").Nlink)
		require.Equal(t, uint64(3), st(t, f, "/").Nlink) // "/", other: src gone
		_, n := f.Usage()
		require.Equal(t, int64(5), n) // /, other, dst(=src), sub, f
	})
	t.Run("dir moves between parents", func(t *testing.T) {
		f, _ := newTestFS(t)
		require.NoError(t, f.MkdirAll("/a/m", 0o755))
		require.NoError(t, f.Mkdir("/b", 0o755))
		require.NoError(t, f.Rename("/a/m", "/b/m2"))
		require.Equal(t, uint64(2), st(t, f, "/a").Nlink)
		require.Equal(t, uint64(3), st(t, f, "/b").Nlink)
		p, err := f.Realpath("/b/m2/..")
		require.NoError(t, err)
		require.Equal(t, "/b", p)
	})
	t.Run("symlink is renamed, not its target", func(t *testing.T) {
		f, _ := newTestFS(t)
		require.NoError(t, f.Mkdir("/d", 0o755))
		require.NoError(t, f.Symlink("/d", "/l"))
		require.NoError(t, f.Rename("/l", "/l2"))
		target, err := f.Readlink("/l2")
		require.NoError(t, err)
		require.Equal(t, "/d", target)
	})
	t.Run("replacing last link frees bytes", func(t *testing.T) {
		f, _ := newTestFS(t)
		mustWrite(t, f, "/a", "1")
		mustWrite(t, f, "/b", "22222")
		require.NoError(t, f.Link("/b", "/c"))
		require.NoError(t, f.Rename("/a", "/b"))
		b, _ := f.Usage()
		require.Equal(t, int64(6), b) // c still holds 5
		require.Equal(t, uint64(1), st(t, f, "/c").Nlink)
	})
}
