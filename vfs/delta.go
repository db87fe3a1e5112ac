package vfs

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"slices"
)

// Delta format: the changes from one snapshot of a tree (the base) to a
// later one, for checkpoints that write only what changed. All integers
// varint-encoded unless noted:
//
//	magic "WSVFD\x00" + version uint16 LE
//	base inode count, base bytes      (of the tree the delta applies to)
//	nextIno
//	result inode count, result bytes  (of the tree it makes)
//	removed count, removed inos (ascending)
//	record count, per changed or new inode (ascending ino):
//	  ino, mode, uid, gid, atime, mtime, ctime (ns), then
//	  regular: size, chunk count, then runs covering exactly that many chunks:
//	             0, n       the next n chunks are the base file's (same index)
//	             L+1, bytes one chunk of L bytes (L = 0: a hole)
//	  dir:     0 = the base directory's entries, unchanged; else
//	           entry count + 1, per entry (sorted): name length + name, child ino
//	  symlink: target length + target
//	  device:  Device
//	trailer: CRC-32C (Castagnoli) of everything before it, uint32 LE
//
// Counts and bytes leave out orphans (unlinked, still open), as Encode
// does. The base counts catch most deltas applied to the wrong tree (one
// skipped or applied twice), the result counts an apply that went wrong;
// link counts are recomputed, as on decode. A changed directory is written
// whole: a new file in a directory of 10,000 entries writes all 10,000 names
// (a metadata-only change to a directory writes none).
const (
	deltaMagic   = "WSVFD\x00"
	deltaVersion = 1
)

// EncodeDelta writes the changes from base to the current tree, and returns
// a snapshot of exactly the tree it wrote, the base for the next delta. The
// tree is captured in O(1) under the lock, as Encode does; the diff then
// costs O(changes × trie depth) plus the changed bytes: it walks the base's
// and the current inode tries side by side and skips every subtree, inode,
// directory map and file chunk they share (copy-on-write keeps what did not
// change the same object, and an object a snapshot holds is never modified,
// so "same pointer" is exact; a copied object that ended up equal is merely
// written again).
//
// base is the tree the receiver holds: the snapshot the previous
// EncodeDelta returned, or one taken after the receiver's last ApplyDelta
// on an FS that continues from it (failover; an FS that Adopted that tree
// too). The delta is right for any base; one that shares nothing with this
// tree only makes it as big as the tree. With a nil base EncodeDelta writes
// the full state, in Encode's format (read it with DecodeBytes).
//
// The FS may change while the delta is written. The returned snapshot is
// not counted toward the byte quota (FS.Held): the caller keeps it only
// until the next checkpoint replaces it.
func (f *FS) EncodeDelta(w io.Writer, base *Snapshot) (*Snapshot, error) {
	t, nextIno := f.capture()
	s := &Snapshot{t: t}
	if base == nil {
		if _, err := encodeTree(w, &s.t, nextIno); err != nil {
			return nil, err
		}
		return s, nil
	}
	removed, changed := diffTrees(&base.t, &s.t)
	e, crc := newEncoder(w, deltaMagic, deltaVersion, 8<<10)
	bi, bb := base.t.visible()
	ri, rb := s.t.visible()
	e.uvarint(uint64(bi))
	e.uvarint(uint64(bb))
	e.uvarint(nextIno)
	e.uvarint(uint64(ri))
	e.uvarint(uint64(rb))
	e.uvarint(uint64(len(removed)))
	for _, ino := range removed {
		e.uvarint(ino)
	}
	e.uvarint(uint64(len(changed)))
	for _, n := range changed {
		e.deltaInode(n, base.t.present(n.ino))
	}
	if _, err := e.finish(w, crc); err != nil {
		return nil, err
	}
	return s, nil
}

