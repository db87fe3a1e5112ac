package instrument

import (
	"errors"
	"fmt"
)

// ErrUnsupported wraps the errors for modules that may be valid but use something this
// package does not decode (an unknown opcode, GC types, table initializers...): the
// engine then runs the module without instrumentation. Other errors mean malformed bytes.
var ErrUnsupported = errors.New("unsupported by the instrumenter")

// failure is the panic value of the decoder; Instrument recovers only this type, so a bug
// (an index out of range) still surfaces as a panic in tests and fuzzing.
type failure struct{ err error }

// failed is the error of a recovered failure (nil when nothing was
// recovered); anything else panics on.
func failed(r any) error {
	if r == nil {
		return nil
	}
	f, ok := r.(failure)
	if !ok {
		panic(r)
	}
	return f.err
}

func fail(format string, args ...any) {
	panic(failure{fmt.Errorf("instrument: "+format, args...)})
}

func unsupported(format string, args ...any) {
	panic(failure{fmt.Errorf("instrument: %w: "+format, append([]any{ErrUnsupported}, args...)...)})
}

// reader decodes a byte slice; every method checks bounds and fails (panics with failure)
// on truncated or malformed input.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) eof() bool { return r.pos >= len(r.b) }

func (r *reader) byte() byte {
	if r.pos >= len(r.b) {
		r.end()
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

// end fails at the end of the data (out of line, so that byte inlines).
//
//go:noinline
func (r *reader) end() { fail("unexpected end of data at offset %d", r.pos) }

func (r *reader) bytes(n uint32) []byte {
	if uint64(n) > uint64(len(r.b)-r.pos) {
		fail("length %d past the end of data at offset %d", n, r.pos)
	}
	s := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s
}

func (r *reader) skip(n int) {
	if n > len(r.b)-r.pos {
		fail("unexpected end of data at offset %d", r.pos)
	}
	r.pos += n
}

// u32 reads an unsigned LEB128 of at most 5 bytes.
func (r *reader) u32() uint32 {
	if p := r.pos; p < len(r.b) { // the common one-byte case, inlined
		if c := r.b[p]; c < 0x80 {
			r.pos = p + 1
			return uint32(c)
		}
	}
	return r.u32slow()
}

func (r *reader) u32slow() uint32 {
	b, p := r.b, r.pos
	var v uint32
	for shift := uint(0); ; shift += 7 {
		if p >= len(b) {
			fail("unexpected end of data in a LEB128 at offset %d", p)
		}
		c := b[p]
		p++
		if shift == 28 {
			if c > 0x0f {
				fail("u32 LEB128 overflow at offset %d", p-1)
			}
			r.pos = p
			return v | uint32(c)<<28
		}
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			r.pos = p
			return v
		}
	}
}

// leb skips a (signed or unsigned) LEB128 of at most max bytes.
func (r *reader) leb(max int) {
	if p := r.pos; p < len(r.b) { // one byte, inlined
		if r.b[p] < 0x80 {
			r.pos = p + 1
			return
		}
	}
	r.lebslow(max)
}

func (r *reader) lebslow(max int) {
	b, p := r.b, r.pos
	for i := 0; i < max; i++ {
		if p >= len(b) {
			fail("unexpected end of data in a LEB128 at offset %d", p)
		}
		c := b[p]
		p++
		if c < 0x80 {
			r.pos = p
			return
		}
	}
	fail("LEB128 longer than %d bytes at offset %d", max, r.pos)
}

// s33 reads a signed LEB128 of at most 5 bytes (block types, heap types).
func (r *reader) s33() int64 {
	var v int64
	var shift uint
	for i := 0; ; i++ {
		if i == 5 {
			fail("s33 LEB128 too long at offset %d", r.pos)
		}
		c := r.byte()
		v |= int64(c&0x7f) << shift
		shift += 7
		if c < 0x80 {
			if c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

// name skips a length-prefixed UTF-8 name (validity is the engine's business).
func (r *reader) name() []byte { return r.bytes(r.u32()) }

// Value types that carry a heap type immediate (typed function references / GC).
const (
	refNull = 0x63
	ref     = 0x64
)

// valtype skips a value type: one byte, or 0x63/0x64 followed by a heap type.
func (r *reader) valtype() {
	switch c := r.byte(); c {
	case refNull, ref:
		r.s33()
	default:
		if c >= 0x80 {
			fail("bad value type 0x%02x at offset %d", c, r.pos-1)
		}
	}
}

// blocktype skips a block type: 0x40, a value type or an s33 type index.
func (r *reader) blocktype() {
	c := r.byte()
	switch {
	case c == refNull || c == ref:
		r.s33()
	case c >= 0x40 && c < 0x80: // a one-byte negative s33: empty or a value type
	default: // a type index (multi-value)
		r.pos--
		if r.s33() < 0 {
			fail("bad block type at offset %d", r.pos)
		}
	}
}

// limits skips memory or table limits: flags, min, max if flags&1, page size if flags&8.
// Minimum and maximum are read as u64 (memory64/table64).
func (r *reader) limits() {
	flags := r.u32()
	if flags > 0x0f {
		unsupported("limits flags 0x%x", flags)
	}
	r.leb(10)
	if flags&1 != 0 {
		r.leb(10)
	}
	if flags&8 != 0 { // custom page sizes
		r.u32()
	}
}

// memarg skips a memory immediate: align (bit 6: a memory index follows), then offset.
func (r *reader) memarg() {
	align := r.u32()
	if align&0x40 != 0 {
		r.u32()
	}
	r.leb(10)
}

// Appending LEB128s.

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendS32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func appendName(b []byte, s string) []byte {
	b = appendU32(b, uint32(len(s)))
	return append(b, s...)
}
