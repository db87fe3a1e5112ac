package wasi

import (
	"context"
	"io"
	"math"
	"path"
	"time"

	"github.com/wasmsand/wasmsand/vfs"
)

// Rights. WASI removed them, but wasi-libc still reads them: fcntl(F_GETFL) derives the
// access mode from FD_READ/FD_WRITE, isatty() wants a character device without SEEK/TELL,
// and path_open asks for base rights masked by the directory's inheriting rights.
const (
	rightFdDatasync uint64 = 1 << iota
	rightFdRead
	rightFdSeek
	rightFdstatSetFlags
	rightFdSync
	rightFdTell
	rightFdWrite
	rightFdAdvise
	rightFdAllocate
	rightPathCreateDirectory
	rightPathCreateFile
	rightPathLinkSource
	rightPathLinkTarget
	rightPathOpen
	rightFdReaddir
	rightPathReadlink
	rightPathRenameSource
	rightPathRenameTarget
	rightPathFilestatGet
	rightPathFilestatSetSize
	rightPathFilestatSetTimes
	rightFdFilestatGet
	rightFdFilestatSetSize
	rightFdFilestatSetTimes
	rightPathSymlink
	rightPathRemoveDirectory
	rightPathUnlinkFile
	rightPollFdReadwrite
	rightSockShutdown
)

// Same sets as wazero advertises.
const fileRights = rightFdDatasync | rightFdRead | rightFdSeek | rightFdstatSetFlags | rightFdSync |
	rightFdTell | rightFdWrite | rightFdAdvise | rightFdAllocate | rightFdFilestatGet |
	rightFdFilestatSetSize | rightFdFilestatSetTimes | rightPollFdReadwrite

const dirRights = rightFdDatasync | rightFdstatSetFlags | rightFdSync | rightPathCreateDirectory |
	rightPathCreateFile | rightPathLinkSource | rightPathLinkTarget | rightPathOpen | rightFdReaddir |
	rightPathReadlink | rightPathRenameSource | rightPathRenameTarget | rightPathFilestatGet |
	rightPathFilestatSetSize | rightPathFilestatSetTimes | rightFdFilestatGet |
	rightFdFilestatSetTimes | rightPathSymlink | rightPathRemoveDirectory | rightPathUnlinkFile

// fdflags
const (
	fdflagAppend   uint16 = 1
	fdflagDsync    uint16 = 2
	fdflagNonblock uint16 = 4
	fdflagRsync    uint16 = 8
	fdflagSync     uint16 = 16
)

// fstflags
const (
	fstAtim    uint16 = 1
	fstAtimNow uint16 = 2
	fstMtim    uint16 = 4
	fstMtimNow uint16 = 8
)

const direntSize = 24

func fdClose(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	return p.closeFD(int32(a[0]))
}

func fdFdstatGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	var buf [24]byte
	buf[0] = of.ftype
	var flags uint16
	if of.append || of.emuAppend {
		flags |= fdflagAppend
	}
	if of.nonblock {
		flags |= fdflagNonblock
	}
	le.PutUint16(buf[2:], flags)
	var base, inh uint64
	switch {
	case of.ftype == FiletypeDirectory:
		base, inh = dirRights, fileRights|dirRights
	default:
		base = fileRights
		if of.kind == kindStream && !of.null {
			base &^= rightFdSeek | rightFdTell | rightFdAllocate | rightFdFilestatSetSize
		}
		if !of.read {
			base &^= rightFdRead
		}
		if !of.write {
			base &^= rightFdWrite | rightFdAllocate | rightFdFilestatSetSize
		}
	}
	le.PutUint64(buf[8:], base)
	le.PutUint64(buf[16:], inh)
	if !m.Write(uint32(a[1]), buf[:]) {
		return EFAULT
	}
	return 0
}

func fdFdstatSetFlags(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	flags := uint16(a[1])
	if flags&(fdflagDsync|fdflagRsync|fdflagSync) != 0 {
		return EINVAL // like wazero: we cannot honour them
	}
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	if of.ftype == FiletypeDirectory {
		return EISDIR
	}
	of.nonblock = flags&fdflagNonblock != 0
	if of.kind == kindFile && of.ftype == FiletypeRegularFile && !of.append {
		of.emuAppend = flags&fdflagAppend != 0
	}
	return 0
}

func fdFdstatSetRights(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	if _, e := p.lookup(int32(a[0])); e != 0 {
		return e
	}
	return ENOSYS // rights were removed from WASI; wazero does the same
}

