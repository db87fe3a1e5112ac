package native

import (
	"bytes"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Big linear memories (1 MiB and up: CPython starts with 20 MiB) are mmapped, and zeroed
// for reuse with madvise(MADV_DONTNEED), which drops the pages the guest touched instead
// of writing zeros over all of them: clearing a 32 MiB buffer took ~3 ms of each python3
// run, dropping its few touched MiB takes tens of µs (the next run faults in fresh zero
// pages as it touches them).

const bigClass = 20 // 1 MiB

// bigKeep is how many free mappings a size class keeps; more are unmapped.
const bigKeep = 4

var big struct {
	mu     sync.Mutex
	free   [maxPoolClass + 1][][]byte
	mapped map[*byte]bool // every live mapping, by its first byte
	warm   [maxPoolClass + 1][]warmBuf
}

// bigBuf returns a zeroed mapping of 1<<c bytes, or nil for small classes (or when
// mmap fails: the Go heap then serves).
func bigBuf(c int) []byte {
	if c < bigClass {
		return nil
	}
	big.mu.Lock()
	if n := len(big.free[c]); n > 0 {
		b := big.free[c][n-1]
		big.free[c] = big.free[c][:n-1]
		big.mu.Unlock()
		return b
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

// putBigBuf takes back a buffer of class c if it is a mapping (reported true).
func putBigBuf(c int, b []byte) bool {
	if c < bigClass {
		return false
	}
	b = b[:cap(b)]
	big.mu.Lock()
	defer big.mu.Unlock()
	if !big.mapped[&b[0]] {
		return false // a Go heap buffer (mmap had failed)
	}
	if len(big.free[c]) < bigKeep && syscall.Madvise(b, syscall.MADV_DONTNEED) == nil {
		big.free[c] = append(big.free[c], b)
		return true
	}
	delete(big.mapped, &b[0])
	_ = syscall.Munmap(b)
	return true
}

// Warm buffers. A run from a start image (python3's) writes most of its ~20 MiB memory;
// faulting those pages in again on every run cost ~10 ms here, where a page fault takes
// ~10 µs (a paravirtualised MMU). Such a run's buffer goes back with its pages kept; the
// next one takes it, and clears what the last one left before writing its image
// (linearMemory.clearDirty), ~2 ms of plain memory writes.
const warmKeep = 2

type warmBuf struct {
	b     []byte
	dirty int // how much of b may hold a previous run's data
}

// getWarm returns a mapping of class c with its pages in, and how much of it is dirty;
// nil if there is none.
func getWarm(c int) ([]byte, int) {
	if c < bigClass || c > maxPoolClass {
		return nil, 0
	}
	big.mu.Lock()
	defer big.mu.Unlock()
	n := len(big.warm[c])
	if n == 0 {
		return nil, 0
	}
	w := big.warm[c][n-1]
	big.warm[c] = big.warm[c][:n-1]
	return w.b, w.dirty
}

// putWarm keeps a mapping of class c as it is; false if it is not one or enough are kept.
func putWarm(c int, b []byte, dirty int) bool {
	if c < bigClass || c > maxPoolClass || cap(b) != 1<<c {
		return false
	}
	b = b[:cap(b)]
	big.mu.Lock()
	defer big.mu.Unlock()
	if !big.mapped[&b[0]] || len(big.warm[c]) >= warmKeep {
		return false
	}
	big.warm[c] = append(big.warm[c], warmBuf{b, dirty})
	return true
}

// clearResident zeroes b, a page-aligned part of a mapping, writing only the pages that
// are in memory and not zero: the others read as zeros already, and writing them would
// fault them in (here each fresh page also costs the hypervisor a fault).
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
// fresh buffer writes its start image over them, and one fault per page costs more.
func prefault(b []byte) {
	_ = unix.Madvise(b, unix.MADV_POPULATE_WRITE)
}
