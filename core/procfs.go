package core

import (
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
)

// procSystem is what the sandbox's /proc reports of the machine: its own
// limits, never the host's.
func (sb *Sandbox) procSystem(boot time.Time) procfs.System {
	s := procfs.System{
		Boot:        boot,
		MemoryLimit: uint64(sb.opt.MemoryLimitMB) << 20,
		CPUs:        1, // what nproc and sysconf say inside
		Mounts: []string{
			"wasmsand / wasmsand rw,relatime 0 0",
			"proc /proc proc ro,nosuid,nodev,noexec,relatime 0 0",
		},
	}
	if b, err := sb.fs.ReadFile("/etc/passwd"); err == nil {
		s.Users = procfs.ParsePasswd(string(b))
	}
	if b, err := sb.fs.ReadFile("/etc/hostname"); err == nil {
		s.Hostname = strings.TrimSpace(string(b))
	}
	if t, ok := sb.opt.Programs.(*AssetPrograms); ok {
		for dir := range t.dataMounts() {
			s.Mounts = append(s.Mounts, "wasmsand "+dir+" wasmsand ro,relatime 0 0")
		}
	}
	return s
}

// mountProc attaches this sandbox's /proc (a fork's FS comes with its
// parent's mount, which shows the parent's processes). A tree where /proc
// cannot be made (a file there, in a loaded state) goes without.
func (sb *Sandbox) mountProc() {
	_ = sb.fs.Unmount("/proc")
	if sb.fs.MkdirAll("/proc", 0o555) != nil {
		return
	}
	_ = sb.fs.Mount("/proc", procfs.NewFS(sb.procs.table), true)
}

// ppid is the parent a process's table entry names (1 when it has none).
func (sb *Sandbox) ppid(pid int) int {
	if p, ok := sb.procs.table.Get(pid); ok && p.PPid > 0 {
		return p.PPid
	}
	return 1
}

// enterCommand makes a command the shell runs itself (ps, pgrep...) a
// process while it runs, so that it sees itself as on Linux.
func (sb *Sandbox) enterCommand(req *shell.ExecRequest) (int, func()) {
	pid, release, err := sb.procs.alloc(req.PPid, req.Argv)
	if err != nil {
		return 0, func() {}
	}
	sb.procs.table.Update(pid, func(p *procfs.Process) { p.Env, p.Cwd = req.Env, req.Dir })
	return pid, release
}
