package interp

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// paramValue is what a parameter refers to before its operator applies.
type paramValue struct {
	vals   []string
	list   bool // several words: $@, $*, ${a[@]}, ${a[*]}
	star   bool // joined by expand.IFS in double quotes
	set    bool
	name   string // variable name (for := and messages)
	v      *Var
	sub    string // subscript
	hasSub bool
	keyed  bool // ${a[@]} of an associative array
}

func (pv *paramValue) one() string {
	if len(pv.vals) == 0 {
		return ""
	}
	return pv.vals[0]
}

// expandParam expands $name / ${...} into b.
func (r *Runner) expandParam(ctx context.Context, pe *syntax.ParamExp, inDq bool, b *expand.Builder) error {
	if pe.Bad != "" {
		return &fatalError{msg: pe.Bad + ": bad substitution"}
	}
	if pe.Short {
		return r.shortParam(pe.Name, inDq, b)
	}
	switch pe.Op {
	case syntax.OpNamesStar, syntax.OpNamesAt:
		names := r.varNames(pe.Name)
		r.emitList(names, pe.Op == syntax.OpNamesStar, inDq, b)
		return nil
	}
	name := pe.Name
	index := pe.Index
	if pe.Indirect {
		// ${!a[@]} lists a's keys; with an operator after it, it is an
		// indirection through a's values (${!a[@]@Q}, ${!a[@]%x})
		if index != nil && (index.Src == "@" || index.Src == "*") && pe.Op == syntax.OpNone {
			v := r.lookup(name)
			if v == nil && r.opts.nounset {
				return &fatalError{msg: name + "[" + index.Src + "]: unbound variable", status: 127}
			}
			keys := r.keys(v)
			r.emitList(keys, index.Src == "*", inDq, b)
			return nil
		}
		if v := r.vars.m[name]; v != nil && v.attrs&attrNameref != 0 && index == nil {
			b.Add(r.resolveName(name), inDq, !inDq) // the name at the end of the chain
			return nil
		}
		pv, err := r.paramLookup(ctx, name, index)
		if err != nil {
			return err
		}
		if !pv.set {
			if r.opts.nounset {
				return &fatalError{msg: "!" + name + ": unbound variable", status: 127}
			}
			if !pe.Length && (pe.Op == syntax.OpNone && name != "@" && name != "*" || syntax.ValidName(name)) {
				// (an unset variable, whatever the operator; an unset
				// positional parameter takes the operator's word)
				return &fatalError{msg: name + ": invalid indirect expansion"}
			}
			if (name == "@" || name == "*") && pe.Op == syntax.OpNone && !pe.Length {
				return nil // (${!@} with no parameters is empty, as bash's)
			}
		}
		target := pv.one()
		if pv.list {
			target = strings.Join(pv.vals, " ")
		}
		if !validRef(target) {
			if target == "" && pe.Op != syntax.OpNone && !pv.set {
				name, index = "", nil
			} else {
				return &fatalError{msg: target + ": invalid variable name"}
			}
		} else {
			name, index = target, nil
			if base, sub, ok := splitSubscript(target); ok {
				name = base
				index = &syntax.Subscript{Src: sub, W: &syntax.Word{Parts: []syntax.Part{&syntax.Lit{Val: sub}}, Raw: sub}}
			}
		}
	}
	if pe.Length {
		return r.paramLength(ctx, name, index, inDq, b)
	}
	var pv paramValue
	if name != "" {
		var err error
		pv, err = r.paramLookup(ctx, name, index)
		if err != nil {
			return err
		}
	}
	switch pe.Op {
	case syntax.OpDefault, syntax.OpAssign, syntax.OpError, syntax.OpAlt:
		return r.paramTest(ctx, pe, pv, inDq, b)
	}
	if !pv.set && r.opts.nounset && !(pv.list && (name == "@" || name == "*" || index != nil)) &&
		!(pe.Op == syntax.OpTransform && pv.v != nil && len(r.values(pv.v)) > 0) { // (${a@a} of a=([1]=x))
		label := name
		if index != nil {
			label += "[" + index.Src + "]"
		}
		if pe.Indirect {
			label = "!" + pe.Name
		}
		if name == "@" || name == "*" {
			// "$@" with no parameters is fine under set -u
		} else {
			return &fatalError{msg: label + ": unbound variable", status: 127}
		}
	}
	vals := pv.vals
	var err error
	switch pe.Op {
	case syntax.OpNone:
	case syntax.OpTrimPrefix, syntax.OpTrimPrefixL, syntax.OpTrimSuffix, syntax.OpTrimSuffixL:
		pat, e := r.expandPattern(ctx, pe.Arg, false)
		if e != nil {
			return e
		}
		p := pattern.Compile(pat, r.patFlags())
		for i, v := range vals {
			vals[i] = expand.Trim(p, v, pe.Op)
		}
	case syntax.OpReplace, syntax.OpReplaceAll, syntax.OpReplacePre, syntax.OpReplaceSuf:
		vals, err = r.paramReplace(ctx, pe, vals)
		if err != nil {
			return err
		}
	case syntax.OpUpperFirst, syntax.OpUpperAll, syntax.OpLowerFirst, syntax.OpLowerAll, syntax.OpToggleFirst, syntax.OpToggleAll:
		pat := "?"
		if pe.Arg != nil && len(pe.Arg.Parts) > 0 {
			if pat, err = r.expandPattern(ctx, pe.Arg, false); err != nil {
				return err
			}
		}
		p := pattern.Compile(pat, r.patFlags())
		for i, v := range vals {
			vals[i] = expand.CaseConv(p, v, pe.Op)
		}
	case syntax.OpSubstr:
		vals, err = r.substr(ctx, pe, pv)
		if err != nil {
			return err
		}
		if pv.list && pv.star && !inDq {
			if v, ok := r.getVar("IFS"); ok && v == "" {
				// bash 5.2 loses \x7f (its internal quoted-null mark) from
				// an unquoted ${*:n} or ${a[*]:n} while IFS is null
				for i := range vals {
					vals[i] = strings.ReplaceAll(vals[i], "\x7f", "")
				}
			}
		}
	case syntax.OpTransform:
		vals, err = r.transform(ctx, pe.Transform, pv, name)
		if err != nil {
			return err
		}
		if pe.Transform == 'k' && !pv.list {
			pv.list = true
		}
	}
	if pv.list {
		r.emitList(vals, pv.star, inDq, b)
		return nil
	}
	s := ""
	if len(vals) > 0 {
		s = vals[0]
	}
	b.Add(s, inDq, !inDq)
	return nil
}

