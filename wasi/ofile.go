package wasi

import (
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/wasmsand/wasmsand/vfs"
)

// WASI filetypes.
const (
	FiletypeUnknown uint8 = iota
	FiletypeBlockDevice
	FiletypeCharacterDevice
	FiletypeDirectory
	FiletypeRegularFile
	FiletypeSocketDgram
	FiletypeSocketStream
	FiletypeSymbolicLink
)

type ofKind uint8

const (
	kindFile   ofKind = iota // a *vfs.File: regular file, directory, device, fifo
	kindStream               // an io.Reader/io.Writer: stdio streams, pipes
)

// ofile is an open file description: what POSIX dup shares between fds (and processes).
// It is reference counted; the last reference closes closer.
type ofile struct {
	refs      atomic.Int32
	kind      ofKind
	f         *vfs.File
	ftype     uint8
	path      string // absolute path at open time: base for *at calls on directories
	r         io.Reader
	w         io.Writer
	closer    io.Closer // nil when someone else owns the underlying object
	closeOnce sync.Once
	read      bool
	write     bool
	append    bool // O_APPEND at open: the vfs appends by itself
	emuAppend bool // FD_APPEND set later with fd_fdstat_set_flags: we seek to the end
	nonblock  bool
	tty       bool
	null      bool   // no stream was given (nil): /dev/null, a character device that seeks (so not a tty)
	pipeID    uint64 // a stream over a pipe: its inode for fstat (0: none)

	dirMu   sync.Mutex
	dirents []dirent // fd_readdir snapshot, taken at cookie 0

	// Data (or an error such as io.EOF) taken by poll_oneoff through TryRead to learn that
	// a stream is readable; the next reads return it first.
	peekMu  sync.Mutex
	hasPeek atomic.Bool
	peek    []byte
	peekErr error
}

// tryReader is a stream with a non-blocking read (vfs pipes): syscall.EAGAIN when empty.
type tryReader interface {
	TryRead([]byte) (int, error)
}

// pollable reports whether poll_oneoff can wait for this stream to become readable.
func (o *ofile) pollable() bool {
	if o.kind != kindStream || o.r == nil {
		return false
	}
	switch o.r.(type) {
	case ReadPoller, tryReader:
		return true
	}
	return false
}

// readReady reports whether a Read would not block.
func (o *ofile) readReady() bool {
	if rp, ok := o.r.(ReadPoller); ok {
		return o.hasPeek.Load() || rp.ReadReady()
	}
	tr, ok := o.r.(tryReader)
	if !ok {
		return true
	}
	o.peekMu.Lock()
	defer o.peekMu.Unlock()
	if len(o.peek) > 0 || o.peekErr != nil {
		return true
	}
	buf := make([]byte, 4096)
	n, err := tr.TryRead(buf)
	switch {
	case n > 0:
		o.peek = buf[:n]
	case err == syscall.EAGAIN:
		return false
	case err != nil:
		o.peekErr = err
	default:
		return false
	}
	o.hasPeek.Store(true)
	return true
}

// readPeeked serves a read from what readReady took, if anything.
func (o *ofile) readPeeked(b []byte) (int, error, bool) {
	o.peekMu.Lock()
	defer o.peekMu.Unlock()
	switch {
	case len(o.peek) > 0:
		n := copy(b, o.peek)
		o.peek = o.peek[n:]
		if len(o.peek) == 0 && o.peekErr == nil {
			o.peek = nil
			o.hasPeek.Store(false)
		}
		return n, nil, true
	case o.peekErr != nil:
		err := o.peekErr
		if err != io.EOF { // EOF stays; another error is reported once
			o.peekErr = nil
			o.hasPeek.Store(false)
		}
		return 0, err, true
	}
	o.hasPeek.Store(false)
	return 0, nil, false
}

type dirent struct {
	name string
	ino  uint64
	typ  uint8
}

func (o *ofile) incref() { o.refs.Add(1) }

func (o *ofile) decref() error {
	if o.refs.Add(-1) == 0 {
		return o.closeNow()
	}
	return nil
}

func (o *ofile) closeNow() (err error) {
	o.closeOnce.Do(func() {
		if o.closer != nil {
			err = o.closer.Close()
		}
	})
	return err
}

func (o *ofile) Read(b []byte) (int, error) {
	if o.kind == kindFile {
		return o.f.Read(b)
	}
	if o.r == nil {
		return 0, EBADF
	}
	if o.hasPeek.Load() {
		if n, err, ok := o.readPeeked(b); ok {
			return n, err
		}
	}
	return o.r.Read(b)
}

