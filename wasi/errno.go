package wasi

import (
	"errors"
	"io"
	"io/fs"
	"strconv"
	"syscall"
)

// Errno is a WASI preview1 errno (the numbering differs from Linux; wasi-libc uses these
// numbers directly as its errno values).
type Errno uint16

// The WASI preview1 errno values, in witx order.
const (
	ESUCCESS Errno = iota
	E2BIG
	EACCES
	EADDRINUSE
	EADDRNOTAVAIL
	EAFNOSUPPORT
	EAGAIN
	EALREADY
	EBADF
	EBADMSG
	EBUSY
	ECANCELED
	ECHILD
	ECONNABORTED
	ECONNREFUSED
	ECONNRESET
	EDEADLK
	EDESTADDRREQ
	EDOM
	EDQUOT
	EEXIST
	EFAULT
	EFBIG
	EHOSTUNREACH
	EIDRM
	EILSEQ
	EINPROGRESS
	EINTR
	EINVAL
	EIO
	EISCONN
	EISDIR
	ELOOP
	EMFILE
	EMLINK
	EMSGSIZE
	EMULTIHOP
	ENAMETOOLONG
	ENETDOWN
	ENETRESET
	ENETUNREACH
	ENFILE
	ENOBUFS
	ENODEV
	ENOENT
	ENOEXEC
	ENOLCK
	ENOLINK
	ENOMEM
	ENOMSG
	ENOPROTOOPT
	ENOSPC
	ENOSYS
	ENOTCONN
	ENOTDIR
	ENOTEMPTY
	ENOTRECOVERABLE
	ENOTSOCK
	ENOTSUP
	ENOTTY
	ENXIO
	EOVERFLOW
	EOWNERDEAD
	EPERM
	EPIPE
	EPROTO
	EPROTONOSUPPORT
	EPROTOTYPE
	ERANGE
	EROFS
	ESPIPE
	ESRCH
	ESTALE
	ETIMEDOUT
	ETXTBSY
	EXDEV
	ENOTCAPABLE
)

var errnoNames = [...]string{
	"ESUCCESS", "E2BIG", "EACCES", "EADDRINUSE", "EADDRNOTAVAIL", "EAFNOSUPPORT", "EAGAIN",
	"EALREADY", "EBADF", "EBADMSG", "EBUSY", "ECANCELED", "ECHILD", "ECONNABORTED",
	"ECONNREFUSED", "ECONNRESET", "EDEADLK", "EDESTADDRREQ", "EDOM", "EDQUOT", "EEXIST",
	"EFAULT", "EFBIG", "EHOSTUNREACH", "EIDRM", "EILSEQ", "EINPROGRESS", "EINTR", "EINVAL",
	"EIO", "EISCONN", "EISDIR", "ELOOP", "EMFILE", "EMLINK", "EMSGSIZE", "EMULTIHOP",
	"ENAMETOOLONG", "ENETDOWN", "ENETRESET", "ENETUNREACH", "ENFILE", "ENOBUFS", "ENODEV",
	"ENOENT", "ENOEXEC", "ENOLCK", "ENOLINK", "ENOMEM", "ENOMSG", "ENOPROTOOPT", "ENOSPC",
	"ENOSYS", "ENOTCONN", "ENOTDIR", "ENOTEMPTY", "ENOTRECOVERABLE", "ENOTSOCK", "ENOTSUP",
	"ENOTTY", "ENXIO", "EOVERFLOW", "EOWNERDEAD", "EPERM", "EPIPE", "EPROTO",
	"EPROTONOSUPPORT", "EPROTOTYPE", "ERANGE", "EROFS", "ESPIPE", "ESRCH", "ESTALE",
	"ETIMEDOUT", "ETXTBSY", "EXDEV", "ENOTCAPABLE",
}

func (e Errno) String() string {
	if int(e) < len(errnoNames) {
		return errnoNames[e]
	}
	return "errno(" + strconv.Itoa(int(e)) + ")"
}

// Error makes Errno usable as a Go error (e.g. a Spawner may return wasi.ENOENT).
func (e Errno) Error() string { return e.String() }

