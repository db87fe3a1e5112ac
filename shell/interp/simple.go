package interp

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// declArg is a NAME=(...) argument of declare/local/export/readonly/typeset.
type declArg struct {
	name     string
	index    string
	hasIdx   bool
	append   bool
	array    *arrayValue // compound value
	value    string
	hasValue bool
}

// arrayValue is an expanded ( ... ) list: elements with optional keys.
type arrayValue struct {
	elems []arrayElem
}

type arrayElem struct {
	key    string
	hasKey bool
	append bool
	keyRaw *syntax.Subscript
	val    string
}

func (r *Runner) runSimple(ctx context.Context, c *syntax.SimpleCmd) {
	r.line = c.Line
	r.hadComsub = false
	r.curSimple = c
	if r.inTrap == 0 {
		// BASH_COMMAND: in a trap, still the command that was trapped
		r.curCmd, r.curCmdText = c, ""
	}
	// bash runs the DEBUG trap before it expands the command
	if r.debugTrap(ctx) {
		return
	}
	if r.opts.keyword {
		c = keywordAssigns(c)
	}
	args, decls, err := r.expandCmdWords(ctx, c.Words)
	if err != nil {
		r.expansionError(err)
		return
	}
	if len(args) == 0 {
		r.assignOnly(ctx, c)
		return
	}
	if r.opts.xtrace {
		r.trace(ctx, c.Assigns, args)
	}
	restore, err := r.redirect(ctx, c.Redirs, execAlone(args))
	if err != nil {
		r.redirError(err)
		r.lastArg = args[len(args)-1]
		if r.opts.posix && !r.interactive && specialBuiltins[args[0]] && r.funcs.get(args[0]) == nil {
			r.exit(1) // (POSIX: a special builtin's redirection error ends the shell)
		}
		return
	}
	st := r.dispatch(ctx, c.Assigns, args, decls, false)
	restore()
	r.lastArg = args[len(args)-1]
	r.status = st
	if r.flow == flowNone {
		r.afterCommand(ctx, st)
	}
}

// keywordAssigns is c under set -k: every NAME=value word, not only those
// before the command's name, is an assignment for the command.
func keywordAssigns(c *syntax.SimpleCmd) *syntax.SimpleCmd {
	var words []*syntax.Word
	var assigns []*syntax.Assign
	for _, w := range c.Words {
		if a := assignWord(w); a != nil {
			assigns = append(assigns, a)
			continue
		}
		words = append(words, w)
	}
	if len(assigns) == 0 {
		return c
	}
	k := *c
	k.Assigns = append(append([]*syntax.Assign(nil), c.Assigns...), assigns...)
	k.Words = words
	return &k
}

// assignWord reads a word written NAME=value as an assignment, or nil.
func assignWord(w *syntax.Word) *syntax.Assign {
	name, _, ok := strings.Cut(w.Raw, "=")
	if !ok || w.Assign != nil || !syntax.ValidName(strings.TrimSuffix(name, "+")) {
		return nil
	}
	stmts, err := syntax.Parse(w.Raw)
	if err != nil || len(stmts) != 1 || len(stmts[0].Pipes) != 1 || len(stmts[0].Pipes[0].Cmds) != 1 {
		return nil
	}
	sc, ok := stmts[0].Pipes[0].Cmds[0].(*syntax.SimpleCmd)
	if !ok || len(sc.Assigns) != 1 || len(sc.Words) != 0 {
		return nil
	}
	return sc.Assigns[0]
}

// debugTrap runs the DEBUG trap before a command (a simple one, or for,
// case, select, [[ ]], (( )) and each part of for (( )), whose text
// BASH_COMMAND then gives: r.curCmdText); skip: the command must not run
// (the trap ended the shell or returned, or failed under extdebug).
func (r *Runner) debugTrap(ctx context.Context) (skip bool) {
	t, ok := r.traps.get("DEBUG")
	if !ok || t == "" || r.inTrap != 0 { // (see callFunc for functions)
		return false
	}
	st := r.runTrap(ctx, "DEBUG", t)
	if r.flow != flowNone {
		return true
	}
	if r.shopt.extdebug && st != 0 {
		// extdebug: a DEBUG trap that fails skips the command; 2, in
		// a function or a sourced file, returns from it
		if st == 2 && (len(r.frames) > 0 || r.sourceDepth > 0) {
			r.flow = flowReturn
			r.status = st
		}
		return true
	}
	return false
}

