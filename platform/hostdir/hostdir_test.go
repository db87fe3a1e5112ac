//go:build !js

package hostdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hack-pad/hackpadfs/fstest"
	"github.com/stretchr/testify/require"
	"github.com/wasmsand/wasmsand/vfs"
)

// hostSetup builds, in a temp dir:
//
//	outside/secret            a file the sandbox must never reach
//	root/inside.txt
//	root/sub/ok -> ../inside.txt      relative, stays inside: allowed
//	root/abs -> /etc                  absolute symlink
//	root/abs_secret -> <tmp>/outside/secret
//	root/up -> ../outside             relative, escapes
//	root/sub/deep -> ../../outside    escapes from a subdirectory
//	root/sub/mid -> ..                 stays inside (root itself)
func hostSetup(t *testing.T) (root, outside string) {
	t.Helper()
	tmp := t.TempDir()
	root = filepath.Join(tmp, "root")
	outside = filepath.Join(tmp, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("TOP SECRET"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "inside.txt"), []byte("inside"), 0o644))
	links := map[string]string{
		"sub/ok":     "../inside.txt",
		"abs":        "/etc",
		"abs_secret": filepath.Join(outside, "secret"),
		"up":         "../outside",
		"sub/deep":   "../../outside",
		"sub/mid":    "..",
	}
	for name, target := range links {
		require.NoError(t, os.Symlink(target, filepath.Join(root, name)))
	}
	return root, outside
}

func mounted(t *testing.T, readOnly bool) (*vfs.FS, string, string) {
	root, outside := hostSetup(t)
	h, err := New(root)
	require.NoError(t, err)
	f := vfs.NewDefault(vfs.Options{}, nil)
	require.NoError(t, f.Mkdir("/mnt/host", 0o755))
	require.NoError(t, f.Mount("/mnt/host", h, readOnly))
	return f, root, outside
}

func errno(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}

func TestConfinementThroughVFS(t *testing.T) {
	f, _, outside := mounted(t, false)

	b, err := f.ReadFile("/mnt/host/inside.txt")
	require.NoError(t, err)
	require.Equal(t, "inside", string(b))
	b, err = f.ReadFile("/mnt/host/sub/ok")
	require.NoError(t, err, "a relative symlink that stays inside works")
	require.Equal(t, "inside", string(b))
	b, err = f.ReadFile("/mnt/host/sub/mid/inside.txt")
	require.NoError(t, err)
	require.Equal(t, "inside", string(b))

	escapes := []string{
		"/mnt/host/abs/passwd",        // absolute symlink in the middle
		"/mnt/host/abs_secret",        // absolute symlink at the end
		"/mnt/host/up/secret",         // relative escape in the middle
		"/mnt/host/sub/deep/secret",   // escape from a subdirectory
		"/mnt/host/sub/mid/up/secret", // chained: inside link, then escaping link
	}
	for _, p := range escapes {
		t.Run(p, func(t *testing.T) {
			_, err := f.ReadFile(p)
			require.Error(t, err)
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe)
			require.NotZero(t, errno(err), "always an errno: %v", err)
			_, err = f.Stat(p)
			require.Error(t, err)
			err = f.WriteFile(p, []byte("pwned"), 0o644)
			require.Error(t, err)
			err = f.Chmod(p, 0o777)
			require.Error(t, err)
			_, err = f.ReadDir(p)
			require.Error(t, err)
		})
	}
	// Writing a new file through an escaping directory link fails too.
	require.Error(t, f.WriteFile("/mnt/host/up/new", []byte("x"), 0o644))
	require.Error(t, f.Mkdir("/mnt/host/up/newdir", 0o755))
	require.Error(t, f.Rename("/mnt/host/inside.txt", "/mnt/host/up/stolen"))
	_, err = os.Stat(filepath.Join(outside, "new"))
	require.True(t, os.IsNotExist(err))
	secret, err := os.ReadFile(filepath.Join(outside, "secret"))
	require.NoError(t, err)
	require.Equal(t, "TOP SECRET", string(secret))

	// ".." never leaves the mount for the host: it returns to the VFS tree.
	b, err = f.ReadFile("/mnt/host/../../etc/hostname")
	require.NoError(t, err)
	require.Equal(t, "wasmsand\n", string(b), "the sandbox's /etc, not the host's")
	_, err = f.ReadFile("/mnt/host/../../outside/secret")
	require.Error(t, err)

	// A symlink pointing outside cannot even be created (guard_test.go has
	// the rest); one that stays inside can, and reads as itself.
	require.Equal(t, syscall.EPERM, errno(f.Symlink("/etc/passwd", "/mnt/host/evil")))
	require.Equal(t, syscall.EPERM, errno(f.Symlink("../outside/secret", "/mnt/host/evil2")))
	require.NoError(t, f.Symlink("sub/ok", "/mnt/host/fine"))
	target, err := f.Readlink("/mnt/host/fine")
	require.NoError(t, err)
	require.Equal(t, "sub/ok", target)
	fi, err := f.Lstat("/mnt/host/fine")
	require.NoError(t, err)
	require.Equal(t, fs.ModeSymlink, fi.Mode().Type())
}

