//go:build linux

package hostdir

import (
	"io/fs"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/vfs"
)

func fillSys(st *vfs.Stat, fi fs.FileInfo) {
	s, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	st.Ino = uint64(s.Ino)
	st.Nlink = uint64(s.Nlink)
	st.Atime = time.Unix(int64(s.Atim.Sec), int64(s.Atim.Nsec))
	st.Ctime = time.Unix(int64(s.Ctim.Sec), int64(s.Ctim.Nsec))
}
