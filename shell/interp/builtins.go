package interp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// builtinFunc runs a builtin; decls holds the NAME=(...) arguments of
// declaration builtins by argument index.
type builtinFunc func(r *Runner, ctx context.Context, args []string, decls map[int]*declArg) int

// builtins is the one registry of the shell's builtins (type, command -v,
// enable and help read it too).
var builtins map[string]builtinFunc

// usages are bash's one-line usage texts, printed after option errors.
var usages = map[string]string{
	"read":      "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]",
	"declare":   "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
	"typeset":   "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
	"export":    "export [-fn] [name[=value] ...] or export -p",
	"readonly":  "readonly [-aAf] [name[=value] ...] or readonly -p",
	"local":     "local [option] name[=value] ...",
	"unset":     "unset [-f] [-v] [-n] [name ...]",
	"set":       "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]",
	"shopt":     "shopt [-pqsu] [-o] [optname ...]",
	"cd":        "cd [-L|[-P [-e]] [-@]] [dir]",
	"pwd":       "pwd [-LP]",
	"pushd":     "pushd [-n] [+N | -N | dir]",
	"popd":      "popd [-n] [+N | -N]",
	"dirs":      "dirs [-clpv] [+N] [-N]",
	"trap":      "trap [-lp] [[arg] signal_spec ...]",
	"kill":      "kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
	"wait":      "wait [-fn] [-p var] [id ...]",
	"jobs":      "jobs [-lnprs] [jobspec ...] or jobs -x command [args]",
	"type":      "type [-afptP] name [name ...]",
	"hash":      "hash [-lr] [-p pathname] [-dt] [name ...]",
	"command":   "command [-pVv] command [arg ...]",
	"builtin":   "builtin [shell-builtin [arg ...]]",
	"echo":      "echo [-neE] [arg ...]",
	"printf":    "printf [-v var] format [arguments]",
	"getopts":   "getopts optstring name [arg ...]",
	"mapfile":   "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
	"readarray": "readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
	"alias":     "alias [-p] [name[=value] ... ]",
	"unalias":   "unalias [-a] name [name ...]",
	"umask":     "umask [-p] [-S] [mode]",
	"ulimit":    "ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]",
	"let":       "let arg [arg ...]",
	"eval":      "eval [arg ...]",
	"source":    "source filename [arguments]",
	".":         ". filename [arguments]",
	"exec":      "exec [-cl] [-a name] [command [argument ...]] [redirection ...]",
	"exit":      "exit [n]",
	"return":    "return [n]",
	"shift":     "shift [n]",
	"break":     "break [n]",
	"continue":  "continue [n]",
	"caller":    "caller [expr]",
	"enable":    "enable [-a] [-dnps] [-f filename] [name ...]",
	"help":      "help [-dms] [pattern ...]",
	"times":     "times",
	"disown":    "disown [-h] [-ar] [jobspec ... | pid ...]",
	"fg":        "fg [job_spec]",
	"bg":        "bg [job_spec ...]",
	"history":   "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]",
	"test":      "test [expr]",
	"logout":    "logout [n]",
	"suspend":   "suspend [-f]",
	"compgen":   "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]",
	"complete":  "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
	"bind":      "bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
	"fc":        "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]",
}

