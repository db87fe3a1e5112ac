package vfs

import (
	"io/fs"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/hack-pad/hackpadfs"
)

const permMask = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// baseName is the FileInfo name for a path as given (like os.Stat).
func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	if p == "" {
		return "/"
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// cleanAbs is the absolute, lexically cleaned form of p (File.Name()).
func cleanAbs(p string) string {
	if len(p) > 0 && p[0] == '/' {
		return path.Clean(p)
	}
	return path.Clean("/" + p)
}

// Stat returns information about the named file, following symlinks.
func (f *FS) Stat(name string) (*FileInfo, error) { return f.stat("stat", name, true) }

// Lstat is Stat without following a final symlink.
func (f *FS) Lstat(name string) (*FileInfo, error) { return f.stat("lstat", name, false) }

func (f *FS) stat(op, name string, follow bool) (*FileInfo, error) {
	var w walk
	f.mu.RLock()
	if e := f.resolve(&w, name, follow); e != 0 {
		f.mu.RUnlock()
		return nil, perr(op, name, e)
	}
	if w.m != nil {
		f.mu.RUnlock()
		return w.m.stat(op, name, w.mpath, follow)
	}
	n := f.node(w.ino)
	if n == nil {
		f.mu.RUnlock()
		return nil, perr(op, name, syscall.ENOENT)
	}
	fi := &FileInfo{name: baseName(name), st: n.stat(treeDev)}
	f.mu.RUnlock()
	return fi, nil
}

// Mkdir creates a directory.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, name, false); e != 0 {
		return perr("mkdir", name, e)
	}
	if w.m != nil {
		if w.m.ro {
			return perr("mkdir", name, syscall.EROFS)
		}
		return wrapBackendErr("mkdir", name, hackpadfs.Mkdir(w.m.fs, w.mpath, perm))
	}
	if w.name == "" || w.ino != 0 {
		return perr("mkdir", name, syscall.EEXIST)
	}
	now := f.nowNs()
	n, e := f.newInode(fs.ModeDir|perm&permMask, now)
	if e != 0 {
		return perr("mkdir", name, e)
	}
	f.link(f.mut(w.dir), w.name, n, now)
	return nil
}

// MkdirAll creates a directory and any missing parents, like os.MkdirAll.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	if fi, err := f.Stat(name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return perr("mkdir", name, syscall.ENOTDIR)
	}
	if e := checkPath(name); e != 0 {
		return perr("mkdir", name, e)
	}
	p := strings.TrimRight(name, "/")
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		if err := f.MkdirAll(p[:i], perm); err != nil {
			return err
		}
	}
	err := f.Mkdir(name, perm)
	if err != nil {
		// Lost a race, or "a/.." style names: fine if a directory is there now.
		if fi, serr := f.Stat(name); serr == nil && fi.IsDir() {
			return nil
		}
	}
	return err
}

// Unlink removes a non-directory.
func (f *FS) Unlink(name string) error { return f.remove("unlink", name, kindFile) }

// Rmdir removes an empty directory.
func (f *FS) Rmdir(name string) error { return f.remove("rmdir", name, kindDir) }

// Remove removes a file or an empty directory, like os.Remove.
func (f *FS) Remove(name string) error { return f.remove("remove", name, kindAny) }

const (
	kindFile = iota
	kindDir
	kindAny
)

func (f *FS) remove(op, name string, kind int) error {
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, name, false); e != 0 {
		return perr(op, name, e)
	}
	if w.m != nil {
		if w.mpath == "." {
			return perr(op, name, syscall.EBUSY)
		}
		if w.m.ro {
			return perr(op, name, syscall.EROFS)
		}
		if kind != kindAny {
			fi, err := hackpadfs.Lstat(w.m.fs, w.mpath)
			if err != nil {
				return wrapBackendErr(op, name, err)
			}
			if kind == kindFile && fi.IsDir() {
				return perr(op, name, syscall.EISDIR)
			}
			if kind == kindDir && !fi.IsDir() {
				return perr(op, name, syscall.ENOTDIR)
			}
		}
		return wrapBackendErr(op, name, hackpadfs.Remove(w.m.fs, w.mpath))
	}
	if w.name == "" {
		switch {
		case kind == kindFile:
			return perr(op, name, syscall.EISDIR)
		case w.ino == rootIno:
			return perr(op, name, syscall.EBUSY)
		}
		return perr(op, name, syscall.EINVAL)
	}
	if w.ino == 0 {
		return perr(op, name, syscall.ENOENT)
	}
	n := f.node(w.ino)
	if n.isDir() {
		if kind == kindFile {
			return perr(op, name, syscall.EISDIR)
		}
		if len(n.dir.entries) > 0 {
			return perr(op, name, syscall.ENOTEMPTY)
		}
		if f.mounts[w.ino] != nil {
			return perr(op, name, syscall.EBUSY)
		}
	} else if kind == kindDir {
		return perr(op, name, syscall.ENOTDIR)
	}
	f.unlinkEntry(f.mut(w.dir), w.name, f.nowNs())
	return nil
}

