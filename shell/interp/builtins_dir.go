package interp

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// DefaultUmask is the mask a shell starts with, as under a login shell.
const DefaultUmask = 0o022

// logicalJoin resolves dir against cur without following symlinks: . and
// .. are removed lexically, as cd -L does.
func logicalJoin(cur, dir string) string {
	if !strings.HasPrefix(dir, "/") {
		dir = cur + "/" + dir
	}
	return path.Clean(dir)
}

// chdir changes the shell's directory (logically or physically) and
// updates PWD and OLDPWD.
func (r *Runner) chdir(dir string, physical bool) error {
	target := logicalJoin(r.dir, dir)
	if physical {
		// the kernel's way: ".." after a symlink is its target's parent
		target = dir
		if !strings.HasPrefix(dir, "/") {
			target = strings.TrimSuffix(r.dir, "/") + "/" + dir
		}
	}
	fi, err := r.cfg.FS.Stat(target)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return errNotDir
	}
	if !r.permits(fi, 1) {
		return errAccess
	}
	if physical {
		if p, err := r.cfg.FS.Realpath(target); err == nil {
			target = p
		}
	}
	old := r.dir
	if pwd, ok := r.getVar("PWD"); ok {
		old = pwd
	}
	r.dir = target
	_ = r.setVar("OLDPWD", old, setForce)
	_ = r.setVar("PWD", target, setForce)
	return nil
}

type cdError string

func (e cdError) Error() string { return string(e) }

const (
	errNotDir = cdError("Not a directory")
	errAccess = cdError("Permission denied")
)

func cdErrText(err error) string {
	if ce, ok := err.(cdError); ok {
		return string(ce)
	}
	return Strerror(errnoOf(err))
}

// SetDir changes the directory for the host (a session's run option).
// It is where the shell starts, not a cd: OLDPWD is left alone.
func (r *Runner) SetDir(dir string) error {
	old, had := r.getVar("OLDPWD")
	if err := r.chdir(dir, false); err != nil {
		return err
	}
	if had {
		_ = r.setVar("OLDPWD", old, setForce)
	} else if v := r.vars.m["OLDPWD"]; v != nil {
		_ = r.unsetVar("OLDPWD", false)
		r.mutVars()["OLDPWD"] = &Var{attrs: attrExport}
	}
	return nil
}

func builtinCd(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("cd", args[1:], "LPe@", false)
	if !ok {
		return 2
	}
	physical := r.opts.physical
	for _, c := range o.order {
		switch c {
		case 'P':
			physical = true
		case 'L':
			physical = false
		}
	}
	if len(rest) > 1 {
		r.errmsg("cd: too many arguments")
		return 1
	}
	var dir string
	printDir := false
	switch {
	case len(rest) == 0:
		h, ok := r.getVar("HOME")
		if !ok {
			r.errmsg("cd: HOME not set")
			return 1
		}
		if h == "" {
			return 0
		}
		dir = h
	case rest[0] == "-":
		d, ok := r.getVar("OLDPWD")
		if !ok || d == "" {
			r.errmsg("cd: OLDPWD not set")
			return 1
		}
		dir, printDir = d, true
	default:
		dir = rest[0]
	}
	if dir == "" {
		return 0
	}
	if cdpath, ok := r.getVar("CDPATH"); ok && cdpath != "" && !strings.HasPrefix(dir, "/") &&
		!strings.HasPrefix(dir, "./") && !strings.HasPrefix(dir, "../") && dir != "." && dir != ".." {
		for _, base := range strings.Split(cdpath, ":") {
			cand := dir
			if base != "" {
				cand = strings.TrimSuffix(base, "/") + "/" + dir
			}
			if fi, err := r.stat(cand); err == nil && fi.IsDir() {
				if err := r.chdir(cand, physical); err == nil {
					if base != "" {
						return r.out("cd", r.dir+"\n")
					}
					return 0
				}
			}
		}
	}
	if err := r.chdir(dir, physical); err != nil {
		r.errmsg("cd: " + dir + ": " + cdErrText(err))
		return 1
	}
	if printDir {
		return r.out("cd", r.dir+"\n")
	}
	return 0
}

