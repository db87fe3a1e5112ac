package native

import (
	"sync"
	"syscall"
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