// deltaInode writes n's record; old is the base's inode of that number, or
// nil.
func (e *encoder) deltaInode(n, old *inode) {
	e.head(n)
	switch {
	case n.isRegular():
		e.uvarint(uint64(n.size))
		var cur, prev []chunk
		if n.data != nil {
			cur = n.data.chunks
		}
		if old != nil && old.isRegular() && old.data != nil {
			prev = old.data.chunks
		}
		e.uvarint(uint64(len(cur)))
		for i := 0; i < len(cur); {
			run := 0
			for i+run < len(cur) && i+run < len(prev) && sameChunk(cur[i+run], prev[i+run]) {
				run++
			}
			if run > 0 {
				e.uvarint(0)
				e.uvarint(uint64(run))
				i += run
				continue
			}
			e.uvarint(uint64(len(cur[i].b)) + 1)
			e.w.Write(cur[i].b)
			i++
		}
	case n.isDir():
		if old != nil && old.isDir() && old.dir == n.dir {
			e.uvarint(0)
			break
		}
		e.entries(n.dir, 1)
	case n.isSymlink():
		e.str(n.target)
	case n.isDevice():
		e.uvarint(uint64(n.dev))
	}
}

// sameChunk: the bytes of a chunk an older generation holds are never
// written in place (a write copies them first, a truncate only shortens the
// slice), so the same bytes at the same address and length are the same
// content. Holes are never references (a literal hole is one byte).
func sameChunk(a, b chunk) bool {
	return len(a.b) > 0 && len(a.b) == len(b.b) && a.gen == b.gen && &a.b[0] == &b.b[0]
}

// present is the inode numbered ino as Encode sees it: nil for an orphan.
func (t *tree) present(ino uint64) *inode {
	if _, orphan := t.orphans[ino]; orphan {
		return nil
	}
	return t.inodes.get(ino)
}

// visible is the inode count and file bytes Encode writes (orphans left out).
func (t *tree) visible() (inodes, bytes int64) {
	inodes, bytes = t.ninodes, t.bytes
	for ino := range t.orphans {
		if n := t.inodes.get(ino); n != nil {
			inodes--
			if n.isRegular() {
				bytes -= n.size
			}
		}
	}
	return inodes, bytes
}

// treeDiff collects what differs between two tries.
type treeDiff struct {
	base, cur *tree
	removed   []uint64
	changed   []*inode
}

// diffTrees lists the inodes base has and cur does not (removed), and those
// cur has that base has not, or not as the same object (changed), both in
// ascending order, orphans counting as absent.
func diffTrees(base, cur *tree) (removed []uint64, changed []*inode) {
	d := &treeDiff{base: base, cur: cur}
	a, la := base.inodes.root, base.inodes.levels
	b, lb := cur.inodes.root, cur.inodes.levels
	levels := max(la, lb, 1)
	d.inner(lift(a, la, levels), lift(b, lb, levels), levels)
	// Orphans are in the trie but not in the encoding: an inode that became
	// one, or stopped being one, as the same object is a change the walk
	// above does not see. (No operation does that today: unlinking copies
	// the inode first. This keeps the diff right without relying on it.)
	walked := len(d.removed) + len(d.changed)
	for ino := range base.orphans {
		if x := base.inodes.get(ino); x == cur.inodes.get(ino) {
			d.visit(x, x)
		}
	}
	for ino := range cur.orphans {
		if _, both := base.orphans[ino]; !both {
			if x := base.inodes.get(ino); x == cur.inodes.get(ino) {
				d.visit(x, x)
			}
		}
	}
	if len(d.removed)+len(d.changed) != walked {
		slices.Sort(d.removed)
		slices.SortFunc(d.changed, func(x, y *inode) int { return cmp.Compare(x.ino, y.ino) })
	}
	return d.removed, d.changed
}

// lift puts a trie root of the given levels under empty inner nodes (the
// way trie.set grows a trie), so that two tries compare level by level.
func lift(n *trieInner, levels, to int) *trieInner {
	if n == nil {
		return nil
	}
	for ; levels < to; levels++ {
		n = &trieInner{kids: [trieFanout]*trieInner{n}}
	}
	return n
}

func (d *treeDiff) inner(a, b *trieInner, level int) {
	if a == b {
		return
	}
	for i := 0; i < trieFanout; i++ {
		if level == 1 {
			var x, y *trieLeaf
			if a != nil {
				x = a.leaves[i]
			}
			if b != nil {
				y = b.leaves[i]
			}
			d.leaf(x, y)
		} else {
			var x, y *trieInner
			if a != nil {
				x = a.kids[i]
			}
			if b != nil {
				y = b.kids[i]
			}
			d.inner(x, y, level-1)
		}
	}
}

