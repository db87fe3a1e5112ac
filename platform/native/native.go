// Package native runs guests on wazero's compiler (the native platform). Compiled modules
// are kept in memory and in a disk cache, so a new process does not recompile. The WASI
// host is ours (package wasi), bound once per engine as two host modules that find the
// running guest's *wasi.Proc through the call's context.
//
// Guests are instrumented (package platform/instrument) to call wasmsand.tick every ~2^16
// loop iterations or calls: the tick ends a guest whose context is done and, by returning
// to Go, lets the scheduler and the garbage collector in. wazero's own guard
// (WithCloseOnContextDone) exits to Go at every loop iteration and made compute-heavy
// guests 6-10× slower; it is kept only for modules the instrumenter cannot decode, on a
// second, lazily created runtime.
package native

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/platform/instrument"
	"github.com/wasmsand/wasmsand/wasi"
)

// Options configure an Engine.
type Options struct {
	// CacheDir keeps compiled machine code across processes; "" = memory only.
	CacheDir string
	// MemoryPages is the per-guest memory limit when Limits.MemoryPages is 0
	// (0 = DefaultMemoryPages).
	MemoryPages uint32
}

// DefaultMemoryPages is 1 GiB.
const DefaultMemoryPages = 16384

// Engine is the wazero implementation of platform.Engine.
type Engine struct {
	opt   Options
	rt    wazero.Runtime // instrumented guests
	cache wazero.CompilationCache
	cfg   wazero.ModuleConfig
	sigs  map[string]*wasi.Func // "module.name" → the function we provide

	mu     sync.Mutex
	mods   map[string]*compileEntry
	closed bool
	// stopAll is done once the engine closes: every run's context is
	// canceled with it, so a running guest ends at its next tick.
	stopAll    context.Context
	stopAllNow context.CancelFunc
	// fallback runs the modules the instrumenter cannot decode, with wazero's
	// close-on-context-done guard; created on first need (under mu).
	fallback wazero.Runtime
}

type compileEntry struct {
	done chan struct{}
	mod  *Module
	err  error
}

var _ platform.Engine = (*Engine)(nil)

// New makes an engine: one wazero runtime (compiler) with our host modules instantiated
// once.
func New(ctx context.Context, opt Options) (*Engine, error) {
	if opt.MemoryPages == 0 {
		opt.MemoryPages = DefaultMemoryPages
	}
	var cache wazero.CompilationCache
	if opt.CacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(opt.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("native: compilation cache %s: %w", opt.CacheDir, err)
		}
		cache = c
	} else {
		cache = wazero.NewCompilationCache()
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache))
	e := &Engine{
		opt:   opt,
		rt:    rt,
		cache: cache,
		// Anonymous instances may run concurrently; _start is called by Run itself. wazero's
		// own sys context is unused (our host has the clocks and randomness), but its
		// default rand source costs ~15 µs per instance to seed: give it a free one.
		cfg:  wazero.NewModuleConfig().WithName("").WithStartFunctions().WithRandSource(crand.Reader),
		sigs: map[string]*wasi.Func{},
		mods: map[string]*compileEntry{},
	}
	e.stopAll, e.stopAllNow = context.WithCancel(context.WithoutCancel(ctx))
	funcs := wasi.Funcs()
	for i := range funcs {
		f := &funcs[i]
		e.sigs[f.Module+"."+f.Name] = f
	}
	if err := e.bindHost(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	return e, nil
}

// fallbackRuntime returns the runtime for modules we could not instrument, making it on
// first use: wazero's close-on-context-done guard stops them (at a cost in speed).
func (e *Engine) fallbackRuntime(ctx context.Context) (wazero.Runtime, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, errors.New("native: engine closed")
	}
	if e.fallback == nil {
		rt := wazero.NewRuntimeWithConfig(context.WithoutCancel(ctx), wazero.NewRuntimeConfigCompiler().
			WithCloseOnContextDone(true).WithCompilationCache(e.cache))
		if err := e.bindHost(context.WithoutCancel(ctx), rt); err != nil {
			rt.Close(ctx)
			return nil, err
		}
		e.fallback = rt
	}
	return e.fallback, nil
}

var (
	defOnce sync.Once
	defEng  *Engine
	defErr  error
)