func fdAdvise(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	if uint32(a[3]) > 5 {
		return EINVAL
	}
	if of.kind == kindStream {
		return ESPIPE
	}
	return 0 // advisory only
}

func fdAllocate(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	off, n := a[1], a[2]
	if off > math.MaxInt64 || n > math.MaxInt64 || off+n > math.MaxInt64 {
		return EFBIG
	}
	switch {
	case of.kind == kindStream:
		return ESPIPE
	case of.ftype == FiletypeDirectory:
		return EISDIR
	case !of.write:
		return EBADF
	}
	fi, err := of.f.Stat()
	if err != nil {
		return ToErrno(err)
	}
	if tail := int64(off + n); fi.Size() < tail {
		return ToErrno(of.f.Truncate(tail))
	}
	return 0
}

func fdSync(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	if of.kind == kindStream {
		return 0
	}
	return ToErrno(of.f.Sync())
}

func fdFilestatGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	var buf [64]byte
	if of.kind == kindFile {
		fi, err := of.f.Stat()
		if err != nil {
			return ToErrno(err)
		}
		putFilestat(buf[:], fi)
	} else {
		if of.pipeID != 0 {
			le.PutUint64(buf[0:], pipeDev)
			le.PutUint64(buf[8:], of.pipeID) // two pipes are not the same file (diff <(a) <(b))
		}
		buf[16] = of.ftype
		le.PutUint64(buf[24:], 1) // nlink
	}
	if !m.Write(uint32(a[1]), buf[:]) {
		return EFAULT
	}
	return 0
}

// pipeDev is the device number of pipes' inodes, apart from the VFS's.
const pipeDev = 1 << 40

func putFilestat(buf []byte, fi *vfs.FileInfo) {
	buf[16] = filetypeOf(fi.Mode())
	le.PutUint64(buf[24:], 1)
	le.PutUint64(buf[32:], uint64(fi.Size()))
	le.PutUint64(buf[48:], timeNs(fi.ModTime()))
	if st, ok := fi.Sys().(*vfs.Stat); ok && st != nil {
		le.PutUint64(buf[0:], st.Dev)
		le.PutUint64(buf[8:], st.Ino)
		le.PutUint64(buf[24:], max(st.Nlink, 1))
		le.PutUint64(buf[40:], timeNs(st.Atime))
		le.PutUint64(buf[56:], timeNs(st.Ctime))
	}
}

func timeNs(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}

func fdFilestatSetSize(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	size := int64(a[1])
	switch {
	case size < 0:
		return EINVAL
	case of.kind == kindStream:
		return EINVAL
	case of.ftype == FiletypeDirectory:
		return EISDIR
	case !of.write:
		return EINVAL // like Linux ftruncate on an fd not open for writing
	}
	return ToErrno(of.f.Truncate(size))
}

// toTimes turns (atim, mtim, fst_flags) into times for vfs Chtimes (zero = leave as is).
func toTimes(p *Proc, atim, mtim uint64, flags uint16) (at, mt time.Time, e Errno) {
	if flags&fstAtim != 0 && flags&fstAtimNow != 0 || flags&fstMtim != 0 && flags&fstMtimNow != 0 {
		return at, mt, EINVAL
	}
	var now time.Time
	if flags&(fstAtimNow|fstMtimNow) != 0 {
		now = p.Clock.Now()
	}
	switch {
	case flags&fstAtim != 0:
		at = time.Unix(0, int64(atim))
	case flags&fstAtimNow != 0:
		at = now
	}
	switch {
	case flags&fstMtim != 0:
		mt = time.Unix(0, int64(mtim))
	case flags&fstMtimNow != 0:
		mt = now
	}
	return at, mt, 0
}

func fdFilestatSetTimes(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	at, mt, e := toTimes(p, a[1], a[2], uint16(a[3]))
	if e != 0 {
		return e
	}
	if of.kind == kindStream || at.IsZero() && mt.IsZero() {
		return 0
	}
	return ToErrno(of.f.Chtimes(at, mt))
}

func fdPrestatGet(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	fd := int32(a[0])
	if _, e := p.lookup(fd); e != 0 {
		return e
	}
	name := p.fds[fd].preopen
	if name == "" {
		return EBADF
	}
	// prestat: u8 tag (0 = dir), 3 bytes padding, u32 name length.
	if !m.WriteUint64Le(uint32(a[1]), uint64(len(name))<<32) {
		return EFAULT
	}
	return 0
}

