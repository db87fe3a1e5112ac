package interp

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// attr is a set of variable attributes (declare -aAilnrtux).
type attr uint16

const (
	attrExport attr = 1 << iota
	attrReadonly
	attrInteger
	attrLower
	attrUpper
	attrNameref
	attrArray
	attrAssoc
	attrTrace
	attrCapital
)

// dynKind marks variables whose value the shell computes when read.
type dynKind uint8

const (
	dynNone dynKind = iota
	dynRandom
	dynSRandom
	dynSeconds
	dynLineno
	dynBashpid
	dynEpochSeconds
	dynEpochRealtime
	dynSubshell
	dynFuncname
	dynBashSource
	dynBashLineno
	dynPipestatus
	dynShellopts
	dynBashopts
	dynGroups
	dynDirstack
	dynBashCommand
	dynHistcmd
	dynBashArgc
	dynBashArgv
	dynArgv0
	dynAliases // BASH_ALIASES: the alias table as an associative array
	dynCmds    // BASH_CMDS: the command hash table
)

// Var is one shell variable at one scope.
type Var struct {
	attrs attr
	str   string
	arr   *indexedArray
	assoc *assocArray
	set   bool // has a value (`declare x` alone makes a variable without one)
	level int  // scope it belongs to: 0 global, n for the n-th function call
	prev  *Var // the variable it shadows (a local's global)
	dyn   dynKind
	temp  bool // a prefix assignment (x=1 cmd) for the duration of a command
	size  int  // its estimated size when last checked (checkSize)
}

func (v *Var) isArray() bool { return v.attrs&attrArray != 0 }
func (v *Var) isAssoc() bool { return v.attrs&attrAssoc != 0 }

// varTable holds a shell's variables, shared copy-on-write with subshells.
type varTable struct {
	refs atomic.Int32
	m    map[string]*Var
}

func newVarTable() *varTable {
	t := &varTable{m: make(map[string]*Var, 64)}
	t.refs.Store(1)
	return t
}

// share gives a subshell the table.
func (t *varTable) share() *varTable {
	t.refs.Add(1)
	return t
}

// copyVar copies a variable chain; arrays stay shared until written.
func copyVar(v *Var) *Var {
	if v == nil {
		return nil
	}
	c := *v
	if c.arr != nil {
		c.arr.refs.Add(1)
	}
	if c.assoc != nil {
		c.assoc.refs.Add(1)
	}
	c.prev = copyVar(v.prev)
	return &c
}

// writable returns a table the caller may change: itself when not shared.
func (t *varTable) writable() *varTable {
	if t.refs.Load() <= 1 {
		return t
	}
	n := &varTable{m: make(map[string]*Var, len(t.m))}
	n.refs.Store(1)
	for k, v := range t.m {
		n.m[k] = copyVar(v)
	}
	t.refs.Add(-1)
	return n
}

// release drops a shell's hold on the table.
func (t *varTable) release() { t.refs.Add(-1) }

// arrMut returns v's indexed array ready to be changed.
func (v *Var) arrMut() *indexedArray {
	if v.arr == nil {
		v.arr = newIndexed()
		return v.arr
	}
	if v.arr.refs.Load() > 1 {
		old := v.arr
		v.arr = old.clone()
		old.refs.Add(-1)
	}
	return v.arr
}

func (v *Var) assocMut() *assocArray {
	if v.assoc == nil {
		v.assoc = newAssoc()
		return v.assoc
	}
	if v.assoc.refs.Load() > 1 {
		old := v.assoc
		v.assoc = old.clone()
		old.refs.Add(-1)
	}
	return v.assoc
}

// mutVars is the runner's variable table, unshared.
func (r *Runner) mutVars() map[string]*Var {
	t := r.vars.writable()
	r.vars = t
	return t.m
}

// maxNameref bounds nameref chains (bash warns about circular ones).
const maxNameref = 8

// resolveName follows namerefs from name: the variable name (maybe with a
// subscript, "arr[1]") finally meant.
func (r *Runner) resolveName(name string) string {
	for i := 0; i < maxNameref; i++ {
		v := r.vars.m[name]
		if v == nil || v.attrs&attrNameref == 0 || !v.set || v.str == "" {
			return name
		}
		name = v.str
	}
	return name
}

