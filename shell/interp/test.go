package interp

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/vfs"
)

// test and [ as bash 5.2 evaluates them (test.c): POSIX's rules by argument
// count up to four arguments, then an expression with ! ( ) -a -o. A usage
// error prints bash's message and gives status 2. mvdan.cc/sh's own builtin
// returns 0 or 1 for most of those errors (`test 5 -gt abc` is true there)
// and words them differently.

// testSyntaxError is a usage error: bash prints "bash: [: <msg>", status 2.
type testSyntaxError string

type tester struct {
	r    *Runner
	argv []string
	pos  int
	// bracket: this is [, whose argv past the end still holds "]" (bash
	// reads it there in one message).
	bracket bool
}

// testBuiltin runs test or [ (name) with its arguments.
func (r *Runner) testBuiltin(name string, args []string) (status int) {
	defer func() {
		if p := recover(); p != nil {
			msg, ok := p.(testSyntaxError)
			if !ok {
				panic(p)
			}
			r.errmsg(name + ": " + string(msg))
			status = 2
		}
	}()
	if name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			panic(testSyntaxError("missing `]'"))
		}
		args = args[:len(args)-1]
	}
	t := &tester{r: r, argv: args, bracket: name == "["}
	if !t.posix() {
		return 1
	}
	return 0
}

func (t *tester) arg(i int) string { return t.argv[i] }

func (t *tester) fail(format string, a ...any) {
	panic(testSyntaxError(fmt.Sprintf(format, a...)))
}

// posix is bash's posixtest: the meaning by argument count, then the check
// that every argument was used.
func (t *tester) posix() bool {
	var v bool
	switch n := len(t.argv); n {
	case 0:
		return false
	case 1:
		v, t.pos = t.arg(0) != "", 1
	case 2:
		v = t.two()
		t.pos = n
	case 3:
		v = t.three()
	case 4:
		switch {
		case t.arg(0) == "!":
			t.pos = 1
			v = !t.three()
			t.pos = n
		case t.arg(0) == "(" && t.arg(3) == ")":
			t.pos = 1
			v = t.two()
			t.pos = n
		default:
			v = t.expr()
		}
	default:
		v = t.expr()
	}
	if t.pos != len(t.argv) {
		if t.pos < len(t.argv) && strings.HasPrefix(t.arg(t.pos), "-") {
			t.fail("syntax error: `%s' unexpected", t.arg(t.pos))
		}
		t.fail("too many arguments")
	}
	return v
}

func (t *tester) two() bool {
	a, b := t.arg(t.pos), t.arg(t.pos+1)
	switch {
	case a == "!":
		t.pos += 2
		return b == ""
	case isUnaryOp(a):
		return t.unary()
	}
	t.fail("%s: unary operator expected", a)
	return false
}

func (t *tester) three() bool {
	a, op, c := t.arg(t.pos), t.arg(t.pos+1), t.arg(t.pos+2)
	switch {
	case isBinaryOp(op):
		return t.binary()
	case op == "-a" || op == "-o":
		t.pos += 3
		if op == "-a" {
			return a != "" && c != ""
		}
		return a != "" || c != ""
	case a == "!":
		t.pos++
		v := !t.two()
		t.pos = len(t.argv)
		return v
	case a == "(" && c == ")":
		t.pos += 3
		return op != ""
	}
	t.fail("%s: binary operator expected", op)
	return false
}

// advance moves past one argument; need says another must follow.
func (t *tester) advance(need bool) {
	t.pos++
	if need && t.pos >= len(t.argv) {
		t.fail("argument expected")
	}
}

// expr: or; or: and [-o or]; and: term [-a and]; term: ! term | ( expr ) |
// binary | unary | string.
func (t *tester) expr() bool {
	if t.pos >= len(t.argv) {
		t.fail("argument expected")
	}
	return t.or()
}

func (t *tester) or() bool {
	v := t.and()
	if t.pos < len(t.argv) && t.arg(t.pos) == "-o" {
		t.advance(false)
		w := t.or()
		return v || w
	}
	return v
}

