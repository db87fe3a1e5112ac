package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// softMemoryLimit gives Go's collector the memory limit of the cgroup the
// server runs in (90% of it), unless GOMEMLIMIT says otherwise: with many
// sessions making garbage at once, the default (a heap twice what is live)
// would pass the cgroup's limit and the kernel would kill the process with
// every session in it, long before what they keep does.
func softMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if n := cgroupMemoryLimit(); n > 0 {
		debug.SetMemoryLimit(n / 10 * 9)
	}
}

// cgroupMemoryLimit reads this process's cgroup memory limit (v2's
// memory.max, v1's memory.limit_in_bytes); 0 when there is none.
func cgroupMemoryLimit() int64 {
	for _, c := range memoryCgroups() {
		if v, err := os.ReadFile(filepath.Join(c.dir, c.limitFile)); err == nil {
			if n, err := strconv.ParseInt(strings.TrimSpace(string(v)), 10, 64); err == nil && n > 0 && n < 1<<50 {
				return n
			}
		}
	}
	return 0
}

// memoryCgroup is a cgroup directory that has a memory limit, and the
// file that holds it.
type memoryCgroup struct{ dir, limitFile string }

// memoryCgroups are this process's memory cgroups, as /proc/self/cgroup
// names them: v1's memory controller, and v2's unified hierarchy.
func memoryCgroups() []memoryCgroup {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	var out []memoryCgroup
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.SplitN(l, ":", 3)
		switch {
		case len(f) != 3:
		case f[1] == "memory":
			out = append(out, memoryCgroup{filepath.Join("/sys/fs/cgroup/memory", f[2]), "memory.limit_in_bytes"})
		case f[0] == "0" && f[1] == "":
			out = append(out, memoryCgroup{filepath.Join("/sys/fs/cgroup", f[2]), "memory.max"})
		}
	}
	return out
}