func init() {
	builtins = map[string]builtinFunc{
		":":        func(*Runner, context.Context, []string, map[int]*declArg) int { return 0 },
		"true":     func(*Runner, context.Context, []string, map[int]*declArg) int { return 0 },
		"false":    func(*Runner, context.Context, []string, map[int]*declArg) int { return 1 },
		"echo":     builtinEcho,
		"printf":   builtinPrintf,
		"exit":     builtinExit,
		"logout":   builtinExit,
		"return":   builtinReturn,
		"break":    builtinBreak,
		"continue": builtinBreak,
		"shift":    builtinShift,
		"eval":     builtinEval,
		"source":   builtinSource,
		".":        builtinSource,
		"exec":     builtinExec,
		"command":  builtinCommand,
		"builtin":  builtinBuiltin,
		"enable":   builtinEnable,
		"let":      builtinLet,
		"test": func(r *Runner, _ context.Context, a []string, _ map[int]*declArg) int {
			return r.testBuiltin("test", a[1:])
		},
		"[": func(r *Runner, _ context.Context, a []string, _ map[int]*declArg) int {
			return r.testBuiltin("[", a[1:])
		},
		"times":     builtinTimes,
		"help":      builtinHelp,
		"caller":    builtinCaller,
		"declare":   builtinDeclare,
		"typeset":   builtinDeclare,
		"local":     builtinDeclare,
		"export":    builtinExport,
		"readonly":  builtinExport,
		"unset":     builtinUnset,
		"set":       builtinSet,
		"shopt":     builtinShopt,
		"getopts":   builtinGetopts,
		"read":      builtinRead,
		"mapfile":   builtinMapfile,
		"readarray": builtinMapfile,
		"cd":        builtinCd,
		"pwd":       builtinPwd,
		"pushd":     builtinPushd,
		"popd":      builtinPopd,
		"dirs":      builtinDirs,
		"umask":     builtinUmask,
		"ulimit":    builtinUlimit,
		"trap":      builtinTrap,
		"kill":      builtinKill,
		"wait":      builtinWait,
		"jobs":      builtinJobs,
		"disown":    builtinDisown,
		"fg":        builtinNoJobControl,
		"bg":        builtinNoJobControl,
		"suspend":   builtinSuspend,
		"alias":     builtinAlias,
		"unalias":   builtinUnalias,
		"type":      builtinType,
		"hash":      builtinHash,
		"history":   builtinHistory,
		"fc":        builtinFc,
		"bind":      builtinInteractiveOnly,
		"complete":  builtinComplete,
		"compgen":   builtinCompgen,
		"compopt":   builtinComplete,
	}
}

// IsBuiltin reports whether name is a shell builtin.
func IsBuiltin(name string) bool {
	_, ok := builtins[name]
	return ok
}

// BuiltinNames lists the builtins, sorted.
func BuiltinNames() []string {
	out := make([]string, 0, len(builtins))
	for k := range builtins {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// specialBuiltins are POSIX's special builtins.
var specialBuiltins = map[string]bool{
	"break": true, ":": true, ".": true, "continue": true, "eval": true, "exec": true, "exit": true,
	"export": true, "readonly": true, "return": true, "set": true, "shift": true, "trap": true, "unset": true,
	"source": false, "times": true,
}

func (r *Runner) builtinEnabled(name string) bool { return !r.disabled[name] }

// usageError prints "bash: NAME: MSG" and the usage line: status 2.
func (r *Runner) usageError(name, msg string) int {
	r.errmsg(name + ": " + msg)
	if u, ok := usages[name]; ok {
		r.stderr(name + ": usage: " + u + "\n")
	}
	return 2
}

// opts parses a builtin's options: spec lists the letters, a ':' after a
// letter takes an argument. Parsing stops at "--", "-" or the first word
// that is not an option. ok is false after an error (reported).
type parsedOpts struct {
	set   map[byte]bool
	vals  map[byte]string
	order []byte
	plus  map[byte]bool     // +x forms (when allowPlus)
	multi map[byte][]string // every value of an option given more than once
}

func (r *Runner) getopt(name string, args []string, spec string, allowPlus bool) (parsedOpts, []string, bool) {
	o := parsedOpts{set: map[byte]bool{}, vals: map[byte]string{}, plus: map[byte]bool{}, multi: map[byte][]string{}}
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && !(allowPlus && a[0] == '+')) {
			break
		}
		plus := a[0] == '+'
		for j := 1; j < len(a); j++ {
			c := a[j]
			k := strings.IndexByte(spec, c)
			if k < 0 || c == ':' {
				sign := "-"
				if plus {
					sign = "+"
				}
				r.usageError(name, sign+string(c)+": invalid option")
				return o, nil, false
			}
			o.order = append(o.order, c)
			if plus {
				o.plus[c] = true
			} else {
				o.set[c] = true
			}
			if k+1 < len(spec) && spec[k+1] == ':' {
				val := a[j+1:]
				if val == "" {
					i++
					if i >= len(args) {
						r.usageError(name, "-"+string(c)+": option requires an argument")
						return o, nil, false
					}
					val = args[i]
				}
				o.vals[c] = val
				o.multi[c] = append(o.multi[c], val)
				break
			}
		}
		i++
	}
	return o, args[i:], true
}

