package wasi

import (
	"context"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/vfs"
)

const (
	maxPathLen = 4096

	lookupSymlinkFollow = 1

	oflagCreat     uint16 = 1
	oflagDirectory uint16 = 2
	oflagExcl      uint16 = 4
	oflagTrunc     uint16 = 8
)

// resolve turns (dirfd, guest path) into an absolute, cleaned VFS path. The preopen is "/"
// so the whole VFS is the guest's root: ".." at the root stays there, and an absolute path
// (which wasi-libc never sends, Go guests might) means the same as in the guest.
func (p *Proc) resolve(m Memory, dirfd int32, ptr, n uint32) (abs, raw string, e Errno) {
	s, ok := readString(m, ptr, n)
	if !ok {
		return "", "", EFAULT
	}
	dir, e := p.lookup(dirfd)
	if e != 0 {
		return "", "", e
	}
	if dir.kind != kindFile || dir.ftype != FiletypeDirectory {
		return "", "", ENOTDIR
	}
	switch {
	case n == 0:
		return "", "", ENOENT
	case n > maxPathLen:
		return "", "", ENAMETOOLONG
	case strings.IndexByte(s, 0) >= 0:
		return "", "", EINVAL
	}
	if s[0] == '/' {
		return p.selfPath(path.Clean(s)), s, 0
	}
	return p.selfPath(path.Join(dir.path, s)), s, 0
}

// selfPath turns /proc/self/X into /proc/PID/X: the sandbox's /proc (a
// mount shared by its processes) cannot tell who asks. /proc/self/fd/N
// stays, for stdioPath; /proc/self itself is a symlink (pathReadlink).
func (p *Proc) selfPath(abs string) string {
	for _, s := range []string{"/proc/self/", "/proc/thread-self/"} {
		if rest, ok := strings.CutPrefix(abs, s); ok && !strings.HasPrefix(rest, "fd/") {
			return "/proc/" + strconv.Itoa(p.Pid) + "/" + rest
		}
	}
	return abs
}

func hasSlash(raw string) bool { return strings.HasSuffix(raw, "/") }

// lastName is the final component of a raw guest path ("." for "a/.", "" for "/").
func lastName(raw string) string {
	raw = strings.TrimRight(raw, "/")
	if i := strings.LastIndexByte(raw, '/'); i >= 0 {
		return raw[i+1:]
	}
	return raw
}

// slashCheck: "x/" must name a directory (POSIX); ENOTDIR when it names anything else.
func (p *Proc) slashCheck(abs, raw string) Errno {
	if !hasSlash(raw) {
		return 0
	}
	if fi, err := p.FS.Stat(abs); err == nil && !fi.IsDir() {
		return ENOTDIR
	}
	return 0
}

// stdioPath maps /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N to
// the process's own fd N: the vfs holds placeholder nodes for them (opening those gives
// ENXIO), the meaning is per process.
func (p *Proc) stdioPath(abs string) (int32, bool) {
	fd, ok := stdioFD(abs)
	if a, aliased := p.alias[fd]; ok && aliased {
		fd = a
	}
	return fd, ok
}

// underFD: a path below /dev/fd/N names nothing when N is open and not a
// directory (ENOTDIR, as `cat <(a)<(b)` finds /dev/fd/63/dev/fd/62).
func (p *Proc) underFD(abs string) Errno {
	for _, pre := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if rest, ok := strings.CutPrefix(abs, pre); ok {
			if i := strings.IndexByte(rest, '/'); i > 0 {
				if fd, ok := p.stdioPath(pre + rest[:i]); ok {
					if of, e := p.lookup(fd); e == 0 && of.ftype != FiletypeDirectory {
						return ENOTDIR
					}
				}
			}
		}
	}
	return 0
}

// fdLink is what the symlink /dev/fd/N (or /proc/self/fd/N) of an open fd
// points to: the file's path, or pipe:[ino] as Linux says.
func (p *Proc) fdLink(abs string) (string, bool) {
	if !strings.HasPrefix(abs, "/dev/fd/") && !strings.HasPrefix(abs, "/proc/self/fd/") {
		return "", false
	}
	fd, ok := p.stdioPath(abs)
	if !ok {
		return "", false
	}
	of, e := p.lookup(fd)
	if e != 0 {
		return "", false
	}
	if t, ok := of.link(); ok {
		return t, true
	}
	return "anon_inode:[stream]", true
}

// link is what a symlink to an open file description points to, as Linux
// says: the file's path, pipe:[ino], the terminal; ok false for another
// stream.
func (of *ofile) link() (string, bool) {
	switch {
	case of.kind == kindFile && of.path != "":
		return of.path, true
	case of.pipeID != 0:
		return pipeLink(of.pipeID), true
	case of.tty:
		return "/dev/pts/0", true
	}
	return "", false
}