// debugCompound is debugTrap before a compound command shown as text.
func (r *Runner) debugCompound(ctx context.Context, text string) (skip bool) {
	if t, ok := r.traps.get("DEBUG"); !ok || t == "" || r.inTrap != 0 {
		return false
	}
	r.curCmd, r.curCmdText = nil, text
	return r.debugTrap(ctx)
}

// execAlone reports whether args are `exec` with no command, whose
// redirections stay; bash looks through `command` (and `command -p`) too,
// but not `builtin`.
func execAlone(args []string) bool {
	for len(args) > 1 && args[0] == "command" {
		args = args[1:]
		if args[0] == "-p" || args[0] == "--" {
			args = args[1:]
		}
	}
	return len(args) == 1 && args[0] == "exec"
}

// expandCmdWords expands a command's words; declaration arguments
// (NAME=value after declare and its kin) expand as assignments.
func (r *Runner) expandCmdWords(ctx context.Context, words []*syntax.Word) ([]string, map[int]*declArg, error) {
	var decls map[int]*declArg
	out := make([]string, 0, len(words))
	for _, w := range words {
		if w.Assign != nil {
			d, err := r.expandDeclArg(ctx, w.Assign)
			if err != nil {
				return nil, nil, err
			}
			if decls == nil {
				decls = map[int]*declArg{}
			}
			decls[len(out)] = d
			s := d.name
			if d.hasIdx {
				s += "[" + d.index + "]"
			}
			if d.append {
				s += "+"
			}
			s += "=" + d.value
			out = append(out, s)
			continue
		}
		if s, ok := simpleWord(w); ok {
			out = append(out, s)
			continue
		}
		ws, err := r.expandWordFields(ctx, w)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, ws...)
	}
	return out, decls, nil
}

func (r *Runner) expandDeclArg(ctx context.Context, a *syntax.Assign) (*declArg, error) {
	d := &declArg{name: a.Name, append: a.Append}
	if a.Index != nil {
		s, err := r.expandQuoted(ctx, a.Index.W)
		if err != nil {
			return nil, err
		}
		d.index, d.hasIdx = s, true
	}
	if a.Array != nil {
		av, err := r.expandArrayLit(ctx, a.Array)
		if err != nil {
			return nil, err
		}
		d.array = av
		return d, nil
	}
	v, err := r.expandString(ctx, a.Value, ctxAssign)
	if err != nil {
		return nil, err
	}
	d.value = v
	d.hasValue = true
	return d, nil
}

// expandArrayLit expands the elements of ( ... ): plain words fully (they
// may split into several elements), [key]=value ones as assignments.
func (r *Runner) expandArrayLit(ctx context.Context, a *syntax.ArrayLit) (*arrayValue, error) {
	av := &arrayValue{}
	for _, el := range a.Elems {
		if el.Key == nil {
			ws, err := r.expandWordFields(ctx, el.Value)
			if err != nil {
				return nil, err
			}
			for _, w := range ws {
				av.elems = append(av.elems, arrayElem{val: w})
			}
			continue
		}
		k, err := r.expandQuoted(ctx, el.Key.W)
		if err != nil {
			return nil, err
		}
		v, err := r.expandString(ctx, el.Value, ctxAssign)
		if err != nil {
			return nil, err
		}
		av.elems = append(av.elems, arrayElem{key: k, hasKey: true, append: el.Append, keyRaw: el.Key, val: v})
	}
	return av, nil
}

