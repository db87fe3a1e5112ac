package interp

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// declare, typeset and local share one implementation.
func builtinDeclare(r *Runner, ctx context.Context, args []string, decls map[int]*declArg) int {
	name := args[0]
	if name == "local" && len(r.frames) == 0 {
		r.errmsg("local: can only be used in a function")
		return 1
	}
	spec := "aAfFgiIlnrtuxpc"
	if name == "local" {
		spec = "aAfFiIlnrtuxpc"
	}
	if name == "local" {
		// `local -`: the set options become local to the function
		for _, a := range args[1:] {
			if a == "-" {
				if f := r.frames[len(r.frames)-1]; f.savedOpts == nil {
					saved := r.opts
					f.savedOpts = &saved
				}
			}
		}
	}
	o, rest, ok := r.getopt(name, args[1:], spec, true)
	if !ok {
		return 2
	}
	restStart := len(args) - len(rest)
	if o.set['f'] || o.set['F'] {
		return r.declareFuncs(name, o, rest)
	}
	if o.set['p'] || len(rest) == 0 && len(o.order) > 0 || len(rest) == 0 && len(o.order) == 0 {
		if len(rest) == 0 {
			if name == "local" {
				return r.printLocals() // (`local` alone: the function's variables)
			}
			if len(o.order) == 0 && !o.set['p'] {
				return r.printAllVars(true)
			}
			return r.printDeclared(name, o)
		}
		st := 0
		var b strings.Builder
		for _, n := range rest {
			v := r.vars.m[n]
			if v == nil || (n == "FUNCNAME" && len(r.frames) == 0) {
				r.errmsg(name + ": " + n + ": not found")
				st = 1
				continue
			}
			b.WriteString(r.declareLine(n, v) + "\n")
		}
		if w := r.out(name, b.String()); w != 0 {
			return w
		}
		return st
	}
	var add, remove attr
	for c, a := range map[byte]attr{'a': attrArray, 'A': attrAssoc, 'i': attrInteger, 'l': attrLower,
		'u': attrUpper, 'n': attrNameref, 'r': attrReadonly, 't': attrTrace, 'x': attrExport, 'c': attrCapital} {
		if o.set[c] {
			add |= a
		}
		if o.plus[c] {
			remove |= a
		}
	}
	local := name == "local" || len(r.frames) > 0 && !o.set['g']
	st := 0
	for i, arg := range rest {
		if arg == "-" && name == "local" {
			continue // done above
		}
		d := decls[restStart+i]
		if d == nil {
			d = parseDeclArg(arg)
		}
		if err := r.declareOne(ctx, name, d, arg, add, remove, local, o.set['g'], o.set['I']); err != nil {
			if err != errReported {
				r.errmsg(name + ": " + err.Error())
			}
			st = 1
		}
	}
	return st
}

// errReported marks an error already printed.
var errReported = fmt.Errorf("reported")

// parseDeclArg splits a textual NAME[=value] argument.
func parseDeclArg(arg string) *declArg {
	d := &declArg{}
	name, val, hasVal := strings.Cut(arg, "=")
	if !hasVal {
		d.name = arg
		if base, sub, ok := splitSubscript(arg); ok {
			d.name, d.index, d.hasIdx = base, sub, true
		}
		d.value = ""
		return d
	}
	if strings.HasSuffix(name, "+") {
		name = name[:len(name)-1]
		d.append = true
	}
	if base, sub, ok := splitSubscript(name); ok {
		d.name, d.index, d.hasIdx = base, sub, true
	} else {
		d.name = name
	}
	d.value = val
	d.hasValue = true
	return d
}