// RemoveAll removes name and everything below it, like os.RemoveAll: a
// missing name is not an error.
func (f *FS) RemoveAll(name string) error {
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, name, false); e != 0 {
		if e == syscall.ENOENT {
			return nil
		}
		return perr("removeall", name, e)
	}
	if w.m != nil {
		if w.mpath == "." {
			return perr("removeall", name, syscall.EBUSY)
		}
		if w.m.ro {
			return perr("removeall", name, syscall.EROFS)
		}
		return wrapBackendErr("removeall", name, hackpadfs.RemoveAll(w.m.fs, w.mpath))
	}
	if w.name == "" {
		return perr("removeall", name, syscall.EINVAL)
	}
	if w.ino == 0 {
		return nil
	}
	if f.hasMountBelow(w.ino) {
		return perr("removeall", name, syscall.EBUSY)
	}
	now := f.nowNs()
	f.removeChildren(w.ino, now)
	f.unlinkEntry(f.mut(w.dir), w.name, now)
	return nil
}

func (f *FS) removeChildren(ino uint64, now int64) {
	n := f.node(ino)
	if !n.isDir() || len(n.dir.entries) == 0 {
		return
	}
	n = f.mut(ino)
	for _, name := range n.dir.names() {
		c := f.node(n.dir.entries[name])
		if c != nil && c.isDir() {
			f.removeChildren(c.ino, now)
		}
		f.unlinkEntry(n, name, now)
	}
}

func (f *FS) hasMountBelow(ino uint64) bool {
	if len(f.mounts) == 0 {
		return false
	}
	if f.mounts[ino] != nil {
		return true
	}
	n := f.node(ino)
	if n == nil || !n.isDir() {
		return false
	}
	for _, c := range n.dir.entries {
		if cn := f.node(c); cn != nil && cn.isDir() && f.hasMountBelow(c) {
			return true
		}
	}
	return false
}

// Rename moves oldname to newname atomically with POSIX rename(2) rules.
func (f *FS) Rename(oldname, newname string) error {
	var wo, wn walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&wo, oldname, false); e != 0 {
		return perr("rename", oldname, e)
	}
	if e := f.resolve(&wn, newname, false); e != 0 {
		return perr("rename", newname, e)
	}
	if wo.m != nil || wn.m != nil {
		if (wo.m != nil && wo.mpath == ".") || (wn.m != nil && wn.mpath == ".") {
			return perr("rename", oldname, syscall.EBUSY) // a mount point
		}
		if wo.m != wn.m {
			return perr("rename", newname, syscall.EXDEV)
		}
		if wo.m.ro {
			return perr("rename", oldname, syscall.EROFS)
		}
		return wrapBackendErr("rename", oldname, hackpadfs.Rename(wo.m.fs, wo.mpath, wn.mpath))
	}
	if wo.name == "" {
		if wo.ino == rootIno {
			return perr("rename", oldname, syscall.EBUSY)
		}
		return perr("rename", oldname, syscall.EINVAL)
	}
	if wo.ino == 0 {
		return perr("rename", oldname, syscall.ENOENT)
	}
	if wn.name == "" {
		if wn.ino == rootIno {
			return perr("rename", newname, syscall.EBUSY)
		}
		return perr("rename", newname, syscall.EINVAL)
	}
	if wn.ino == wo.ino {
		return nil // same file (or hard links to it): POSIX says do nothing
	}
	on := f.node(wo.ino)
	if on.isDir() {
		if wn.contains(wo.ino) {
			return perr("rename", newname, syscall.EINVAL)
		}
		if f.mounts[wo.ino] != nil {
			return perr("rename", oldname, syscall.EBUSY)
		}
		if wn.ino != 0 {
			nn := f.node(wn.ino)
			if !nn.isDir() {
				return perr("rename", newname, syscall.ENOTDIR)
			}
			if len(nn.dir.entries) > 0 {
				return perr("rename", newname, syscall.ENOTEMPTY)
			}
			if f.mounts[wn.ino] != nil {
				return perr("rename", newname, syscall.EBUSY)
			}
		}
	} else {
		if wn.ino != 0 && f.node(wn.ino).isDir() {
			return perr("rename", newname, syscall.EISDIR)
		}
		if wn.trailing || wo.trailing {
			return perr("rename", newname, syscall.ENOTDIR)
		}
	}
	now := f.nowNs()
	np := f.mut(wn.dir)
	if wn.ino != 0 {
		f.unlinkEntry(np, wn.name, now)
	}
	op := f.mut(wo.dir)
	delete(f.mutDir(op).entries, wo.name)
	f.mutDir(np).entries[wn.name] = wo.ino
	if on.isDir() {
		op.nlink--
		np.nlink++
	}
	op.mtime, op.ctime = now, now
	np.mtime, np.ctime = now, now
	f.mut(wo.ino).ctime = now
	return nil
}

