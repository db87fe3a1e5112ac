//go:build js && wasm

package js

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"syscall/js"
	"time"
	"unsafe"

	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/wasi"
)

// funcs is the table of host functions guests import, in the order host.js
// learns it (bindHost): the index is what a guest's import passes to
// hostcall. The instrumentation's tick is one of them (wasi.TickName).
var (
	funcs     = wasi.Funcs()
	funcIndex = func() map[string]int32 {
		m := make(map[string]int32, len(funcs))
		for i, f := range funcs {
			m[f.Module+"."+f.Name] = int32(i)
		}
		return m
	}()
	tickIndex = funcIndex[wasi.ModuleWasmsand+"."+wasi.TickName]
)

// bindHost tells host.js the function table and where the argument buffer is.
func bindHost(h js.Value) error {
	// one line per function, "module name params results", the types
	// comma-separated (built as JS objects with js.ValueOf, the table took
	// ~20 ms of every start in calls into JS)
	var b strings.Builder
	types := func(ts []wasi.ValType) {
		b.WriteByte(' ')
		for j, t := range ts {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(valName(t))
		}
	}
	for i, f := range funcs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.Module + " " + f.Name)
		types(f.Params)
		types(f.Results)
	}
	res := h.Call("bind", b.String(), hostcallFunc, argBufAddr())
	if !res.Truthy() {
		return fmt.Errorf("js: host.js refused the binding (is the core built from the same version?)")
	}
	return nil
}

func valName(t wasi.ValType) string {
	if t == wasi.I64 {
		return "i64"
	}
	return "i32"
}

// argBuf carries a host call's arguments in and its result out: host.js
// writes and reads it through the Go instance's memory (wasmsand_argbuf).
var argBuf [16]uint64

func argBufAddr() uint32 { return uint32(uintptr(unsafe.Pointer(&argBuf[0]))) }

// run is one guest instance in progress.
type run struct {
	id       int32
	ctx      context.Context
	deadline time.Time // zero: none
	proc     *wasi.Proc
	mem      memory
	stopped  bool   // a tick or host call ended it for its context
	polls    uint32 // expired's calls: an outside abort is polled on one in 16
	panicMsg string // a host function panicked (a bug of ours)

	// the Go stack quickcall may run on: [floor, top] of the goroutine
	// that started the guest, grown for it (see reserveStack)
	floor, top uintptr
}

// runs holds the runs in progress: a guest's host call may spawn another
// guest (a nested run), so several can be live, innermost last.
var (
	runs   = map[int32]*run{}
	nextID int32
)

func startRun(ctx context.Context, p *wasi.Proc) *run {
	nextID++
	r := &run{id: nextID, ctx: ctx, proc: p}
	r.mem.run = r.id
	if d, ok := ctx.Deadline(); ok {
		r.deadline = d
	}
	runs[r.id] = r
	return r
}

func (r *run) end() { delete(runs, r.id) }

// expired: the run's context is done. Timers cannot fire while a guest
// holds the thread, so the deadline is compared with the clock.
func (r *run) expired() bool {
	if r.ctx.Err() != nil {
		return true
	}
	if r.polls++; r.polls&15 == 0 && interrupt.Polled(r.ctx) {
		return true
	}
	return !r.deadline.IsZero() && !time.Now().Before(r.deadline)
}

// Results of hostcall, which host.js turns into a return or a throw.
const (
	callOK        = 0
	callExit      = 1 // proc_exit: argBuf[0] holds the status
	callStop      = 2 // the run's context is done
	callHostPanic = 3
)

// hostcallFunc is the slow way a guest's import reaches hostcall: a
// js.FuncOf callback (~20 µs a call), which runs on a goroutine of its own
// whose stack grows as usual. Every call may take it; most take the quick
// way below (an export), which has to keep to what an export may do.
var hostcallFunc = js.FuncOf(func(_ js.Value, a []js.Value) any {
	slowCalls++
	return hostcall(int32(a[0].Int()), int32(a[1].Int()))
})

// quickCalls and slowCalls count the host calls taken each way (tests).
var quickCalls, slowCalls uint64

// Quick calls. A //go:wasmexport call costs ~1 µs where the FuncOf
// callback above costs 20-40 µs, but Go entered by an export runs on the
// stack of the goroutine that called into JS (Module.Run's), and must not
// grow that stack (the growth's traceback cannot cross the JS frames:
// "unexpected return pc"), nor wait, nor run another guest. So:
//   - Module.Run grows its goroutine's stack by stackReserve before it
//     starts the guest (reserveStack) and records the region;
//   - quickcall takes a call only when its own frame lies in that region
//     with stackNeed below it (a stack that moved since fails this), the
//     function's wasi Quick says this call cannot wait or start a child,
//     and no host directory is mounted (Go's os under js waits on channels);
//   - the core runs with GODEBUG=gcshrinkstackoff=1 (jsapi/worker.js), so
//     the region cannot shrink under a run; without it there are no quick
//     calls.
//
// Anything else returns callSlow, and host.js makes the FuncOf call.
const (
	stackReserve = 256 << 10
	stackNeed    = 128 << 10
	callSlow     = 4
)

var (
	quickOK     = strings.Contains(os.Getenv("GODEBUG"), "gcshrinkstackoff=1")
	hostMounted atomic.Bool
)