// lookup finds the visible variable name refers to, following namerefs.
func (r *Runner) lookup(name string) *Var {
	v := r.vars.m[name]
	if v != nil && (v.dyn == dynAliases || v.dyn == dynCmds) {
		return r.tableVar(v)
	}
	if v != nil && v.attrs&attrNameref != 0 && v.set && v.str != "" {
		target := r.resolveName(name)
		if base, _, ok := splitSubscript(target); ok {
			return r.vars.m[base]
		}
		return r.vars.m[target]
	}
	return v
}

// splitSubscript splits "name[sub]".
func splitSubscript(s string) (name, sub string, ok bool) {
	i := strings.IndexByte(s, '[')
	if i <= 0 || !strings.HasSuffix(s, "]") {
		return s, "", false
	}
	return s[:i], s[i+1 : len(s)-1], true
}

// scalar is a variable's string value ($name): element 0 of an array.
func (r *Runner) scalar(v *Var) (string, bool) {
	if v == nil {
		return "", false
	}
	if v.dyn != dynNone {
		return r.dynValue(v)
	}
	if !v.set {
		return "", false
	}
	switch {
	case v.isAssoc():
		return v.assoc.get("0")
	case v.isArray():
		return v.arr.get(0)
	}
	return v.str, true
}

// getVar is $name for a plain name (namerefs followed, subscripts in
// nameref targets honoured).
func (r *Runner) getVar(name string) (string, bool) {
	v := r.vars.m[name]
	if v == nil {
		return "", false
	}
	if v.attrs&attrNameref != 0 && v.set && v.str != "" {
		target := r.resolveName(name)
		if base, sub, ok := splitSubscript(target); ok {
			return r.element(r.vars.m[base], sub)
		}
		v = r.vars.m[target]
	}
	return r.scalar(v)
}

// element is ${name[sub]} for one subscript.
func (r *Runner) element(v *Var, sub string) (string, bool) {
	if v == nil {
		return "", false
	}
	if v.dyn != dynNone {
		vals := r.dynArray(v)
		if vals == nil {
			if s, ok := r.dynValue(v); ok && (sub == "0" || sub == "") {
				return s, true
			}
			return "", false
		}
		i, err := r.arithSubscript(sub)
		if err != nil {
			return "", false
		}
		if i < 0 {
			i += int64(len(vals))
		}
		if i < 0 || i >= int64(len(vals)) {
			return "", false
		}
		return vals[i], true
	}
	if !v.set {
		return "", false
	}
	switch {
	case v.isAssoc():
		return v.assoc.get(sub)
	case v.isArray():
		i, err := r.arithSubscript(sub)
		if err != nil {
			return "", false
		}
		if i < 0 {
			i += v.arr.maxIndex() + 1
		}
		return v.arr.get(i)
	}
	i, err := r.arithSubscript(sub)
	if err != nil || (i != 0 && i != -1) {
		return "", false
	}
	return v.str, true
}

// values lists an array's values (or a scalar as one value) in order.
func (r *Runner) values(v *Var) []string {
	if v == nil {
		return nil
	}
	if v.dyn != dynNone {
		if a := r.dynArray(v); a != nil {
			return a
		}
		if s, ok := r.dynValue(v); ok {
			return []string{s}
		}
		return nil
	}
	if !v.set {
		return nil
	}
	switch {
	case v.isAssoc():
		return v.assoc.values()
	case v.isArray():
		return append([]string(nil), v.arr.vals...)
	}
	return []string{v.str}
}