// Link creates newname as a hard link to oldname (not following a final
// symlink, like Linux link(2)).
func (f *FS) Link(oldname, newname string) error {
	var wo, wn walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&wo, oldname, false); e != 0 {
		return perr("link", oldname, e)
	}
	if e := f.resolve(&wn, newname, false); e != 0 {
		return perr("link", newname, e)
	}
	if wo.m != nil || wn.m != nil {
		if wo.m != wn.m {
			return perr("link", newname, syscall.EXDEV)
		}
		if wo.m.ro {
			return perr("link", newname, syscall.EROFS)
		}
		if l, ok := wo.m.fs.(interface{ Link(o, n string) error }); ok {
			return wrapBackendErr("link", newname, l.Link(wo.mpath, wn.mpath))
		}
		return perr("link", newname, syscall.EPERM)
	}
	if wo.ino == 0 {
		return perr("link", oldname, syscall.ENOENT)
	}
	if wo.name == "" || f.node(wo.ino).isDir() {
		return perr("link", oldname, syscall.EPERM)
	}
	if wn.name == "" || wn.ino != 0 {
		return perr("link", newname, syscall.EEXIST)
	}
	if wn.trailing {
		return perr("link", newname, syscall.ENOENT)
	}
	now := f.nowNs()
	n := f.mut(wo.ino)
	n.nlink++
	n.ctime = now
	f.link(f.mut(wn.dir), wn.name, n, now)
	return nil
}

// Symlink creates linkname as a symbolic link to target (any text).
func (f *FS) Symlink(target, linkname string) error {
	switch {
	case target == "":
		return perr("symlink", linkname, syscall.ENOENT)
	case len(target) > maxPathLen:
		return perr("symlink", linkname, syscall.ENAMETOOLONG)
	case strings.IndexByte(target, 0) >= 0:
		return perr("symlink", linkname, syscall.EINVAL)
	}
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, linkname, false); e != 0 {
		return perr("symlink", linkname, e)
	}
	if w.m != nil {
		if w.m.ro {
			return perr("symlink", linkname, syscall.EROFS)
		}
		return wrapBackendErr("symlink", linkname, hackpadfs.Symlink(w.m.fs, target, w.mpath))
	}
	if w.name == "" || w.ino != 0 {
		return perr("symlink", linkname, syscall.EEXIST)
	}
	if w.trailing {
		return perr("symlink", linkname, syscall.ENOENT)
	}
	now := f.nowNs()
	n, e := f.newInode(fs.ModeSymlink|0o777, now)
	if e != 0 {
		return perr("symlink", linkname, e)
	}
	n.target = target
	f.link(f.mut(w.dir), w.name, n, now)
	return nil
}

// ReadlinkFS is an optional backend interface: mounts that implement it
// (platform/hostdir does) support Readlink.
type ReadlinkFS interface {
	Readlink(name string) (string, error)
}

