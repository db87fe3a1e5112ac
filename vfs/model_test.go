package vfs

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// The randomized test applies the same random operations to the VFS and to
// a deliberately naive model (a map from path to node) and compares the
// whole tree after every step. Symlinks in the model always point into
// "/zz", which never exists, so the model never has to resolve them: any
// walk through one ends in ENOENT.

type mkind int

const (
	mFile mkind = iota
	mDir
	mLink
)

type mnode struct {
	kind    mkind
	perm    fs.FileMode
	content []byte
	target  string
}

type model map[string]*mnode

func (m model) clone() model {
	seen := map[*mnode]*mnode{}
	out := model{}
	for p, n := range m {
		c, ok := seen[n]
		if !ok {
			cp := *n
			cp.content = bytes.Clone(n.content)
			c = &cp
			seen[n] = c
		}
		out[p] = c
	}
	return out
}

// parent checks every ancestor of p like a path walk would.
func (m model) parent(p string) syscall.Errno {
	dir := path.Dir(p)
	if dir == "/" {
		return 0
	}
	var walked string
	for _, comp := range strings.Split(dir[1:], "/") {
		walked += "/" + comp
		n := m[walked]
		switch {
		case n == nil:
			return syscall.ENOENT
		case n.kind == mLink:
			return syscall.ENOENT // dangling target in /zz
		case n.kind == mFile:
			return syscall.ENOTDIR
		}
	}
	return 0
}

func (m model) children(p string) []string {
	var out []string
	prefix := p + "/"
	for q := range m {
		if strings.HasPrefix(q, prefix) {
			out = append(out, q)
		}
	}
	return out
}

func (m model) isEmptyDir(p string) bool { return len(m.children(p)) == 0 }

// apply performs one op on the model and returns the errno it predicts.
type op struct {
	kind string
	a, b string
	data []byte
	size int64
	perm fs.FileMode
}

func (m model) apply(o op) syscall.Errno {
	n := m[o.a]
	switch o.kind {
	case "write", "append", "truncate", "chmod":
		if e := m.parent(o.a); e != 0 {
			return e
		}
		if n == nil {
			if o.kind == "write" {
				m[o.a] = &mnode{kind: mFile, perm: 0o644, content: bytes.Clone(o.data)}
				return 0
			}
			return syscall.ENOENT
		}
		if n.kind == mLink {
			return syscall.ENOENT
		}
		if o.kind == "chmod" {
			n.perm = o.perm
			return 0
		}
		if n.kind == mDir {
			return syscall.EISDIR
		}
		switch o.kind {
		case "write":
			n.content = bytes.Clone(o.data)
		case "append":
			n.content = append(n.content, o.data...)
		case "truncate":
			if int64(len(n.content)) > o.size {
				n.content = n.content[:o.size]
			} else {
				n.content = append(n.content, make([]byte, o.size-int64(len(n.content)))...)
			}
		}
	case "mkdir", "symlink":
		if e := m.parent(o.a); e != 0 {
			return e
		}
		if n != nil {
			return syscall.EEXIST
		}
		if o.kind == "mkdir" {
			m[o.a] = &mnode{kind: mDir, perm: 0o755}
		} else {
			m[o.a] = &mnode{kind: mLink, perm: 0o777, target: o.b}
		}
	case "unlink", "rmdir":
		if e := m.parent(o.a); e != 0 {
			return e
		}
		if n == nil {
			return syscall.ENOENT
		}
		if o.kind == "unlink" && n.kind == mDir {
			return syscall.EISDIR
		}
		if o.kind == "rmdir" {
			if n.kind != mDir {
				return syscall.ENOTDIR
			}
			if !m.isEmptyDir(o.a) {
				return syscall.ENOTEMPTY
			}
		}
		delete(m, o.a)
	case "removeall":
		if e := m.parent(o.a); e != 0 {
			if e == syscall.ENOENT {
				return 0
			}
			return e
		}
		if n == nil {
			return 0
		}
		for _, c := range m.children(o.a) {
			delete(m, c)
		}
		delete(m, o.a)
	case "link":
		if e := m.parent(o.a); e != 0 {
			return e
		}
		if e := m.parent(o.b); e != 0 {
			return e
		}
		if n == nil {
			return syscall.ENOENT
		}
		if n.kind == mDir {
			return syscall.EPERM
		}
		if m[o.b] != nil {
			return syscall.EEXIST
		}
		m[o.b] = n
	case "rename":
		if e := m.parent(o.a); e != 0 {
			return e
		}
		if e := m.parent(o.b); e != 0 {
			return e
		}
		if n == nil {
			return syscall.ENOENT
		}
		dst := m[o.b]
		if dst == n {
			return 0
		}
		if n.kind == mDir {
			if strings.HasPrefix(o.b, o.a+"/") {
				return syscall.EINVAL
			}
			if dst != nil {
				if dst.kind != mDir {
					return syscall.ENOTDIR
				}
				if !m.isEmptyDir(o.b) {
					return syscall.ENOTEMPTY
				}
			}
		} else if dst != nil && dst.kind == mDir {
			return syscall.EISDIR
		}
		moved := map[string]*mnode{o.b: n}
		for _, c := range m.children(o.a) {
			moved[o.b+strings.TrimPrefix(c, o.a)] = m[c]
			delete(m, c)
		}
		delete(m, o.a)
		for p, x := range moved {
			m[p] = x
		}
	default:
		panic(o.kind)
	}
	return 0
}

