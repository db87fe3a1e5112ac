package core

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"syscall"

	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// A scheduler connects a guest's stdio before it runs: the platform's choice
// of how pipeline stages share time.
//
//   - streaming (native): stages run concurrently on goroutines, guests read
//     and write the pipes directly; a full pipe blocks the writer.
//   - batched (GOOS=js): a guest running on the JS engine cannot yield from
//     inside a host call, so it must never block there. Its stdin is read
//     to the end before it starts (the previous stage has then finished), and
//     its output goes to bounded buffers handed on after it exits; a full
//     buffer fails the write with EPIPE, as a reader that closed the pipe
//     would, so `yes | head -1` still ends. Output to a file or to the
//     run's own stdout/stderr (which never block) goes there directly.
type scheduler interface {
	// start returns the streams the guest should get and a function to call
	// after it exits.
	start(stdin io.Reader, stdout, stderr io.Writer) (io.Reader, io.Writer, io.Writer, func())
	// inline: children a guest spawns run to completion in the spawn call.
	inline() bool
	// pipeSize is the capacity of pipes guests make (0: the default).
	pipeSize() int
}

// sequentialEngine is implemented by engines whose guests cannot yield (the
// JS engine); they get the batched scheduler.
type sequentialEngine interface{ Sequential() bool }

func schedulerFor(e any, batchLimit int) scheduler {
	if s, ok := e.(sequentialEngine); ok && s.Sequential() {
		return batched{limit: batchLimit}
	}
	return streaming{}
}

type streaming struct{}

func (streaming) inline() bool  { return false }
func (streaming) pipeSize() int { return 0 }

func (streaming) start(in io.Reader, out, errw io.Writer) (io.Reader, io.Writer, io.Writer, func()) {
	return in, out, errw, func() {}
}

type batched struct{ limit int }

func (batched) inline() bool    { return true }
func (b batched) pipeSize() int { return b.limit }

func (b batched) start(in io.Reader, out, errw io.Writer) (io.Reader, io.Writer, io.Writer, func()) {
	var giveBack func()
	if _, isFile := in.(*vfs.File); in != nil && !isClosedFD(in) && !isFile && !vfs.ReadsInPlace(in) {
		// (a file never blocks: the guest gets it as a file, seekable and
		// with its size, as `wc < f` wants; a stdin read in place is handed
		// on as it is, so a guest gets input as it comes)
		data, _ := io.ReadAll(in)
		rd := bytes.NewReader(data)
		src := in
		giveBack = func() {
			if n := rd.Len(); n > 0 {
				// what the guest leaves is the next command's: (mkdir x; tar xf -)
				if u, ok := src.(unreader); ok {
					u.Unread(data[len(data)-n:])
				}
			} else if c, ok := src.(interface{ Cut() bool }); ok && c.Cut() && errw != nil && !isClosedFD(errw) {
				// it read everything, and there should have been more
				fmt.Fprintf(errw, "wasmsand: this program's input was cut at %d MiB: stages of a pipeline run one after another here, each handing on at most that much (raise it: pipeBufferMb, Options.BatchLimit; or use a file between them)\n", b.limit>>20)
			}
		}
		in = rd
	}
	var flush []func()
	buffer := func(w io.Writer) io.Writer {
		if isClosedFD(w) {
			return w // the guest starts without that fd
		}
		if _, isFile := w.(*vfs.File); isFile {
			return w // a file never blocks, and its errors (ENOSPC) are the guest's to see
		}
		if _, nested := w.(*boundedBuffer); !nested && wasi.NeverBlocks(w) {
			return w // the run's own output: streamed to the caller as it comes
		}
		bb := &boundedBuffer{limit: b.limit, dst: w}
		flush = append(flush, bb.flush)
		return bb
	}
	out, errw = buffer(out), buffer(errw)
	return in, out, errw, func() {
		if giveBack != nil {
			giveBack()
		}
		for _, f := range flush {
			f()
		}
	}
}

// unreader is a stdin that can take back what a guest did not read (the
// shell's open files).
type unreader interface{ Unread([]byte) }

// isClosedFD: the stream stands for a descriptor the shell closed (see
// wasi.Proc's Stdin).
func isClosedFD(x any) bool {
	c, ok := x.(interface{ IsClosedFD() bool })
	return ok && c.IsClosedFD()
}

// boundedBuffer holds a guest's output until it exits.
type boundedBuffer struct {
	mu    sync.Mutex
	limit int
	buf   bytes.Buffer
	dst   io.Writer
	cut   bool // a write was refused at the limit
}

// NeverBlocks: a write returns at once (wasi takes the quick way to it).
func (b *boundedBuffer) NeverBlocks() bool { return true }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.limit - b.buf.Len()
	if room <= 0 {
		b.cut = true
		return 0, syscall.EPIPE
	}
	if len(p) > room {
		b.buf.Write(p[:room])
		b.cut = true
		return room, syscall.EPIPE
	}
	return b.buf.Write(p)
}

func (b *boundedBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dst != nil && b.buf.Len() > 0 {
		_, _ = b.dst.Write(b.buf.Bytes())
	}
	if m, ok := b.dst.(interface{ MarkCut() }); ok && b.cut {
		m.MarkCut()
	}
	b.buf.Reset()
}