// out writes a builtin's output to fd 1. A closed pipe ends quietly with
// 141 (the process would die of SIGPIPE); other failures are reported.
func (r *Runner) out(name, s string) int {
	if s == "" {
		return 0
	}
	f := r.fds.get(1)
	if f == nil {
		r.errmsg(name + ": write error: Bad file descriptor")
		return 1
	}
	if _, err := f.WriteString(s); err != nil {
		if isPipeErr(err) {
			if r.subLevel > 0 || r.inPipeline() {
				r.exit(141)
			}
			return 141
		}
		r.errmsg(name + ": write error: " + Strerror(errnoOf(err)))
		return 1
	}
	return 0
}

func (r *Runner) inPipeline() bool { return r.bashpid != r.pid }

func builtinEcho(r *Runner, _ context.Context, args []string, _ map[int]*declArg) int {
	args = args[1:]
	newline, escapes := true, r.shopt.xpgEcho
flags:
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		for _, c := range args[0][1:] {
			if c != 'n' && c != 'e' && c != 'E' {
				break flags
			}
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			s, stop := syntax.DecodeEscapes(a, syntax.EscEcho)
			b.WriteString(s)
			if stop {
				return r.out("echo", b.String())
			}
			continue
		}
		b.WriteString(a)
	}
	if newline {
		b.WriteByte('\n')
	}
	return r.out("echo", b.String())
}

func builtinPrintf(r *Runner, _ context.Context, args []string, _ map[int]*declArg) int {
	args = args[1:]
	varName := ""
	for len(args) > 0 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if args[0] == "-v" && len(args) > 1 {
			varName, args = args[1], args[2:]
			continue
		}
		if strings.HasPrefix(args[0], "-v") && len(args[0]) > 2 {
			varName, args = args[0][2:], args[1:]
			continue
		}
		if len(args[0]) > 1 && args[0][0] == '-' {
			return r.usageError("printf", args[0][:2]+": invalid option")
		}
		break
	}
	if len(args) == 0 {
		r.stderr("printf: usage: " + usages["printf"] + "\n")
		return 2
	}
	out, problems, notes := bashPrintf(args[0], args[1:], &printfEnv{
		now: r.cfg.Now(), start: r.start,
		format: func(layout string, t time.Time) string { return strftime(layout, r.localTime(t)) },
		setCount: func(name string, n int) error {
			if !validVarRef(name) {
				return fmt.Errorf("`%s': not a valid identifier", name)
			}
			return r.setVar(name, strconv.Itoa(n), 0)
		},
	})
	st := 0
	for _, n := range notes {
		r.errmsg("printf: " + n)
	}
	for _, p := range problems {
		r.errmsg("printf: " + p)
		st = 1
	}
	if varName != "" {
		if !validVarRef(varName) {
			r.errmsg("printf: `" + varName + "': not a valid identifier")
			return 2
		}
		if err := r.setVar(varName, out, 0); err != nil {
			r.errmsg(err.Error())
			return 1
		}
		return st
	}
	if w := r.out("printf", out); w != 0 {
		return w
	}
	return st
}

// validVarRef accepts NAME or NAME[subscript].
func validVarRef(v string) bool {
	if base, _, ok := splitSubscript(v); ok {
		return syntax.ValidName(base)
	}
	return syntax.ValidName(v)
}

// numArg parses the numeric argument of exit/return/shift/break.
func (r *Runner) numArg(name, s string) (int, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		r.errmsg(name + ": " + s + ": numeric argument required")
		return 0, false
	}
	return int(n), true
}