func (f *FS) applyOp(o op) error {
	switch o.kind {
	case "write":
		return f.WriteFile(o.a, o.data, 0o644)
	case "append":
		fl, err := f.OpenFile(o.a, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		_, err = fl.Write(o.data)
		fl.Close()
		return err
	case "truncate":
		return f.Truncate(o.a, o.size)
	case "chmod":
		return f.Chmod(o.a, o.perm)
	case "mkdir":
		return f.Mkdir(o.a, 0o755)
	case "symlink":
		return f.Symlink(o.b, o.a)
	case "unlink":
		return f.Unlink(o.a)
	case "rmdir":
		return f.Rmdir(o.a)
	case "removeall":
		return f.RemoveAll(o.a)
	case "link":
		return f.Link(o.a, o.b)
	case "rename":
		return f.Rename(o.a, o.b)
	}
	panic(o.kind)
}

// state renders a tree as sorted lines; hard links are shown as "same as
// <first path>" so inode identity is compared without inode numbers.
func modelState(m model) (string, int64, int64) {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	first := map[*mnode]string{}
	links := map[*mnode]int{}
	for _, p := range paths {
		links[m[p]]++
	}
	var b strings.Builder
	var bytesUsed int64
	for _, p := range paths {
		n := m[p]
		id, seen := first[n]
		if !seen {
			first[n] = p
			id = p
			if n.kind == mFile {
				bytesUsed += int64(len(n.content))
			}
		}
		nlink := links[n]
		if n.kind == mDir {
			nlink = 2
			for _, c := range m.children(p) {
				if m[c].kind == mDir && path.Dir(c) == p {
					nlink++
				}
			}
		}
		fmt.Fprintf(&b, "%s kind=%d perm=%v nlink=%d id=%s data=%q target=%q\n", p, n.kind, n.perm, nlink, id, n.content, n.target)
	}
	return b.String(), bytesUsed, int64(len(first)) + 1
}

func fsState(t testing.TB, f *FS) (string, int64, int64) {
	var lines []string
	first := map[uint64]string{}
	var walk func(dir string)
	walk = func(dir string) {
		ents, err := f.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range ents {
			p := path.Join(dir, e.Name())
			s := st(t, f, p)
			id, ok := first[s.Ino]
			if !ok {
				first[s.Ino] = p
				id = p
			}
			var kind mkind
			var data []byte
			var target string
			switch {
			case s.Mode.IsDir():
				kind = mDir
			case s.Mode&fs.ModeSymlink != 0:
				kind = mLink
				target, _ = f.Readlink(p)
			default:
				kind = mFile
				var err error
				data, err = f.ReadFile(p)
				require.NoError(t, err)
			}
			lines = append(lines, fmt.Sprintf("%s kind=%d perm=%v nlink=%d id=%s data=%q target=%q\n", p, kind, s.Mode.Perm(), s.Nlink, id, data, target))
			if kind == mDir {
				walk(p)
			}
		}
	}
	walk("/")
	sort.Strings(lines)
	b, n := f.Usage()
	return strings.Join(lines, ""), b, n
}

type world struct {
	f     *FS
	m     model
	snaps []struct {
		s *Snapshot
		m model
	}
}

func randomOp(r *rand.Rand) op {
	names := []string{"a", "b", "c"}
	rp := func() string {
		d := 1 + r.Intn(3)
		var parts []string
		for i := 0; i < d; i++ {
			parts = append(parts, names[r.Intn(len(names))])
		}
		return "/" + strings.Join(parts, "/")
	}
	data := func() []byte {
		n := r.Intn(40)
		if r.Intn(10) == 0 {
			n = r.Intn(3 * chunkSize)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.Intn(26))
		}
		return b
	}
	kinds := []string{"write", "write", "append", "truncate", "chmod", "mkdir", "mkdir", "mkdir",
		"symlink", "unlink", "rmdir", "removeall", "link", "rename", "rename"}
	o := op{kind: kinds[r.Intn(len(kinds))], a: rp()}
	switch o.kind {
	case "write", "append":
		o.data = data()
	case "truncate":
		o.size = int64(r.Intn(100))
		if r.Intn(8) == 0 {
			o.size = int64(r.Intn(2 * chunkSize))
		}
	case "chmod":
		o.perm = fs.FileMode(r.Intn(0o1000))
	case "symlink":
		o.b = "/zz/" + names[r.Intn(len(names))]
	case "link", "rename":
		o.b = rp()
	}
	return o
}

