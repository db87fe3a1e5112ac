package interp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/shell/syntax"
)

// dynValue computes a dynamic variable's value.
func (r *Runner) dynValue(v *Var) (string, bool) {
	switch v.dyn {
	case dynRandom:
		return strconv.Itoa(r.random()), true
	case dynSRandom:
		return strconv.FormatUint(uint64(uint32(r.cfg.Rand())), 10), true
	case dynSeconds:
		return strconv.FormatInt(int64(r.cfg.Now().Sub(r.start)/time.Second)+r.secsBase, 10), true
	case dynLineno:
		return strconv.Itoa(r.line), true
	case dynBashpid:
		return strconv.Itoa(r.bashpid), true
	case dynEpochSeconds:
		return strconv.FormatInt(r.cfg.Now().Unix(), 10), true
	case dynEpochRealtime:
		t := r.cfg.Now()
		return fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000), true
	case dynSubshell:
		return strconv.Itoa(r.subLevel), true
	case dynShellopts:
		return r.shelloptsString(), true
	case dynBashopts:
		var on []string
		for _, e := range r.shoptList() {
			if *e.p {
				on = append(on, e.name)
			}
		}
		return strings.Join(on, ":"), true
	case dynBashCommand:
		if r.curCmd == nil {
			return r.curCmdText, true
		}
		return syntax.CommandString([]*syntax.Stmt{{Pipes: []*syntax.Pipeline{{Cmds: []syntax.Command{r.curCmd}}}}}), true
	case dynArgv0:
		return r.name, true
	case dynHistcmd:
		return "1", true
	}
	if a := r.dynArray(v); a != nil {
		return a[0], true
	}
	return "", false
}

