package interp

import (
	"context"
	"strconv"

	"github.com/wasmsand/wasmsand/shell/arith"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// arithEnv gives the arithmetic evaluator the shell's variables.
type arithEnv struct{ r *Runner }

func (e arithEnv) Lookup(ref *arith.Ref) (string, error) {
	r := e.r
	if !ref.HasIndex {
		v, ok := r.getVar(ref.Name)
		if !ok && r.opts.nounset {
			return "", &fatalError{msg: ref.Name + ": unbound variable", status: 127}
		}
		return v, nil
	}
	v := r.lookup(ref.Name)
	key, err := e.key(v, ref)
	if err != nil {
		return "", err
	}
	ref.Key, ref.Resolved = key, true
	s, ok := r.element(v, key)
	if !ok && r.opts.nounset {
		return "", &fatalError{msg: ref.Name + "[" + ref.Index + "]: unbound variable", status: 127}
	}
	return s, nil
}

func (e arithEnv) key(v *Var, ref *arith.Ref) (string, error) {
	if v != nil && v.isAssoc() {
		return ref.Index, nil
	}
	if ref.Index == "@" || ref.Index == "*" {
		return "", &fatalError{msg: ref.Name + "[" + ref.Index + "]: bad array subscript"}
	}
	n, err := e.r.arithExpr(ref.Index)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(n, 10), nil
}

func (e arithEnv) Assign(ref *arith.Ref, val int64) error {
	r := e.r
	s := strconv.FormatInt(val, 10)
	if !ref.HasIndex {
		return r.setVar(ref.Name, s, 0)
	}
	key := ref.Key
	if !ref.Resolved {
		var err error
		if key, err = e.key(r.lookup(ref.Name), ref); err != nil {
			return err
		}
	}
	return r.setElement(ref.Name, key, s, 0)
}

// arithExpr evaluates expanded arithmetic text.
func (r *Runner) arithExpr(s string) (int64, error) {
	if n, ok := plainInt(s); ok {
		return n, nil
	}
	return arith.Eval(s, arithEnv{r})
}

// arithSubscript evaluates an indexed array's subscript.
func (r *Runner) arithSubscript(s string) (int64, error) { return r.arithExpr(s) }

// plainInt parses a decimal integer without the evaluator.
func plainInt(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i >= len(s) || (s[i] == '0' && len(s) > i+1) {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	if s[0] == '-' {
		n = -n
	}
	return n, true
}

// evalArith expands and evaluates arithmetic text from the source.
func (r *Runner) evalArith(ctx context.Context, a *syntax.Arith) (int64, error) {
	if a == nil {
		return 0, nil
	}
	s, err := r.expandQuoted(ctx, a.W)
	if err != nil {
		return 0, err
	}
	n, err := r.arithExpr(s)
	if err != nil {
		if ae, ok := err.(*arith.Error); ok {
			return 0, &fatalError{msg: ae.Error(), arith: true}
		}
		return 0, err
	}
	return n, nil
}