// terminalFD is the fd that stands for /dev/tty (vfs.TTYFDs).
func (p *Proc) terminalFD(read, write bool) (int32, bool) {
	for _, fd := range vfs.TTYFDs(read, write) {
		if of, e := p.lookup(int32(fd)); e == 0 && of.tty {
			return int32(fd), true
		}
	}
	return 0, false
}

func pipeLink(id uint64) string { return "pipe:[" + strconv.FormatUint(id, 10) + "]" }

func stdioFD(abs string) (int32, bool) {
	switch abs {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, pre := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if rest, ok := strings.CutPrefix(abs, pre); ok {
			if n, err := strconv.ParseUint(rest, 10, 31); err == nil {
				return int32(n), true
			}
		}
	}
	return 0, false
}

func pathOpen(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	dirflags, oflags, rights, fdflags, result := uint32(a[1]), uint16(a[4]), a[5], uint16(a[7]), uint32(a[8])
	abs, raw, e := p.resolve(m, int32(a[0]), uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	if !inRange(m, result, 4) {
		return EFAULT
	}
	if abs == "/dev/tty" {
		// the run's terminal (its controlling terminal); without one the
		// vfs node answers ENXIO, as Linux does
		if fd, ok := p.terminalFD(rights&rightFdRead != 0, rights&rightFdWrite != 0); ok {
			return p.openDup(m, fd, result)
		}
	}
	if fd, ok := p.stdioPath(abs); ok {
		// Linux reopens a file named by /dev/fd/N (a new offset, the
		// flags asked for); a pipe or terminal is the same one
		of, e := p.lookup(fd)
		if e != 0 || !of.reopenable(p.FS) {
			return p.openDup(m, fd, result)
		}
		abs, raw = of.path, of.path
	} else if e := p.underFD(abs); e != 0 {
		return e
	}
	if oflags&oflagDirectory != 0 && oflags&oflagCreat != 0 {
		return EINVAL // use path_create_directory
	}
	wantDir := oflags&oflagDirectory != 0 || hasSlash(raw)
	if hasSlash(raw) && oflags&oflagCreat != 0 {
		if fi, err := p.FS.Stat(abs); err != nil || !fi.IsDir() {
			return EISDIR // open("new/", O_CREAT) on Linux
		}
	}

	// Rights are gone from WASI but are the only way to learn the access mode; without
	// them CREAT/TRUNC/APPEND imply writing (the same rule as wazero).
	r, w := rights&rightFdRead != 0, rights&rightFdWrite != 0
	if !r && !w {
		if oflags&(oflagCreat|oflagTrunc) != 0 || fdflags&fdflagAppend != 0 {
			r, w = true, true
		} else {
			r = true
		}
	}
	var flag int
	switch {
	case r && w:
		flag = os.O_RDWR
	case w:
		flag = os.O_WRONLY
	default:
		flag = os.O_RDONLY
	}
	if oflags&oflagCreat != 0 {
		flag |= os.O_CREATE
	}
	if oflags&oflagExcl != 0 && oflags&oflagDirectory == 0 {
		flag |= os.O_EXCL
	}
	if oflags&oflagTrunc != 0 {
		flag |= os.O_TRUNC
	}
	if oflags&oflagDirectory != 0 {
		flag |= vfs.O_DIRECTORY
	}
	if dirflags&lookupSymlinkFollow == 0 {
		flag |= vfs.O_NOFOLLOW
	}
	if fdflags&fdflagAppend != 0 {
		flag |= os.O_APPEND
	}
	if e := p.checkOpen(abs, flag); e != 0 {
		return e
	}
	f, err := p.FS.OpenFile(abs, flag, 0o666&^p.umask())
	if err != nil {
		e := ToErrno(err)
		if e == ENXIO { // maybe a symlink to /dev/stdout and the like
			if real, err := p.FS.Realpath(abs); err == nil {
				if fd, ok := p.stdioPath(real); ok {
					return p.openDup(m, fd, result)
				}
			}
		}
		return e
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return ToErrno(err)
	}
	ftype := filetypeOf(fi.Mode())
	if wantDir && ftype != FiletypeDirectory {
		_ = f.Close()
		return ENOTDIR
	}
	of := &ofile{
		kind: kindFile, f: f, ftype: ftype, path: abs, closer: f,
		read: r || ftype == FiletypeDirectory, write: w,
		append: fdflags&fdflagAppend != 0, nonblock: fdflags&fdflagNonblock != 0,
	}
	of.refs.Store(1)
	fd, e := p.allocFD(of)
	if e != 0 {
		_ = f.Close()
		return e
	}
	m.WriteUint32Le(result, uint32(fd))
	return 0
}

// openDup gives a new fd sharing fd's open file description (dup).
func (p *Proc) openDup(m Memory, fd int32, result uint32) Errno {
	of, e := p.lookup(fd)
	if e != 0 {
		return ENOENT // like /proc/self/fd/N for a closed N
	}
	of.incref()
	nfd, e := p.allocFD(of)
	if e != 0 {
		of.decref()
		return e
	}
	m.WriteUint32Le(result, uint32(nfd))
	return 0
}

func pathCreateDirectory(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	abs, _, e := p.resolve(m, int32(a[0]), uint32(a[1]), uint32(a[2]))
	if e != 0 {
		return e
	}
	if e := p.checkCreate(abs); e != 0 {
		return e
	}
	return ToErrno(p.FS.Mkdir(abs, 0o777&^p.umask()))
}

func pathFilestatGet(ctx context.Context, p *Proc, m Memory, a []uint64) Errno {
	flags, result := uint32(a[1]), uint32(a[4])
	abs, raw, e := p.resolve(m, int32(a[0]), uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	if !inRange(m, result, 64) {
		return EFAULT
	}
	follow := flags&lookupSymlinkFollow != 0 || hasSlash(raw)
	if fd, ok := p.stdioPath(abs); ok && follow {
		if _, e := p.lookup(fd); e != 0 {
			return ENOENT
		}
		return fdFilestatGet(ctx, p, m, []uint64{uint64(fd), uint64(result)})
	}
	if target, ok := p.fdLink(abs); ok && !follow {
		var buf [64]byte // /dev/fd/N itself is a symlink, as Linux shows it
		buf[16] = FiletypeSymbolicLink
		le.PutUint64(buf[24:], 1)
		le.PutUint64(buf[32:], uint64(len(target)))
		m.Write(result, buf[:])
		return 0
	}
	var fi *vfs.FileInfo
	var err error
	if follow {
		fi, err = p.FS.Stat(abs)
	} else {
		fi, err = p.FS.Lstat(abs)
	}
	if err != nil {
		return ToErrno(err)
	}
	if hasSlash(raw) && !fi.IsDir() {
		return ENOTDIR
	}
	var buf [64]byte
	putFilestat(buf[:], fi)
	m.Write(result, buf[:])
	return 0
}

func pathFilestatSetTimes(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	flags := uint32(a[1])
	abs, raw, e := p.resolve(m, int32(a[0]), uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	at, mt, e := toTimes(p, a[4], a[5], uint16(a[6]))
	if e != 0 {
		return e
	}
	if e := p.slashCheck(abs, raw); e != 0 {
		return e
	}
	follow := flags&lookupSymlinkFollow != 0
	if at.IsZero() && mt.IsZero() {
		var err error
		if follow {
			_, err = p.FS.Stat(abs)
		} else {
			_, err = p.FS.Lstat(abs)
		}
		return ToErrno(err)
	}
	return ToErrno(p.FS.Chtimes(abs, at, mt, follow))
}

func pathLink(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	oldAbs, oldRaw, e := p.resolve(m, int32(a[0]), uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	newAbs, _, e := p.resolve(m, int32(a[4]), uint32(a[5]), uint32(a[6]))
	if e != 0 {
		return e
	}
	if e := p.slashCheck(oldAbs, oldRaw); e != 0 {
		return e
	}
	if uint32(a[1])&lookupSymlinkFollow != 0 {
		real, err := p.FS.Realpath(oldAbs)
		if err != nil {
			return ToErrno(err)
		}
		oldAbs = real
	}
	return ToErrno(p.FS.Link(oldAbs, newAbs))
}

func pathReadlink(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	buf, bufLen, result := uint32(a[3]), uint32(a[4]), uint32(a[5])
	abs, _, e := p.resolve(m, int32(a[0]), uint32(a[1]), uint32(a[2]))
	if e != 0 {
		return e
	}
	if bufLen == 0 {
		return EINVAL
	}
	if !inRange(m, buf, bufLen) {
		return EFAULT
	}
	if !inRange(m, result, 4) {
		return EFAULT
	}
	target, ok := p.fdLink(abs)
	if abs == "/proc/self" || abs == "/proc/thread-self" {
		target, ok = strconv.Itoa(p.Pid), true
	}
	if !ok {
		var err error
		if target, err = p.FS.Readlink(abs); err != nil {
			return ToErrno(err)
		}
	}
	// POSIX readlink truncates silently (wazero returns ERANGE, which breaks callers that
	// grow their buffer until the result is shorter than it).
	if uint32(len(target)) > bufLen {
		target = target[:bufLen]
	}
	m.Write(buf, []byte(target))
	m.WriteUint32Le(result, uint32(len(target)))
	return 0
}

func pathRemoveDirectory(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	abs, raw, e := p.resolve(m, int32(a[0]), uint32(a[1]), uint32(a[2]))
	if e != 0 {
		return e
	}
	switch lastName(raw) {
	case ".":
		return EINVAL
	case "..":
		return ENOTEMPTY
	}
	if e := p.checkDirWrite(abs); e != 0 {
		return e
	}
	return ToErrno(p.FS.Rmdir(abs))
}

func pathRename(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	oldAbs, oldRaw, e := p.resolve(m, int32(a[0]), uint32(a[1]), uint32(a[2]))
	if e != 0 {
		return e
	}
	newAbs, newRaw, e := p.resolve(m, int32(a[3]), uint32(a[4]), uint32(a[5]))
	if e != 0 {
		return e
	}
	for _, n := range []string{lastName(oldRaw), lastName(newRaw)} {
		if n == "." || n == ".." || n == "" {
			return EBUSY
		}
	}
	if hasSlash(oldRaw) || hasSlash(newRaw) {
		fi, err := p.FS.Lstat(oldAbs)
		if err != nil {
			return ToErrno(err)
		}
		if !fi.IsDir() {
			return ENOTDIR
		}
	}
	if e := p.checkDirWrite(oldAbs); e != 0 {
		return e
	}
	if e := p.checkDirWrite(newAbs); e != 0 {
		return e
	}
	return ToErrno(p.FS.Rename(oldAbs, newAbs))
}

func pathSymlink(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	target, ok := readString(m, uint32(a[0]), uint32(a[1]))
	if !ok {
		return EFAULT
	}
	abs, _, e := p.resolve(m, int32(a[2]), uint32(a[3]), uint32(a[4]))
	if e != 0 {
		return e
	}
	if target == "" {
		return ENOENT
	}
	if strings.IndexByte(target, 0) >= 0 {
		return EINVAL
	}
	if e := p.checkCreate(abs); e != 0 {
		return e
	}
	return ToErrno(p.FS.Symlink(target, abs))
}

func pathUnlinkFile(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	abs, raw, e := p.resolve(m, int32(a[0]), uint32(a[1]), uint32(a[2]))
	if e != 0 {
		return e
	}
	if hasSlash(raw) {
		fi, err := p.FS.Stat(abs)
		if err != nil {
			return ToErrno(err)
		}
		if fi.IsDir() {
			return EISDIR
		}
		return ENOTDIR
	}
	if e := p.checkDirWrite(abs); e != 0 {
		return e
	}
	err := p.FS.Unlink(abs)
	if err != nil && ToErrno(err) == EPERM {
		if fi, serr := p.FS.Lstat(abs); serr == nil && fi.IsDir() {
			return EISDIR // what Linux says for unlink(dir)
		}
	}
	return ToErrno(err)
}

// checkOpen applies the file's permission bits for the process's uid/gid
// (Proc.Uid 0 is root: no checks), as open(2) does.
func (p *Proc) checkOpen(abs string, flag int) Errno {
	if p.Uid == 0 {
		return 0
	}
	fi, err := p.FS.Stat(abs)
	if err != nil {
		if flag&os.O_CREATE != 0 && ToErrno(err) == ENOENT {
			return p.checkCreate(abs)
		}
		return 0 // the open reports it
	}
	st, ok := fi.Sys().(*vfs.Stat)
	if !ok {
		return 0
	}
	var want uint32
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_RDONLY:
		want = vfs.AccessRead
	case os.O_WRONLY:
		want = vfs.AccessWrite
	default:
		want = vfs.AccessRead | vfs.AccessWrite
	}
	if flag&os.O_TRUNC != 0 {
		want |= vfs.AccessWrite
	}
	if st.Mode&fs.ModeCharDevice != 0 {
		return 0 // /dev/null and friends are 0666 anyway
	}
	if !vfs.Permits(st, want, p.Uid, p.Gid) {
		return EACCES
	}
	return 0
}

// checkCreate: adding a directory entry needs write and search permission on
// the directory, unless the name exists (the operation then fails EEXIST).
func (p *Proc) checkCreate(abs string) Errno {
	if _, err := p.FS.Lstat(abs); err == nil {
		return 0 // creating what exists is EEXIST, whatever the permissions
	}
	return p.checkDirWrite(abs)
}

// checkDirWrite: removing or replacing a directory entry needs write and
// search permission on the directory.
func (p *Proc) checkDirWrite(abs string) Errno {
	if p.Uid == 0 {
		return 0
	}
	err := p.FS.CheckCreate(abs, p.Uid, p.Gid)
	if e := ToErrno(err); e == EACCES || e == ENOTDIR {
		return e
	}
	return 0
}
