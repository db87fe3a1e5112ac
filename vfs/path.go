package vfs

import (
	"strings"
	"syscall"
)

const (
	maxSymlinkHops = 40
	maxNameLen     = 255
	maxPathLen     = 4096
)

type frame struct {
	ino  uint64
	name string
}

// walk is the result of resolving a path. It lives on the caller's stack;
// the fixed frame array avoids allocating on ordinary paths.
type walk struct {
	frames [16]frame
	extra  []frame // frames beyond len(frames) (very deep paths)
	depth  int     // frames in use; frames[0] is "/"

	// Results.
	dir      uint64 // tree directory holding the final component
	name     string // final component; "" when the path ends at "/", "." or ".."
	ino      uint64 // final inode; 0 if it does not exist
	trailing bool   // the path ended with a slash

	// Mounts: m != nil when the final component lies inside a mount.
	m     *mount
	mpath string // backend path (hackpadfs form: "a/b" or ".")
}

func (w *walk) push(fr frame) {
	if w.depth < len(w.frames) {
		w.frames[w.depth] = fr
	} else {
		w.extra = append(w.extra[:w.depth-len(w.frames)], fr)
	}
	w.depth++
}

func (w *walk) at(i int) *frame {
	if i < len(w.frames) {
		return &w.frames[i]
	}
	return &w.extra[i-len(w.frames)]
}

func (w *walk) top() *frame { return w.at(w.depth - 1) }

func (w *walk) pop() {
	if w.depth > 1 {
		w.depth--
	}
}

func (w *walk) reset() {
	w.depth = 0
	w.push(frame{ino: rootIno})
}

// contains reports whether ino is one of the directories on the resolved
// path (used to refuse moving a directory into itself).
func (w *walk) contains(ino uint64) bool {
	for i := 0; i < w.depth; i++ {
		if w.at(i).ino == ino {
			return true
		}
	}
	return false
}