func builtinExit(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	st := r.status
	if len(args) > 1 {
		a := args[1]
		if a == "--" && len(args) > 2 {
			a = args[2]
		}
		n, ok := r.numArg(args[0], a)
		if !ok {
			r.exit(2)
			return 2
		}
		if len(args) > 2 && args[1] != "--" {
			// bash complains, and a script still ends (with 1)
			r.errmsg(args[0] + ": too many arguments")
			if !r.interactive {
				r.exit(1)
			}
			return 1
		}
		st = n
	}
	if args[0] == "logout" && !r.interactive {
		r.errmsg("logout: not login shell: use `exit'")
		return 1
	}
	r.exit(st)
	return st & 0xff
}

func builtinReturn(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	if len(r.frames) == 0 && r.sourceDepth == 0 {
		r.errmsg("return: can only `return' from a function or sourced script")
		if r.opts.posix && !r.interactive && r.viaCommand == 0 {
			r.exit(2) // (a special builtin's error ends a POSIX shell)
		}
		return 2
	}
	st := r.status
	if len(args) > 1 {
		n, ok := r.numArg("return", args[1])
		if !ok {
			st = 2
		} else {
			st = n & 0xff
		}
		if len(args) > 2 {
			r.errmsg("return: too many arguments")
			return 1
		}
	}
	r.flow = flowReturn
	r.status = st
	return st
}

func builtinBreak(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	n := 1
	if r.loops == 0 {
		r.errmsg(args[0] + ": only meaningful in a `for', `while', or `until' loop")
		return 0
	}
	if len(args) > 1 {
		v, ok := r.numArg(args[0], args[1])
		if !ok {
			// bash jumps to the top level: a script ends with 128
			if !r.interactive {
				r.exit(128)
			} else {
				r.flow = flowAbort
			}
			return 128
		}
		if v < 1 {
			// out of range: every enclosing loop ends
			r.errmsg(args[0] + ": " + args[1] + ": loop count out of range")
			r.flow, r.flowN = flowBreak, r.loops
			return 1
		}
		n = v
	}
	if n > r.loops {
		n = r.loops
	}
	if args[0] == "break" {
		r.flow = flowBreak
	} else {
		r.flow = flowContinue
	}
	r.flowN = n
	return 0
}

func builtinShift(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	n := 1
	if len(args) > 2 {
		r.errmsg("shift: too many arguments")
		return 1
	}
	if len(args) > 1 {
		v, ok := r.numArg("shift", args[1])
		if !ok {
			return 1
		}
		if v < 0 {
			r.errmsg("shift: " + args[1] + ": shift count out of range")
			return 1
		}
		n = v
	}
	if n > len(r.params) {
		if r.shopt.shiftVerbose || r.opts.posix {
			r.errmsg("shift: " + strconv.Itoa(n) + ": shift count out of range")
		}
		return 1
	}
	r.params = r.params[n:]
	return 0
}

// noOptions takes a builtin without options (eval, ., source): a leading
// "--" goes, an option is a usage error (reported; ok false).
func (r *Runner) noOptions(args []string) ([]string, bool) {
	switch {
	case len(args) > 1 && args[1] == "--":
		return append(args[:1:1], args[2:]...), true
	case len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-':
		r.usageError(args[0], args[1][:2]+": invalid option")
		return nil, false
	}
	return args, true
}

func builtinEval(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	args, ok := r.noOptions(args)
	if !ok {
		return 2
	}
	src := strings.Join(args[1:], " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	if r.depth >= maxDepth {
		r.errmsg("eval: maximum function nesting level exceeded (recursion too deep for the sandbox)")
		r.exit(1)
		return 1
	}
	r.status = 0
	r.inEval++
	r.traceNest++
	r.runSource(ctx, src, r.line, true)
	r.traceNest--
	r.inEval--
	return r.status
}

