package vfs

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"strings"
)

// Format (all integers varint-encoded unless noted):
//
//	magic "WSVFS\x00" + version uint16 LE
//	nextIno, inode count
//	per inode, ascending ino: ino, mode, uid, gid, atime, mtime, ctime (ns), then
//	  regular: size, chunk count, per chunk: length + bytes (0 = hole)
//	  dir:     entry count, per entry (sorted): name length + name, child ino
//	  symlink: target length + target
//	  device:  Device
//	trailer: CRC-32C (Castagnoli) of everything before it, uint32 LE
//
// Link counts and usage are recomputed on decode, not trusted.
const (
	encMagic   = "WSVFS\x00"
	encVersion = 1
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

type encoder struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
}

func (e *encoder) uvarint(v uint64) { e.w.Write(e.buf[:binary.PutUvarint(e.buf[:], v)]) }
func (e *encoder) varint(v int64)   { e.w.Write(e.buf[:binary.PutVarint(e.buf[:], v)]) }
func (e *encoder) bytes(b []byte)   { e.uvarint(uint64(len(b))); e.w.Write(b) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.w.WriteString(s) }

// Encode writes the whole tree (not mounts, not open-file state) in a
// deterministic binary format. It encodes from an O(1) snapshot, so the FS
// is only locked for an instant.
func (f *FS) Encode(w io.Writer) error {
	t, nextIno := f.capture()
	_, err := encodeTree(w, &t, nextIno)
	return err
}

// capture copies the tree header for an encode and moves the FS to a fresh
// generation, so that the copy stays immutable while it is written out.
func (f *FS) capture() (tree, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.t.clone()
	f.gen = newGen()
	return t, f.nextIno
}

// newEncoder writes magic and version; finish adds the checksum.
func newEncoder(w io.Writer, magic string, version byte, size int) (*encoder, hash.Hash32) {
	crc := crc32.New(crcTable)
	e := &encoder{w: bufio.NewWriterSize(io.MultiWriter(w, crc), size)}
	e.w.WriteString(magic)
	e.w.Write([]byte{version, 0})
	return e, crc
}

// finish flushes e and writes the CRC trailer, which it returns.
func (e *encoder) finish(w io.Writer, crc hash.Hash32) (uint32, error) {
	if err := e.w.Flush(); err != nil {
		return 0, fmt.Errorf("vfs: encode: %w", err)
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	if _, err := w.Write(sum[:]); err != nil {
		return 0, fmt.Errorf("vfs: encode: %w", err)
	}
	return crc.Sum32(), nil
}

// head writes what both formats store first for an inode: ino, mode,
// owner and times.
func (e *encoder) head(n *inode) {
	e.uvarint(n.ino)
	e.uvarint(uint64(n.mode))
	e.uvarint(uint64(n.uid))
	e.uvarint(uint64(n.gid))
	e.varint(n.atime)
	e.varint(n.mtime)
	e.varint(n.ctime)
}

// entries writes a directory's entry count (plus bias) and its entries,
// sorted by name.
func (e *encoder) entries(d *dirData, bias uint64) {
	names := d.names()
	e.uvarint(uint64(len(names)) + bias)
	for _, nm := range names {
		e.str(nm)
		e.uvarint(d.entries[nm])
	}
}

// encodeTree writes t in the full format (Encode's).
func encodeTree(w io.Writer, t *tree, nextIno uint64) (uint32, error) {
	e, crc := newEncoder(w, encMagic, encVersion, 64<<10)
	e.uvarint(nextIno)
	e.uvarint(uint64(t.ninodes - int64(len(t.orphans))))
	t.inodes.each(func(n *inode) error {
		if _, orphan := t.orphans[n.ino]; orphan {
			return nil
		}
		e.head(n)
		switch {
		case n.isRegular():
			e.uvarint(uint64(n.size))
			if n.data == nil {
				e.uvarint(0)
				break
			}
			e.uvarint(uint64(len(n.data.chunks)))
			for _, c := range n.data.chunks {
				e.bytes(c.b)
			}
		case n.isDir():
			e.entries(n.dir, 0)
		case n.isSymlink():
			e.str(n.target)
		case n.isDevice():
			e.uvarint(uint64(n.dev))
		}
		return nil
	})
	return e.finish(w, crc)
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, what)
	}
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad varint")
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(max int) []byte {
	l := d.uvarint()
	if l > uint64(max) || l > uint64(len(d.b)) {
		d.fail("length out of range")
		d.b = nil
		return nil
	}
	v := d.b[:l]
	d.b = d.b[l:]
	return v
}

