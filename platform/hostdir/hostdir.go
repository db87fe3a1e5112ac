// Package hostdir exposes a host directory as a hackpadfs.FS confined with
// os.Root: no name, "..", or symlink (absolute, or relative and pointing
// outside, at any position in a path) can reach a file outside the root.
// Mount it into a sandbox with vfs.FS.Mount.
package hostdir

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hack-pad/hackpadfs"
	"github.com/wasmsand/wasmsand/vfs"
)

// FS is a host directory confined by os.Root.
type FS struct {
	root *os.Root
}

var (
	_ hackpadfs.OpenFileFS  = (*FS)(nil)
	_ hackpadfs.MkdirFS     = (*FS)(nil)
	_ hackpadfs.MkdirAllFS  = (*FS)(nil)
	_ hackpadfs.StatFS      = (*FS)(nil)
	_ hackpadfs.LstatFS     = (*FS)(nil)
	_ hackpadfs.RemoveFS    = (*FS)(nil)
	_ hackpadfs.RemoveAllFS = (*FS)(nil)
	_ hackpadfs.RenameFS    = (*FS)(nil)
	_ hackpadfs.SymlinkFS   = (*FS)(nil)
	_ hackpadfs.ChmodFS     = (*FS)(nil)
	_ hackpadfs.ChownFS     = (*FS)(nil)
	_ hackpadfs.ChtimesFS   = (*FS)(nil)
	_ hackpadfs.ReadDirFS   = (*FS)(nil)
	_ hackpadfs.ReadFileFS  = (*FS)(nil)
	_ hackpadfs.WriteFileFS = (*FS)(nil)
	_ vfs.ReadlinkFS        = (*FS)(nil)
)

// New opens root (which must be an existing directory) as a confined FS.
func New(root string) (hackpadfs.FS, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	return &FS{root: r}, nil
}

// Close releases the root directory handle.
func (h *FS) Close() error { return h.root.Close() }

// mapErr keeps errno errors and turns os.Root's escape refusals (plain
// errors without an errno) into EACCES, so callers always get an errno.
func mapErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return &fs.PathError{Op: op, Path: name, Err: errno}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		errno = syscall.ENOENT
	case errors.Is(err, fs.ErrExist):
		errno = syscall.EEXIST
	case errors.Is(err, fs.ErrPermission):
		errno = syscall.EACCES
	case errors.Is(err, fs.ErrInvalid):
		errno = syscall.EINVAL
	case errors.Is(err, fs.ErrClosed):
		errno = syscall.EBADF
	case strings.Contains(err.Error(), "escapes"):
		errno = syscall.EACCES
	case strings.Contains(err.Error(), "negative offset"):
		errno = syscall.EINVAL
	default:
		errno = syscall.EIO
	}
	return &fs.PathError{Op: op, Path: name, Err: errno}
}

func check(op, name string) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: syscall.EINVAL}
	}
	return nil
}

func (h *FS) Open(name string) (fs.File, error) {
	return h.OpenFile(name, os.O_RDONLY, 0)
}

func (h *FS) OpenFile(name string, flag int, perm fs.FileMode) (hackpadfs.File, error) {
	if err := check("open", name); err != nil {
		return nil, err
	}
	// os.Root refuses mode bits beyond 0o777; os.OpenFile ignores them.
	f, err := h.root.OpenFile(name, flag, perm&fs.ModePerm)
	if err != nil {
		return nil, mapErr("open", name, err)
	}
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_TRUNC) != 0 {
		if err := dropSetID(f); err != nil {
			f.Close()
			return nil, mapErr("open", name, err)
		}
	}
	return &file{File: f, h: h, name: name}, nil
}

func (h *FS) Mkdir(name string, perm fs.FileMode) error {
	if err := check("mkdir", name); err != nil {
		return err
	}
	return mapErr("mkdir", name, h.root.Mkdir(name, perm&fs.ModePerm))
}

// MkdirAll is os.MkdirAll over the root (os.Root.MkdirAll reports the full
// path rather than the component that is in the way).
func (h *FS) MkdirAll(name string, perm fs.FileMode) error {
	if err := check("mkdir", name); err != nil {
		return err
	}
	if fi, err := h.root.Stat(name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.ENOTDIR}
	}
	if i := strings.LastIndexByte(name, '/'); i > 0 {
		if err := h.MkdirAll(name[:i], perm); err != nil {
			return err
		}
	}
	if err := h.root.Mkdir(name, perm&fs.ModePerm); err != nil {
		if fi, serr := h.root.Lstat(name); serr == nil && fi.IsDir() {
			return nil
		}
		return mapErr("mkdir", name, err)
	}
	return nil
}

func (h *FS) Stat(name string) (fs.FileInfo, error) {
	if err := check("stat", name); err != nil {
		return nil, err
	}
	fi, err := h.root.Stat(name)
	if err != nil {
		return nil, mapErr("stat", name, err)
	}
	return convert(fi), nil
}

func (h *FS) Lstat(name string) (fs.FileInfo, error) {
	if err := check("lstat", name); err != nil {
		return nil, err
	}
	fi, err := h.root.Lstat(name)
	if err != nil {
		return nil, mapErr("lstat", name, err)
	}
	return convert(fi), nil
}

func (h *FS) Remove(name string) error {
	if err := check("remove", name); err != nil {
		return err
	}
	return mapErr("remove", name, h.root.Remove(name))
}

func (h *FS) RemoveAll(name string) error {
	if err := check("removeall", name); err != nil {
		return err
	}
	return mapErr("removeall", name, h.root.RemoveAll(name))
}