// findSource resolves a sourced file like bash: a name without a slash is
// searched in PATH (sourcepath), then the current directory.
func (r *Runner) findSource(name string) (string, error) {
	if !strings.Contains(name, "/") && r.shopt.sourcepath {
		path, _ := r.getVar("PATH")
		for _, d := range strings.Split(path, ":") {
			if d == "" {
				d = "."
			}
			p := r.abs(d + "/" + name)
			if fi, err := r.cfg.FS.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
		}
	}
	p := r.abs(name)
	fi, err := r.testStat(p, true) // knows /dev/fd/N
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", syscall.EISDIR
	}
	return p, nil
}

func builtinSource(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	args, ok := r.noOptions(args)
	if !ok {
		return 2
	}
	if len(args) < 2 {
		r.errmsg(args[0] + ": filename argument required")
		r.stderr(args[0] + ": usage: " + usages[args[0]] + "\n")
		return 2
	}
	name := args[1]
	p, err := r.findSource(name)
	if err != nil {
		if r.opts.posix && errnoOf(err) == syscall.ENOENT {
			// POSIX: a special builtin's error ends the shell, unless
			// `command` ran it
			if strings.Contains(name, "/") {
				r.errmsg(name + ": " + Strerror(syscall.ENOENT))
			} else {
				r.errmsg(args[0] + ": " + name + ": file not found")
			}
			if !r.interactive && r.viaCommand == 0 {
				r.exit(1)
			}
			return 1
		}
		r.errmsg(name + ": " + Strerror(errnoOf(err)))
		return 1
	}
	data, err := r.readFile(p)
	if err != nil {
		r.errmsg(name + ": " + Strerror(errnoOf(err)))
		return 1
	}
	if r.depth >= maxDepth {
		r.errmsg(args[0] + ": maximum function nesting level exceeded (recursion too deep for the sandbox)")
		r.exit(1)
		return 1
	}
	savedParams, setGen := r.params, r.paramsSet
	if len(args) > 2 {
		r.params = args[2:]
	}
	savedSrc := r.sourceName
	r.sourceName = name
	r.sourceDepth++
	r.calls = append(r.calls, callEntry{"source", name, r.line})
	defer func() { r.calls = r.calls[:len(r.calls)-1] }()
	r.status = 0
	r.traceNest++
	retTrap, _ := r.traps.get("RETURN")
	savedEval := r.inEval // (a file sourced from an eval is not the eval's text)
	r.inEval = 0
	r.runSource(ctx, string(data), 1, false)
	r.inEval = savedEval
	r.traceNest--
	if t, ok := r.traps.get("RETURN"); ok && t != "" && r.inTrap == 0 && (len(r.frames) == 0 || r.opts.functrace || r.shopt.extdebug || t != retTrap) {
		// a sourced file's end runs the RETURN trap, as a function's does
		st := r.status
		r.runTrap(ctx, "RETURN", t)
		r.status = st
	}
	r.sourceDepth--
	r.sourceName = savedSrc
	if len(args) > 2 && r.paramsSet == setGen {
		r.params = savedParams // (what `set` made in the file stays, as bash's)
	}
	if r.flow == flowReturn {
		r.flow = flowNone
	}
	return r.status
}

func builtinExec(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("exec", args[1:], "cla:", false)
	if !ok {
		return 2
	}
	if len(rest) == 0 {
		return 0 // redirections were made permanent by the caller
	}
	argv := append([]string(nil), rest...)
	env := r.environ()
	if o.set['c'] {
		env = nil
	}
	// exec runs programs only (no builtins, no functions), found as bash
	// finds them, and reports a failure in its own words
	name := argv[0]
	p, err := r.lookPath(name)
	if err != nil {
		errno := errnoOf(err)
		st := 126
		switch {
		case errno == syscall.ENOENT && !strings.Contains(name, "/"):
			r.errmsg("exec: " + name + ": not found")
			st = 127
		case errno == syscall.ENOENT:
			r.errmsg(name + ": " + Strerror(errno))
			st = 127
		default:
			r.errmsg(name + ": " + Strerror(errno))
			r.errmsg("exec: " + name + ": cannot execute: " + Strerror(errno))
		}
		if !r.interactive && !r.shopt.execfail {
			r.exit(st)
		}
		return st
	}
	if a, ok := o.vals['a']; ok {
		argv[0] = a
	}
	if o.set['l'] {
		argv[0] = "-" + argv[0] // (a login shell's $0, as login(1) starts it)
	}
	st := r.runProgram(ctx, p, argv, env)
	r.exit(st)
	return st
}