// CheckState verifies the envelope of an encoded tree (magic, version and
// checksum) without decoding it, so a store can pick the newest intact copy.
func CheckState(raw []byte) error { return checkEnvelope(raw, encMagic, encVersion, "state") }

func checkEnvelope(raw []byte, magic string, version uint16, what string) error {
	if len(raw) < len(magic)+2+4 || string(raw[:len(magic)]) != magic {
		return fmt.Errorf("%w: not a wasmsand VFS %s (bad magic or too short)", ErrCorrupt, what)
	}
	if v := binary.LittleEndian.Uint16(raw[len(magic):]); v != version {
		return fmt.Errorf("%w: unsupported %s version %d", ErrCorrupt, what, v)
	}
	body, sum := raw[:len(raw)-4], binary.LittleEndian.Uint32(raw[len(raw)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return fmt.Errorf("%w: checksum mismatch (truncated or damaged)", ErrCorrupt)
	}
	return nil
}

// Decode reads a tree written by Encode. A truncated, corrupted or foreign
// input fails with an error wrapping ErrCorrupt; Decode never panics on bad
// input. Quotas in opt are not checked against the loaded usage (only later
// growth is limited).
func Decode(r io.Reader, opt Options) (*FS, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("vfs: decode: %w", err)
	}
	return DecodeBytes(raw, opt)
}

