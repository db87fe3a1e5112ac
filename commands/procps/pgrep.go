package procps

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
	"github.com/wasmsand/wasmsand/shell/interp"
)

// pgrep is pgrep and pkill (by argv[0]) of procps-ng 4.0: an extended
// regular expression against the process name (-f: the whole command
// line); the command itself is never matched. Status 0 when something
// matched, 1 when nothing did, 2 for a usage error.
func pgrep(t *procfs.Table, self int, req *shell.ExecRequest) int {
	prog := path.Base(req.Argv[0])
	kill := prog == "pkill"
	sig := 15
	var (
		full, exact, newest, oldest, count, list, listFull, invert, icase bool
		delim                                                             = "\n"
		users, parents                                                    []string
		pattern                                                           string
		havePattern                                                       bool
	)
	fail := func(msg string) int {
		fmt.Fprintf(req.Stderr, "%s: %s\nTry `%s --help' for more information.\n", prog, msg, prog)
		return 2
	}
	// the options, by long name; short ones map to them
	flags := map[string]*bool{"full": &full, "exact": &exact, "newest": &newest, "oldest": &oldest,
		"count": &count, "list-name": &list, "list-full": &listFull, "inverse": &invert, "ignore-case": &icase}
	valued := map[string]bool{"delimiter": true, "euid": true, "uid": true, "parent": true, "signal": true, "pgroup": true}
	short := map[byte]string{'f': "full", 'x': "exact", 'n': "newest", 'o': "oldest", 'c': "count",
		'l': "list-name", 'a': "list-full", 'v': "inverse", 'i': "ignore-case", 'e': "echo",
		'd': "delimiter", 'u': "euid", 'U': "uid", 'P': "parent", 'g': "pgroup"}
	setValue := func(name, v string) string {
		switch name {
		case "delimiter":
			delim = v
		case "euid", "uid":
			users = append(users, strings.Split(v, ",")...)
		case "parent":
			parents = append(parents, strings.Split(v, ",")...)
		case "signal":
			n, ok := interp.SignalNumber(v)
			if !ok {
				return "Unknown signal \"" + v + "\"."
			}
			sig = n
		}
		// (pgroup: the sandbox has one process group)
		return ""
	}
	a := req.Argv[1:]
	for i := 0; i < len(a); i++ {
		arg := a[i]
		if havePattern || arg == "-" || !strings.HasPrefix(arg, "-") {
			if havePattern {
				return fail("only one pattern can be provided")
			}
			pattern, havePattern = arg, true
			continue
		}
		if arg == "--" {
			if i+1 < len(a) {
				pattern, havePattern = a[i+1], true
				i++
			}
			continue
		}
		if kill && len(arg) > 1 {
			if n, ok := interp.SignalNumber(arg[1:]); ok && n > 0 {
				sig = n
				continue
			}
		}
		if strings.HasPrefix(arg, "--") {
			name, v, hasV := strings.Cut(arg[2:], "=")
			switch {
			case flags[name] != nil:
				*flags[name] = true
			case valued[name]:
				if !hasV {
					if i+1 >= len(a) {
						return fail("option '--" + name + "' requires an argument")
					}
					i++
					v = a[i]
				}
				if msg := setValue(name, v); msg != "" {
					return fail(msg)
				}
			case name == "version":
				fmt.Fprintf(req.Stdout, "%s from procps-ng 4.0.2\n", prog)
				return 0
			default:
				return fail("unrecognized option '" + arg + "'")
			}
			continue
		}
		for j := 1; j < len(arg); j++ {
			c := arg[j]
			name, known := short[c]
			switch {
			case !known:
				return fail("invalid option -- '" + string(c) + "'")
			case valued[name]:
				v := arg[j+1:]
				if v == "" {
					if i+1 >= len(a) {
						return fail("option requires an argument -- '" + string(c) + "'")
					}
					i++
					v = a[i]
				}
				if msg := setValue(name, v); msg != "" {
					return fail(msg)
				}
				j = len(arg)
			case kill && (c == 'l' || c == 'a'):
				// (pkill lists nothing)
			case flags[name] != nil:
				*flags[name] = true
			}
			// -e (pkill's echo) is not kept apart from a quiet kill
		}
	}
	if !havePattern && len(users) == 0 && len(parents) == 0 {
		fmt.Fprintf(req.Stderr, "%s: no matching criteria specified\nTry `%s --help' for more information.\n", prog, prog)
		return 2
	}
	var re *regexp.Regexp
	if havePattern {
		expr := pattern
		if exact {
			expr = "^(" + expr + ")$"
		}
		if icase {
			expr = "(?i)" + expr
		}
		var err error
		if re, err = regexp.Compile(expr); err != nil {
			fmt.Fprintf(req.Stderr, "%s: Invalid regular expression: %v\n", prog, err)
			return 2
		}
	}
	sys := t.System()
	var hits []procfs.Process
	for _, p := range t.List() {
		if p.Pid == self {
			continue
		}
		ok := true
		if re != nil {
			subject := p.Comm()
			if full {
				subject = args(&p)
			}
			ok = re.MatchString(subject)
		}
		if ok && len(users) > 0 {
			ok = false
			for _, u := range users {
				ok = ok || u == strconv.Itoa(p.Uid) || u == sys.User(p.Uid)
			}
		}
		if ok && len(parents) > 0 {
			ok = false
			for _, pp := range parents {
				ok = ok || pp == strconv.Itoa(p.PPid)
			}
		}
		if ok != invert {
			hits = append(hits, p)
		}
	}
	if (newest || oldest) && len(hits) > 0 {
		best := hits[0]
		for _, p := range hits[1:] {
			if newest && !p.Start.Before(best.Start) || oldest && p.Start.Before(best.Start) {
				best = p
			}
		}
		hits = []procfs.Process{best}
	}
	switch {
	case count:
		fmt.Fprintln(req.Stdout, len(hits))
	case kill:
		for _, p := range hits {
			if err := t.Signal(p.Pid, sig); err != nil {
				fmt.Fprintf(req.Stderr, "pkill: killing pid %d failed: Operation not permitted\n", p.Pid)
			}
		}
	default:
		var out []string
		for _, p := range hits {
			s := strconv.Itoa(p.Pid)
			switch {
			case listFull:
				s += " " + args(&p)
			case list:
				s += " " + p.Comm()
			}
			out = append(out, s)
		}
		if len(out) > 0 {
			fmt.Fprint(req.Stdout, strings.Join(out, delim)+"\n")
		}
	}
	if len(hits) == 0 {
		return 1
	}
	return 0
}

