package vfs

// Snapshot is an immutable point-in-time copy of a tree (not of its mounts).
// It can be restored any number of times, into the FS it came from.
type Snapshot struct {
	t tree
}

// Usage reports the bytes and inodes the snapshot holds.
func (s *Snapshot) Usage() (bytes, inodes int64) { return s.t.bytes, s.t.ninodes }

// Snapshot captures the tree in O(1): it copies the trie root and moves the
// FS to a fresh generation, so every existing node becomes shared and is
// copied on its next write.
func (f *FS) Snapshot() *Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := &Snapshot{t: f.t.clone()}
	f.gen = newGen()
	f.snapGen = f.gen
	return s
}

// Restore replaces the tree with s in O(1). Mounts stay attached; files
// open on inodes that s does not have fail with EBADF.
func (f *FS) Restore(s *Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = s.t.clone()
	f.gen = newGen()
	f.snapGen = f.gen
	for ino := range f.t.orphans {
		f.reapOrphan(ino)
	}
}

// Clone forks the FS in O(1): the tree is shared and copied on write by
// either side. The clone has its own quota accounting (same Options), the
// same mounts (same backends) and no open files.
func (f *FS) Clone() *FS {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &FS{t: f.t.clone(), gen: newGen(), opt: f.opt, nextIno: f.nextIno, nextDev: f.nextDev}
	f.gen = newGen()
	if len(f.mounts) > 0 {
		c.mounts = make(map[uint64]*mount, len(f.mounts))
		for k, v := range f.mounts {
			c.mounts[k] = v
		}
	}
	for ino := range c.t.orphans {
		c.reapOrphan(ino)
	}
	return c
}

// SetOptions changes quotas and the clock (e.g. on a clone of a template).
// Lowering a quota below current usage only makes later growth fail.
func (f *FS) SetOptions(opt Options) {
	f.mu.Lock()
	f.opt = opt
	f.mu.Unlock()
}

// Unchanged reports whether the tree is still s: nothing written, made or removed
// since Snapshot took s (every change after a snapshot copies the trie's root).
func (f *FS) Unchanged(s *Snapshot) bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.t.inodes.root == s.t.inodes.root && f.t.inodes.levels == s.t.inodes.levels &&
		f.t.ninodes == s.t.ninodes && f.t.bytes == s.t.bytes && len(f.t.orphans) == 0
}

// CloneTree is Clone without the mounts: the tree alone, as Encode saves it (the
// mount points are the directories under them).
func (f *FS) CloneTree() *FS {
	c := f.Clone()
	c.mounts = nil
	return c
}