// declareOne applies declare's attributes and value to one name.
func (r *Runner) declareOne(ctx context.Context, cmd string, d *declArg, raw string, add, remove attr, local, global, inherit bool) error {
	if !syntax.ValidName(d.name) {
		return fmt.Errorf("`%s': not a valid identifier", raw)
	}
	hasValue := d.hasValue || d.array != nil || strings.Contains(raw, "=")
	if d.hasIdx && !hasValue {
		add |= attrArray // declare NAME[N] makes NAME an array
	}
	// A textual compound value: declare -a 'x=(1 2)' (export and readonly
	// only with -a or -A: export r='(5)' sets r[0] to (5))
	existing := r.isArrayVar(d.name) && cmd != "export" && cmd != "readonly"
	if d.array == nil && hasValue && (add&(attrArray|attrAssoc) != 0 || existing) &&
		strings.HasPrefix(d.value, "(") && strings.HasSuffix(d.value, ")") && !d.hasIdx {
		if av, err := r.parseArrayText(ctx, d.value); err == nil {
			d.array = av
		}
	}
	m := r.mutVars()
	var v *Var
	if local {
		cur := m[d.name]
		if cur == nil || cur.level != len(r.frames) {
			if cur != nil && cur.attrs&attrReadonly != 0 {
				// (a readonly variable cannot be shadowed either)
				return fmt.Errorf("%s: readonly variable", d.name)
			}
			v = r.makeLocal(d.name)
			if !inherit && cur != nil && r.tempBound(d.name, cur) {
				// a function call's prefix assignment (x=5 f) is the
				// caller's: a local of its name is exported, and keeps
				// its value unless given one (or made an array)
				v.attrs |= attrExport
				if !hasValue && add&(attrArray|attrAssoc) == 0 && !cur.isArray() && !cur.isAssoc() {
					v.str, v.set = cur.str, cur.set
				} else if !hasValue && cur.set {
					// (local -a x: an empty array, set)
					d.array, hasValue = &arrayValue{}, true
				}
			}
			if inherit && cur != nil {
				v.attrs |= cur.attrs &^ (attrReadonly | attrNameref)
				v.str, v.set = cur.str, cur.set
			}
		} else {
			v = cur
		}
	} else if global {
		v, _, _, _ = r.findForWrite(d.name, setGlobal)
	} else if (add|remove)&attrNameref != 0 && m[d.name] != nil {
		v = m[d.name] // -n and +n apply to the reference itself
	} else {
		v = r.lookup(d.name)
		if v == nil {
			v, _, _, _ = r.findForWrite(d.name, 0)
		}
	}
	if add&attrNameref != 0 && hasValue && !validRef(d.value) {
		return fmt.Errorf("`%s': invalid variable name for name reference", d.value)
	}
	if add&attrNameref != 0 && d.value == d.name {
		return fmt.Errorf("%s: nameref variable self references not allowed", d.name)
	}
	if v.attrs&attrReadonly != 0 && (hasValue || remove&attrReadonly != 0 || add&^(attrReadonly|attrExport|attrTrace) != 0) {
		if remove&attrReadonly != 0 {
			return fmt.Errorf("%s: readonly variable", d.name)
		}
		if hasValue {
			return fmt.Errorf("%s: readonly variable", d.name)
		}
	}
	if add&attrAssoc != 0 && v.isArray() {
		return fmt.Errorf("%s: cannot convert indexed to associative array", d.name)
	}
	if add&attrArray != 0 && v.isAssoc() {
		return fmt.Errorf("%s: cannot convert associative to indexed array", d.name)
	}
	if (add&(attrArray|attrAssoc) != 0) && v.attrs&attrNameref != 0 {
		return fmt.Errorf("%s: reference variable cannot be an array", d.name)
	}
	// attributes first (an integer value is evaluated as one)
	if add&attrArray != 0 && !v.isArray() {
		s, had := v.str, v.set
		v.attrs |= attrArray
		v.arr = newIndexed()
		if had && v.dyn == dynNone {
			v.arr.set(0, s)
		}
		v.str = ""
		v.dyn = dynNone
	}
	if add&attrAssoc != 0 && !v.isAssoc() {
		s, had := v.str, v.set
		v.attrs |= attrAssoc
		v.assoc = newAssoc()
		if had && v.dyn == dynNone && s != "" {
			v.assoc.set("0", s)
		}
		v.str = ""
		v.dyn = dynNone
	}
	if add&(attrLower|attrUpper|attrCapital) != 0 {
		v.attrs &^= attrLower | attrUpper | attrCapital
	}
	v.attrs = (v.attrs | add&^(attrArray|attrAssoc|attrReadonly)) &^ remove &^ (attrArray | attrAssoc)
	if v.arr != nil {
		v.attrs |= attrArray
	}
	if v.assoc != nil {
		v.attrs |= attrAssoc
	}
	if remove&(attrArray|attrAssoc) != 0 {
		// bash refuses to remove array attributes silently
	}
	if hasValue {
		f := setForce
		if d.append {
			f |= setAppend
		}
		var err error
		switch {
		case d.array != nil:
			err = r.assignArrayForce(d.name, d.array, f)
		case d.hasIdx:
			err = r.setElement(d.name, d.index, d.value, f)
		default:
			if v.attrs&attrNameref != 0 && add&attrNameref != 0 {
				v.str, v.set = d.value, true
			} else {
				err = r.setVarIn(v, d.name, d.value, f)
			}
		}
		if err != nil {
			return err
		}
	}
	// (a value already there keeps its text: attributes apply to the next
	// assignment, as in bash)
	if add&attrReadonly != 0 {
		v.attrs |= attrReadonly
	}
	if add&attrArray != 0 && !hasValue && !v.set {
		// declare -a x: an empty (unset) array
	}
	r.varChanged(d.name)
	return nil
}