// assignOnly runs a command with no words: its assignments change the
// shell; its redirections are made and undone.
func (r *Runner) assignOnly(ctx context.Context, c *syntax.SimpleCmd) {
	r.comsubStatus = 0
	r.hadComsub = false
	if r.opts.xtrace {
		// (set -x shows NAME+=value as written: what it appended)
		r.traceBefore = map[string]string{}
		for _, a := range c.Assigns {
			if a.Append && a.Array == nil && a.Index == nil {
				r.traceBefore[a.Name], _ = r.getVar(a.Name)
			}
		}
		defer func() { r.traceBefore = nil }()
	}
	for _, a := range c.Assigns {
		if err := r.assign(ctx, a, 0); err != nil {
			var ve *varError
			if errors.As(err, &ve) {
				r.fatal(&fatalError{msg: ve.msg}, 1)
				return
			}
			r.assignError(err)
			return
		}
		if r.flow != flowNone {
			return
		}
	}
	if r.opts.xtrace && len(c.Assigns) > 0 {
		r.trace(ctx, c.Assigns, nil)
	}
	st := 0
	if r.hadComsub {
		st = r.comsubStatus
	}
	if len(c.Redirs) > 0 {
		restore, err := r.redirect(ctx, c.Redirs, false)
		if err != nil {
			r.redirError(err)
			return
		}
		restore()
	}
	r.status = st
	if r.flow == flowNone {
		r.afterCommand(ctx, st)
	}
}

// assignError reports a failed assignment statement (status 1; a
// non-interactive shell continues, as bash does outside POSIX mode).
func (r *Runner) assignError(err error) {
	var ve *varError
	if errors.As(err, &ve) {
		r.errmsg(ve.msg)
		r.status = 1
		return
	}
	r.expansionError(err)
}

// assign performs NAME=value, NAME+=value, NAME[sub]=value, NAME=(...).
func (r *Runner) assign(ctx context.Context, a *syntax.Assign, f setFlags) error {
	if a.Append {
		f |= setAppend
	}
	if a.Array != nil {
		if a.Index != nil {
			return &varError{a.Name + "[" + a.Index.Src + "]: cannot assign list to array member"}
		}
		av, err := r.expandArrayLit(ctx, a.Array)
		if err != nil {
			return err
		}
		return r.assignArray(a.Name, av, f)
	}
	val, err := r.expandString(ctx, a.Value, ctxAssign)
	if err != nil {
		return err
	}
	if a.Index != nil {
		v := r.lookup(a.Name)
		if nameVar := r.vars.m[a.Name]; nameVar != nil && nameVar.attrs&attrNameref != 0 {
			v = r.lookup(a.Name)
		}
		if v != nil && v.isAssoc() {
			key, err := r.expandQuoted(ctx, a.Index.W)
			if err != nil {
				return err
			}
			if key == "" {
				return &varError{a.Name + "[" + a.Index.Src + "]: bad array subscript"}
			}
			return r.setElement(r.resolveBase(a.Name), key, val, f)
		}
		sub, err := r.expandQuoted(ctx, a.Index.W)
		if err != nil {
			return err
		}
		if strings.TrimSpace(sub) == "" {
			return &varError{a.Name + "[" + a.Index.Src + "]: bad array subscript"}
		}
		if sub == "@" || sub == "*" {
			return &varError{a.Name + "[" + sub + "]: bad array subscript"}
		}
		n, err := r.arithExpr(sub)
		if err != nil {
			return toFatal(err)
		}
		return r.setElement(r.resolveBase(a.Name), itoa64(n), val, f)
	}
	return r.setVar(a.Name, val, f)
}

// resolveBase is the variable an array assignment through name changes.
func (r *Runner) resolveBase(name string) string {
	t := r.resolveName(name)
	if base, _, ok := splitSubscript(t); ok {
		return base
	}
	return t
}

func toFatal(err error) error {
	if err == nil {
		return nil
	}
	var fe *fatalError
	if errors.As(err, &fe) {
		return err
	}
	return &fatalError{msg: err.Error()}
}

