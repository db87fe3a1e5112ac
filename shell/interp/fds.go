package interp

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/wasmsand/wasmsand/vfs"
)

// openFile is an open file description held by one or more fds (of this
// shell or its subshells): closed when the last one lets go.
type openFile struct {
	mu   sync.Mutex
	r    io.Reader
	w    io.Writer
	c    io.Closer // nil for streams the shell borrows (the run's stdio)
	buf  []byte    // read ahead by the shell and not yet consumed
	refs atomic.Int32
	vf   *vfs.File // a VFS file (seekable)
}

func newOpenFile(r io.Reader, w io.Writer, c io.Closer) *openFile {
	f := &openFile{r: r, w: w, c: c}
	f.refs.Store(1)
	if vf, ok := c.(*vfs.File); ok {
		f.vf = vf
	} else if vf, ok := r.(*vfs.File); ok {
		f.vf = vf // a file a parent shell shares with this one (bash < script)
	}
	return f
}

// borrowed wraps a stream the shell must not close.
func borrowed(r io.Reader, w io.Writer) *openFile {
	if r == nil && w == nil {
		return nil
	}
	return newOpenFile(r, w, nil)
}

func (f *openFile) Read(p []byte) (int, error) {
	if f.r == nil {
		return 0, syscall.EBADF
	}
	f.mu.Lock()
	if len(f.buf) > 0 {
		n := copy(p, f.buf)
		f.buf = f.buf[n:]
		f.mu.Unlock()
		return n, nil
	}
	f.mu.Unlock()
	return f.r.Read(p)
}

// MarkCut and Cut pass on to a pipe (vfs.PipeWriter.MarkCut).
func (f *openFile) MarkCut() {
	if m, ok := f.w.(interface{ MarkCut() }); ok {
		m.MarkCut()
	}
}

func (f *openFile) Cut() bool {
	c, ok := f.r.(interface{ Cut() bool })
	return ok && c.Cut()
}

func (f *openFile) Write(p []byte) (int, error) {
	if f.w == nil {
		return 0, syscall.EBADF
	}
	return f.w.Write(p)
}

func (f *openFile) WriteString(s string) (int, error) {
	if f.w == nil {
		return 0, syscall.EBADF
	}
	if sw, ok := f.w.(io.StringWriter); ok {
		return sw.WriteString(s)
	}
	return f.w.Write([]byte(s))
}

