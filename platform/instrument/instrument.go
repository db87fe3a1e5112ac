// Package instrument rewrites a WebAssembly module so that its code calls back into the
// host at regular intervals of its own work: every loop header, and the entry of every
// function that calls another defined function (so loop-free recursion counts too),
// decrements a private i32 global; when it reaches zero the code resets it and calls a new
// imported function, ImportModule.ImportName () -> (). The host uses that call to stop a
// guest whose time is up and, natively, to let Go's scheduler and garbage collector in
// (compiled wasm cannot be preempted by Go). See RATIONALE.md ("Guests are instrumented
// to tick").
//
// The package is pure Go and engine-neutral (it builds with GOOS=js). It decodes every
// instruction of the MVP and of the sign-extension, saturating conversion, bulk memory,
// reference types, multi-value, typed select, tail call, typed function references,
// SIMD (+ relaxed), threads, multi-memory, memory64 and exception handling (legacy and
// try_table) proposals; anything else (an unknown opcode, GC types) is ErrUnsupported.
package instrument

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

const (
	// ImportModule and ImportName name the function the rewritten module imports.
	ImportModule = "wasmsand"
	ImportName   = "tick"

	// Version changes whenever the output for a given input changes; engines put it in
	// their cache keys.
	Version = 5

	// PreinitExport is the export that marks a module as pre-initializable: the engine
	// may snapshot it after calling that function (see platform/native). Such a module
	// gets every mutable global it defines exported as GlobalExportPrefix+index, so
	// that the snapshot can include them.
	PreinitExport      = "wasmsand_preinit"
	GlobalExportPrefix = "wasmsand.global."

	// DefaultInterval is the number of counted events (loop iterations, non-leaf calls)
	// between two ticks. A counted event is at least a few instructions (≥ ~1 ns), and a
	// tick costs one host call (~0.1-0.3 µs on wazero), so 1<<16 keeps the calls below
	// ~0.5% of the work while a busy guest still ticks every ~0.1-5 ms: that bounds how
	// long it can delay a timeout or a stop-the-world GC.
	DefaultInterval = 1 << 16
)

// MemoryImportName is the import (of ImportModule) that a module rewritten with
// Options.ImportMemory takes its memory from.
const MemoryImportName = "memory"

// Options tune Instrument.
type Options struct {
	// Interval is the number of counted events between two ticks; 0 = DefaultInterval.
	Interval uint32
	// ImportMemory turns the module's one defined memory (32-bit, not shared)
	// into an import, ImportModule.MemoryImportName, with the same limits:
	// an engine whose API cannot bound a memory the module defines (the JS
	// WebAssembly API) then provides one with its own maximum. Stats.Memory
	// says whether it was done and with which limits.
	ImportMemory bool
	// ExportGlobals exports every mutable global the module defines as
	// GlobalExportPrefix+index (as for a pre-initializable module), so that
	// an engine can put an instance back to its state after instantiation
	// and run it again (see Stats.Restartable).
	ExportGlobals bool
	// DetachData moves the data section of a module exporting PreinitExport
	// into the custom section DetachedDataSection (see DetachedData) when all
	// its segments are active at constant offsets: the engine then writes
	// them itself. Stats.DetachedData says whether it was done.
	DetachData bool
}

// Stats describe what was rewritten.
type Stats struct {
	Funcs   int // defined functions
	Loops   int // instrumented loop headers
	Entries int // instrumented function entries (functions calling defined functions)
	// Memory is the memory the module now imports (Options.ImportMemory), nil if none.
	Memory *MemoryLimits
	// Restartable: an instance's whole state after instantiation is its
	// memory and the globals ExportGlobals exported, so restoring those
	// makes it as new. False when the module imports a global or a table,
	// or its code writes a table or uses passive segments (table.set/grow/
	// fill/copy/init, elem.drop, memory.init, data.drop), or it was not
	// asked for (ImportMemory and ExportGlobals both needed).
	Restartable bool
	// DetachedData: the data segments are in DetachedDataSection.
	DetachedData bool
}

// MemoryLimits are a memory's limits in 64 KiB pages.
type MemoryLimits struct {
	Min    uint32
	Max    uint32 // when HasMax
	HasMax bool
}

// Instrument rewrites wasm with the default options.
func Instrument(wasm []byte) ([]byte, error) {
	out, _, err := Options{}.Instrument(wasm)
	return out, err
}

