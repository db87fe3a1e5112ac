package procps

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
)

// Enter registers a command of this package as a process while it runs (ps
// lists itself, as on Linux); it returns the process's pid and what to call
// when it ends.
type Enter func(req *shell.ExecRequest) (pid int, exit func())

// Commands are ps, pgrep, pkill, top and free over t (procps-ng 4.0's
// output formats), for core.Options.Commands.
func Commands(t *procfs.Table, enter Enter) []shell.Command {
	wrap := func(run func(t *procfs.Table, self int, req *shell.ExecRequest) int) func(context.Context, *shell.Session, *shell.ExecRequest) int {
		return func(_ context.Context, _ *shell.Session, req *shell.ExecRequest) int {
			self := 0
			if enter != nil {
				var exit func()
				self, exit = enter(req)
				defer exit()
			}
			return run(t, self, req)
		}
	}
	return []shell.Command{
		{Name: "ps", Run: wrap(ps)},
		{Name: "pgrep", Run: wrap(pgrep)},
		{Name: "pkill", Run: wrap(pgrep)},
		{Name: "top", Run: wrap(top)},
		{Name: "free", Run: wrap(free)},
	}
}

// column is one ps output column: its header, width, alignment and value.
type column struct {
	key    string
	header string
	width  int
	left   bool
	value  func(c *psCtx, p *procfs.Process) string
}

type psCtx struct {
	now  time.Time
	sys  procfs.System
	self int
	bsd  bool // BSD-style (ps aux): TIME as m:ss
}

func (c *psCtx) elapsed(p *procfs.Process) time.Duration {
	if d := c.now.Sub(p.Start); d > 0 {
		return d
	}
	return 0
}

func (c *psCtx) state(p *procfs.Process) string {
	if p.Pid == c.self {
		return "R"
	}
	return "S"
}

// startTime is ps's START/STIME: the time of day if today, else MonDD.
func (c *psCtx) startTime(p *procfs.Process) string {
	if c.now.Sub(p.Start) < 24*time.Hour {
		return p.Start.UTC().Format("15:04")
	}
	return p.Start.UTC().Format("Jan02")
}

func etime(d time.Duration) string {
	s := int(d.Seconds())
	days, h, m, sec := s/86400, s/3600%24, s/60%60, s%60
	switch {
	case days > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, sec)
	case h > 0:
		return fmt.Sprintf("%02d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%02d:%02d", m, sec)
}

func args(p *procfs.Process) string {
	if len(p.Argv) == 0 {
		return "[" + p.Comm() + "]"
	}
	return strings.Join(p.Argv, " ")
}