// realpath joins the resolved frames into an absolute path.
func (w *walk) realpath() string {
	if w.depth <= 1 && w.m == nil {
		return "/"
	}
	var b strings.Builder
	for i := 1; i < w.depth; i++ {
		b.WriteByte('/')
		b.WriteString(w.at(i).name)
	}
	if w.m != nil && w.mpath != "." {
		b.WriteByte('/')
		b.WriteString(w.mpath)
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

// checkPath rejects what no component walk should see.
func checkPath(p string) syscall.Errno {
	if p == "" {
		return syscall.ENOENT
	}
	if len(p) > maxPathLen {
		return syscall.ENAMETOOLONG
	}
	if strings.IndexByte(p, 0) >= 0 {
		return syscall.EINVAL
	}
	return 0
}

// resolve walks p from "/". Intermediate symlinks are always followed, the
// final one only if follow (or the path ends with a slash). ".." is
// resolved physically with the frame stack, like the kernel does, not
// lexically. When the walk enters a mount point the rest of the path is
// handed to the backend. Must be called with f.mu held.
func (f *FS) resolve(w *walk, p string, follow bool) syscall.Errno {
	if e := checkPath(p); e != 0 {
		return e
	}
	w.reset()
	w.m = nil
	hops := 0
	rest := p
	if len(f.mounts) > 0 {
		if m := f.mounts[rootIno]; m != nil {
			return f.resolveMount(w, m, rest, follow)
		}
	}
	for {
		for len(rest) > 0 && rest[0] == '/' {
			rest = rest[1:]
		}
		if rest == "" {
			// Ended on a directory ("/", "a/.", "a/..").
			w.ino = w.top().ino
			w.name = ""
			w.dir = w.ino
			if w.depth > 1 {
				w.dir = w.at(w.depth - 2).ino
			}
			return 0
		}
		comp := rest
		last := true
		trailing := false
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			comp, rest = rest[:i], rest[i:]
			j := 0
			for j < len(rest) && rest[j] == '/' {
				j++
			}
			if j == len(rest) {
				trailing = true
				rest = ""
			} else {
				last = false
			}
		} else {
			rest = ""
		}
		if len(comp) > maxNameLen {
			return syscall.ENAMETOOLONG
		}
		if comp == "." || comp == ".." {
			if comp == ".." {
				w.pop()
			}
			if last {
				w.trailing = trailing
			}
			continue
		}
		cur := w.top().ino
		dn := f.node(cur)
		if dn == nil || !dn.isDir() {
			return syscall.ENOTDIR
		}
		child := dn.dir.entries[comp]
		if child == 0 {
			if last {
				w.dir, w.name, w.ino, w.trailing = cur, comp, 0, trailing
				return 0
			}
			return syscall.ENOENT
		}
		cn := f.node(child)
		if cn == nil {
			return syscall.EIO // dangling entry: must never happen
		}
		if cn.isSymlink() && (!last || follow || trailing) {
			hops++
			if hops > maxSymlinkHops {
				return syscall.ELOOP
			}
			t := cn.target
			if t == "" {
				return syscall.ENOENT
			}
			if !last {
				rest = t + "/" + rest
			} else if trailing {
				rest = t + "/"
			} else {
				rest = t
			}
			if t[0] == '/' {
				w.reset()
				if len(f.mounts) > 0 {
					if m := f.mounts[rootIno]; m != nil {
						return f.resolveMount(w, m, rest, follow)
					}
				}
			}
			continue
		}
		if last && !trailing {
			w.dir, w.name, w.ino, w.trailing = cur, comp, child, false
			if len(f.mounts) > 0 && cn.isDir() {
				if m := f.mounts[child]; m != nil {
					w.push(frame{ino: child, name: comp})
					return f.resolveMount(w, m, "", follow)
				}
			}
			return 0
		}
		if !cn.isDir() {
			return syscall.ENOTDIR
		}
		w.push(frame{ino: child, name: comp})
		if len(f.mounts) > 0 {
			if m := f.mounts[child]; m != nil {
				w.dir, w.name = cur, comp
				return f.resolveMount(w, m, rest, follow)
			}
		}
		if last {
			w.dir, w.name, w.ino, w.trailing = cur, comp, child, trailing
			return 0
		}
	}
}

// resolveMount resolves rest inside mount m, lexically (backends cannot
// tell us symlink targets; they follow them themselves, confined). A ".."
// above the mount root leaves the mount and continues in the tree.
func (f *FS) resolveMount(w *walk, m *mount, rest string, follow bool) syscall.Errno {
	var names []string
	trailing := strings.HasSuffix(rest, "/")
	for {
		for len(rest) > 0 && rest[0] == '/' {
			rest = rest[1:]
		}
		if rest == "" {
			break
		}
		comp := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			comp, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		if len(comp) > maxNameLen {
			return syscall.ENAMETOOLONG
		}
		switch comp {
		case ".":
		case "..":
			if len(names) == 0 {
				// Leave the mount: continue in the tree from the mount
				// point's parent.
				w.pop()
				return f.resolveFrom(w, rest, follow)
			}
			names = names[:len(names)-1]
		default:
			names = append(names, comp)
		}
	}
	w.m = m
	w.ino = 0
	if len(names) == 0 {
		w.mpath = "."
	} else {
		w.mpath = strings.Join(names, "/")
		w.name = names[len(names)-1]
	}
	w.trailing = trailing
	return 0
}

// resolveFrom continues a tree walk from the current frame stack (after a
// ".." out of a mount). It rebuilds a relative path from the stack, which is
// rare enough not to matter.
func (f *FS) resolveFrom(w *walk, rest string, follow bool) syscall.Errno {
	p := w.realpath()
	if w.depth <= 1 {
		p = "/"
	}
	if rest != "" {
		p = p + "/" + rest
	}
	return f.resolve(w, p, follow)
}