// setVarIn assigns a scalar to a variable already found.
func (r *Runner) setVarIn(v *Var, name, val string, f setFlags) error {
	if v.dyn != dynNone && r.assignDyn(v, val) {
		return nil
	}
	val, err := r.attrValue(v, name, val, f&setAppend != 0, func() string { s, _ := r.scalar(v); return s })
	if err != nil {
		return err
	}
	switch {
	case v.isAssoc():
		v.assocMut().set("0", val)
	case v.isArray():
		v.arrMut().set(0, val)
	default:
		v.str = val
	}
	v.set = true
	r.varChanged(name)
	return r.checkSize(name, v)
}

func (r *Runner) assignArrayForce(name string, av *arrayValue, f setFlags) error {
	v := r.vars.m[name]
	if v != nil {
		ro := v.attrs & attrReadonly
		v.attrs &^= attrReadonly
		err := r.assignArray(name, av, f&^setForce)
		if nv := r.vars.m[name]; nv != nil {
			nv.attrs |= ro
		}
		return err
	}
	return r.assignArray(name, av, f&^setForce)
}

func (r *Runner) isArrayVar(name string) bool {
	v := r.lookup(name)
	return v != nil && (v.isArray() || v.isAssoc())
}

// parseArrayText parses "(a b [k]=v)" given as text (declare -a 'x=(...)').
func (r *Runner) parseArrayText(ctx context.Context, s string) (*arrayValue, error) {
	stmts, err := syntax.Parse("x=" + s)
	if err != nil || len(stmts) != 1 {
		return nil, fmt.Errorf("bad array")
	}
	sc, ok := stmts[0].Pipes[0].Cmds[0].(*syntax.SimpleCmd)
	if !ok || len(sc.Assigns) != 1 || sc.Assigns[0].Array == nil || len(sc.Words) > 0 {
		return nil, fmt.Errorf("bad array")
	}
	return r.expandArrayLit(ctx, sc.Assigns[0].Array)
}