// assignArray assigns a compound value to an indexed or associative array.
func (r *Runner) assignArray(name string, av *arrayValue, f setFlags) error {
	name = r.resolveBase(name)
	v := r.lookup(name)
	if v != nil && v.attrs&attrReadonly != 0 {
		return &varError{name + ": readonly variable"}
	}
	if v != nil && v.isAssoc() {
		return r.assignAssoc(name, av, f)
	}
	if f&setAppend == 0 {
		if err := r.setArray(name, nil, f&^setAppend); err != nil {
			return err
		}
	} else if err := r.setArray(name, nil, f); err != nil {
		return err
	}
	v, _, _, _ = r.findForWrite(name, f&^setAppend)
	next := int64(0)
	if v.arr != nil {
		next = v.arr.maxIndex() + 1
	}
	for _, el := range av.elems {
		n := next
		sf := setForce
		if el.hasKey {
			// bash's subscript here goes through its internal quoting, where
			// \x01 is the escape byte: dequoting drops it before the
			// arithmetic sees the text.
			k, err := r.arithExpr(strings.ReplaceAll(el.key, "\x01", ""))
			if err != nil {
				return toFatal(err)
			}
			if k < 0 {
				k += next
				if k < 0 {
					return &varError{name + "[" + el.key + "]: bad array subscript"}
				}
			}
			n = k
			if el.append {
				sf |= setAppend
			}
		}
		if err := r.setIndex(name, n, el.val, sf); err != nil {
			return err
		}
		next = n + 1
	}
	return r.checkSize(name, v)
}

func (r *Runner) assignAssoc(name string, av *arrayValue, f setFlags) error {
	v, _, _, _ := r.findForWrite(name, f&^setAppend)
	if f&setAppend == 0 {
		if v.assoc != nil {
			v.assoc.refs.Add(-1)
		}
		v.assoc = newAssoc()
	}
	v.set = true
	a := v.assocMut()
	// A list without keys is key value key value (bash 5.1+).
	allPlain := true
	for _, el := range av.elems {
		if el.hasKey {
			allPlain = false
		}
	}
	if allPlain {
		for i := 0; i < len(av.elems); i += 2 {
			k := av.elems[i].val
			val := ""
			if i+1 < len(av.elems) {
				val = av.elems[i+1].val
			}
			val, err := r.attrValue(v, name, val, false, nil)
			if err != nil {
				return err
			}
			a.set(k, val)
		}
		return r.checkSize(name, v)
	}
	for _, el := range av.elems {
		if !el.hasKey {
			r.errmsg(name + ": " + el.val + ": must use subscript when assigning associative array")
			continue
		}
		if el.key == "" {
			return &varError{name + "[]: bad array subscript"}
		}
		val := el.val
		if el.append {
			old, _ := a.get(el.key)
			val = old + val
		}
		val, err := r.attrValue(v, name, val, false, nil)
		if err != nil {
			return err
		}
		a.set(el.key, val)
	}
	return r.checkSize(name, v)
}

// dispatch runs a command by name: function, builtin or program.
// noFunc skips functions (command, builtin).
func (r *Runner) dispatch(ctx context.Context, assigns []*syntax.Assign, args []string, decls map[int]*declArg, noFunc bool) int {
	name := args[0]
	if !noFunc {
		if fn := r.funcs.get(name); fn != nil {
			return r.withTempFrame(ctx, assigns, func() int { return r.callFunc(ctx, fn, args) })
		}
	}
	if b, ok := builtins[name]; ok && r.builtinEnabled(name) {
		if len(assigns) == 0 {
			return b(r, ctx, args, decls)
		}
		if r.opts.posix && specialBuiltins[name] {
			// POSIX: assignments before a special builtin stay
			for _, a := range assigns {
				if err := r.assign(ctx, a, 0); err != nil {
					r.assignError(err)
					if !r.interactive {
						r.exit(1) // (POSIX: a special builtin's assignment error is fatal)
					}
					return 1
				}
				r.keepTemp(a.Name)
			}
			return b(r, ctx, args, decls)
		}
		if adopt := tempAdopted(args); adopt != nil {
			// export, readonly and declare -x/-r take a prefix
			// assignment's variable over: it stays (`v=1 export v`)
			tf := &tempFrame{keep: map[string]bool{}}
			for _, a := range assigns {
				if adopt[a.Name] {
					tf.keep[a.Name] = true
				}
			}
			return r.withTempVarsKeep(ctx, assigns, tf, func() int { return b(r, ctx, args, decls) })
		}
		return r.withTempVars(ctx, assigns, func() int { return b(r, ctx, args, decls) })
	}
	env := r.environ()
	if len(assigns) > 0 {
		extra, err := r.tempEnv(ctx, assigns)
		if err != nil {
			r.assignError(err)
			return 1
		}
		env = mergeEnv(env, extra)
	}
	if r.oneShot != nil && r.curSimple == r.oneShot && r.traps.noneForExec() {
		// bash -c execs its last command in place of itself: the program
		// sees the shell's own SHLVL, not one more
		if v, ok := r.getVar("SHLVL"); ok {
			if n, err := strconv.Atoi(v); err == nil {
				env = mergeEnv(env, []string{"SHLVL=" + strconv.Itoa(n-1)})
			}
		}
	}
	return r.execProgram(ctx, args, env)
}

