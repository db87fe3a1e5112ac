package vfs

import (
	"io/fs"
	"time"
)

// Device identifies a character device node.
type Device int

const (
	DevNone   Device = iota
	DevNull          // reads EOF, swallows writes
	DevZero          // reads zeros, swallows writes
	DevRandom        // random and urandom: crypto/rand
	DevStdin         // the process layer maps the DevStd* nodes to fds;
	DevStdout        // opening them through vfs is ENXIO
	DevStderr
	DevTTY // /dev/tty: the process layer gives the run's terminal, if any
)

// TTYFDs are the fds that may stand for /dev/tty opened to read and/or
// write, in the order to try: the first that is a terminal is the run's
// terminal (stdin for reading; stdout, then stderr, for writing). The shell
// and the guests' process layer both answer an open of /dev/tty with it.
func TTYFDs(read, write bool) []int {
	switch {
	case write && read:
		return []int{1, 2, 0}
	case write:
		return []int{1, 2}
	}
	return []int{0}
}

// rdev is the Linux-style device number (major<<8 | minor) ls shows.
func (d Device) rdev() uint64 {
	switch d {
	case DevNull:
		return 1<<8 | 3
	case DevZero:
		return 1<<8 | 5
	case DevRandom:
		return 1<<8 | 9
	case DevStdin, DevStdout, DevStderr:
		return 136<<8 | uint64(d-DevStdin)
	case DevTTY:
		return 5<<8 | 0
	}
	return 0
}

// Stat is what FileInfo.Sys() returns.
type Stat struct {
	Dev, Ino, Nlink     uint64
	Mode                fs.FileMode
	Uid, Gid            uint32
	Rdev                uint64
	Size                int64
	Atime, Mtime, Ctime time.Time
}

// FileInfo implements fs.FileInfo; Sys() returns *Stat.
type FileInfo struct {
	name string
	st   Stat
}

// NewFileInfo builds a FileInfo (for backends such as platform/hostdir
// that want to report full metadata through Sys()).
func NewFileInfo(name string, st Stat) *FileInfo { return &FileInfo{name: name, st: st} }

func (fi *FileInfo) Name() string       { return fi.name }
func (fi *FileInfo) Size() int64        { return fi.st.Size }
func (fi *FileInfo) Mode() fs.FileMode  { return fi.st.Mode }
func (fi *FileInfo) ModTime() time.Time { return fi.st.Mtime }
func (fi *FileInfo) IsDir() bool        { return fi.st.Mode.IsDir() }
func (fi *FileInfo) Sys() any           { return &fi.st }

// Stat returns the full metadata (same as Sys().(*Stat), without the cast).
func (fi *FileInfo) Stat() *Stat { return &fi.st }
