package native

import (
	"bytes"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Big linear memories (1 MiB and up: CPython starts with 20 MiB, coreutils grows past
// 1 MiB) are mmapped and reused. Page faults are what they cost: ~10 µs each on this VM
// (a paravirtualised MMU), so a run that faulted in its pages afresh spent more on that
// than on its work (python3 -c pass: ~15 ms of faults). A freed mapping is kept warm,
// its pages in, while the warm ones total at most warmMax; the next run clears only the
// resident pages that are not zero (clearResident), a plain memory write. Beyond warmMax
// a mapping drops its pages (madvise(MADV_DONTNEED)), which also zeroes it.

const bigClass = 20 // 1 MiB

// bigKeep is how many free mappings a size class keeps; more are unmapped.
const bigKeep = 4

// warmMax bounds the memory that free mappings keep in.
const warmMax = 96 << 20

type freeBuf struct {
	b     []byte
	dirty int // how much of b may hold a previous run's data (0: zero)
}

var big struct {
	mu     sync.Mutex
	free   [maxPoolClass + 1][]freeBuf
	warm   int            // bytes of the free mappings with dirty > 0
	mapped map[*byte]bool // every live mapping, by its first byte
}

// bigBuf returns a zeroed mapping of 1<<c bytes, or nil for small classes (or when
// mmap fails: the Go heap then serves).
func bigBuf(c int) []byte {
	if c < bigClass || c > maxPoolClass {
		return nil
	}
	big.mu.Lock()
	if n := len(big.free[c]); n > 0 {
		f := big.free[c][n-1]
		big.free[c] = big.free[c][:n-1]
		if f.dirty > 0 {
			big.warm -= len(f.b)
		}
		big.mu.Unlock()
		clearResident(f.b[:f.dirty])
		return f.b
	}
	big.mu.Unlock()
	b, err := syscall.Mmap(-1, 0, 1<<c, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	big.mu.Lock()
	if big.mapped == nil {
		big.mapped = map[*byte]bool{}
	}
	big.mapped[&b[0]] = true
	big.mu.Unlock()
	return b
}

// putBigBuf takes back a buffer of class c if it is a mapping (reported true); len(b) is
// how much of it the run could write.
func putBigBuf(c int, b []byte) bool {
	if c < bigClass || c > maxPoolClass {
		return false
	}
	dirty := len(b)
	b = b[:cap(b)]
	big.mu.Lock()
	defer big.mu.Unlock()
	if !big.mapped[&b[0]] {
		return false // a Go heap buffer (mmap had failed)
	}
	if len(big.free[c]) < bigKeep {
		if big.warm+len(b) <= warmMax {
			big.warm += len(b)
			big.free[c] = append(big.free[c], freeBuf{b, dirty})
			return true
		}
		if syscall.Madvise(b, syscall.MADV_DONTNEED) == nil {
			big.free[c] = append(big.free[c], freeBuf{b, 0})
			return true
		}
	}
	delete(big.mapped, &b[0])
	_ = syscall.Munmap(b)
	return true
}

// clearResident zeroes b, the start of a mapping, writing only the pages that are in
// memory and not zero: the others read as zeros already, and writing them would fault
// them in.
func clearResident(b []byte) {
	ps := syscall.Getpagesize()
	n := (len(b) + ps - 1) / ps
	if n == 0 {
		return
	}
	vec := make([]byte, n)
	if cap(b) < n*ps || uintptr(unsafe.Pointer(&b[0]))%uintptr(ps) != 0 {
		clear(b)
		return
	}
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, uintptr(unsafe.Pointer(&b[0])), uintptr(n*ps),
		uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		clear(b)
		return
	}
	zero := make([]byte, ps)
	for i := 0; i < n; i++ {
		// a page only read is the shared zero page: writing it would fault too
		if p := b[i*ps : min((i+1)*ps, len(b))]; vec[i]&1 != 0 && !bytes.Equal(p, zero[:len(p)]) {
			clear(p)
		}
	}
}

// prefault brings the pages of b, a part of a mapping, in with one call: a run from a
// start image writes it over them, and one fault per page costs more.
func prefault(b []byte) {
	_ = unix.Madvise(b, unix.MADV_POPULATE_WRITE)
}
