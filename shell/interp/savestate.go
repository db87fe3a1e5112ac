package interp

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// A shell's state as text (SaveState, LoadState): what a session carries
// from one run to the next, for it to go on in another process.
//
// The text is a bash script that `source` would restore in bash as well:
//
//	# wasmsand shell state v1
//	cd -- /tmp                        the directory, then the pushd stack
//	pushd -n -- /etc
//	umask 0027
//	declare -ir n="5"                 variables, as declare -p prints them
//	unset -v RANDOM                   a special variable the shell lost
//	# function 25                     the next 25 bytes: one function,
//	f ()                              as declare -f prints it
//	{
//	    echo "$1"
//	}
//	declare -fx -- f                  its attributes
//	alias -- ll='ls -l'
//	enable -n echo
//	ulimit -n 64
//	set -- a 'b c'                    the positional parameters
//	shopt -s extglob                  every shopt and set -o option
//	set -o pipefail
//	trap -- 'echo bye' EXIT           traps last: nothing before them
//	return 1                          $? (the status `source` returns)
//	# end of wasmsand shell state
//
// LoadState does not run it. It reads the statements SaveState writes, one
// a line, whose words must be literal (quoted text, nothing that expands),
// and sets the shell's tables itself, so that no state runs a command,
// evaluates arithmetic or reads a file. A function is parsed, not run: its
// header gives its length, which bounds what the parser looks at.
//
// Not carried: jobs, coprocesses and open fds (a run's end closes them),
// the hash table (filled again as commands are looked up), history, $0
// (each run names itself), $_, PIPESTATUS, getopts' place inside a word,
// the clock of SECONDS and the state of RANDOM's generator.

const (
	stateMagic = "# wasmsand shell state v1"
	stateEnd   = "# end of wasmsand shell state"
	funcHeader = "# function "
)

// Bounds on what LoadState parses: a parser with MaxNest works in
// proportion to MaxNest times its text (its look-ahead scans may repeat at
// each level). A statement line needs a few levels (an array's values); a
// function more, and all of them together are bounded in size.
const (
	stateLineNest     = 4
	stateFuncNest     = 100
	maxStateFuncBytes = 16 << 20
)

// ErrNotState: the bytes given to LoadState are no saved shell state.
var ErrNotState = errors.New("not a saved shell state")

// nodeVars are the variables of the machine, not of the session: a state
// neither carries nor sets them.
var nodeVars = map[string]bool{"UID": true, "EUID": true, "PPID": true, "BASH_VERSINFO": true}

func isDynName(name string) bool {
	for _, d := range dynVars {
		if d.name == name {
			return true
		}
	}
	return false
}