// Section ids.
const (
	secCustom    = 0
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secTable     = 4
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secElement   = 9
	secCode      = 10
	secData      = 11
	secDataCount = 12
	secTag       = 13
)

// order is the position a non-custom section must have in a module (tag sits between
// memory and global).
var order = [...]int{
	secType: 1, secImport: 2, secFunction: 3, secTable: 4, secMemory: 5, secTag: 6,
	secGlobal: 7, secExport: 8, secStart: 9, secElement: 10, secDataCount: 11, secCode: 12, secData: 13,
}

type section struct {
	id      byte
	payload []byte
}

// module holds what the rewrite needs to know about the input.
type module struct {
	sections   []section
	nTypes     uint32
	tickType   int64 // index of an existing () -> () type, or -1
	growType   int64 // index of an existing (i32) -> (i32) type, or -1
	nImpFuncs  uint32
	nImpMems   uint32
	nFuncs     uint32 // imported + defined
	nGlobals   uint32 // imported + defined
	nDefGlobal uint32
	typeParams []uint32 // parameter count of each type
	funcTypes  []uint32 // type of each defined function
	preinit    bool     // exports PreinitExport
	memory     *memDef  // the one memory the module defines, when ImportMemory can take it
	// importsState: a table or global is imported (state outside the instance)
	importsState bool
}

// memDef is a defined memory: its limits and their encoding.
type memDef struct {
	limits MemoryLimits
	raw    []byte
}

var header = []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}

// Instrument rewrites wasm; see the package comment. The input is not modified. Malformed
// input gives an error, never a panic; a module this package cannot decode gives an error
// wrapping ErrUnsupported.
func (o Options) Instrument(wasm []byte) (out []byte, st Stats, err error) {
	defer func() {
		if e := failed(recover()); e != nil {
			out, st, err = nil, Stats{}, e
		}
	}()
	if o.Interval == 0 {
		o.Interval = DefaultInterval
	}
	if o.Interval > 1<<30 {
		fail("interval %d too large", o.Interval)
	}
	m := parse(wasm)
	if !o.ImportMemory {
		m.memory = nil
	}
	w := &writer{m: m, interval: o.Interval, exportGlobals: o.ExportGlobals, detachData: o.DetachData && m.preinit}
	out = w.run(len(wasm))
	if m.memory != nil {
		lim := m.memory.limits
		w.stats.Memory = &lim
	}
	w.stats.DetachedData = w.detached
	w.stats.Restartable = o.ExportGlobals && m.memory != nil && !m.importsState && !w.stateOps
	return out, w.stats, nil
}

func parse(wasm []byte) *module {
	if len(wasm) < 8 || !bytes.Equal(wasm[:4], header[:4]) {
		fail("not a WebAssembly module (bad magic)")
	}
	if !bytes.Equal(wasm[4:8], header[4:]) {
		unsupported("binary version %x (components are not modules)", wasm[4:8])
	}
	m := &module{tickType: -1, growType: -1}
	r := reader{b: wasm, pos: 8}
	last := 0
	for !r.eof() {
		id := r.byte()
		payload := r.bytes(r.u32())
		if id > secTag {
			fail("unknown section id %d", id)
		}
		if id != secCustom {
			if order[id] <= last {
				fail("section %d out of order or repeated", id)
			}
			last = order[id]
		}
		m.sections = append(m.sections, section{id, payload})
		switch id {
		case secType:
			m.types(payload)
		case secImport:
			m.imports(payload)
		case secFunction:
			pr := reader{b: payload}
			n := pr.u32()
			if uint64(n) > uint64(len(payload)) {
				fail("function section: count %d too large", n)
			}
			m.nFuncs += n
			m.funcTypes = make([]uint32, n)
			for i := range m.funcTypes {
				m.funcTypes[i] = pr.u32()
			}
			if !pr.eof() {
				fail("function section: trailing bytes")
			}
		case secMemory:
			m.memory = memorySection(payload)
		case secGlobal:
			pr := reader{b: payload}
			m.nDefGlobal = pr.u32()
			m.nGlobals += m.nDefGlobal
		case secExport:
			pr := reader{b: payload}
			for n := pr.u32(); n > 0 && !m.preinit; n-- {
				m.preinit = string(pr.name()) == PreinitExport
				pr.byte()
				pr.u32()
			}
		}
	}
	if m.nFuncs < m.nImpFuncs {
		fail("function count overflow")
	}
	if m.nImpMems > 0 {
		m.memory = nil // a second memory would shift indices
	}
	return m
}