// HostFSMounted turns quick calls off for good: a host directory is mounted
// (platform/hostdir, whose os calls wait on channels under GOOS=js).
func HostFSMounted() { hostMounted.Store(true) }

// reserveStack grows the calling goroutine's stack to hold stackReserve
// below the caller's frame, and returns that region.
//
//go:noinline
func reserveStack() (floor, top uintptr) {
	var here byte
	growStack(stackReserve / growFrame)
	top = uintptr(unsafe.Pointer(&here))
	return top - stackReserve + growFrame, top
}

const growFrame = 8 << 10

//go:noinline
func growStack(n int) byte {
	var frame [growFrame - 256]byte
	if n <= 1 {
		return frame[n&1]
	}
	return growStack(n-1) + frame[n&1]
}

//go:wasmexport wasmsand_quickcall
func quickcall(id, fn int32) int32 {
	var here byte
	sp := uintptr(unsafe.Pointer(&here))
	r := runs[id]
	if !quickOK || hostMounted.Load() || r == nil || fn < 0 || int(fn) >= len(funcs) ||
		sp > r.top || sp < r.floor+stackNeed || funcs[fn].Quick == nil || !funcs[fn].Quick(r.proc, argBuf[:]) {
		return callSlow
	}
	quickCalls++
	return hostcall(id, fn)
}

// hostcall runs host function fn for run id with the arguments in argBuf.
func hostcall(id, fn int32) (res int32) {
	r := runs[id]
	if r == nil || fn < 0 || int(fn) >= len(funcs) {
		return callHostPanic
	}
	defer func() {
		if v := recover(); v != nil {
			if ex, ok := v.(*wasi.ExitError); ok {
				argBuf[0] = uint64(ex.Code)        // (read by host.js before any other call)
				if ex.Code == 137 && r.expired() { // a host call saw the context done
					r.stopped = true
					res = callStop
					return
				}
				res = callExit
				return
			}
			r.panicMsg = fmt.Sprint(v)
			res = callHostPanic
		}
	}()
	if fn == tickIndex || r.expired() {
		if r.expired() {
			r.stopped = true
			return callStop
		}
		return callOK
	}
	// the arguments are copied out: a nested run (a child spawned by this
	// call) uses argBuf for its own calls before this one returns
	stack := argBuf
	funcs[fn].Call(r.ctx, r.proc, &r.mem, stack[:])
	argBuf[0] = stack[0]
	return callOK
}

// Guest memory, reached through host.js by copies.
//
//go:wasmimport wasmsand_host mem_size
func memSize(run int32) uint32

//go:wasmimport wasmsand_host mem_read
func memRead(run int32, off uint32, dst unsafe.Pointer, n uint32) bool

//go:wasmimport wasmsand_host mem_write
func memWrite(run int32, off uint32, src unsafe.Pointer, n uint32) bool

//go:wasmimport wasmsand_host sleep
func hostSleep(ms float64)

// memory is wasi.Memory over a run's guest memory: Read returns a copy,
// which the wasi host publishes back with Write when it fills one.
type memory struct{ run int32 }

var _ wasi.Memory = (*memory)(nil)

func (m *memory) Size() uint32 { return memSize(m.run) }

// ReadCopies: Read returns a copy (wasi.Copier).
func (m *memory) ReadCopies() bool { return true }

func (m *memory) Read(off, n uint32) ([]byte, bool) {
	b := make([]byte, n)
	if n == 0 {
		return b, uint64(off) <= uint64(m.Size())
	}
	if !memRead(m.run, off, unsafe.Pointer(&b[0]), n) {
		return nil, false
	}
	return b, true
}

func (m *memory) Write(off uint32, v []byte) bool {
	if len(v) == 0 {
		return uint64(off) <= uint64(m.Size())
	}
	return memWrite(m.run, off, unsafe.Pointer(&v[0]), uint32(len(v)))
}

func (m *memory) ReadUint32Le(off uint32) (uint32, bool) {
	var b [4]byte
	if !memRead(m.run, off, unsafe.Pointer(&b[0]), 4) {
		return 0, false
	}
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24, true
}

func (m *memory) WriteUint32Le(off, v uint32) bool {
	b := [4]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}
	return memWrite(m.run, off, unsafe.Pointer(&b[0]), 4)
}

func (m *memory) ReadUint64Le(off uint32) (uint64, bool) {
	lo, ok1 := m.ReadUint32Le(off)
	hi, ok2 := m.ReadUint32Le(off + 4)
	return uint64(lo) | uint64(hi)<<32, ok1 && ok2 && off <= ^uint32(0)-4
}

func (m *memory) WriteUint64Le(off uint32, v uint64) bool {
	b := [8]byte{}
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return memWrite(m.run, off, unsafe.Pointer(&b[0]), 8)
}

// jsClock sleeps without Go's scheduler (nothing may block inside a host
// call): Atomics.wait in host.js, in slices so that a deadline ends it.
type jsClock struct{}

func (jsClock) Now() time.Time  { return time.Now() }
func (jsClock) Nanotime() int64 { return wasi.RealClock.Nanotime() }
func (jsClock) Sleep(ctx context.Context, d time.Duration) {
	end := time.Now().Add(d)
	for {
		left := time.Until(end)
		if left <= 0 || interrupt.Ended(ctx) {
			return
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < left {
			left = time.Until(dl)
		}
		hostSleep(float64(min(left, 50*time.Millisecond)) / float64(time.Millisecond))
	}
}