// printDeclared lists variables that have the given attributes.
func (r *Runner) printDeclared(name string, o parsedOpts) int {
	var want attr
	for c, a := range map[byte]attr{'a': attrArray, 'A': attrAssoc, 'i': attrInteger, 'l': attrLower,
		'u': attrUpper, 'n': attrNameref, 'r': attrReadonly, 't': attrTrace, 'x': attrExport} {
		if o.set[c] {
			want |= a
		}
	}
	var b strings.Builder
	for _, n := range r.sortedVarNames() {
		v := r.vars.m[n]
		if v.attrs&want != want {
			continue
		}
		if v.dyn != dynNone && n == "FUNCNAME" && len(r.frames) == 0 {
			continue
		}
		b.WriteString(r.declareLine(n, v) + "\n")
	}
	if o.set['f'] || len(o.order) == 0 {
		for _, fn := range r.funcs.names() {
			b.WriteString(syntax.FuncString(fn, r.funcs.get(fn).body) + "\n")
		}
	}
	return r.out(name, b.String())
}

// printLocals lists the current function's local variables as declare -p.
func (r *Runner) printLocals() int {
	level := len(r.frames)
	var b strings.Builder
	for _, n := range r.sortedVarNames() {
		if v := r.vars.m[n]; v.level == level && level > 0 && !v.temp {
			b.WriteString(r.declareLine(n, v) + "\n")
		}
	}
	return r.out("local", b.String())
}