// growSig is the signature (params, results) of the memory_grow import:
// (i32) -> (i32), as memory.grow.
var growSig = []byte{1, 0x7f, 1, 0x7f}

// MemoryGrowName is the function (of ImportModule) that replaces memory.grow
// in a module rewritten with Options.ImportMemory, so that the engine sees
// (and can report) a refused growth: (pages i32) -> (old size or -1 i32).
const MemoryGrowName = "memory_grow"

// memorySection returns the section's memory when it defines exactly one,
// 32-bit and not shared (flags 0 or 1), else nil.
func memorySection(p []byte) *memDef {
	r := reader{b: p}
	if r.u32() != 1 {
		return nil
	}
	start := r.pos
	flags := r.u32()
	if flags > 1 {
		return nil
	}
	d := &memDef{}
	d.limits.Min = r.u32()
	if flags == 1 {
		d.limits.Max, d.limits.HasMax = r.u32(), true
	}
	if !r.eof() {
		return nil
	}
	d.raw = p[start:r.pos]
	return d
}

func (m *module) types(p []byte) {
	r := reader{b: p}
	m.nTypes = r.u32()
	if uint64(m.nTypes) > uint64(len(p)) {
		fail("type section: count %d too large", m.nTypes)
	}
	m.typeParams = make([]uint32, m.nTypes)
	for i := uint32(0); i < m.nTypes; i++ {
		if form := r.byte(); form != 0x60 {
			unsupported("type form 0x%02x (GC types)", form)
		}
		at := r.pos
		np := r.u32()
		for j := uint32(0); j < np; j++ {
			r.valtype()
		}
		m.typeParams[i] = np
		nr := r.u32()
		for j := uint32(0); j < nr; j++ {
			r.valtype()
		}
		if np == 0 && nr == 0 && m.tickType < 0 {
			m.tickType = int64(i)
		}
		if m.growType < 0 && bytes.Equal(r.b[at:r.pos], growSig) {
			m.growType = int64(i)
		}
	}
	if !r.eof() {
		fail("type section: trailing bytes")
	}
}

func (m *module) imports(p []byte) {
	r := reader{b: p}
	n := r.u32()
	for i := uint32(0); i < n; i++ {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0x00: // func
			r.u32()
			m.nImpFuncs++
			m.nFuncs++
		case 0x01: // table
			r.valtype()
			r.limits()
			m.importsState = true
		case 0x02: // memory
			r.limits()
			m.nImpMems++
		case 0x03: // global
			r.valtype()
			r.byte()
			m.nGlobals++
			m.importsState = true
		case 0x04: // tag
			r.byte()
			r.u32()
		default:
			unsupported("import kind 0x%02x", kind)
		}
	}
	if !r.eof() {
		fail("import section: trailing bytes")
	}
}

// writer produces the rewritten module.
type writer struct {
	m             *module
	interval      uint32
	tickFunc      uint32 // = m.nImpFuncs
	growFunc      uint32 // = m.nImpFuncs+1 with ImportMemory (memory.grow becomes a call of it)
	nNew          uint32 // imported functions added: 1 (tick) or 2 (tick, memory_grow)
	growType      uint32
	counter       uint32 // = m.nGlobals (a new global appended to the global section)
	check         []byte // counting on the global (entries of functions without loops)
	stats         Stats
	mutable       []uint32 // indices of the mutable globals the module defines
	exportGlobals bool     // Options.ExportGlobals
	stateOps      bool     // the code writes a table or uses a passive segment
	detachData    bool     // Options.DetachData, for a pre-initializable module
	detached      bool     // the data section went to DetachedDataSection
	out           []byte
	sec           []byte // scratch for a section's payload
	body          []byte // scratch for a function body
	fn            fnFacts
	facts         []facts  // of every defined function, from scanning the code first (entryCounts)
	callees       []uint32 // scratch for the scan: the defined functions a body calls directly
	wrapped       []uint32 // scratch for instrs
}

