package hostdir

// What a guest may do to the host through a read-write mount (SECURITY.md,
// "Host mounts"): the host process often runs as root, so the kernel's own
// checks (an unprivileged writer cannot make a setuid file, chown, or a
// device) do not protect the host; these do.

import (
	"io/fs"
	"path"
	"strings"
	"syscall"
)

// sandboxID is the owner every host file is reported with (convert); a
// chown to it, or to -1, changes nothing and succeeds.
const sandboxID = 1000

// hostMode is the mode a guest's chmod gives a host file: permission bits
// only (never setuid, setgid or sticky), and never more than the host
// process's umask lets it create.
func hostMode(mode fs.FileMode) fs.FileMode {
	return mode & fs.ModePerm &^ processUmask()
}

// maxLinkHops bounds symlink resolution as the kernel's ELOOP does.
const maxLinkHops = 40

// realDir returns the path of directory dir inside the root after following
// its symlinks ("." for the root), as the kernel would resolve it; a symlink
// that leaves the root is EACCES (os.Root refuses to follow it too).
func (h *FS) realDir(dir string) (string, error) {
	var out []string
	rest := strings.Split(dir, "/")
	for hops := 0; len(rest) > 0; {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(out) == 0 {
				return "", syscall.EACCES
			}
			out = out[:len(out)-1]
			continue
		}
		p := path.Join(append(out, c)...)
		fi, err := h.root.Lstat(p)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			out = append(out, c)
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", syscall.ELOOP
		}
		t, err := h.root.Readlink(p)
		if err != nil {
			return "", err
		}
		if path.IsAbs(t) {
			return "", syscall.EACCES
		}
		rest = append(strings.Split(t, "/"), rest...)
	}
	if len(out) == 0 {
		return ".", nil
	}
	return path.Join(out...), nil
}

func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// linkStaysInside says whether a symlink with this target, in the directory
// whose real path is dir, points inside the root. Only targets that climb
// first and then descend are judged ("../../lib/x"): a ".." after a name
// ("a/../../x") could climb out through a symlink made later, so it is
// refused, as is any absolute target.
func linkStaysInside(dir, target string) bool {
	if target == "" || path.IsAbs(target) {
		return false
	}
	up, climbing := 0, true
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "", ".":
		case "..":
			if !climbing {
				return false
			}
			up++
		default:
			climbing = false
		}
	}
	return up <= depth(dir)
}

// checkLinkAt is EPERM unless a symlink with target, named name, stays inside.
func (h *FS) checkLinkAt(name, target string) error {
	dir, err := h.realDir(path.Dir(name))
	if err != nil {
		return err
	}
	if !linkStaysInside(dir, target) {
		return syscall.EPERM
	}
	return nil
}

// checkMove is EPERM when moving (or hard-linking) oldname to newname would
// leave a symlink pointing outside the root: oldname is a symlink that does
// at its new place, or a directory moved nearer the root that holds one.
func (h *FS) checkMove(oldname, newname string, dirsToo bool) error {
	fi, err := h.root.Lstat(oldname)
	if err != nil {
		return nil // the operation itself reports it
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := h.root.Readlink(oldname)
		if err != nil {
			return err
		}
		return h.checkLinkAt(newname, t)
	case !fi.IsDir() || !dirsToo:
		return nil
	}
	from, err := h.realDir(oldname)
	if err != nil {
		return err
	}
	toParent, err := h.realDir(path.Dir(newname))
	if err != nil {
		return nil // the rename fails on its own
	}
	to := path.Join(toParent, path.Base(newname))
	if depth(to) >= depth(from) {
		return nil // a link that stayed inside still does, one or more levels deeper
	}
	return fs.WalkDir(h.root.FS(), from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		t, err := h.root.Readlink(p)
		if err != nil {
			return nil
		}
		rel := strings.TrimPrefix(path.Dir(p), from)
		if !linkStaysInside(path.Clean(to+"/"+rel), t) {
			return syscall.EPERM
		}
		return nil
	})
}

// checkOwner allows only a chown that changes nothing: host files keep
// their owners (a guest giving a file to root, or taking one, would let it
// reach another user's rights on the host).
func checkOwner(uid, gid int) error {
	if (uid == -1 || uid == sandboxID) && (gid == -1 || gid == sandboxID) {
		return nil
	}
	return syscall.EPERM
}

// dropSetID clears setuid and setgid on a host file opened for writing, as
// the kernel does for a writer without CAP_FSETID: a guest must not put its
// own code into a setuid program that was already in the mount.
func dropSetID(f interface {
	Stat() (fs.FileInfo, error)
	Chmod(fs.FileMode) error
}) error {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) == 0 || !fi.Mode().IsRegular() {
		return err
	}
	return f.Chmod(fi.Mode().Perm())
}
