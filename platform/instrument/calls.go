package instrument

// maxUncounted bounds the code, in bytes, that a call may run before anything counts:
// a function without loops runs each of its instructions at most once per call, so its
// body's size bounds its own work, and the sum over the calls it makes without a count
// bounds the rest. 512 bytes is at most a few hundred instructions, ~0.1-0.3 µs, so a
// tick still comes within the interval's order of time.
const maxUncounted = 512

// entryCounts scans every body (facts, w.facts) and picks the functions that count at
// their entry. A call costs no count unless it can take part in unbounded work without a
// loop, which only recursion can:
//   - a function that can reach an indirect call counts: the call may reach any function,
//     itself included, so it may be on a cycle;
//   - a function on a cycle of direct calls counts;
//   - the rest form a DAG, in which a function's calls to functions that do not count
//     add up (f calling g twice, g calling h twice... is exponential in the depth): a
//     function whose body and uncounted calls exceed maxUncounted makes its callees count.
//
// Counting only at loop headers and these entries leaves out small helpers called in hot
// loops, which counted at every call before (each call a load and a store of the global).
// The host's functions never call back into the guest, so a call to an import is no edge.
func (w *writer) entryCounts(bodies [][]byte) {
	n := len(bodies)
	w.facts = make([]facts, n)
	start := make([]int, n+1) // callees of i: w.callees[start[i]:start[i+1]]
	w.callees = w.callees[:0]
	for i, body := range bodies {
		r := reader{b: body}
		for c := r.u32(); c > 0; c-- {
			r.u32()
			r.valtype()
		}
		w.fn.facts = facts{}
		start[i] = len(w.callees)
		w.instrs(&r, nil, modeScan)
		if !r.eof() {
			fail("function body: bytes after its end")
		}
		w.facts[i] = w.fn.facts
	}
	start[n] = len(w.callees)
	calls := func(i uint32) []uint32 { return w.callees[start[i]:start[i+1]] }

	// reaching an indirect call: backwards from the functions making one
	callers := make([][]uint32, n)
	for i := uint32(0); i < uint32(n); i++ {
		for _, c := range calls(i) {
			callers[c] = append(callers[c], i)
		}
	}
	var work []uint32
	for i := range w.facts {
		if w.facts[i].indirect {
			w.facts[i].entry = true
			work = append(work, uint32(i))
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range callers[f] {
			if !w.facts[c].entry {
				w.facts[c].entry = true
				work = append(work, c)
			}
		}
	}

	// cycles of direct calls: Tarjan's strongly connected components
	const unseen = -1
	index, low := make([]int32, n), make([]int32, n)
	for i := range index {
		index[i] = unseen
	}
	onStack := make([]bool, n)
	var stack []uint32
	var frames []frame
	next := int32(0)
	visit := func(f uint32) {
		index[f], low[f] = next, next
		next++
		stack = append(stack, f)
		onStack[f] = true
	}
	for root := 0; root < n; root++ {
		if index[root] != unseen {
			continue
		}
		visit(uint32(root))
		frames = walk(frames, uint32(root), calls, func(f, c uint32) bool {
			if c == f {
				w.facts[c].entry = true // calls itself
			}
			if index[c] == unseen {
				visit(c)
				return true
			}
			if onStack[c] {
				low[f] = min(low[f], index[c])
			}
			return false
		}, func(f uint32, parent int64) {
			if parent >= 0 {
				low[parent] = min(low[parent], low[f])
			}
			if low[f] != index[f] {
				return
			}
			// f roots a component: pop it; more than one function is a cycle
			top := len(stack) - 1
			for stack[top] != f {
				top--
			}
			cycle := top < len(stack)-1
			for _, g := range stack[top:] {
				onStack[g] = false
				if cycle {
					w.facts[g].entry = true
				}
			}
			stack = stack[:top]
		})
	}

	// the DAG left: uncounted work, callees before callers
	const pending, done = 1, 2
	state := make([]uint8, n)
	uncounted := make([]uint64, n)
	for root := 0; root < n; root++ {
		if state[root] != 0 {
			continue
		}
		state[root] = pending
		frames = walk(frames, uint32(root), calls, func(_, c uint32) bool {
			if state[c] == 0 && !w.facts[c].entry {
				state[c] = pending
				return true
			}
			return false
		}, func(f uint32, _ int64) {
			state[f] = done
			own := uint64(len(bodies[f]))
			sum := own
			for _, c := range calls(f) {
				if !w.facts[c].entry {
					sum = min(sum+uncounted[c], maxUncounted+1)
				}
			}
			if sum > maxUncounted && sum > own {
				for _, c := range calls(f) {
					w.facts[c].entry = true
				}
				sum = own
			}
			uncounted[f] = sum
		})
	}
}

type frame struct{ f, next uint32 }

// walk goes depth-first over the direct calls from root without recursion (a hostile
// module may chain a million calls): edge(f, c) says whether to go into c, which f calls;
// leave(f, parent) runs once f's calls are done (parent -1 for root). frames is scratch.
func walk(frames []frame, root uint32, calls func(uint32) []uint32, edge func(f, c uint32) bool, leave func(f uint32, parent int64)) []frame {
	frames = append(frames[:0], frame{root, 0})
	for len(frames) > 0 {
		fr := &frames[len(frames)-1]
		if cs := calls(fr.f); int(fr.next) < len(cs) {
			c := cs[fr.next]
			fr.next++
			if edge(fr.f, c) {
				frames = append(frames, frame{c, 0})
			}
			continue
		}
		f := fr.f
		frames = frames[:len(frames)-1]
		parent := int64(-1)
		if len(frames) > 0 {
			parent = int64(frames[len(frames)-1].f)
		}
		leave(f, parent)
	}
	return frames
}