// tempEnv expands prefix assignments into K=V pairs.
func (r *Runner) tempEnv(ctx context.Context, assigns []*syntax.Assign) ([]string, error) {
	var out []string
	for _, a := range assigns {
		if a.Array != nil || a.Index != nil {
			continue
		}
		v, err := r.expandString(ctx, a.Value, ctxAssign)
		if err != nil {
			return nil, err
		}
		if a.Append {
			old, _ := r.getVar(a.Name)
			v = old + v
		}
		if cur := r.vars.m[a.Name]; cur != nil && cur.attrs&attrReadonly != 0 {
			if r.opts.posix {
				return nil, &varError{a.Name + ": readonly variable"}
			}
			r.errmsg(a.Name + ": readonly variable") // (bash runs the command all the same)
			continue
		}
		out = append(out, a.Name+"="+v)
	}
	return out, nil
}

func mergeEnv(env, extra []string) []string {
	out := make([]string, 0, len(env)+len(extra))
	names := map[string]bool{}
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		names[k] = true
	}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !names[k] {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// withTempVars gives a builtin its prefix assignments for its duration.
func (r *Runner) withTempVars(ctx context.Context, assigns []*syntax.Assign, fn func() int) int {
	return r.withTempVarsKeep(ctx, assigns, nil, fn)
}

// tempAdopted names the variables a declaration builtin keeps when they
// are prefix assignments of its own command: export (not -n), readonly,
// and declare/typeset with -x or -r. Nil for other commands.
func tempAdopted(args []string) map[string]bool {
	keep := false
	switch args[0] {
	case "export", "readonly":
		keep = true
	case "declare", "typeset":
	default:
		return nil
	}
	names := map[string]bool{}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
			if a[0] == '-' && strings.ContainsAny(a, "xr") && args[0] != "export" {
				keep = true
			}
			if args[0] == "export" && a[0] == '-' && strings.Contains(a, "n") {
				return nil
			}
			continue
		}
		name, _, _ := strings.Cut(a, "=")
		names[strings.TrimSuffix(name, "+")] = true
	}
	if !keep {
		return nil
	}
	return names
}

// tempFrame is a function call's prefix assignments (`v=1 f`): names, and
// those a special builtin's assignment in POSIX mode set while it ran,
// which outlive the call as bash's do (`f() { v=20 return; }; v=30 f`
// leaves v=20).
type tempFrame struct {
	names map[string]bool
	keep  map[string]bool
	level int // the caller's function depth
}

// keepTemp: a POSIX special builtin's assignment to name stays after the
// function calls whose prefix assignments hold name (from the innermost
// out), unless it went to a local variable of a function they called.
func (r *Runner) keepTemp(name string) {
	v := r.vars.m[name]
	for i := len(r.tempFrames) - 1; i >= 0; i-- {
		tf := r.tempFrames[i]
		if !tf.names[name] {
			continue
		}
		if v != nil && v.level > tf.level {
			return // (a local of a function called with it)
		}
		tf.keep[name] = true
	}
}

// tempBound: v, the variable name now names, is a function call's prefix
// assignment, or a local of that function itself (bash's temporary
// environment is the called function's own scope), not of one it called.
func (r *Runner) tempBound(name string, v *Var) bool {
	for i := len(r.tempFrames) - 1; i >= 0; i-- {
		if tf := r.tempFrames[i]; tf.names[name] {
			return v.level <= tf.level+1
		}
	}
	return false
}

