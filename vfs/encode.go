package vfs

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
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
	f.mu.Lock()
	t := f.t.clone()
	nextIno := f.nextIno
	f.gen = newGen()
	f.mu.Unlock()

	crc := crc32.New(crcTable)
	e := &encoder{w: bufio.NewWriterSize(io.MultiWriter(w, crc), 64<<10)}
	e.w.WriteString(encMagic)
	e.w.Write([]byte{encVersion, 0})
	e.uvarint(nextIno)
	e.uvarint(uint64(t.ninodes - int64(len(t.orphans))))
	err := t.inodes.each(func(n *inode) error {
		if _, orphan := t.orphans[n.ino]; orphan {
			return nil
		}
		e.uvarint(n.ino)
		e.uvarint(uint64(n.mode))
		e.uvarint(uint64(n.uid))
		e.uvarint(uint64(n.gid))
		e.varint(n.atime)
		e.varint(n.mtime)
		e.varint(n.ctime)
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
			names := n.dir.names()
			e.uvarint(uint64(len(names)))
			for _, nm := range names {
				e.str(nm)
				e.uvarint(n.dir.entries[nm])
			}
		case n.isSymlink():
			e.str(n.target)
		case n.isDevice():
			e.uvarint(uint64(n.dev))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := e.w.Flush(); err != nil {
		return fmt.Errorf("vfs: encode: %w", err)
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc.Sum32())
	if _, err := w.Write(sum[:]); err != nil {
		return fmt.Errorf("vfs: encode: %w", err)
	}
	return nil
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
func CheckState(raw []byte) error {
	if len(raw) < len(encMagic)+2+4 || !strings.HasPrefix(string(raw[:len(encMagic)]), encMagic) {
		return fmt.Errorf("%w: not a wasmsand VFS state (bad magic or too short)", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint16(raw[len(encMagic):]); v != encVersion {
		return fmt.Errorf("%w: unsupported version %d", ErrCorrupt, v)
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
	if f.nextIno > 1<<40 {
		return nil, fmt.Errorf("%w: implausible inode counter", ErrCorrupt)
	}
	count := d.uvarint()
	if count == 0 || count > uint64(len(d.b)) {
		return nil, fmt.Errorf("%w: bad inode count", ErrCorrupt)
	}
	var last uint64
	refs := map[uint64]uint32{}
	for i := uint64(0); i < count && d.err == nil; i++ {
		n := &inode{gen: f.gen}
		n.ino = d.uvarint()
		if n.ino <= last || n.ino >= f.nextIno {
			d.fail("inode numbers out of order")
			break
		}
		last = n.ino
		mode := d.uvarint()
		uid, gid := d.uvarint(), d.uvarint()
		if mode > 1<<32-1 || uid > 1<<32-1 || gid > 1<<32-1 {
			d.fail("bad mode or owner")
			break
		}
		n.mode, n.uid, n.gid = fs.FileMode(mode), uint32(uid), uint32(gid)
		n.atime, n.mtime, n.ctime = d.varint(), d.varint(), d.varint()
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
			f.t.bytes += n.size
		case fs.ModeDir:
			ne := d.uvarint()
			if ne > uint64(len(d.b)) {
				d.fail("bad entry count")
				break
			}
			n.dir = &dirData{gen: f.gen, entries: make(map[string]uint64, ne)}
			prev := ""
			for j := uint64(0); j < ne && d.err == nil; j++ {
				name := string(d.bytes(maxNameLen))
				child := d.uvarint()
				if !validName(name) || (j > 0 && name <= prev) || child == 0 || child == rootIno {
					d.fail("bad directory entry")
				}
				prev = name
				n.dir.entries[name] = child
				refs[child]++
			}
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
		f.t.inodes.set(n.ino, n, f.gen)
		f.t.ninodes++
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("trailing data")
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := f.checkDecoded(refs); err != nil {
		return nil, err
	}
	return f, nil
}

func validName(s string) bool {
	return s != "" && s != "." && s != ".." && len(s) <= maxNameLen && !strings.ContainsAny(s, "/\x00")
}

// checkDecoded verifies the inode graph is a tree of directories rooted at
// "/" with every inode reachable, and recomputes link counts.
func (f *FS) checkDecoded(refs map[uint64]uint32) error {
	root := f.node(rootIno)
	if root == nil || !root.isDir() {
		return fmt.Errorf("%w: missing root directory", ErrCorrupt)
	}
	bad := errors.New("")
	err := f.t.inodes.each(func(n *inode) error {
		r := refs[n.ino]
		if n.ino != rootIno && r == 0 {
			return bad
		}
		if n.isDir() {
			if n.ino != rootIno && r != 1 {
				return bad
			}
			n.nlink = 2
			for _, c := range n.dir.entries {
				cn := f.node(c)
				if cn == nil {
					return bad
				}
				if cn.isDir() {
					n.nlink++
				}
			}
		} else {
			n.nlink = r
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%w: inode graph is not a tree", ErrCorrupt)
	}
	// Each directory has exactly one parent; all being reachable from the
	// root rules out cycles.
	seen := int64(0)
	stack := []uint64{rootIno}
	for len(stack) > 0 && seen <= f.t.ninodes {
		n := f.node(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		seen++
		if n.isDir() {
			for _, c := range n.dir.entries {
				if cn := f.node(c); cn.isDir() {
					stack = append(stack, c)
				}
			}
		}
	}
	dirs := int64(0)
	f.t.inodes.each(func(n *inode) error {
		if n.isDir() {
			dirs++
		}
		return nil
	})
	if seen != dirs {
		return fmt.Errorf("%w: unreachable directories", ErrCorrupt)
	}
	return nil
}