func (h *FS) Rename(oldname, newname string) error {
	if !fs.ValidPath(oldname) || !fs.ValidPath(newname) {
		return &hackpadfs.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EINVAL}
	}
	if err := h.checkMove(oldname, newname, true); err != nil {
		return linkErr("rename", oldname, newname, err)
	}
	return linkErr("rename", oldname, newname, h.root.Rename(oldname, newname))
}

// linkErr reports two-path operations as hackpadfs does (*LinkError).
func linkErr(op, oldname, newname string, err error) error {
	if err == nil {
		return nil
	}
	return &hackpadfs.LinkError{Op: op, Old: oldname, New: newname, Err: mapErr(op, newname, err).(*fs.PathError).Err}
}

// Link makes a hard link inside the root (vfs.FS.Link uses it).
func (h *FS) Link(oldname, newname string) error {
	if !fs.ValidPath(oldname) || !fs.ValidPath(newname) {
		return &hackpadfs.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EINVAL}
	}
	if err := h.checkMove(oldname, newname, false); err != nil {
		return linkErr("link", oldname, newname, err)
	}
	return linkErr("link", oldname, newname, h.root.Link(oldname, newname))
}

// Symlink creates a symlink whose target stays inside the root (guard.go):
// os.Root would refuse to follow any other, but a host program walking the
// directory later would not.
func (h *FS) Symlink(target, name string) error {
	if !fs.ValidPath(name) {
		return &hackpadfs.LinkError{Op: "symlink", Old: target, New: name, Err: syscall.EINVAL}
	}
	if err := h.checkLinkAt(name, target); err != nil {
		return linkErr("symlink", target, name, err)
	}
	return linkErr("symlink", target, name, h.root.Symlink(target, name))
}

func (h *FS) Readlink(name string) (string, error) {
	if err := check("readlink", name); err != nil {
		return "", err
	}
	t, err := h.root.Readlink(name)
	return t, mapErr("readlink", name, err)
}

func (h *FS) Chmod(name string, mode fs.FileMode) error {
	if err := check("chmod", name); err != nil {
		return err
	}
	return mapErr("chmod", name, h.root.Chmod(name, hostMode(mode)))
}

func (h *FS) Chown(name string, uid, gid int) error {
	if err := check("chown", name); err != nil {
		return err
	}
	if _, err := h.root.Stat(name); err != nil {
		return mapErr("chown", name, err)
	}
	return mapErr("chown", name, checkOwner(uid, gid))
}

func (h *FS) Lchown(name string, uid, gid int) error {
	if err := check("lchown", name); err != nil {
		return err
	}
	if _, err := h.root.Lstat(name); err != nil {
		return mapErr("lchown", name, err)
	}
	return mapErr("lchown", name, checkOwner(uid, gid))
}

func (h *FS) Chtimes(name string, atime, mtime time.Time) error {
	if err := check("chtimes", name); err != nil {
		return err
	}
	return mapErr("chtimes", name, h.root.Chtimes(name, atime, mtime))
}

func (h *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := h.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.(*file).ReadDir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

func (h *FS) ReadFile(name string) ([]byte, error) {
	if err := check("open", name); err != nil {
		return nil, err
	}
	b, err := h.root.ReadFile(name)
	return b, mapErr("open", name, err)
}

func (h *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	f, err := h.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.(*file).Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// file wraps *os.File so Stat and directory entries report vfs metadata
// and errors carry the relative name, never the host path.
type file struct {
	*os.File
	h    *FS
	name string
}

func (f *file) fix(op string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		op = pe.Op
	}
	return mapErr(op, f.name, err)
}

func (f *file) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	return n, f.fix("read", err)
}

func (f *file) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	return n, f.fix("readat", err)
}

func (f *file) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, f.fix("write", err)
}

func (f *file) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	return n, f.fix("writeat", err)
}

func (f *file) Seek(off int64, whence int) (int64, error) {
	n, err := f.File.Seek(off, whence)
	return n, f.fix("seek", err)
}

func (f *file) Truncate(size int64) error    { return f.fix("truncate", f.File.Truncate(size)) }
func (f *file) Sync() error                  { return f.fix("sync", f.File.Sync()) }
func (f *file) Close() error                 { return f.fix("close", f.File.Close()) }
func (f *file) Chmod(mode fs.FileMode) error { return f.fix("chmod", f.File.Chmod(hostMode(mode))) }
func (f *file) Chown(uid, gid int) error     { return f.fix("chown", checkOwner(uid, gid)) }

func (f *file) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil {
		return nil, f.fix("stat", err)
	}
	return convert(fi), nil
}

func (f *file) ReadDir(n int) ([]fs.DirEntry, error) {
	ents, err := f.File.ReadDir(n)
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = dirEntry{e}
	}
	return out, f.fix("readdir", err)
}

func (f *file) Chtimes(atime, mtime time.Time) error {
	return f.h.Chtimes(f.name, atime, mtime)
}

type dirEntry struct{ fs.DirEntry }

func (d dirEntry) Info() (fs.FileInfo, error) {
	fi, err := d.DirEntry.Info()
	if err != nil {
		return nil, mapErr("stat", d.Name(), err)
	}
	return convert(fi), nil
}

// convert reports host files as owned by the sandbox user (1000:1000): the
// host's uids mean nothing inside the sandbox.
func convert(fi fs.FileInfo) *vfs.FileInfo {
	st := vfs.Stat{Nlink: 1, Mode: fi.Mode(), Uid: sandboxID, Gid: sandboxID, Size: fi.Size(),
		Atime: fi.ModTime(), Mtime: fi.ModTime(), Ctime: fi.ModTime()}
	fillSys(&st, fi)
	return vfs.NewFileInfo(fi.Name(), st)
}
