package vfs

import (
	"path"
	"syscall"
)

// Access modes for Permits and CheckAccess (as access(2)).
const (
	AccessRead  = 4
	AccessWrite = 2
	AccessExec  = 1
)

// Permits reports whether a process with uid/gid may access a file with
// mode bits want, by the owner/group/other bits of st. uid 0 may do
// anything but execute a file with no x bit, as on Linux.
func Permits(st *Stat, want, uid, gid uint32) bool {
	perm := uint32(st.Mode.Perm())
	if uid == 0 {
		return want&AccessExec == 0 || st.Mode.IsDir() || perm&0o111 != 0
	}
	switch {
	case st.Uid == uid:
		perm >>= 6
	case st.Gid == gid:
		perm >>= 3
	}
	return perm&want == want
}

// CheckAccess returns EACCES unless uid/gid may access name (following
// symlinks) with want, and ENOENT and the like when it cannot be resolved.
func (f *FS) CheckAccess(name string, want, uid, gid uint32) error {
	fi, err := f.Stat(name)
	if err != nil {
		return err
	}
	if !Permits(&fi.st, want, uid, gid) {
		return perr("access", name, syscall.EACCES)
	}
	return nil
}

// CheckCreate returns EACCES unless uid/gid may add or remove entries in the
// directory holding name (write and search permission on it).
func (f *FS) CheckCreate(name string, uid, gid uint32) error {
	if uid == 0 {
		return nil
	}
	dir := path.Dir(cleanAbs(name))
	fi, err := f.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return perr("access", dir, syscall.ENOTDIR)
	}
	if !Permits(&fi.st, AccessWrite|AccessExec, uid, gid) {
		return perr("access", dir, syscall.EACCES)
	}
	return nil
}
