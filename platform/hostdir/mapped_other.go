//go:build !linux && !js

package hostdir

import "github.com/wasmsand/wasmsand/vfs"

// LoadDirMapped is LoadDir (the mapped load is Linux's: mapped_linux.go).
func LoadDirMapped(dir string, opt vfs.Options) (*vfs.FS, error) { return LoadDir(dir, opt) }
