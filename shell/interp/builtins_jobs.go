package interp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/shell/expand"
)

// trapOrder lists trap names as `trap -p` prints them: EXIT, signals by
// number, then DEBUG, ERR, RETURN.
func trapSortKey(name string) int {
	switch name {
	case "EXIT":
		return -1
	case "DEBUG":
		return 1000
	case "ERR":
		return 1001
	case "RETURN":
		return 1002
	}
	n, _ := signalNum(name)
	return n
}

func trapDisplayName(name string) string {
	switch name {
	case "EXIT", "DEBUG", "ERR", "RETURN":
		return name
	}
	return "SIG" + name
}

// trapName normalises a trap's signal spec; ok false when invalid.
func trapName(spec string) (string, bool) {
	up := upper(spec)
	switch up {
	case "EXIT", "0", "SIGEXIT":
		return "EXIT", true
	case "DEBUG", "ERR", "RETURN":
		return up, true
	}
	n, ok := signalNum(spec)
	if !ok || n == 0 {
		return "", false
	}
	return signalName(n), true
}

func builtinTrap(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("trap", args[1:], "lp", false)
	if !ok {
		return 2
	}
	if o.set['l'] {
		return r.out("trap", signalList())
	}
	if len(rest) == 0 || o.set['p'] {
		var names []string
		if len(rest) > 0 {
			for _, s := range rest {
				n, ok := trapName(s)
				if !ok {
					r.errmsg("trap: " + s + ": invalid signal specification")
					return 1
				}
				names = append(names, n)
			}
		} else {
			for k := range r.traps.m {
				names = append(names, k)
			}
			for k := range r.traps.shown {
				if _, ok := r.traps.m[k]; !ok {
					names = append(names, k)
				}
			}
			sort.Slice(names, func(a, b int) bool { return trapSortKey(names[a]) < trapSortKey(names[b]) })
		}
		var b strings.Builder
		for _, n := range names {
			t, ok := r.traps.listed(n)
			if !ok {
				continue
			}
			b.WriteString("trap -- " + expand.QuoteSingle(t) + " " + trapDisplayName(n) + "\n")
		}
		return r.out("trap", b.String())
	}
	action := rest[0]
	specs := rest[1:]
	reset := false
	if len(rest) == 1 {
		if _, ok := trapName(action); ok {
			reset = true
			specs = rest
		}
	}
	if action == "-" {
		reset = true
	}
	st := 0
	r.traps = r.traps.writable()
	r.traps.shown = nil // the parent's traps are no longer listed
	for _, s := range specs {
		n, ok := trapName(s)
		if !ok {
			r.errmsg("trap: " + s + ": invalid signal specification")
			st = 1
			continue
		}
		if r.ignoredAtEntry[n] {
			continue // (bash: ignored on entry, it stays ignored)
		}
		if reset {
			r.traps.unset(n)
			continue
		}
		r.traps.m[n] = action
	}
	return st
}

// signalList is kill -l / trap -l.
func signalList() string {
	var b strings.Builder
	col := 0
	nums := []int{}
	for i := 1; i < len(signalNames); i++ {
		nums = append(nums, i)
	}
	for i := 34; i <= 64; i++ {
		nums = append(nums, i)
	}
	for _, n := range nums {
		fmt.Fprintf(&b, "%2d) SIG%s", n, signalName(n))
		col++
		if col%5 == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte('\t')
		}
	}
	s := b.String()
	if !strings.HasSuffix(s, "\n") {
		s = strings.TrimSuffix(s, "\t") + "\n"
	}
	return s
}

func builtinKill(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	args = args[1:]
	sig := 15
	if len(args) == 0 {
		r.stderr("kill: usage: " + usages["kill"] + "\n")
		return 2
	}
	switch {
	case args[0] == "-l" || args[0] == "-L":
		if len(args) == 1 {
			return r.out("kill", signalList())
		}
		var b strings.Builder
		st := 0
		for _, a := range args[1:] {
			if n, err := strconv.Atoi(a); err == nil {
				if n > 128 {
					n -= 128
				}
				name := signalName(n)
				if _, err := strconv.Atoi(name); err == nil || n <= 0 {
					r.errmsg("kill: " + a + ": invalid signal specification")
					st = 1
					continue
				}
				b.WriteString(name + "\n")
				continue
			}
			n, ok := signalNum(a)
			if !ok {
				r.errmsg("kill: " + a + ": invalid signal specification")
				st = 1
				continue
			}
			b.WriteString(strconv.Itoa(n) + "\n")
		}
		if w := r.out("kill", b.String()); w != 0 {
			return w
		}
		return st
	case args[0] == "-s" || args[0] == "-n":
		if len(args) < 2 {
			r.errmsg("kill: " + args[0] + ": option requires an argument")
			return 2
		}
		n, ok := signalNum(args[1])
		if !ok {
			r.errmsg("kill: " + args[1] + ": invalid signal specification")
			return 1
		}
		sig, args = n, args[2:]
	case args[0] == "--":
		args = args[1:]
	case strings.HasPrefix(args[0], "-") && len(args[0]) > 1:
		n, ok := signalNum(args[0][1:])
		if !ok {
			r.errmsg("kill: " + args[0][1:] + ": invalid signal specification")
			return 1
		}
		sig, args = n, args[1:]
	}
	if len(args) == 0 {
		r.stderr("kill: usage: " + usages["kill"] + "\n")
		return 2
	}
	st := 0
	for _, a := range args {
		if err := r.signal(a, sig); err != "" {
			r.errmsg("kill: " + err)
			st = 1
		}
	}
	return st
}

