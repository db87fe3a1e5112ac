//go:build js && wasm

package js

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall/js"

	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/platform/instrument"
	"github.com/wasmsand/wasmsand/wasi"
)

// DefaultMemoryPages is 1 GiB, as natively.
const DefaultMemoryPages = 16384

// Options configure an Engine.
type Options struct {
	// MemoryPages is the per-guest memory limit when Limits.MemoryPages is 0.
	MemoryPages uint32
}

// Engine is the JS implementation of platform.Engine. Its guests cannot
// yield from inside a host call, so it asks the core for the batched
// scheduler (Sequential).
type Engine struct {
	opt  Options
	host js.Value // globalThis.__wasmsandHost, set up by host.js

	mu     sync.Mutex
	mods   map[string]*Module
	closed bool
}

var _ platform.Engine = (*Engine)(nil)

// ErrNoHost: the JS half (host.js) was not loaded before the Go program.
var ErrNoHost = errors.New("js: globalThis.__wasmsandHost is missing (load host.js before the core)")

// New makes an engine over the JS half that host.js installed.
func New(opt Options) (*Engine, error) {
	if opt.MemoryPages == 0 {
		opt.MemoryPages = DefaultMemoryPages
	}
	h := js.Global().Get("__wasmsandHost")
	if h.IsUndefined() || h.IsNull() {
		return nil, ErrNoHost
	}
	if err := bindHost(h); err != nil {
		return nil, err
	}
	return &Engine{opt: opt, host: h, mods: map[string]*Module{}}, nil
}

// Sequential tells the core that guests must run one after another.
func (e *Engine) Sequential() bool { return true }

// Compile instruments the module and has the JS engine compile it, once per
// key for the life of the page or process.
func (e *Engine) Compile(ctx context.Context, key string, wasm []byte) (platform.Module, error) {
	if key == "" {
		sum := sha256.Sum256(wasm)
		key = hex.EncodeToString(sum[:])
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, errors.New("js: engine closed")
	}
	if m := e.mods[key]; m != nil {
		return m, nil
	}
	// the memory becomes an import, so that it can be given this run's
	// maximum (the JS API cannot bound a memory the module defines)
	code, st, err := instrument.Options{ImportMemory: true, ExportGlobals: true}.Instrument(wasm)
	if err != nil {
		// not decodable by the instrumenter: it runs, but no timeout can stop
		// a loop in it (the engine has no other guard)
		code = wasm
	}
	arr := js.Global().Get("Uint8Array").New(len(code))
	js.CopyBytesToJS(arr, code)
	res := e.host.Call("compile", arr, err == nil && st.Restartable)
	if msg := res.Get("error"); !msg.IsUndefined() {
		return nil, fmt.Errorf("%w: %s", platform.ErrInvalidModule, msg.String())
	}
	m := &Module{e: e, id: res.Get("id").Int(), key: key}
	imports := res.Get("imports")
	for i := 0; i < imports.Length(); i++ {
		imp := imports.Index(i)
		mod, name, kind := imp.Get("module").String(), imp.Get("name").String(), imp.Get("kind").String()
		if kind != "function" {
			if kind == "memory" && !(st.Memory != nil && mod == instrument.ImportModule && name == instrument.MemoryImportName) {
				return nil, fmt.Errorf("%w: imported memory %s.%s", platform.ErrInvalidModule, mod, name)
			}
			continue
		}
		if st.Memory != nil && mod == instrument.ImportModule && name == instrument.MemoryGrowName {
			continue // host.js's own
		}
		if _, ok := funcIndex[mod+"."+name]; !ok {
			return nil, fmt.Errorf("%w: unknown import %s.%s", platform.ErrInvalidModule, mod, name)
		}
	}
	if !res.Get("hasStart").Bool() {
		return nil, fmt.Errorf("%w: no _start export", platform.ErrInvalidModule)
	}
	if st.Memory != nil {
		m.mem = *st.Memory
		m.importsMemory = true
		m.minPages = st.Memory.Min
	}
	e.mods[key] = m
	return m, nil
}

