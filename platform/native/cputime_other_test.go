//go:build !unix

package native

import "time"

func cpuTime() time.Duration { return 0 }