// dynArray is the value of a dynamic array variable (nil when empty).
func (r *Runner) dynArray(v *Var) []string {
	var out []string
	switch v.dyn {
	case dynFuncname:
		out = r.funcnames()
	case dynBashSource:
		out = r.bashSources()
	case dynBashLineno:
		out = r.bashLinenos()
	case dynPipestatus:
		out = make([]string, len(r.pipeStatus))
		for i, s := range r.pipeStatus {
			out[i] = strconv.Itoa(s)
		}
	case dynGroups:
		out = []string{strconv.Itoa(r.cfg.GID)}
	case dynDirstack:
		out = append([]string{r.dir}, r.dirsReversed()...)
	case dynBashArgc, dynBashArgv:
		return nil
	default:
		return nil
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// assignDyn handles assignments to dynamic variables; false makes the
// variable an ordinary one.
func (r *Runner) assignDyn(v *Var, val string) bool {
	switch v.dyn {
	case dynRandom:
		n, _ := r.arithExpr(val)
		r.rseed = uint32(n)
		r.lastRand = 0
		return true
	case dynSeconds:
		n, _ := r.arithExpr(val)
		r.start = r.cfg.Now()
		r.secsBase = n
		return true
	case dynArgv0:
		r.name = val
		return true
	case dynLineno, dynBashpid, dynEpochSeconds, dynEpochRealtime, dynSubshell, dynBashCommand,
		dynHistcmd, dynSRandom, dynGroups, dynFuncname:
		return true
	}
	v.dyn = dynNone
	return false
}

// random is bash's $RANDOM: Park-Miller over a 32-bit seed, folded to
// 15 bits, never the same value twice in a row.
func (r *Runner) random() int {
	for {
		x := r.rseed
		if x == 0 {
			x = 123459876
		}
		h := int32(x / 127773)
		l := int32(x - 127773*uint32(h))
		t := 16807*l - 2836*h
		if t < 0 {
			t += 0x7fffffff
		}
		r.rseed = uint32(t)
		v := int((r.rseed>>16)^(r.rseed&65535)) & 32767
		if v != r.lastRand {
			r.lastRand = v
			return v
		}
	}
}

// isSetVar is test -v: a variable (or element) with a value.
func (r *Runner) isSetVar(name string) bool {
	if base, sub, ok := splitSubscript(name); ok {
		v := r.lookup(base)
		if v == nil {
			return false
		}
		if (sub == "@" || sub == "*") && !v.isAssoc() {
			return len(r.values(v)) > 0 // (of an associative array, a key like any other: bash 5.2)
		}
		if !v.isAssoc() {
			if n, err := r.arithExpr(sub); err == nil {
				sub = strconv.FormatInt(n, 10)
			}
		}
		_, ok := r.element(v, sub)
		return ok
	}
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		_, ok := r.special(name)
		return ok
	}
	v := r.lookup(name)
	if v == nil {
		return false
	}
	if v.dyn != dynNone {
		_, ok := r.dynValue(v)
		return ok
	}
	if v.isArray() {
		_, ok := v.arr.get(0)
		return v.set && ok
	}
	if v.isAssoc() {
		_, ok := v.assoc.get("0")
		return v.set && ok
	}
	return v.set
}

// optTable maps set -o names to options, in bash's listing order, with
// their letters.
func (r *Runner) optTable() []optEntry {
	o := &r.opts
	return []optEntry{
		{"allexport", 'a', &o.allexport}, {"braceexpand", 'B', &o.braceexpand}, {"emacs", 0, &o.emacs},
		{"errexit", 'e', &o.errexit}, {"errtrace", 'E', &o.errtrace}, {"functrace", 'T', &o.functrace},
		{"hashall", 'h', &o.hashall}, {"histexpand", 'H', &o.histexpand}, {"history", 0, &o.history},
		{"ignoreeof", 0, &o.ignoreeof}, {"interactive-comments", 0, &o.interactiveComments},
		{"keyword", 'k', &o.keyword}, {"monitor", 'm', &o.monitor}, {"noclobber", 'C', &o.noclobber},
		{"noexec", 'n', &o.noexec}, {"noglob", 'f', &o.noglob}, {"nolog", 0, &o.nolog},
		{"notify", 'b', &o.notify}, {"nounset", 'u', &o.nounset}, {"onecmd", 't', &o.onecmd},
		{"physical", 'P', &o.physical}, {"pipefail", 0, &o.pipefail}, {"posix", 0, &o.posix},
		{"privileged", 'p', &o.privileged}, {"verbose", 'v', &o.verbose}, {"vi", 0, &o.vi},
		{"xtrace", 'x', &o.xtrace},
	}
}

type optEntry struct {
	name   string
	letter byte
	p      *bool
}

func (r *Runner) optByLetter(c byte) *bool {
	for _, e := range r.optTable() {
		if e.letter == c {
			return e.p
		}
	}
	return nil
}

func (r *Runner) optByName(name string) *bool {
	for _, e := range r.optTable() {
		if e.name == name {
			return e.p
		}
	}
	return nil
}

func (r *Runner) shelloptsString() string {
	var on []string
	for _, e := range r.optTable() {
		if *e.p {
			on = append(on, e.name)
		}
	}
	return strings.Join(on, ":")
}

// flagString is $-: the single-letter options that are on.
func (r *Runner) flagString() string {
	var b strings.Builder
	for _, c := range "abefhkmnptuvxBCEHPT" {
		if p := r.optByLetter(byte(c)); p != nil && *p {
			b.WriteRune(c)
		}
	}
	if r.cmdMode {
		b.WriteByte('c')
	}
	if r.readsStdin {
		b.WriteByte('s')
	}
	return b.String()
}

// runTrap runs a trap's command with $? as it was.
func (r *Runner) runTrap(ctx context.Context, name, cmd string) (trapStatus int) {
	r.inTrap++
	st := r.status
	line := r.line
	flow := r.flow
	r.flow = flowNone
	start := r.line
	switch name {
	case "DEBUG", "ERR", "RETURN":
	default:
		start = 1 // a signal's or EXIT's handler counts its own lines, as bash's
	}
	if name != "EXIT" {
		r.traceNest++ // (set -x marks a trap's commands with one more PS4 character, bar EXIT's)
	}
	r.runSource(ctx, cmd, start, true)
	if name != "EXIT" {
		r.traceNest--
	}
	trapStatus = r.status
	if r.flow == flowNone || r.flow == flowReturn && name != "RETURN" && len(r.frames) == 0 {
		r.flow = flow
		r.status = st
	}
	r.line = line
	r.inTrap--
	return trapStatus
}

// prompt expands a prompt string (PS4, ${x@P}): backslash escapes, then
// parameter expansion.
func (r *Runner) prompt(ctx context.Context, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'u':
			u, _ := r.getVar("USER")
			b.WriteString(u)
		case 'h', 'H':
			b.WriteString("wasmsand")
		case 'w', 'W':
			d := r.dir
			home, _ := r.getVar("HOME")
			if s[i] == 'W' {
				if d != "/" {
					d = d[strings.LastIndexByte(d, '/')+1:]
				}
				if r.dir == home {
					d = "~"
				}
			} else if home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
				d = "~" + d[len(home):]
			}
			b.WriteString(d)
		case 's':
			b.WriteString("bash")
		case 'v':
			b.WriteString("5.2")
		case 'V':
			b.WriteString("5.2.15")
		case '$':
			if r.cfg.UID == 0 {
				b.WriteByte('#')
			} else {
				b.WriteByte('$')
			}
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'e':
			b.WriteByte(27)
		case '\\':
			b.WriteByte('\\')
		case '[', ']':
		case 'j':
			b.WriteString(strconv.Itoa(len(r.jobs.all())))
		case '#', '!':
			b.WriteString("1")
		case 'd':
			b.WriteString(strftime("%a %b %d", r.localTime(r.cfg.Now())))
		case 't':
			b.WriteString(strftime("%H:%M:%S", r.localTime(r.cfg.Now())))
		case 'T':
			b.WriteString(strftime("%I:%M:%S", r.localTime(r.cfg.Now())))
		case '@':
			b.WriteString(strftime("%I:%M %p", r.localTime(r.cfg.Now())))
		case 'A':
			b.WriteString(strftime("%H:%M", r.localTime(r.cfg.Now())))
		case 'D':
			// \D{format}: strftime, "%X" when empty
			if end := strings.IndexByte(s[i:], '}'); i+1 < len(s) && s[i+1] == '{' && end > 0 {
				layout := s[i+2 : i+end]
				if layout == "" {
					layout = "%X"
				}
				b.WriteString(strftime(layout, r.localTime(r.cfg.Now())))
				i += end
			} else {
				b.WriteString("\\D")
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	out := b.String()
	if !r.shopt.promptvars || !strings.ContainsAny(out, "$`") {
		return out
	}
	w := syntax.NewParser("", 1)
	_ = w
	if word, err := syntax.ParseDouble(out); err == nil {
		if v, err := r.expandQuoted(ctx, word); err == nil {
			return v
		}
	}
	return out
}

// dirStackEntry is ~+N / ~-N / ~N.
func (r *Runner) dirStackEntry(s string) string {
	if s == "" {
		return ""
	}
	from := s[0]
	num := s
	if from == '+' || from == '-' {
		num = s[1:]
	} else {
		from = '+'
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return ""
	}
	stack := append([]string{r.dir}, r.dirsReversed()...)
	if from == '-' {
		n = len(stack) - 1 - n
	}
	if n < 0 || n >= len(stack) {
		return ""
	}
	return stack[n]
}

// dirsReversed is the pushd stack, most recent first.
func (r *Runner) dirsReversed() []string {
	out := make([]string, len(r.dirs))
	for i, d := range r.dirs {
		out[len(r.dirs)-1-i] = d
	}
	return out
}