// SaveState is the shell's state as text (above). It is for a shell
// between runs: nothing may run in it meanwhile.
func (r *Runner) SaveState() ([]byte, error) {
	var b strings.Builder
	line := func(s ...string) {
		for _, x := range s {
			b.WriteString(x)
		}
		b.WriteByte('\n')
	}
	line(stateMagic)
	line("cd -- ", stateQuote(r.dir))
	for _, d := range r.dirs {
		line("pushd -n -- ", stateQuote(d))
	}
	line(fmt.Sprintf("umask %04o", r.umask))

	names := make([]string, 0, len(r.vars.m))
	for k := range r.vars.m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, n := range names {
		v := r.vars.m[n]
		if nodeVars[n] || !syntax.ValidName(n) {
			continue
		}
		if v.dyn != dynNone {
			// the shell computes its value; only attributes it was given
			if v.attrs != newDynVar(v.dyn).attrs {
				line("declare -", declareFlags(v), " ", n)
			}
			continue
		}
		if isDynName(n) {
			line("unset -v ", n) // (an ordinary variable now: it was unset)
		}
		line(r.declareLine(n, v))
	}
	for _, d := range dynVars {
		if _, ok := r.vars.m[d.name]; !ok {
			line("unset -v ", d.name)
		}
	}

	total := 0
	for _, n := range r.funcs.names() {
		fn := r.funcs.get(n)
		text := syntax.FuncSource(n, fn.body) + "\n"
		if total += len(text); total > maxStateFuncBytes {
			return nil, fmt.Errorf("shell state: the functions' text is over %d MiB", maxStateFuncBytes>>20)
		}
		// A text that would not load, or not as the same function, fails
		// here rather than on another node.
		fd, err := parseStateFunc(text, 1, r.opts.posix)
		if err == nil && (fd.Name != n || syntax.FuncString(n, fd.Body) != syntax.FuncString(n, fn.body)) {
			err = errors.New("its text does not parse back to it")
		}
		if err != nil {
			return nil, fmt.Errorf("shell state: function %s: %v", n, err)
		}
		hdr := funcHeader + strconv.Itoa(len(text))
		if fn.src != "" {
			hdr += " " + expand.QuoteSingle(fn.src) // (quoted: read alone, a bare word could be a keyword)
		}
		line(hdr)
		b.WriteString(text)
		a := ""
		if r.funcs.ro[n] {
			a += "r"
		}
		if fn.trace {
			a += "t"
		}
		if fn.exported {
			a += "x"
		}
		if a != "" {
			line("declare -f", a, " -- ", stateQuote(n))
		}
	}

	aliases := make([]string, 0, r.aliases.len())
	for k := range r.aliases.m {
		aliases = append(aliases, k)
	}
	sort.Strings(aliases)
	for _, n := range aliases {
		line("alias -- ", stateQuote(n), "=", expand.QuoteSingle(r.aliases.m[n]))
	}
	for _, n := range BuiltinNames() {
		if r.disabled[n] {
			line("enable -n ", n)
		}
	}
	var limits []string
	for c, v := range r.ulimits {
		limits = append(limits, "ulimit -"+string(c)+" "+stateQuote(v))
	}
	sort.Strings(limits)
	for _, l := range limits {
		line(l)
	}
	if len(r.params) > 0 {
		q := make([]string, len(r.params))
		for i, p := range r.params {
			q[i] = stateQuote(p)
		}
		line("set -- ", strings.Join(q, " "))
	}
	for _, e := range r.shoptList() {
		line(map[bool]string{true: "shopt -s ", false: "shopt -u "}[*e.p], e.name)
	}
	for _, e := range r.optTable() {
		line(map[bool]string{true: "set -o ", false: "set +o "}[*e.p], e.name)
	}
	var traps []string
	for k := range r.traps.m {
		if !r.ignoredAtEntry[k] {
			traps = append(traps, k)
		}
	}
	sort.Slice(traps, func(a, b int) bool { return trapSortKey(traps[a]) < trapSortKey(traps[b]) })
	for _, n := range traps {
		line("trap -- ", expand.QuoteSingle(r.traps.m[n]), " ", trapDisplayName(n))
	}
	line("return ", strconv.Itoa(r.status&0xff))
	line(stateEnd)
	return []byte(b.String()), nil
}

// stateQuote quotes a word: bare when it is plain, else as bash's
// single quotes (or $'...').
func stateQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		if !bareByte(s[i]) {
			return expand.QuoteSingle(s)
		}
	}
	return s
}

// bareByte: a character a state word may have unquoted (none expands).
func bareByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./:,%+=@-", c) >= 0
}

// stateLiteral is a word's value when nothing in it expands: bare
// characters, backslash escapes, '...', $'...' and "..." of plain text.
func stateLiteral(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	if w.Assign != nil {
		return "", false
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			for i := 0; i < len(x.Val); i++ {
				c := x.Val[i]
				if c == '\\' && i+1 < len(x.Val) {
					i++
					b.WriteByte(x.Val[i])
					continue
				}
				if !bareByte(c) {
					return "", false
				}
				b.WriteByte(c)
			}
		case *syntax.SglQuoted:
			b.WriteString(x.Val)
		case *syntax.DblQuoted:
			if x.Dollar {
				return "", false // ($"..." is translated)
			}
			for _, p := range x.Parts {
				l, ok := p.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Val)
			}
		default:
			return "", false
		}
	}
	if strings.IndexByte(b.String(), 0) >= 0 {
		return "", false // (no shell value holds one)
	}
	return b.String(), true
}

// stateLoader is one LoadState in progress.
type stateLoader struct {
	r         *Runner
	funcs     []stateFunc
	funcAttrs []stateFuncAttr
}

type stateFunc struct {
	text, src string
	line      int
}

type stateFuncAttr struct {
	name, flags string
	line        int
}

