package interp

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/wasmsand/wasmsand/shell/syntax"
)

// function is a defined shell function.
type function struct {
	name     string
	body     syntax.Command
	src      string
	line     int
	trace    bool // declare -ft
	exported bool // export -f: children get it as BASH_FUNC_name%%
}

// funcTable holds functions, shared copy-on-write with subshells.
type funcTable struct {
	refs atomic.Int32
	m    map[string]*function
	ro   map[string]bool // readonly -f
}

func newFuncTable() *funcTable {
	t := &funcTable{m: map[string]*function{}}
	t.refs.Store(1)
	return t
}

func (t *funcTable) share() *funcTable {
	t.refs.Add(1)
	return t
}

func (t *funcTable) get(name string) *function { return t.m[name] }

func (t *funcTable) names() []string {
	out := make([]string, 0, len(t.m))
	for k := range t.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (r *Runner) mutFuncs() map[string]*function {
	if r.funcs.refs.Load() > 1 {
		n := &funcTable{m: make(map[string]*function, len(r.funcs.m))}
		n.refs.Store(1)
		for k, v := range r.funcs.m {
			n.m[k] = v
		}
		if r.funcs.ro != nil {
			n.ro = map[string]bool{}
			for k, v := range r.funcs.ro {
				n.ro[k] = v
			}
		}
		r.funcs.refs.Add(-1)
		r.funcs = n
	}
	return r.funcs.m
}

func (r *Runner) defineFunc(fd *syntax.FuncDef) {
	if r.opts.posix && !syntax.ValidName(fd.Name) {
		// POSIX: a function's name is a name, else the shell ends
		r.errorf("`%s': not a valid identifier", fd.Name)
		r.status = 2
		if !r.interactive {
			r.exit(2)
		}
		return
	}
	if old := r.funcs.get(fd.Name); old != nil && r.funcs.ro[fd.Name] {
		if fd.EndLine > 0 {
			r.line = fd.EndLine
		}
		r.errorf("%s: readonly function", fd.Name)
		r.status = 1
		return
	}
	src := fd.Src
	if src == "" {
		src = r.sourceName
	}
	r.mutFuncs()[fd.Name] = &function{name: fd.Name, body: fd.Body, src: src, line: fd.Line}
	r.status = 0
}

// funcNest is FUNCNEST when set: a positive bound on nested calls.
func (r *Runner) funcNest() int {
	v, ok := r.getVar("FUNCNEST")
	if !ok {
		return 0
	}
	n, ok := plainInt(v)
	if !ok || n <= 0 {
		return 0
	}
	return int(n)
}

// callFunc runs a function with args ($0 stays the shell's).
func (r *Runner) callFunc(ctx context.Context, fn *function, args []string) int {
	if n := r.funcNest(); n > 0 && len(r.frames) >= n {
		// bash abandons the whole command and reads on
		r.errorf("%s: maximum function nesting level exceeded (%d)", fn.name, n)
		r.status = 1
		r.flow = flowAbort
		return 1
	}
	if r.depth >= maxDepth {
		r.errorf("%s: maximum function nesting level exceeded (recursion too deep for the sandbox)", fn.name)
		r.exit(1)
		return 1
	}
	r.depth++
	f := &frame{name: fn.name, src: fn.src, line: r.line, params: r.params, defLine: fn.line}
	r.frames = append(r.frames, f)
	src := fn.src
	if src == "" {
		src = "environment"
	}
	r.calls = append(r.calls, callEntry{fn.name, src, r.line})
	defer func() { r.calls = r.calls[:len(r.calls)-1] }()
	r.params = args[1:]
	savedLoops := r.loops
	r.loops = 0
	saveOpt := r.shopt
	retTrap, _ := r.traps.get("RETURN")
	traced := r.opts.functrace || r.shopt.extdebug || fn.trace
	if t, ok := r.traps.get("DEBUG"); ok && t != "" && r.inTrap == 0 && traced {
		// a traced function starts with a DEBUG trap of its own, at the
		// line its body starts on
		st, line := r.status, r.line
		if l := fn.body.Base().Line; l > 0 {
			r.line = l
		}
		r.runTrap(ctx, "DEBUG", t)
		r.status, r.line = st, line
	}
	// An untraced function runs without the DEBUG trap; one it sets itself
	// works at once and stays after it returns (bash's maybe_set_debug_trap).
	savedDebug, cleared := "", false
	if t, ok := r.traps.get("DEBUG"); ok && t != "" && !traced {
		savedDebug, cleared = t, true
		r.traps = r.traps.writable()
		r.traps.unset("DEBUG")
	}
	r.runCommand(ctx, fn.body)
	if cleared {
		if t, ok := r.traps.get("DEBUG"); !ok || t == "" {
			r.traps = r.traps.writable()
			r.traps.m["DEBUG"] = savedDebug
		}
	}
	r.loops = savedLoops
	if r.flow == flowReturn {
		r.flow = flowNone
	}
	st := r.status
	if t, ok := r.traps.get("RETURN"); ok && t != "" && (r.opts.functrace || r.shopt.extdebug || fn.trace || t != retTrap) && r.inTrap == 0 {
		r.runTrap(ctx, "RETURN", t)
		r.status = st
	}
	r.popFrame()
	r.depth--
	_ = saveOpt
	return st
}

// popFrame ends a function call: its locals go, the caller's parameters
// come back.
func (r *Runner) popFrame() {
	f := r.frames[len(r.frames)-1]
	level := len(r.frames)
	if len(f.locals) > 0 {
		m := r.mutVars()
		for i := len(f.locals) - 1; i >= 0; i-- {
			name := f.locals[i]
			v := m[name]
			if v == nil || v.level != level {
				continue
			}
			if v.prev != nil {
				m[name] = v.prev
			} else {
				delete(m, name)
			}
			r.varChanged(name)
		}
	}
	r.params = f.params
	r.frames = r.frames[:len(r.frames)-1]
	if f.savedGetopts {
		r.getoptsPos, r.getoptsInd = f.getoptsPos, f.getoptsInd
	}
	if f.savedOpts != nil {
		r.opts = *f.savedOpts
	}
}

// makeLocal declares name local to the current function (copying the
// outer value's attributes only when asked, as bash does for -I / arrays).
func (r *Runner) makeLocal(name string) *Var {
	m := r.mutVars()
	level := len(r.frames)
	cur := m[name]
	if cur != nil && cur.level == level {
		return cur
	}
	v := &Var{level: level, prev: cur}
	if cur != nil {
		// a local shadowing a special variable keeps its behaviour off
		v.attrs = cur.attrs & (attrExport)
		if r.shopt.localvarInherit {
			v.attrs = cur.attrs &^ attrReadonly
			v.str, v.set = cur.str, cur.set
			if cur.arr != nil {
				cur.arr.refs.Add(1)
				v.arr = cur.arr
			}
			if cur.assoc != nil {
				cur.assoc.refs.Add(1)
				v.assoc = cur.assoc
			}
		}
		if cur.dyn != dynNone && (name == "IFS") {
			v.dyn = dynNone
		}
	}
	m[name] = v
	f := r.frames[len(r.frames)-1]
	f.locals = append(f.locals, name)
	if name == "OPTIND" && !f.savedGetopts {
		// getopts' place in a word goes with OPTIND
		f.savedGetopts = true
		f.getoptsPos, f.getoptsInd = r.getoptsPos, r.getoptsInd
	}
	return v
}

// FuncNames lists the defined functions.
func (r *Runner) FuncNames() []string { return r.funcs.names() }

// FuncText is a function as `declare -f` prints it ("" if none).
func (r *Runner) FuncText(name string) string {
	fn := r.funcs.get(name)
	if fn == nil {
		return ""
	}
	return syntax.FuncString(name, fn.body)
}

// callEntry is one level of FUNCNAME / BASH_SOURCE / BASH_LINENO: a
// function call or a sourced file.
type callEntry struct {
	name, src string
	line      int
}

func (r *Runner) funcnames() []string {
	if len(r.calls) == 0 {
		return nil
	}
	out := make([]string, 0, len(r.calls)+1)
	for i := len(r.calls) - 1; i >= 0; i-- {
		out = append(out, r.calls[i].name)
	}
	if r.scriptMain {
		out = append(out, "main")
	}
	return out
}

func (r *Runner) bashSources() []string {
	out := make([]string, 0, len(r.calls)+1)
	for i := len(r.calls) - 1; i >= 0; i-- {
		out = append(out, r.calls[i].src)
	}
	if r.scriptMain {
		out = append(out, r.mainSource)
	}
	return out
}

func (r *Runner) bashLinenos() []string {
	out := make([]string, 0, len(r.calls)+1)
	for i := len(r.calls) - 1; i >= 0; i-- {
		out = append(out, strconv.Itoa(r.calls[i].line))
	}
	if r.scriptMain {
		out = append(out, "0")
	}
	return out
}

// funcEnvPrefix and funcEnvSuffix wrap an exported function's name in the
// environment, as bash 4.3+ does after Shellshock.
const (
	funcEnvPrefix = "BASH_FUNC_"
	funcEnvSuffix = "%%"
)

// exportedFuncs are the environment entries of exported functions.
func (r *Runner) exportedFuncs() []string {
	var out []string
	for _, n := range r.funcs.names() {
		fn := r.funcs.get(n)
		if !fn.exported {
			continue
		}
		text := syntax.FuncString(n, fn.body)
		body := text[strings.Index(text, "()"):] // "() \n{ ...}"
		body = "() " + strings.TrimPrefix(strings.TrimPrefix(body, "() "), "\n")
		out = append(out, funcEnvPrefix+n+funcEnvSuffix+"="+body)
	}
	return out
}

// importFunc defines a function from an environment entry, only when its
// value is exactly one function definition (nothing runs while importing).
func (r *Runner) importFunc(name, value string) {
	if !strings.HasPrefix(value, "() {") {
		return
	}
	stmts, err := syntax.Parse(name + " " + value)
	if err != nil || len(stmts) != 1 || stmts[0].Async || len(stmts[0].Pipes) != 1 {
		return
	}
	pl := stmts[0].Pipes[0]
	if len(pl.Cmds) != 1 || pl.Negated || pl.Time {
		return
	}
	fd, ok := pl.Cmds[0].(*syntax.FuncDef)
	if !ok || fd.Name != name {
		return
	}
	r.mutFuncs()[name] = &function{name: name, body: fd.Body, line: 1, exported: true}
}