// StandardPath is the PATH `command -p` searches (glibc's _CS_PATH).
const StandardPath = "/bin:/usr/bin"

func builtinCommand(r *Runner, ctx context.Context, args []string, decls map[int]*declArg) int {
	o, rest, ok := r.getopt("command", args[1:], "pvV", false)
	if !ok {
		return 2
	}
	if len(rest) == 0 {
		return 0
	}
	if o.set['v'] || o.set['V'] {
		st := 0
		for _, name := range rest {
			if !r.describe(name, o.set['V'], "command") {
				st = 1
			}
		}
		return st
	}
	if b, ok := builtins[rest[0]]; ok && r.builtinEnabled(rest[0]) {
		r.viaCommand++
		defer func() { r.viaCommand-- }()
		return b(r, ctx, rest, nil)
	}
	env := r.environ()
	if o.set['p'] && !strings.Contains(rest[0], "/") && r.cfg.LookPath != nil {
		// found in the standard PATH; the program still gets the shell's
		p, err := r.cfg.LookPath(mergeEnv(env, []string{"PATH=" + StandardPath}), r.dir, rest[0])
		if err != nil {
			r.errmsg(rest[0] + ": command not found")
			return 127
		}
		return r.runProgram(ctx, p, rest, env)
	}
	return r.execProgram(ctx, rest, env)
}

func builtinBuiltin(r *Runner, ctx context.Context, args []string, decls map[int]*declArg) int {
	if len(args) < 2 {
		return 0
	}
	b, ok := builtins[args[1]]
	if !ok {
		r.errmsg("builtin: " + args[1] + ": not a shell builtin")
		return 1
	}
	shifted := map[int]*declArg{}
	for i, d := range decls {
		shifted[i-1] = d
	}
	return b(r, ctx, args[1:], shifted)
}

func builtinEnable(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("enable", args[1:], "adnpsf:", false)
	if !ok {
		return 2
	}
	if _, ok := o.vals['f']; ok {
		r.errmsg("enable: cannot open shared object: loadable builtins are not supported")
		return 1
	}
	if len(rest) == 0 {
		var b strings.Builder
		for _, n := range BuiltinNames() {
			dis := r.disabled[n]
			if o.set['n'] && !dis || !o.set['n'] && !o.set['a'] && dis {
				continue
			}
			if o.set['s'] && !specialBuiltins[n] && n != "source" { // (bash flags source special too)
				continue
			}
			if dis {
				b.WriteString("enable -n " + n + "\n")
			} else {
				b.WriteString("enable " + n + "\n")
			}
		}
		return r.out("enable", b.String())
	}
	st := 0
	for _, n := range rest {
		if _, ok := builtins[n]; !ok {
			r.errmsg("enable: " + n + ": not a shell builtin")
			st = 1
			continue
		}
		if r.disabled == nil {
			r.disabled = map[string]bool{}
		}
		if o.set['n'] {
			r.disabled[n] = true
		} else {
			delete(r.disabled, n)
		}
	}
	return st
}

func builtinLet(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	if len(args) < 2 {
		r.errmsg("let: expression expected")
		return 1
	}
	var v int64
	for _, a := range args[1:] {
		n, err := r.arithExpr(a)
		if err != nil {
			var fe *fatalError
			if errors.As(err, &fe) {
				r.errmsg(fe.msg)
				return 1
			}
			r.errmsg("let: " + err.Error())
			return 1
		}
		v = n
	}
	if v == 0 {
		return 1
	}
	return 0
}