func columns() map[string]column {
	num := func(key, h string, w int, f func(c *psCtx, p *procfs.Process) string) column {
		return column{key: key, header: h, width: w, value: f}
	}
	txt := func(key, h string, w int, f func(c *psCtx, p *procfs.Process) string) column {
		return column{key: key, header: h, width: w, left: true, value: f}
	}
	// a figure the sandbox does not keep
	fixed := func(v string) func(*psCtx, *procfs.Process) string {
		return func(*psCtx, *procfs.Process) string { return v }
	}
	pid := func(c *psCtx, p *procfs.Process) string { return strconv.Itoa(p.Pid) }
	user := func(c *psCtx, p *procfs.Process) string { return c.sys.User(p.Uid) }
	comm := func(c *psCtx, p *procfs.Process) string { return p.Comm() }
	argsV := func(c *psCtx, p *procfs.Process) string { return args(p) }
	cpu := func(c *psCtx, p *procfs.Process) string {
		if c.bsd {
			return "0:00"
		}
		return "00:00:00"
	}
	m := map[string]column{}
	for _, col := range []column{
		num("pid", "PID", 7, pid), num("tgid", "TGID", 7, pid),
		num("ppid", "PPID", 7, func(c *psCtx, p *procfs.Process) string { return strconv.Itoa(p.PPid) }),
		num("pgid", "PGID", 7, pid), num("pgrp", "PGRP", 7, pid),
		num("sid", "SID", 7, fixed("1")),
		num("uid", "UID", 5, func(c *psCtx, p *procfs.Process) string { return strconv.Itoa(p.Uid) }),
		num("euid", "EUID", 5, func(c *psCtx, p *procfs.Process) string { return strconv.Itoa(p.Uid) }),
		num("gid", "GID", 5, func(c *psCtx, p *procfs.Process) string { return strconv.Itoa(p.Gid) }),
		txt("user", "USER", 8, user), txt("euser", "EUSER", 8, user), txt("ruser", "RUSER", 8, user),
		txt("uname", "USER", 8, user),
		txt("group", "GROUP", 8, func(c *psCtx, p *procfs.Process) string { return c.sys.User(p.Gid) }),
		txt("comm", "COMMAND", 15, comm), txt("ucomm", "COMMAND", 15, comm), txt("ucmd", "CMD", 15, comm),
		txt("fname", "COMMAND", 8, comm),
		txt("args", "COMMAND", 27, argsV), txt("command", "COMMAND", 27, argsV), txt("cmd", "CMD", 27, argsV),
		txt("stat", "STAT", 4, func(c *psCtx, p *procfs.Process) string { return c.state(p) }),
		txt("state", "S", 1, func(c *psCtx, p *procfs.Process) string { return c.state(p) }),
		txt("s", "S", 1, func(c *psCtx, p *procfs.Process) string { return c.state(p) }),
		txt("tty", "TT", 8, fixed("?")),
		txt("tt", "TT", 8, fixed("?")),
		txt("tname", "TTY", 8, fixed("?")),
		num("etime", "ELAPSED", 11, func(c *psCtx, p *procfs.Process) string { return etime(c.elapsed(p)) }),
		num("etimes", "ELAPSED", 7, func(c *psCtx, p *procfs.Process) string { return strconv.Itoa(int(c.elapsed(p).Seconds())) }),
		num("time", "TIME", 8, cpu), num("cputime", "TIME", 8, cpu),
		num("times", "TIME", 7, fixed("0")), num("bsdtime", "TIME", 6, fixed("0:00")),
		num("%cpu", "%CPU", 4, fixed("0.0")),
		num("pcpu", "%CPU", 4, fixed("0.0")),
		num("%mem", "%MEM", 4, fixed("0.0")),
		num("pmem", "%MEM", 4, fixed("0.0")),
		num("vsz", "VSZ", 6, fixed("0")), num("vsize", "VSZ", 6, fixed("0")),
		num("rss", "RSS", 5, fixed("0")), num("rssize", "RSS", 5, fixed("0")),
		num("c", "C", 2, fixed("0")), num("nlwp", "NLWP", 4, fixed("1")),
		num("ni", "NI", 3, fixed("0")), num("nice", "NI", 3, fixed("0")),
		num("pri", "PRI", 3, fixed("19")),
		num("start", "STARTED", 8, func(c *psCtx, p *procfs.Process) string { return p.Start.UTC().Format("15:04:05") }),
		num("start_time", "START", 5, func(c *psCtx, p *procfs.Process) string { return c.startTime(p) }),
		num("stime", "STIME", 5, func(c *psCtx, p *procfs.Process) string { return c.startTime(p) }),
		num("bsdstart", "START", 6, func(c *psCtx, p *procfs.Process) string { return c.startTime(p) }),
		txt("lstart", "STARTED", 24, func(c *psCtx, p *procfs.Process) string {
			return p.Start.UTC().Format("Mon Jan _2 15:04:05 2006")
		}),
		txt("wchan", "WCHAN", 6, fixed("-")),
		num("f", "F", 1, fixed("0")),
	} {
		m[col.key] = col
	}
	return m
}