// Readlink returns the target of a symlink.
func (f *FS) Readlink(name string) (string, error) {
	var w walk
	f.mu.RLock()
	defer f.mu.RUnlock()
	if e := f.resolve(&w, name, false); e != 0 {
		return "", perr("readlink", name, e)
	}
	if w.m != nil {
		if r, ok := w.m.fs.(ReadlinkFS); ok {
			t, err := r.Readlink(w.mpath)
			return t, wrapBackendErr("readlink", name, err)
		}
		return "", perr("readlink", name, syscall.EINVAL)
	}
	if w.ino == 0 {
		return "", perr("readlink", name, syscall.ENOENT)
	}
	n := f.node(w.ino)
	if !n.isSymlink() {
		return "", perr("readlink", name, syscall.EINVAL)
	}
	return n.target, nil
}

// Realpath resolves every symlink, "." and ".." in name; the file must exist.
func (f *FS) Realpath(name string) (string, error) {
	var w walk
	f.mu.RLock()
	defer f.mu.RUnlock()
	if e := f.resolve(&w, name, true); e != 0 {
		return "", perr("realpath", name, e)
	}
	if w.m != nil {
		if _, err := hackpadfs.Stat(w.m.fs, w.mpath); err != nil {
			return "", wrapBackendErr("realpath", name, err)
		}
		return w.realpath(), nil
	}
	if w.ino == 0 {
		return "", perr("realpath", name, syscall.ENOENT)
	}
	p := w.realpath()
	if w.name != "" && !(w.depth > 1 && w.top().ino == w.ino) {
		if p == "/" {
			return "/" + w.name, nil
		}
		return p + "/" + w.name, nil
	}
	return p, nil
}

// modify resolves name for a metadata change and runs fn on the writable
// inode, or mfn on a mount.
func (f *FS) modify(op, name string, follow bool, fn func(n *inode, now int64) syscall.Errno,
	mfn func(m *mount, p string) error) error {
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, name, follow); e != 0 {
		return perr(op, name, e)
	}
	if w.m != nil {
		if w.m.ro {
			return perr(op, name, syscall.EROFS)
		}
		return wrapBackendErr(op, name, mfn(w.m, w.mpath))
	}
	if w.ino == 0 {
		return perr(op, name, syscall.ENOENT)
	}
	if e := fn(f.mut(w.ino), f.nowNs()); e != 0 {
		return perr(op, name, e)
	}
	return nil
}

func chmodInode(mode fs.FileMode) func(n *inode, now int64) syscall.Errno {
	return func(n *inode, now int64) syscall.Errno {
		n.mode = n.mode&^permMask | mode&permMask
		n.ctime = now
		return 0
	}
}

func chownInode(uid, gid int) func(n *inode, now int64) syscall.Errno {
	return func(n *inode, now int64) syscall.Errno {
		if uid < -1 || gid < -1 || uid > 1<<32-2 || gid > 1<<32-2 {
			return syscall.EINVAL
		}
		if uid != -1 {
			n.uid = uint32(uid)
		}
		if gid != -1 {
			n.gid = uint32(gid)
		}
		n.ctime = now
		return 0
	}
}

func chtimesInode(atime, mtime time.Time) func(n *inode, now int64) syscall.Errno {
	return func(n *inode, now int64) syscall.Errno {
		if !atime.IsZero() {
			n.atime = toNs(atime)
		}
		if !mtime.IsZero() {
			n.mtime = toNs(mtime)
		}
		n.ctime = now
		return 0
	}
}

// Chmod changes the permission bits (fs.ModePerm, setuid, setgid, sticky),
// following symlinks.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	return f.modify("chmod", name, true, chmodInode(mode), func(m *mount, p string) error {
		return hackpadfs.Chmod(m.fs, p, mode)
	})
}

// Chown changes owner and group (-1 leaves one as is), following symlinks.
func (f *FS) Chown(name string, uid, gid int) error {
	return f.modify("chown", name, true, chownInode(uid, gid), func(m *mount, p string) error {
		return hackpadfs.Chown(m.fs, p, uid, gid)
	})
}

// Lchown is Chown on the symlink itself.
func (f *FS) Lchown(name string, uid, gid int) error {
	return f.modify("lchown", name, false, chownInode(uid, gid), func(m *mount, p string) error {
		if l, ok := m.fs.(interface{ Lchown(string, int, int) error }); ok {
			return l.Lchown(p, uid, gid)
		}
		return hackpadfs.Chown(m.fs, p, uid, gid)
	})
}