// stateError is a state LoadState refuses, with the line at fault.
type stateError struct {
	line int
	msg  string
}

func (e *stateError) Error() string {
	if e.line == 0 {
		return "shell state: " + e.msg
	}
	return "shell state: line " + strconv.Itoa(e.line) + ": " + e.msg
}

// LoadState makes the state SaveState wrote the shell's own: its
// variables, functions, aliases, options, traps, directories... What the
// state does not name is gone, but for the variables the shell computes
// and the machine's (UID, PPID...). Meant for a new shell that has not
// run: when it fails, the shell is half loaded and must be dropped.
func (r *Runner) LoadState(state []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &stateError{msg: fmt.Sprintf("internal error (please report): %v", p)}
		}
	}()
	if limit := 4*r.cfg.MaxVarTotal + 2*maxStateFuncBytes; int64(len(state)) > limit {
		return &stateError{msg: fmt.Sprintf("%d bytes: more than this shell could hold", len(state))}
	}
	text := string(state)
	if !strings.HasPrefix(text, stateMagic+"\n") {
		if strings.HasPrefix(text, "# wasmsand shell state v") {
			v, _, _ := strings.Cut(text[len("# wasmsand shell state "):], "\n")
			return fmt.Errorf("%w: version %.20q is not known here", ErrNotState, v)
		}
		return ErrNotState
	}
	if !strings.HasSuffix(text, "\n"+stateEnd+"\n") || len(text) < len(stateMagic)+len(stateEnd)+2 {
		return &stateError{msg: "truncated (no end line)"}
	}
	body := text[len(stateMagic)+1 : len(text)-len(stateEnd)-1]
	l := &stateLoader{r: r}
	r.clearForState()
	lineNo, funcBytes := 2, 0
	for pos := 0; pos < len(body); lineNo++ {
		eol := strings.IndexByte(body[pos:], '\n')
		ln := body[pos : pos+eol]
		pos += eol + 1
		switch {
		case strings.HasPrefix(ln, funcHeader):
			n, src, err := parseFuncHeader(ln[len(funcHeader):], lineNo)
			if err != nil {
				return err
			}
			if n > len(body)-pos || funcBytes+n > maxStateFuncBytes {
				return &stateError{lineNo, "function longer than the state allows"}
			}
			funcBytes += n
			l.funcs = append(l.funcs, stateFunc{text: body[pos : pos+n], src: src, line: lineNo + 1})
			lineNo += strings.Count(body[pos:pos+n], "\n")
			pos += n
		case ln == "" || ln[0] == '#':
		default:
			if err := l.statement(ln, lineNo); err != nil {
				return err
			}
		}
	}
	for _, f := range l.funcs {
		fd, err := parseStateFunc(f.text, f.line, r.opts.posix)
		if err != nil {
			return &stateError{f.line, "function: " + err.Error()}
		}
		r.mutFuncs()[fd.Name] = &function{name: fd.Name, body: fd.Body, src: f.src, line: fd.Line}
	}
	for _, a := range l.funcAttrs {
		fn := r.funcs.get(a.name)
		if fn == nil {
			return &stateError{a.line, a.name + ": no such function"}
		}
		fn.trace = strings.IndexByte(a.flags, 't') >= 0
		fn.exported = strings.IndexByte(a.flags, 'x') >= 0
		if strings.IndexByte(a.flags, 'r') >= 0 {
			if r.funcs.ro == nil {
				r.funcs.ro = map[string]bool{}
			}
			r.funcs.ro[a.name] = true
		}
	}
	r.ifsCache = nil
	if total := r.recharge(); total > r.cfg.MaxVarTotal {
		return &stateError{msg: fmt.Sprintf("its variables hold %d bytes, over this shell's %d", total, r.cfg.MaxVarTotal)}
	}
	return nil
}

// clearForState empties what a state sets.
func (r *Runner) clearForState() {
	m := r.mutVars()
	for k, v := range m {
		if v.dyn == dynNone && !nodeVars[k] {
			delete(m, k)
		}
	}
	r.funcs = newFuncTable()
	r.aliases = newAliasTable()
	r.traps = newTrapTable()
	for k := range r.ignoredAtEntry {
		r.traps.m[k] = ""
	}
	r.dirs, r.params, r.disabled, r.ulimits = nil, nil, nil, nil
	r.hashed = newCmdHash()
}

