package instrument

// kind is what follows an opcode byte.
type kind uint8

const (
	kBad        kind = iota // not an opcode we know
	kNone                   // no immediate
	kBlock                  // block type (block, if, try)
	kLoop                   // block type; the check goes after it
	kEnd                    // end
	kDelegate               // delegate: label, ends a try
	kU32                    // one u32 (labels, locals, tables, tags, memories)
	kBrTable                // vec(label) label
	kBr                     // br, br_if, br_on_null, br_on_non_null: label
	kReturn                 // return
	kCall                   // call: function index
	kReturnCall             // return_call: function index
	kRefFunc                // ref.func: function index
	kIndirect               // call_indirect, return_call_indirect: type, table
	kCallRef                // call_ref, return_call_ref: type
	kGlobal                 // global.get/set: global index
	kMemarg                 // loads and stores
	kS32                    // i32.const
	kS64                    // i64.const
	kF32                    // f32.const
	kF64                    // f64.const
	kSelectT                // typed select: vec(valtype)
	kHeapType               // ref.null
	kTryTable               // try_table: block type, vec(catch)
	kFC                     // 0xFC prefix (saturating conversions, bulk memory, tables)
	kFD                     // 0xFD prefix (SIMD)
	kFE                     // 0xFE prefix (threads)
)

var kinds = func() (t [256]kind) {
	set := func(k kind, ops ...int) {
		for _, op := range ops {
			t[op] = k
		}
	}
	span := func(k kind, from, to int) {
		for op := from; op <= to; op++ {
			t[op] = k
		}
	}
	set(kNone, 0x00, 0x01, 0x05, 0x0a, 0x19, 0x1a, 0x1b, 0xd1, 0xd3, 0xd4)
	set(kReturn, 0x0f)
	set(kBlock, 0x02, 0x04, 0x06)
	set(kLoop, 0x03)
	set(kU32, 0x07, 0x08, 0x09, 0x20, 0x21, 0x22, 0x25, 0x26, 0x3f, 0x40)
	set(kBr, 0x0c, 0x0d, 0xd5, 0xd6)
	set(kEnd, 0x0b)
	set(kBrTable, 0x0e)
	set(kCall, 0x10)
	set(kIndirect, 0x11, 0x13)
	set(kReturnCall, 0x12)
	set(kCallRef, 0x14, 0x15)
	set(kDelegate, 0x18)
	set(kSelectT, 0x1c)
	set(kTryTable, 0x1f)
	set(kGlobal, 0x23, 0x24)
	span(kMemarg, 0x28, 0x3e)
	set(kS32, 0x41)
	set(kS64, 0x42)
	set(kF32, 0x43)
	set(kF64, 0x44)
	span(kNone, 0x45, 0xc4) // numeric, sign extension
	set(kHeapType, 0xd0)
	set(kRefFunc, 0xd2)
	set(kFC, 0xfc)
	set(kFD, 0xfd)
	set(kFE, 0xfe)
	return t
}()

// Walk modes.
const (
	modeExpr = iota // copy one constant expression up to its end, renumbering ref.func
	modeScan        // read a function body for its facts (w.fn), write nothing
	modeEmit        // copy a function body, renumbering and inserting the counting code
)

// facts are what a scan learns about a function body (entryCounts keeps them for every
// body, and sets entry).
type facts struct {
	loops     int  // loop headers: a function with any counts in a local (so its loops do not touch memory)
	nonLeaf   bool // calls a defined function, directly or not
	indirect  bool // calls through a table or a reference
	loopFirst bool // a loop header is the first thing it executes (no entry count needed)
	entry     bool // counts at its entry (see entryCounts)
}

// fnFacts are the facts of the function being rewritten, and the code emitted into it.
type fnFacts struct {
	facts

	flush  []byte // local.get $l, global.set $g: before calls and exits
	reload []byte // global.get $g, local.set $l: at entry and after calls
	check  []byte // the count on the local, calling $tick in place (entries, loops with params)
	// the loop header count of a loop wrapped to call $tick outside it (see wrapLoop)
	branch []byte // local.get $l, i32.const 1, i32.sub, local.tee $l, i32.eqz, br_if 1
	ticked []byte // after the wrapped loop's end: br 2, end, call $tick, reset $l, br 0, end, unreachable, end
}

