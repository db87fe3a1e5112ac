package wasi

import "encoding/binary"

// Memory is the guest's linear memory as the host functions see it. Its method set is a
// subset of wazero's api.Memory (same signatures), so the native binding can pass wazero's
// memory almost as is; platform/js implements it with //go:wasmimport copies in
// and out of the guest instance's memory.
//
// Read, Write and the integer accessors report false when any byte is out of range (no
// 32-bit wraparound). Read may return a view into guest memory (native) or a copy (js). Host code that fills
// a slice obtained from Read must therefore always publish it with Write(off, b); a native
// binding may detect that b already is the view and skip the copy.
type Memory interface {
	Size() uint32
	Read(offset, byteCount uint32) ([]byte, bool)
	Write(offset uint32, v []byte) bool
	ReadUint32Le(offset uint32) (uint32, bool)
	WriteUint32Le(offset, v uint32) bool
	ReadUint64Le(offset uint32) (uint64, bool)
	WriteUint64Le(offset uint32, v uint64) bool
}

// SliceMemory is a Memory over a plain byte slice, with views like wazero's. Tests use it to
// call host functions without an engine.
type SliceMemory struct{ Buf []byte }

func (m *SliceMemory) Size() uint32 { return uint32(len(m.Buf)) }

func (m *SliceMemory) has(off, n uint32) bool { return uint64(off)+uint64(n) <= uint64(len(m.Buf)) }

func (m *SliceMemory) Read(off, n uint32) ([]byte, bool) {
	if !m.has(off, n) {
		return nil, false
	}
	return m.Buf[off : off+n : off+n], true
}

func (m *SliceMemory) Write(off uint32, v []byte) bool {
	if !m.has(off, uint32(len(v))) || uint64(len(v)) > uint64(^uint32(0)) {
		return false
	}
	copy(m.Buf[off:], v)
	return true
}

func (m *SliceMemory) ReadUint32Le(off uint32) (uint32, bool) {
	if !m.has(off, 4) {
		return 0, false
	}
	return binary.LittleEndian.Uint32(m.Buf[off:]), true
}

func (m *SliceMemory) WriteUint32Le(off, v uint32) bool {
	if !m.has(off, 4) {
		return false
	}
	binary.LittleEndian.PutUint32(m.Buf[off:], v)
	return true
}

func (m *SliceMemory) ReadUint64Le(off uint32) (uint64, bool) {
	if !m.has(off, 8) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(m.Buf[off:]), true
}

func (m *SliceMemory) WriteUint64Le(off uint32, v uint64) bool {
	if !m.has(off, 8) {
		return false
	}
	binary.LittleEndian.PutUint64(m.Buf[off:], v)
	return true
}

var le = binary.LittleEndian

// Copier is implemented by a Memory whose Read returns a copy (platform/js):
// host code that only fills a buffer then skips copying the guest's bytes in.
type Copier interface{ ReadCopies() bool }

// inRange checks that [off, off+n) is in guest memory, without reading it.
func inRange(m Memory, off, n uint32) bool { return uint64(off)+uint64(n) <= uint64(m.Size()) }

// outBuffer returns a buffer for host code to fill and publish with
// Write(off, b[:k]): a view of guest memory where the engine gives views,
// else p's scratch buffer (nothing retains it past the call).
func outBuffer(p *Proc, m Memory, off, n uint32) ([]byte, bool) {
	if c, ok := m.(Copier); !ok || !c.ReadCopies() {
		return m.Read(off, n)
	}
	if !inRange(m, off, n) {
		return nil, false
	}
	if n > maxScratch {
		return make([]byte, n), true
	}
	if uint32(cap(p.scratch)) < n {
		p.scratch = make([]byte, max(n, 64<<10))
	}
	return p.scratch[:n], true
}

// maxScratch bounds the buffer a Proc keeps for outBuffer.
const maxScratch = 1 << 20

// readBytes reads n bytes at off as a view or copy; false (EFAULT) when out of range.
// Memory.Read must itself check off+n without 32-bit overflow (wazero's does).
func readBytes(m Memory, off, n uint32) ([]byte, bool) { return m.Read(off, n) }

// readString copies a guest string (path, argv...) so it outlives later memory writes.
func readString(m Memory, off, n uint32) (string, bool) {
	b, ok := readBytes(m, off, n)
	if !ok {
		return "", false
	}
	return string(b), true
}

// mulSize returns count*size as uint32, or false if it overflows the 32-bit address space.
func mulSize(count, size uint32) (uint32, bool) {
	v := uint64(count) * uint64(size)
	if v > uint64(^uint32(0)) {
		return 0, false
	}
	return uint32(v), true
}