// validRef accepts what ${!x} may name: a variable, an array element, a
// positional or special parameter.
func validRef(s string) bool {
	if syntax.ValidName(s) {
		return true
	}
	if base, _, ok := splitSubscript(s); ok && syntax.ValidName(base) {
		return true
	}
	if s == "" {
		return false
	}
	if len(s) == 1 && strings.IndexByte("@*#?-$!0", s[0]) >= 0 {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// emitList adds a list of words (expand.AddList) with IFS's joiner.
func (r *Runner) emitList(vals []string, star, inDq bool, b *expand.Builder) {
	expand.AddList(b, vals, star, inDq, r.ifsJoiner())
}

// ifsJoiner is what "$*" puts between parameters.
func (r *Runner) ifsJoiner() string {
	v, ok := r.getVar("IFS")
	if !ok {
		return " "
	}
	if v == "" {
		return ""
	}
	_, size := utf8.DecodeRuneInString(v)
	return v[:size]
}

// shortParam is $name, $1, $@ ...
func (r *Runner) shortParam(name string, inDq bool, b *expand.Builder) error {
	switch name {
	case "@", "*":
		r.emitList(r.params, name == "*", inDq, b)
		return nil
	}
	v, ok := r.special(name)
	if !ok && name != "@" && name != "*" {
		if !r.opts.nounset {
			b.Add("", inDq, false)
			return nil
		}
		if name[0] >= '0' && name[0] <= '9' {
			name = "$" + name // bash names an unset $1 so
		}
		return &fatalError{msg: name + ": unbound variable", status: 127}
	}
	b.Add(v, inDq, !inDq)
	return nil
}

// special is the value of a parameter by name: positional, special or a
// variable (element 0 of arrays).
func (r *Runner) special(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	c := name[0]
	if c >= '0' && c <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil {
			return "", false
		}
		if n == 0 {
			return r.name, true
		}
		if n > len(r.params) {
			return "", false
		}
		return r.params[n-1], true
	}
	if len(name) == 1 {
		switch c {
		case '#':
			return strconv.Itoa(len(r.params)), true
		case '?':
			return strconv.Itoa(r.status), true
		case '-':
			return r.flagString(), true
		case '$':
			return strconv.Itoa(r.pid), true
		case '!':
			if r.lastBg == 0 {
				return "", false
			}
			return strconv.Itoa(r.lastBg), true
		case '_':
			return r.lastArg, true
		case '@', '*':
			return strings.Join(r.params, " "), len(r.params) > 0
		}
	}
	return r.getVar(name)
}

// paramLookup finds a parameter's value(s) for ${...}.
func (r *Runner) paramLookup(ctx context.Context, name string, index *syntax.Subscript) (paramValue, error) {
	pv := paramValue{name: name}
	if name == "@" || name == "*" {
		pv.list, pv.star = true, name == "*"
		pv.vals = append([]string(nil), r.params...)
		pv.set = len(r.params) > 0
		return pv, nil
	}
	if !syntax.ValidName(name) {
		v, ok := r.special(name)
		pv.set = ok
		if ok {
			pv.vals = []string{v}
		}
		return pv, nil
	}
	v := r.lookup(name)
	if ref := r.vars.m[name]; ref != nil && ref.attrs&attrNameref != 0 && ref.set && index == nil {
		if base, sub, ok := splitSubscript(r.resolveName(name)); ok {
			val, ok := r.element(r.vars.m[base], sub)
			pv.set = ok
			if ok {
				pv.vals = []string{val}
			}
			return pv, nil
		}
		pv.name = r.resolveName(name)
	}
	pv.v = v
	if index == nil {
		s, ok := r.scalar(v)
		pv.set = ok
		if ok {
			pv.vals = []string{s}
		}
		return pv, nil
	}
	switch index.Src {
	case "@", "*":
		pv.list, pv.star = true, index.Src == "*"
		pv.vals = r.values(v)
		pv.set = len(pv.vals) > 0
		pv.keyed = v != nil && v.isAssoc()
		pv.sub, pv.hasSub = index.Src, true
		return pv, nil
	}
	sub, err := r.subscript(ctx, v, index)
	if err != nil {
		return pv, err
	}
	pv.sub, pv.hasSub = sub, true
	if v != nil && v.isArray() && strings.HasPrefix(sub, "-") {
		top := int64(len(r.dynArray(v))) - 1
		if v.arr != nil {
			top = v.arr.maxIndex()
		}
		if i, err := strconv.ParseInt(sub, 10, 64); err == nil && i+top+1 < 0 {
			// bash complains and expands to nothing
			r.errmsg(name + ": bad array subscript")
			return pv, nil
		}
	}
	s, ok := r.element(v, sub)
	pv.set = ok
	if ok {
		pv.vals = []string{s}
	}
	return pv, nil
}

// subscript expands a subscript: a key for associative arrays, an
// evaluated index for the others.
func (r *Runner) subscript(ctx context.Context, v *Var, index *syntax.Subscript) (string, error) {
	s, err := r.expandQuoted(ctx, index.W)
	if err != nil {
		return "", err
	}
	if v != nil && v.isAssoc() {
		return s, nil
	}
	if s == "" {
		return "", &fatalError{msg: "[]: bad array subscript"}
	}
	n, err := r.arithExpr(s)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(n, 10), nil
}

// paramLength is ${#...}.
func (r *Runner) paramLength(ctx context.Context, name string, index *syntax.Subscript, inDq bool, b *expand.Builder) error {
	var n int
	switch {
	case name == "@" || name == "*":
		n = len(r.params)
	case index != nil && (index.Src == "@" || index.Src == "*"):
		v := r.lookup(name)
		n = len(r.values(v))
	default:
		pv, err := r.paramLookup(ctx, name, index)
		if err != nil {
			return err
		}
		if !pv.set && r.opts.nounset {
			return &fatalError{msg: name + ": unbound variable", status: 127}
		}
		n = utf8.RuneCountInString(pv.one())
	}
	b.Add(strconv.Itoa(n), inDq, !inDq)
	return nil
}

// paramTest applies :- := :? :+ (and their colon-less forms).
func (r *Runner) paramTest(ctx context.Context, pe *syntax.ParamExp, pv paramValue, inDq bool, b *expand.Builder) error {
	isSet := pv.set
	if pe.Colon && isSet {
		isSet = false
		for _, v := range pv.vals {
			if v != "" {
				isSet = true
				break
			}
		}
		if pv.list && pv.star == false && len(pv.vals) > 0 {
			// "${@:-x}": set when there is any non-empty... bash tests the joined value
		}
	}
	operand := func() error {
		saved, savedJoin := b.SplitLits, b.JoinAt
		b.SplitLits, b.JoinAt = !inDq, !inDq
		err := r.expandParts(ctx, argParts(pe.Arg), inDq, ctxArgs, b)
		b.SplitLits, b.JoinAt = saved, savedJoin
		return err
	}
	switch pe.Op {
	case syntax.OpDefault:
		if !isSet {
			if inDq {
				b.Cur().Keep = true // "${a[@]-}" is one empty word
			}
			return operand()
		}
	case syntax.OpAlt:
		if isSet {
			return operand()
		}
		if inDq && !(pv.list && !pv.star && len(pv.vals) == 0) {
			// ("${@:+x}" with no parameters is no word, as "$@" is)
			b.Cur().Keep = true
		}
		return nil
	case syntax.OpAssign:
		if !isSet {
			val, err := r.expandString(ctx, pe.Arg, ctxNoSplit)
			if err != nil {
				return err
			}
			if !syntax.ValidName(pv.name) {
				return &fatalError{msg: "$" + pv.name + ": cannot assign in this way"}
			}
			target := pv.name
			if pv.hasSub {
				target += "[" + pv.sub + "]"
			}
			if err := r.setVar(target, val, 0); err != nil {
				return &fatalError{msg: err.Error()}
			}
			// the value as assigned: declare -i a; ${a:=4+3} is 7, -u upper case
			if nv, err := r.paramLookup(ctx, pv.name, pe.Index); err == nil && nv.set && !nv.list {
				val = nv.one()
			}
			b.Add(val, inDq, !inDq)
			return nil
		}
	case syntax.OpError:
		if !isSet {
			msg := "parameter not set"
			if pe.Colon {
				msg = "parameter null or not set"
			}
			if pe.Arg != nil && len(pe.Arg.Parts) > 0 {
				s, err := r.expandString(ctx, pe.Arg, ctxNoSplit)
				if err != nil {
					return err
				}
				msg = s
			}
			label := pv.name
			if pv.hasSub {
				label += "[" + pv.sub + "]"
			}
			return &fatalError{msg: label + ": " + msg, status: 127}
		}
	}
	if pv.list {
		r.emitList(pv.vals, pv.star, inDq, b)
		return nil
	}
	b.Add(pv.one(), inDq, !inDq)
	return nil
}

func argParts(w *syntax.Word) []syntax.Part {
	if w == nil {
		return nil
	}
	return w.Parts
}

func (r *Runner) patFlags() pattern.Flags {
	var f pattern.Flags
	if r.shopt.extglob {
		f |= pattern.ExtGlob
	}
	return f
}

// paramReplace is ${x/pat/rep} and its //, /#, /% forms; an unquoted &
// in the replacement stands for the match (patsub_replacement).
func (r *Runner) paramReplace(ctx context.Context, pe *syntax.ParamExp, vals []string) ([]string, error) {
	pat, err := r.expandPattern(ctx, pe.Arg, false)
	if err != nil {
		return nil, err
	}
	rep := ""
	if pe.Repl != nil {
		b := &expand.Builder{}
		if err := r.expandParts(ctx, pe.Repl.Parts, false, ctxNoSplit, b); err != nil {
			return nil, err
		}
		var s strings.Builder
		for _, f := range b.Fields {
			for _, p := range f.Parts {
				if p.Quote && r.shopt.patsubReplacement {
					s.WriteString(strings.NewReplacer(`\`, `\\`, `&`, `\&`).Replace(p.S))
				} else {
					s.WriteString(p.S)
				}
			}
		}
		rep = s.String()
	}
	flags := r.patFlags()
	if r.shopt.nocasematch {
		flags |= pattern.NoCase // (nocasematch covers ${x/pat/rep}, not # and %)
	}
	p := pattern.Compile(pat, flags)
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = expand.Replace(p, pat == "", v, pe.Op, rep, r.shopt.patsubReplacement)
	}
	return out, nil
}

// substr is ${x:off:len} (characters of a string, elements of a list).
func (r *Runner) substr(ctx context.Context, pe *syntax.ParamExp, pv paramValue) ([]string, error) {
	// an arithmetic error names the parameter first, as bash's ("x: 1/0: ...")
	eval := func(a *syntax.Arith) (int64, error) {
		n, err := r.evalArith(ctx, a)
		if fe, ok := err.(*fatalError); ok && fe.arith {
			name := pe.Name
			if pe.Index != nil {
				name += "[" + pe.Index.Src + "]"
			}
			return 0, &fatalError{msg: name + ": " + fe.msg, arith: true}
		}
		return n, err
	}
	off, err := eval(pe.Off)
	if err != nil {
		return nil, err
	}
	var length expand.Length
	if pe.HasLen {
		length = func() (int64, error) { return eval(pe.Len) }
	}
	var out []string
	switch {
	case !pv.list:
		var s string
		s, err = expand.Substring(pv.one(), off, length)
		out = []string{s}
	case pv.name == "@" || pv.name == "*":
		out, err = expand.SlicePositional(append([]string{r.name}, r.params...), off, length)
	case pv.v != nil && !pv.v.isArray() && !pv.v.isAssoc() && len(pv.vals) == 1:
		// ${s[@]:0:1} of a string is its substring, as bash's
		var s string
		s, err = expand.Substring(pv.vals[0], off, length)
		out = []string{s}
	case pv.v != nil && pv.v.isArray() && !pv.keyed && pv.v.arr != nil:
		out, err = expand.SliceSparse(pv.v.arr.keys, pv.v.arr.vals, off, length)
	case pv.v != nil && pv.v.isAssoc() && pv.keyed:
		out, err = expand.SliceAssoc(pv.vals, off, length)
	default:
		out, err = expand.SliceList(pv.vals, off, length)
	}
	if err == expand.ErrNegativeLength {
		return nil, &fatalError{msg: strings.TrimSpace(pe.Len.Src) + ": substring expression < 0"}
	}
	return out, err
}

// transform is ${x@Q} and the other @ operators.
func (r *Runner) transform(ctx context.Context, op byte, pv paramValue, name string) ([]string, error) {
	vals := pv.vals
	out := make([]string, 0, len(vals))
	switch op {
	case 'Q', 'E', 'U', 'L', 'u':
		for _, v := range vals {
			out = append(out, expand.Transform(op, v))
		}
	case 'P':
		for _, v := range vals {
			out = append(out, r.prompt(ctx, v))
		}
	case 'a':
		flags := ""
		if pv.v != nil {
			flags = attrFlags(pv.v)
		}
		if len(vals) == 0 && pv.v != nil {
			return []string{flags}, nil
		}
		for range vals {
			out = append(out, flags)
		}
	case 'A':
		if pv.name == "@" || pv.name == "*" {
			// the positional parameters as the command that sets them,
			// a word each for "$@" (set, --, 'a', 'b c')
			if len(vals) == 0 {
				return nil, nil
			}
			out = append(out, "set", "--")
			for _, v := range vals {
				out = append(out, expand.QuoteSingle(v))
			}
			return out, nil
		}
		// (an empty or unset array still says what it is: declare -a e;
		// so does a variable with attributes and no value: declare -i y)
		if pv.v != nil && (pv.v.isArray() || pv.v.isAssoc()) && (pv.list || !pv.v.set) {
			return []string{r.declareLine(pv.name, pv.v)}, nil
		}
		if pv.v != nil && (pv.v.isArray() || pv.v.isAssoc()) && len(r.values(pv.v)) == 0 {
			return []string{"declare -" + attrFlags(pv.v) + " " + pv.name}, nil // (${a@A} of a=())
		}
		if pv.v != nil && !pv.v.set && pv.v.attrs != 0 && pv.v.dyn == dynNone {
			return []string{"declare -" + attrFlags(pv.v) + " " + pv.name}, nil
		}
		if !pv.set {
			return nil, nil
		}
		// (an element is shown as its variable: ${a[1]@A} is declare -a a='2')
		for _, v := range vals {
			if pv.v != nil && !pv.list && pv.v.attrs != 0 {
				out = append(out, "declare -"+attrFlags(pv.v)+" "+pv.name+"="+expand.QuoteSingle(v))
				continue
			}
			out = append(out, pv.name+"="+expand.QuoteSingle(v))
		}
	case 'K', 'k':
		v := pv.v
		if v == nil || !(v.isArray() || v.isAssoc()) || !pv.list {
			for _, s := range vals {
				out = append(out, expand.QuoteSingle(s))
			}
			return out, nil
		}
		keys := r.keys(v)
		values := r.values(v)
		var parts []string
		for i := range keys {
			k := keys[i]
			if v.isAssoc() {
				k = expand.QuoteKey(k)
			}
			if op == 'K' {
				parts = append(parts, k+" "+expand.QuoteDouble(values[i]))
			} else {
				parts = append(parts, keys[i], values[i])
			}
		}
		if op == 'K' {
			return []string{strings.Join(parts, " ")}, nil
		}
		return parts, nil
	}
	return out, nil
}

// varNames lists the variables whose names start with prefix, sorted.
func (r *Runner) varNames(prefix string) []string {
	var out []string
	for k, v := range r.vars.m {
		if strings.HasPrefix(k, prefix) && (v.set || v.dyn != dynNone || v.isArray() || v.isAssoc()) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
