package vfs

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultPipeSize is the capacity of Pipe(0), like Linux's 64 KiB.
const DefaultPipeSize = 64 << 10

// pipe is a bounded ring buffer shared by anonymous pipes and FIFOs. Its
// buffer grows on demand up to size, so the many short-lived pipes of a
// shell pipeline do not each allocate 64 KiB.
type pipe struct {
	mu       sync.Mutex
	rc, wc   sync.Cond // readers wait on rc, writers on wc
	buf      []byte
	r, n     int // read position, bytes buffered
	size     int
	readers  int
	writers  int
	hadRead  bool // a reader existed: only then does "no reader" mean EPIPE
	hadWrite bool // a writer existed: only then does "no writer" mean EOF
	id       uint64
	cut      atomic.Bool // a writer's output was cut before it reached the pipe
}

var pipeIDs atomic.Uint64

func newPipe(size int) *pipe {
	if size <= 0 {
		size = DefaultPipeSize
	}
	p := &pipe{size: size, id: pipeIDs.Add(1)}
	p.rc.L = &p.mu
	p.wc.L = &p.mu
	return p
}

func (p *pipe) addReader() {
	p.mu.Lock()
	p.readers++
	p.hadRead = true
	p.mu.Unlock()
	p.wc.Broadcast()
}

func (p *pipe) addWriter() {
	p.mu.Lock()
	p.writers++
	p.hadWrite = true
	p.mu.Unlock()
	p.rc.Broadcast()
}

// closeReader/closeWriter report idle when nobody holds the pipe any more
// and a reader has had it: the FIFO can then be forgotten (what was not
// read is lost, as when a real FIFO's last holder closes it). A pipe whose
// writers came and went before any reader is kept, data and end of file,
// for the next reader: a real FIFO would have made the writer's open wait
// for a reader instead, and we never block in open.
func (p *pipe) closeReader() (idle bool) {
	p.mu.Lock()
	p.readers--
	idle = p.readers == 0 && p.writers == 0 && p.hadRead
	p.mu.Unlock()
	p.wc.Broadcast()
	p.rc.Broadcast() // a reader blocked on the end just closed
	return idle
}

func (p *pipe) closeWriter() (idle bool) {
	p.mu.Lock()
	p.writers--
	idle = p.readers == 0 && p.writers == 0 && p.hadRead
	p.mu.Unlock()
	p.rc.Broadcast()
	p.wc.Broadcast() // a writer blocked on the end just closed
	return idle
}

// take copies buffered bytes into b; p.mu held.
func (p *pipe) take(b []byte) int {
	c := 0
	for c < len(b) && p.n > 0 {
		end := min(p.r+p.n, len(p.buf))
		k := copy(b[c:], p.buf[p.r:end])
		c += k
		p.r = (p.r + k) % len(p.buf)
		p.n -= k
	}
	if p.n == 0 {
		p.r = 0
	}
	return c
}

// put buffers as much of b as fits; p.mu held.
func (p *pipe) put(b []byte) int {
	if free := len(p.buf) - p.n; free < len(b) && len(p.buf) < p.size {
		// Grow (linearizing the ring) up to size.
		nc := min(max(2*len(p.buf), p.n+len(b), 512), p.size)
		nb := make([]byte, nc)
		k := p.take(nb) // drains the ring into nb, resets r
		p.buf, p.r, p.n = nb, 0, k
	}
	c := 0
	for c < len(b) && p.n < len(p.buf) {
		w := (p.r + p.n) % len(p.buf)
		end := len(p.buf)
		if w < p.r {
			end = p.r
		}
		k := copy(p.buf[w:end], b[c:])
		c += k
		p.n += k
	}
	return c
}

// read takes what is buffered, waiting for some if block; closed reports
// that the reading end itself was closed meanwhile (by another goroutine:
// a killed process's handles), which ends the wait with EBADF.
func (p *pipe) read(b []byte, block bool, closed *atomic.Bool) (int, error) {
	return p.readFor(b, block, 0, closed)
}

// readFor reads what is buffered, waiting for it when block: for at most d
// when d > 0, then os.ErrDeadlineExceeded (bash's read -t on a pipe or FIFO).
func (p *pipe) readFor(b []byte, block bool, d time.Duration, closed *atomic.Bool) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var expired atomic.Bool
	if block && d > 0 {
		t := time.AfterFunc(d, func() {
			expired.Store(true)
			p.mu.Lock()
			p.rc.Broadcast()
			p.mu.Unlock()
		})
		defer t.Stop()
	}
	p.mu.Lock()
	for p.n == 0 {
		if p.writers == 0 && p.hadWrite {
			p.mu.Unlock()
			return 0, io.EOF
		}
		if !block {
			p.mu.Unlock()
			return 0, syscall.EAGAIN
		}
		if closed != nil && closed.Load() {
			p.mu.Unlock()
			return 0, syscall.EBADF
		}
		if expired.Load() {
			p.mu.Unlock()
			return 0, os.ErrDeadlineExceeded
		}
		p.rc.Wait()
	}
	c := p.take(b)
	p.mu.Unlock()
	p.wc.Broadcast()
	return c, nil
}