func builtinPwd(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, _, ok := r.getopt("pwd", args[1:], "LP", false)
	if !ok {
		return 2
	}
	physical := r.opts.physical
	for _, c := range o.order {
		physical = c == 'P'
	}
	d := r.dir
	if physical {
		if p, err := r.cfg.FS.Realpath(d); err == nil {
			d = p
		}
	}
	return r.out("pwd", d+"\n")
}

// dirsLine is the stack as dirs prints it (~ for HOME unless long).
func (r *Runner) dirsList(long bool) []string {
	list := append([]string{r.dir}, r.dirsReversed()...)
	if long {
		return list
	}
	home, _ := r.getVar("HOME")
	for i, d := range list {
		if home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
			list[i] = "~" + d[len(home):]
		}
	}
	return list
}

func (r *Runner) printDirs(long, perLine, numbered bool) int {
	list := r.dirsList(long)
	var b strings.Builder
	switch {
	case numbered:
		for i, d := range list {
			fmt.Fprintf(&b, "%2d  %s\n", i, d)
		}
	case perLine:
		for _, d := range list {
			b.WriteString(d + "\n")
		}
	default:
		b.WriteString(strings.Join(list, " ") + "\n")
	}
	return r.out("dirs", b.String())
}

func builtinDirs(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	long, perLine, numbered, clear := false, false, false, false
	var idx string
	for _, a := range args[1:] {
		switch {
		case a == "-c":
			clear = true
		case a == "-l":
			long = true
		case a == "-p":
			perLine = true
		case a == "-v":
			numbered = true
		case (strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-")) && len(a) > 1 && isDigits(a[1:]):
			idx = a
		case strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-"):
			return r.usageError("dirs", a+": invalid number")
		default:
			return r.usageError("dirs", a+": invalid option")
		}
	}
	if clear {
		r.dirs = nil
		return 0
	}
	if idx != "" {
		if len(r.dirs) == 0 {
			r.errmsg("dirs: directory stack empty")
			return 1
		}
		list := r.dirsList(long)
		n, _ := strconv.Atoi(idx[1:])
		if idx[0] == '-' {
			n = len(list) - 1 - n
		}
		if n < 0 || n >= len(list) {
			r.errmsg("dirs: " + idx[1:] + ": directory stack index out of range")
			return 1
		}
		if numbered {
			return r.out("dirs", fmt.Sprintf("%2d  %s\n", n, list[n])) // (dirs -v N: with its index)
		}
		return r.out("dirs", list[n]+"\n")
	}
	return r.printDirs(long, perLine, numbered)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func builtinPushd(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	args = args[1:]
	noCd := false
	if len(args) > 0 && args[0] == "-n" {
		noCd, args = true, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && (args[0][0] == '+' || args[0][0] == '-') && !isDigits(args[0][1:]) {
		// (-m or +x: not a number, and no directory before --)
		return r.usageError("pushd", args[0]+": invalid number")
	}
	if len(args) == 0 {
		if len(r.dirs) == 0 {
			r.errmsg("pushd: no other directory")
			return 1
		}
		top := r.dirs[len(r.dirs)-1]
		cur := r.dir
		if !noCd {
			if err := r.chdir(top, false); err != nil {
				r.errmsg("pushd: " + top + ": " + cdErrText(err))
				return 1
			}
		}
		r.dirs[len(r.dirs)-1] = cur
		return r.printDirs(false, false, false)
	}
	a := args[0]
	if (a[0] == '+' || a[0] == '-') && len(a) > 1 && isDigits(a[1:]) {
		if len(r.dirs) == 0 {
			r.errmsg("pushd: directory stack empty")
			return 1
		}
		list := append([]string{r.dir}, r.dirsReversed()...)
		n, _ := strconv.Atoi(a[1:])
		if a[0] == '-' {
			n = len(list) - 1 - n
		}
		if n < 0 || n >= len(list) {
			r.errmsg("pushd: " + a + ": directory stack index out of range")
			return 1
		}
		rot := append(list[n:], list[:n]...)
		if noCd {
			// (-n: the rotation without its cd: the rotated top gives way
			// to the current directory, and nothing is printed, as bash's)
			r.dirs = nil
			for i := len(rot) - 1; i >= 1; i-- {
				r.dirs = append(r.dirs, rot[i])
			}
			return 0
		}
		if err := r.chdir(rot[0], false); err != nil {
			r.errmsg("pushd: " + rot[0] + ": " + cdErrText(err))
			return 1
		}
		r.dirs = nil
		for i := len(rot) - 1; i >= 1; i-- {
			r.dirs = append(r.dirs, rot[i])
		}
		return r.printDirs(false, false, false)
	}
	cur := r.dir
	if !noCd {
		if err := r.chdir(a, false); err != nil {
			r.errmsg("pushd: " + a + ": " + cdErrText(err))
			return 1
		}
		r.dirs = append(r.dirs, cur)
	} else {
		r.dirs = append(r.dirs, a) // kept as written
	}
	return r.printDirs(false, false, false)
}

func builtinPopd(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	args = args[1:]
	noCd := false
	if len(args) > 0 && args[0] == "-n" {
		noCd, args = true, args[1:]
	}
	if len(args) > 0 && !((args[0][0] == '+' || args[0][0] == '-') && len(args[0]) > 1 && isDigits(args[0][1:])) {
		// (the arguments are checked before the stack)
		if args[0][0] == '+' || args[0][0] == '-' {
			return r.usageError("popd", args[0]+": invalid number")
		}
		return r.usageError("popd", args[0]+": invalid argument")
	}
	if len(r.dirs) == 0 {
		r.errmsg("popd: directory stack empty")
		return 1
	}
	if len(args) > 0 {
		a := args[0]
		if (a[0] == '+' || a[0] == '-') && len(a) > 1 && isDigits(a[1:]) {
			list := append([]string{r.dir}, r.dirsReversed()...)
			n, _ := strconv.Atoi(a[1:])
			if a[0] == '-' {
				n = len(list) - 1 - n
			}
			if n < 0 || n >= len(list) {
				r.errmsg("popd: " + a + ": directory stack index out of range")
				return 1
			}
			if n == 0 {
				return builtinPopd(r, ctx, []string{"popd"}, nil)
			}
			list = append(list[:n], list[n+1:]...)
			r.dirs = nil
			for i := len(list) - 1; i >= 1; i-- {
				r.dirs = append(r.dirs, list[i])
			}
			return r.printDirs(false, false, false)
		}
		if a[0] == '+' || a[0] == '-' {
			return r.usageError("popd", a+": invalid number")
		}
		return r.usageError("popd", a+": invalid argument")
	}
	top := r.dirs[len(r.dirs)-1]
	if !noCd {
		if err := r.chdir(top, false); err != nil {
			r.errmsg("popd: " + top + ": " + cdErrText(err))
			return 1
		}
	}
	r.dirs = r.dirs[:len(r.dirs)-1]
	return r.printDirs(false, false, false)
}

func builtinUmask(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("umask", args[1:], "Sp", false)
	if !ok {
		return 2
	}
	symbolic, reusable := o.set['S'], o.set['p']
	cur := r.umask
	if len(rest) == 0 {
		out := fmt.Sprintf("%04o", cur)
		if symbolic {
			out = symbolicUmask(cur)
		}
		if reusable {
			if symbolic {
				out = "-S " + out
			}
			out = "umask " + out
		}
		return r.out("umask", out+"\n")
	}
	mode := rest[0]
	if mode != "" && mode[0] >= '0' && mode[0] <= '9' {
		n, err := strconv.ParseUint(mode, 8, 32)
		if err != nil {
			r.errmsg("umask: " + mode + ": octal number out of range")
			return 1
		}
		r.umask = uint32(n) & 0o777
		return 0
	}
	perms, errMsg := applySymbolic(^cur&0o777, mode)
	if errMsg != "" {
		r.errmsg("umask: " + errMsg)
		return 1
	}
	r.umask = ^perms & 0o777
	if symbolic {
		return r.out("umask", symbolicUmask(r.umask)+"\n")
	}
	return 0
}

// symbolicUmask is `umask -S`: the permissions the mask leaves.
func symbolicUmask(mask uint32) string {
	perms := ^mask & 0o777
	var parts []string
	for i, who := range []string{"u", "g", "o"} {
		bits := perms >> (6 - 3*i) & 7
		p := who + "="
		for j, c := range "rwx" {
			if bits&(4>>j) != 0 {
				p += string(c)
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}

// applySymbolic applies a chmod-like mode ("u=rwx,g+w,o-r", "=r") to perms,
// as bash's umask does: no who letter means all.
func applySymbolic(perms uint32, mode string) (uint32, string) {
	for _, clause := range strings.Split(mode, ",") {
		var who uint32
		i := 0
		for ; i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0; i++ {
			who |= map[byte]uint32{'u': 0o700, 'g': 0o070, 'o': 0o007, 'a': 0o777}[clause[i]]
		}
		if who == 0 {
			who = 0o777
		}
		if i >= len(clause) || !strings.ContainsRune("+-=", rune(clause[i])) {
			c := ""
			if i < len(clause) {
				c = clause[i : i+1]
			}
			return 0, fmt.Sprintf("`%s': invalid symbolic mode operator", c)
		}
		for i < len(clause) {
			op := clause[i]
			i++
			var bits uint32
			for ; i < len(clause) && !strings.ContainsRune("+-=", rune(clause[i])); i++ {
				switch clause[i] {
				case 'r':
					bits |= 0o444
				case 'w':
					bits |= 0o222
				case 'x':
					bits |= 0o111
				default:
					return 0, fmt.Sprintf("`%c': invalid symbolic mode character", clause[i])
				}
			}
			switch op {
			case '+':
				perms |= bits & who
			case '-':
				perms &^= bits & who
			case '=':
				perms = perms&^who | bits&who
			}
		}
	}
	return perms, ""
}

// ulimits are the values ulimit reports (the sandbox enforces its own
// limits; these are what a script sees).
var ulimitTable = []struct {
	opt   byte
	label string
	unit  string
	def   string
}{
	{'R', "real-time non-blocking time", "(microseconds, -R)", "unlimited"},
	{'c', "core file size", "(blocks, -c)", "0"},
	{'d', "data seg size", "(kbytes, -d)", "unlimited"},
	{'e', "scheduling priority", "(-e)", "0"},
	{'f', "file size", "(blocks, -f)", "unlimited"},
	{'i', "pending signals", "(-i)", "63640"},
	{'l', "max locked memory", "(kbytes, -l)", "8192"},
	{'m', "max memory size", "(kbytes, -m)", "unlimited"},
	{'n', "open files", "(-n)", "1024"},
	{'p', "pipe size", "(512 bytes, -p)", "8"},
	{'q', "POSIX message queues", "(bytes, -q)", "819200"},
	{'r', "real-time priority", "(-r)", "0"},
	{'s', "stack size", "(kbytes, -s)", "8192"},
	{'t', "cpu time", "(seconds, -t)", "unlimited"},
	{'u', "max user processes", "(-u)", "63640"},
	{'v', "virtual memory", "(kbytes, -v)", "unlimited"},
	{'x', "file locks", "(-x)", "unlimited"},
}

func builtinUlimit(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("ulimit", args[1:], "SHabcdefiklmnpqrstuvxPRT", false)
	if !ok {
		return 2
	}
	if r.ulimits == nil {
		r.ulimits = map[byte]string{}
	}
	get := func(c byte) string {
		if v, ok := r.ulimits[c]; ok {
			return v
		}
		for _, e := range ulimitTable {
			if e.opt == c {
				return e.def
			}
		}
		return "unlimited"
	}
	if o.set['a'] {
		var b strings.Builder
		for _, e := range ulimitTable {
			fmt.Fprintf(&b, "%-20s %20s%s\n", e.label, e.unit+" ", get(e.opt))
		}
		return r.out("ulimit", b.String())
	}
	which := byte('f')
	for _, c := range o.order {
		if c != 'S' && c != 'H' {
			which = c
		}
	}
	if len(rest) == 0 {
		return r.out("ulimit", get(which)+"\n")
	}
	v := rest[0]
	if v != "unlimited" && v != "soft" && v != "hard" {
		if _, err := strconv.ParseUint(v, 10, 64); err != nil {
			r.errmsg("ulimit: " + v + ": invalid number")
			return 1
		}
	}
	r.ulimits[which] = v
	return 0
}