// withTempVarsKeep is withTempVars, leaving the names tf keeps as they are.
func (r *Runner) withTempVarsKeep(ctx context.Context, assigns []*syntax.Assign, tf *tempFrame, fn func() int) int {
	type saved struct {
		name string
		v    *Var
		had  bool
	}
	var olds []saved
	for _, a := range assigns {
		m := r.mutVars()
		old, had := m[a.Name]
		var cp *Var
		if had {
			cp = copyVar(old)
		}
		olds = append(olds, saved{a.Name, cp, had})
		if err := r.assign(ctx, a, 0); err != nil {
			var ve *varError
			if errors.As(err, &ve) && !r.opts.posix && strings.HasSuffix(ve.msg, ": readonly variable") {
				r.errmsg(ve.msg) // (bash runs the command all the same)
				continue
			}
			r.assignError(err)
			return 1
		}
		if v := r.vars.m[a.Name]; v != nil {
			v.attrs |= attrExport
		}
	}
	st := fn()
	m := r.mutVars()
	for i := len(olds) - 1; i >= 0; i-- {
		o := olds[i]
		if tf != nil && tf.keep[o.name] {
			continue
		}
		if o.had {
			m[o.name] = o.v
		} else {
			delete(m, o.name)
		}
		r.varChanged(o.name)
	}
	return st
}

// withTempFrame gives a function its prefix assignments as exported
// variables local to the call.
func (r *Runner) withTempFrame(ctx context.Context, assigns []*syntax.Assign, fn func() int) int {
	if len(assigns) == 0 {
		return fn()
	}
	tf := &tempFrame{names: map[string]bool{}, keep: map[string]bool{}, level: len(r.frames)}
	for _, a := range assigns {
		tf.names[a.Name] = true
	}
	r.tempFrames = append(r.tempFrames, tf)
	defer func() { r.tempFrames = r.tempFrames[:len(r.tempFrames)-1] }()
	return r.withTempVarsKeep(ctx, assigns, tf, fn)
}

// lookPath finds a program, remembering it like bash's hash table.
func (r *Runner) lookPath(name string) (string, error) {
	if !strings.Contains(name, "/") && r.opts.hashall {
		if p, ok := r.hashed.lookup(name); ok {
			if fi, err := r.cfg.FS.Stat(p); err == nil && !fi.IsDir() {
				return p, nil
			}
			r.hashed.remove(name)
		}
	}
	if r.cfg.LookPath == nil {
		return "", syscall.ENOENT
	}
	p, err := r.cfg.LookPath(r.environ(), r.dir, name)
	if err == nil && !strings.Contains(name, "/") && r.opts.hashall {
		r.hashed.insert(name, p, 1)
	}
	return p, err
}

// execProgram runs a program from the VFS.
func (r *Runner) execProgram(ctx context.Context, args []string, env []string) int {
	name := args[0]
	var p string
	var err error
	if path, ok := envValue(env, "PATH"); ok && !r.samePath(path) && r.cfg.LookPath != nil {
		p, err = r.cfg.LookPath(env, r.dir, name) // PATH=... cmd: searched there
	} else {
		p, err = r.lookPath(name)
	}
	if _, hasPath := r.getVar("PATH"); !hasPath && err != nil && !strings.Contains(name, "/") {
		// without PATH, bash looks in the current directory only
		r.errmsg(name + ": No such file or directory")
		return 127
	}
	if err != nil {
		errno := errnoOf(err)
		if errno == syscall.ENOENT && !strings.Contains(name, "/") {
			if fn := r.funcs.get("command_not_found_handle"); fn != nil {
				return r.callFunc(ctx, fn, append([]string{"command_not_found_handle"}, args...))
			}
			r.errmsg(name + ": command not found")
			return 127
		}
		r.errmsg(name + ": " + Strerror(errno))
		if errno == syscall.ENOENT {
			return 127
		}
		return 126
	}
	return r.runProgram(ctx, p, args, env)
}

