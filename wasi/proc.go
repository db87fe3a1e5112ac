package wasi

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/vfs"
)

// DefaultMaxFDs is the fd table size when Proc.MaxFDs is 0.
const DefaultMaxFDs = 1024

// PreopenFD is the fd of the single preopened directory "/" (the whole VFS).
const PreopenFD = 3

// Proc is the per-process state of one guest: its arguments, environment and fd table.
//
// Fill the exported fields, then run it on an engine (platform.Module.Run calls Init).
// A Proc is driven by one goroutine at a time (the guest's); only Interrupt may be called
// concurrently. Proc never closes the Stdin/Stdout/Stderr it was given: whoever created
// them closes them after the process has exited.
type Proc struct {
	Name      string   // command name, for messages ("wasmsand: <Name>: trap: ...")
	Pid, PPid int      // reported by wasmsand.getpid
	Args      []string // argv, including argv[0]
	Env       []string // "K=V"; PWD=Cwd is added when Cwd is set and Env has no PWD
	Cwd       string   // absolute; guests learn it through PWD (wasi-libc starts in "/")
	FS        *vfs.FS  // preopened as "/" on fd 3
	// Uid and Gid are the process's credentials for permission checks; 0 is
	// root, which is not checked.
	Uid, Gid uint32
	// Umask holds the permission bits cleared from the mode of the files
	// (0666) and directories (0777) it creates; nil means DefaultUmask.
	Umask *uint32

	// fd 0, 1, 2. nil means empty input / discarded output. A *vfs.File is used as a
	// file (fstat, seek work); a *FDRef shares another Proc's open file description;
	// anything else is a stream. Writers returning syscall.EPIPE/io.ErrClosedPipe give
	// the guest EPIPE. A stream with an IsTerminal() bool method reporting true looks
	// like a tty to the guest (isatty); one with an IsClosedFD() bool method reporting
	// true is not opened at all (the parent closed it: `cmd <&-`).
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Files are the fds above 2 the process inherits (a shell's `exec 4<f`,
	// `cmd 3<<<x`): a *vfs.File, a *FDRef, or a stream that is an io.Reader,
	// an io.Writer or both. Each keeps its number, except 3, where the
	// preopen lives (wasi-libc looks for it there): an inherited 3 takes the
	// first free fd, and /dev/fd/3 opens it.
	Files map[int]any

	MaxFDs  int       // fd table size (EMFILE beyond); 0 = DefaultMaxFDs
	Clock   Clock     // nil = the real clock
	Rand    io.Reader // random_get and friends; nil = crypto/rand
	Spawner Spawner   // wasmsand.spawn; nil = ENOSYS
	// Signal reaches a process that is not a child of this one (wasmsand.kill
	// on another pid: kill(1)); nil = ESRCH for any pid but a child's.
	Signal func(pid, sig int) error
	// PipeSize is the capacity of the pipes wasmsand.pipe makes (0 =
	// PipeSize). Where children run to completion when spawned (GOOS=js),
	// it is large, so that a child's output never waits for its reader.
	PipeSize int

	// Trace, if set, is called after every host call (an strace for debugging).
	Trace func(name string, params []uint64, errno Errno)

	inited   bool
	initErr  error
	maxFDs   int
	env      []string
	argsSize uint32
	envSize  uint32
	start    int64
	fds      []fdSlot
	alias    map[int32]int32 // /dev/fd/N → the fd holding the inherited N
	children map[int32]Child
	pending  []Starter // children spawned and not started yet (see Starter)
	scratch  []byte    // outBuffer's, where guest memory is reached by copies

	mu     sync.Mutex // guards pipes: Interrupt runs on another goroutine
	pipes  []*ofile
	closed bool
}

type fdSlot struct {
	of      *ofile
	preopen string // guest-visible preopen name, "" if not a preopen
}

// ExitError is the panic value of proc_exit (and of a fatal proc_raise). Bindings unwind
// the guest with it and report Code as the exit status.
type ExitError struct{ Code uint32 }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Clock is the process's view of time. Sleep must return early when ctx is done.
type Clock interface {
	Now() time.Time
	Nanotime() int64 // monotonic, arbitrary origin
	Sleep(ctx context.Context, d time.Duration)
}

type realClock struct{}

var clockBase = time.Now()

func (realClock) Now() time.Time  { return time.Now() }
func (realClock) Nanotime() int64 { return int64(time.Since(clockBase)) }
func (realClock) Sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// RealClock is the default Clock.
var RealClock Clock = realClock{}

// Init prepares the fd table. It is idempotent and called by the bindings (and lazily by
// the first host call); the error is the failure to open the preopen "/".
func (p *Proc) Init() error {
	if p.inited {
		return p.initErr
	}
	p.inited = true
	p.maxFDs = p.MaxFDs
	if p.maxFDs <= 0 {
		p.maxFDs = DefaultMaxFDs
	}
	if p.Clock == nil {
		p.Clock = RealClock
	}
	if p.Rand == nil {
		p.Rand = rand.Reader
	}
	p.start = p.Clock.Nanotime()
	p.env = p.Env
	if p.Cwd != "" && !hasEnv(p.Env, "PWD") {
		p.env = append(append([]string(nil), p.Env...), "PWD="+p.Cwd)
	}
	for _, a := range p.Args {
		p.argsSize += uint32(len(a)) + 1
	}
	for _, e := range p.env {
		p.envSize += uint32(len(e)) + 1
	}
	p.fds = make([]fdSlot, 4, 8)
	for fd, x := range []any{p.Stdin, p.Stdout, p.Stderr} {
		if c, ok := x.(closedFD); ok && c.IsClosedFD() {
			continue // the parent closed it (cmd <&-): using it is EBADF
		}
		p.fds[fd].of = stdioOfile(x, fd == 0)
	}
	if p.FS == nil {
		p.initErr = fmt.Errorf("wasi: Proc.FS is nil")
		return p.initErr
	}
	f, err := p.FS.OpenFile("/", vfs.O_DIRECTORY, 0)
	if err != nil {
		p.initErr = fmt.Errorf("wasi: opening the preopen /: %w", err)
		return p.initErr
	}
	of := &ofile{kind: kindFile, f: f, ftype: FiletypeDirectory, path: "/", read: true, closer: f}
	of.refs.Store(1)
	p.fds[PreopenFD] = fdSlot{of: of, preopen: "/"}
	p.inherit()
	return nil
}

// inherit installs Files in the fd table.
func (p *Proc) inherit() {
	if len(p.Files) == 0 {
		return
	}
	fds := make([]int, 0, len(p.Files))
	for fd := range p.Files {
		if fd > 2 && fd < p.maxFDs {
			fds = append(fds, fd)
		}
	}
	sort.Ints(fds)
	for _, fd := range fds {
		if fd == PreopenFD {
			continue
		}
		if of := inheritedOfile(p.Files[fd]); of != nil {
			p.setFD(int32(fd), of)
		}
	}
	if x, ok := p.Files[PreopenFD]; ok {
		if of := inheritedOfile(x); of != nil {
			if nfd, e := p.allocFD(of); e == 0 {
				p.alias = map[int32]int32{PreopenFD: nfd}
			} else {
				of.decref()
			}
		}
	}
}

// CommandName names the process in messages: Name, else argv[0]'s base.
func (p *Proc) CommandName() string {
	if p.Name != "" {
		return p.Name
	}
	if len(p.Args) > 0 {
		return path.Base(p.Args[0])
	}
	return "guest"
}

func hasEnv(env []string, k string) bool {
	for _, e := range env {
		if strings.HasPrefix(e, k+"=") {
			return true
		}
	}
	return false
}

// Close releases every fd (closing files and pipes this process opened). Call it after the
// guest has finished; it is idempotent.
func (p *Proc) Close() error {
	p.startPending() // orphans still run, as they would have beside the parent
	p.mu.Lock()
	p.closed = true
	p.pipes = nil
	p.mu.Unlock()
	for i := range p.fds {
		if of := p.fds[i].of; of != nil {
			p.fds[i] = fdSlot{}
			of.decref()
		}
	}
	return nil
}

// Interrupt unblocks a guest stuck on a pipe it created itself (wasmsand.pipe) by closing
// those pipes; bindings call it when the run's context is cancelled. Streams given as
// Stdin/Stdout/Stderr are the creator's to close. Safe to call from any goroutine.
func (p *Proc) Interrupt() {
	p.mu.Lock()
	pipes := p.pipes
	p.pipes = nil
	p.closed = true
	p.mu.Unlock()
	for _, of := range pipes {
		of.closeNow()
	}
}

// Ref returns a new reference to the open file description behind fd, e.g. to hand it to
// another process. Close the FDRef to release it.
func (p *Proc) Ref(fd int) (*FDRef, error) {
	if !p.inited {
		_ = p.Init()
	}
	of, e := p.lookup(int32(fd))
	if e != 0 {
		return nil, e
	}
	of.incref()
	return &FDRef{of: of}, nil
}

// Children returns the pids of children spawned and not yet waited for.
func (p *Proc) Children() []int {
	var out []int
	for pid := range p.children {
		out = append(out, int(pid))
	}
	return out
}

// OpenFDs returns the fds in use besides 0, 1, 2 and the preopens: files,
// directories and pipes the guest opened and has not closed.
func (p *Proc) OpenFDs() []int {
	var out []int
	for fd, s := range p.fds {
		if fd > 2 && s.of != nil && s.preopen == "" {
			out = append(out, fd)
		}
	}
	return out
}

// DefaultUmask is the mask of a Proc without one: new files 0644, new
// directories 0755, as under a login shell.
const DefaultUmask = 0o022

func (p *Proc) umask() fs.FileMode {
	if p.Umask != nil {
		return fs.FileMode(*p.Umask & 0o777)
	}
	return DefaultUmask
}

func (p *Proc) lookup(fd int32) (*ofile, Errno) {
	if fd < 0 || int(fd) >= len(p.fds) {
		return nil, EBADF
	}
	of := p.fds[fd].of
	if of == nil {
		return nil, EBADF
	}
	return of, 0
}

// allocFD puts of at the lowest free fd (POSIX), taking over the caller's reference.
func (p *Proc) allocFD(of *ofile) (int32, Errno) {
	for i := range p.fds {
		if p.fds[i].of == nil {
			p.fds[i] = fdSlot{of: of}
			return int32(i), 0
		}
	}
	if len(p.fds) >= p.maxFDs {
		return -1, EMFILE
	}
	p.fds = append(p.fds, fdSlot{of: of})
	return int32(len(p.fds) - 1), 0
}

// setFD installs of at fd (closing what was there), taking over the caller's reference.
func (p *Proc) setFD(fd int32, of *ofile) Errno {
	if fd < 0 || int(fd) >= p.maxFDs {
		return EBADF
	}
	for int(fd) >= len(p.fds) {
		p.fds = append(p.fds, fdSlot{})
	}
	old := p.fds[fd].of
	p.fds[fd] = fdSlot{of: of}
	if old != nil {
		old.decref()
	}
	return 0
}

func (p *Proc) closeFD(fd int32) Errno {
	of, e := p.lookup(fd)
	if e != 0 {
		return e
	}
	p.fds[fd] = fdSlot{}
	return ToErrno(of.decref())
}

// trackPipe remembers a pipe end this process created so Interrupt can unblock it.
func (p *Proc) trackPipe(of *ofile) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		of.closeNow()
		return
	}
	// Drop entries already closed so a long-running guest making many pipes stays small.
	j := 0
	for _, o := range p.pipes {
		if o.refs.Load() > 0 {
			p.pipes[j] = o
			j++
		}
	}
	p.pipes = append(p.pipes[:j], of)
	p.mu.Unlock()
}