// function rewrites one body. A function with loops gets a new i32 local holding the
// budget: loaded from the global at entry and after each call, stored back before each
// call and exit (return, br to the function's label, its end, tail calls), decremented at
// each loop header:
//
//	local.get $l, i32.const 1, i32.sub, local.tee $l, i32.eqz,
//	if, call $tick, i32.const N, local.set $l, end
//
// so a tight loop costs a register decrement and a branch, not a load and a store. A loop
// without parameters is wrapped so that the call is outside it (wrapLoop): a call inside
// a loop, even one never taken, makes wazero give up registers on the loop's path. A
// function that entryCounts picks counts at its entry too: on the local if it has loops,
// else on the global (checkSeq). An exception that leaves a function loses its local count: the budget is
// approximate, never unbounded.
func (w *writer) function(idx int, body []byte, out []byte) []byte {
	r := reader{b: body}
	n := r.u32()
	countEnd := r.pos
	var nLocals uint64
	for i := uint32(0); i < n; i++ {
		nLocals += uint64(r.u32())
		r.valtype()
	}
	localsEnd := r.pos
	fn := &w.fn
	fn.facts = w.facts[idx]
	if fn.loops > 0 {
		if typ := w.m.funcTypes[idx]; typ >= uint32(len(w.m.typeParams)) {
			fail("function %d: type %d out of range", idx, typ)
		}
		local := uint64(w.m.typeParams[w.m.funcTypes[idx]]) + nLocals
		if local >= 1<<32-1 {
			fail("function %d: too many locals", idx)
		}
		l := appendU32(nil, uint32(local))
		g := appendU32(nil, w.counter)
		fn.flush = append(append(append(append(fn.flush[:0], 0x20), l...), 0x24), g...)
		fn.reload = append(append(append(append(fn.reload[:0], 0x23), g...), 0x21), l...)
		c := append(append(fn.check[:0], 0x20), l...)
		c = append(c, 0x41, 0x01, 0x6b, 0x22)
		c = append(c, l...)
		c = append(c, 0x45, 0x04, 0x40, 0x10)
		c = appendU32(c, w.tickFunc)
		c = append(c, 0x41)
		c = appendS32(c, int32(w.interval))
		c = append(append(append(c, 0x21), l...), 0x0b)
		fn.check = c
		c = append(append(fn.branch[:0], 0x20), l...)
		c = append(c, 0x41, 0x01, 0x6b, 0x22)
		c = append(c, l...)
		fn.branch = append(c, 0x45, 0x0d, 0x01)
		c = append(append(fn.ticked[:0], 0x0c, 0x02, 0x0b, 0x10), appendU32(nil, w.tickFunc)...)
		c = append(c, 0x41) // N+1: entering the loop again counts once before its body runs
		c = appendS32(c, int32(w.interval+1))
		c = append(append(append(c, 0x21), l...), 0x0c, 0x00, 0x0b, 0x00, 0x0b)
		fn.ticked = c

		out = appendU32(out, n+1)
		out = append(out, body[countEnd:localsEnd]...)
		out = append(out, 0x01, 0x7f)
		out = append(out, fn.reload...)
		if fn.entry && !fn.loopFirst {
			out = append(out, fn.check...)
			w.stats.Entries++
		}
	} else {
		out = append(out, body[:localsEnd]...)
		if fn.entry {
			out = append(out, w.check...)
			w.stats.Entries++
		}
	}
	return w.instrs(&r, out, modeEmit)
}