func (r *Runner) sortedVarNames() []string {
	out := make([]string, 0, len(r.vars.m))
	for k, v := range r.vars.m {
		if v.dyn == dynFuncname && len(r.frames) == 0 {
			continue
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// printAllVars is `set` (and `declare` alone): NAME=value lines, then
// functions.
func (r *Runner) printAllVars(funcs bool) int {
	var b strings.Builder
	for _, n := range r.sortedVarNames() {
		v := r.vars.m[n]
		switch {
		case v.isAssoc() || v.isArray() || v.dyn != dynNone && r.dynArray(v) != nil:
			if !v.set && v.dyn == dynNone {
				continue
			}
			line := r.declareLine(n, v)
			if i := strings.Index(line, " "+n+"="); i >= 0 {
				b.WriteString(line[i+1:] + "\n")
			}
		default:
			s, ok := r.scalar(v)
			if !ok {
				continue
			}
			b.WriteString(n + "=" + setQuote(s) + "\n")
		}
	}
	if funcs {
		for _, fn := range r.funcs.names() {
			b.WriteString(syntax.FuncString(fn, r.funcs.get(fn).body) + "\n")
		}
	}
	return r.out("set", b.String())
}

// setQuote quotes a value as `set` prints it: bare when safe, else '...'.
func setQuote(s string) string {
	if s == "" {
		return "''"
	}
	if expand.NeedsANSIC(s) {
		return expand.QuoteANSIC(s)
	}
	if expand.HasShellMeta(s) || strings.ContainsAny(s, "=") && false {
		return expand.QuoteSingle(s)
	}
	return s
}

// declareFuncs is declare -f / -F.
func (r *Runner) declareFuncs(name string, o parsedOpts, names []string) int {
	for _, c := range []byte("aAiIlnuc") {
		if o.set[c] || o.plus[c] {
			r.errmsg(name + ": -" + string(c) + ": invalid option") // (not a function's attribute)
			return 1
		}
	}
	attrs := func(n string, fn *function) string {
		s := ""
		if r.funcs.ro[n] {
			s += "r"
		}
		if fn.trace {
			s += "t"
		}
		if fn.exported {
			s += "x"
		}
		return s
	}
	st := 0
	explicit := len(names) > 0
	setting := explicit && (o.set['x'] || o.set['r'] || o.set['t'] || o.plus['x'] || o.plus['r'] || o.plus['t'])
	if !explicit {
		names = r.funcs.names()
	}
	var b strings.Builder
	for _, n := range names {
		if strings.Contains(n, "=") {
			r.errmsg(name + ": cannot use `-f' to make functions")
			st = 1
			continue
		}
		fn := r.funcs.get(n)
		if fn == nil {
			if o.set['p'] {
				r.errmsg(name + ": " + n + ": not found") // (only with -p: declare -f f is quiet)
			}
			st = 1
			continue
		}
		if setting {
			if o.plus['r'] && r.funcs.ro[n] {
				r.errmsg(name + ": " + n + ": readonly function")
				st = 1
				continue
			}
			// (a copy: the function is shared with subshells and forks)
			if o.set['t'] || o.plus['t'] {
				c := *fn
				c.trace = o.set['t']
				fn = &c
				r.mutFuncs()[n] = fn
			}
			if o.set['x'] || o.plus['x'] {
				c := *fn
				c.exported = o.set['x']
				fn = &c
				r.mutFuncs()[n] = fn
			}
			if o.set['r'] {
				r.mutFuncs()
				if r.funcs.ro == nil {
					r.funcs.ro = map[string]bool{}
				}
				r.funcs.ro[n] = true
			}
			continue
		}
		a := attrs(n, fn)
		// declare -Fr, -fx...: only the functions with those attributes
		if (o.set['r'] && !strings.Contains(a, "r")) || (o.set['t'] && !strings.Contains(a, "t")) || (o.set['x'] && !strings.Contains(a, "x")) {
			continue
		}
		if o.set['F'] {
			if explicit {
				b.WriteString(n + "\n")
			} else {
				b.WriteString("declare -f" + a + " " + n + "\n")
			}
			continue
		}
		b.WriteString(syntax.FuncString(n, fn.body) + "\n")
		if a != "" {
			b.WriteString("declare -f" + a + " " + n + "\n")
		}
	}
	if w := r.out(name, b.String()); w != 0 {
		return w
	}
	return st
}

// export and readonly.
func builtinExport(r *Runner, ctx context.Context, args []string, decls map[int]*declArg) int {
	name := args[0]
	spec := "aAfnp" // (export's -a and -A are bash's, though not in its usage)
	o, rest, ok := r.getopt(name, args[1:], spec, false)
	if !ok {
		return 2
	}
	restStart := len(args) - len(rest)
	flag := attrExport
	if name == "readonly" {
		flag = attrReadonly
	}
	if o.set['f'] {
		st := 0
		for _, n := range rest {
			if r.funcs.get(n) == nil {
				r.errmsg(name + ": " + n + ": not a function")
				st = 1
			} else if name == "export" && strings.ContainsAny(n, "=/") {
				r.errmsg(name + ": " + n + ": cannot export")
				st = 1
			} else if name == "export" {
				fn := *r.funcs.get(n)
				fn.exported = !o.set['n']
				r.mutFuncs()[n] = &fn
			} else if name == "readonly" {
				r.mutFuncs()
				if r.funcs.ro == nil {
					r.funcs.ro = map[string]bool{}
				}
				r.funcs.ro[n] = true
			}
		}
		if len(rest) == 0 {
			var b strings.Builder
			for _, n := range r.funcs.names() {
				if name == "readonly" && !r.funcs.ro[n] {
					continue
				}
				b.WriteString(syntax.FuncString(n, r.funcs.get(n).body) + "\n")
				b.WriteString("declare -f" + map[bool]string{true: "r", false: "x"}[name == "readonly"] + " " + n + "\n")
			}
			return r.out(name, b.String())
		}
		return st
	}
	if len(rest) == 0 || o.set['p'] && len(rest) == 0 {
		var b strings.Builder
		for _, n := range r.sortedVarNames() {
			v := r.vars.m[n]
			if v.attrs&flag == 0 {
				continue
			}
			if name == "export" && (v.isArray() || v.isAssoc()) {
				continue
			}
			if o.set['a'] && !v.isArray() || o.set['A'] && !v.isAssoc() {
				continue
			}
			line := r.declareLine(n, v)
			if r.opts.posix {
				// POSIX: "readonly -a name=..." / "export name=..."
				line = strings.Replace(line, "declare -", name+" -", 1)
				line = strings.Replace(line, name+" -- ", name+" ", 1)
				if flags := attrFlags(v); name == "readonly" {
					line = strings.Replace(line, name+" -"+flags+" ", name+optFlags(flags, 'r')+" ", 1)
				} else if name == "export" {
					line = strings.Replace(line, name+" -"+flags+" ", name+optFlags(flags, 'x')+" ", 1)
				}
			}
			b.WriteString(line + "\n")
		}
		return r.out(name, b.String())
	}
	st := 0
	for i, arg := range rest {
		if arg == "-" && name == "local" {
			continue // done above
		}
		d := decls[restStart+i]
		if d == nil {
			d = parseDeclArg(arg)
		}
		if !syntax.ValidName(d.name) || d.hasIdx && !d.hasValue && decls[restStart+i] == nil {
			r.errmsg(name + ": `" + arg + "': not a valid identifier")
			st = 1
			continue
		}
		if name == "export" && o.set['n'] {
			if v := r.lookup(d.name); v != nil {
				r.mutVars()
				if v := r.lookup(d.name); v != nil {
					v.attrs &^= attrExport
				}
			}
			continue
		}
		var add attr = flag
		if o.set['a'] {
			add |= attrArray
		}
		if o.set['A'] && name == "readonly" { // (export -A name: bash ignores the -A)
			add |= attrAssoc
		}
		// (a quoted '(…)' read as a list, with -a: declare's way, whose
		// messages name the builtin)
		textual := (o.set['a'] || o.set['A']) && d.array == nil && strings.HasPrefix(d.value, "(")
		if err := r.declareOne(ctx, name, d, arg, add, 0, false, false, false); err != nil {
			if strings.HasSuffix(err.Error(), ": readonly variable") && !textual {
				r.errmsg(err.Error()) // (bash names no builtin here, as for an assignment)
			} else {
				r.errmsg(name + ": " + err.Error())
			}
			st = 1
		}
	}
	return st
}

func builtinUnset(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("unset", args[1:], "fvn", false)
	if !ok {
		return 2
	}
	if o.set['f'] && o.set['v'] {
		r.errmsg("unset: cannot simultaneously unset a function and a variable")
		return 1
	}
	st := 0
	for _, n := range rest {
		if o.set['f'] {
			if r.funcs.ro[n] {
				r.errmsg("unset: " + n + ": cannot unset: readonly function")
				st = 1
				continue
			}
			delete(r.mutFuncs(), n)
			continue
		}
		base, sub, isElem := splitSubscript(n)
		if !syntax.ValidName(base) {
			if !o.set['v'] && !o.set['n'] {
				// not a variable's name: a function's, which bash allows
				// to be anything
				if r.funcs.get(n) != nil && !r.funcs.ro[n] {
					delete(r.mutFuncs(), n)
				}
				continue
			}
			r.errmsg("unset: `" + n + "': not a valid identifier")
			st = 1
			continue
		}
		if isElem {
			v := r.lookup(base)
			if v == nil {
				continue
			}
			if !v.isAssoc() && sub != "@" && sub != "*" {
				if _, err := r.arithExpr(sub); err != nil {
					r.errmsg("unset: " + n + ": bad array subscript")
					st = 1
					continue
				}
			}
			if err := r.unsetElement(r.resolveBase(base), sub); err != nil {
				r.errmsg("unset: " + err.Error())
				st = 1
			}
			continue
		}
		if !o.set['v'] && r.lookup(n) == nil && r.funcs.get(n) != nil {
			delete(r.mutFuncs(), n)
			continue
		}
		if err := r.unsetVar(n, !o.set['n']); err != nil {
			r.errmsg("unset: " + err.Error())
			st = 1
		}
	}
	return st
}

func builtinSet(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	args = args[1:]
	if len(args) == 0 {
		return r.printAllVars(!r.opts.posix)
	}
	setParams := false
	var params []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			setParams = true
			params = args[i+1:]
			break
		}
		if a == "-" {
			r.opts.xtrace, r.opts.verbose = false, false
			setParams = true
			params = args[i+1:]
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			setParams = true
			params = args[i:]
			break
		}
		on := a[0] == '-'
		for j := 1; j < len(a); j++ {
			c := a[j]
			if c == 'o' {
				if i+1 >= len(args) || strings.HasPrefix(args[i+1], "-") || strings.HasPrefix(args[i+1], "+") {
					r.printOptions(on)
					continue
				}
				i++
				p := r.optByName(args[i])
				if p == nil {
					r.errmsg("set: " + args[i] + ": invalid option name")
					if r.opts.posix && !r.interactive && r.viaCommand == 0 {
						r.exit(2) // (a special builtin's error ends a POSIX shell)
					}
					return 2
				}
				*p = on
				if args[i] == "posix" && on {
					r.shopt.inheritErrexit = true
				}
				if args[i] == "ignoreeof" {
					// (bash keeps IGNOREEOF in step: 10 on, unset off)
					if on {
						_ = r.setVar("IGNOREEOF", "10", 0)
					} else {
						_ = r.unsetVar("IGNOREEOF", false)
					}
				}
				continue
			}
			p := r.optByLetter(c)
			if p == nil || c == 'i' || c == 'c' || c == 's' {
				return r.usageError("set", string(a[0])+string(c)+": invalid option")
			}
			*p = on
		}
	}
	if setParams {
		r.params = append([]string(nil), params...)
		r.paramsSet++
	}
	return 0
}

// printOptions is set -o (on) and set +o (off: as commands).
func (r *Runner) printOptions(on bool) {
	var b strings.Builder
	for _, e := range r.optTable() {
		if on {
			v := "off"
			if *e.p {
				v = "on"
			}
			fmt.Fprintf(&b, "%-15s\t%s\n", e.name, v)
		} else {
			sign := "+"
			if *e.p {
				sign = "-"
			}
			fmt.Fprintf(&b, "set %so %s\n", sign, e.name)
		}
	}
	r.out("set", b.String())
}

func builtinShopt(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, rest, ok := r.getopt("shopt", args[1:], "pqsuo", false)
	if !ok {
		return 2
	}
	if o.set['s'] && o.set['u'] {
		r.errmsg("shopt: cannot set and unset shell options simultaneously")
		return 1
	}
	type entry struct {
		name string
		p    *bool
	}
	var table []entry
	if o.set['o'] {
		for _, e := range r.optTable() {
			table = append(table, entry{e.name, e.p})
		}
	} else {
		for _, e := range r.shoptList() {
			table = append(table, entry{e.name, e.p})
		}
	}
	find := func(n string) *bool {
		for _, e := range table {
			if e.name == n {
				return e.p
			}
		}
		return nil
	}
	show := func(b *strings.Builder, name string, on bool) {
		switch {
		case o.set['p'] && o.set['o']:
			sign := "+"
			if on {
				sign = "-"
			}
			fmt.Fprintf(b, "set %so %s\n", sign, name)
		case o.set['p']:
			sign := "-u"
			if on {
				sign = "-s"
			}
			fmt.Fprintf(b, "shopt %s %s\n", sign, name)
		default:
			v := "off"
			if on {
				v = "on"
			}
			fmt.Fprintf(b, "%-15s\t%s\n", name, v)
		}
	}
	if o.set['s'] || o.set['u'] {
		if len(rest) == 0 {
			var b strings.Builder
			for _, e := range table {
				if *e.p == o.set['s'] {
					show(&b, e.name, *e.p)
				}
			}
			if !o.set['q'] {
				return r.out("shopt", b.String())
			}
			return 0
		}
		st := 0
		for _, n := range rest {
			p := find(n)
			if p == nil {
				r.errmsg("shopt: " + n + ": invalid shell option name")
				st = 1
				continue
			}
			*p = o.set['s']
		}
		return st
	}
	st := 0
	var b strings.Builder
	if len(rest) == 0 {
		for _, e := range table {
			show(&b, e.name, *e.p)
		}
	} else {
		for _, n := range rest {
			p := find(n)
			if p == nil {
				if o.set['o'] {
					r.errmsg("shopt: " + n + ": invalid option name")
				} else {
					r.errmsg("shopt: " + n + ": invalid shell option name")
				}
				st = 1
				continue
			}
			if !*p {
				st = 1
			}
			show(&b, n, *p)
		}
	}
	if o.set['q'] {
		return st
	}
	if w := r.out("shopt", b.String()); w != 0 {
		return w
	}
	return st
}

func builtinGetopts(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	if len(args) > 1 && args[1] == "--" {
		args = append(args[:1:1], args[2:]...)
	} else if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' {
		return r.usageError("getopts", args[1][:2]+": invalid option")
	}
	if len(args) < 3 {
		r.stderr("getopts: usage: " + usages["getopts"] + "\n")
		return 2
	}
	optstring, name := args[1], args[2]
	// bash parses the option (OPTIND moves on) before it finds that the
	// name is not one it can assign
	bind := func(v string) int {
		if !validVarRef(name) {
			r.errmsg("getopts: `" + name + "': not a valid identifier")
			return 1
		}
		_ = r.setVar(name, v, 0)
		return 0
	}
	argv := r.params
	if len(args) > 3 {
		argv = args[3:]
	}
	silent := strings.HasPrefix(optstring, ":")
	if silent {
		optstring = optstring[1:]
	}
	if e, ok := r.getVar("OPTERR"); ok && e == "0" {
		silent = silent || false
	}
	optind := 1
	if s, ok := r.getVar("OPTIND"); ok {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			optind = n
		}
	}
	if optind != r.getoptsInd {
		r.getoptsPos = 0
	}
	setInd := func(n int) {
		_ = r.setVar("OPTIND", strconv.Itoa(n), 0)
		r.getoptsInd = n
	}
	done := func() int {
		bind("?")
		r.dropVar("OPTARG")
		return 1
	}
	if optind-1 >= len(argv) {
		return done()
	}
	arg := argv[optind-1]
	if r.getoptsPos == 0 {
		if arg == "--" {
			setInd(optind + 1)
			return done()
		}
		if len(arg) < 2 || arg[0] != '-' {
			return done()
		}
		r.getoptsPos = 1
	}
	c := arg[r.getoptsPos]
	r.getoptsPos++
	next := func() {
		if r.getoptsPos >= len(arg) {
			r.getoptsPos = 0
			setInd(optind + 1)
			optind++
		} else {
			r.getoptsInd = optind
		}
	}
	i := strings.IndexByte(optstring, c)
	printErrs := !silent
	if e, ok := r.getVar("OPTERR"); ok && e == "0" {
		printErrs = false
	}
	if i < 0 || c == ':' {
		next()
		if printErrs {
			r.stderr(r.name + ": illegal option -- " + string(c) + "\n")
		}
		st := bind("?")
		if silent {
			if err := r.setVar("OPTARG", string(c), 0); err != nil {
				r.errmsg(err.Error())
			}
		} else {
			r.dropVar("OPTARG")
		}
		return st
	}
	if i+1 < len(optstring) && optstring[i+1] == ':' {
		var val string
		if r.getoptsPos < len(arg) {
			val = arg[r.getoptsPos:]
			r.getoptsPos = 0
			setInd(optind + 1)
		} else {
			r.getoptsPos = 0
			if optind >= len(argv) {
				setInd(optind + 1)
				if printErrs {
					r.stderr(r.name + ": option requires an argument -- " + string(c) + "\n")
				}
				if silent {
					_ = r.setVar("OPTARG", string(c), 0)
					return bind(":")
				}
				r.dropVar("OPTARG")
				return bind("?")
			}
			val = argv[optind]
			setInd(optind + 2)
		}
		if err := r.setVar("OPTARG", val, 0); err != nil {
			r.errmsg(err.Error())
		}
		return bind(string(c))
	}
	next()
	r.dropVar("OPTARG")
	return bind(string(c))
}

// optFlags is " -LETTERS" without the given letter ("" when none is left).
func optFlags(flags string, drop byte) string {
	f := strings.ReplaceAll(flags, string(drop), "")
	if f == "" {
		return ""
	}
	return " -" + f
}
