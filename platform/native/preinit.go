package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/platform/instrument"
	"github.com/wasmsand/wasmsand/wasi"
)

// Pre-initialized starts (platform.Preinitializer). A module exporting wasmsand_preinit
// and wasmsand_resume is run once in a pristine process up to the end of
// wasmsand_preinit; the pages of its memory that differ from a fresh instance's, and its
// mutable globals (exported by the instrumenter for such modules), make its image. A run
// from the image instantiates the module as usual, writes the image over it and calls
// wasmsand_resume. For CPython this skips ~20 ms of interpreter start-up per run
// (RATIONALE.md, "Pre-initialized python3").

const (
	preinitExport = instrument.PreinitExport
	resumeExport  = "wasmsand_resume"
	// imageBlock is the granularity at which an image records what changed.
	imageBlock = 4096
)

var _ platform.Preinitializer = (*Module)(nil)

// image is a pre-initialized guest's state, or why it could not be made.
type image struct {
	done    chan struct{} // closed when made (or failed)
	err     error
	pages   uint32  // memory size
	chunks  []chunk // memory that differs from a fresh instance
	globals []global
	// lastSize: the memory's size when the last run from the image ended
	lastSize atomic.Uint64
}

type chunk struct {
	off  uint32
	data []byte
}

type global struct {
	name string
	val  uint64
}

// Preinitializable implements platform.Preinitializer.
func (m *Module) Preinitializable() bool { return m.preinitializable }

// hasPreinitExports: the module exports wasmsand_preinit () -> i32 and
// wasmsand_resume (). Asked once at compile time (wazero builds the export map
// on every call).
func hasPreinitExports(cm wazero.CompiledModule) bool {
	fns := cm.ExportedFunctions()
	pre, res := fns[preinitExport], fns[resumeExport]
	return pre != nil && res != nil && len(pre.ParamTypes()) == 0 && len(res.ParamTypes()) == 0 &&
		len(pre.ResultTypes()) == 1 && pre.ResultTypes()[0] == api.ValueTypeI32
}

// RunPreinit implements platform.Preinitializer.
func (m *Module) RunPreinit(ctx context.Context, p *wasi.Proc, lim platform.Limits, pre platform.Preinit) (int, error) {
	if !m.Preinitializable() {
		return m.Run(ctx, p, lim)
	}
	img, err := m.image(ctx, pre)
	if err != nil {
		return m.Run(ctx, p, lim)
	}
	return m.run(ctx, p, lim, img)
}