func fdPrestatDirName(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	fd := int32(a[0])
	if _, e := p.lookup(fd); e != 0 {
		return e
	}
	name := p.fds[fd].preopen
	if name == "" {
		return EBADF
	}
	if uint32(a[2]) < uint32(len(name)) {
		return ENAMETOOLONG
	}
	if !m.Write(uint32(a[1]), []byte(name)) {
		return EFAULT
	}
	return 0
}

// iovecs reads an iovec array (n entries of {u32 buf, u32 len}).
func iovecs(m Memory, iovs, n uint32) ([]byte, Errno) {
	size, ok := mulSize(n, 8)
	if !ok {
		return nil, EFAULT
	}
	b, ok := readBytes(m, iovs, size)
	if !ok {
		return nil, EFAULT
	}
	return b, 0
}

func fdRead(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	if !of.read {
		return EBADF
	}
	if len(p.pending) > 0 && of.pollable() && !of.readReady() {
		p.startPending() // what would write to it may be a child not run yet
	}
	return readv(p, m, of, uint32(a[1]), uint32(a[2]), uint32(a[3]), -1)
}

func fdPread(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	switch {
	case of.kind == kindStream:
		return ESPIPE
	case of.ftype == FiletypeDirectory:
		return EISDIR
	case !of.read:
		return EBADF
	case int64(a[3]) < 0:
		return EINVAL
	}
	return readv(p, m, of, uint32(a[1]), uint32(a[2]), uint32(a[4]), int64(a[3]))
}

// readv fills the iovecs from of (at offset off, or from the current position if off < 0).
// Like read(2), it stops at the first short read so a pipe never blocks for more.
func readv(p *Proc, m Memory, of *ofile, iovs, n, resultPtr uint32, off int64) Errno {
	iov, e := iovecs(m, iovs, n)
	if e != 0 {
		return e
	}
	if !m.WriteUint32Le(resultPtr, 0) {
		return EFAULT
	}
	var total uint32
	for i := uint32(0); i < n; i++ {
		bufOff, l := le.Uint32(iov[i*8:]), le.Uint32(iov[i*8+4:])
		if l == 0 {
			continue
		}
		buf, ok := outBuffer(p, m, bufOff, l)
		if !ok {
			return EFAULT
		}
		var k int
		var err error
		if off >= 0 {
			k, err = of.f.ReadAt(buf, off)
			off += int64(k)
		} else {
			k, err = of.Read(buf)
		}
		if k > 0 {
			m.Write(bufOff, buf[:k])
			total += uint32(k)
		}
		if err != nil {
			if err == io.EOF || total > 0 {
				break
			}
			return ToErrno(err)
		}
		if uint32(k) < l {
			break
		}
	}
	m.WriteUint32Le(resultPtr, total)
	return 0
}

func fdWrite(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	if !of.write {
		return EBADF
	}
	return writev(m, of, uint32(a[1]), uint32(a[2]), uint32(a[3]), -1)
}

func fdPwrite(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	switch {
	case of.kind == kindStream:
		return ESPIPE
	case of.ftype == FiletypeDirectory:
		return EISDIR
	case !of.write:
		return EBADF
	case int64(a[3]) < 0:
		return EINVAL
	}
	return writev(m, of, uint32(a[1]), uint32(a[2]), uint32(a[4]), int64(a[3]))
}

func writev(m Memory, of *ofile, iovs, n, resultPtr uint32, off int64) Errno {
	iov, e := iovecs(m, iovs, n)
	if e != 0 {
		return e
	}
	if !inRange(m, resultPtr, 4) {
		return EFAULT
	}
	var total uint32
	for i := uint32(0); i < n; i++ {
		bufOff, l := le.Uint32(iov[i*8:]), le.Uint32(iov[i*8+4:])
		if l == 0 {
			continue
		}
		buf, ok := readBytes(m, bufOff, l)
		if !ok {
			return EFAULT
		}
		var k int
		var err error
		if off >= 0 {
			k, err = of.f.WriteAt(buf, off)
			off += int64(k)
		} else {
			k, err = of.Write(buf)
		}
		total += uint32(k)
		if err != nil {
			if total > 0 {
				break // report the partial write; the next call gets the error
			}
			return ToErrno(err)
		}
		if uint32(k) < l {
			break
		}
	}
	m.WriteUint32Le(resultPtr, total)
	return 0
}

func fdSeek(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return seek(p, m, int32(a[0]), int64(a[1]), uint32(a[2]), uint32(a[3]))
}

func fdTell(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	return seek(p, m, int32(a[0]), 0, io.SeekCurrent, uint32(a[1]))
}

