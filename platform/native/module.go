package native

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/wasi"
)

const pageSize = 65536

// Module is a compiled guest (platform.Module).
type Module struct {
	e            *Engine
	rt           wazero.Runtime // the engine's main runtime, or its fallback
	cm           wazero.CompiledModule
	key          string
	minPages     uint32
	instrumented bool
	imageState
	closeOnce sync.Once
}

var _ platform.Module = (*Module)(nil)

// Key is the content key the module was compiled under.
func (m *Module) Key() string { return m.key }

// Instrumented tells whether the module runs instrumented (stopped by its ticks) or, when
// the instrumenter could not decode it, as is under wazero's slower per-loop guard.
func (m *Module) Instrumented() bool { return m.instrumented }

// Run implements platform.Module.
func (m *Module) Run(ctx context.Context, p *wasi.Proc, lim platform.Limits) (int, error) {
	return m.run(ctx, p, lim, nil)
}

// run starts the guest at _start, or from img at wasmsand_resume (see preinit.go).
func (m *Module) run(ctx context.Context, p *wasi.Proc, lim platform.Limits, img *image) (int, error) {
	if err := p.Init(); err != nil {
		return 1, err
	}
	pages := lim.MemoryPages
	if pages == 0 {
		pages = m.e.opt.MemoryPages
	}
	name := p.CommandName()
	if m.minPages > pages {
		return platform.ExitTrap, fmt.Errorf("%w: %s needs %d pages at start, limit is %d",
			platform.ErrMemoryLimit, name, m.minPages, pages)
	}
	if img != nil && img.pages > pages {
		img = nil // a cold start may still fit
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(m.e.stopAll, cancel)()
	st := &runState{proc: p}
	if img != nil {
		// as big as the image, or as the last run from it ended
		st.startSize = max(uint64(img.pages)*pageSize, img.lastSize.Load())
		defer func() { img.lastSize.Store(st.endSize) }()
	}
	rctx := context.WithValue(withAllocator(ctx, st, pages), runKey{}, st)
	// A guest blocked in a host call (reading a pipe) cannot be stopped by wazero;
	// closing the pipes it made unblocks it.
	stop := context.AfterFunc(ctx, p.Interrupt)
	defer stop()

	inst, err := m.rt.InstantiateModule(rctx, m.cm, m.e.cfg)
	if err == nil {
		entry := "_start"
		switch {
		case img != nil:
			if !m.apply(inst, img) {
				inst.Close(context.WithoutCancel(ctx))
				return m.run(ctx, p, lim, nil)
			}
			entry = resumeExport
		case m.base != nil:
			if !m.apply(inst, &m.cold) {
				inst.Close(context.WithoutCancel(ctx))
				return platform.ExitTrap, fmt.Errorf("%w: %s: data segment does not fit in memory", platform.ErrTrap, name)
			}
		}
		_, err = inst.ExportedFunction(entry).Call(rctx)
		st.finished.Store(true)
		inst.Close(context.WithoutCancel(ctx))
		if img != nil && err == nil {
			// wasmsand_resume returned: this process needs a cold start.
			return m.run(ctx, p, lim, nil)
		}
	}
	return m.result(ctx, p, st, name, err)
}

// withAllocator makes the guest's memory ours: the limit is per instance (wazero's own
// limit is per runtime), and our allocator refuses growth past it, recording that it did.
func withAllocator(ctx context.Context, st *runState, pages uint32) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(
		func(_, max uint64) experimental.LinearMemory {
			return &linearMemory{limit: min(max, uint64(pages)*pageSize), st: st}
		}))
}