// image returns the module's image for pre.Key, making it on first use; other callers
// wait for it. A failure is kept (later runs start cold) unless the run making it was
// cancelled, in which case the next run tries again.
func (m *Module) image(ctx context.Context, pre platform.Preinit) (*image, error) {
	m.imgMu.Lock()
	img := m.images[pre.Key]
	if img == nil {
		img = &image{done: make(chan struct{})}
		if m.images == nil {
			m.images = map[string]*image{}
		}
		m.images[pre.Key] = img
		m.imgMu.Unlock()
		// (another process may have made it: see diskcache.go)
		path := m.imagePath(pre.Key)
		if b := readChecked(path); b == nil || decodeImage(b, img) != nil {
			*img = image{done: img.done}
			img.err = m.makeImage(ctx, img, pre)
			if img.err == nil {
				writeChecked(path, img.encode())
			}
		}
		if img.err != nil && ctx.Err() != nil {
			m.imgMu.Lock()
			delete(m.images, pre.Key)
			m.imgMu.Unlock()
		}
		close(img.done)
	} else {
		m.imgMu.Unlock()
		select {
		case <-img.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return img, img.err
}

// errNoImage wraps why a module could not be pre-initialized.
var errNoImage = errors.New("no pre-initialized image")

func (m *Module) makeImage(ctx context.Context, img *image, pre platform.Preinit) error {
	p := pre.New()
	var out bytes.Buffer
	p.Stdin, p.Stdout, p.Stderr = nil, &out, &out
	if err := p.Init(); err != nil {
		return fmt.Errorf("%w: %v", errNoImage, err)
	}
	defer p.Close()
	pages := m.e.opt.MemoryPages
	st := &runState{proc: p}
	rctx := context.WithValue(withAllocator(ctx, st, pages), runKey{}, st)
	inst, err := m.rt.InstantiateModule(rctx, m.cm, m.e.cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", errNoImage, err)
	}
	defer inst.Close(context.WithoutCancel(ctx))
	if !m.apply(inst, &m.cold) {
		return fmt.Errorf("%w: data segment does not fit in memory", errNoImage)
	}
	res, err := inst.ExportedFunction(preinitExport).Call(rctx)
	st.finished.Store(true)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s: %v", errNoImage, preinitExport, firstLine(err.Error()))
	case int32(res[0]) != 0:
		return fmt.Errorf("%w: %s returned %d", errNoImage, preinitExport, int32(res[0]))
	case out.Len() > 0:
		return fmt.Errorf("%w: %s wrote %q", errNoImage, preinitExport, firstLine(out.String()))
	case len(p.OpenFDs()) > 0:
		return fmt.Errorf("%w: %s left fds %v open", errNoImage, preinitExport, p.OpenFDs())
	}

	// What a fresh instance holds, to keep only what preinit changed.
	fst := &runState{proc: p}
	fresh, err := m.rt.InstantiateModule(withAllocator(ctx, fst, pages), m.cm, m.e.cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", errNoImage, err)
	}
	defer fresh.Close(context.WithoutCancel(ctx))
	fst.finished.Store(true)
	m.apply(fresh, &m.cold)

	mem, _ := inst.Memory().Read(0, inst.Memory().Size())
	base, _ := fresh.Memory().Read(0, fresh.Memory().Size())
	img.pages = uint32(len(mem) / pageSize)
	for off := 0; off < len(mem); off += imageBlock {
		end := min(off+imageBlock, len(mem))
		var was []byte
		if off < len(base) {
			was = base[off:min(end, len(base))]
		}
		if bytes.Equal(mem[off:end], was) || (was == nil && allZero(mem[off:end])) {
			continue
		}
		if n := len(img.chunks); n > 0 && int(img.chunks[n-1].off)+len(img.chunks[n-1].data) == off {
			img.chunks[n-1].data = append(img.chunks[n-1].data, mem[off:end]...)
			continue
		}
		img.chunks = append(img.chunks, chunk{uint32(off), append([]byte(nil), mem[off:end]...)})
	}
	for _, name := range m.globals {
		if v := inst.ExportedGlobal(name).Get(); v != fresh.ExportedGlobal(name).Get() {
			img.globals = append(img.globals, global{name, v})
		}
	}
	return nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// apply writes a start image over a fresh instance: the module's detached data, then
// img's chunks and globals (for a cold start of a module with detached data, img is
// m.cold, empty). False if the memory cannot grow to the image's size.
func (m *Module) apply(inst api.Module, img *image) bool {
	mem := inst.Memory()
	if mem == nil {
		return len(m.base) == 0 && len(img.chunks) == 0
	}
	if cur := mem.Size() / pageSize; cur < img.pages {
		if _, ok := mem.Grow(img.pages - cur); !ok {
			return false
		}
	}
	buf, _ := mem.Read(0, mem.Size())
	start, end := uint64(len(buf)), uint64(0)
	for _, layer := range [][]chunk{m.base, img.chunks} {
		for _, c := range layer {
			start = min(start, uint64(c.off))
			end = max(end, uint64(c.off)+uint64(len(c.data)))
		}
	}
	if end > uint64(len(buf)) {
		return false
	}
	if start < end {
		// (only the span written: below it is the guest's stack, 8 MB first in
		// memory, of which a run touches a few pages)
		prefault(buf[start:end])
	}
	for _, layer := range [][]chunk{m.base, img.chunks} {
		for _, c := range layer {
			copy(buf[c.off:], c.data)
		}
	}
	for _, g := range img.globals {
		inst.ExportedGlobal(g.name).(api.MutableGlobal).Set(g.val)
	}
	return true
}

// imageState is the part of Module that holds images.
type imageState struct {
	// preinitializable: instrumented (only then are the mutable globals
	// exported) and with the preinit exports.
	preinitializable bool
	globals          []string // the mutable globals' exports (instrument.PreinitGlobals)
	imgMu            sync.Mutex
	images           map[string]*image // by Preinit.Key
	// base: the detached data (instrument.DetachedData), which every run
	// writes first; cold is the start image of a run without a
	// pre-initialized one.
	base []chunk
	cold image
}
