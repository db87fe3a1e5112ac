package core

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"time"

	"github.com/hack-pad/hackpadfs"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// File access from the host program to the sandbox's files. Relative paths
// are taken from the session's current directory.

func (sb *Sandbox) abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(sb.Cwd(), p)
}

// ReadFile returns the contents of a file.
func (sb *Sandbox) ReadFile(name string) ([]byte, error) {
	b, err := sb.fs.ReadFile(sb.abs(name))
	return b, fsErr("ReadFile", name, err)
}

// WriteFile creates or replaces a file (mode 0644 when perm is 0), creating
// missing parent directories.
func (sb *Sandbox) WriteFile(name string, data []byte, perm fs.FileMode) error {
	if perm == 0 {
		perm = 0o644
	}
	p := sb.abs(name)
	if err := sb.fs.MkdirAll(path.Dir(p), 0o755); err != nil {
		return fsErr("WriteFile", name, err)
	}
	return fsErr("WriteFile", name, sb.fs.WriteFile(p, data, perm))
}

// DirEntry describes one entry of ListDir.
type DirEntry struct {
	Name    string
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
	IsDir   bool
}

// Type is the entry's kind in the one vocabulary of every interface (Go,
// HTTP, MCP, JS): FileType.
func (e DirEntry) Type() string { return FileType(e.Mode) }

// FileType names a file's kind: "file", "directory", "symlink", "fifo" or
// "other".
func FileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsRegular():
		return "file"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	}
	return "other"
}

// ListDir lists a directory, sorted by name.
func (sb *Sandbox) ListDir(name string) ([]DirEntry, error) {
	p := sb.abs(name)
	ents, err := sb.fs.ReadDir(p)
	if err != nil {
		return nil, fsErr("ListDir", name, err)
	}
	out := make([]DirEntry, 0, len(ents))
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, DirEntry{Name: e.Name(), Mode: info.Mode(), Size: info.Size(), ModTime: info.ModTime(), IsDir: e.IsDir()})
	}
	return out, nil
}

// Stat describes a file (following symlinks).
func (sb *Sandbox) Stat(name string) (fs.FileInfo, error) {
	fi, err := sb.fs.Stat(sb.abs(name))
	if err != nil {
		return nil, fsErr("Stat", name, err)
	}
	return fi, nil
}

// Remove removes a file or an empty directory; with all, a whole tree.
func (sb *Sandbox) Remove(name string, all bool) error {
	p := sb.abs(name)
	if all {
		if _, err := sb.fs.Lstat(p); err != nil {
			return fsErr("Remove", name, err)
		}
		return fsErr("Remove", name, sb.fs.RemoveAll(p))
	}
	return fsErr("Remove", name, sb.fs.Remove(p))
}

// Mkdir makes a directory and any missing parents.
func (sb *Sandbox) Mkdir(name string, perm fs.FileMode) error {
	if perm == 0 {
		perm = 0o755
	}
	return fsErr("Mkdir", name, sb.fs.MkdirAll(sb.abs(name), perm))
}

// Mount exposes a file system (any hackpadfs.FS, such as a host directory
// from platform/hostdir) at a directory of the sandbox.
func (sb *Sandbox) Mount(dir string, fsys hackpadfs.FS, readOnly bool) error {
	if fsys == nil {
		return newErr(CodeInvalidArgument, "Mount", dir, errors.New("nil file system"))
	}
	p := sb.abs(dir)
	if err := sb.fs.MkdirAll(p, 0o755); err != nil {
		return fsErr("Mount", dir, err)
	}
	return fsErr("Mount", dir, sb.fs.Mount(p, fsys, readOnly))
}

// Chdir sets the session's current directory.
func (sb *Sandbox) Chdir(dir string) error {
	p := sb.abs(dir)
	fi, err := sb.fs.Stat(p)
	if err != nil {
		return fsErr("Chdir", dir, err)
	}
	if !fi.IsDir() {
		return newErr(CodeNotDir, "Chdir", dir, errors.New("not a directory"))
	}
	sh, err := sb.session()
	if err != nil {
		return err
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	sh.SetDir(p)
	return nil
}

// Incomplete reports whether src is an unfinished command (an open quote,
// block or here-document) that needs more lines, as a terminal would.
func Incomplete(src string) bool {
	p := syntax.NewParser(src, 1)
	openHeredoc := false
	p.Warn = func(int, string) { openHeredoc = true } // a here-document ended by end of input
	for {
		_, err := p.Next()
		if err == io.EOF {
			return openHeredoc
		}
		var se *syntax.Error
		if errors.As(err, &se) {
			return se.Incomplete
		}
		if err != nil {
			return false
		}
	}
}

// ReplaceFiles makes tree the sandbox's files (such as a state saved on
// another machine and decoded there: vfs.DecodeBytes), keeping its mounts
// and quotas; tree is shared copy-on-write. It waits for a run in progress.
func (sb *Sandbox) ReplaceFiles(tree *vfs.FS) error {
	if err := sb.checkOpen("ReplaceFiles"); err != nil {
		return err
	}
	if tree == nil {
		return newErr(CodeInvalidArgument, "ReplaceFiles", "", errors.New("nil tree"))
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	sb.fs.Adopt(tree)
	return nil
}

// SnapshotOf is a snapshot holding tree's files as they are now, for
// Restore into a sandbox whose files descend from them (a snapshot kept
// as a saved state, say).
func SnapshotOf(tree *vfs.FS) *Snapshot { return &Snapshot{tree.Snapshot()} }
