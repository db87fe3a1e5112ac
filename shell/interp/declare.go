package interp

import (
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
)

// attrFlags is the letters declare -p shows for a variable.
func attrFlags(v *Var) string {
	var b strings.Builder
	if v.isArray() {
		b.WriteByte('a')
	}
	if v.isAssoc() {
		b.WriteByte('A')
	}
	if v.attrs&attrInteger != 0 {
		b.WriteByte('i')
	}
	if v.attrs&attrNameref != 0 {
		b.WriteByte('n')
	}
	if v.attrs&attrReadonly != 0 {
		b.WriteByte('r')
	}
	if v.attrs&attrTrace != 0 {
		b.WriteByte('t')
	}
	if v.attrs&attrExport != 0 {
		b.WriteByte('x')
	}
	if v.attrs&attrCapital != 0 {
		b.WriteByte('c')
	}
	if v.attrs&attrLower != 0 {
		b.WriteByte('l')
	}
	if v.attrs&attrUpper != 0 {
		b.WriteByte('u')
	}
	return b.String()
}

// declareFlags are attrFlags as declare writes them ("-" if none).
func declareFlags(v *Var) string {
	if f := attrFlags(v); f != "" {
		return f
	}
	return "-"
}

// declareLine is one line of declare -p (without the newline).
func (r *Runner) declareLine(name string, v *Var) string {
	head := "declare -" + declareFlags(v) + " " + name
	switch {
	case (v.isArray() || v.isAssoc()) && !v.set && v.dyn == dynNone:
		return head
	case v.isAssoc():
		var b strings.Builder
		b.WriteString(head + "=(")
		v.assoc.each(func(k, val string) {
			b.WriteString("[" + expand.QuoteKey(k) + "]=" + expand.QuoteDouble(val) + " ")
		})
		b.WriteString(")")
		return b.String()
	case v.isArray():
		keys := r.keys(v)
		vals := r.values(v)
		var b strings.Builder
		b.WriteString(head + "=(")
		for i := range keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + keys[i] + "]=" + expand.QuoteDouble(vals[i]))
		}
		b.WriteString(")")
		return b.String()
	}
	s, ok := r.scalar(v)
	if !ok {
		return head
	}
	return head + "=" + expand.QuoteDouble(s)
}

func itoa(n int) string { return strconv.Itoa(n) }