func (p *pipe) write(b []byte, block bool, closed *atomic.Bool) (int, error) {
	p.mu.Lock()
	total := 0
	for {
		if p.readers == 0 && p.hadRead {
			p.mu.Unlock()
			return total, syscall.EPIPE
		}
		if closed != nil && closed.Load() {
			p.mu.Unlock()
			return total, syscall.EBADF
		}
		if total == len(b) {
			break
		}
		c := p.put(b[total:])
		total += c
		if c > 0 {
			p.rc.Broadcast()
			continue
		}
		if !block {
			p.mu.Unlock()
			if total == 0 {
				return 0, syscall.EAGAIN
			}
			return total, nil
		}
		p.wc.Wait()
	}
	p.mu.Unlock()
	return total, nil
}

// PipeID tells pipes apart (both ends of one pipe have the same): what a
// process's fstat reports as the inode, as Linux's pipefs does.
func (r *PipeReader) PipeID() uint64 { return r.p.id }

// PipeID is the pipe's identity (see PipeReader.PipeID).
func (w *PipeWriter) PipeID() uint64 { return w.p.id }

// Buffered is the number of bytes waiting to be read.
func (p *pipe) buffered() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// PipeReader is the read end of an anonymous pipe.
type PipeReader struct {
	p      *pipe
	once   sync.Once
	closed atomic.Bool
}

// PipeWriter is the write end of an anonymous pipe.
type PipeWriter struct {
	p      *pipe
	once   sync.Once
	closed atomic.Bool
}

// Pipe returns a connected pair over a bounded buffer of size bytes
// (0 = DefaultPipeSize). Errors are bare syscall.Errno values (EPIPE,
// EAGAIN) and io.EOF, as an fd layer wants them.
func Pipe(size int) (*PipeReader, *PipeWriter) {
	p := newPipe(size)
	p.readers, p.writers, p.hadRead, p.hadWrite = 1, 1, true, true
	return &PipeReader{p: p}, &PipeWriter{p: p}
}

// Read blocks until data is available; io.EOF once the writer closed and
// the buffer is drained.
func (r *PipeReader) Read(b []byte) (int, error) { return r.p.read(b, true, &r.closed) }

// ReadTimeout is Read giving up after d (os.ErrDeadlineExceeded).
func (r *PipeReader) ReadTimeout(b []byte, d time.Duration) (int, error) {
	return r.p.readFor(b, true, d, &r.closed)
}

// TryRead never blocks: syscall.EAGAIN when empty and the writer is open.
func (r *PipeReader) TryRead(b []byte) (int, error) { return r.p.read(b, false, &r.closed) }

// Buffered is the number of bytes waiting to be read.
func (r *PipeReader) Buffered() int { return r.p.buffered() }

// Close closes the read end; pending and later writes fail with EPIPE, a
// read blocked on it (another goroutine's) fails with EBADF.
func (r *PipeReader) Close() error {
	r.once.Do(func() {
		r.closed.Store(true)
		r.p.closeReader()
	})
	return nil
}

// Write blocks while the buffer is full until all of b is written;
// syscall.EPIPE (with the count written so far) once the reader closed.
func (w *PipeWriter) Write(b []byte) (int, error) { return w.p.write(b, true, &w.closed) }

// TryWrite writes what fits without blocking: syscall.EAGAIN if nothing fits.
func (w *PipeWriter) TryWrite(b []byte) (int, error) { return w.p.write(b, false, &w.closed) }

// MarkCut records that what was written is not all the writer produced: a
// scheduler that buffers a program's output whole (GOOS=js) had to stop it
// at a limit. The reader can tell (Cut) when it read everything.
func (w *PipeWriter) MarkCut() { w.p.cut.Store(true) }

// Cut reports MarkCut on the other end.
func (r *PipeReader) Cut() bool { return r.p.cut.Load() }

// Close closes the write end: the reader sees EOF after the buffered data.
func (w *PipeWriter) Close() error {
	w.once.Do(func() {
		w.closed.Store(true)
		w.p.closeWriter()
	})
	return nil
}

// ReadsInPlace reports whether stream x waits for its input on the calling
// thread itself, never on another goroutine (a method ReadsInPlace() bool
// reporting true: the JS core's streamed stdin, which waits on shared
// memory): a reader may take it as it comes, a byte or a line at a time,
// where other streams are read ahead or to their end.
func ReadsInPlace(x any) bool {
	r, ok := x.(interface{ ReadsInPlace() bool })
	return ok && r.ReadsInPlace()
}

// NonBlocking reads what r holds now and then reports end of file instead
// of waiting, for any stream with a TryRead that says syscall.EAGAIN when
// empty (a pipe, a wasi fd): the stdin of a program that runs while its
// writer cannot (GOOS=js). Other streams are returned as they are.
func NonBlocking(r io.Reader) io.Reader {
	t, ok := r.(interface {
		TryRead([]byte) (int, error)
	})
	if !ok {
		return r
	}
	return tryReader{t}
}

type tryReader struct {
	r interface{ TryRead([]byte) (int, error) }
}

func (t tryReader) Read(p []byte) (int, error) {
	n, err := t.r.TryRead(p)
	if errors.Is(err, syscall.EAGAIN) {
		return n, io.EOF
	}
	return n, err
}
