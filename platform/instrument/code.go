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
	set(kNone, 0x00, 0x01, 0x05, 0x0a, 0x0f, 0x19, 0x1a, 0x1b, 0xd1, 0xd3, 0xd4)
	set(kBlock, 0x02, 0x04, 0x06)
	set(kLoop, 0x03)
	set(kU32, 0x07, 0x08, 0x09, 0x0c, 0x0d, 0x20, 0x21, 0x22, 0x25, 0x26, 0x3f, 0x40, 0xd5, 0xd6)
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

// instrs copies instructions from r to out. In a function body (body=true) it runs to the
// end of r and inserts the check after every loop's block type; otherwise it copies one
// constant expression, up to and including its end. Function indices are renumbered.
// nonLeaf tells whether the code calls a defined function (directly or not); loopFirst,
// whether a loop header is the first thing it executes (then an entry check is redundant).
func (w *writer) instrs(r *reader, out []byte, body bool) (_ []byte, nonLeaf, loopFirst bool) {
	b := r.b
	last := r.pos
	depth := 0
	leading := body
	nImp, nGlobals := w.m.nImpFuncs, w.m.nGlobals
	for !body || r.pos < len(b) {
		op := r.byte()
		k := kinds[op]
		if leading && op != 0x02 {
			leading = false
			loopFirst = op == 0x03
		}
		switch k {
		case kNone:
		case kU32:
			r.u32()
		case kMemarg:
			r.memarg()
		case kS32:
			r.leb(5)
		case kGlobal:
			if r.u32() >= nGlobals {
				fail("global index out of range at offset %d", r.pos)
			}
		case kCall, kReturnCall, kRefFunc:
			at := r.pos
			idx := r.u32()
			if idx >= nImp {
				if k != kRefFunc {
					nonLeaf = true
				}
				out = append(out, b[last:at]...)
				out = appendU32(out, w.funcIdx(idx))
				last = r.pos
			}
		case kBlock:
			r.blocktype()
			depth++
		case kLoop:
			r.blocktype()
			depth++
			if body {
				out = append(out, b[last:r.pos]...)
				out = append(out, w.check...)
				last = r.pos
				w.stats.Loops++
			}
		case kEnd:
			depth--
			if !body && depth < 0 {
				return append(out, b[last:r.pos]...), nonLeaf, loopFirst
			}
		case kS64:
			r.leb(10)
		case kF32:
			r.skip(4)
		case kF64:
			r.skip(8)
		case kBrTable:
			n := r.u32()
			for i := uint64(0); i <= uint64(n); i++ {
				r.u32()
			}
		case kIndirect:
			r.u32()
			r.u32()
			nonLeaf = true
		case kCallRef:
			r.u32()
			nonLeaf = true
		case kDelegate:
			r.u32()
			depth--
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
					r.u32()
				case 0x02, 0x03: // catch_all, catch_all_ref: label
					r.u32()
				default:
					fail("bad catch kind 0x%02x at offset %d", c, r.pos-1)
				}
			}
			depth++
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
	return append(out, b[last:]...), nonLeaf, loopFirst
}

func (w *writer) prefixFC(r *reader) {
	switch op := r.u32(); op {
	case 0, 1, 2, 3, 4, 5, 6, 7: // saturating truncations
	case 8, 10, 12, 14: // memory.init data mem, memory.copy mem mem, table.init elem table, table.copy table table
		r.u32()
		r.u32()
	case 9, 11, 13, 15, 16, 17: // data.drop, memory.fill, elem.drop, table.grow/size/fill
		r.u32()
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