// readByte reads one byte for `read`: from the look-ahead buffer, or a
// chunk from a seekable file (the rest stays for the next reader), or one
// byte from a pipe so that nothing past the line is taken from others.
func (f *openFile) readByte() (byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.buf) > 0 {
		b := f.buf[0]
		f.buf = f.buf[1:]
		return b, nil
	}
	if f.r == nil {
		return 0, syscall.EBADF
	}
	var one [1]byte
	for {
		n, err := f.r.Read(one[:])
		if n == 1 {
			return one[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// Unread puts back bytes a program took from f but did not use, ahead of
// what f holds (the batched scheduler reads a guest's stdin whole first).
func (f *openFile) Unread(p []byte) {
	f.mu.Lock()
	f.buf = append(append([]byte(nil), p...), f.buf...)
	f.mu.Unlock()
}

func (f *openFile) hold() *openFile {
	f.refs.Add(1)
	return f
}

// drop releases one hold, closing the file with the last.
func (f *openFile) drop() {
	if f == nil {
		return
	}
	if f.refs.Add(-1) == 0 && f.c != nil {
		_ = f.c.Close()
	}
}

// fdTable maps descriptors to open files.
type fdTable struct {
	m map[int]*openFile
}

func newFdTable() *fdTable { return &fdTable{m: make(map[int]*openFile, 4)} }

func (t *fdTable) get(fd int) *openFile { return t.m[fd] }

// set installs f at fd (taking over the caller's hold) and drops what was
// there.
func (t *fdTable) set(fd int, f *openFile) {
	old := t.m[fd]
	if f == nil {
		delete(t.m, fd)
	} else {
		t.m[fd] = f
	}
	old.drop()
}

// swap installs f at fd and returns what was there, still held.
func (t *fdTable) swap(fd int, f *openFile) *openFile {
	old := t.m[fd]
	if f == nil {
		delete(t.m, fd)
	} else {
		t.m[fd] = f
	}
	return old
}

// dup copies the table for a subshell: every file gets one more holder.
func (t *fdTable) dup() *fdTable {
	n := &fdTable{m: make(map[int]*openFile, len(t.m))}
	for fd, f := range t.m {
		n.m[fd] = f.hold()
	}
	return n
}

func (t *fdTable) closeAll() {
	for fd, f := range t.m {
		delete(t.m, fd)
		f.drop()
	}
}

// lowestFree is the lowest fd at or above min that is not open.
func (t *fdTable) lowestFree(min int) int {
	for fd := min; ; fd++ {
		if _, ok := t.m[fd]; !ok {
			return fd
		}
	}
}

// highestFree is the highest fd at or below max that is not open (or the
// lowest free above it when all are).
func (t *fdTable) highestFree(max int) int {
	for fd := max; fd >= 3; fd-- {
		if _, ok := t.m[fd]; !ok {
			return fd
		}
	}
	return t.lowestFree(max + 1)
}

func (t *fdTable) list() []int {
	out := make([]int, 0, len(t.m))
	for fd := range t.m {
		out = append(out, fd)
	}
	sort.Ints(out)
	return out
}

// Closed stands in a program's stdio for a descriptor the shell has closed
// (`cmd <&-`): the sandbox starts the program without it, so that using it
// fails with EBADF as it would natively.
var Closed io.ReadWriter = closedFD{}

type closedFD struct{}

func (closedFD) Read([]byte) (int, error)  { return 0, syscall.EBADF }
func (closedFD) Write([]byte) (int, error) { return 0, syscall.EBADF }
func (closedFD) IsClosedFD() bool          { return true }

// reader / writer give a fd as a stream for a program (Closed when closed):
// the stream itself when the shell holds nothing of it back (so that the
// sandbox still recognises its terminal, and a VFS file is seen as one),
// else the open file with its look-ahead buffer.
func (r *Runner) reader(fd int) io.Reader {
	f := r.fds.get(fd)
	if f == nil || f.r == nil {
		return Closed
	}
	f.mu.Lock()
	buffered := len(f.buf) > 0
	f.mu.Unlock()
	if !buffered && (f.c == nil || f.vf != nil) {
		return f.r
	}
	return f
}

func (r *Runner) writer(fd int) io.Writer {
	f := r.fds.get(fd)
	if f == nil || f.w == nil {
		return Closed
	}
	if f.c == nil || f.vf != nil {
		return f.w
	}
	return f
}

// inheritedFiles are the fds above 2 a program gets: each as the narrowest
// stream that does what the fd allows (a VFS file as itself, so that it
// stays seekable and shares its offset).
func (r *Runner) inheritedFiles() map[int]any {
	var m map[int]any
	for fd, f := range r.fds.m {
		if fd <= 2 || f == nil {
			continue
		}
		var x any
		f.mu.Lock()
		buffered := len(f.buf) > 0
		f.mu.Unlock()
		switch {
		case f.vf != nil && !buffered:
			x = f.vf
		case f.r != nil && f.w != nil:
			x = f
		case f.r != nil:
			x = readOnly{f}
		case f.w != nil:
			x = writeOnly{f}
		default:
			continue
		}
		if m == nil {
			m = make(map[int]any, len(r.fds.m))
		}
		m[fd] = x
	}
	return m
}

// readOnly and writeOnly hand a program one direction of an open file.
type readOnly struct{ f *openFile }
type writeOnly struct{ f *openFile }

func (x readOnly) Read(p []byte) (int, error)   { return x.f.Read(p) }
func (x readOnly) PipeID() uint64               { return x.f.PipeID() }
func (x writeOnly) Write(p []byte) (int, error) { return x.f.Write(p) }
func (x writeOnly) PipeID() uint64              { return x.f.PipeID() }

// PipeID is the identity of the pipe under f, 0 if it is none (see
// vfs.PipeReader.PipeID): programs tell two pipes apart by it.
func (f *openFile) PipeID() uint64 {
	for _, x := range []any{f.r, f.w} {
		if p, ok := x.(interface{ PipeID() uint64 }); ok {
			return p.PipeID()
		}
	}
	return 0
}

// capture is the output of a command substitution: bounded, so that
// $(cat /dev/zero) fails with EFBIG instead of filling the host's memory.
type capture struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int // (the runner's oneVarLimit)
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buf.Len()+len(p) > c.limit {
		return 0, syscall.EFBIG
	}
	return c.buf.Write(p)
}

func (c *capture) WriteString(s string) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buf.Len()+len(s) > c.limit {
		return 0, syscall.EFBIG
	}
	return c.buf.WriteString(s)
}

// boundedBuffer joins two pipeline stages that run one after another: a
// full buffer fails writes with EPIPE, as a reader that went away would.
type boundedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	done  bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.limit - b.buf.Len()
	if room <= 0 {
		return 0, syscall.EPIPE
	}
	if len(p) > room {
		b.buf.Write(p[:room])
		return room, syscall.EPIPE
	}
	return b.buf.Write(p)
}

func (b *boundedBuffer) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() == 0 {
		return 0, io.EOF
	}
	return b.buf.Read(p)
}

func (b *boundedBuffer) Close() error { return nil }

// isPipeErr reports a write to a pipe whose reader went away.
func isPipeErr(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe)
}
