package procfs

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Release is the kernel release the sandbox reports (uname -r, /proc/version).
const Release = "6.1.0-wasmsand"

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times.
const clockTicks = 100

// FS is /proc for a Table: a read-only hackpadfs.FS (Open, Stat, Lstat,
// Readlink) whose files are written from the table when opened. "self" is
// the session shell here: a guest's /proc/self is rewritten to /proc/PID
// before it reaches the mount (wasi.Proc resolves paths per process).
type FS struct{ t *Table }

// NewFS is /proc over t.
func NewFS(t *Table) *FS { return &FS{t: t} }

// node is one entry of /proc: a directory (names), a file (data) or a
// symlink (target).
type node struct {
	name   string
	mode   fs.FileMode
	data   []byte
	names  []string
	target string
	mtime  time.Time
}

func (n *node) Name() string       { return n.name }
func (n *node) Size() int64        { return int64(len(n.data)) }
func (n *node) Mode() fs.FileMode  { return n.mode }
func (n *node) ModTime() time.Time { return n.mtime }
func (n *node) IsDir() bool        { return n.mode.IsDir() }
func (n *node) Sys() any           { return nil }

func (f *FS) dir(name string, names ...string) *node {
	return &node{name: name, mode: fs.ModeDir | 0o555, names: names}
}

func (f *FS) file(name string, data string) *node {
	return &node{name: name, mode: 0o444, data: []byte(data)}
}

func (f *FS) link(name, target string) *node {
	return &node{name: name, mode: fs.ModeSymlink | 0o777, target: target}
}

var pidFiles = []string{"cmdline", "comm", "cwd", "environ", "exe", "fd", "mounts", "stat", "statm", "status"}

// lookup finds name (hackpadfs form: relative, "." for the root) without
// following a final symlink.
func (f *FS) lookup(name string) (*node, error) {
	if !fs.ValidPath(name) {
		return nil, syscall.EINVAL
	}
	parts := strings.Split(name, "/")
	if name == "." {
		parts = nil
	}
	if len(parts) > 0 && (parts[0] == "self" || parts[0] == "thread-self") && len(parts) > 1 {
		parts[0] = strconv.Itoa(f.selfPid())
	}
	sys := f.t.System()
	switch {
	case len(parts) == 0:
		names := []string{"cpuinfo", "loadavg", "meminfo", "mounts", "self", "stat", "sys", "thread-self", "uptime", "version"}
		for _, p := range f.t.List() {
			names = append(names, strconv.Itoa(p.Pid))
		}
		n := f.dir(".", names...)
		n.mtime = sys.Boot
		return n, nil
	case parts[0] == "self" || parts[0] == "thread-self":
		return f.link(parts[0], strconv.Itoa(f.selfPid())), nil
	case parts[0] == "sys":
		return f.sysNode(parts[1:], sys)
	}
	if pid, ok := atoi(parts[0]); ok {
		p, found := f.t.Get(pid)
		if !found {
			return nil, syscall.ENOENT
		}
		return f.pidNode(&p, parts[1:], sys)
	}
	if len(parts) != 1 {
		return nil, syscall.ENOENT
	}
	var data string
	switch parts[0] {
	case "cpuinfo":
		data = cpuinfo(sys)
	case "meminfo":
		data = meminfo(sys)
	case "uptime":
		up := f.t.Now().Sub(sys.Boot).Seconds()
		data = fmt.Sprintf("%.2f %.2f\n", up, up*float64(sys.CPUs))
	case "loadavg":
		procs := f.t.List()
		last := 0
		if len(procs) > 0 {
			last = procs[len(procs)-1].Pid
		}
		data = fmt.Sprintf("0.00 0.00 0.00 1/%d %d\n", len(procs), last)
	case "mounts":
		data = strings.Join(sys.Mounts, "\n") + "\n"
	case "version":
		data = "Linux version " + Release + " (wasmsand) #1 wasmsand WebAssembly sandbox\n"
	case "stat":
		data = f.stat(sys)
	default:
		return nil, syscall.ENOENT
	}
	return f.file(parts[0], data), nil
}

// selfPid is the pid "self" names where the caller is not known: the
// session shell, else the lowest pid.
func (f *FS) selfPid() int {
	if _, ok := f.t.Get(1); ok {
		return 1
	}
	if l := f.t.List(); len(l) > 0 {
		return l[0].Pid
	}
	return 1
}

func (f *FS) sysNode(parts []string, sys System) (*node, error) {
	switch strings.Join(parts, "/") {
	case "":
		return f.dir("sys", "kernel"), nil
	case "kernel":
		return f.dir("kernel", "hostname", "osrelease", "ostype", "pid_max"), nil
	case "kernel/hostname":
		return f.file("hostname", sys.Hostname+"\n"), nil
	case "kernel/osrelease":
		return f.file("osrelease", Release+"\n"), nil
	case "kernel/ostype":
		return f.file("ostype", "Linux\n"), nil
	case "kernel/pid_max":
		return f.file("pid_max", "4194304\n"), nil
	}
	return nil, syscall.ENOENT
}

