// Package platform is the engine interface the core runs guests on. Implementations:
// platform/native (wazero's compiler) and, later, platform/js (the JS WebAssembly engine
// under GOOS=js). Nothing here may import wazero.
package platform

import (
	"context"
	"errors"

	"github.com/wasmsand/wasmsand/wasi"
)

// Engine compiles guest modules. It is safe for concurrent use.
type Engine interface {
	// Compile compiles (or finds in its caches) a WASI preview1 command module. key
	// identifies the bytes (e.g. their sha256); "" makes the engine hash them itself.
	// Bad bytes, a missing _start or an import we do not provide give ErrInvalidModule.
	Compile(ctx context.Context, key string, wasm []byte) (Module, error)
	// Close releases every compiled module; in-flight runs are stopped.
	Close(ctx context.Context) error
}

// Module is a compiled guest. Run may be called concurrently, each call with its own Proc.
type Module interface {
	// Run instantiates the module with p's fds, args and environment and runs _start to its
	// end. It calls p.Init but not p.Close (the caller may still read p afterwards).
	//
	// exitCode is what a shell would see: the guest's exit status (0-255), 134 after a
	// trap (Run has then written "wasmsand: <name>: trap: <reason>" to the guest's stderr),
	// 124 on ErrTimeout, 137 on ErrKilled. err is nil for any normal exit (including a
	// non-zero status) and otherwise wraps one of the errors below.
	Run(ctx context.Context, p *wasi.Proc, lim Limits) (exitCode int, err error)
}

// Preinitializer is a Module that can start its guests from a pre-initialized image
// (engines that cannot simply do not implement it). A module opts in by exporting
// wasmsand_preinit and wasmsand_resume (assets/python/preinit.c): the engine calls
// wasmsand_preinit once, in a pristine process, and keeps the guest's memory as an image;
// each later run starts from a copy of the image by calling wasmsand_resume, which runs
// the program and exits, or returns at once to say this process needs a cold start.
type Preinitializer interface {
	Module
	// Preinitializable reports whether the module opts in.
	Preinitializable() bool
	// RunPreinit is Run, starting from pre's image (made on first use; while it cannot
	// be made, or the guest declines to resume, the run is a cold Run).
	RunPreinit(ctx context.Context, p *wasi.Proc, lim Limits, pre Preinit) (exitCode int, err error)
}

// Preinit says how to make a pre-initialized image.
type Preinit struct {
	// Key names everything New's process can read; the engine keeps one image per
	// module and Key.
	Key string
	// New makes the pristine process wasmsand_preinit runs in: its own FS holding only
	// what Key names, no arguments or environment. The engine gives it no stdin and
	// checks that it wrote nothing and left no file open.
	New func() *wasi.Proc
}

// Limits bound one run.
type Limits struct {
	// MemoryPages caps the guest's linear memory in 64 KiB pages; 0 = engine default.
	// A guest whose memory.grow is refused usually fails (malloc returns NULL); if it then
	// ends abnormally, Run returns ErrMemoryLimit.
	MemoryPages uint32
}

// Exit codes Run reports for abnormal ends, as a shell would show them.
const (
	ExitTrap    = 134 // like SIGABRT
	ExitTimeout = 124 // like timeout(1)
	ExitKilled  = 137 // like SIGKILL
)

var (
	// ErrInvalidModule: the bytes are not a runnable WASI command module.
	ErrInvalidModule = errors.New("invalid WebAssembly module")
	// ErrMemoryLimit: the guest needed more memory than Limits.MemoryPages allows.
	ErrMemoryLimit = errors.New("memory limit exceeded")
	// ErrTimeout: the run's context deadline passed; the guest was stopped.
	ErrTimeout = errors.New("time limit exceeded")
	// ErrKilled: the run's context was cancelled; the guest was stopped.
	ErrKilled = errors.New("killed")
	// ErrTrap: the guest crashed (unreachable, out-of-bounds access, stack overflow...).
	ErrTrap = errors.New("trap")
)