// signal delivers sig to a pid or job spec; it returns an error text.
func (r *Runner) signal(target string, sig int) string {
	var j *job
	if strings.HasPrefix(target, "%") {
		j = r.jobSpec(target)
		if j == nil {
			return target + ": no such job"
		}
	} else {
		pid, err := strconv.Atoi(target)
		if target == "" {
			return "`': not a pid or valid job spec"
		}
		if err != nil {
			return target + ": arguments must be process or job IDs"
		}
		if pid == r.pid || pid == r.bashpid && r.subLevel == 0 {
			if sig != 0 {
				r.mainSig.send(sig)
			}
			return ""
		}
		if pid == r.bashpid {
			if sig != 0 {
				r.sig.send(sig)
			}
			return ""
		}
		j = r.jobs.byPid(pid)
		if j == nil && r.parentJobs != nil {
			j = r.parentJobs.byPid(pid)
		}
		if j == nil {
			if r.cfg.Kill != nil {
				switch err := r.cfg.Kill(pid, sig); {
				case err == nil:
					return ""
				case errors.Is(err, syscall.EPERM):
					return "(" + target + ") - Operation not permitted"
				}
			}
			return "(" + target + ") - No such process"
		}
	}
	if j.isDone() {
		// (bash has reaped it by now: the process is gone)
		return "(" + strconv.Itoa(j.pid) + ") - No such process"
	}
	if sig == 0 || j.ignored[sig] {
		return ""
	}
	switch sig {
	case 17, 18, 23, 28: // CHLD CONT URG WINCH: nothing happens
		return ""
	}
	if j.markKilled(sig) {
		j.cancel(errKilled)
	}
	return ""
}

// jobSpec finds %N, %%, %+, %-, %string, %?string.
func (r *Runner) jobSpec(spec string) *job {
	all := r.jobs.all()
	if len(all) == 0 {
		return nil
	}
	s := spec[1:]
	switch s {
	case "", "%", "+":
		return r.jobs.last
	case "-":
		if len(all) >= 2 {
			return all[len(all)-2]
		}
		return nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		return r.jobs.byID(n)
	}
	for i := len(all) - 1; i >= 0; i-- {
		j := all[i]
		if strings.HasPrefix(s, "?") && strings.Contains(j.cmd, s[1:]) || strings.HasPrefix(j.cmd, s) {
			return j
		}
	}
	return nil
}

func builtinWait(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("wait", args[1:], "fnp:", false)
	if !ok {
		return 2
	}
	pvar := o.vals['p']
	// chldOnly runs SIGCHLD traps while wait goes on (bash's wait ends
	// early for other trapped signals only)
	chldOnly := func() bool {
		if r.sig.onlyCHLD() {
			r.handleSignals(ctx)
			return r.flow == flowNone
		}
		return false
	}
	waitOne := func(j *job) int {
		j.begin()
	wait:
		for {
			select {
			case <-j.doneCh:
				break wait
			case <-ctx.Done():
				r.checkCtx(ctx)
				return 127
			case <-r.sig.wake:
				if r.sig.pending() {
					if chldOnly() {
						continue
					}
					return -1
				}
			}
		}
		j.waited = true
		if pvar != "" {
			_ = r.setVar(pvar, strconv.Itoa(j.pid), 0)
		}
		return j.exitStatus()
	}
	if o.set['n'] {
		var pending []*job
		if len(rest) > 0 {
			for _, a := range rest {
				if j := r.findJob(a); j != nil {
					pending = append(pending, j)
				}
			}
		} else {
			for _, j := range r.jobs.all() {
				if !j.waited {
					pending = append(pending, j)
				}
			}
		}
		if len(pending) == 0 {
			return 127
		}
		for _, j := range pending {
			j.begin()
		}
		for _, j := range pending {
			if !j.waited && j.isDone() {
				r.jobs.remove(j)
				return waitOne(j)
			}
		}
		for {
			for _, j := range pending {
				select {
				case <-j.doneCh:
					r.jobs.remove(j)
					return waitOne(j)
				default:
				}
			}
			select {
			case <-ctx.Done():
				r.checkCtx(ctx)
				return 127
			case <-r.jobs.changed():
			case <-r.sig.wake:
				if r.sig.pending() && !chldOnly() {
					return 128 + r.firstPendingSig()
				}
			}
		}
	}
	if len(rest) == 0 {
		st := 0
		for _, j := range r.jobs.all() {
			s := waitOne(j)
			if s == -1 {
				return 128 + r.firstPendingSig()
			}
			r.jobs.remove(j)
			st = 0
		}
		return st
	}
	st := 0
	for _, a := range rest {
		j := r.findJob(a)
		if j == nil {
			if strings.HasPrefix(a, "%") {
				r.errmsg("wait: " + a + ": no such job")
			} else if n, err := strconv.Atoi(a); err != nil || n < 0 {
				r.errmsg("wait: `" + a + "': not a pid or valid job spec")
				st = 1
				continue
			} else {
				r.errmsg("wait: pid " + a + " is not a child of this shell")
			}
			st = 127
			continue
		}
		s := waitOne(j)
		if s == -1 {
			return 128 + r.firstPendingSig()
		}
		r.jobs.remove(j)
		st = s
	}
	return st
}