func (t *tester) and() bool {
	v := t.term()
	if t.pos < len(t.argv) && t.arg(t.pos) == "-a" {
		t.advance(false)
		w := t.and()
		return v && w
	}
	return v
}

func (t *tester) term() bool {
	if t.pos >= len(t.argv) {
		t.fail("argument expected")
	}
	if t.arg(t.pos) == "!" {
		neg := false
		for t.pos < len(t.argv) && t.arg(t.pos) == "!" {
			t.advance(true)
			neg = !neg
		}
		return t.term() != neg
	}
	if t.arg(t.pos) == "(" {
		t.advance(true)
		v := t.expr()
		switch {
		case t.pos >= len(t.argv) && t.bracket:
			t.fail("`)' expected, found ]")
		case t.pos >= len(t.argv):
			t.fail("`)' expected")
		case t.arg(t.pos) != ")":
			t.fail("`)' expected, found %s", t.arg(t.pos))
		}
		t.advance(false)
		return v
	}
	if t.pos+3 <= len(t.argv) && isBinaryOp(t.arg(t.pos+1)) {
		return t.binary()
	}
	if t.pos+2 <= len(t.argv) && isUnaryOp(t.arg(t.pos)) {
		return t.unary()
	}
	v := t.arg(t.pos) != ""
	t.advance(false)
	return v
}

func isUnaryOp(op string) bool {
	return len(op) == 2 && op[0] == '-' && strings.IndexByte("abcdefghknoprstuvwxzGLNORS", op[1]) >= 0
}

func isBinaryOp(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

func (t *tester) unary() bool {
	op := t.arg(t.pos)
	if op == "-t" { // takes an optional fd (1 by default)
		t.advance(false)
		if t.pos < len(t.argv) {
			fd, ok := testNumber(t.arg(t.pos))
			if !ok {
				return false
			}
			t.advance(false)
			return t.isTerminal(fd)
		}
		return t.isTerminal(1)
	}
	t.advance(true)
	operand := t.arg(t.pos)
	t.advance(false)
	return t.unaryTest(op, operand)
}

func (t *tester) binary() bool {
	a, op, b := t.arg(t.pos), t.arg(t.pos+1), t.arg(t.pos+2)
	t.pos += 3
	switch op {
	case "=", "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case ">":
		return a > b
	case "-nt", "-ot":
		fa, ea := t.stat(a, true)
		fb, eb := t.stat(b, true)
		if op == "-ot" {
			fa, ea, fb, eb = fb, eb, fa, ea
		}
		switch {
		case ea != nil:
			return false
		case eb != nil:
			return true
		}
		return fa.ModTime().After(fb.ModTime())
	case "-ef":
		fa, ea := t.stat(a, true)
		fb, eb := t.stat(b, true)
		if ea != nil || eb != nil {
			return false
		}
		sa, sb := fa.Stat(), fb.Stat()
		return sa.Dev == sb.Dev && sa.Ino == sb.Ino
	}
	x, okx := testNumber(a)
	if !okx {
		t.fail("%s: integer expression expected", a)
	}
	y, oky := testNumber(b)
	if !oky {
		t.fail("%s: integer expression expected", b)
	}
	switch op {
	case "-eq":
		return x == y
	case "-ne":
		return x != y
	case "-lt":
		return x < y
	case "-le":
		return x <= y
	case "-gt":
		return x > y
	}
	return x >= y // -ge
}

// testNumber is bash's legal_number: decimal, optional sign, blanks around.
func testNumber(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.Trim(s, " \t\n\v\f\r"), 10, 64)
	return n, err == nil
}

func (t *tester) stat(name string, follow bool) (*vfs.FileInfo, error) {
	return t.r.testStat(name, follow)
}