// Chtimes sets access and modification times; a zero time leaves that one
// unchanged.
func (f *FS) Chtimes(name string, atime, mtime time.Time, follow bool) error {
	return f.modify("chtimes", name, follow, chtimesInode(atime, mtime), func(m *mount, p string) error {
		if atime.IsZero() || mtime.IsZero() {
			fi, err := hackpadfs.Stat(m.fs, p)
			if err != nil {
				return err
			}
			if atime.IsZero() {
				atime = fi.ModTime()
				if st, ok := fi.Sys().(*Stat); ok {
					atime = st.Atime
				}
			}
			if mtime.IsZero() {
				mtime = fi.ModTime()
			}
		}
		return hackpadfs.Chtimes(m.fs, p, atime, mtime)
	})
}

// Truncate changes the size of a regular file (growing fills with zeros).
func (f *FS) Truncate(name string, size int64) error {
	if size < 0 {
		return perr("truncate", name, syscall.EINVAL)
	}
	return f.modify("truncate", name, true, func(n *inode, now int64) syscall.Errno {
		if n.isDir() {
			return syscall.EISDIR
		}
		if !n.isRegular() {
			return syscall.EINVAL
		}
		return f.truncate(n, size, now)
	}, func(m *mount, p string) error {
		file, err := hackpadfs.OpenFile(m.fs, p, hackpadfs.FlagWriteOnly, 0)
		if err != nil {
			return err
		}
		defer file.Close()
		return hackpadfs.TruncateFile(file, size)
	})
}

// ReadDir lists a directory, sorted by name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	var w walk
	f.mu.RLock()
	defer f.mu.RUnlock()
	// Lookup failures say "open", like os.ReadDir.
	if e := f.resolve(&w, name, true); e != 0 {
		return nil, perr("open", name, e)
	}
	if w.m != nil {
		return w.m.readDir(name, w.mpath)
	}
	if w.ino == 0 {
		return nil, perr("open", name, syscall.ENOENT)
	}
	n := f.node(w.ino)
	if !n.isDir() {
		return nil, perr("readdir", name, syscall.ENOTDIR)
	}
	return f.dirEntries(n, n.dir.names()), nil
}

// dirEntries builds entries for names of directory n with one allocation
// for all the FileInfos.
func (f *FS) dirEntries(n *inode, names []string) []fs.DirEntry {
	infos := make([]FileInfo, len(names))
	out := make([]fs.DirEntry, 0, len(names))
	for i, nm := range names {
		c := f.node(n.dir.entries[nm])
		if c == nil {
			continue
		}
		infos[i] = FileInfo{name: nm, st: c.stat(treeDev)}
		out = append(out, (*dirEntry)(&infos[i]))
	}
	return out
}

// dirEntry is a FileInfo seen as an fs.DirEntry.
type dirEntry FileInfo

func (d *dirEntry) Name() string               { return d.name }
func (d *dirEntry) IsDir() bool                { return d.st.Mode.IsDir() }
func (d *dirEntry) Type() fs.FileMode          { return d.st.Mode.Type() }
func (d *dirEntry) Info() (fs.FileInfo, error) { return (*FileInfo)(d), nil }
func (d *dirEntry) String() string             { return fs.FormatDirEntry(d) }

func (f *FS) mknode(op, name string, mode fs.FileMode, dev Device) error {
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, name, false); e != 0 {
		return perr(op, name, e)
	}
	if w.m != nil {
		if w.m.ro {
			return perr(op, name, syscall.EROFS)
		}
		return perr(op, name, syscall.EPERM)
	}
	if w.name == "" || w.ino != 0 {
		return perr(op, name, syscall.EEXIST)
	}
	if w.trailing {
		return perr(op, name, syscall.ENOENT)
	}
	now := f.nowNs()
	n, e := f.newInode(mode, now)
	if e != 0 {
		return perr(op, name, e)
	}
	n.dev = dev
	f.link(f.mut(w.dir), w.name, n, now)
	return nil
}

// Mkfifo creates a named pipe.
func (f *FS) Mkfifo(name string, perm fs.FileMode) error {
	return f.mknode("mkfifo", name, fs.ModeNamedPipe|perm&permMask, DevNone)
}

// Mknod creates a character device node.
func (f *FS) Mknod(name string, perm fs.FileMode, dev Device) error {
	if dev <= DevNone || dev > DevStderr {
		return perr("mknod", name, syscall.EINVAL)
	}
	return f.mknode("mknod", name, fs.ModeDevice|fs.ModeCharDevice|perm&permMask, dev)
}
