//go:build !linux

package hostdir

import (
	"io/fs"

	"github.com/wasmsand/wasmsand/vfs"
)

func fillSys(st *vfs.Stat, fi fs.FileInfo) {}