func (r *Runner) testStat(name string, follow bool) (*vfs.FileInfo, error) {
	if name == "" {
		return nil, fs.ErrNotExist
	}
	switch name { // (links to /proc/self/fd/N on Linux)
	case "/dev/stdin":
		name = "/dev/fd/0"
	case "/dev/stdout":
		name = "/dev/fd/1"
	case "/dev/stderr":
		name = "/dev/fd/2"
	}
	if f, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		if n, err := strconv.Atoi(f); err == nil {
			of := r.fds.get(n)
			switch {
			case of == nil:
				return nil, fs.ErrNotExist
			case of.vf != nil && follow:
				return of.vf.Stat()
			case of.vf == nil && follow && r.isTerminal(n):
				return vfs.NewFileInfo(f, vfs.Stat{Mode: fs.ModeDevice | fs.ModeCharDevice | 0o620, Nlink: 1}), nil
			case of.vf == nil && follow: // a stream that is no file: a pipe, as the programs see it
				return vfs.NewFileInfo(f, vfs.Stat{Mode: fs.ModeNamedPipe | 0o600, Nlink: 1, Ino: of.PipeID()}), nil
			}
		}
	}
	abs := r.abs(name)
	if follow {
		return r.cfg.FS.Stat(abs)
	}
	return r.cfg.FS.Lstat(abs)
}

func (t *tester) unaryTest(op, x string) bool { return t.r.unaryTest(op, x) }

// unaryTest is a test / [[ ]] unary operator.
func (r *Runner) unaryTest(op, x string) bool {
	switch op {
	case "-z":
		return x == ""
	case "-n":
		return x != ""
	case "-v":
		return r.isSetVar(x)
	case "-R":
		v := r.vars.m[x]
		return v != nil && v.attrs&attrNameref != 0 && v.set
	case "-o":
		p := r.optByName(x)
		return p != nil && *p
	case "-t":
		n, ok := testNumber(x)
		return ok && r.isTerminal(int(n))
	case "-r", "-w", "-e", "-a":
		// /dev/fd/N and /dev/std*: whether the shell has that descriptor
		// open (bash asks fcntl, not the file system, whatever its mode)
		if n, ok := DevFD(x); ok {
			return r.fds.get(n) != nil
		}
	}
	fi, err := r.testStat(x, op != "-L" && op != "-h")
	if err != nil {
		return false
	}
	st := fi.Stat()
	m := st.Mode
	switch op {
	case "-a", "-e":
		return true
	case "-f":
		return m.IsRegular()
	case "-d":
		return m.IsDir()
	case "-L", "-h":
		return m&fs.ModeSymlink != 0
	case "-p":
		return m&fs.ModeNamedPipe != 0
	case "-S":
		return m&fs.ModeSocket != 0
	case "-b":
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
	case "-c":
		return m&fs.ModeCharDevice != 0
	case "-s":
		return st.Size > 0
	case "-u":
		return m&fs.ModeSetuid != 0
	case "-g":
		return m&fs.ModeSetgid != 0
	case "-k":
		return m&fs.ModeSticky != 0
	case "-r":
		return r.permits(fi, 4)
	case "-w":
		return r.permits(fi, 2)
	case "-x":
		return r.permits(fi, 1)
	case "-O":
		return int(st.Uid) == r.cfg.UID
	case "-G":
		return int(st.Gid) == r.cfg.GID
	case "-N":
		return !st.Atime.After(st.Mtime)
	}
	return false
}

// terminalFD is the fd that stands for /dev/tty opened with flag
// (vfs.TTYFDs). (The sandbox knows a run's terminal by its streams: a
// process whose streams are all redirected has none.)
func (r *Runner) terminalFD(flag int) (int, bool) {
	acc := flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR)
	for _, fd := range vfs.TTYFDs(acc != os.O_WRONLY, acc != os.O_RDONLY) {
		if r.isTerminal(fd) {
			return fd, true
		}
	}
	return 0, false
}

// isTerminal: -t fd is true for a stream that says it is a terminal.
func (t *tester) isTerminal(fd int64) bool { return t.r.isTerminal(int(fd)) }

func (r *Runner) isTerminal(fd int) bool {
	f := r.fds.get(fd)
	if f == nil {
		return false
	}
	var s any = f.w
	if s == nil {
		s = f.r
	}
	tt, ok := s.(interface{ IsTerminal() bool })
	return ok && tt.IsTerminal()
}
