package vfs

import (
	"io"
	"io/fs"
	"time"

	"github.com/hack-pad/hackpadfs"
)

// Options configures a new FS.
type Options struct {
	MaxBytes  int64            // 0 = unlimited; total file bytes → ENOSPC
	MaxInodes int64            // 0 = unlimited → ENOSPC
	Now       func() time.Time // nil = time.Now
}

// Our own open flags, identical on every GOOS; chosen above every os.O_* bit of
// linux, darwin, windows and js so they never collide.
const (
	O_DIRECTORY = 1 << 28
	O_NOFOLLOW  = 1 << 29
)

// Device identifies a character device node.
type Device int

const (
	DevNone Device = iota
	DevNull
	DevZero
	DevRandom // urandom: same generator
	DevStdin
	DevStdout
	DevStderr
)

// Stat is what FileInfo.Sys() returns.
type Stat struct {
	Dev, Ino, Nlink     uint64
	Mode                fs.FileMode
	Uid, Gid            uint32
	Rdev                uint64
	Size                int64
	Atime, Mtime, Ctime time.Time
}

// FileInfo implements fs.FileInfo.
type FileInfo struct {
	name string
	st   Stat
}

func (fi *FileInfo) Name() string       { return fi.name }
func (fi *FileInfo) Size() int64        { return fi.st.Size }
func (fi *FileInfo) Mode() fs.FileMode  { return fi.st.Mode }
func (fi *FileInfo) ModTime() time.Time { return fi.st.Mtime }
func (fi *FileInfo) IsDir() bool        { return fi.st.Mode.IsDir() }
func (fi *FileInfo) Sys() any           { return &fi.st }

// FS is a virtual file system.
type FS struct{}

// File is an open file description.
type File struct{}

// Snapshot is an immutable point-in-time view of an FS tree.
type Snapshot struct{}

func New(opt Options) *FS                                                     { return &FS{} }
func NewDefault(opt Options, commands []string) *FS                           { return &FS{} }
func Decode(r io.Reader, opt Options) (*FS, error)                            { return nil, nil }
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (*File, error) { return nil, nil }
func (f *FS) Open(name string) (*File, error)                                 { return nil, nil }
func (f *FS) Stat(name string) (*FileInfo, error)                             { return nil, nil }
func (f *FS) Lstat(name string) (*FileInfo, error)                            { return nil, nil }
func (f *FS) Mkdir(name string, perm fs.FileMode) error                       { return nil }
func (f *FS) MkdirAll(name string, perm fs.FileMode) error                    { return nil }
func (f *FS) Unlink(name string) error                                        { return nil }
func (f *FS) Rmdir(name string) error                                         { return nil }
func (f *FS) Remove(name string) error                                        { return nil }
func (f *FS) RemoveAll(name string) error                                     { return nil }
func (f *FS) Rename(oldname, newname string) error                            { return nil }
func (f *FS) Link(oldname, newname string) error                              { return nil }
func (f *FS) Symlink(target, linkname string) error                           { return nil }
func (f *FS) Readlink(name string) (string, error)                            { return "", nil }
func (f *FS) Realpath(name string) (string, error)                            { return "", nil }
func (f *FS) Chmod(name string, mode fs.FileMode) error                       { return nil }
func (f *FS) Chown(name string, uid, gid int) error                           { return nil }
func (f *FS) Lchown(name string, uid, gid int) error                          { return nil }
func (f *FS) Chtimes(name string, atime, mtime time.Time, follow bool) error  { return nil }
func (f *FS) Truncate(name string, size int64) error                          { return nil }
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error)                      { return nil, nil }
func (f *FS) Mkfifo(name string, perm fs.FileMode) error                      { return nil }
func (f *FS) Mknod(name string, perm fs.FileMode, dev Device) error           { return nil }
func (f *FS) ReadFile(name string) ([]byte, error)                            { return nil, nil }
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error      { return nil }
func (f *FS) Usage() (bytes, inodes int64)                                    { return 0, 0 }
func (f *FS) Snapshot() *Snapshot                                             { return nil }
func (f *FS) Restore(s *Snapshot)                                             {}
func (f *FS) Clone() *FS                                                      { return nil }
func (f *FS) Mount(dir string, backend hackpadfs.FS, readOnly bool) error     { return nil }
func (f *FS) Unmount(dir string) error                                        { return nil }
func (f *FS) Encode(w io.Writer) error                                        { return nil }
func (f *FS) Hackpad() *HackpadFS                                             { return nil }

// HackpadFS is the hackpadfs view of an FS.
type HackpadFS struct{ fs *FS }

func (h *HackpadFS) Open(name string) (fs.File, error) { return nil, nil }

func (f *File) Read(p []byte) (int, error)                { return 0, nil }
func (f *File) Write(p []byte) (int, error)               { return 0, nil }
func (f *File) ReadAt(p []byte, off int64) (int, error)   { return 0, nil }
func (f *File) WriteAt(p []byte, off int64) (int, error)  { return 0, nil }
func (f *File) Seek(off int64, whence int) (int64, error) { return 0, nil }
func (f *File) Close() error                              { return nil }
func (f *File) Stat() (*FileInfo, error)                  { return nil, nil }
func (f *File) Truncate(size int64) error                 { return nil }
func (f *File) Sync() error                               { return nil }
func (f *File) ReadDir(n int) ([]fs.DirEntry, error)      { return nil, nil }
func (f *File) Chmod(mode fs.FileMode) error              { return nil }
func (f *File) Chown(uid, gid int) error                  { return nil }
func (f *File) Chtimes(atime, mtime time.Time) error      { return nil }
func (f *File) Name() string                              { return "" }

// PipeReader is the read end of a pipe.
type PipeReader struct{}

// PipeWriter is the write end of a pipe.
type PipeWriter struct{}

func Pipe(size int) (*PipeReader, *PipeWriter)       { return &PipeReader{}, &PipeWriter{} }
func (r *PipeReader) Read(p []byte) (int, error)     { return 0, io.EOF }
func (r *PipeReader) TryRead(p []byte) (int, error)  { return 0, io.EOF }
func (r *PipeReader) Close() error                   { return nil }
func (w *PipeWriter) Write(p []byte) (int, error)    { return 0, nil }
func (w *PipeWriter) TryWrite(p []byte) (int, error) { return 0, nil }
func (w *PipeWriter) Close() error                   { return nil }
