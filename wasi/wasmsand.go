package wasi

import (
	"context"
	"io/fs"
	"path"
	"strings"

	"github.com/wasmsand/wasmsand/vfs"
)

// PipeSize is the buffer of pipes made by wasmsand.pipe.
const PipeSize = 64 << 10

// splitNul splits a buffer of NUL-terminated strings (the last terminator is optional).
func splitNul(m Memory, ptr, n uint32) ([]string, bool) {
	s, ok := readString(m, ptr, n)
	if !ok {
		return nil, false
	}
	if s == "" {
		return nil, true
	}
	parts := strings.Split(s, "\x00")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts, true
}

func setEnv(env []string, k, v string) []string {
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if !strings.HasPrefix(e, k+"=") {
			out = append(out, e)
		}
	}
	return append(out, k+"="+v)
}

func xSpawn(ctx context.Context, p *Proc, m Memory, a []uint64) Errno {
	argvPtr, argvLen, envPtr, envLen := uint32(a[0]), uint32(a[1]), uint32(a[2]), uint32(a[3])
	cwdPtr, cwdLen, pidPtr := uint32(a[4]), uint32(a[5]), uint32(a[9])
	fds := [3]int32{int32(a[6]), int32(a[7]), int32(a[8])}
	if !inRange(m, pidPtr, 4) {
		return EFAULT
	}
	argv, ok := splitNul(m, argvPtr, argvLen)
	if !ok {
		return EFAULT
	}
	if len(argv) == 0 {
		return EINVAL
	}
	env := p.env
	if envPtr != 0 || envLen != 0 {
		if env, ok = splitNul(m, envPtr, envLen); !ok {
			return EFAULT
		}
	}
	dir := p.Cwd
	if dir == "" {
		dir = "/"
	}
	if cwdLen > 0 {
		s, ok := readString(m, cwdPtr, cwdLen)
		if !ok {
			return EFAULT
		}
		if strings.HasPrefix(s, "/") {
			dir = path.Clean(s)
		} else {
			dir = path.Join(dir, s)
		}
	}
	if p.Spawner == nil {
		return ENOSYS
	}
	var refs [3]*FDRef
	release := func() {
		for _, r := range refs {
			if r != nil {
				r.Close()
			}
		}
	}
	for i, fd := range fds {
		if fd < 0 {
			continue
		}
		r, err := p.Ref(int(fd))
		if err != nil {
			release()
			return EBADF
		}
		refs[i] = r
	}
	req := SpawnRequest{PPid: p.Pid, Argv: argv, Env: setEnv(env, "PWD", dir), Dir: dir, Umask: uint32(p.umask())}
	// Assign only non-nil refs: a typed nil in an interface would not read as "none".
	if refs[0] != nil {
		req.Stdin = refs[0]
	}
	if refs[1] != nil {
		req.Stdout = refs[1]
	}
	if refs[2] != nil {
		req.Stderr = refs[2]
	}
	child, err := p.Spawner.Spawn(ctx, req)
	if err != nil {
		release()
		return ToErrno(err)
	}
	if p.children == nil {
		p.children = map[int32]Child{}
	}
	pid := int32(child.Pid())
	p.children[pid] = child
	if st, ok := child.(Starter); ok {
		p.pending = append(p.pending, st)
	}
	m.WriteUint32Le(pidPtr, uint32(pid))
	return 0
}

func xWait(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return p.wait(m, a, true)
}

// xTryWait is xWait without blocking: EAGAIN while the child runs (waitpid WNOHANG).
func xTryWait(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return p.wait(m, a, false)
}

// wait reaps child a[0] into *a[1]; without block, EAGAIN while it runs.
func (p *Proc) wait(m Memory, a []uint64, block bool) Errno {
	pid, statusPtr := int32(a[0]), uint32(a[1])
	child, ok := p.children[pid]
	if !ok {
		return ECHILD
	}
	if !inRange(m, statusPtr, 4) {
		return EFAULT
	}
	var status int
	if block {
		status = child.Wait()
	} else if status, ok = child.TryWait(); !ok {
		return EAGAIN
	}
	delete(p.children, pid)
	m.WriteUint32Le(statusPtr, uint32(status))
	return 0
}

func xKill(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	pid, sig := int32(a[0]), int32(a[1])
	if sig < 0 || sig > 64 {
		return EINVAL
	}
	child, ok := p.children[pid]
	if !ok {
		if p.Signal != nil && pid > 0 {
			// another process of the sandbox (kill(1), pkill)
			return ToErrno(p.Signal(int(pid), int(sig)))
		}
		return ESRCH
	}
	if sig == 0 {
		return 0 // existence check
	}
	return ToErrno(child.Kill(int(sig)))
}

