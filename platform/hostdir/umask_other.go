//go:build !linux

package hostdir

import "io/fs"

// processUmask is the usual 022 where the process's own cannot be read
// without changing it (under GOOS=js, Node applies its own umask when it
// creates a file).
func processUmask() fs.FileMode { return 0o022 }
