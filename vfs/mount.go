package vfs

import (
	"hash/fnv"
	"io/fs"
	"syscall"

	"github.com/hack-pad/hackpadfs"
)

// mount is a backend attached at a tree directory. Mounts belong to the FS,
// not to the tree: snapshots, Restore and Encode never include mounted
// content, and a mount stays attached across Restore.
type mount struct {
	dir string // path at mount time (diagnostics)
	ino uint64 // mount point directory in the tree
	fs  hackpadfs.FS
	ro  bool
	dev uint64
}

// Mount attaches backend at dir (an existing directory of the tree). Path
// resolution that reaches dir hands the rest of the path to backend, in
// hackpadfs form (relative, "." for its root). readOnly makes every
// modification fail with EROFS. Mounting over a mount point, or inside a
// mount, is EBUSY / EINVAL.
func (f *FS) Mount(dir string, backend hackpadfs.FS, readOnly bool) error {
	if backend == nil {
		return perr("mount", dir, syscall.EINVAL)
	}
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, dir, true); e != 0 {
		return perr("mount", dir, e)
	}
	if w.m != nil {
		if w.mpath == "." {
			return perr("mount", dir, syscall.EBUSY)
		}
		return perr("mount", dir, syscall.EINVAL)
	}
	if w.ino == 0 {
		return perr("mount", dir, syscall.ENOENT)
	}
	if !f.node(w.ino).isDir() {
		return perr("mount", dir, syscall.ENOTDIR)
	}
	if f.mounts == nil {
		f.mounts = map[uint64]*mount{}
	}
	f.mounts[w.ino] = &mount{dir: cleanAbs(dir), ino: w.ino, fs: backend, ro: readOnly, dev: f.nextDev}
	f.nextDev++
	return nil
}

// Unmount detaches the mount at dir.
func (f *FS) Unmount(dir string) error {
	var w walk
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.resolve(&w, dir, true); e != 0 {
		return perr("unmount", dir, e)
	}
	if w.m == nil || w.mpath != "." {
		return perr("unmount", dir, syscall.EINVAL)
	}
	delete(f.mounts, w.m.ino)
	return nil
}

func (m *mount) stat(op, name, p string, follow bool) (*FileInfo, error) {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = hackpadfs.Stat(m.fs, p)
	} else {
		fi, err = hackpadfs.LstatOrStat(m.fs, p)
	}
	if err != nil {
		return nil, wrapBackendErr(op, name, err)
	}
	return m.info(baseName(name), p, fi), nil
}

// info converts a backend FileInfo. Backends may return *Stat from Sys()
// (platform/hostdir does); otherwise we synthesize one, with an inode number
// hashed from the path so tools comparing dev/ino (cp, find) behave.
func (m *mount) info(name, p string, fi fs.FileInfo) *FileInfo {
	if st, ok := fi.Sys().(*Stat); ok {
		s := *st
		s.Dev = m.dev
		return &FileInfo{name: name, st: s}
	}
	h := fnv.New64a()
	h.Write([]byte(p))
	st := Stat{Dev: m.dev, Ino: h.Sum64() | 1<<63, Nlink: 1, Mode: fi.Mode(), Uid: defaultUID, Gid: defaultGID,
		Size: fi.Size(), Atime: fi.ModTime(), Mtime: fi.ModTime(), Ctime: fi.ModTime()}
	if fi.IsDir() {
		st.Nlink = 2
	}
	return &FileInfo{name: name, st: st}
}

func (m *mount) readDir(name, p string) ([]fs.DirEntry, error) {
	ents, err := hackpadfs.ReadDir(m.fs, p)
	if err != nil {
		return nil, wrapBackendErr("readdir", name, err)
	}
	out := make([]fs.DirEntry, 0, len(ents))
	for _, e := range ents {
		out = append(out, &mountDirEntry{DirEntry: e, m: m, p: joinRel(p, e.Name())})
	}
	return out, nil
}

// mountDirEntry makes Info() return our *FileInfo (with *Stat in Sys()).
type mountDirEntry struct {
	fs.DirEntry
	m *mount
	p string
}

func (d *mountDirEntry) Info() (fs.FileInfo, error) {
	fi, err := d.DirEntry.Info()
	if err != nil {
		return nil, wrapBackendErr("stat", d.p, err)
	}
	return d.m.info(d.DirEntry.Name(), d.p, fi), nil
}

func joinRel(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}