// DecodeBytes is Decode of a state already in memory, which the tree then
// owns: its files' contents are raw's bytes, not copies (a 10 MB state read
// whole and copied again cost ~200 ms of fresh pages on a VM where page
// faults are slow). The caller must not use raw afterwards.
func DecodeBytes(raw []byte, opt Options) (*FS, error) {
	if err := CheckState(raw); err != nil {
		return nil, err
	}
	d := &decoder{b: raw[len(encMagic)+2 : len(raw)-4]}
	f := &FS{opt: opt, gen: newGen(), nextDev: treeDev + 1}
	f.nextIno = d.uvarint()
	if f.nextIno > maxNextIno {
		return nil, fmt.Errorf("%w: implausible inode counter", ErrCorrupt)
	}
	count := d.uvarint()
	if count == 0 || count > uint64(len(d.b)) {
		return nil, fmt.Errorf("%w: bad inode count", ErrCorrupt)
	}
	var last uint64
	for i := uint64(0); i < count && d.err == nil; i++ {
		n := d.head(f.gen, last, f.nextIno)
		if n == nil {
			break
		}
		last = n.ino
		switch n.mode.Type() {
		case 0:
			size := d.uvarint()
			nch := d.uvarint()
			if size > maxFileSize || nch > (size+chunkSize-1)/chunkSize {
				d.fail("bad file size")
				break
			}
			n.size = int64(size)
			if nch > 0 {
				n.data = &fileData{gen: f.gen, chunks: make([]chunk, nch)}
				for j := range n.data.chunks {
					b := d.bytes(chunkSize)
					if len(b) > 0 {
						if int64(j)*chunkSize+int64(len(b)) > n.size {
							d.fail("chunk past end of file")
						}
						// (capped: a chunk that grows is copied, never
						// written past its end into the next one's bytes)
						n.data.chunks[j] = chunk{gen: f.gen, b: b[:len(b):len(b)]}
					}
				}
			}
		case fs.ModeDir:
			n.dir = d.entries(f.gen, d.uvarint())
		default:
			d.special(n)
		}
		f.t.inodes.set(n.ino, n, f.gen)
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("trailing data")
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := f.checkTree(); err != nil {
		return nil, err
	}
	return f, nil
}

// maxNextIno bounds a decoded inode counter.
const maxNextIno = 1 << 40

// head reads an inode's number (above last, below next), mode, owner and
// times; nil after a failure.
func (d *decoder) head(gen, last, next uint64) *inode {
	n := &inode{gen: gen}
	n.ino = d.uvarint()
	if n.ino <= last || n.ino >= next {
		d.fail("inode numbers out of order or out of range")
		return nil
	}
	mode := d.uvarint()
	uid, gid := d.uvarint(), d.uvarint()
	if mode > 1<<32-1 || uid > 1<<32-1 || gid > 1<<32-1 {
		d.fail("bad mode or owner")
		return nil
	}
	n.mode, n.uid, n.gid = fs.FileMode(mode), uint32(uid), uint32(gid)
	n.atime, n.mtime, n.ctime = d.varint(), d.varint(), d.varint()
	if d.err != nil {
		return nil
	}
	return n
}

// entries reads ne directory entries: sorted, valid names, children other
// than 0 and the root (whether they exist is checkTree's to say).
func (d *decoder) entries(gen, ne uint64) *dirData {
	if ne > uint64(len(d.b)) {
		d.fail("bad entry count")
		return nil
	}
	dd := &dirData{gen: gen, entries: make(map[string]uint64, ne)}
	prev := ""
	for j := uint64(0); j < ne && d.err == nil; j++ {
		name := string(d.bytes(maxNameLen))
		child := d.uvarint()
		if !validName(name) || (j > 0 && name <= prev) || child == 0 || child == rootIno {
			d.fail("bad directory entry")
		}
		prev = name
		dd.entries[name] = child
	}
	return dd
}

// special reads what a symlink, device or FIFO stores (nothing for a FIFO).
func (d *decoder) special(n *inode) {
	switch n.mode.Type() {
	case fs.ModeSymlink:
		t := d.bytes(maxPathLen)
		if len(t) == 0 {
			d.fail("empty symlink")
		}
		n.target = string(t)
	case fs.ModeDevice | fs.ModeCharDevice:
		dev := d.uvarint()
		if dev == 0 || dev > uint64(DevTTY) {
			d.fail("bad device")
		}
		n.dev = Device(dev)
	case fs.ModeNamedPipe:
	default:
		d.fail("unknown file type")
	}
}

func validName(s string) bool {
	return s != "" && s != "." && s != ".." && len(s) <= maxNameLen && !strings.ContainsAny(s, "/\x00")
}

// checkTree verifies that the inode graph is a tree of directories rooted at
// "/" with every inode reachable and numbered below f.nextIno (orphans,
// unlinked but open, must stay unreferenced), then sets what derives from
// it: usage, and link counts (copying an inode only if its count changes,
// so an inode shared with a snapshot is never written). O(inodes).
func (f *FS) checkTree() error {
	root := f.node(rootIno)
	if _, orphan := f.t.orphans[rootIno]; root == nil || !root.isDir() || orphan {
		return fmt.Errorf("%w: missing root directory", ErrCorrupt)
	}
	refs := make(map[uint64]uint32, f.t.ninodes)
	var count, bytes, dirs int64
	bad := errors.New("")
	f.t.inodes.each(func(n *inode) error {
		count++
		if n.isRegular() {
			bytes += n.size
		}
		if n.isDir() {
			for _, c := range n.dir.entries {
				refs[c]++
			}
		}
		return nil
	})
	type fix struct {
		ino   uint64
		nlink uint32
	}
	var fixes []fix
	err := f.t.inodes.each(func(n *inode) error {
		r := refs[n.ino]
		if n.ino >= f.nextIno {
			return bad
		}
		if _, orphan := f.t.orphans[n.ino]; orphan {
			if r != 0 {
				return bad
			}
			return nil
		}
		if (n.ino == rootIno) != (r == 0) {
			return bad
		}
		want := r
		if n.isDir() {
			if r > 1 {
				return bad
			}
			dirs++
			want = 2
			for _, c := range n.dir.entries {
				cn := f.node(c)
				if cn == nil {
					return bad
				}
				if cn.isDir() {
					want++
				}
			}
		}
		if n.nlink != want {
			if n.gen == f.gen {
				n.nlink = want // ours (every decoded inode)
			} else {
				fixes = append(fixes, fix{n.ino, want})
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: inode graph is not a tree", ErrCorrupt)
	}
	// Each directory but the root has exactly one parent; all being
	// reachable from the root rules out cycles.
	seen := int64(0)
	stack := []uint64{rootIno}
	for len(stack) > 0 && seen <= dirs {
		n := f.node(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		seen++
		for _, c := range n.dir.entries {
			if cn := f.node(c); cn.isDir() {
				stack = append(stack, c)
			}
		}
	}
	if seen != dirs {
		return fmt.Errorf("%w: unreachable directories", ErrCorrupt)
	}
	for _, x := range fixes {
		f.mut(x.ino).nlink = x.nlink
	}
	f.t.ninodes, f.t.bytes = count, bytes
	return nil
}