// ToErrno maps a Go error (typically *fs.PathError{Err: syscall.Errno} from the vfs) to the
// WASI errno a guest should see. Unknown errors become EIO.
func ToErrno(err error) Errno {
	if err == nil {
		return ESUCCESS
	}
	var we Errno
	if errors.As(err, &we) {
		return we
	}
	var se syscall.Errno
	if errors.As(err, &se) {
		if e, ok := fromSyscall(se); ok {
			return e
		}
		return EIO
	}
	switch {
	case errors.Is(err, io.ErrClosedPipe):
		return EPIPE
	case errors.Is(err, fs.ErrNotExist):
		return ENOENT
	case errors.Is(err, fs.ErrExist):
		return EEXIST
	case errors.Is(err, fs.ErrPermission):
		return EPERM
	case errors.Is(err, fs.ErrInvalid):
		return EINVAL
	case errors.Is(err, fs.ErrClosed):
		return EBADF
	}
	return EIO
}

// fromSyscall maps by name rather than by number: syscall.Errno numbers are Linux's on
// linux and js, but WASI's on wasip1.
func fromSyscall(se syscall.Errno) (Errno, bool) {
	switch se {
	case 0:
		return ESUCCESS, true
	case syscall.E2BIG:
		return E2BIG, true
	case syscall.EACCES:
		return EACCES, true
	case syscall.EADDRINUSE:
		return EADDRINUSE, true
	case syscall.EADDRNOTAVAIL:
		return EADDRNOTAVAIL, true
	case syscall.EAFNOSUPPORT:
		return EAFNOSUPPORT, true
	case syscall.EAGAIN:
		return EAGAIN, true
	case syscall.EALREADY:
		return EALREADY, true
	case syscall.EBADF:
		return EBADF, true
	case syscall.EBUSY:
		return EBUSY, true
	case syscall.ECANCELED:
		return ECANCELED, true
	case syscall.ECHILD:
		return ECHILD, true
	case syscall.ECONNABORTED:
		return ECONNABORTED, true
	case syscall.ECONNREFUSED:
		return ECONNREFUSED, true
	case syscall.ECONNRESET:
		return ECONNRESET, true
	case syscall.EDEADLK:
		return EDEADLK, true
	case syscall.EDQUOT:
		return EDQUOT, true
	case syscall.EEXIST:
		return EEXIST, true
	case syscall.EFAULT:
		return EFAULT, true
	case syscall.EFBIG:
		return EFBIG, true
	case syscall.EINTR:
		return EINTR, true
	case syscall.EINVAL:
		return EINVAL, true
	case syscall.EIO:
		return EIO, true
	case syscall.EISDIR:
		return EISDIR, true
	case syscall.ELOOP:
		return ELOOP, true
	case syscall.EMFILE:
		return EMFILE, true
	case syscall.EMLINK:
		return EMLINK, true
	case syscall.ENAMETOOLONG:
		return ENAMETOOLONG, true
	case syscall.ENFILE:
		return ENFILE, true
	case syscall.ENODEV:
		return ENODEV, true
	case syscall.ENOENT:
		return ENOENT, true
	case syscall.ENOEXEC:
		return ENOEXEC, true
	case syscall.ENOMEM:
		return ENOMEM, true
	case syscall.ENOSPC:
		return ENOSPC, true
	case syscall.ENOSYS:
		return ENOSYS, true
	case syscall.ENOTDIR:
		return ENOTDIR, true
	case syscall.ENOTEMPTY:
		return ENOTEMPTY, true
	case syscall.ENOTSOCK:
		return ENOTSOCK, true
	case syscall.ENOTSUP:
		return ENOTSUP, true
	case syscall.ENOTTY:
		return ENOTTY, true
	case syscall.ENXIO:
		return ENXIO, true
	case syscall.EOVERFLOW:
		return EOVERFLOW, true
	case syscall.EPERM:
		return EPERM, true
	case syscall.EPIPE:
		return EPIPE, true
	case syscall.ERANGE:
		return ERANGE, true
	case syscall.EROFS:
		return EROFS, true
	case syscall.ESPIPE:
		return ESPIPE, true
	case syscall.ESRCH:
		return ESRCH, true
	case syscall.ETIMEDOUT:
		return ETIMEDOUT, true
	case syscall.EXDEV:
		return EXDEV, true
	}
	return 0, false
}