// top is `top -b` (batch mode) for -n iterations (default 1): the summary
// lines and the task list, from the table.
func top(t *procfs.Table, self int, req *shell.ExecRequest) int {
	iters := 1
	a := req.Argv[1:]
	for i := 0; i < len(a); i++ {
		arg := a[i]
		switch {
		case arg == "-b", arg == "-c", arg == "-i", arg == "-S", arg == "-H", arg == "-1", arg == "-E", arg == "-e":
		case strings.HasPrefix(arg, "-n"), strings.HasPrefix(arg, "-d"), strings.HasPrefix(arg, "-p"),
			strings.HasPrefix(arg, "-u"), strings.HasPrefix(arg, "-w"), strings.HasPrefix(arg, "-o"):
			v := arg[2:]
			if v == "" && i+1 < len(a) {
				i++
				v = a[i]
			}
			if arg[1] == 'n' {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					fmt.Fprintf(req.Stderr, "top: bad iterations argument '%s'\n", v)
					return 1
				}
				iters = n
			}
		default:
			fmt.Fprintf(req.Stderr, "top: unknown option '%s'\nUsage:\n  top -hv | -bcEeHiOSs1 -d secs -n max -u|U user -p pid(s) -o field -w [cols]\n", strings.TrimPrefix(arg, "-"))
			return 1
		}
	}
	for n := 0; n < iters; n++ {
		if n > 0 {
			fmt.Fprintln(req.Stdout)
		}
		now := t.Now()
		sys := t.System()
		procs := t.List()
		mib := float64(sys.MemoryLimit) / (1 << 20)
		fmt.Fprintf(req.Stdout, "top - %s %s,  0 users,  load average: 0.00, 0.00, 0.00\n", now.UTC().Format("15:04:05"), uptime(now.Sub(sys.Boot)))
		fmt.Fprintf(req.Stdout, "Tasks: %3d total,   1 running, %3d sleeping,   0 stopped,   0 zombie\n", len(procs), len(procs)-1)
		fmt.Fprintf(req.Stdout, "%%Cpu(s):  0.0 us,  0.0 sy,  0.0 ni,100.0 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st \n")
		fmt.Fprintf(req.Stdout, "MiB Mem : %8.1f total, %8.1f free, %8.1f used, %8.1f buff/cache     \n", mib, mib, 0.0, 0.0)
		fmt.Fprintf(req.Stdout, "MiB Swap: %8.1f total, %8.1f free, %8.1f used. %8.1f avail Mem \n\n", 0.0, 0.0, 0.0, mib)
		fmt.Fprintf(req.Stdout, "    PID USER      PR  NI    VIRT    RES    SHR S  %%CPU  %%MEM     TIME+ COMMAND\n")
		for _, p := range procs {
			st := "S"
			if p.Pid == self {
				st = "R"
			}
			user := sys.User(p.Uid)
			if len(user) > 8 {
				user = user[:7] + "+"
			}
			fmt.Fprintf(req.Stdout, "%7d %-8s  20   0       0      0      0 %s   0.0   0.0   0:00.00 %s\n", p.Pid, user, st, p.Comm())
		}
	}
	return 0
}