// result turns how _start ended into (exit code, error) as a shell would see it.
func (m *Module) result(ctx context.Context, p *wasi.Proc, st *runState, name string, err error) (int, error) {
	code, trap := 0, ""
	var exit *wasi.ExitError
	var sysExit *sys.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = int(exit.Code & 0xff)
	case errors.As(err, &sysExit):
		code = int(sysExit.ExitCode() & 0xff)
	default:
		trap = firstLine(err.Error())
		code = platform.ExitTrap
	}
	// Cancellation wins: however the guest ended, it was stopped (or its pipes closed).
	if m.e.isClosed() { // Engine.Close closes running instances "with status 0"
		return platform.ExitKilled, fmt.Errorf("%w: %s: engine closed", platform.ErrKilled, name)
	}
	if cerr := ctx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return platform.ExitTimeout, fmt.Errorf("%w: %s", platform.ErrTimeout, name)
		}
		return platform.ExitKilled, fmt.Errorf("%w: %s", platform.ErrKilled, name)
	}
	if st.refused && (trap != "" || code != 0) {
		return code, fmt.Errorf("%w: %s", platform.ErrMemoryLimit, name)
	}
	if trap != "" {
		if strings.Contains(trap, "recovered by wazero") {
			trap = "host error: " + trap // a bug of ours, not of the guest
		}
		if p.Stderr != nil {
			io.WriteString(p.Stderr, "wasmsand: "+name+": trap: "+trap+"\n")
		}
		return code, fmt.Errorf("%w: %s: %s", platform.ErrTrap, name, trap)
	}
	return code, nil
}

// linearMemory backs one instance's memory and enforces its limit. Buffers up to 32 MiB come
// from per-size-class pools and go back zeroed when the instance closes: a fresh 128 KiB
// allocation per run (plus the GC work it causes) was most of a small guest's start cost.
type linearMemory struct {
	buf   []byte
	limit uint64
	st    *runState
}

func (l *linearMemory) Reallocate(size uint64) []byte {
	if l.buf == nil {
		// The declared minimum, checked against the limit by Run: refusing it here
		// would panic inside wazero's instantiation.
		limit, want := max(size, l.limit), size
		if l.st.startSize <= limit {
			want = max(want, l.st.startSize) // no growth (and copy) to come
		}
		l.buf = getBuf(want, limit)[:size]
		return l.buf
	}
	if size > l.limit {
		l.st.refused = true
		return nil
	}
	if size <= uint64(cap(l.buf)) {
		l.buf = l.buf[:size]
		return l.buf
	}
	nb := getBuf(size, l.limit)
	copy(nb, l.buf)
	putBuf(l.buf)
	l.buf = nb
	return nb
}

// Free is called when the instance closes. Engine.Close may close an instance whose guest
// is still running: then the buffer must not be reused, so only finished runs pool it.
func (l *linearMemory) Free() {
	l.st.endSize = uint64(len(l.buf))
	if l.st.finished.Load() {
		putBuf(l.buf)
	}
	l.buf = nil
}

const (
	minPoolClass = 17 // 128 KiB
	maxPoolClass = 25 // 32 MiB
)

var memPools [maxPoolClass + 1]sync.Pool

// getBuf returns a zeroed buffer of len size and cap <= limit: a pooled power of two when
// that fits, else the size plus 25% headroom (like append) so page-by-page growth does
// not copy everything each time.
func getBuf(size, limit uint64) []byte {
	c := bufClass(size)
	if c <= maxPoolClass && uint64(1)<<c <= limit {
		if b := bigBuf(c); b != nil {
			return b[:size]
		}
		if v, ok := memPools[c].Get().(*[]byte); ok {
			return (*v)[:size]
		}
		return make([]byte, size, 1<<c)
	}
	return make([]byte, size, min(size+size/4, limit))
}

// bufClass is the size class of a buffer of size bytes.
func bufClass(size uint64) int { return max(bits.Len64(size-1), minPoolClass) }

func putBuf(b []byte) {
	n := uint64(cap(b))
	c := bits.Len64(n - 1)
	if n == 0 || n != 1<<c || c < minPoolClass || c > maxPoolClass {
		return
	}
	if putBigBuf(c, b) {
		return
	}
	clear(b)
	b = b[:0]
	memPools[c].Put(&b)
}

// Close frees the module's compiled code: core's module cache closes a
// module it evicts, which no run uses. A later Compile of its key compiles
// it again.
func (m *Module) Close() (err error) {
	m.closeOnce.Do(func() {
		m.e.mu.Lock()
		if ce, ok := m.e.mods[m.key]; ok && ce.mod == m {
			delete(m.e.mods, m.key)
		}
		m.e.mu.Unlock()
		err = m.cm.Close(context.Background())
	})
	return err
}