func builtinTimes(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	return r.out("times", "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
}

func builtinHelp(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("help", args[1:], "dms", false)
	if !ok {
		return 2
	}
	if len(rest) == 0 {
		var b strings.Builder
		b.WriteString("GNU bash, version " + r.cfg.Version + " (wasm32-wasmsand)\n")
		b.WriteString("These shell commands are defined internally.  Type `help' to see this list.\n")
		b.WriteString("Type `help name' to find out more about the function `name'.\n\n")
		for _, n := range BuiltinNames() {
			if u, ok := usages[n]; ok {
				b.WriteString(" " + u + "\n")
			} else {
				b.WriteString(" " + n + "\n")
			}
		}
		if r.fds.get(1) == nil {
			return 0 // (bash's list says nothing of a closed stdout; help NAME does)
		}
		return r.out("help", b.String())
	}
	st := 1
	var b strings.Builder
	for _, pat := range rest {
		// as bash: names equal to or matching the pattern, else (bash-4.2's
		// way) names it begins
		var names []string
		for pass := 1; pass <= 2 && len(names) == 0; pass++ {
			for _, n := range BuiltinNames() {
				if pass == 1 && (n == pat || pattern.Compile(pat, pattern.ExtGlob).Match(n)) ||
					pass == 2 && strings.HasPrefix(n, pat) {
					names = append(names, n)
				}
			}
		}
		for _, n := range names {
			st = 0
			u, ok := usages[n]
			if !ok {
				u = n
			}
			switch {
			case o.set['s']:
				b.WriteString(n + ": " + u + "\n")
			case o.set['d']:
				b.WriteString(n + " - " + n + "\n")
			default:
				b.WriteString(n + ": " + u + "\n")
			}
		}
	}
	if st != 0 {
		r.errmsg("help: no help topics match `" + strings.Join(rest, " ") + "'.  Try `help help' or `man -k " + strings.Join(rest, " ") + "' or `info " + strings.Join(rest, " ") + "'.")
		return 1
	}
	return r.out("help", b.String())
}

func builtinCaller(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	n := 0
	if len(args) > 1 {
		v, ok := r.numArg("caller", args[1])
		if !ok || v < 0 {
			return 1
		}
		n = v
	}
	names, srcs, lines := r.funcnames(), r.bashSources(), r.bashLinenos()
	// entry n is the call being asked about; n+1 is its caller
	if n >= len(lines) || n+1 >= len(names) && !(n+1 < len(srcs)) {
		return 1
	}
	caller, src := "main", ""
	if n+1 < len(names) {
		caller = names[n+1]
	}
	if n+1 < len(srcs) {
		src = srcs[n+1]
	} else {
		return 1
	}
	if len(args) == 1 {
		return r.out("caller", fmt.Sprintf("%s %s\n", lines[n], src))
	}
	return r.out("caller", fmt.Sprintf("%s %s %s\n", lines[n], caller, src))
}

func builtinInteractiveOnly(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	if args[0] == "bind" && !r.interactive {
		r.errmsg("bind: warning: line editing not enabled")
		return 0
	}
	return 0
}

func builtinNoJobControl(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	r.errmsg(args[0] + ": no job control")
	return 1
}

func builtinSuspend(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	r.errmsg("suspend: cannot suspend: no job control in this shell")
	return 1
}

func builtinHistory(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("history", args[1:], "cd:anrwps", false)
	if !ok {
		return 2
	}
	if o.set['c'] {
		r.hist = nil
		return 0
	}
	if o.set['s'] {
		r.hist = append(r.hist, strings.Join(rest, " "))
		return 0
	}
	if o.set['p'] {
		return r.out("history", strings.Join(rest, "\n")+"\n")
	}
	var b strings.Builder
	for i, h := range r.hist {
		fmt.Fprintf(&b, "%5d  %s\n", i+1, h)
	}
	return r.out("history", b.String())
}

func builtinFc(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	r.errmsg("fc: history specification out of range")
	return 1
}

func builtinComplete(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	return 0
}
