package wasi

import (
	"context"
	"io"
	"sync/atomic"
	"syscall"

	"github.com/wasmsand/wasmsand/vfs"
)

// Spawner runs child processes for wasmsand.spawn; the process manager (core) implements
// it. Spawn must not block until the child exits (natively: start it on a goroutine);
// nothing in it may need an event loop, so a GOOS=js scheduler can implement it too.
//
// On success the Spawner owns the streams in req: it must Close each one that is an
// io.Closer once the child has exited. They are *FDRef values holding references on the
// parent's open files (a pipe's reader sees EOF only after every holder of the write end
// has closed it). On error the caller closes them.
type Spawner interface {
	Spawn(ctx context.Context, req SpawnRequest) (Child, error)
}

// SpawnRequest describes a child. Env is complete (inherited or given by the guest) and its
// PWD equals Dir. A nil stream means no stream (empty input, discarded output). A
// *FDRef given to a child Proc as Stdin/Stdout/Stderr is shared, not copied: same offset,
// same file, like fork+exec.
type SpawnRequest struct {
	PPid   int    // the parent's pid (Proc.Pid)
	Umask  uint32 // the parent's (Proc.Umask)
	Argv   []string
	Env    []string
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Child is a running child process.
type Child interface {
	Pid() int
	Wait() int // blocks until exit; returns the exit status (0-255; 128+sig if killed)
	// TryWait is Wait without blocking: ok is false while the child runs.
	TryWait() (status int, ok bool)
	Kill(sig int) error
}

// Starter is a Child that does not run until it is started (where guests
// cannot yield, GOOS=js): the host starts it, once, when its parent would
// otherwise wait for it — in wait, or reading a pipe that has nothing yet,
// or polling — and when the parent exits.
type Starter interface {
	Child
	Start()
}

// startPending starts the children not started yet, oldest first.
func (p *Proc) startPending() {
	for len(p.pending) > 0 {
		c := p.pending[0]
		p.pending = p.pending[1:]
		c.Start()
	}
}

// FDRef is one reference to an open file description of a Proc (see Proc.Ref). It reads and
// writes like the fd would; Close releases the reference (the file or pipe end closes when
// its last reference goes).
type FDRef struct {
	of     *ofile
	closed atomic.Bool
}

func (r *FDRef) Read(b []byte) (int, error) {
	if r.closed.Load() || !r.of.read {
		return 0, EBADF
	}
	return r.of.Read(b)
}

// TryRead reads without waiting: syscall.EAGAIN while a pipe has nothing
// yet (files and other streams read as Read does).
func (r *FDRef) TryRead(b []byte) (int, error) {
	if r.closed.Load() || !r.of.read {
		return 0, EBADF
	}
	if r.of.kind == kindStream && r.of.pollable() && !r.of.readReady() {
		return 0, syscall.EAGAIN
	}
	return r.of.Read(b)
}

func (r *FDRef) Write(b []byte) (int, error) {
	if r.closed.Load() || !r.of.write {
		return 0, EBADF
	}
	return r.of.Write(b)
}

// Close releases the reference; later calls do nothing.
func (r *FDRef) Close() error {
	if r.closed.Swap(true) {
		return nil
	}
	return r.of.decref()
}

// File is the vfs file behind the reference, or nil for streams and pipes.
func (r *FDRef) File() *vfs.File {
	if r.of.kind == kindFile {
		return r.of.f
	}
	return nil
}

// IsTerminal reports whether the guest sees this fd as a tty.
func (r *FDRef) IsTerminal() bool { return r.of.tty }

// ReadReady implements ReadPoller (true when the stream cannot tell).
func (r *FDRef) ReadReady() bool {
	if r.of.kind == kindStream && r.of.pollable() {
		return r.of.readReady()
	}
	return true
}

// FDTarget is what /proc/PID/fd/N shows for a stream or file given to a
// process as one of its fds (Proc.Stdin..., Proc.Files): the file's path, a
// pipe's identity, the terminal, /dev/null for none.
func FDTarget(x any) string {
	switch v := x.(type) {
	case nil:
		return "/dev/null"
	case *vfs.File:
		return v.Name()
	case *FDRef:
		if t, ok := v.of.link(); ok {
			return t
		}
	}
	if t, ok := x.(terminal); ok && t.IsTerminal() {
		return "/dev/pts/0"
	}
	return pipeLink(pipeIDOf(x)) // (pipe:[0] for a stream that is no pipe)
}