// Close forgets the compiled modules.
func (e *Engine) Close(context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed = true
	for _, m := range e.mods {
		e.host.Call("release", m.id)
	}
	e.mods = nil
	return nil
}

// Module is a compiled guest.
type Module struct {
	e             *Engine
	id            int
	key           string
	minPages      uint32
	importsMemory bool // instrumented with ImportMemory: run gives it a bounded memory
	mem           instrument.MemoryLimits
}

var _ platform.Module = (*Module)(nil)

// Run instantiates the guest and runs _start to its end. A child the guest
// spawns runs nested in one of its host calls (see wasi.Starter).
func (m *Module) Run(ctx context.Context, p *wasi.Proc, lim platform.Limits) (int, error) {
	if err := p.Init(); err != nil {
		return 1, err
	}
	if p.Clock == nil || p.Clock == wasi.RealClock {
		p.Clock = jsClock{}
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
	if ctx.Err() != nil {
		return m.stopped(ctx, name)
	}
	r := startRun(ctx, p)
	defer r.end()
	r.floor, r.top = reserveStack()
	memMin, memMax := -1, -1 // -1: the module's own memory (not bounded)
	if m.importsMemory {
		memMin, memMax = int(m.mem.Min), int(pages)
		if m.mem.HasMax {
			memMax = int(min(pages, m.mem.Max))
		}
	}
	res := m.e.host.Call("run", m.id, r.id, pages, memMin, memMax)
	kind, code := res.Get("kind").String(), 0
	if c := res.Get("code"); c.Type() == js.TypeNumber {
		code = c.Int()
	}
	switch kind {
	case "exit":
		if r.stopped {
			return m.stopped(ctx, name)
		}
		if code != 0 && res.Get("atLimit").Bool() {
			return code & 0xff, fmt.Errorf("%w: %s", platform.ErrMemoryLimit, name)
		}
		return code & 0xff, nil
	case "stopped":
		return m.stopped(ctx, name)
	case "hostpanic":
		msg := "host error: " + r.panicMsg
		io.WriteString(p.Stderr, "wasmsand: "+name+": trap: "+msg+"\n")
		return platform.ExitTrap, fmt.Errorf("%w: %s: %s", platform.ErrTrap, name, msg)
	}
	// a trap: out of bounds, unreachable, stack overflow, or memory refused
	msg := trapReason(firstLine(res.Get("message").String()))
	if res.Get("atLimit").Bool() {
		return platform.ExitTrap, fmt.Errorf("%w: %s", platform.ErrMemoryLimit, name)
	}
	if p.Stderr != nil {
		io.WriteString(p.Stderr, "wasmsand: "+name+": trap: "+msg+"\n")
	}
	return platform.ExitTrap, fmt.Errorf("%w: %s: %s", platform.ErrTrap, name, msg)
}

// stopped reports a guest ended by its context.
func (m *Module) stopped(ctx context.Context, name string) (int, error) {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || interrupt.PastDeadline(ctx) {
		return platform.ExitTimeout, fmt.Errorf("%w: %s", platform.ErrTimeout, name)
	}
	return platform.ExitKilled, fmt.Errorf("%w: %s", platform.ErrKilled, name)
}

// trapReason says a trap as natively (wazero's words), whatever the JS
// engine calls it, so messages are the same on every platform.
func trapReason(msg string) string {
	for _, r := range [...]struct{ js, native string }{
		{"memory access out of bounds", "out of bounds memory access"},
		{"Maximum call stack size exceeded", "stack overflow"},
		{"divide by zero", "integer divide by zero"},
		{"remainder by zero", "integer divide by zero"},
		{"float unrepresentable in integer range", "invalid conversion to integer"},
		{"table index is out of bounds", "invalid table access"},
		{"null function or function signature mismatch", "indirect call type mismatch"},
	} {
		if strings.Contains(msg, r.js) {
			return r.native
		}
	}
	return msg
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