// keys lists an array's subscripts.
func (r *Runner) keys(v *Var) []string {
	if v == nil {
		return nil
	}
	if v.dyn != dynNone {
		n := len(r.values(v))
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	if !v.set {
		return nil
	}
	switch {
	case v.isAssoc():
		return v.assoc.keys()
	case v.isArray():
		out := make([]string, len(v.arr.keys))
		for i, k := range v.arr.keys {
			out[i] = strconv.FormatInt(k, 10)
		}
		return out
	}
	return []string{"0"}
}

// varError is an assignment that failed (readonly, bad subscript...):
// reported with bash's message, status 1.
type varError struct{ msg string }

func (e *varError) Error() string { return e.msg }

// convertCase applies -l/-u/-c to a value.
func convertCase(a attr, s string) string {
	switch {
	case a&attrLower != 0:
		return strings.ToLower(s)
	case a&attrUpper != 0:
		return strings.ToUpper(s)
	case a&attrCapital != 0:
		r, size := utf8.DecodeRuneInString(s)
		return string(unicode.ToUpper(r)) + strings.ToLower(s[size:])
	}
	return s
}

// setFlags tune an assignment.
type setFlags uint8

const (
	setAppend setFlags = 1 << iota // +=
	setLocal                       // create at the current function scope
	setGlobal                      // create at global scope (declare -g)
	setForce                       // ignore readonly (the shell's own updates)
)

// findForWrite returns the variable an assignment to name changes,
// creating it (at global or local scope) when missing. Namerefs are
// followed (the target may be an array element: sub is then set).
func (r *Runner) findForWrite(name string, f setFlags) (v *Var, target, sub string, hasSub bool) {
	m := r.mutVars()
	target = name
	if cur := m[name]; cur != nil && cur.attrs&attrNameref != 0 && cur.set && cur.str != "" && f&setLocal == 0 {
		target = r.resolveName(name)
		if base, s, ok := splitSubscript(target); ok {
			target, sub, hasSub = base, s, true
		}
	}
	v = m[target]
	if f&setGlobal != 0 && v != nil {
		g := v
		for g.prev != nil {
			g = g.prev
		}
		if g.level == 0 {
			return g, target, sub, hasSub
		}
		ng := &Var{}
		g.prev = ng
		return ng, target, sub, hasSub
	}
	if v == nil {
		v = &Var{}
		if f&setGlobal == 0 && f&setLocal != 0 && len(r.frames) > 0 {
			v.level = len(r.frames)
			r.frames[len(r.frames)-1].locals = append(r.frames[len(r.frames)-1].locals, target)
		}
		if r.opts.allexport {
			v.attrs |= attrExport
		}
		m[target] = v
	}
	return v, target, sub, hasSub
}

// setVar assigns a string to a variable (or to an element when name is
// "arr[sub]"), applying its attributes.
func (r *Runner) setVar(name, val string, f setFlags) error {
	if base, sub, ok := splitSubscript(name); ok {
		return r.setElement(base, sub, val, f)
	}
	v, target, sub, hasSub := r.findForWrite(name, f)
	if hasSub {
		return r.setElement(target, sub, val, f)
	}
	if v.attrs&attrReadonly != 0 && f&setForce == 0 {
		return &varError{target + ": readonly variable"}
	}
	if v.dyn != dynNone {
		if r.assignDyn(v, val) {
			return nil
		}
	}
	val, err := r.attrValue(v, target, val, f&setAppend != 0, func() string { s, _ := r.scalar(v); return s })
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
	if err := r.checkSize(target, v); err != nil {
		return err
	}
	r.varChanged(target)
	return nil
}

// attrValue computes the value to store: integer evaluation, +=, case.
func (r *Runner) attrValue(v *Var, name, val string, appendOp bool, old func() string) (string, error) {
	if v.attrs&attrInteger != 0 {
		n, err := r.arithExpr(val)
		if err != nil {
			return "", err
		}
		if appendOp {
			o, _ := r.arithExpr(old())
			n += o
		}
		return strconv.FormatInt(n, 10), nil
	}
	if appendOp {
		val = old() + val
	}
	return convertCase(v.attrs, val), nil
}

// setElement assigns arr[sub]=val.
func (r *Runner) setElement(name, sub, val string, f setFlags) error {
	v, target, _, _ := r.findForWrite(name, f)
	switch v.dyn {
	case dynAliases:
		r.mutAliases()[sub] = val
		return nil
	case dynCmds:
		r.hashed.insert(sub, val, 0)
		return nil
	case dynDirstack:
		// DIRSTACK[N]=dir changes an entry already in the stack (pushd
		// and popd add and remove them)
		i, err := r.arithSubscript(sub)
		if err != nil {
			return err
		}
		if i >= 1 && int(i) <= len(r.dirs) {
			r.dirs[len(r.dirs)-int(i)] = val
		}
		return nil
	}
	if v.attrs&attrReadonly != 0 && f&setForce == 0 {
		return &varError{target + ": readonly variable"}
	}
	if v.isAssoc() {
		if sub == "" {
			return &varError{target + "[]: bad array subscript"}
		}
		a := v.assocMut()
		val, err := r.attrValue(v, target, val, f&setAppend != 0, func() string { s, _ := a.get(sub); return s })
		if err != nil {
			return err
		}
		a.set(sub, val)
		v.set = true
		return r.checkSize(target, v)
	}
	if sub == "" {
		return &varError{target + "[]: bad array subscript"}
	}
	i, err := r.arithSubscript(sub)
	if err != nil {
		return err
	}
	if !v.isArray() {
		// a scalar becomes an array whose element 0 is its value
		s, had := v.str, v.set && v.dyn == dynNone
		v.attrs |= attrArray
		v.arr = newIndexed()
		if had {
			v.arr.set(0, s)
		}
		v.str = ""
		v.dyn = dynNone
	}
	a := v.arrMut()
	if i < 0 {
		i += a.maxIndex() + 1
		if i < 0 {
			return &varError{target + "[" + sub + "]: bad array subscript"}
		}
	}
	val, err = r.attrValue(v, target, val, f&setAppend != 0, func() string { s, _ := a.get(i); return s })
	if err != nil {
		return err
	}
	a.set(i, val)
	v.set = true
	return r.checkSize(target, v)
}

// setIndex assigns arr[i] for an evaluated index (no subscript parsing).
func (r *Runner) setIndex(name string, i int64, val string, f setFlags) error {
	v, target, _, _ := r.findForWrite(name, f)
	if v.attrs&attrReadonly != 0 && f&setForce == 0 {
		return &varError{target + ": readonly variable"}
	}
	if v.isAssoc() {
		return r.setElement(name, strconv.FormatInt(i, 10), val, f)
	}
	if !v.isArray() {
		s, had := v.str, v.set && v.dyn == dynNone
		v.attrs |= attrArray
		v.arr = newIndexed()
		if had {
			v.arr.set(0, s)
		}
		v.str = ""
		v.dyn = dynNone
	}
	a := v.arrMut()
	if v.attrs&(attrInteger|attrLower|attrUpper|attrCapital) != 0 || f&setAppend != 0 {
		var err error
		val, err = r.attrValue(v, target, val, f&setAppend != 0, func() string { s, _ := a.get(i); return s })
		if err != nil {
			return err
		}
	}
	a.set(i, val)
	v.set = true
	return nil
}

// setArray replaces (or appends to) an indexed array.
func (r *Runner) setArray(name string, vals []string, f setFlags) error {
	v, target, _, _ := r.findForWrite(name, f)
	if v.attrs&attrReadonly != 0 && f&setForce == 0 {
		return &varError{target + ": readonly variable"}
	}
	if v.isAssoc() {
		return &varError{target + ": cannot convert associative to indexed array"}
	}
	if f&setAppend == 0 || !v.isArray() {
		old, had := v.str, v.set && !v.isArray()
		v.attrs |= attrArray
		if v.arr != nil {
			v.arr.refs.Add(-1)
		}
		v.arr = newIndexed()
		v.str, v.dyn = "", dynNone
		if f&setAppend != 0 && had {
			v.arr.set(0, old)
		}
	}
	a := v.arrMut()
	for _, s := range vals {
		s, err := r.attrValue(v, target, s, false, nil)
		if err != nil {
			return err
		}
		a.append(s)
	}
	v.set = true
	return r.checkSize(target, v)
}

// unsetVar removes a variable (unset NAME).
// dropVar removes name even when it is readonly (bash's getopts so unsets
// OPTARG).
func (r *Runner) dropVar(name string) {
	m := r.mutVars()
	if v := m[name]; v != nil && v.attrs&attrReadonly != 0 {
		m[name] = &Var{attrs: v.attrs &^ attrReadonly, level: v.level, prev: v.prev}
	}
	_ = r.unsetVar(name, false)
}

func (r *Runner) unsetVar(name string, followRef bool) error {
	m := r.mutVars()
	if followRef {
		if t := r.resolveName(name); t != name {
			if base, sub, ok := splitSubscript(t); ok {
				return r.unsetElement(base, sub)
			}
			name = t
		}
	}
	v := m[name]
	if v == nil {
		return nil
	}
	if v.attrs&attrReadonly != 0 {
		return &varError{name + ": cannot unset: readonly variable"}
	}
	if v.level > 0 && v.level == len(r.frames) {
		// A local of the current function stays local, without a value.
		*v = Var{level: v.level, prev: v.prev, attrs: v.attrs &^ (attrArray | attrAssoc | attrInteger | attrNameref | attrExport)}
		r.varChanged(name)
		return nil
	}
	if v.prev != nil {
		m[name] = v.prev
	} else {
		delete(m, name)
	}
	r.varChanged(name)
	return nil
}

func (r *Runner) unsetElement(name, sub string) error {
	m := r.mutVars()
	v := m[name]
	if v == nil {
		return nil
	}
	if v.attrs&attrReadonly != 0 {
		return &varError{name + ": cannot unset: readonly variable"}
	}
	switch {
	case sub == "@" || sub == "*":
		return r.unsetVar(name, false)
	case v.isAssoc():
		v.assocMut().unset(sub)
	case v.isArray():
		i, err := r.arithSubscript(sub)
		if err != nil {
			return err
		}
		a := v.arrMut()
		if i < 0 {
			i += a.maxIndex() + 1
			if i < 0 {
				return &varError{"[" + sub + "]: bad array subscript"} // (bash names no array here)
			}
		}
		a.unset(i)
	default:
		i, err := r.arithSubscript(sub)
		if err != nil {
			return err
		}
		if i == 0 || i == -1 {
			return r.unsetVar(name, false)
		}
	}
	return nil
}

// environ lists exported variables as K=V, sorted (a child's environment).
func (r *Runner) environ() []string {
	out := make([]string, 0, 32)
	for k, v := range r.vars.m {
		if v.attrs&attrExport == 0 || v.isArray() || v.isAssoc() {
			continue
		}
		s, ok := r.scalar(v)
		if !ok {
			continue
		}
		out = append(out, k+"="+s)
	}
	out = append(out, r.exportedFuncs()...)
	sort.Strings(out)
	return out
}

// MaxVarBytes bounds one variable's size and what one command substitution
// captures: the shell keeps them in the host process's memory, where a
// runaway `x=$x$x` would otherwise grow until the process dies.
const MaxVarBytes = 64 << 20

// oneVarLimit is the most one value may hold: a variable, an expansion,
// a command substitution's capture.
func (r *Runner) oneVarLimit() int { return int(min(MaxVarBytes, r.cfg.MaxVarTotal)) }

// varWalkEvery: after this many bytes assigned, a shell sums all its
// variables again (varsHeld) and charges the session's account.
const varWalkEvery = 4 << 20

// checkSize stops a variable that outgrew MaxVarBytes, or that takes the
// variables of the session's shells past Config.MaxVarTotal, as bash stops
// when malloc fails: "xrealloc: cannot allocate N bytes"; the variable is
// left empty, so the memory is not kept.
func (r *Runner) checkSize(name string, v *Var) error {
	n := varSize(v)
	over := n > r.oneVarLimit()
	if !over {
		// (what it grew by: appending to a big array walks once per 4 MiB
		// added, not at every element)
		grown := max(n-v.size, 16)
		v.size = n
		if r.sinceWalk += int64(grown); r.sinceWalk >= varWalkEvery {
			r.sinceWalk = 0
			over = r.recharge() > r.cfg.MaxVarTotal
		}
	}
	if !over {
		return nil
	}
	v.str = ""
	if v.arr != nil {
		v.arr = newIndexed()
	}
	if v.assoc != nil {
		v.assoc = newAssoc()
	}
	r.recharge()
	return &fatalError{msg: "xrealloc: cannot allocate " + strconv.Itoa(n) + " bytes (" + name + "; the sandbox's shell variables may hold " +
		strconv.Itoa(r.oneVarLimit()>>20) + " MiB in one, " + strconv.FormatInt(r.cfg.MaxVarTotal>>20, 10) + " MiB in all)"}
}

// recharge sums this shell's variables again and charges the session's
// account with what it added to what it inherited; it returns the
// session's total.
func (r *Runner) recharge() int64 {
	r.varTotal = r.varsHeld()
	return r.mem.charge(r, max(0, r.varTotal-r.varBase))
}

// varSize estimates the bytes a variable holds. Arrays are estimated from
// a sample now and then, so that growing one in a loop stays linear.
func varSize(v *Var) int {
	n := len(v.str)
	if v.arr != nil {
		l := len(v.arr.vals)
		if l > 0 && (l < 4096 || l%1024 == 0) {
			n += 16 * l
			step := 1
			if l > 4096 {
				step = l / 256
			}
			sum := 0
			for i := 0; i < l; i += step {
				sum += len(v.arr.vals[i])
			}
			n += sum * step
		} else if l > 0 {
			n = max(n, len(v.arr.vals[l-1]))
		}
	}
	if v.assoc != nil {
		if l := v.assoc.len(); l < 4096 || l%1024 == 0 {
			seen, sum := 0, 0
			for k, e := range v.assoc.index {
				sum += 64 + len(k) + len(e.val)
				if seen++; seen >= 256 {
					break
				}
			}
			if seen > 0 {
				n += sum * (l / seen)
			}
		}
	}
	return n
}

// varsHeld sums the sizes of every variable of this shell, shadowed
// globals included (arrays counted in full).
func (r *Runner) varsHeld() int64 {
	var total int64
	for name, v := range r.vars.m {
		total += int64(len(name))
		for ; v != nil; v = v.prev {
			total += int64(len(v.str)) + 32
			if v.arr != nil {
				for _, s := range v.arr.vals {
					total += int64(len(s)) + 16
				}
			}
			if v.assoc != nil {
				for k, e := range v.assoc.index {
					total += int64(len(k)+len(e.val)) + 64
				}
			}
		}
	}
	return total
}

// memAccount is what a session's shells (the session's own and the
// subshells of its runs) hold in variables: each charges what it added to
// what it inherited.
type memAccount struct {
	mu      sync.Mutex
	charges map[*Runner]int64
	total   int64
}

// charge sets r's charge and returns the session's total.
func (a *memAccount) charge(r *Runner, n int64) int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.charges == nil {
		a.charges = map[*Runner]int64{}
	}
	a.total += n - a.charges[r]
	a.charges[r] = n
	return a.total
}

