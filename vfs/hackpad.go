package vfs

import (
	"errors"
	"io/fs"
	"syscall"
	"time"

	"github.com/hack-pad/hackpadfs"
)

// HackpadFS is the hackpadfs view of an FS: names are fs.ValidPath
// ("a/b", "." for the root) and behaviour follows the os package, which is
// what hackpadfs specifies (e.g. Rename onto an existing directory is
// EEXIST there, while FS.Rename follows POSIX).
type HackpadFS struct{ f *FS }

// Hackpad returns the hackpadfs view of f.
func (f *FS) Hackpad() *HackpadFS { return &HackpadFS{f: f} }

var (
	_ hackpadfs.OpenFileFS  = (*HackpadFS)(nil)
	_ hackpadfs.MkdirFS     = (*HackpadFS)(nil)
	_ hackpadfs.MkdirAllFS  = (*HackpadFS)(nil)
	_ hackpadfs.StatFS      = (*HackpadFS)(nil)
	_ hackpadfs.LstatFS     = (*HackpadFS)(nil)
	_ hackpadfs.RemoveFS    = (*HackpadFS)(nil)
	_ hackpadfs.RemoveAllFS = (*HackpadFS)(nil)
	_ hackpadfs.RenameFS    = (*HackpadFS)(nil)
	_ hackpadfs.SymlinkFS   = (*HackpadFS)(nil)
	_ hackpadfs.ChmodFS     = (*HackpadFS)(nil)
	_ hackpadfs.ChownFS     = (*HackpadFS)(nil)
	_ hackpadfs.ChtimesFS   = (*HackpadFS)(nil)
	_ hackpadfs.ReadDirFS   = (*HackpadFS)(nil)
	_ hackpadfs.ReadFileFS  = (*HackpadFS)(nil)
	_ hackpadfs.WriteFileFS = (*HackpadFS)(nil)
	_ ReadlinkFS            = (*HackpadFS)(nil)

	_ hackpadfs.ReadWriterFile = hackpadFile{}
	_ hackpadfs.ReaderAtFile   = hackpadFile{}
	_ hackpadfs.WriterAtFile   = hackpadFile{}
	_ hackpadfs.DirReaderFile  = hackpadFile{}
	_ hackpadfs.SeekerFile     = hackpadFile{}
	_ hackpadfs.SyncerFile     = hackpadFile{}
	_ hackpadfs.TruncaterFile  = hackpadFile{}
	_ hackpadfs.ChmoderFile    = hackpadFile{}
	_ hackpadfs.ChownerFile    = hackpadFile{}
	_ hackpadfs.ChtimeserFile  = hackpadFile{}
)

// abs converts a hackpadfs name; ok is false for invalid names.
func abs(name string) (string, bool) {
	if !fs.ValidPath(name) {
		return "", false
	}
	if name == "." {
		return "/", true
	}
	return "/" + name, true
}

// relErr turns the absolute paths in an error back into hackpadfs names
// ("/a/b" → "a/b", "/" → "."); errors may name a prefix of the path.
func relErr(_ string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: rel(pe.Path), Err: pe.Err}
	}
	return err
}

func rel(p string) string {
	if p == "/" {
		return "."
	}
	if len(p) > 0 && p[0] == '/' {
		return p[1:]
	}
	return p
}

func invalid(op, name string) error { return perr(op, name, syscall.EINVAL) }

// hackpadFile adapts *File to fs.File (whose Stat returns fs.FileInfo).
type hackpadFile struct{ *File }

func (h hackpadFile) Stat() (fs.FileInfo, error) {
	fi, err := h.File.Stat()
	if err != nil {
		return nil, err
	}
	return fi, nil
}

func (h *HackpadFS) Open(name string) (fs.File, error) {
	return h.OpenFile(name, hackpadfs.FlagReadOnly, 0)
}

func (h *HackpadFS) OpenFile(name string, flag int, perm fs.FileMode) (hackpadfs.File, error) {
	p, ok := abs(name)
	if !ok {
		return nil, invalid("open", name)
	}
	fl, err := h.f.OpenFile(p, flag, perm)
	if err != nil {
		return nil, relErr(name, err)
	}
	fl.ename = name
	return hackpadFile{fl}, nil
}

func (h *HackpadFS) Mkdir(name string, perm fs.FileMode) error {
	p, ok := abs(name)
	if !ok {
		return invalid("mkdir", name)
	}
	return relErr(name, h.f.Mkdir(p, perm))
}

func (h *HackpadFS) MkdirAll(name string, perm fs.FileMode) error {
	p, ok := abs(name)
	if !ok {
		return invalid("mkdir", name)
	}
	return relErr(name, h.f.MkdirAll(p, perm))
}

