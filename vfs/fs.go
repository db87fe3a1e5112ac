package vfs

import (
	"io/fs"
	"math"
	"sync"
	"syscall"
	"time"
)

// Options configures a new FS.
type Options struct {
	MaxBytes  int64            // 0 = unlimited; total file bytes → ENOSPC
	MaxInodes int64            // 0 = unlimited → ENOSPC
	Now       func() time.Time // nil = time.Now
}

// Our own open flags, identical on every GOOS; chosen above every os.O_* bit
// of linux, darwin, windows and js so they never collide.
const (
	O_DIRECTORY = 1 << 28
	O_NOFOLLOW  = 1 << 29
)

const (
	defaultUID = 1000
	defaultGID = 1000
	treeDev    = 1 // st_dev of the tree; mounts get 2, 3, ...
	// maxFileSize bounds the chunk index of one file (EFBIG beyond).
	maxFileSize = 1 << 36
)

// FS is a virtual file system: an inode tree with copy-on-write snapshots,
// quotas and mounts. All methods are safe for concurrent use.
type FS struct {
	mu  sync.RWMutex
	t   tree
	gen uint64 // nodes tagged with gen are ours to modify in place
	opt Options
	// snapGen: chunks of an older generation are held by a snapshot (one
	// taken, or the one restored): what the tree drops of them stays in
	// memory. (A fork's shared chunks are the other tree's to count.)
	snapGen uint64

	// Not part of snapshots: runtime state of this FS.
	nextIno uint64            // never reused, even across Restore, so open files stay unambiguous
	mounts  map[uint64]*mount // keyed by mount point directory inode
	nextDev uint64

	omu   sync.Mutex       // guards fifos and open; taken after mu when both are needed
	fifos map[uint64]*pipe // connected FIFOs (readers/writers that met)
	open  map[uint64]int   // open *File count per inode (unlinked-but-open files)
}

// New returns an empty tree with just "/" (0755, uid/gid 1000).
func New(opt Options) *FS {
	f := &FS{opt: opt, gen: newGen(), nextIno: rootIno, nextDev: treeDev + 1}
	now := f.nowNs()
	root := &inode{gen: f.gen, ino: rootIno, mode: fs.ModeDir | 0o755, uid: defaultUID, gid: defaultGID,
		nlink: 2, atime: now, mtime: now, ctime: now, dir: &dirData{gen: f.gen, entries: map[string]uint64{}}}
	f.t.inodes.set(rootIno, root, f.gen)
	f.t.ninodes = 1
	f.nextIno = rootIno + 1
	return f
}

// Usage reports the bytes (sum of regular file sizes) and inodes in use.
func (f *FS) Usage() (bytes, inodes int64) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.t.bytes, f.t.ninodes
}

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// toNs stores times as int64 nanoseconds; out-of-range times are clamped
// rather than overflowing.
func toNs(t time.Time) int64 {
	if t.Before(minTime) {
		return math.MinInt64
	}
	if t.After(maxTime) {
		return math.MaxInt64
	}
	return t.UnixNano()
}

func (f *FS) nowNs() int64 {
	if f.opt.Now != nil {
		return toNs(f.opt.Now())
	}
	return time.Now().UnixNano()
}

func (f *FS) node(ino uint64) *inode { return f.t.inodes.get(ino) }

// mut returns a version of inode ino that this FS may modify in place,
// copying it (and the trie path to it) the first time after a snapshot.
func (f *FS) mut(ino uint64) *inode {
	n := f.t.inodes.get(ino)
	if n == nil || n.gen == f.gen {
		return n
	}
	c := *n
	c.gen = f.gen
	f.t.inodes.set(ino, &c, f.gen)
	return &c
}

// mutDir returns the writable entry map of a writable directory inode.
func (f *FS) mutDir(n *inode) *dirData {
	d := n.dir
	if d.gen != f.gen {
		nd := &dirData{gen: f.gen, entries: make(map[string]uint64, len(d.entries)+1)}
		for k, v := range d.entries {
			nd.entries[k] = v
		}
		n.dir = nd
		return nd
	}
	d.sorted.Store(nil) // caller is about to change the name set
	return d
}