func (f *FS) pidNode(p *Process, parts []string, sys System) (*node, error) {
	mtime := p.Start
	var n *node
	switch {
	case len(parts) == 0:
		n = f.dir(strconv.Itoa(p.Pid), pidFiles...)
	case parts[0] == "fd":
		fds := fdTargets(p)
		if len(parts) == 1 {
			names := make([]string, 0, len(fds))
			for _, fd := range sortedFDs(fds) {
				names = append(names, strconv.Itoa(fd))
			}
			n = f.dir("fd", names...)
			n.mode = fs.ModeDir | 0o500
			break
		}
		fd, ok := atoi(parts[1])
		if !ok || len(parts) > 2 {
			return nil, syscall.ENOENT
		}
		t, ok := fds[fd]
		if !ok {
			return nil, syscall.ENOENT
		}
		n = f.link(parts[1], t)
		n.mode = fs.ModeSymlink | 0o700
	case len(parts) > 1:
		return nil, syscall.ENOTDIR
	default:
		switch parts[0] {
		case "cmdline":
			n = f.file("cmdline", nulJoin(p.Argv))
		case "environ":
			n = f.file("environ", nulJoin(p.Env))
			n.mode = 0o400
		case "comm":
			n = f.file("comm", p.Comm()+"\n")
			n.mode = 0o644
		case "cwd":
			n = f.link("cwd", p.cwd())
		case "exe":
			if p.Exe == "" {
				return nil, syscall.ENOENT
			}
			n = f.link("exe", p.Exe)
		case "mounts":
			n = f.file("mounts", strings.Join(sys.Mounts, "\n")+"\n")
		case "status":
			n = f.file("status", status(p))
		case "stat":
			n = f.file("stat", pidStat(p, sys))
		case "statm":
			n = f.file("statm", "0 0 0 0 0 0 0\n")
		default:
			return nil, syscall.ENOENT
		}
	}
	n.mtime = mtime
	return n, nil
}

// fdTargets is what /proc/PID/fd shows: the process's own list, else its
// three standard streams as pipes.
func fdTargets(p *Process) map[int]string {
	if p.FDs != nil {
		if m := p.FDs(); m != nil {
			return m
		}
	}
	return map[int]string{0: "pipe:[0]", 1: "pipe:[1]", 2: "pipe:[2]"}
}

func sortedFDs(m map[int]string) []int {
	out := make([]int, 0, len(m))
	for fd := range m {
		out = append(out, fd)
	}
	sort.Ints(out)
	return out
}

func nulJoin(v []string) string {
	var b strings.Builder
	for _, s := range v {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.String()
}

func status(p *Process) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Name:\t%s\n", p.Comm())
	fmt.Fprintf(&b, "Umask:\t0022\n")
	fmt.Fprintf(&b, "State:\tS (sleeping)\n")
	fmt.Fprintf(&b, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", p.Pid, p.Pid, p.PPid)
	fmt.Fprintf(&b, "Uid:\t%d\t%d\t%d\t%d\n", p.Uid, p.Uid, p.Uid, p.Uid)
	fmt.Fprintf(&b, "Gid:\t%d\t%d\t%d\t%d\n", p.Gid, p.Gid, p.Gid, p.Gid)
	fmt.Fprintf(&b, "FDSize:\t64\nGroups:\t%d\n", p.Gid)
	fmt.Fprintf(&b, "Threads:\t1\n")
	fmt.Fprintf(&b, "SigQ:\t0/0\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000000\n")
	fmt.Fprintf(&b, "Cpus_allowed_list:\t0\n")
	fmt.Fprintf(&b, "voluntary_ctxt_switches:\t0\nnonvoluntary_ctxt_switches:\t0\n")
	return b.String()
}

// pidStat is /proc/PID/stat: 52 fields, times in clock ticks since boot.
func pidStat(p *Process, sys System) string {
	start := p.Start.Sub(sys.Boot) / (time.Second / clockTicks)
	if start < 0 {
		start = 0
	}
	f := []string{strconv.Itoa(p.Pid), "(" + p.Comm() + ")", "S", strconv.Itoa(p.PPid),
		strconv.Itoa(p.Pid), "1", "0", "-1", "4194560", "0", "0", "0", "0", "0", "0", "0", "0",
		"20", "0", "1", "0", strconv.FormatInt(int64(start), 10), "0", "0", "18446744073709551615"}
	for len(f) < 52 {
		f = append(f, "0")
	}
	return strings.Join(f, " ") + "\n"
}

func (f *FS) stat(sys System) string {
	var b strings.Builder
	b.WriteString("cpu  0 0 0 0 0 0 0 0 0 0\n")
	for i := 0; i < sys.CPUs; i++ {
		fmt.Fprintf(&b, "cpu%d 0 0 0 0 0 0 0 0 0 0\n", i)
	}
	procs := f.t.List()
	last := 0
	if len(procs) > 0 {
		last = procs[len(procs)-1].Pid
	}
	fmt.Fprintf(&b, "intr 0\nctxt 0\nbtime %d\nprocesses %d\nprocs_running 1\nprocs_blocked 0\n", sys.Boot.Unix(), last)
	return b.String()
}

func cpuinfo(sys System) string {
	var b strings.Builder
	for i := 0; i < sys.CPUs; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "processor\t: %d\nvendor_id\t: wasmsand\nmodel name\t: WebAssembly (wasmsand sandbox)\n", i)
		fmt.Fprintf(&b, "cpu MHz\t\t: 0.000\ncache size\t: 0 KB\nphysical id\t: 0\nsiblings\t: %d\ncore id\t\t: %d\ncpu cores\t: %d\n", sys.CPUs, i, sys.CPUs)
		fmt.Fprintf(&b, "flags\t\t: wasm32 simd128 bulk-memory\nbogomips\t: 0.00\naddress sizes\t: 32 bits physical, 32 bits virtual\n")
	}
	return b.String()
}

