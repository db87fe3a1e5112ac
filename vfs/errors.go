package vfs

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// ErrCorrupt is returned (wrapped) by Decode, CheckState, ApplyDelta and
// CheckDelta when the input is truncated, has a bad header, fails its
// checksum or does not describe a valid tree (for a delta: a valid change
// of this tree).
var ErrCorrupt = errors.New("vfs: corrupt or truncated state")

func perr(op, path string, errno syscall.Errno) error {
	return &fs.PathError{Op: op, Path: path, Err: errno}
}

// toErrno maps any error (ours, a backend's, the host's) to an errno so the
// contract "every error carries a syscall.Errno" also holds for mounts.
func toErrno(err error) syscall.Errno {
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
		return errno
	case errors.Is(err, fs.ErrNotExist):
		return syscall.ENOENT
	case errors.Is(err, fs.ErrExist):
		return syscall.EEXIST
	case errors.Is(err, fs.ErrPermission):
		return syscall.EACCES
	case errors.Is(err, fs.ErrInvalid):
		return syscall.EINVAL
	case errors.Is(err, fs.ErrClosed):
		return syscall.EBADF
	}
	return syscall.EIO
}

// wrapBackendErr rewrites a backend error so its path is the full VFS path
// and its Err an errno. io.EOF passes through untouched.
func wrapBackendErr(op, path string, err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op != "" {
		op = pe.Op
	}
	return &fs.PathError{Op: op, Path: path, Err: toErrno(err)}
}
