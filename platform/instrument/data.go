package instrument

import "fmt"

// Detached data (Options.DetachData). Instantiating a module copies its active data
// segments into a fresh memory: for CPython, 3.5 MB written page by page on every run,
// ~12 ms here, before a pre-initialized image overwrites much of it again. A module whose
// segments are detached instantiates with an empty memory; the engine writes the data
// itself, together with the image, into memory it may reuse (platform/native).

// DetachedDataSection names the custom section that holds the detached data section's
// payload, unchanged.
const DetachedDataSection = "wasmsand.data"

// Segment is an active data segment: Data goes at Offset of memory 0.
type Segment struct {
	Offset uint32
	Data   []byte
}

// detachable: every segment of the data section p is active, for memory 0, at an
// i32.const offset, and no data count section lets code name a segment.
func (m *module) detachable(p []byte) bool {
	for _, s := range m.sections {
		if s.id == secDataCount {
			return false
		}
	}
	_, err := segments(p)
	return err == nil
}

// segments decodes a data section whose segments are all active at constant offsets.
func segments(p []byte) (segs []Segment, err error) {
	defer func() {
		if e := failed(recover()); e != nil {
			segs, err = nil, e
		}
	}()
	r := reader{b: p}
	n := r.u32()
	if uint64(n) > uint64(len(p)) {
		fail("data section: count %d too large", n)
	}
	for ; n > 0; n-- {
		if flag := r.u32(); flag != 0 {
			fail("data segment kind %d is not active in memory 0", flag)
		}
		if r.byte() != 0x41 {
			fail("data segment offset is not i32.const")
		}
		off := r.s33()
		if off < -1<<31 || off >= 1<<31 || r.byte() != 0x0b {
			fail("data segment offset is not one i32.const")
		}
		data := r.bytes(r.u32())
		segs = append(segs, Segment{uint32(int32(off)), data})
	}
	if !r.eof() {
		fail("data section: trailing bytes")
	}
	return segs, nil
}

// DetachedData returns the segments an instrumented module keeps in its
// DetachedDataSection; ok is false when it has none. The segments share
// the module's bytes.
func DetachedData(instrumented []byte) (segs []Segment, ok bool, err error) {
	defer func() {
		if e := failed(recover()); e != nil {
			segs, ok, err = nil, false, e
		}
	}()
	r := reader{b: instrumented, pos: len(header)}
	for !r.eof() {
		id := r.byte()
		payload := r.bytes(r.u32())
		if id != secCustom {
			continue
		}
		pr := reader{b: payload}
		if string(pr.name()) != DetachedDataSection {
			continue
		}
		segs, err = segments(payload[pr.pos:])
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", DetachedDataSection, err)
		}
		return segs, true, nil
	}
	return nil, false, nil
}