func (d *treeDiff) leaf(a, b *trieLeaf) {
	if a == b {
		return
	}
	for i := 0; i < trieFanout; i++ {
		var x, y *inode
		if a != nil {
			x = a.inos[i]
		}
		if b != nil {
			y = b.inos[i]
		}
		if x != y {
			d.visit(x, y)
		}
	}
}

// visit compares one inode number's base object x and current object y
// (either may be nil).
func (d *treeDiff) visit(x, y *inode) {
	var baseHas, curHas bool
	if x != nil {
		_, orphan := d.base.orphans[x.ino]
		baseHas = !orphan
	}
	if y != nil {
		_, orphan := d.cur.orphans[y.ino]
		curHas = !orphan
	}
	switch {
	case curHas && (!baseHas || x != y):
		d.changed = append(d.changed, y)
	case baseHas && !curHas:
		d.removed = append(d.removed, x.ino)
	}
}

// CheckDelta verifies the envelope of a delta (magic, version and checksum)
// without applying it.
func CheckDelta(raw []byte) error { return checkEnvelope(raw, deltaMagic, deltaVersion, "delta") }

// ApplyDelta applies a delta written by EncodeDelta to this FS, whose tree
// must be the delta's base: a tree DecodeBytes read from the full state,
// then every delta written since applied in order. It validates as
// DecodeBytes does (envelope, every length and number, a tree rooted at "/"
// with every inode reachable; link counts are recomputed, quotas are not
// checked) and fails with an error wrapping ErrCorrupt, leaving the FS as
// it was, on any inconsistency, including a delta whose base counts are not
// this tree's. It never panics on bad input.
//
// The delta's data is O(changes), but the check that the result is still a
// tree walks every inode: O(inodes) per delta, without copying file data.
// A snapshot taken after ApplyDelta is a valid base for EncodeDelta on this
// FS (or on one that adopted its tree).
//
// Like DecodeBytes, it may keep raw's bytes as file contents (when file
// contents make most of raw; otherwise it copies them, so that a small
// change does not pin a large delta): after a successful ApplyDelta the
// caller must not modify raw.
func (f *FS) ApplyDelta(raw []byte) error {
	if err := CheckDelta(raw); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	// Build the new tree in a private FS whose fresh generation owns nothing
	// yet: every change copies, f's tree stays as it was until the swap.
	w := &FS{t: f.t.clone(), gen: newGen(), nextIno: f.nextIno}
	lits, err := w.applyDelta(raw[len(deltaMagic)+2:len(raw)-4], &f.t)
	if err != nil {
		return err
	}
	total := 0
	for _, c := range lits {
		total += len(c.b)
	}
	if total*2 < len(raw) {
		for _, c := range lits {
			c.b = bytes.Clone(c.b)
		}
	}
	f.t, f.nextIno, f.gen = w.t, w.nextIno, w.gen
	f.omu.Lock()
	for ino := range f.fifos {
		if n := f.node(ino); n == nil || !n.isFIFO() {
			delete(f.fifos, ino) // removed or replaced
		}
	}
	f.omu.Unlock()
	return nil
}

