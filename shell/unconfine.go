package shell

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Printing functions (type NAME, declare -f) shows them as written: the
// interpreter holds them as confine.go rewrote them, so the printed text is
// parsed again and the rewrites undone on that copy.

// funcPrintCmd is what confine makes of `declare -f` / `typeset -f`.
const funcPrintCmd = "__wasmsand_declare_f"

// funcText is a function's body as the user wrote it, printed.
func funcText(body *syntax.Stmt) string {
	var buf bytes.Buffer
	_ = syntax.NewPrinter().Print(&buf, body)
	f, err := syntax.NewParser().Parse(strings.NewReader(buf.String()), "")
	if err != nil || len(f.Stmts) != 1 {
		return buf.String()
	}
	st := f.Stmts[0]
	unconfine(st)
	samePositions(st)
	buf.Reset()
	_ = syntax.NewPrinter().Print(&buf, st)
	return buf.String()
}

// unconfine undoes confine's rewrites in a tree of its own.
func unconfine(node syntax.Node) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for undoStmt(n) {
			}
		case *syntax.ParamExp:
			if n.Param != nil {
				switch n.Param.Value {
				case pidVar:
					n.Param.Value, n.Short = "$", true
				case ppidVar:
					n.Param.Value = "PPID"
				case lastBgVar:
					n.Param.Value, n.Short = "!", true
				}
			}
		}
		return true
	})
}

// undoStmt undoes one rewrite of st, if st is one (reported true).
func undoStmt(st *syntax.Stmt) bool {
	b, ok := st.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) != 2 {
		return false
	}
	first, second := b.Stmts[0], b.Stmts[1]
	switch internalCall(second) {
	case varCheckCmd: // { x=...; __wasmsand_vchk x; }
		*st = *first
		return true
	case pipeDoneCmd: // { PIPELINE; __wasmsand_psdone ID; }
		neg := st.Negated
		*st = *first
		st.Negated = neg
		return true
	case pipeStatusCmd: // a stage: { __wasmsand_enter && STAGE; __wasmsand_ps ...; }
		if and, ok := first.Cmd.(*syntax.BinaryCmd); ok && and.Op == syntax.AndStmt && internalCall(and.X) == enterCmd {
			*st = *and.Y
			return true
		}
	}
	if internalCall(first) == newJobCmd && second.Background { // { __wasmsand_newjob HEX; JOB & }
		args := first.Cmd.(*syntax.CallExpr).Args
		if len(args) == 2 {
			if text, err := hex.DecodeString(args[1].Lit()); err == nil {
				if f, err := syntax.NewParser().Parse(bytes.NewReader(text), ""); err == nil && len(f.Stmts) == 1 {
					*st = *f.Stmts[0]
					st.Background = true
					return true
				}
			}
		}
	}
	return false
}

// samePositions gives every valid position in the tree one value: the
// printer lays code out by its positions, and those of the undone rewrites
// would leave blank lines and broken pipelines; with none to go by it prints
// the canonical layout. (Zero positions would not do: an invalid InPos drops
// a for loop's `in` words.)
func samePositions(node syntax.Node) {
	posType := reflect.TypeOf(syntax.Pos{})
	one := reflect.ValueOf(syntax.NewPos(1, 1, 1))
	syntax.Walk(node, func(n syntax.Node) bool {
		v := reflect.ValueOf(n)
		if n == nil || v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Type() == posType && f.CanSet() && f.Interface().(syntax.Pos).IsValid() {
				f.Set(one)
			}
		}
		return true
	})
}

// internalCall is the name of the shell's own command st calls, or "".
func internalCall(st *syntax.Stmt) string {
	if st == nil {
		return ""
	}
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	if name := c.Args[0].Lit(); strings.HasPrefix(name, internalPrefix) {
		return name
	}
	return ""
}

// declareF is `declare -f [NAME...]`: every function, or the named ones (status
// 1 if one is missing, silently, as bash).
func (s *Session) declareF(hc interp.HandlerContext, names []string) int {
	if len(names) == 0 {
		for name := range s.runner.Funcs {
			names = append(names, name)
		}
		sort.Strings(names)
	}
	st := 0
	var out strings.Builder
	for _, name := range names {
		body := s.runner.Funcs[name]
		if body == nil {
			st = 1
			continue
		}
		fmt.Fprintf(&out, "%s()\n%s\n", name, funcText(body))
	}
	if w := writeOut(hc, "declare", out.String()); w != 0 {
		return w
	}
	return st
}
