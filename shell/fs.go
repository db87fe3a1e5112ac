package shell

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"

	"github.com/wasmsand/wasmsand/vfs"
)

// The interpreter's file access goes through these handlers so that it only
// ever sees the VFS: mvdan.cc/sh's defaults call os.OpenFile, os.Stat,
// os.ReadDir and unix.Access on the host.

// absPath joins a handler path with the interpreter's directory; handlers can
// receive relative paths.
func absPath(ctx context.Context, name string) string {
	if path.IsAbs(name) {
		return path.Clean(name)
	}
	return path.Join(interp.HandlerCtx(ctx).Dir, name)
}

func (s *Session) openHandler(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	abs := absPath(ctx, name)
	if rw, ok := stdioDevice(abs, hc.Stdin, hc.Stdout, hc.Stderr); ok {
		return rw, nil
	}
	if src, ok := s.takeSource(abs); ok {
		return nopCloser{strings.NewReader(src)}, nil
	}
	if err := s.checkOpen(abs, flag); err != nil {
		return nil, bashPathError(name, err)
	}
	if flag&os.O_CREATE != 0 { // bash creates files 0666 & ~umask
		perm = 0o666 &^ fs.FileMode(s.umask.Load())
	}
	f, err := s.cfg.FS.OpenFile(abs, flag, perm)
	if err != nil {
		return nil, bashPathError(name, err)
	}
	return f, nil
}

// checkOpen applies permission bits for the sandbox user, as open(2) does
// for redirections.
func (s *Session) checkOpen(abs string, flag int) error {
	fi, err := s.cfg.FS.Stat(abs)
	if err != nil {
		if flag&os.O_CREATE != 0 && errnoOf(err) == syscall.ENOENT {
			return s.cfg.FS.CheckCreate(abs, UserID, UserID)
		}
		return nil // the open reports it
	}
	if fi.Mode()&fs.ModeCharDevice != 0 {
		return nil
	}
	want := uint32(vfs.AccessRead)
	switch {
	case flag&os.O_RDWR != 0:
		want = vfs.AccessRead | vfs.AccessWrite
	case flag&os.O_WRONLY != 0:
		want = vfs.AccessWrite
	}
	if !permits(fi, want) {
		return &fs.PathError{Op: "open", Path: abs, Err: syscall.EACCES}
	}
	return nil
}

// stdioDevice maps /dev/stdin, /dev/stdout, /dev/stderr and /dev/fd/N to the
// current command's streams, as Linux does through /proc/self/fd.
func stdioDevice(abs string, in io.Reader, out, errw io.Writer) (io.ReadWriteCloser, bool) {
	switch abs {
	case "/dev/stdin", "/dev/fd/0":
		return stream{r: in}, true
	case "/dev/stdout", "/dev/fd/1":
		return stream{w: out}, true
	case "/dev/stderr", "/dev/fd/2":
		return stream{w: errw}, true
	}
	return nil, false
}

// stream is a borrowed stdio stream: closing it must not close the original.
type stream struct {
	r io.Reader
	w io.Writer
}

func (s stream) Read(p []byte) (int, error) {
	if s.r == nil {
		return 0, syscall.EBADF
	}
	return s.r.Read(p)
}

func (s stream) Write(p []byte) (int, error) {
	if s.w == nil {
		return 0, syscall.EBADF
	}
	return s.w.Write(p)
}

func (stream) Close() error { return nil }

type nopCloser struct{ io.Reader }

func (nopCloser) Write([]byte) (int, error) { return 0, syscall.EBADF }
func (nopCloser) Close() error              { return nil }

func (s *Session) statHandler(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	abs := absPath(ctx, name)
	var (
		fi  *vfs.FileInfo
		err error
	)
	if follow {
		fi, err = s.cfg.FS.Stat(abs)
	} else {
		fi, err = s.cfg.FS.Lstat(abs)
	}
	if err != nil {
		return nil, err
	}
	return statInfo{fi}, nil
}

func (s *Session) readDirHandler(ctx context.Context, name string) ([]fs.DirEntry, error) {
	return s.cfg.FS.ReadDir(absPath(ctx, name))
}

// accessHandler answers test -r/-w/-x from the VFS mode bits for the sandbox
// user (uid/gid 1000), instead of unix.Access on the host.
func (s *Session) accessHandler(ctx context.Context, name string, mode interp.AccessMode) error {
	fi, err := s.cfg.FS.Stat(absPath(ctx, name))
	if err != nil {
		return err
	}
	if !permits(fi, uint32(mode)) {
		return &fs.PathError{Op: "access", Path: name, Err: syscall.EACCES}
	}
	return nil
}

// permits reports whether the sandbox user may access a file with mode bits
// want (4 = read, 2 = write, 1 = execute).
func permits(fi *vfs.FileInfo, want uint32) bool {
	return vfs.Permits(fi.Sys().(*vfs.Stat), want, UserID, UserID)
}

// statInfo adapts a vfs.FileInfo for the interpreter, whose `test -O/-G`
// asserts Sys() to *syscall.Stat_t on Unix.
type statInfo struct{ *vfs.FileInfo }

func (fi statInfo) Sys() any {
	st := fi.FileInfo.Sys().(*vfs.Stat)
	return &syscall.Stat_t{Uid: st.Uid, Gid: st.Gid}
}

// bashPathError makes the interpreter print file errors the way bash does
// ("bash: name: No such file or directory"): it prints a *fs.PathError's
// Error() verbatim. Unwrap keeps errors.Is(err, fs.ErrNotExist) working.
func bashPathError(name string, err error) error {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	return &fs.PathError{Op: "bash:", Path: name, Err: bashErrno{errno}}
}

type bashErrno struct{ errno syscall.Errno }

func (e bashErrno) Error() string { return strerror(e.errno) }
func (e bashErrno) Unwrap() error { return e.errno }

// strerror is the C library's wording of errno, as bash prints it.
func strerror(e syscall.Errno) string {
	switch e {
	case syscall.ENOENT:
		return "No such file or directory"
	case syscall.EACCES:
		return "Permission denied"
	case syscall.EISDIR:
		return "Is a directory"
	case syscall.ENOTDIR:
		return "Not a directory"
	case syscall.EEXIST:
		return "File exists"
	case syscall.ENOTEMPTY:
		return "Directory not empty"
	case syscall.ENOSPC:
		return "No space left on device"
	case syscall.EROFS:
		return "Read-only file system"
	case syscall.ELOOP:
		return "Too many levels of symbolic links"
	case syscall.ENAMETOOLONG:
		return "File name too long"
	case syscall.EINVAL:
		return "Invalid argument"
	case syscall.EPIPE:
		return "Broken pipe"
	case syscall.ENXIO:
		return "No such device or address"
	}
	msg := e.Error()
	if msg == "" || strings.HasPrefix(msg, "errno ") {
		return "Error " + strconv.Itoa(int(e))
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// errnoOf extracts the errno from a VFS error (ENOENT by default).
func errnoOf(err error) syscall.Errno {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return syscall.ENOENT
}
