package core

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// Code is a stable, machine-readable error code. Messages may change; codes don't.
type Code string

const (
	CodeNotFound         Code = "not_found"
	CodeExists           Code = "exists"
	CodeNotDir           Code = "not_a_directory"
	CodeIsDir            Code = "is_a_directory"
	CodeNotEmpty         Code = "not_empty"
	CodePermission       Code = "permission_denied"
	CodeReadOnly         Code = "read_only"
	CodeNoSpace          Code = "no_space"
	CodeInvalidArgument  Code = "invalid_argument"
	CodeInvalidModule    Code = "invalid_module"
	CodeTimeout          Code = "timeout"
	CodeCanceled         Code = "canceled"
	CodeTooManyProcesses Code = "too_many_processes"
	CodeClosed           Code = "closed"
	CodeHostPath         Code = "host_path"
	CodeCorruptState     Code = "corrupt_state"
	CodeStorage          Code = "storage" // the store a state persists in (IndexedDB, a host directory) failed
	CodeInternal         Code = "internal"
)

// Error is every error the Sandbox API returns.
type Error struct {
	Code Code
	Op   string // the API operation, e.g. "ReadFile"
	Path string // the sandbox path involved, if any
	Err  error  // the underlying cause
}

func (e *Error) Error() string {
	msg := string(e.Code)
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Path != "" {
		return fmt.Sprintf("wasmsand: %s %s: %s", e.Op, e.Path, msg)
	}
	return fmt.Sprintf("wasmsand: %s: %s", e.Op, msg)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the Code of an error from this package ("" for nil and
// CodeInternal for foreign errors).
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

func newErr(code Code, op, path string, err error) *Error {
	return &Error{Code: code, Op: op, Path: path, Err: err}
}

// fsErr turns a VFS error into an *Error with the code of its errno.
func fsErr(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	code := CodeInternal
	if errors.As(err, &errno) {
		switch errno {
		case syscall.ENOENT:
			code = CodeNotFound
		case syscall.EEXIST:
			code = CodeExists
		case syscall.ENOTDIR:
			code = CodeNotDir
		case syscall.EISDIR:
			code = CodeIsDir
		case syscall.ENOTEMPTY:
			code = CodeNotEmpty
		case syscall.EACCES, syscall.EPERM:
			code = CodePermission
		case syscall.EROFS:
			code = CodeReadOnly
		case syscall.ENOSPC:
			code = CodeNoSpace
		case syscall.EINVAL, syscall.ENAMETOOLONG, syscall.ELOOP, syscall.EXDEV:
			code = CodeInvalidArgument
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return newErr(code, op, path, err)
}