func TestRandomizedAgainstModel(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewSource(seed))
			worlds := []*world{{f: New(Options{}), m: model{}}}
			for step := 0; step < 700; step++ {
				w := worlds[r.Intn(len(worlds))]
				switch x := r.Intn(100); {
				case x < 4:
					w.snaps = append(w.snaps, struct {
						s *Snapshot
						m model
					}{w.f.Snapshot(), w.m.clone()})
				case x < 7 && len(w.snaps) > 0:
					sn := w.snaps[r.Intn(len(w.snaps))]
					w.f.Restore(sn.s)
					w.m = sn.m.clone()
				case x < 9 && len(worlds) < 5:
					worlds = append(worlds, &world{f: w.f.Clone(), m: w.m.clone()})
				default:
					o := randomOp(r)
					want := w.m.apply(o)
					err := w.f.applyOp(o)
					if want == 0 {
						require.NoError(t, err, "step %d %+v", step, o)
					} else {
						requireErrno(t, want, err, "step %d %+v", step, o)
					}
				}
				ms, mb, mn := modelState(w.m)
				fs, fb, fn := fsState(t, w.f)
				require.Equal(t, ms, fs, "step %d", step)
				require.Equal(t, mb, fb, "bytes at step %d", step)
				require.Equal(t, mn, fn, "inodes at step %d", step)
			}
			// Every world (and every snapshot) is still what its model says.
			for _, w := range worlds {
				ms, _, _ := modelState(w.m)
				fs, _, _ := fsState(t, w.f)
				require.Equal(t, ms, fs)
				for _, sn := range w.snaps {
					w.f.Restore(sn.s)
					ms, _, _ := modelState(sn.m)
					fs, _, _ := fsState(t, w.f)
					require.Equal(t, ms, fs)
				}
			}
		})
	}
}