// runProgram runs the program at path p with argv args.
func (r *Runner) runProgram(ctx context.Context, p string, args, env []string) int {
	req := &ExecRequest{
		PPid: r.bashpid, Path: p, Argv: args, Env: env, Dir: r.dir,
		Stdin: r.reader(0), Stdout: r.writer(1), Stderr: r.writer(2), Umask: r.umask,
		Files: r.inheritedFiles(), ErrPrefix: r.msgPrefix(), NoSkipDots: !r.shopt.globskipdots,
		Ignored: r.ignoredSignals(),
	}
	if r.execPid != 0 && len(r.frames) == 0 {
		req.Pid, req.PPid, r.execPid = r.execPid, r.execPPid, 0
	}
	st := r.cfg.Exec(ctx, req)
	// A program that failed may have been stopped by the run's end: the shell stops there
	// too, before the next command. The clock is read (interrupt.Ended), not only ctx.Err():
	// under GOOS=js the deadline's timer cannot fire while a guest holds the thread, and
	// pastDeadline reads the clock only now and then.
	if st != 0 && interrupt.Ended(ctx) {
		r.stop(ctx)
	}
	if r.chldTrapped() {
		r.sig.send(sigCHLD)
	}
	return st
}

// trace prints set -x lines: PS4, then the assignments and words.
func (r *Runner) trace(ctx context.Context, assigns []*syntax.Assign, args []string) {
	var b strings.Builder
	b.WriteString(r.ps4(ctx))
	var parts []string
	for _, a := range assigns {
		if a.Array != nil {
			parts = append(parts, a.Name+"=("+strings.TrimSpace(strings.TrimPrefix(a.Raw[len(a.Name):], "="))+")")
			continue
		}
		v, _ := r.getVar(a.Name)
		if prev, ok := r.traceBefore[a.Name]; ok && a.Append && strings.HasPrefix(v, prev) {
			parts = append(parts, a.Name+"+="+expand.QuoteXtrace(v[len(prev):]))
			continue
		}
		if v == "" {
			parts = append(parts, a.Name+"=")
			continue
		}
		parts = append(parts, a.Name+"="+expand.QuoteXtrace(v))
	}
	if len(parts) > 0 && args != nil {
		// bash prints prefix assignments on the command's line
	}
	for _, w := range args {
		parts = append(parts, expand.QuoteXtrace(w))
	}
	if args == nil {
		for _, p := range parts {
			r.traceOut(r.ps4(ctx) + p + "\n")
		}
		return
	}
	b.WriteString(strings.Join(parts, " "))
	b.WriteByte('\n')
	r.traceOut(b.String())
}

// traceOut writes set -x output: to the fd $BASH_XTRACEFD names when it
// is open, else to stderr.
func (r *Runner) traceOut(s string) {
	if v, ok := r.getVar("BASH_XTRACEFD"); ok && v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			if f := r.fds.get(n); f != nil {
				_, _ = f.WriteString(s)
				return
			}
		}
	}
	r.stderr(s)
}

// traceLine prints one set -x line (for NAME in ..., case WORD in, the
// parts of for ((...))).
func (r *Runner) traceLine(ctx context.Context, s string) {
	if r.opts.xtrace {
		r.traceOut(r.ps4(ctx) + s + "\n")
	}
}

// ps4 is the set -x prefix: PS4 expanded, its first character repeated
// for each level of nesting.
func (r *Runner) ps4(ctx context.Context) string {
	v, ok := r.getVar("PS4")
	if !ok {
		return ""
	}
	if strings.ContainsAny(v, "$`\\") {
		if xtr := r.opts.xtrace; xtr {
			r.opts.xtrace = false
			s := r.prompt(ctx, v)
			r.opts.xtrace = true
			v = s
		}
	}
	if v == "" {
		return ""
	}
	level := r.subshellTraceLevel()
	if level > 1 {
		v = strings.Repeat(v[:1], level-1) + v
	}
	return v
}

func (r *Runner) subshellTraceLevel() int { return 1 + r.traceNest }

// traceArith prints (( )) under set -x.
func (r *Runner) traceArith(ctx context.Context, a *syntax.Arith) {
	if !r.opts.xtrace {
		return
	}
	s, err := r.expandQuoted(ctx, a.W)
	if err != nil {
		return
	}
	r.traceOut(r.ps4(ctx) + "(( " + strings.TrimSpace(s) + " ))\n")
}

// envValue finds K in K=V pairs (the last one wins).
func envValue(env []string, k string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], k+"="); ok {
			return v, true
		}
	}
	return "", false
}

// samePath: path is the shell's own PATH.
func (r *Runner) samePath(path string) bool {
	cur, ok := r.getVar("PATH")
	return ok && cur == path
}