func xPipe(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	out := uint32(a[0])
	if !inRange(m, out, 8) {
		return EFAULT
	}
	size := PipeSize
	if p.PipeSize > 0 {
		size = p.PipeSize
	}
	pr, pw := vfs.Pipe(size)
	r := &ofile{kind: kindStream, r: pr, read: true, closer: pr}
	w := &ofile{kind: kindStream, w: pw, write: true, closer: pw}
	r.refs.Store(1)
	w.refs.Store(1)
	rfd, e := p.allocFD(r)
	if e != 0 {
		r.closeNow()
		w.closeNow()
		return e
	}
	wfd, e := p.allocFD(w)
	if e != 0 {
		p.fds[rfd] = fdSlot{}
		r.closeNow()
		w.closeNow()
		return e
	}
	p.trackPipe(r)
	p.trackPipe(w)
	m.WriteUint32Le(out, uint32(rfd))
	m.WriteUint32Le(out+4, uint32(wfd))
	return 0
}

func xDup(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	fd, result := int32(a[0]), uint32(a[1])
	of, e := p.lookup(fd)
	if e != 0 {
		return e
	}
	if !inRange(m, result, 4) {
		return EFAULT
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

func xDup2(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	fd, to := int32(a[0]), int32(a[1])
	of, e := p.lookup(fd)
	if e != 0 {
		return e
	}
	if to < 0 || int(to) >= p.maxFDs {
		return EBADF
	}
	if fd == to {
		return 0
	}
	of.incref()
	return p.setFD(to, of)
}

func xGetpid(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	if !m.WriteUint32Le(uint32(a[0]), uint32(p.Pid)) || !m.WriteUint32Le(uint32(a[1]), uint32(p.PPid)) {
		return EFAULT
	}
	return 0
}

// Linux st_mode bits (what stat_ext reports and chmod takes).
const (
	sIFMT   = 0o170000
	sIFSOCK = 0o140000
	sIFLNK  = 0o120000
	sIFREG  = 0o100000
	sIFBLK  = 0o060000
	sIFDIR  = 0o040000
	sIFCHR  = 0o020000
	sIFIFO  = 0o010000
	sISUID  = 0o4000
	sISGID  = 0o2000
	sISVTX  = 0o1000
)

// LinuxMode converts an fs.FileMode to a Linux st_mode.
func LinuxMode(m fs.FileMode) uint32 {
	v := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= sISUID
	}
	if m&fs.ModeSetgid != 0 {
		v |= sISGID
	}
	if m&fs.ModeSticky != 0 {
		v |= sISVTX
	}
	switch {
	case m.IsDir():
		v |= sIFDIR
	case m&fs.ModeSymlink != 0:
		v |= sIFLNK
	case m&fs.ModeNamedPipe != 0:
		v |= sIFIFO
	case m&fs.ModeSocket != 0:
		v |= sIFSOCK
	case m&fs.ModeCharDevice != 0:
		v |= sIFCHR
	case m&fs.ModeDevice != 0:
		v |= sIFBLK
	default:
		v |= sIFREG
	}
	return v
}

// PermFromLinux keeps the permission, setuid, setgid and sticky bits of a Linux mode.
func PermFromLinux(v uint32) fs.FileMode {
	m := fs.FileMode(v & 0o777)
	if v&sISUID != 0 {
		m |= fs.ModeSetuid
	}
	if v&sISGID != 0 {
		m |= fs.ModeSetgid
	}
	if v&sISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// statTarget finds what an (fd, path, flags) triple names: the fd itself when the path is
// empty, else the path relative to the fd (following the last symlink if flags say so).
func (p *Proc) statTarget(m Memory, fd int32, flags, ptr, n uint32) (of *ofile, abs string, fi *vfs.FileInfo, e Errno) {
	if n == 0 {
		of, e = p.lookup(fd)
		if e != 0 {
			return nil, "", nil, e
		}
		if of.kind == kindFile {
			fi, err := of.f.Stat()
			return of, "", fi, ToErrno(err)
		}
		return of, "", nil, 0
	}
	abs, raw, e := p.resolve(m, fd, ptr, n)
	if e != 0 {
		return nil, "", nil, e
	}
	follow := flags&lookupSymlinkFollow != 0 || hasSlash(raw)
	if sfd, ok := p.stdioPath(abs); ok && follow {
		return p.statTarget(m, sfd, 0, 0, 0)
	}
	var err error
	if follow {
		fi, err = p.FS.Stat(abs)
	} else {
		fi, err = p.FS.Lstat(abs)
	}
	return nil, abs, fi, ToErrno(err)
}

func xStatExt(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	out := uint32(a[4])
	if !inRange(m, out, 32) {
		return EFAULT
	}
	of, _, fi, e := p.statTarget(m, int32(a[0]), uint32(a[1]), uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	var buf [32]byte
	if fi != nil {
		le.PutUint32(buf[0:], LinuxMode(fi.Mode()))
		le.PutUint64(buf[16:], 1)
		if st, ok := fi.Sys().(*vfs.Stat); ok && st != nil {
			le.PutUint32(buf[4:], st.Uid)
			le.PutUint32(buf[8:], st.Gid)
			le.PutUint64(buf[16:], max(st.Nlink, 1))
			le.PutUint64(buf[24:], st.Rdev)
		}
	} else { // a stream: a pipe, or a tty
		mode := uint32(sIFIFO | 0o600)
		if of.tty {
			mode = sIFCHR | 0o620
		}
		le.PutUint32(buf[0:], mode)
		le.PutUint64(buf[16:], 1)
	}
	m.Write(out, buf[:])
	return 0
}

func xChmod(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	flags := uint32(a[1])
	mode := PermFromLinux(uint32(a[4]))
	of, abs, fi, e := p.statTarget(m, int32(a[0]), flags, uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	if fi == nil && of != nil && of.kind == kindFile {
		fi, _ = of.f.Stat()
	}
	if fi == nil {
		return 0 // pipes and ttys: nothing to keep the mode in
	}
	if st, ok := fi.Sys().(*vfs.Stat); ok && st != nil && p.Uid != 0 && st.Uid != p.Uid {
		return EPERM // only the owner may chmod
	}
	switch {
	case of != nil && of.kind == kindFile:
		return ToErrno(of.f.Chmod(mode))
	case of != nil:
		return 0 // pipes and ttys: nothing to keep the mode in
	case fi.Mode()&fs.ModeSymlink != 0:
		return ENOTSUP // lchmod, as on Linux
	}
	return ToErrno(p.FS.Chmod(abs, mode))
}

// xMknod makes a named pipe (mkfifo, mknod with S_IFIFO); the mode is
// Linux's st_mode, whose permissions the process's umask narrows. Other
// node types need privileges a guest does not have: EPERM, as Linux says.
func xMknod(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	mode := uint32(a[3])
	abs, _, e := p.resolve(m, int32(a[0]), uint32(a[1]), uint32(a[2]))
	if e != 0 {
		return e
	}
	if mode&0o170000 != 0o010000 { // S_IFIFO
		return EPERM
	}
	if e := p.checkCreate(abs); e != 0 {
		return e
	}
	return ToErrno(p.FS.Mkfifo(abs, PermFromLinux(mode&0o7777)&^p.umask()))
}

func xChown(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	flags := uint32(a[1])
	uid, gid := int32(a[4]), int32(a[5])
	of, abs, fi, e := p.statTarget(m, int32(a[0]), flags, uint32(a[2]), uint32(a[3]))
	if e != 0 {
		return e
	}
	if of != nil && of.kind != kindFile {
		return 0
	}
	// -1 keeps the current owner/group (POSIX); resolve it here so the vfs needs no rule.
	if fi == nil && of != nil {
		fi, _ = of.f.Stat()
	}
	if fi == nil {
		return EBADF
	}
	if st, ok := fi.Sys().(*vfs.Stat); ok && st != nil {
		if uid == -1 {
			uid = int32(st.Uid)
		}
		if gid == -1 {
			gid = int32(st.Gid)
		}
		// Without privileges, an owner may only change the group, to their own.
		if p.Uid != 0 && (st.Uid != p.Uid || uint32(uid) != st.Uid || (uint32(gid) != st.Gid && uint32(gid) != p.Gid)) {
			return EPERM
		}
	}
	switch {
	case of != nil:
		return ToErrno(of.f.Chown(int(uid), int(gid)))
	case flags&lookupSymlinkFollow != 0:
		return ToErrno(p.FS.Chown(abs, int(uid), int(gid)))
	}
	return ToErrno(p.FS.Lchown(abs, int(uid), int(gid)))
}