// format names for ps's standard formats (procps-ng ps/output.c).
var (
	fmtDefault = []string{"pid", "tname", "time", "ucmd"}
	fmtFull    = []string{"uname=UID", "pid", "ppid", "c", "stime", "tname", "time", "cmd"}
	fmtUser    = []string{"user", "pid", "%cpu", "%mem", "vsz", "rss", "tname=TTY", "stat", "start_time", "bsdtime", "command"}
	fmtBSD     = []string{"pid", "tname=TTY", "stat", "bsdtime", "command"}
	fmtLong    = []string{"f", "s", "uid", "pid", "ppid", "c", "pri", "ni", "wchan", "tname=TTY", "time", "ucmd"}
)

type psOpts struct {
	all, noHeader, bsd, full bool
	format                   []string
	pids, ppids, users       []string
	names                    []string
	selected                 bool // some selection option was given
}

func ps(t *procfs.Table, self int, req *shell.ExecRequest) int {
	var o psOpts
	a := req.Argv[1:]
	usage := func(msg string) int {
		fmt.Fprintf(req.Stderr, "error: %s\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n", msg)
		return 1
	}
	list := func(v string) []string {
		return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })
	}
	for i := 0; i < len(a); i++ {
		arg := a[i]
		val := func() (string, bool) {
			if i+1 < len(a) {
				i++
				return a[i], true
			}
			return "", false
		}
		switch {
		case strings.HasPrefix(arg, "--"):
			name, v, hasV := strings.Cut(arg[2:], "=")
			need := func() (string, bool) {
				if hasV {
					return v, true
				}
				return val()
			}
			switch name {
			case "no-headers", "no-heading":
				o.noHeader = true
			case "pid", "ppid", "user", "User", "format", "sort", "cols", "columns", "width", "lines", "rows":
				v, ok := need()
				if !ok {
					return usage("list of " + name + " must follow --" + name)
				}
				switch name {
				case "pid":
					o.pids, o.selected = append(o.pids, list(v)...), true
				case "ppid":
					o.ppids, o.selected = append(o.ppids, list(v)...), true
				case "user", "User":
					o.users, o.selected = append(o.users, list(v)...), true
				case "format":
					o.format = append(o.format, list(v)...)
				}
			case "help":
				fmt.Fprintln(req.Stdout, "\nUsage:\n ps [options]\n\n Basic options:\n -A, -e               all processes\n -a                   all with tty, except session leaders\n  a                   all with tty, including other users\n -p, p, --pid <PID>   process id\n -C <command>         command name\n -u, U, --user <UID>  effective user id or name\n -f                   full-format\n -o, o, --format <format>\n                      user-defined format\n --no-headers         do not print header at all")
				return 0
			case "version":
				fmt.Fprintln(req.Stdout, "ps from procps-ng 4.0.2")
				return 0
			default:
				return usage("unknown gnu long option")
			}
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			for j := 1; j < len(arg); j++ {
				c := arg[j]
				takes := strings.IndexByte("opCuUgGtsq", c) >= 0
				var v string
				if takes {
					if j+1 < len(arg) {
						v = arg[j+1:]
					} else if s, ok := val(); ok {
						v = s
					} else {
						return usage("list of process IDs must follow -" + string(c))
					}
					j = len(arg)
				}
				switch c {
				case 'e', 'A', 'a', 'd', 'N', 'x':
					o.all = true
				case 'f':
					o.full = true
				case 'F', 'l', 'y', 'j', 'w', 'H', 'T', 'L', 'm', 'c', 'M', 'Z':
					if c == 'l' {
						o.format = append(o.format, fmtLong...)
					}
				case 'o':
					o.format = append(o.format, list(v)...)
				case 'p', 'q':
					o.pids, o.selected = append(o.pids, list(v)...), true
				case 'C':
					o.names, o.selected = append(o.names, list(v)...), true
				case 'u', 'U':
					o.users, o.selected = append(o.users, list(v)...), true
				case 's', 'g', 'G', 't':
					o.selected = true
				default:
					return usage("unsupported SysV option")
				}
			}
		default:
			// BSD options: aux, ax, u, x, o FMT, p PID, h...
			for j := 0; j < len(arg); j++ {
				switch c := arg[j]; c {
				case 'a', 'x', 'e', 'g', 'r', 'w', 'f', 'c', 'S':
					o.all = true
					o.bsd = true
				case 'u':
					o.bsd = true
					o.format = append(o.format, fmtUser...)
				case 'h':
					o.noHeader = true
				case 'o', 'O':
					v, ok := val()
					if !ok {
						return usage("format specification must follow o")
					}
					o.format = append(o.format, list(v)...)
				case 'p':
					v := arg[j+1:]
					if v == "" {
						var ok bool
						if v, ok = val(); !ok {
							return usage("list of process IDs must follow p")
						}
					}
					o.pids, o.selected = append(o.pids, list(v)...), true
					j = len(arg)
				default:
					if c >= '0' && c <= '9' {
						o.pids, o.selected = append(o.pids, list(arg[j:])...), true
						j = len(arg)
						continue
					}
					return usage("unsupported option (BSD syntax)")
				}
			}
		}
	}
	cols := columns()
	var keys []string
	switch {
	case len(o.format) > 0:
		keys = o.format
	case o.full:
		keys = fmtFull
	case o.bsd:
		keys = fmtBSD
	default:
		keys = fmtDefault
	}
	var use []column
	allNoHeader := true
	for _, k := range keys {
		name, hdr, custom := strings.Cut(k, "=")
		col, ok := cols[strings.ToLower(name)]
		if !ok {
			return usage("unknown user-defined format specifier \"" + name + "\"")
		}
		if custom {
			col.header = hdr
			if hdr != "" && len(hdr) > col.width {
				col.width = len(hdr)
			}
		}
		if col.header != "" {
			allNoHeader = false
		}
		use = append(use, col)
	}
	c := &psCtx{now: t.Now(), sys: t.System(), self: self, bsd: o.bsd}
	var rows []*procfs.Process
	procs := t.List()
	for i := range procs {
		p := &procs[i]
		if o.selected {
			if !psSelected(&o, c, p) {
				continue
			}
		}
		rows = append(rows, p)
	}
	w := req.Stdout
	if !o.noHeader && !allNoHeader {
		writeRow(w, use, func(col column) string { return col.header })
	}
	for _, p := range rows {
		writeRow(w, use, func(col column) string { return col.value(c, p) })
	}
	if len(rows) == 0 {
		return 1
	}
	return 0
}

