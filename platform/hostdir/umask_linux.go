package hostdir

import (
	"bytes"
	"io/fs"
	"os"
	"strconv"
	"sync"
)

// processUmask reads the process's umask from /proc/self/status (Linux
// 4.7+) without changing it, once: syscall.Umask can only read by setting,
// which races with files other goroutines create.
var processUmask = sync.OnceValue(func() fs.FileMode {
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, l := range bytes.Split(b, []byte("\n")) {
			if v, ok := bytes.CutPrefix(l, []byte("Umask:")); ok {
				if n, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 32); err == nil {
					return fs.FileMode(n) & fs.ModePerm
				}
			}
		}
	}
	return 0o022
})
