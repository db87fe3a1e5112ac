// Package procfs shows a sandbox's own processes the way Linux does: the
// process table (Table) and a synthesised /proc over it (FS, mounted by the
// sandbox at /proc); procps's commands read the same Table
// (commands/procps). Nothing of the host appears: every figure comes from
// the sandbox's process table and its limits.
package procfs

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is one live process of a sandbox.
type Process struct {
	Pid, PPid int
	Argv      []string
	Env       []string
	Cwd       string
	Dir       func() string // the current directory, where it changes while the process runs (a shell)
	Exe       string        // the program's path in the sandbox, when known
	Uid, Gid  int
	Start     time.Time
	// Kill delivers a signal (Linux numbering); nil when the process
	// cannot be signalled from outside (the session shell).
	Kill func(sig int)
	// FDs lists the open files (fd → what /proc/PID/fd/N points at), when
	// the process can tell.
	FDs func() map[int]string
}

// Comm is the process name Linux keeps: argv[0]'s base name, 15 bytes at most.
func (p *Process) Comm() string {
	if len(p.Argv) == 0 {
		return ""
	}
	c := path.Base(p.Argv[0])
	if len(c) > 15 {
		c = c[:15]
	}
	return c
}

func (p *Process) cwd() string {
	if p.Dir != nil {
		return p.Dir()
	}
	return p.Cwd
}

// System is what the sandbox reports of itself: the figures /proc's
// machine-wide files show.
type System struct {
	Boot        time.Time // when the sandbox was made (/proc/uptime)
	MemoryLimit uint64    // bytes a process may use (/proc/meminfo's MemTotal)
	CPUs        int
	Hostname    string
	Users       map[int]string // uid → name, from the sandbox's /etc/passwd
	Mounts      []string       // /proc/mounts lines
}

// Table is a sandbox's process table. It is safe for concurrent use.
type Table struct {
	mu    sync.Mutex
	procs map[int]*Process
	now   func() time.Time
	sys   func() System
}

// NewTable makes an empty table; now is the sandbox's clock and sys its
// current figures (called on each read of a machine-wide file).
func NewTable(now func() time.Time, sys func() System) *Table {
	if now == nil {
		now = time.Now
	}
	return &Table{procs: map[int]*Process{}, now: now, sys: sys}
}

// Set records (or replaces) a live process. A zero Start is now.
func (t *Table) Set(p Process) {
	if p.Start.IsZero() {
		p.Start = t.now()
	}
	t.mu.Lock()
	t.procs[p.Pid] = &p
	t.mu.Unlock()
}

// Update changes a recorded process in place (no-op for an unknown pid).
func (t *Table) Update(pid int, f func(*Process)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := t.procs[pid]; p != nil {
		f(p)
	}
}

// Remove forgets an ended process.
func (t *Table) Remove(pid int) {
	t.mu.Lock()
	delete(t.procs, pid)
	t.mu.Unlock()
}

// Get is a copy of one process.
func (t *Table) Get(pid int) (Process, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.procs[pid]
	if p == nil {
		return Process{}, false
	}
	return *p, true
}

// List is a copy of every process, by pid.
func (t *Table) List() []Process {
	t.mu.Lock()
	out := make([]Process, 0, len(t.procs))
	for _, p := range t.procs {
		out = append(out, *p)
	}
	t.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Pid < out[j].Pid })
	return out
}

// Signal delivers sig to pid: ESRCH when there is no such process, EPERM
// when it cannot be signalled. Signal 0 only checks.
func (t *Table) Signal(pid, sig int) error {
	p, ok := t.Get(pid)
	if !ok {
		return syscall.ESRCH
	}
	if sig == 0 {
		return nil
	}
	if p.Kill != nil {
		p.Kill(sig)
		return nil
	}
	// A child shell (a subshell, a job) ends with what it runs: the signal
	// goes to its descendants. The session shell (pid 1) is not signalled.
	if pid != 1 && t.signalDescendants(pid, sig) {
		return nil
	}
	return syscall.EPERM
}

func (t *Table) signalDescendants(pid, sig int) bool {
	done := false
	for _, c := range t.List() {
		if c.PPid != pid {
			continue
		}
		if c.Kill != nil {
			c.Kill(sig)
			done = true
		} else if t.signalDescendants(c.Pid, sig) {
			done = true
		}
	}
	return done
}

// Now is the sandbox's clock.
func (t *Table) Now() time.Time { return t.now() }

// System is the sandbox's current figures.
func (t *Table) System() System {
	var s System
	if t.sys != nil {
		s = t.sys()
	}
	if s.CPUs <= 0 {
		s.CPUs = 1
	}
	if s.Boot.IsZero() {
		s.Boot = t.now()
	}
	if s.Hostname == "" {
		s.Hostname = "wasmsand"
	}
	return s
}

// User names a uid as ps does: the name, else the number.
func (s System) User(uid int) string {
	if n, ok := s.Users[uid]; ok {
		return n
	}
	return strconv.Itoa(uid)
}

// ParsePasswd reads uid → name from an /etc/passwd text.
func ParsePasswd(data string) map[int]string {
	users := map[int]string{}
	for _, line := range strings.Split(data, "\n") {
		f := strings.Split(line, ":")
		if len(f) < 3 {
			continue
		}
		if uid, ok := atoi(f[2]); ok {
			if _, dup := users[uid]; !dup {
				users[uid] = f[0]
			}
		}
	}
	return users
}