func (w *writer) run(size int) []byte {
	m := w.m
	w.tickFunc = m.nImpFuncs
	w.nNew = 1
	if m.memory != nil {
		w.growFunc, w.nNew = m.nImpFuncs+1, 2
	}
	w.counter = m.nGlobals
	w.check = w.checkSeq()
	// types the new imports need and the module lacks are appended
	var newTypes []byte
	nTypes := int64(m.nTypes)
	tickType := m.tickType
	if tickType < 0 {
		tickType = nTypes
		nTypes++
		newTypes = append(newTypes, 0x60, 0, 0)
	}
	w.growType = uint32(m.growType)
	if m.memory != nil && m.growType < 0 {
		w.growType = uint32(nTypes)
		nTypes++
		newTypes = append(append(newTypes, 0x60), growSig...)
	}
	nNewTypes := uint32(nTypes - int64(m.nTypes))
	w.out = make([]byte, 0, size+size/8+256)
	w.out = append(w.out, header...)

	// Sections the rewrite needs but the module may lack are created at their place.
	have := map[byte]bool{}
	for _, s := range m.sections {
		have[s.id] = true
	}
	var missing []byte
	for _, id := range []byte{secType, secImport, secGlobal} {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	emitMissing := func(before int) {
		for len(missing) > 0 && order[missing[0]] < before {
			id := missing[0]
			missing = missing[1:]
			w.sec = w.sec[:0]
			switch id {
			case secType:
				w.sec = append(appendU32(w.sec, nNewTypes), newTypes...)
			case secImport:
				w.sec = w.appendImports(w.sec, 0, uint32(tickType))
			case secGlobal:
				w.sec = w.appendGlobal(append(w.sec, 1))
			}
			w.emit(id, w.sec)
		}
	}
	for _, s := range m.sections {
		if s.id != secCustom {
			emitMissing(order[s.id])
		}
		w.sec = w.sec[:0]
		p := s.payload
		switch s.id {
		case secCustom:
			keep, rewritten := w.custom(p)
			if !keep {
				continue
			}
			if rewritten != nil {
				p = rewritten
			}
		case secType:
			if nNewTypes > 0 {
				r := reader{b: p}
				n := r.u32()
				w.sec = appendU32(w.sec, n+nNewTypes)
				w.sec = append(w.sec, p[r.pos:]...)
				p = append(w.sec, newTypes...)
			}
		case secImport:
			r := reader{b: p}
			p = w.appendImports(w.sec, r.u32(), uint32(tickType), p[r.pos:]...)
		case secMemory:
			if m.memory != nil {
				continue // imported instead
			}
		case secTable:
			w.tables(p)
		case secGlobal:
			p = w.globals(p)
		case secExport:
			p = w.exports(p)
		case secStart:
			r := reader{b: p}
			idx := w.funcIdx(r.u32())
			if !r.eof() {
				fail("start section: trailing bytes")
			}
			p = appendU32(w.sec, idx)
		case secElement:
			p = w.elements(p)
		case secData:
			if w.detachData && m.detachable(p) {
				w.sec = appendName(w.sec, DetachedDataSection)
				p = append(w.sec, p...)
				w.detached = true
				w.emit(secCustom, p)
				continue
			}
		case secCode:
			// Written in place (the biggest section): its size goes in a 5-byte LEB128,
			// a valid encoding, patched once the bodies are written.
			w.out = append(w.out, secCode, 0x80, 0x80, 0x80, 0x80, 0x00)
			at := len(w.out)
			w.out = w.code(p, w.out)
			n := uint32(len(w.out) - at)
			if uint64(len(w.out)-at) > 1<<32-1 {
				fail("code section too large")
			}
			for i := 0; i < 4; i++ {
				w.out[at-5+i] = byte(n>>(7*i)) | 0x80
			}
			w.out[at-1] = byte(n >> 28)
			continue
		}
		w.emit(s.id, p)
	}
	emitMissing(100)
	return w.out
}

func (w *writer) emit(id byte, payload []byte) {
	w.out = append(w.out, id)
	w.out = appendU32(w.out, uint32(len(payload)))
	w.out = append(w.out, payload...)
}

// appendImports writes an import section's payload: the module's n imports
// (entries), then the tick function and, with ImportMemory, the memory.
func (w *writer) appendImports(b []byte, n, typ uint32, entries ...byte) []byte {
	if w.m.memory != nil {
		n += 2
	}
	b = appendU32(b, n+1)
	b = append(b, entries...)
	b = appendName(b, ImportModule)
	b = appendName(b, ImportName)
	b = append(b, 0x00)
	b = appendU32(b, typ)
	if w.m.memory != nil {
		b = appendName(b, ImportModule)
		b = appendName(b, MemoryGrowName)
		b = append(b, 0x00)
		b = appendU32(b, w.growType)
		b = appendName(b, ImportModule)
		b = appendName(b, MemoryImportName)
		b = append(b, 0x02)
		b = append(b, w.m.memory.raw...)
	}
	return b
}

func (w *writer) appendGlobal(b []byte) []byte {
	b = append(b, 0x7f, 0x01, 0x41) // mut i32, i32.const
	b = appendS32(b, int32(w.interval))
	return append(b, 0x0b)
}

// checkSeq is the code inserted at the entry of a function that calls but has no loop:
//
//	global.get $c, i32.const 1, i32.sub, global.set $c
//	global.get $c, i32.eqz, if, call $tick, i32.const N, global.set $c, end
//
// (wazero forwards the stored value to the second global.get; the code is stack-neutral,
// so it is valid wherever an instruction may start.) Functions with loops count in a
// local instead, see function.
func (w *writer) checkSeq() []byte {
	var b []byte
	g := appendU32(nil, w.counter)
	b = append(b, 0x23)
	b = append(b, g...)
	b = append(b, 0x41, 0x01, 0x6b, 0x24)
	b = append(b, g...)
	b = append(b, 0x23)
	b = append(b, g...)
	b = append(b, 0x45, 0x04, 0x40, 0x10)
	b = appendU32(b, w.tickFunc)
	b = append(b, 0x41)
	b = appendS32(b, int32(w.interval))
	b = append(b, 0x24)
	b = append(b, g...)
	return append(b, 0x0b)
}

// funcIdx maps an old function index to the new one: defined functions move up by one
// to make room for the import.
func (w *writer) funcIdx(i uint32) uint32 {
	if i >= w.m.nFuncs {
		fail("function index %d out of range (%d functions)", i, w.m.nFuncs)
	}
	if i >= w.m.nImpFuncs {
		return i + w.nNew
	}
	return i
}

// custom decides the fate of a custom section: the name section is renumbered; DWARF and
// code metadata describe code offsets the rewrite moves, so they are dropped.
func (w *writer) custom(p []byte) (keep bool, rewritten []byte) {
	r := reader{b: p}
	name := r.name()
	switch {
	case string(name) == "name":
		return true, w.names(p, r.pos)
	case bytes.HasPrefix(name, []byte(".debug_")), bytes.HasPrefix(name, []byte("metadata.code.")),
		string(name) == "sourceMappingURL", string(name) == "external_debug_info":
		return false, nil
	}
	return true, nil
}

// names renumbers the function indices of the "name" section: function names (1),
// local names (2) and labels (3); other subsections are copied.
func (w *writer) names(p []byte, start int) []byte {
	out := append(w.sec[:0], p[:start]...)
	r := reader{b: p, pos: start}
	var sub []byte
	for !r.eof() {
		id := r.byte()
		data := r.bytes(r.u32())
		if id < 1 || id > 3 {
			out = append(out, id)
			out = appendU32(out, uint32(len(data)))
			out = append(out, data...)
			continue
		}
		sub = sub[:0]
		sr := reader{b: data}
		n := sr.u32()
		sub = appendU32(sub, n)
		for i := uint32(0); i < n; i++ {
			sub = appendU32(sub, w.funcIdx(sr.u32()))
			from := sr.pos
			if id == 1 {
				sr.name()
				sub = append(sub, data[from:sr.pos]...)
				continue
			}
			m := sr.u32()
			for j := uint32(0); j < m; j++ {
				sr.u32()
				sr.name()
			}
			sub = append(sub, data[from:sr.pos]...)
		}
		if !sr.eof() {
			fail("name subsection %d: trailing bytes", id)
		}
		out = append(out, id)
		out = appendU32(out, uint32(len(sub)))
		out = append(out, sub...)
	}
	w.sec = out
	return out
}

// tables refuses table initializer expressions (function references proposal), which
// could hold ref.func.
func (w *writer) tables(p []byte) {
	r := reader{b: p}
	n := r.u32()
	for i := uint32(0); i < n; i++ {
		if r.byte() == 0x40 {
			unsupported("table initializer expressions")
		}
		r.pos--
		r.valtype()
		r.limits()
	}
	if !r.eof() {
		fail("table section: trailing bytes")
	}
}

func (w *writer) globals(p []byte) []byte {
	r := reader{b: p}
	n := r.u32()
	out := appendU32(w.sec[:0], n+1)
	for i := uint32(0); i < n; i++ {
		from := r.pos
		r.valtype()
		if r.byte() == 1 {
			w.mutable = append(w.mutable, w.m.nGlobals-w.m.nDefGlobal+i)
		}
		out = append(out, p[from:r.pos]...)
		out = w.expr(&r, out)
	}
	if !r.eof() {
		fail("global section: trailing bytes")
	}
	out = w.appendGlobal(out)
	w.sec = out
	return out
}

func (w *writer) exports(p []byte) []byte {
	r := reader{b: p}
	n := r.u32()
	var extra []uint32
	if w.m.preinit || w.exportGlobals {
		extra = w.mutable
	}
	out := appendU32(w.sec[:0], n+uint32(len(extra)))
	for _, g := range extra {
		out = appendName(out, GlobalExportPrefix+strconv.FormatUint(uint64(g), 10))
		out = append(out, 0x03)
		out = appendU32(out, g)
	}
	for i := uint32(0); i < n; i++ {
		from := r.pos
		r.name()
		kind := r.byte()
		out = append(out, p[from:r.pos]...)
		idx := r.u32()
		switch kind {
		case 0x00:
			idx = w.funcIdx(idx)
		case 0x03:
			if idx >= w.m.nGlobals {
				fail("exported global %d out of range", idx)
			}
		}
		out = appendU32(out, idx)
	}
	if !r.eof() {
		fail("export section: trailing bytes")
	}
	w.sec = out
	return out
}

func (w *writer) elements(p []byte) []byte {
	r := reader{b: p}
	n := r.u32()
	out := appendU32(w.sec[:0], n)
	for i := uint32(0); i < n; i++ {
		flags := r.u32()
		if flags > 7 {
			fail("element segment flags %d", flags)
		}
		out = appendU32(out, flags)
		if flags&3 == 2 { // active with a table index
			out = appendU32(out, r.u32())
		}
		if flags&1 == 0 { // active: offset expression
			out = w.expr(&r, out)
		}
		if flags&3 != 0 { // elemkind (funcidx form) or reftype (expression form)
			from := r.pos
			if flags&4 != 0 {
				r.valtype()
			} else {
				r.byte()
			}
			out = append(out, p[from:r.pos]...)
		}
		m := r.u32()
		out = appendU32(out, m)
		for j := uint32(0); j < m; j++ {
			if flags&4 != 0 {
				out = w.expr(&r, out)
			} else {
				out = appendU32(out, w.funcIdx(r.u32()))
			}
		}
	}
	if !r.eof() {
		fail("element section: trailing bytes")
	}
	w.sec = out
	return out
}

// expr copies a constant expression up to its end, renumbering ref.func.
func (w *writer) expr(r *reader, out []byte) []byte {
	return w.instrs(r, out, modeExpr)
}

func (w *writer) code(p, out []byte) []byte {
	r := reader{b: p}
	n := r.u32()
	if n != w.m.nFuncs-w.m.nImpFuncs {
		fail("code section has %d bodies for %d functions", n, w.m.nFuncs-w.m.nImpFuncs)
	}
	w.stats.Funcs = int(n)
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i] = r.bytes(r.u32())
	}
	if !r.eof() {
		fail("code section: trailing bytes")
	}
	w.entryCounts(bodies)
	out = appendU32(out, n)
	for i, body := range bodies {
		w.body = w.function(i, body, w.body[:0])
		out = appendU32(out, uint32(len(w.body)))
		out = append(out, w.body...)
	}
	return out
}

func (w *writer) String() string { return fmt.Sprintf("%+v", w.stats) }

// PreinitGlobals lists the names under which an instrumented module exports its mutable
// globals (GlobalExportPrefix+index; none unless it exports PreinitExport).
func PreinitGlobals(instrumented []byte) (names []string) {
	defer func() {
		if failed(recover()) != nil {
			names = nil
		}
	}()
	for _, s := range parse(instrumented).sections {
		if s.id != secExport {
			continue
		}
		r := reader{b: s.payload}
		for n := r.u32(); n > 0; n-- {
			name := string(r.name())
			if r.byte() == 0x03 && strings.HasPrefix(name, GlobalExportPrefix) {
				names = append(names, name)
			}
			r.u32()
		}
	}
	return names
}