// parseFuncHeader reads "N" or "N SOURCE" after "# function ".
func parseFuncHeader(s string, lineNo int) (int, string, error) {
	num, src, hasSrc := strings.Cut(s, " ")
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || num[0] < '0' || num[0] > '9' {
		return 0, "", &stateError{lineNo, "bad function header"}
	}
	if !hasSrc {
		return n, "", nil
	}
	words, err := stateWords(src, lineNo)
	if err != nil {
		return 0, "", err
	}
	if len(words) != 1 {
		return 0, "", &stateError{lineNo, "bad function header"}
	}
	return n, words[0], nil
}

// stateWords parses a statement line into its literal words.
func stateWords(ln string, lineNo int) ([]string, error) {
	ws, err := stateCommand(ln, lineNo)
	if err != nil {
		return nil, err
	}
	return stateLiterals(ws, lineNo)
}

// stateLiterals are the values of words that must be literal.
func stateLiterals(ws []*syntax.Word, lineNo int) ([]string, error) {
	out := make([]string, len(ws))
	for i, w := range ws {
		s, ok := stateLiteral(w)
		if !ok {
			return nil, &stateError{lineNo, fmt.Sprintf("word %d is not a plain literal", i+1)}
		}
		out[i] = s
	}
	return out, nil
}

// stateCommand parses a line that must be one simple command: words, no
// redirections, no assignments before it, no pipes or lists.
func stateCommand(ln string, lineNo int) ([]*syntax.Word, error) {
	p := syntax.NewParser(ln, lineNo)
	p.MaxNest = stateLineNest
	stmts, err := p.Next()
	if err == nil {
		if _, e := p.Next(); e != io.EOF {
			err = errors.New("more than one command")
		}
	}
	if err != nil {
		return nil, &stateError{lineNo, err.Error()}
	}
	bad := &stateError{lineNo, "not a statement of a shell state"}
	if len(stmts) != 1 || stmts[0].Async || len(stmts[0].Pipes) != 1 {
		return nil, bad
	}
	pl := stmts[0].Pipes[0]
	if pl.Negated || pl.Time || len(pl.Cmds) != 1 {
		return nil, bad
	}
	sc, ok := pl.Cmds[0].(*syntax.SimpleCmd)
	if !ok || len(sc.Redirs) > 0 || len(sc.Assigns) > 0 || len(sc.Words) == 0 {
		return nil, bad
	}
	return sc.Words, nil
}