// Default is the process-wide engine, with its disk cache in $WASMSAND_CACHE_DIR or else
// <user cache dir>/wasmsand/wazero (memory only if neither is usable).
func Default(ctx context.Context) (*Engine, error) {
	defOnce.Do(func() {
		dir := os.Getenv("WASMSAND_CACHE_DIR")
		if dir == "" {
			if d, err := os.UserCacheDir(); err == nil {
				dir = filepath.Join(d, "wasmsand", "wazero")
			}
		}
		if dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				dir = ""
			}
		}
		defEng, defErr = New(context.WithoutCancel(ctx), Options{CacheDir: dir})
		if defErr != nil && dir != "" {
			defEng, defErr = New(context.WithoutCancel(ctx), Options{})
		}
	})
	return defEng, defErr
}

// runKey finds the running guest's state in the context of a host call.
type runKey struct{}

type runState struct {
	proc     *wasi.Proc
	mem      memory
	refused  bool        // a memory.grow was refused by the limit
	finished atomic.Bool // _start has returned: the memory may be pooled
	// startSize is the memory a start image needs (its first buffer is made that big)
	startSize uint64
	endSize   uint64 // the memory's size when the instance closed
}

// memory adapts api.Memory to wasi.Memory; Write skips the copy when it is handed back
// the very view Read returned (fd_read fills views in place).
type memory struct{ api.Memory }

func (m *memory) Write(off uint32, v []byte) bool {
	if len(v) > 0 {
		if view, ok := m.Memory.Read(off, uint32(len(v))); ok && &view[0] == &v[0] {
			return true
		}
	}
	return m.Memory.Write(off, v)
}

var noMemory = &wasi.SliceMemory{}

func (st *runState) memory(mod api.Module) wasi.Memory {
	if st.mem.Memory == nil {
		mem := mod.Memory()
		if mem == nil {
			return noMemory
		}
		st.mem.Memory = mem
	}
	return &st.mem
}

// bindHost instantiates "wasi_snapshot_preview1" and "wasmsand" (with tick) once for a
// runtime.
func (e *Engine) bindHost(ctx context.Context, rt wazero.Runtime) error {
	byMod := map[string][]*wasi.Func{}
	for _, f := range e.sigs {
		byMod[f.Module] = append(byMod[f.Module], f)
	}
	mods := make([]string, 0, len(byMod))
	for m := range byMod {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, name := range mods {
		b := rt.NewHostModuleBuilder(name)
		sort.Slice(byMod[name], func(i, j int) bool { return byMod[name][i].Name < byMod[name][j].Name })
		for _, f := range byMod[name] {
			call, hasResult := f.Call, len(f.Results) > 0
			fn := api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
				st, _ := ctx.Value(runKey{}).(*runState)
				if st == nil { // not started by Run: refuse politely
					if hasResult {
						stack[0] = uint64(wasi.ENOSYS)
					}
					return
				}
				call(ctx, st.proc, st.memory(mod), stack)
			})
			b.NewFunctionBuilder().
				WithGoModuleFunction(fn, valTypes(f.Params), valTypes(f.Results)).
				WithParameterNames(f.ParamNames...).
				Export(f.Name)
		}
		if _, err := b.Instantiate(ctx); err != nil {
			return fmt.Errorf("native: host module %s: %w", name, err)
		}
	}
	return nil
}

func valTypes(ts []wasi.ValType) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

