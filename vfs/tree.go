package vfs

import (
	"io/fs"
	"slices"
	"sync/atomic"
)

// gens hands out generation numbers. It is global so that two clones never
// share a generation: a node is writable in place only by the one FS whose
// current generation tagged it.
var gens atomic.Uint64

func newGen() uint64 { return gens.Add(1) }

const rootIno = 1

// inode is one file system object. An inode reachable from a trie owned by
// another generation is immutable; use tree.mut to get a writable copy.
type inode struct {
	gen   uint64
	ino   uint64
	mode  fs.FileMode // type bits + permission bits
	uid   uint32
	gid   uint32
	nlink uint32
	dev   Device // char devices
	atime int64  // unix nanoseconds
	mtime int64
	ctime int64
	size  int64 // regular files: logical size (holes read as zeros)

	data   *fileData // regular files (nil = empty)
	dir    *dirData  // directories
	target string    // symlinks
}

func (n *inode) isDir() bool     { return n.mode&fs.ModeDir != 0 }
func (n *inode) isSymlink() bool { return n.mode&fs.ModeSymlink != 0 }
func (n *inode) isRegular() bool { return n.mode&fs.ModeType == 0 }
func (n *inode) isFIFO() bool    { return n.mode&fs.ModeNamedPipe != 0 }
func (n *inode) isDevice() bool  { return n.mode&fs.ModeDevice != 0 }

// dirData maps names to inode numbers (not pointers): this is what lets a
// child be copied on write without touching its parent, and what makes hard
// links trivial.
type dirData struct {
	gen     uint64
	entries map[string]uint64
	// sorted caches the sorted names; it is derived data, shared between
	// generations, hence atomic (two clones may fill it concurrently).
	sorted atomic.Pointer[[]string]
}

func (d *dirData) names() []string {
	if p := d.sorted.Load(); p != nil {
		return *p
	}
	names := make([]string, 0, len(d.entries))
	for name := range d.entries {
		names = append(names, name)
	}
	slices.Sort(names)
	d.sorted.Store(&names)
	return names
}

// trie is a persistent radix trie keyed by inode number. Nodes carry the
// generation that owns them; writing through a node of an older generation
// copies the path from the root (path copying), so a snapshot is just a copy
// of the root pointer.
const (
	trieBits   = 5
	trieFanout = 1 << trieBits
	trieMask   = trieFanout - 1
)

type trieInner struct {
	gen    uint64
	kids   [trieFanout]*trieInner // levels > 1
	leaves [trieFanout]*trieLeaf  // level 1
}

type trieLeaf struct {
	gen  uint64
	inos [trieFanout]*inode
}

type trie struct {
	root   *trieInner
	levels int // number of inner levels; capacity is 32^(levels+1)
}

func (t *trie) get(ino uint64) *inode {
	n := t.root
	if n == nil || ino>>(trieBits*(t.levels+1)) != 0 {
		return nil
	}
	for l := t.levels; l > 1; l-- {
		n = n.kids[(ino>>(trieBits*l))&trieMask]
		if n == nil {
			return nil
		}
	}
	lf := n.leaves[(ino>>trieBits)&trieMask]
	if lf == nil {
		return nil
	}
	return lf.inos[ino&trieMask]
}

// set stores ip (nil deletes) under ino, copying every node on the path that
// gen does not own yet.
func (t *trie) set(ino uint64, ip *inode, gen uint64) {
	if t.root == nil {
		t.root = &trieInner{gen: gen}
		t.levels = 1
	}
	for ino>>(trieBits*(t.levels+1)) != 0 {
		if ip == nil {
			return // deleting beyond capacity: nothing there
		}
		nr := &trieInner{gen: gen}
		nr.kids[0] = t.root
		t.root = nr
		t.levels++
	}
	if t.root.gen != gen {
		c := *t.root
		c.gen = gen
		t.root = &c
	}
	n := t.root
	for l := t.levels; l > 1; l-- {
		i := (ino >> (trieBits * l)) & trieMask
		k := n.kids[i]
		if k == nil {
			if ip == nil {
				return
			}
			k = &trieInner{gen: gen}
		} else if k.gen != gen {
			c := *k
			c.gen = gen
			k = &c
		}
		n.kids[i] = k
		n = k
	}
	i := (ino >> trieBits) & trieMask
	lf := n.leaves[i]
	if lf == nil {
		if ip == nil {
			return
		}
		lf = &trieLeaf{gen: gen}
	} else if lf.gen != gen {
		c := *lf
		c.gen = gen
		lf = &c
	}
	n.leaves[i] = lf
	lf.inos[ino&trieMask] = ip
}

// tree is the part of an FS that snapshots capture: copying this struct by
// value is the whole cost of a snapshot.
type tree struct {
	inodes  trie
	bytes   int64 // sum of regular file sizes
	ninodes int64
	// retained counts file bytes this tree let go of while an older
	// generation (a snapshot, a fork, the tree restored from) still held
	// them: memory the tree no longer shows but the process still keeps.
	// The byte quota counts it (checkByteQuota).
	retained int64
	// orphans are unlinked inodes still open somewhere; kept in the table
	// until the last close. Rare, so copied eagerly on snapshot.
	orphans map[uint64]struct{}
}

func (t *tree) clone() tree {
	c := *t
	if len(t.orphans) > 0 {
		c.orphans = make(map[uint64]struct{}, len(t.orphans))
		for k := range t.orphans {
			c.orphans[k] = struct{}{}
		}
	} else {
		c.orphans = nil
	}
	return c
}

// each calls fn for every inode in ascending inode order.
func (t *trie) each(fn func(*inode) error) error {
	if t.root == nil {
		return nil
	}
	return t.root.each(t.levels, fn)
}

func (n *trieInner) each(level int, fn func(*inode) error) error {
	if level == 1 {
		for _, lf := range n.leaves {
			if lf == nil {
				continue
			}
			for _, ip := range lf.inos {
				if ip != nil {
					if err := fn(ip); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, k := range n.kids {
		if k != nil {
			if err := k.each(level-1, fn); err != nil {
				return err
			}
		}
	}
	return nil
}