// instrs walks instructions from r (see the modes), returning out with what it copied.
// Function indices are renumbered. Every instruction is decoded, so an unknown opcode
// fails (ErrUnsupported).
func (w *writer) instrs(r *reader, out []byte, mode int) []byte {
	b := r.b
	last := r.pos
	depth := 0 // open blocks in the body; a branch to label depth leaves the function
	fn := &w.fn
	scan, emit := mode == modeScan, mode == modeEmit
	local := emit && fn.loops > 0
	leading := scan
	nImp, nGlobals := w.m.nImpFuncs, w.m.nGlobals
	// insert copies the input up to at, then seq.
	insert := func(at int, seq []byte) {
		out = append(out, b[last:at]...)
		out = append(out, seq...)
		last = at
	}
	// wrapped holds, after a 0 for the function's own label, for each open block of a
	// counting function how many of the blocks up to it (itself included) are loops
	// wrapped in three blocks of ours (wrapLoop); relabel adds those to a label immediate
	// d (read from at up to r.pos) whose target lies outside such loops.
	wrapped := append(w.wrapped[:0], 0)
	open := func(wrap bool) {
		n := wrapped[len(wrapped)-1]
		if wrap {
			n++
		}
		wrapped = append(wrapped, n)
	}
	relabel := func(at int, d uint32) {
		top := len(wrapped) - 1
		n := wrapped[top] - wrapped[max(top-int(d), 0)]
		if n > 0 {
			out = append(out, b[last:at]...)
			out = appendU32(out, d+3*n)
			last = r.pos
		}
	}
	defer func() { w.wrapped = wrapped[:0] }()
	for {
		// The hot cases (opcode, one-byte immediates) are decoded inline.
		start := r.pos
		if start >= len(b) {
			if mode == modeExpr {
				r.end()
			}
			break
		}
		op := b[start]
		r.pos = start + 1
		k := kinds[op]
		if leading && op != 0x02 {
			leading = false
			fn.loopFirst = op == 0x03
		}
		switch k {
		case kNone:
		case kU32, kS32:
			if op == 0x09 && local { // rethrow: label
				at := r.pos
				relabel(at, r.u32())
				break
			}
			if p := r.pos; p < len(b) && b[p] < 0x80 {
				r.pos = p + 1
			} else if k == kU32 {
				r.u32slow()
			} else {
				r.lebslow(5)
			}
			if op == 0x26 { // table.set
				w.stateOps = true
			}
			if op == 0x40 && w.nNew == 2 && !scan { // memory.grow 0 → call $memory_grow
				out = append(out, b[last:start]...)
				out = append(out, 0x10)
				out = appendU32(out, w.growFunc)
				last = r.pos
			}
		case kMemarg:
			if p := r.pos; p+1 < len(b) && b[p] < 0x40 && b[p+1] < 0x80 { // align, offset
				r.pos = p + 2
			} else {
				r.memarg()
			}
		case kGlobal:
			if r.u32() >= nGlobals {
				fail("global index out of range at offset %d", r.pos)
			}
		case kBr:
			at := r.pos
			d := r.u32()
			if local {
				if d == uint32(depth) {
					insert(start, fn.flush)
				}
				relabel(at, d)
			}
		case kCall, kReturnCall, kRefFunc:
			at := r.pos
			idx := r.u32()
			defined := idx >= nImp
			if !defined {
				if local && k == kReturnCall {
					insert(start, fn.flush)
				}
				break
			}
			nidx := w.funcIdx(idx)
			if k != kRefFunc {
				fn.nonLeaf = true
				if scan {
					w.callees = append(w.callees, idx-nImp)
				}
			}
			if scan {
				break
			}
			if local && k != kRefFunc {
				insert(start, fn.flush)
			}
			out = append(out, b[last:at]...)
			out = appendU32(out, nidx)
			last = r.pos
			if local && k == kCall {
				insert(r.pos, fn.reload)
			}
		case kBlock:
			r.blocktype()
			depth++
			if local {
				open(false)
			}
		case kLoop:
			bt := r.pos
			r.blocktype()
			depth++
			if scan {
				fn.loops++
			}
			if emit {
				// A loop with parameters (a type index) keeps the call in place, and
				// so do the loops of a function with many (see maxWrapped).
				wrap := b[bt] >= 0x40 && b[bt] < 0x80 && fn.loops <= maxWrapped
				if wrap {
					insert(start, wrapLoop(b[bt:r.pos]))
					insert(r.pos, fn.branch)
				} else {
					insert(r.pos, fn.check)
				}
				open(wrap)
				w.stats.Loops++
			}
		case kEnd:
			if local && depth == 0 {
				insert(start, fn.flush)
			}
			depth--
			if local && depth >= 0 {
				top := len(wrapped) - 1
				if wrapped[top] > wrapped[top-1] {
					insert(r.pos, fn.ticked)
				}
				wrapped = wrapped[:top]
			}
			if mode == modeExpr && depth < 0 {
				return append(out, b[last:r.pos]...)
			}
		case kReturn:
			if local {
				insert(start, fn.flush)
			}
		case kS64:
			r.leb(10)
		case kF32:
			r.skip(4)
		case kF64:
			r.skip(8)
		case kBrTable:
			n := r.u32()
			labels := r.pos
			exits := false
			for i := uint64(0); i <= uint64(n); i++ {
				exits = exits || r.u32() == uint32(depth)
			}
			if local {
				if exits {
					insert(start, fn.flush)
				}
				r.pos = labels
				for i := uint64(0); i <= uint64(n); i++ {
					at := r.pos
					relabel(at, r.u32())
				}
			}
		case kIndirect, kCallRef:
			r.u32()
			if k == kIndirect {
				r.u32()
			}
			fn.nonLeaf, fn.indirect = true, true
			if local {
				insert(start, fn.flush)
				if op == 0x11 || op == 0x14 { // call_indirect, call_ref (not the tail calls)
					insert(r.pos, fn.reload)
				}
			}
		case kDelegate:
			at := r.pos
			d := r.u32()
			depth--
			if local && depth >= 0 {
				wrapped = wrapped[:len(wrapped)-1]
				relabel(at, d)
			}
		case kSelectT:
			n := r.u32()
			for i := uint32(0); i < n; i++ {
				r.valtype()
			}
		case kHeapType:
			r.s33()
		case kTryTable:
			r.blocktype()
			n := r.u32()
			for i := uint32(0); i < n; i++ {
				switch c := r.byte(); c {
				case 0x00, 0x01: // catch, catch_ref: tag, label
					r.u32()
					at := r.pos
					if d := r.u32(); local {
						relabel(at, d)
					}
				case 0x02, 0x03: // catch_all, catch_all_ref: label
					at := r.pos
					if d := r.u32(); local {
						relabel(at, d)
					}
				default:
					fail("bad catch kind 0x%02x at offset %d", c, r.pos-1)
				}
			}
			depth++
			if local {
				open(false)
			}
		case kFC:
			w.prefixFC(r)
		case kFD:
			w.prefixFD(r)
		case kFE:
			w.prefixFE(r)
		default:
			unsupported("opcode 0x%02x at offset %d", op, r.pos-1)
		}
	}
	if scan {
		return out
	}
	return append(out, b[last:]...)
}