// Compile implements platform.Engine.
func (e *Engine) Compile(ctx context.Context, key string, wasm []byte) (platform.Module, error) {
	if key == "" {
		sum := sha256.Sum256(wasm)
		key = hex.EncodeToString(sum[:])
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errors.New("native: engine closed")
	}
	if ce, ok := e.mods[key]; ok {
		e.mu.Unlock()
		select {
		case <-ce.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if ce.err != nil {
			return nil, ce.err
		}
		return ce.mod, nil
	}
	ce := &compileEntry{done: make(chan struct{})}
	e.mods[key] = ce
	e.mu.Unlock()

	ce.mod, ce.err = e.compile(ctx, key, wasm)
	if ce.err != nil {
		e.mu.Lock()
		delete(e.mods, key) // a later try may succeed (e.g. the ctx was cancelled)
		e.mu.Unlock()
	}
	close(ce.done)
	if ce.err != nil {
		return nil, ce.err
	}
	return ce.mod, nil
}

// instrumentWasm instruments, detaching the data of pre-initializable modules (see
// instrument.DetachedData); tests replace it to force the fallback.
var instrumentWasm = func(wasm []byte) ([]byte, error) {
	out, _, err := instrument.Options{DetachData: true}.Instrument(wasm)
	return out, err
}

// compile instruments the module and compiles it on the main runtime. A module the
// instrumenter refuses (or, by a bug of ours, breaks) is compiled as is on the fallback
// runtime; invalid bytes are reported with wazero's message about the original.
func (e *Engine) compile(ctx context.Context, key string, wasm []byte) (*Module, error) {
	if inst, err := e.instrumentCached(key, wasm); err == nil {
		cm, err := e.rt.CompileModule(ctx, inst)
		if err == nil {
			m, err := e.finish(ctx, cm, key, e.rt, true)
			if m == nil {
				return nil, err
			}
			if err := m.detachedData(inst); err != nil {
				m.Close()
				return nil, err
			}
			if hasPreinitExports(cm) {
				m.preinitializable = true
				m.globals = instrument.PreinitGlobals(inst)
			}
			return m, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	rt, err := e.fallbackRuntime(ctx)
	if err != nil {
		return nil, err
	}
	cm, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %v", platform.ErrInvalidModule, err)
	}
	return e.finish(ctx, cm, key, rt, false)
}

func (e *Engine) finish(ctx context.Context, cm wazero.CompiledModule, key string, rt wazero.Runtime, instrumented bool) (*Module, error) {
	if err := e.checkImports(cm); err != nil {
		cm.Close(ctx)
		return nil, fmt.Errorf("%w: %v", platform.ErrInvalidModule, err)
	}
	if _, ok := cm.ExportedFunctions()["_start"]; !ok {
		cm.Close(ctx)
		return nil, fmt.Errorf("%w: no _start export (not a WASI command)", platform.ErrInvalidModule)
	}
	m := &Module{e: e, rt: rt, cm: cm, key: key, instrumented: instrumented}
	for _, md := range cm.ExportedMemories() {
		m.minPages = max(m.minPages, md.Min())
	}
	return m, nil
}

// detachedData takes the data the instrumenter detached (copied: the
// module's bytes can go), checking that it fits the memory's minimum.
func (m *Module) detachedData(inst []byte) error {
	segs, ok, err := instrument.DetachedData(inst)
	if err != nil || !ok {
		return err
	}
	for _, s := range segs {
		if uint64(s.Offset)+uint64(len(s.Data)) > uint64(m.minPages)*pageSize {
			return fmt.Errorf("%w: data segment at %d (%d bytes) is outside the memory's %d pages",
				platform.ErrInvalidModule, s.Offset, len(s.Data), m.minPages)
		}
		m.base = append(m.base, chunk{s.Offset, bytes.Clone(s.Data)})
	}
	return nil
}

// checkImports refuses at compile time what instantiation would refuse later, with a
// message that names the import.
func (e *Engine) checkImports(cm wazero.CompiledModule) error {
	if len(cm.ImportedMemories()) > 0 {
		mod, name, _ := cm.ImportedMemories()[0].Import()
		return fmt.Errorf("imports memory %s.%s (guests must define their own)", mod, name)
	}
	for _, d := range cm.ImportedFunctions() {
		mod, name, _ := d.Import()
		f, ok := e.sigs[mod+"."+name]
		if !ok {
			return fmt.Errorf("imports unknown function %s.%s", mod, name)
		}
		if !sameTypes(d.ParamTypes(), f.Params) || !sameTypes(d.ResultTypes(), f.Results) {
			return fmt.Errorf("imports %s.%s with a wrong signature", mod, name)
		}
	}
	return nil
}

func sameTypes(a []api.ValueType, b []wasi.ValType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != api.ValueType(b[i]) {
			return false
		}
	}
	return true
}

func (e *Engine) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

// Close implements platform.Engine.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	e.closed = true
	e.stopAllNow()
	e.mods = map[string]*compileEntry{}
	fallback := e.fallback
	e.mu.Unlock()
	err := e.rt.Close(ctx)
	if fallback != nil {
		if cerr := fallback.Close(ctx); err == nil {
			err = cerr
		}
	}
	if cerr := e.cache.Close(ctx); err == nil {
		err = cerr
	}
	return err
}

// firstLine keeps the reason of a wazero error, without its stack trace.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimPrefix(s, "wasm error: ")
	return s
}
