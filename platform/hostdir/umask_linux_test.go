package hostdir

import "syscall"

// fstest expects requested modes verbatim (like hackpadfs's own os tests).
func init() { syscall.Umask(0) }