// statement applies one line of the state.
func (l *stateLoader) statement(ln string, lineNo int) error {
	r := l.r
	ws, err := stateCommand(ln, lineNo)
	if err != nil {
		return err
	}
	cmd, _ := stateLiteral(ws[0])
	if cmd == "declare" {
		return l.declare(ws[1:], lineNo)
	}
	args, err := stateLiterals(ws, lineNo)
	if err != nil {
		return err
	}
	args = args[1:]
	fail := func(msg string) error { return &stateError{lineNo, cmd + ": " + msg} }
	shape := func(n int, lead ...string) bool {
		if len(args) != n {
			return false
		}
		for i, s := range lead {
			if args[i] != s {
				return false
			}
		}
		return true
	}
	switch cmd {
	case "cd":
		if !shape(2, "--") || !strings.HasPrefix(args[1], "/") {
			return fail("expected cd -- /DIR")
		}
		r.dir = args[1]
	case "pushd":
		if !shape(3, "-n", "--") || args[2] == "" {
			return fail("expected pushd -n -- DIR")
		}
		r.dirs = append(r.dirs, args[2])
	case "umask":
		n, err := strconv.ParseUint(args0(args), 8, 32)
		if len(args) != 1 || err != nil || n > 0o777 {
			return fail("expected an octal mask")
		}
		r.umask = uint32(n)
	case "unset":
		if !shape(2, "-v") || !syntax.ValidName(args[1]) {
			return fail("expected unset -v NAME")
		}
		if v := r.vars.m[args[1]]; v != nil && (nodeVars[args[1]] || v.attrs&attrReadonly != 0) {
			return fail(args[1] + ": readonly variable")
		}
		delete(r.mutVars(), args[1])
	case "alias":
		name, val, ok := strings.Cut(args1(args), "=")
		if !shape(2, "--") || !ok || !validAliasName(name) {
			return fail("expected alias -- NAME=VALUE")
		}
		r.mutAliases()[name] = val
	case "enable":
		if !shape(2, "-n") || builtins[args[1]] == nil {
			return fail("expected enable -n BUILTIN")
		}
		if r.disabled == nil {
			r.disabled = map[string]bool{}
		}
		r.disabled[args[1]] = true
	case "ulimit":
		if !shape(2) || len(args[0]) != 2 || args[0][0] != '-' || strings.IndexByte("bcdefiklmnpqrstuvxPRT", args[0][1]) < 0 ||
			args[1] != "unlimited" && args[1] != "soft" && args[1] != "hard" && !isDigits(args[1]) {
			return fail("expected ulimit -X VALUE")
		}
		if r.ulimits == nil {
			r.ulimits = map[byte]string{}
		}
		r.ulimits[args[0][1]] = args[1]
	case "set":
		switch {
		case len(args) >= 1 && args[0] == "--":
			r.params = append([]string(nil), args[1:]...)
		case shape(2, "-o") || shape(2, "+o"):
			if p := r.optByName(args[1]); p != nil {
				*p = args[0] == "-o"
			} else if args[0] == "-o" {
				return fail(args[1] + ": an option this shell does not have")
			}
		default:
			return fail("expected set -- ARGS or set -o/+o NAME")
		}
	case "shopt":
		if !shape(2, "-s") && !shape(2, "-u") {
			return fail("expected shopt -s/-u NAME")
		}
		found := false
		for _, e := range r.shoptList() {
			if e.name == args[1] {
				*e.p, found = args[0] == "-s", true
			}
		}
		if !found && args[0] == "-s" {
			return fail(args[1] + ": an option this shell does not have")
		}
	case "trap":
		name, ok := trapName(args2(args))
		if !shape(3, "--") || !ok {
			return fail("expected trap -- ACTION SIGNAL")
		}
		if !r.ignoredAtEntry[name] {
			r.traps.m[name] = args[1]
		}
	case "return":
		n, err := strconv.Atoi(args0(args))
		if len(args) != 1 || err != nil || n < 0 || n > 255 {
			return fail("expected a status")
		}
		r.status = n
	default:
		return &stateError{lineNo, fmt.Sprintf("%.40q is not a statement of a shell state", cmd)}
	}
	return nil
}

func args0(a []string) string { return argN(a, 0) }
func args1(a []string) string { return argN(a, 1) }
func args2(a []string) string { return argN(a, 2) }

func argN(a []string, i int) string {
	if i < len(a) {
		return a[i]
	}
	return ""
}

