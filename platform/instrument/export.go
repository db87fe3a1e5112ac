package instrument

import "strconv"

// ExportGlobals returns wasm with every mutable global it defines exported as
// GlobalExportPrefix+index, and nothing else changed (no ticks): for a module
// whose state after start-up is snapshotted and put back into a new instance,
// as the GOOS=js core's (jsapi/coreinit.js). Malformed input gives an error.
func ExportGlobals(wasm []byte) (out []byte, err error) {
	defer func() {
		if e := failed(recover()); e != nil {
			out, err = nil, e
		}
	}()
	m := parse(wasm)
	w := &writer{m: m}
	var mutable []uint32
	for _, s := range m.sections {
		if s.id != secGlobal {
			continue
		}
		r := reader{b: s.payload}
		n := r.u32()
		for i := uint32(0); i < n; i++ {
			r.valtype()
			if r.byte() == 1 {
				mutable = append(mutable, m.nGlobals-m.nDefGlobal+i)
			}
			w.expr(&r, nil)
		}
	}
	hasExports := false
	out = append(out, header...)
	emit := func(id byte, payload []byte) {
		out = append(out, id)
		out = appendU32(out, uint32(len(payload)))
		out = append(out, payload...)
	}
	exports := func(p []byte) []byte {
		r := reader{b: p}
		n := uint32(0)
		if len(p) > 0 {
			n = r.u32()
		}
		b := appendU32(nil, n+uint32(len(mutable)))
		b = append(b, p[r.pos:]...)
		for _, g := range mutable {
			b = appendName(b, GlobalExportPrefix+strconv.FormatUint(uint64(g), 10))
			b = append(b, 0x03)
			b = appendU32(b, g)
		}
		return b
	}
	for _, s := range m.sections {
		if s.id != secCustom && order[s.id] > order[secExport] && !hasExports {
			emit(secExport, exports(nil))
			hasExports = true
		}
		if s.id == secExport {
			emit(secExport, exports(s.payload))
			hasExports = true
			continue
		}
		emit(s.id, s.payload)
	}
	if !hasExports {
		emit(secExport, exports(nil))
	}
	return out, nil
}