func (r *Runner) firstPendingSig() int {
	r.sig.mu.Lock()
	defer r.sig.mu.Unlock()
	if len(r.sig.queue) > 0 {
		return r.sig.queue[0]
	}
	return 0
}

// findJob resolves a pid or job spec.
func (r *Runner) findJob(a string) *job {
	if strings.HasPrefix(a, "%") {
		return r.jobSpec(a)
	}
	pid, err := strconv.Atoi(a)
	if err != nil {
		return nil
	}
	if j := r.jobs.byPid(pid); j != nil {
		return j
	}
	if r.psubJobs != nil {
		return r.psubJobs.byPid(pid)
	}
	return nil
}

func jobState(j *job) string {
	done, status, killSig := j.state()
	switch {
	case !done:
		return "Running"
	case status == 0:
		return "Done"
	case status > 128 && killSig > 0:
		switch killSig {
		case 15:
			return "Terminated"
		case 9:
			return "Killed"
		case 2:
			return "Interrupt"
		case 1:
			return "Hangup"
		}
		return signalName(killSig)
	}
	return "Exit " + strconv.Itoa(status)
}

func builtinJobs(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("jobs", args[1:], "lnprsx", false)
	if !ok {
		return 2
	}
	tab := r.jobs
	if len(tab.all()) == 0 && r.parentJobs != nil {
		tab = r.parentJobs.snapshot()
	}
	all := tab.all()
	var sel []*job
	if len(rest) > 0 {
		for _, a := range rest {
			j := r.jobSpec(a)
			if !strings.HasPrefix(a, "%") {
				j = r.jobSpec("%" + a)
			}
			if j == nil {
				r.errmsg("jobs: " + a + ": no such job")
				return 1
			}
			sel = append(sel, j)
		}
	} else {
		sel = all
	}
	var b strings.Builder
	for _, j := range sel {
		done := j.isDone()
		if o.set['r'] && done || o.set['s'] {
			continue
		}
		if o.set['p'] {
			b.WriteString(strconv.Itoa(j.pid) + "\n")
			continue
		}
		mark := " "
		if j == tab.last {
			mark = "+"
		} else if len(all) >= 2 && j == all[len(all)-2] {
			mark = "-"
		}
		cmd := j.cmd
		if !done {
			cmd += " &"
		}
		if o.set['l'] {
			fmt.Fprintf(&b, "[%d]%s %d %-24s%s\n", j.id, mark, j.pid, jobState(j), cmd)
		} else {
			fmt.Fprintf(&b, "[%d]%s  %-24s%s\n", j.id, mark, jobState(j), cmd)
		}
		if done {
			j.notified = true
		}
	}
	for _, j := range sel {
		if j.notified && j.isDone() {
			r.jobs.remove(j)
		}
	}
	return r.out("jobs", b.String())
}

func builtinDisown(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("disown", args[1:], "ahr", false)
	if !ok {
		return 2
	}
	if o.set['a'] || len(rest) == 0 && !o.set['h'] {
		for _, j := range r.jobs.all() {
			if len(rest) == 0 && !o.set['a'] && j != r.jobs.last {
				continue
			}
			r.jobs.remove(j)
		}
		return 0
	}
	st := 0
	for _, a := range rest {
		j := r.findJob(a)
		if j == nil {
			r.errmsg("disown: " + a + ": no such job")
			st = 1
			continue
		}
		if !o.set['h'] {
			r.jobs.remove(j)
		}
	}
	return st
}