func (o *ofile) Write(b []byte) (int, error) {
	if o.kind == kindFile {
		if o.emuAppend {
			if _, err := o.f.Seek(0, io.SeekEnd); err != nil {
				return 0, err
			}
		}
		return o.f.Write(b)
	}
	if o.w == nil {
		return 0, EBADF
	}
	return o.w.Write(b)
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// terminal is implemented by streams that want the guest to see a tty.
type terminal interface{ IsTerminal() bool }

// closedFD marks a stdio stream that stands for a descriptor its parent has
// closed: the process starts without that fd.
type closedFD interface{ IsClosedFD() bool }

// stdioOfile wraps what the creator gave as fd 0/1/2. It never owns it (closer nil).
func stdioOfile(x any, in bool) *ofile {
	var of *ofile
	switch v := x.(type) {
	case *FDRef:
		if v != nil && v.of != nil {
			v.of.incref()
			return v.of
		}
	case *vfs.File:
		if v != nil {
			of = &ofile{kind: kindFile, f: v, ftype: FiletypeRegularFile, path: v.Name(), read: true, write: true}
			if fi, err := v.Stat(); err == nil {
				of.ftype = filetypeOf(fi.Mode())
			}
		}
	}
	if of == nil {
		of = &ofile{kind: kindStream, ftype: FiletypeUnknown}
		if in {
			of.read = true
			of.r, _ = x.(io.Reader)
			if of.r == nil {
				of.r = eofReader{}
			}
		} else {
			of.write = true
			of.w, _ = x.(io.Writer)
			if of.w == nil {
				of.w = io.Discard
			}
		}
		if t, ok := x.(terminal); ok && t.IsTerminal() {
			of.tty = true
			of.ftype = FiletypeCharacterDevice
		}
		if x == nil { // as FDTarget names it: rg, for one, searches stdin unless it is a device
			of.null = true
			of.ftype = FiletypeCharacterDevice
		}
		of.pipeID = pipeIDOf(x)
	}
	of.refs.Store(1)
	return of
}

// pipeIDOf is a stream's pipe identity, when it has one.
func pipeIDOf(x any) uint64 {
	if p, ok := x.(interface{ PipeID() uint64 }); ok {
		return p.PipeID()
	}
	return 0
}

// reopenable: a regular file or directory still at the path it was opened
// by, which /dev/fd/N opens anew.
func (o *ofile) reopenable(fsys *vfs.FS) bool {
	if o.kind != kindFile || o.f == nil || !strings.HasPrefix(o.path, "/") ||
		(o.ftype != FiletypeRegularFile && o.ftype != FiletypeDirectory) {
		return false
	}
	fi, err := fsys.Stat(o.path)
	if err != nil {
		return false
	}
	cur, err := o.f.Stat()
	return err == nil && fi.Sys().(*vfs.Stat).Ino == cur.Sys().(*vfs.Stat).Ino && fi.Sys().(*vfs.Stat).Dev == cur.Sys().(*vfs.Stat).Dev
}

// inheritedOfile opens an fd of Proc.Files: a file or FDRef as stdio are,
// a stream readable and/or writable as it implements io.Reader/io.Writer.
func inheritedOfile(x any) *ofile {
	switch x.(type) {
	case nil:
		return nil
	case *vfs.File, *FDRef:
		return stdioOfile(x, true)
	}
	if c, ok := x.(closedFD); ok && c.IsClosedFD() {
		return nil
	}
	of := &ofile{kind: kindStream, ftype: FiletypeUnknown}
	of.r, of.read = x.(io.Reader)
	of.w, of.write = x.(io.Writer)
	if !of.read && !of.write {
		return nil
	}
	of.pipeID = pipeIDOf(x)
	of.refs.Store(1)
	return of
}

func filetypeOf(m fs.FileMode) uint8 {
	switch {
	case m.IsRegular():
		return FiletypeRegularFile
	case m.IsDir():
		return FiletypeDirectory
	case m&fs.ModeSymlink != 0:
		return FiletypeSymbolicLink
	case m&fs.ModeCharDevice != 0:
		return FiletypeCharacterDevice
	case m&fs.ModeDevice != 0:
		return FiletypeBlockDevice
	case m&fs.ModeSocket != 0:
		return FiletypeSocketStream
	}
	return FiletypeUnknown // fifos: WASI has no type for them (like wazero)
}