// applyDelta applies body to w, whose tree is a clone of old; it returns
// the chunks whose bytes are body's.
func (w *FS) applyDelta(body []byte, old *tree) (lits []*chunk, err error) {
	d := &decoder{b: body}
	bi, bb := d.uvarint(), d.uvarint()
	next := d.uvarint()
	ri, rb := d.uvarint(), d.uvarint()
	if d.err != nil {
		return nil, d.err
	}
	if vi, vb := old.visible(); bi != uint64(vi) || bb != uint64(vb) {
		return nil, fmt.Errorf("%w: delta is for another tree (%d inodes, %d bytes; this one has %d, %d): one missing or applied twice?",
			ErrCorrupt, bi, bb, vi, vb)
	}
	if next > maxNextIno || next <= rootIno {
		return nil, fmt.Errorf("%w: implausible inode counter", ErrCorrupt)
	}
	w.nextIno = max(w.nextIno, next)

	nrem := d.uvarint()
	if nrem > uint64(len(d.b)) {
		d.fail("bad removed count")
		return nil, d.err
	}
	removed := make([]uint64, 0, nrem)
	last := uint64(rootIno)
	for i := uint64(0); i < nrem && d.err == nil; i++ {
		ino := d.uvarint()
		switch {
		case ino == rootIno:
			d.fail("delta removes the root")
		case ino <= last:
			d.fail("removed inodes out of order")
		case old.present(ino) == nil:
			d.fail("delta removes a missing inode")
		}
		last = ino
		removed = append(removed, ino)
		w.t.inodes.set(ino, nil, w.gen)
	}

	nrec := d.uvarint()
	if d.err == nil && nrec > uint64(len(d.b)) {
		d.fail("bad record count")
	}
	last = 0
	for i := uint64(0); i < nrec && d.err == nil; i++ {
		n := d.head(w.gen, last, next)
		if n == nil {
			break
		}
		last = n.ino
		if _, ok := slices.BinarySearch(removed, n.ino); ok {
			d.fail("inode both removed and changed")
			break
		}
		if _, orphan := old.orphans[n.ino]; orphan {
			d.fail("delta changes an unlinked inode") // one this FS made since the base
			break
		}
		prev := old.inodes.get(n.ino)
		switch n.mode.Type() {
		case 0:
			d.fileChunks(n, prev, &lits)
		case fs.ModeDir:
			if k := d.uvarint(); k > 0 {
				n.dir = d.entries(w.gen, k-1)
			} else if prev != nil && prev.isDir() {
				n.dir = prev.dir
			} else {
				d.fail("unchanged entries of a directory the base does not have")
			}
		default:
			d.special(n)
		}
		w.t.inodes.set(n.ino, n, w.gen)
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("trailing data")
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := w.checkTree(); err != nil {
		return nil, err
	}
	if vi, vb := w.t.visible(); ri != uint64(vi) || rb != uint64(vb) {
		return nil, fmt.Errorf("%w: delta made %d inodes, %d bytes; its writer had %d, %d", ErrCorrupt, vi, vb, ri, rb)
	}
	return lits, nil
}

// fileChunks reads a regular file's size and chunk runs into n; prev is the
// inode of that number before the delta (its chunks are the references'),
// or nil. Chunks whose bytes are the delta's are added to lits.
func (d *decoder) fileChunks(n, prev *inode, lits *[]*chunk) {
	size, nch := d.uvarint(), d.uvarint()
	var old []chunk
	if prev != nil && prev.isRegular() && prev.data != nil {
		old = prev.data.chunks
	}
	// Each chunk takes a byte of the delta, or is a reference.
	if size > maxFileSize || nch > (size+chunkSize-1)/chunkSize || nch > uint64(len(old)+len(d.b)) {
		d.fail("bad file size")
		return
	}
	n.size = int64(size)
	if nch == 0 {
		return
	}
	n.data = &fileData{gen: n.gen, chunks: make([]chunk, nch)}
	fits := func(j uint64, l int) bool {
		if int64(j)*chunkSize+int64(l) > n.size {
			d.fail("chunk past end of file")
			return false
		}
		return true
	}
	for j := uint64(0); j < nch && d.err == nil; {
		tag := d.uvarint()
		if tag == 0 {
			run := d.uvarint()
			if run == 0 || run > nch-j || j+run > uint64(len(old)) {
				d.fail("unchanged chunks past the base file's")
				return
			}
			for end := j + run; j < end; j++ {
				c := old[j]
				if len(c.b) == 0 {
					d.fail("unchanged chunk is a hole")
					return
				}
				if !fits(j, len(c.b)) {
					return
				}
				n.data.chunks[j] = c
			}
			continue
		}
		l := tag - 1
		if l > chunkSize || l > uint64(len(d.b)) {
			d.fail("chunk length out of range")
			return
		}
		b := d.b[:l:l]
		d.b = d.b[l:]
		if l > 0 {
			if !fits(j, len(b)) {
				return
			}
			n.data.chunks[j] = chunk{gen: n.gen, b: b}
			*lits = append(*lits, &n.data.chunks[j])
		}
		j++
	}
	return
}