func (w *writer) prefixFC(r *reader) {
	switch op := r.u32(); op {
	case 0, 1, 2, 3, 4, 5, 6, 7: // saturating truncations
	case 8, 10, 12, 14: // memory.init data mem, memory.copy mem mem, table.init elem table, table.copy table table
		r.u32()
		r.u32()
		if op != 10 {
			w.stateOps = true
		}
	case 9, 11, 13, 15, 16, 17: // data.drop, memory.fill, elem.drop, table.grow/size/fill
		r.u32()
		if op != 11 && op != 16 {
			w.stateOps = true
		}
	case 19, 20, 21, 22: // wide arithmetic: i64.add128, sub128, mul_wide_s/u
	default:
		unsupported("opcode 0xfc %d at offset %d", op, r.pos)
	}
}

func (w *writer) prefixFD(r *reader) {
	switch op := r.u32(); {
	case op <= 11 || op == 92 || op == 93: // v128 loads and stores
		r.memarg()
	case op == 12 || op == 13: // v128.const, i8x16.shuffle
		r.skip(16)
	case op >= 21 && op <= 34: // extract_lane, replace_lane
		r.skip(1)
	case op >= 84 && op <= 91: // load_lane, store_lane
		r.memarg()
		r.skip(1)
	case op <= 0xff: // the other SIMD operations have no immediate
	case op >= 0x100 && op <= 0x113: // relaxed SIMD
	default:
		unsupported("opcode 0xfd %d at offset %d", op, r.pos)
	}
}

func (w *writer) prefixFE(r *reader) {
	switch op := r.u32(); {
	case op <= 2 || (op >= 0x10 && op <= 0x4e): // notify, wait32/64, atomic loads, stores, rmw
		r.memarg()
	case op == 3: // atomic.fence
		if c := r.byte(); c != 0 {
			fail("atomic.fence: bad byte 0x%02x", c)
		}
	default:
		unsupported("opcode 0xfe %d at offset %d", op, r.pos)
	}
}

// maxWrapped is the most loops a function may have for them to be wrapped. Each wrapped
// loop adds a merge point (where $tick returns) at which wazero gives every live local a
// new value, each with its own spill slot: a big interpreter loop's frame grows, and with
// it the native stack a deep recursion takes. QuickJS's JS_CallInternal (between 49 and
// 64 loops) wrapped overflowed wazero's stack before QuickJS's own limit stopped
// `function r() { r() }` with a RangeError. The hot loops wrapping pays for (sort's
// comparisons, sed's matching, memchr) are in small functions.
const maxWrapped = 32

// wrapLoop opens the three blocks put around a loop without parameters, whose header
// count (fnFacts.branch) leaves it for $tick when the budget is spent:
//
//	block bt ($exit)  loop ($again)  block ($tick)  loop bt ...the loop... end
//	    br $exit
//	  end  call $tick, i32.const N+1, local.set $l, br $again
//	end  unreachable  end
//
// The loop is then entered again at its header. Branches from inside it to labels
// outside it count the three blocks (instrs, relabel).
func wrapLoop(bt []byte) []byte {
	b := append([]byte{0x02}, bt...)
	return append(b, 0x03, 0x40, 0x02, 0x40)
}