func (f *FS) checkInodeQuota() syscall.Errno {
	if f.opt.MaxInodes > 0 && f.t.ninodes >= f.opt.MaxInodes {
		return syscall.ENOSPC
	}
	return 0
}

// checkByteQuota: the files' bytes, and those snapshots or forks keep for
// it (tree.retained), may not grow past MaxBytes.
func (f *FS) checkByteQuota(delta int64) syscall.Errno {
	if delta > 0 && f.opt.MaxBytes > 0 && f.t.bytes+f.t.retained+delta > f.opt.MaxBytes {
		return syscall.ENOSPC
	}
	return 0
}

// sharedBytes is what chunks a snapshot holds too take: dropping or
// rewriting them leaves that much memory to the snapshot.
func (f *FS) sharedBytes(chunks []chunk) int64 {
	var n int64
	for _, c := range chunks {
		if c.gen < f.snapGen {
			n += int64(len(c.b))
		}
	}
	return n
}

// Held is the file bytes this tree keeps in memory: its files', and what
// its snapshots and forks keep of what it has since changed or removed.
func (f *FS) Held() int64 {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.t.bytes + f.t.retained
}

// newInode allocates an inode (not yet linked anywhere).
func (f *FS) newInode(mode fs.FileMode, now int64) (*inode, syscall.Errno) {
	if e := f.checkInodeQuota(); e != 0 {
		return nil, e
	}
	n := &inode{gen: f.gen, ino: f.nextIno, mode: mode, uid: defaultUID, gid: defaultGID,
		nlink: 1, atime: now, mtime: now, ctime: now}
	f.nextIno++
	if n.isDir() {
		n.nlink = 2
		n.dir = &dirData{gen: f.gen, entries: map[string]uint64{}}
	}
	f.t.inodes.set(n.ino, n, f.gen)
	f.t.ninodes++
	return n, 0
}

// link adds name → child in writable directory parent.
func (f *FS) link(parent *inode, name string, child *inode, now int64) {
	f.mutDir(parent).entries[name] = child.ino
	if child.isDir() {
		parent.nlink++
	}
	parent.mtime, parent.ctime = now, now
}

// unlinkEntry removes name from writable directory parent and drops a link
// of the child it pointed to.
func (f *FS) unlinkEntry(parent *inode, name string, now int64) {
	ino := parent.dir.entries[name]
	delete(f.mutDir(parent).entries, name)
	parent.mtime, parent.ctime = now, now
	c := f.mut(ino)
	if c == nil {
		return
	}
	c.ctime = now
	if c.isDir() {
		parent.nlink--
		c.nlink = 0
	} else if c.nlink > 0 {
		c.nlink--
	}
	if c.nlink == 0 {
		f.release(c)
	}
}

// release frees an inode with no links left, unless a *File still has it
// open (then it becomes an orphan until the last close).
func (f *FS) release(n *inode) {
	f.omu.Lock()
	isOpen := f.open[n.ino] > 0
	f.omu.Unlock()
	if isOpen {
		if f.t.orphans == nil {
			f.t.orphans = map[uint64]struct{}{}
		}
		f.t.orphans[n.ino] = struct{}{}
		return
	}
	f.free(n)
}

func (f *FS) free(n *inode) {
	if n.isRegular() {
		f.t.bytes -= n.size
		if n.data != nil {
			f.t.retained += f.sharedBytes(n.data.chunks)
		}
	}
	if n.isFIFO() {
		f.omu.Lock()
		delete(f.fifos, n.ino) // its pipe goes with it
		f.omu.Unlock()
	}
	f.t.inodes.set(n.ino, nil, f.gen)
	f.t.ninodes--
}

func (n *inode) stat(dev uint64) Stat {
	st := Stat{Dev: dev, Ino: n.ino, Nlink: uint64(n.nlink), Mode: n.mode, Uid: n.uid, Gid: n.gid,
		Atime: time.Unix(0, n.atime), Mtime: time.Unix(0, n.mtime), Ctime: time.Unix(0, n.ctime)}
	switch {
	case n.isRegular():
		st.Size = n.size
	case n.isDir():
		st.Size = 4096
	case n.isSymlink():
		st.Size = int64(len(n.target))
	case n.isDevice():
		st.Rdev = n.dev.rdev()
	}
	return st
}