// meminfo reports the sandbox's memory limit as the machine's memory.
func meminfo(sys System) string {
	kb := sys.MemoryLimit / 1024
	var b strings.Builder
	for _, r := range []struct {
		k string
		v uint64
	}{{"MemTotal", kb}, {"MemFree", kb}, {"MemAvailable", kb}, {"Buffers", 0}, {"Cached", 0},
		{"SwapCached", 0}, {"Active", 0}, {"Inactive", 0}, {"SwapTotal", 0}, {"SwapFree", 0},
		{"Shmem", 0}, {"SReclaimable", 0}} {
		fmt.Fprintf(&b, "%-16s%8d kB\n", r.k+":", r.v)
	}
	return b.String()
}

// follow resolves a final symlink that stays inside /proc ("self" → "1").
func (f *FS) follow(name string, n *node) (*node, string, error) {
	for i := 0; n.mode&fs.ModeSymlink != 0; i++ {
		if i > 8 || strings.HasPrefix(n.target, "/") || strings.Contains(n.target, ":") {
			// (a link out of /proc, or to a pipe: the VFS cannot follow it here)
			return n, name, nil
		}
		name = path.Join(path.Dir(name), n.target)
		var err error
		if n, err = f.lookup(name); err != nil {
			return nil, name, err
		}
	}
	return n, name, nil
}

func pathErr(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// Open implements hackpadfs.FS.
func (f *FS) Open(name string) (fs.File, error) {
	n, err := f.lookup(name)
	if err == nil {
		n, name, err = f.follow(name, n)
	}
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if n.mode&fs.ModeSymlink != 0 {
		return nil, pathErr("open", name, syscall.ENOENT)
	}
	return &openNode{node: n, Reader: bytes.NewReader(n.data), dir: name, f: f}, nil
}

// Stat implements hackpadfs.StatFS.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	n, err := f.lookup(name)
	if err == nil {
		n, _, err = f.follow(name, n)
	}
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return n, nil
}

// Lstat implements hackpadfs.LstatFS.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	n, err := f.lookup(name)
	if err != nil {
		return nil, pathErr("lstat", name, err)
	}
	return n, nil
}

// Readlink implements vfs.ReadlinkFS.
func (f *FS) Readlink(name string) (string, error) {
	n, err := f.lookup(name)
	if err != nil {
		return "", pathErr("readlink", name, err)
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", pathErr("readlink", name, syscall.EINVAL)
	}
	return n.target, nil
}

type openNode struct {
	*node
	*bytes.Reader
	dir string
	pos int
	f   *FS
}

func (o *openNode) Stat() (fs.FileInfo, error) { return o.node, nil }
func (o *openNode) Close() error               { return nil }

func (o *openNode) Read(b []byte) (int, error) {
	if o.node.IsDir() {
		return 0, pathErr("read", o.dir, syscall.EISDIR)
	}
	return o.Reader.Read(b)
}

// ReadDir implements fs.ReadDirFile: entries are looked up as they are listed.
func (o *openNode) ReadDir(n int) ([]fs.DirEntry, error) {
	if !o.node.IsDir() {
		return nil, pathErr("readdir", o.dir, syscall.ENOTDIR)
	}
	rest := o.names[o.pos:]
	if n > 0 && len(rest) > n {
		rest = rest[:n]
	}
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	o.pos += len(rest)
	out := make([]fs.DirEntry, 0, len(rest))
	for _, name := range rest {
		out = append(out, fs.FileInfoToDirEntry(o.entry(name)))
	}
	return out, nil
}

// entry is a listed child's lstat; one that vanished meanwhile (a process
// that ended) is still listed, as an empty file.
func (o *openNode) entry(name string) fs.FileInfo {
	if o.f != nil {
		if n, err := o.f.lookup(path.Join(o.dir, name)); err == nil {
			return n
		}
	}
	return &node{name: name, mode: 0o444}
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