// declare reads `declare -FLAGS NAME[=VALUE]` as declare -p prints it, or
// `declare -fFLAGS -- NAME`, a function's attributes.
func (l *stateLoader) declare(ws []*syntax.Word, lineNo int) error {
	r := l.r
	fail := func(msg string) error { return &stateError{lineNo, "declare: " + msg} }
	if len(ws) < 2 {
		return fail("expected declare -FLAGS NAME")
	}
	flags, ok := stateLiteral(ws[0])
	if !ok || len(flags) < 2 || flags[0] != '-' {
		return fail("expected flags")
	}
	if flags[1] == 'f' {
		name, ok := stateLiteral(ws[len(ws)-1])
		if len(ws) != 3 || !ok || strings.Trim(flags[2:], "rtx") != "" {
			return fail("expected declare -f[rtx] -- NAME")
		}
		if dd, _ := stateLiteral(ws[1]); dd != "--" {
			return fail("expected declare -f[rtx] -- NAME")
		}
		l.funcAttrs = append(l.funcAttrs, stateFuncAttr{name, flags[2:], lineNo})
		return nil
	}
	if len(ws) != 2 {
		return fail("expected one name")
	}
	var attrs attr
	if flags != "--" {
		for i := 1; i < len(flags); i++ {
			a, ok := map[byte]attr{'a': attrArray, 'A': attrAssoc, 'i': attrInteger, 'l': attrLower,
				'u': attrUpper, 'n': attrNameref, 'r': attrReadonly, 't': attrTrace, 'x': attrExport, 'c': attrCapital}[flags[i]]
			if !ok {
				return fail("bad flags " + strconv.Quote(flags))
			}
			attrs |= a
		}
	}
	if attrs&attrArray != 0 && attrs&(attrAssoc|attrNameref) != 0 || attrs&attrAssoc != 0 && attrs&attrNameref != 0 {
		return fail("contradictory flags " + flags)
	}
	w := ws[1]
	name, hasValue := "", false
	var val string
	var arr *syntax.ArrayLit
	if a := w.Assign; a != nil {
		if a.Index != nil || a.Append {
			return fail("expected NAME=VALUE")
		}
		name, hasValue, arr = a.Name, true, a.Array
		if arr == nil {
			if val, ok = stateLiteral(a.Value); !ok {
				return fail(name + ": the value is not a plain literal")
			}
		}
	} else if name, ok = stateLiteral(w); !ok {
		return fail("the name is not a plain literal")
	}
	if !syntax.ValidName(name) {
		return fail(fmt.Sprintf("%.40q: not a valid name", name))
	}
	if nodeVars[name] {
		return fail(name + ": the machine's variable")
	}
	m := r.mutVars()
	if cur := m[name]; cur != nil && cur.dyn != dynNone {
		// a special variable: its attributes only (its kind stays)
		if hasValue {
			return fail(name + ": a special variable, which the state must unset first")
		}
		c := *cur
		c.attrs = attrs&^(attrArray|attrAssoc) | cur.attrs&(attrArray|attrAssoc)
		m[name] = &c
		return nil
	}
	v := &Var{attrs: attrs, set: hasValue}
	if attrs&attrArray != 0 {
		v.arr = newIndexed()
	}
	if attrs&attrAssoc != 0 {
		v.assoc = newAssoc()
	}
	switch {
	case arr != nil && attrs&attrAssoc != 0:
		keys := make([]string, 0, len(arr.Elems))
		vals := make([]string, 0, len(arr.Elems))
		for _, e := range arr.Elems {
			if e.Key == nil || e.Append {
				return fail(name + ": expected [KEY]=VALUE")
			}
			k, ok1 := stateLiteral(e.Key.W)
			s, ok2 := stateLiteral(e.Value)
			if !ok1 || !ok2 {
				return fail(name + ": an element is not a plain literal")
			}
			keys, vals = append(keys, k), append(vals, s)
		}
		v.assoc = assocFromListed(keys, vals)
	case arr != nil && attrs&attrArray != 0:
		for _, e := range arr.Elems {
			if e.Key == nil || e.Append || !isDigits(e.Key.Src) {
				return fail(name + ": expected [N]=VALUE")
			}
			i, err := strconv.ParseInt(e.Key.Src, 10, 64)
			s, ok := stateLiteral(e.Value)
			if err != nil || !ok {
				return fail(name + ": an element is not a plain literal")
			}
			v.arr.set(i, s)
		}
	case arr != nil:
		return fail(name + ": an array value without -a or -A")
	case hasValue && attrs&(attrArray|attrAssoc) != 0:
		return fail(name + ": an array with a scalar value")
	default:
		v.str = val
	}
	if n := varSize(v); n > r.oneVarLimit() {
		return fail(fmt.Sprintf("%s: %d bytes, over the %d a variable may hold", name, n, r.oneVarLimit()))
	}
	m[name] = v
	return nil
}

// parseStateFunc parses one function definition of a state.
func parseStateFunc(text string, line int, posix bool) (*syntax.FuncDef, error) {
	p := syntax.NewParser(text, line)
	p.MaxNest = stateFuncNest
	p.ExtGlob = true // (a superset: a body that parsed without it parses the same)
	p.Posix = posix
	stmts, err := p.Next()
	if err == nil {
		if _, e := p.Next(); e != io.EOF {
			err = errors.New("text after the function")
		}
	}
	if err != nil {
		return nil, err
	}
	if len(stmts) == 1 && !stmts[0].Async && len(stmts[0].Pipes) == 1 {
		if pl := stmts[0].Pipes[0]; !pl.Negated && !pl.Time && len(pl.Cmds) == 1 {
			if fd, ok := pl.Cmds[0].(*syntax.FuncDef); ok {
				return fd, nil
			}
		}
	}
	return nil, errors.New("not one function definition")
}
