package vfs

// Adopt replaces the tree with src's (such as one decoded from a saved
// state on another machine), keeping this FS's options and mounts. Inode
// numbers go on from the larger of the two counters, so a file made later
// never takes a number src used. src stays usable: the two share the tree
// copy-on-write, as after Clone.
func (f *FS) Adopt(src *FS) {
	t, next := src.capture()

	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = t
	f.nextIno = max(f.nextIno, next)
	f.gen = newGen()
	f.snapGen = f.gen
	for ino := range f.t.orphans {
		f.reapOrphan(ino)
	}
}

// Base is a snapshot of the tree as it is now, to be the base of the next
// EncodeDelta (after Adopt of a tree restored from checkpoints, say). Like
// the one EncodeDelta returns, it is not counted toward the byte quota.
func (f *FS) Base() *Snapshot {
	t, _ := f.capture()
	return &Snapshot{t: t}
}
