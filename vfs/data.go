package vfs

import "syscall"

// File contents are split in chunks so that, after a snapshot, writing to
// a big file copies only the chunks it touches. A chunk shorter than
// chunkSize (or missing) reads as zeros past its end: that is how holes and
// truncate-to-grow stay cheap.
const chunkSize = 64 << 10

type chunk struct {
	gen uint64 // owner generation; shared chunks are copied before writing
	b   []byte
}

type fileData struct {
	gen    uint64
	chunks []chunk
}

// mutData returns n's content, writable in this generation (n is writable).
func (f *FS) mutData(n *inode) *fileData {
	d := n.data
	if d == nil {
		d = &fileData{gen: f.gen}
		n.data = d
		return d
	}
	if d.gen != f.gen {
		nd := &fileData{gen: f.gen, chunks: make([]chunk, len(d.chunks), cap(d.chunks))}
		copy(nd.chunks, d.chunks)
		n.data = nd
		return nd
	}
	return d
}

// readAt copies content at off into p, up to the file size; returns the
// count (0 at or past EOF).
func (n *inode) readAt(p []byte, off int64) int {
	if off >= n.size || off < 0 {
		return 0
	}
	end := off + int64(len(p))
	if end > n.size {
		end = n.size
	}
	total := int(end - off)
	i := 0
	for off < end {
		ci, co := off/chunkSize, int(off%chunkSize)
		l := min(chunkSize-co, int(end-off))
		dst := p[i : i+l]
		c := 0
		if n.data != nil && ci < int64(len(n.data.chunks)) {
			if b := n.data.chunks[ci].b; co < len(b) {
				c = copy(dst, b[co:])
			}
		}
		clear(dst[c:])
		i += l
		off += int64(l)
	}
	return total
}

// writeAt stores p at off in the writable regular file n: all or nothing
// (the quota is checked before anything changes).
func (f *FS) writeAt(n *inode, p []byte, off int64, now int64) syscall.Errno {
	if off < 0 {
		return syscall.EINVAL
	}
	end := off + int64(len(p))
	if end > maxFileSize || end < off {
		return syscall.EFBIG
	}
	if len(p) == 0 {
		return 0
	}
	// growth, and chunks an older generation shares that this write copies
	var copied int64
	if n.data != nil {
		first, last := off/chunkSize, (end-1)/chunkSize
		if first < int64(len(n.data.chunks)) {
			copied = f.sharedBytes(n.data.chunks[first:min(last+1, int64(len(n.data.chunks)))])
		}
	}
	if grow := max(end-n.size, 0); grow+copied > 0 {
		if e := f.checkByteQuota(grow + copied); e != 0 {
			return e
		}
	}
	f.t.retained += copied
	d := f.mutData(n)
	if need := int((end-1)/chunkSize) + 1; need > len(d.chunks) {
		d.chunks = append(d.chunks, make([]chunk, need-len(d.chunks))...)
	}
	i := 0
	for off < end {
		ci, co := off/chunkSize, int(off%chunkSize)
		l := min(chunkSize-co, int(end-off))
		c := &d.chunks[ci]
		need := co + l
		if c.gen != f.gen {
			nb := make([]byte, max(len(c.b), need), max(len(c.b), need, min(2*need, chunkSize)))
			copy(nb, c.b)
			c.b, c.gen = nb, f.gen
		} else if need > len(c.b) {
			c.b = growBytes(c.b, need)
		}
		copy(c.b[co:], p[i:i+l])
		i += l
		off += int64(l)
	}
	if end > n.size {
		f.t.bytes += end - n.size
		n.size = end
	}
	n.mtime, n.ctime = now, now
	return 0
}

// growBytes extends b to length need, zeroing the new part (capacity may
// hold stale bytes from before a truncate).
func growBytes(b []byte, need int) []byte {
	if need <= cap(b) {
		old := len(b)
		b = b[:need]
		clear(b[old:])
		return b
	}
	nb := make([]byte, need, min(max(need, 2*cap(b)), chunkSize))
	copy(nb, b)
	return nb
}

// truncate sets the size of writable regular file n.
func (f *FS) truncate(n *inode, size int64, now int64) syscall.Errno {
	if size < 0 {
		return syscall.EINVAL
	}
	if size > maxFileSize {
		return syscall.EFBIG
	}
	if size > n.size {
		if e := f.checkByteQuota(size - n.size); e != 0 {
			return e
		}
	} else if size < n.size && n.data != nil {
		if size == 0 {
			f.t.retained += f.sharedBytes(n.data.chunks)
			n.data = nil
		} else {
			d := f.mutData(n)
			keep := int((size-1)/chunkSize) + 1
			if len(d.chunks) > keep {
				f.t.retained += f.sharedBytes(d.chunks[keep:])
				clear(d.chunks[keep:])
				d.chunks = d.chunks[:keep]
			}
			if co := int(size % chunkSize); co != 0 && keep <= len(d.chunks) {
				if last := &d.chunks[keep-1]; len(last.b) > co {
					last.b = last.b[:co]
				}
			}
		}
	}
	f.t.bytes += size - n.size
	n.size = size
	n.mtime, n.ctime = now, now
	return 0
}