func TestBackendRejectsBadNames(t *testing.T) {
	root, _ := hostSetup(t)
	h, err := New(root)
	require.NoError(t, err)
	hfs := h.(*FS)
	for _, p := range []string{"../outside/secret", "/etc/passwd", "sub/../../outside/secret", "", "a//b"} {
		_, err := hfs.Open(p)
		require.Error(t, err, p)
		require.Equal(t, syscall.EINVAL, errno(err), p)
		require.Error(t, hfs.WriteFile(p, []byte("x"), 0o644), p)
	}
	_, err = hfs.ReadFile("abs_secret")
	require.Error(t, err)
	require.Equal(t, syscall.EACCES, errno(err), "escape refusals map to EACCES: %v", err)
	_, err = New(filepath.Join(root, "missing"))
	require.Error(t, err)
}

func TestHostReadWrite(t *testing.T) {
	f, root, _ := mounted(t, false)
	require.NoError(t, f.MkdirAll("/mnt/host/a/b", 0o755))
	require.NoError(t, f.WriteFile("/mnt/host/a/b/c.txt", []byte("hello host"), 0o640))
	b, err := os.ReadFile(filepath.Join(root, "a/b/c.txt"))
	require.NoError(t, err)
	require.Equal(t, "hello host", string(b))

	fi, err := f.Stat("/mnt/host/a/b/c.txt")
	require.NoError(t, err)
	s := fi.Sys().(*vfs.Stat)
	require.Equal(t, uint32(1000), s.Uid)
	require.NotZero(t, s.Ino)
	require.Equal(t, int64(10), s.Size)

	require.NoError(t, f.Rename("/mnt/host/a/b/c.txt", "/mnt/host/a/moved.txt"))
	require.NoError(t, f.Link("/mnt/host/a/moved.txt", "/mnt/host/a/hard.txt"))
	fi, err = f.Stat("/mnt/host/a/hard.txt")
	require.NoError(t, err)
	require.Equal(t, uint64(2), fi.Sys().(*vfs.Stat).Nlink)
	require.NoError(t, f.Truncate("/mnt/host/a/moved.txt", 5))
	b, err = f.ReadFile("/mnt/host/a/hard.txt")
	require.NoError(t, err)
	require.Equal(t, "hello", string(b))
	ents, err := f.ReadDir("/mnt/host/a")
	require.NoError(t, err)
	require.Len(t, ents, 3)
	for _, e := range ents {
		info, err := e.Info()
		require.NoError(t, err)
		require.IsType(t, &vfs.Stat{}, info.Sys())
	}
	require.NoError(t, f.RemoveAll("/mnt/host/a"))
	_, err = os.Stat(filepath.Join(root, "a"))
	require.True(t, os.IsNotExist(err))
	require.Equal(t, syscall.EXDEV, errno(f.Rename("/mnt/host/inside.txt", "/tmp/x")))
}

func TestHostReadOnly(t *testing.T) {
	f, root, _ := mounted(t, true)
	b, err := f.ReadFile("/mnt/host/inside.txt")
	require.NoError(t, err)
	require.Equal(t, "inside", string(b))
	require.Equal(t, syscall.EROFS, errno(f.WriteFile("/mnt/host/inside.txt", nil, 0o644)))
	require.Equal(t, syscall.EROFS, errno(f.Remove("/mnt/host/inside.txt")))
	require.Equal(t, syscall.EROFS, errno(f.Mkdir("/mnt/host/d", 0o755)))
	b, err = os.ReadFile(filepath.Join(root, "inside.txt"))
	require.NoError(t, err)
	require.Equal(t, "inside", string(b))
}

func TestHostdirFSTest(t *testing.T) {
	opts := fstest.FSOptions{
		Name: "hostdir",
		TestFS: func(tb testing.TB) fstest.SetupFS {
			h, err := New(tb.TempDir())
			require.NoError(tb, err)
			tb.Cleanup(func() { h.(*FS).Close() })
			return h.(fstest.SetupFS)
		},
		// Same recorded deviation as vfs: WriteAt(-1) gives EINVAL (an
		// errno, per our error contract), not os's "negative offset" text.
		ShouldSkip: func(f fstest.Facets) bool {
			return strings.HasSuffix(f.Name, "file.WriteAt/negative_offset")
		},
	}
	fstest.FS(t, opts)
	fstest.File(t, opts)
}