func (h *HackpadFS) Stat(name string) (fs.FileInfo, error) {
	p, ok := abs(name)
	if !ok {
		return nil, invalid("stat", name)
	}
	fi, err := h.f.Stat(p)
	if err != nil {
		return nil, relErr(name, err)
	}
	if name == "." {
		fi.name = "."
	}
	return fi, nil
}

func (h *HackpadFS) Lstat(name string) (fs.FileInfo, error) {
	p, ok := abs(name)
	if !ok {
		return nil, invalid("lstat", name)
	}
	fi, err := h.f.Lstat(p)
	if err != nil {
		return nil, relErr(name, err)
	}
	if name == "." {
		fi.name = "."
	}
	return fi, nil
}

func (h *HackpadFS) Remove(name string) error {
	p, ok := abs(name)
	if !ok {
		return invalid("remove", name)
	}
	return relErr(name, h.f.Remove(p))
}

func (h *HackpadFS) RemoveAll(name string) error {
	p, ok := abs(name)
	if !ok {
		return invalid("removeall", name)
	}
	return relErr(name, h.f.RemoveAll(p))
}

// Rename follows os.Rename: an existing directory at newname is EEXIST
// (unless it is the same file under another name).
func (h *HackpadFS) Rename(oldname, newname string) error {
	po, ok1 := abs(oldname)
	pn, ok2 := abs(newname)
	if !ok1 || !ok2 {
		return &hackpadfs.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EINVAL}
	}
	linkErr := func(err error) error {
		if err == nil {
			return nil
		}
		return &hackpadfs.LinkError{Op: "rename", Old: oldname, New: newname, Err: toErrno(err)}
	}
	if nfi, err := h.f.Lstat(pn); err == nil && nfi.IsDir() {
		ofi, err := h.f.Lstat(po)
		if err != nil {
			return linkErr(err)
		}
		if oldname == newname || ofi.st.Ino != nfi.st.Ino || ofi.st.Dev != nfi.st.Dev {
			return linkErr(syscall.EEXIST)
		}
	}
	return linkErr(h.f.Rename(po, pn))
}

func (h *HackpadFS) Symlink(oldname, newname string) error {
	pn, ok := abs(newname)
	if !ok {
		return &hackpadfs.LinkError{Op: "symlink", Old: oldname, New: newname, Err: syscall.EINVAL}
	}
	if err := h.f.Symlink(oldname, pn); err != nil {
		return &hackpadfs.LinkError{Op: "symlink", Old: oldname, New: newname, Err: toErrno(err)}
	}
	return nil
}

// Link makes a hard link (vfs.FS.Link uses it when this view is mounted).
func (h *HackpadFS) Link(oldname, newname string) error {
	po, ok1 := abs(oldname)
	pn, ok2 := abs(newname)
	if !ok1 || !ok2 {
		return &hackpadfs.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EINVAL}
	}
	if err := h.f.Link(po, pn); err != nil {
		return &hackpadfs.LinkError{Op: "link", Old: oldname, New: newname, Err: toErrno(err)}
	}
	return nil
}

func (h *HackpadFS) Readlink(name string) (string, error) {
	p, ok := abs(name)
	if !ok {
		return "", invalid("readlink", name)
	}
	t, err := h.f.Readlink(p)
	return t, relErr(name, err)
}

func (h *HackpadFS) Chmod(name string, mode fs.FileMode) error {
	p, ok := abs(name)
	if !ok {
		return invalid("chmod", name)
	}
	return relErr(name, h.f.Chmod(p, mode))
}

func (h *HackpadFS) Chown(name string, uid, gid int) error {
	p, ok := abs(name)
	if !ok {
		return invalid("chown", name)
	}
	return relErr(name, h.f.Chown(p, uid, gid))
}

func (h *HackpadFS) Chtimes(name string, atime, mtime time.Time) error {
	p, ok := abs(name)
	if !ok {
		return invalid("chtimes", name)
	}
	return relErr(name, h.f.Chtimes(p, atime, mtime, true))
}

func (h *HackpadFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, ok := abs(name)
	if !ok {
		return nil, invalid("readdir", name)
	}
	ents, err := h.f.ReadDir(p)
	return ents, relErr(name, err)
}

func (h *HackpadFS) ReadFile(name string) ([]byte, error) {
	p, ok := abs(name)
	if !ok {
		return nil, invalid("open", name)
	}
	b, err := h.f.ReadFile(p)
	return b, relErr(name, err)
}

func (h *HackpadFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	p, ok := abs(name)
	if !ok {
		return invalid("open", name)
	}
	return relErr(name, h.f.WriteFile(p, data, perm))
}