// drop forgets a shell that ended.
func (a *memAccount) drop(r *Runner) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.total -= a.charges[r]
	delete(a.charges, r)
}

// Total is the bytes the session's shells hold in variables, as last
// summed.
func (a *memAccount) Total() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.total
}

// varChanged reacts to variables with meaning to the shell.
func (r *Runner) varChanged(name string) {
	switch name {
	case "IFS":
		r.ifsCache = nil
	case "PATH":
		r.hashed = newCmdHash() // bash forgets remembered paths
	case "OPTIND":
		r.getoptsPos = 0
	case "POSIXLY_CORRECT":
		_, set := r.getVar("POSIXLY_CORRECT")
		r.opts.posix = set
	case "BASH_ARGV0":
		if v, ok := r.getVar("BASH_ARGV0"); ok {
			r.name = v
		}
	}
}

// getVarRef is the value of NAME or NAME[sub].
func (r *Runner) getVarRef(ref string) (string, bool) {
	if base, sub, ok := splitSubscript(ref); ok {
		v := r.lookup(base)
		if v != nil && !v.isAssoc() {
			if n, err := r.arithExpr(sub); err == nil {
				sub = strconv.FormatInt(n, 10)
			}
		}
		return r.element(v, sub)
	}
	return r.getVar(ref)
}

// tableVar shows the alias or command hash table as the associative array
// BASH_ALIASES or BASH_CMDS (a fresh copy: the tables are the truth).
func (r *Runner) tableVar(v *Var) *Var {
	a := newAssoc()
	if v.dyn == dynCmds {
		a = r.hashed.tab.clone()
	} else {
		names := make([]string, 0, r.aliases.len())
		for k := range r.aliases.m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			a.set(k, r.aliases.m[k])
		}
	}
	return &Var{attrs: v.attrs | attrAssoc, set: true, assoc: a, level: v.level}
}