func psSelected(o *psOpts, c *psCtx, p *procfs.Process) bool {
	for _, s := range o.pids {
		if s == strconv.Itoa(p.Pid) {
			return true
		}
	}
	for _, s := range o.ppids {
		if s == strconv.Itoa(p.PPid) {
			return true
		}
	}
	for _, s := range o.users {
		if s == strconv.Itoa(p.Uid) || s == c.sys.User(p.Uid) {
			return true
		}
	}
	for _, s := range o.names {
		if s == p.Comm() {
			return true
		}
	}
	return false
}

// writeRow prints one line: columns padded to their widths, one space
// apart, the last one not padded; a value wider than its column pushes the
// rest right.
func writeRow(w io.Writer, cols []column, val func(column) string) {
	var b strings.Builder
	for i, col := range cols {
		v := val(col)
		if i > 0 {
			b.WriteByte(' ')
		}
		last := i == len(cols)-1
		pad := col.width - len(v)
		switch {
		case pad <= 0:
			b.WriteString(v)
		case col.left && last:
			b.WriteString(v)
		case col.left:
			b.WriteString(v + strings.Repeat(" ", pad))
		default:
			b.WriteString(strings.Repeat(" ", pad) + v)
		}
	}
	b.WriteByte('\n')
	io.WriteString(w, b.String())
}
