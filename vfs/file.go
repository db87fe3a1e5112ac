package vfs

import (
	"crypto/rand"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hack-pad/hackpadfs"
)

const accMask = os.O_RDONLY | os.O_WRONLY | os.O_RDWR

type fileKind uint8

const (
	fkRegular fileKind = iota
	fkDir
	fkFIFO
	fkDevice
	fkMount
)

// File is an open file description: an inode number (not a pointer, so
// copy-on-write never strands it), flags and an offset. Safe for concurrent
// use.
type File struct {
	fs     *FS
	name   string // absolute, cleaned, at open time
	ename  string // path for errors when not name (the hackpadfs view)
	ino    uint64
	flag   int
	kind   fileKind
	dev    Device
	closed atomic.Bool

	mu       sync.Mutex // offset and directory iteration
	off      int64
	dirNames []string // sorted names, captured at the first ReadDir
	dirPos   int
	dirRead  bool

	pipe  *pipe // FIFOs
	mf    hackpadfs.File
	m     *mount
	mpath string // backend path of a mounted file
}

// Open opens name for reading.
func (f *FS) Open(name string) (*File, error) { return f.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile opens name with os.O_* flags plus O_DIRECTORY / O_NOFOLLOW.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (*File, error) {
	acc := flag & accMask
	write := acc == os.O_WRONLY || acc == os.O_RDWR
	excl := flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0
	follow := flag&O_NOFOLLOW == 0 && !excl
	exclusive := flag&(os.O_CREATE|os.O_TRUNC) != 0
	if exclusive {
		f.mu.Lock()
	} else {
		f.mu.RLock()
	}
	unlock := func() {
		if exclusive {
			f.mu.Unlock()
		} else {
			f.mu.RUnlock()
		}
	}
	var w walk
	if e := f.resolve(&w, name, follow); e != 0 {
		unlock()
		return nil, perr("open", name, e)
	}
	if w.m != nil {
		unlock()
		return f.openMount(w.m, name, w.mpath, flag, perm)
	}
	var n *inode
	if w.ino == 0 {
		if flag&os.O_CREATE == 0 {
			unlock()
			return nil, perr("open", name, syscall.ENOENT)
		}
		if w.trailing {
			unlock()
			return nil, perr("open", name, syscall.EISDIR)
		}
		now := f.nowNs()
		var e syscall.Errno
		n, e = f.newInode(perm&permMask, now)
		if e != 0 {
			unlock()
			return nil, perr("open", name, e)
		}
		f.link(f.mut(w.dir), w.name, n, now)
	} else {
		if excl {
			unlock()
			return nil, perr("open", name, syscall.EEXIST)
		}
		n = f.node(w.ino)
		var e syscall.Errno
		switch {
		case n.isSymlink():
			e = syscall.ELOOP
		case n.isDir():
			if write || flag&os.O_CREATE != 0 {
				e = syscall.EISDIR
			}
		case flag&O_DIRECTORY != 0:
			e = syscall.ENOTDIR
		case n.isDevice() && n.dev >= DevStdin:
			e = syscall.ENXIO // the process layer maps these to its fds
		case n.isRegular() && write && flag&os.O_TRUNC != 0:
			if n.size > 0 {
				n = f.mut(n.ino)
				e = f.truncate(n, 0, f.nowNs())
			}
		}
		if e != 0 {
			unlock()
			return nil, perr("open", name, e)
		}
	}
	file := &File{fs: f, name: cleanAbs(name), ino: n.ino, flag: flag, dev: n.dev}
	switch {
	case n.isDir():
		file.kind = fkDir
	case n.isFIFO():
		file.kind = fkFIFO
	case n.isDevice():
		file.kind = fkDevice
	}
	f.omu.Lock()
	if f.open == nil {
		f.open = map[uint64]int{}
	}
	f.open[n.ino]++
	if file.kind == fkFIFO {
		file.pipe = f.fifo(n.ino)
	}
	f.omu.Unlock()
	unlock()
	if file.pipe != nil {
		if acc != os.O_WRONLY {
			file.pipe.addReader()
		}
		if write {
			file.pipe.addWriter()
		}
	}
	return file, nil
}

// fifo returns the pipe readers and writers of FIFO ino meet on; f.omu held.
func (f *FS) fifo(ino uint64) *pipe {
	p := f.fifos[ino]
	if p == nil {
		if f.fifos == nil {
			f.fifos = map[uint64]*pipe{}
		}
		p = newPipe(DefaultPipeSize)
		f.fifos[ino] = p
	}
	return p
}

func (f *FS) openMount(m *mount, name, p string, flag int, perm fs.FileMode) (*File, error) {
	acc := flag & accMask
	if m.ro && (acc != os.O_RDONLY || flag&(os.O_CREATE|os.O_TRUNC) != 0) {
		return nil, perr("open", name, syscall.EROFS)
	}
	bflag := flag &^ (O_DIRECTORY | O_NOFOLLOW)
	mf, err := hackpadfs.OpenFile(m.fs, p, bflag, perm)
	if err != nil {
		return nil, wrapBackendErr("open", name, err)
	}
	if flag&O_DIRECTORY != 0 {
		fi, err := mf.Stat()
		if err != nil || !fi.IsDir() {
			mf.Close()
			return nil, perr("open", name, syscall.ENOTDIR)
		}
	}
	return &File{fs: f, name: cleanAbs(name), flag: flag, kind: fkMount, mf: mf, m: m, mpath: p}, nil
}

// Name is the absolute path the file was opened with.
func (fl *File) Name() string { return fl.name }

func (fl *File) err(op string, e syscall.Errno) error { return perr(op, fl.errPath(), e) }

func (fl *File) errPath() string {
	if fl.ename != "" {
		return fl.ename
	}
	return fl.name
}

func (fl *File) canRead() bool  { return fl.flag&accMask != os.O_WRONLY }
func (fl *File) canWrite() bool { return fl.flag&accMask != os.O_RDONLY }

// Read reads from the current offset; io.EOF at end of file.
func (fl *File) Read(p []byte) (int, error) {
	if fl.closed.Load() {
		return 0, fl.err("read", syscall.EBADF)
	}
	if !fl.canRead() {
		return 0, fl.err("read", syscall.EBADF)
	}
	switch fl.kind {
	case fkDir:
		return 0, fl.err("read", syscall.EISDIR)
	case fkFIFO:
		return fl.readFIFO(p, 0)
	case fkDevice:
		return fl.devRead(p)
	case fkMount:
		n, err := fl.mf.Read(p)
		return n, wrapBackendErr("read", fl.errPath(), err)
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	fl.fs.mu.RLock()
	n := fl.fs.node(fl.ino)
	if n == nil {
		fl.fs.mu.RUnlock()
		return 0, fl.err("read", syscall.EBADF)
	}
	c := n.readAt(p, fl.off)
	fl.fs.mu.RUnlock()
	fl.off += int64(c)
	if c == 0 && len(p) > 0 {
		return 0, io.EOF
	}
	return c, nil
}

// ReadTimeout is Read giving up after d with os.ErrDeadlineExceeded when
// nothing comes (a FIFO); other files do not block, and read as Read.
func (fl *File) ReadTimeout(p []byte, d time.Duration) (int, error) {
	if fl.kind != fkFIFO || fl.closed.Load() || !fl.canRead() {
		return fl.Read(p)
	}
	return fl.readFIFO(p, d)
}

// readFIFO reads a FIFO, waiting at most d for data (0: as long as it takes).
func (fl *File) readFIFO(p []byte, d time.Duration) (int, error) {
	n, err := fl.pipe.readFor(p, true, d, &fl.closed)
	if err != nil && err != io.EOF && err != os.ErrDeadlineExceeded {
		err = fl.err("read", toErrno(err))
	}
	return n, err
}

func (fl *File) devRead(p []byte) (int, error) {
	switch fl.dev {
	case DevZero:
		clear(p)
		return len(p), nil
	case DevRandom:
		return rand.Read(p)
	}
	return 0, io.EOF
}

// ReadAt reads at off without moving the offset; io.EOF if short.
func (fl *File) ReadAt(p []byte, off int64) (int, error) {
	if fl.closed.Load() || !fl.canRead() {
		return 0, fl.err("readat", syscall.EBADF)
	}
	if off < 0 {
		return 0, fl.err("readat", syscall.EINVAL)
	}
	switch fl.kind {
	case fkDir:
		return 0, fl.err("readat", syscall.EISDIR)
	case fkFIFO:
		return 0, fl.err("readat", syscall.ESPIPE)
	case fkDevice:
		return fl.devRead(p)
	case fkMount:
		n, err := hackpadfs.ReadAtFile(fl.mf, p, off)
		return n, wrapBackendErr("readat", fl.errPath(), err)
	}
	fl.fs.mu.RLock()
	n := fl.fs.node(fl.ino)
	if n == nil {
		fl.fs.mu.RUnlock()
		return 0, fl.err("readat", syscall.EBADF)
	}
	c := n.readAt(p, off)
	fl.fs.mu.RUnlock()
	if c < len(p) {
		return c, io.EOF
	}
	return c, nil
}

// Write writes at the offset (at the end with O_APPEND). All or nothing: on
// ENOSPC nothing is written.
func (fl *File) Write(p []byte) (int, error) {
	if fl.closed.Load() || !fl.canWrite() {
		return 0, fl.err("write", syscall.EBADF)
	}
	switch fl.kind {
	case fkDir:
		return 0, fl.err("write", syscall.EISDIR)
	case fkFIFO:
		n, err := fl.pipe.write(p, true, &fl.closed)
		if err != nil {
			err = fl.err("write", toErrno(err))
		}
		return n, err
	case fkDevice:
		return len(p), nil
	case fkMount:
		n, err := hackpadfs.WriteFile(fl.mf, p)
		return n, wrapBackendErr("write", fl.errPath(), err)
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	f := fl.fs
	f.mu.Lock()
	n := f.mut(fl.ino)
	if n == nil {
		f.mu.Unlock()
		return 0, fl.err("write", syscall.EBADF)
	}
	off := fl.off
	if fl.flag&os.O_APPEND != 0 {
		off = n.size
	}
	e := f.writeAt(n, p, off, f.nowNs())
	f.mu.Unlock()
	if e != 0 {
		return 0, fl.err("write", e)
	}
	fl.off = off + int64(len(p))
	return len(p), nil
}

// WriteAt writes at off without moving the offset. Like os.File, it is an
// error on a file opened with O_APPEND.
func (fl *File) WriteAt(p []byte, off int64) (int, error) {
	if fl.closed.Load() || !fl.canWrite() {
		return 0, fl.err("writeat", syscall.EBADF)
	}
	if off < 0 || fl.flag&os.O_APPEND != 0 {
		return 0, fl.err("writeat", syscall.EINVAL)
	}
	switch fl.kind {
	case fkDir:
		return 0, fl.err("writeat", syscall.EISDIR)
	case fkFIFO:
		return 0, fl.err("writeat", syscall.ESPIPE)
	case fkDevice:
		return len(p), nil
	case fkMount:
		n, err := hackpadfs.WriteAtFile(fl.mf, p, off)
		return n, wrapBackendErr("writeat", fl.errPath(), err)
	}
	f := fl.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.mut(fl.ino)
	if n == nil {
		return 0, fl.err("writeat", syscall.EBADF)
	}
	if e := f.writeAt(n, p, off, f.nowNs()); e != 0 {
		return 0, fl.err("writeat", e)
	}
	return len(p), nil
}

// Seek sets the offset (io.SeekStart/Current/End). Seeking a directory to 0
// restarts ReadDir.
func (fl *File) Seek(offset int64, whence int) (int64, error) {
	if fl.closed.Load() {
		return 0, fl.err("seek", syscall.EBADF)
	}
	switch fl.kind {
	case fkFIFO:
		return 0, fl.err("seek", syscall.ESPIPE)
	case fkMount:
		o, err := hackpadfs.SeekFile(fl.mf, offset, whence)
		return o, wrapBackendErr("seek", fl.errPath(), err)
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = fl.off
	case io.SeekEnd:
		fl.fs.mu.RLock()
		if n := fl.fs.node(fl.ino); n != nil {
			base = n.size
		}
		fl.fs.mu.RUnlock()
	default:
		return 0, fl.err("seek", syscall.EINVAL)
	}
	o := base + offset
	if o < 0 || (offset > 0 && o < base) {
		return 0, fl.err("seek", syscall.EINVAL)
	}
	fl.off = o
	if fl.kind == fkDir && o == 0 {
		fl.dirRead, fl.dirNames, fl.dirPos = false, nil, 0
	}
	return o, nil
}

// Stat describes the open file (even if it was unlinked since).
func (fl *File) Stat() (*FileInfo, error) {
	if fl.closed.Load() {
		return nil, fl.err("stat", syscall.EBADF)
	}
	if fl.kind == fkMount {
		fi, err := fl.mf.Stat()
		if err != nil {
			return nil, wrapBackendErr("stat", fl.errPath(), err)
		}
		return fl.m.info(baseName(fl.name), fl.mpath, fi), nil
	}
	fl.fs.mu.RLock()
	defer fl.fs.mu.RUnlock()
	n := fl.fs.node(fl.ino)
	if n == nil {
		return nil, fl.err("stat", syscall.EBADF)
	}
	return &FileInfo{name: baseName(fl.name), st: n.stat(treeDev)}, nil
}

// Truncate resizes the file; the file must be open for writing.
func (fl *File) Truncate(size int64) error {
	if fl.closed.Load() {
		return fl.err("truncate", syscall.EBADF)
	}
	if size < 0 || !fl.canWrite() {
		return fl.err("truncate", syscall.EINVAL)
	}
	switch fl.kind {
	case fkMount:
		return wrapBackendErr("truncate", fl.errPath(), hackpadfs.TruncateFile(fl.mf, size))
	case fkDir:
		return fl.err("truncate", syscall.EISDIR)
	case fkRegular:
	default:
		return fl.err("truncate", syscall.EINVAL)
	}
	f := fl.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.mut(fl.ino)
	if n == nil {
		return fl.err("truncate", syscall.EBADF)
	}
	if e := f.truncate(n, size, f.nowNs()); e != 0 {
		return fl.err("truncate", e)
	}
	return nil
}

// Sync is a no-op for the tree (there is nothing below memory).
func (fl *File) Sync() error {
	if fl.closed.Load() {
		return fl.err("sync", syscall.EBADF)
	}
	if fl.kind == fkMount {
		return wrapBackendErr("sync", fl.errPath(), hackpadfs.SyncFile(fl.mf))
	}
	return nil
}

// ReadDir reads the next n entries, sorted by name, like os.File.ReadDir.
// The name list is captured at the first call (O(dir), not O(FS)); entries
// removed since are skipped.
func (fl *File) ReadDir(n int) ([]fs.DirEntry, error) {
	if fl.closed.Load() {
		return nil, fl.err("readdir", syscall.EBADF)
	}
	if fl.kind == fkMount {
		ents, err := hackpadfs.ReadDirFile(fl.mf, n)
		out := make([]fs.DirEntry, 0, len(ents))
		for _, e := range ents {
			out = append(out, &mountDirEntry{DirEntry: e, m: fl.m, p: joinRel(fl.mpath, e.Name())})
		}
		if err != nil && err != io.EOF {
			err = wrapBackendErr("readdir", fl.errPath(), err)
		}
		return out, err
	}
	if fl.kind != fkDir {
		return nil, fl.err("readdir", syscall.ENOTDIR)
	}
	fl.mu.Lock()
	defer fl.mu.Unlock()
	f := fl.fs
	f.mu.RLock()
	defer f.mu.RUnlock()
	d := f.node(fl.ino)
	if d == nil || !d.isDir() {
		return nil, fl.err("readdir", syscall.EBADF)
	}
	if !fl.dirRead {
		fl.dirNames, fl.dirPos, fl.dirRead = d.dir.names(), 0, true
	}
	rest := fl.dirNames[fl.dirPos:]
	if n > 0 && len(rest) > n {
		rest = rest[:n]
	}
	fl.dirPos += len(rest)
	out := f.dirEntries(d, rest)
	if n > 0 && len(out) == 0 {
		if fl.dirPos < len(fl.dirNames) {
			return fl.readDirMore(n, d)
		}
		return nil, io.EOF
	}
	return out, nil
}

// readDirMore continues a ReadDir batch whose names were all removed.
func (fl *File) readDirMore(n int, d *inode) ([]fs.DirEntry, error) {
	for fl.dirPos < len(fl.dirNames) {
		rest := fl.dirNames[fl.dirPos:]
		if len(rest) > n {
			rest = rest[:n]
		}
		fl.dirPos += len(rest)
		if out := fl.fs.dirEntries(d, rest); len(out) > 0 {
			return out, nil
		}
	}
	return nil, io.EOF
}

func (fl *File) modify(op string, fn func(n *inode, now int64) syscall.Errno, mfn func() error) error {
	if fl.closed.Load() {
		return fl.err(op, syscall.EBADF)
	}
	if fl.kind == fkMount {
		if fl.m.ro {
			return fl.err(op, syscall.EROFS)
		}
		return wrapBackendErr(op, fl.errPath(), mfn())
	}
	f := fl.fs
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.mut(fl.ino)
	if n == nil {
		return fl.err(op, syscall.EBADF)
	}
	if e := fn(n, f.nowNs()); e != 0 {
		return fl.err(op, e)
	}
	return nil
}

// Chmod changes the permission bits of the open file.
func (fl *File) Chmod(mode fs.FileMode) error {
	return fl.modify("chmod", chmodInode(mode), func() error { return hackpadfs.ChmodFile(fl.mf, mode) })
}

// Chown changes owner and group of the open file (-1 leaves one as is).
func (fl *File) Chown(uid, gid int) error {
	return fl.modify("chown", chownInode(uid, gid), func() error { return hackpadfs.ChownFile(fl.mf, uid, gid) })
}

// Chtimes sets access and modification times; a zero time leaves one as is.
func (fl *File) Chtimes(atime, mtime time.Time) error {
	return fl.modify("chtimes", chtimesInode(atime, mtime), func() error {
		return hackpadfs.ChtimesFile(fl.mf, atime, mtime)
	})
}

// Close releases the file. A second Close returns EBADF.
func (fl *File) Close() error {
	if fl.closed.Swap(true) {
		return fl.err("close", syscall.EBADF)
	}
	if fl.kind == fkMount {
		return wrapBackendErr("close", fl.errPath(), fl.mf.Close())
	}
	f := fl.fs
	if fl.pipe != nil {
		idle := false
		if fl.canRead() {
			idle = fl.pipe.closeReader()
		}
		if fl.canWrite() {
			idle = fl.pipe.closeWriter()
		}
		if idle {
			f.omu.Lock()
			if f.fifos[fl.ino] == fl.pipe {
				delete(f.fifos, fl.ino)
			}
			f.omu.Unlock()
		}
	}
	f.omu.Lock()
	c := f.open[fl.ino] - 1
	if c <= 0 {
		delete(f.open, fl.ino)
	} else {
		f.open[fl.ino] = c
	}
	f.omu.Unlock()
	if c <= 0 {
		f.mu.RLock()
		_, orphan := f.t.orphans[fl.ino]
		f.mu.RUnlock()
		if orphan {
			f.mu.Lock()
			f.reapOrphan(fl.ino)
			f.mu.Unlock()
		}
	}
	return nil
}

// reapOrphan frees an unlinked inode once nothing has it open; f.mu held.
func (f *FS) reapOrphan(ino uint64) {
	if _, ok := f.t.orphans[ino]; !ok {
		return
	}
	f.omu.Lock()
	busy := f.open[ino] > 0
	f.omu.Unlock()
	if busy {
		return
	}
	delete(f.t.orphans, ino)
	if n := f.node(ino); n != nil && n.nlink == 0 {
		f.free(n)
	}
}