func seek(p *Proc, m Memory, fd int32, off int64, whence, resultPtr uint32) Errno {
	of, e := p.lookup(fd)
	if e != 0 {
		return e
	}
	if whence > io.SeekEnd {
		return EINVAL
	}
	if !inRange(m, resultPtr, 8) {
		return EFAULT
	}
	switch {
	case of.null: // lseek on /dev/null succeeds, at 0
		m.WriteUint64Le(resultPtr, 0)
		return 0
	case of.kind == kindStream:
		return ESPIPE
	case of.ftype == FiletypeDirectory:
		return EISDIR // POSIX allows it, wasi-testsuite (and wazero) do not
	}
	n, err := of.f.Seek(off, int(whence))
	if err != nil {
		return ToErrno(err)
	}
	m.WriteUint64Le(resultPtr, uint64(n))
	return 0
}

func fdRenumber(_ context.Context, p *Proc, _ Memory, a []uint64) Errno {
	from, to := int32(a[0]), int32(a[1])
	of, e := p.lookup(from)
	if e != 0 {
		return e
	}
	if to < 0 || int(to) >= p.maxFDs {
		return EBADF
	}
	if p.fds[from].preopen != "" || int(to) < len(p.fds) && p.fds[to].preopen != "" {
		return ENOTSUP // like wazero: preopens stay put
	}
	if from == to {
		return 0
	}
	p.fds[from] = fdSlot{}
	return p.setFD(to, of)
}

func fdReaddir(_ context.Context, p *Proc, m Memory, a []uint64) Errno {
	of, e := p.lookup(int32(a[0]))
	if e != 0 {
		return e
	}
	buf, bufLen, cookie, usedPtr := uint32(a[1]), uint32(a[2]), a[3], uint32(a[4])
	if of.ftype != FiletypeDirectory || of.kind != kindFile {
		return EBADF // wazero maps ENOTDIR to EBADF here
	}
	if bufLen < direntSize {
		return EINVAL
	}
	if !inRange(m, buf, bufLen) {
		return EFAULT
	}
	if !inRange(m, usedPtr, 4) {
		return EFAULT
	}
	of.dirMu.Lock()
	defer of.dirMu.Unlock()
	if cookie == 0 || of.dirents == nil {
		ents, e := p.snapshotDir(of)
		if e != 0 {
			return e
		}
		of.dirents = ents
	}
	if cookie > uint64(len(of.dirents)) {
		return ENOENT // like wazero: a cookie we never handed out
	}
	// Serialize entries from cookie on; the last one may be cut at bufLen, which tells
	// wasi-libc to come back (with a bigger buffer if a single entry did not fit).
	out := make([]byte, 0, min(bufLen, 4096))
	for i := cookie; i < uint64(len(of.dirents)) && uint32(len(out)) < bufLen; i++ {
		d := of.dirents[i]
		var h [direntSize]byte
		le.PutUint64(h[0:], i+1)
		le.PutUint64(h[8:], d.ino)
		le.PutUint32(h[16:], uint32(len(d.name)))
		h[20] = d.typ
		out = append(out, h[:]...)
		out = append(out, d.name...)
	}
	if uint32(len(out)) > bufLen {
		out = out[:bufLen]
	}
	m.Write(buf, out)
	m.WriteUint32Le(usedPtr, uint32(len(out)))
	return 0
}

// snapshotDir lists a directory with "." and ".." first, like wazero (and Linux).
func (p *Proc) snapshotDir(of *ofile) ([]dirent, Errno) {
	ents, err := p.FS.ReadDir(of.path)
	if err != nil {
		// The directory was renamed or removed since it was opened: list through the fd.
		ents, err = of.f.ReadDir(-1)
		if err != nil {
			return nil, ToErrno(err)
		}
	}
	out := make([]dirent, 0, len(ents)+2)
	var dot, dotdot uint64
	if fi, err := of.f.Stat(); err == nil {
		dot = inoOf(fi)
	}
	if fi, err := p.FS.Stat(path.Dir(of.path)); err == nil {
		dotdot = inoOf(fi)
	}
	out = append(out, dirent{".", dot, FiletypeDirectory}, dirent{"..", dotdot, FiletypeDirectory})
	for _, e := range ents {
		d := dirent{name: e.Name(), typ: filetypeOf(e.Type())}
		if fi, err := e.Info(); err == nil {
			if st, ok := fi.Sys().(*vfs.Stat); ok && st != nil {
				d.ino = st.Ino
			}
		}
		out = append(out, d)
	}
	return out, 0
}

func inoOf(fi *vfs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*vfs.Stat); ok && st != nil {
		return st.Ino
	}
	return 0
}