// uptime is top's and uptime(1)'s "up ..." text.
func uptime(d time.Duration) string {
	m := int(d.Minutes())
	days, h, min := m/1440, m/60%24, m%60
	s := "up "
	if days > 0 {
		s += fmt.Sprintf("%d day", days)
		if days > 1 {
			s += "s"
		}
		s += ", "
	}
	if h > 0 {
		return s + fmt.Sprintf("%2d:%02d", h, min)
	}
	return s + fmt.Sprintf("%d min", min)
}

// free is free(1): the sandbox's memory limit as total and free memory.
func free(t *procfs.Table, _ int, req *shell.ExecRequest) int {
	div, human := uint64(1024), false
	for _, arg := range req.Argv[1:] {
		switch arg {
		case "-b", "--bytes":
			div = 1
		case "-k", "--kibi":
			div = 1024
		case "-m", "--mebi":
			div = 1 << 20
		case "-g", "--gibi":
			div = 1 << 30
		case "-h", "--human":
			human = true
		case "-w", "--wide", "-t", "--total", "-l", "--lohi", "--si":
		default:
			fmt.Fprintf(req.Stderr, "free: invalid option -- '%s'\n\nUsage:\n free [options]\n", strings.TrimLeft(arg, "-"))
			return 1
		}
	}
	total := t.System().MemoryLimit
	f := func(v uint64) string {
		if human {
			return humanBytes(v)
		}
		return strconv.FormatUint(v/div, 10)
	}
	fmt.Fprintf(req.Stdout, "%20s %11s %11s %11s %11s %11s\n", "total", "used", "free", "shared", "buff/cache", "available")
	fmt.Fprintf(req.Stdout, "%-7s %12s %11s %11s %11s %11s %11s\n", "Mem:", f(total), f(0), f(total), f(0), f(0), f(total))
	fmt.Fprintf(req.Stdout, "%-7s %12s %11s %11s\n", "Swap:", f(0), f(0), f(0))
	return 0
}

func humanBytes(v uint64) string {
	units := []string{"B", "Ki", "Mi", "Gi", "Ti"}
	f := float64(v)
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%dB", v)
	}
	if f < 10 {
		return fmt.Sprintf("%.1f%s", f, units[i])
	}
	return fmt.Sprintf("%.0f%s", f, units[i])
}
