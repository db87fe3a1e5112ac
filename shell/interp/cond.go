package interp

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// runCond runs [[ expr ]].
func (r *Runner) runCond(ctx context.Context, c *syntax.CondCmd) {
	if r.debugCompound(ctx, "[[ "+condText(c.X)+" ]]") {
		return
	}
	if r.opts.xtrace {
		r.traceOut(r.ps4(ctx) + "[[ " + condText(c.X) + " ]]\n")
	}
	v, st, err := r.evalCond(ctx, c.X)
	var ce *condError
	if errors.As(err, &ce) {
		r.errmsg(ce.msg)
		r.status = 1
		r.afterCommand(ctx, 1)
		return
	}
	if err != nil {
		r.expansionError(err)
		if r.flow == flowNone {
			r.status = 1
		}
		return
	}
	switch {
	case st == 2:
		r.status = 2
	case v:
		r.status = 0
	default:
		r.status = 1
	}
	r.afterCommand(ctx, r.status)
}

// condArithError is an arithmetic error inside [[ ]]: the command fails
// ("[[: msg", status 1) without ending the shell.
type condError struct{ msg string }

func (e *condError) Error() string { return e.msg }

func condArithError(err error) error {
	var fe *fatalError
	if errors.As(err, &fe) && fe.status == 127 {
		return err
	}
	return &condError{"[[: " + err.Error()}
}

func condText(c syntax.Cond) string { return syntax.CondString(c) }

// evalCond evaluates a [[ ]] expression; st 2 is an invalid regex.
func (r *Runner) evalCond(ctx context.Context, c syntax.Cond) (bool, int, error) {
	switch c := c.(type) {
	case *syntax.CondParen:
		return r.evalCond(ctx, c.X)
	case *syntax.CondWord:
		s, err := r.expandString(ctx, c.W, ctxNoSplit)
		return s != "", 0, err
	case *syntax.CondUnary:
		if c.Op == "!" {
			v, st, err := r.evalCond(ctx, c.X)
			return !v, st, err
		}
		s, err := r.expandString(ctx, c.X.(*syntax.CondWord).W, ctxNoSplit)
		if err != nil {
			return false, 0, err
		}
		return r.unaryTest(c.Op, s), 0, nil
	case *syntax.CondBinary:
		switch c.Op {
		case "&&", "||":
			v, st, err := r.evalCond(ctx, c.X)
			if err != nil || st == 2 {
				return v, st, err
			}
			if (c.Op == "&&") != v {
				return v, 0, nil
			}
			return r.evalCond(ctx, c.Y)
		}
		lw := c.X.(*syntax.CondWord).W
		rw := c.Y.(*syntax.CondWord).W
		left, err := r.expandString(ctx, lw, ctxNoSplit)
		if err != nil {
			return false, 0, err
		}
		switch c.Op {
		case "==", "=", "!=":
			pat, err := r.expandPattern(ctx, rw, false)
			if err != nil {
				return false, 0, err
			}
			flags := pattern.ExtGlob
			if r.shopt.nocasematch {
				flags |= pattern.NoCase
			}
			m := pattern.Compile(pat, flags).Match(left)
			return m == (c.Op != "!="), 0, nil
		case "=~":
			return r.regexMatch(ctx, left, rw)
		}
		right, err := r.expandString(ctx, rw, ctxNoSplit)
		if err != nil {
			return false, 0, err
		}
		switch c.Op {
		case "<":
			return left < right, 0, nil
		case ">":
			return left > right, 0, nil
		case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			a, err := r.arithExpr(left)
			if err != nil {
				return false, 0, condArithError(err)
			}
			b, err := r.arithExpr(right)
			if err != nil {
				return false, 0, condArithError(err)
			}
			switch c.Op {
			case "-eq":
				return a == b, 0, nil
			case "-ne":
				return a != b, 0, nil
			case "-lt":
				return a < b, 0, nil
			case "-le":
				return a <= b, 0, nil
			case "-gt":
				return a > b, 0, nil
			}
			return a >= b, 0, nil
		}
		t := &tester{r: r, argv: []string{left, c.Op, right}}
		return t.binary(), 0, nil
	}
	return false, 0, nil
}

// regexMatch is [[ s =~ re ]]: POSIX extended regular expressions where
// quoted parts match literally; BASH_REMATCH gets the match and groups.
func (r *Runner) regexMatch(ctx context.Context, s string, w *syntax.Word) (bool, int, error) {
	b := &expand.Builder{}
	if err := r.expandParts(ctx, w.Parts, false, ctxNoSplit, b); err != nil {
		return false, 0, err
	}
	var src strings.Builder
	var br bracketScan
	for _, f := range b.Fields {
		for _, p := range f.Parts {
			switch {
			case p.Quote && br.in:
				// quoted text in a bracket expression goes in as it is:
				// a backslash there would be one more member (bash's way)
				src.WriteString(p.S)
				br.quoted(p.S)
			case p.Quote:
				src.WriteString(regexp.QuoteMeta(p.S))
			default:
				src.WriteString(p.S)
				br.scan(p.S)
			}
		}
	}
	re := compileERE(src.String(), r.shopt.nocasematch)
	if re == nil {
		return false, 2, nil
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		_ = r.setArray("BASH_REMATCH", nil, setForce)
		return false, 0, nil
	}
	groups := make([]string, len(m)/2)
	for i := range groups {
		if m[2*i] >= 0 {
			groups[i] = s[m[2*i]:m[2*i+1]]
		}
	}
	_ = r.setArray("BASH_REMATCH", groups, setForce)
	return true, 0, nil
}

// bracketScan follows the unquoted text of a regular expression to know
// whether what comes next is inside a bracket expression ([...]).
type bracketScan struct {
	in    bool
	n     int  // characters of the bracket read, after [ and ^
	class byte // ':', '.' or '=' inside [: :], [. .], [= =]
	prev  byte
}

func (b *bracketScan) quoted(s string) { b.n += len(s) }

func (b *bracketScan) scan(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case !b.in:
			if c == '\\' && i+1 < len(s) {
				i++
			} else if c == '[' {
				b.in, b.n, b.class = true, 0, 0
				if i+1 < len(s) && s[i+1] == '^' {
					i++
				}
			}
		case b.class != 0:
			if c == ']' && b.prev == b.class {
				b.class = 0
			}
		case c == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '.' || s[i+1] == '='):
			b.class = s[i+1]
			i++
			b.n++
		case c == ']' && b.n > 0:
			b.in = false
		default:
			b.n++
		}
		b.prev = c
	}
}

// bracketClass turns a POSIX bracket expression ([...], whole) into Go's:
// a backslash is a member there, as is a leading ']', and [=c=] and [.c.]
// of one character (the C locale's classes, which Go lacks) are c.
func bracketClass(cls string) string {
	var b strings.Builder
	b.WriteByte('[')
	k := 1
	if k < len(cls) && cls[k] == '^' {
		b.WriteByte('^')
		k++
	}
	if k < len(cls) && cls[k] == ']' {
		b.WriteString(`\]`)
		k++
	}
	for ; k < len(cls)-1; k++ { // (cls[len-1] is the closing ']')
		switch c := cls[k]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '[' && k+4 < len(cls) && (cls[k+1] == '=' || cls[k+1] == '.') && cls[k+3] == cls[k+1] && cls[k+4] == ']':
			if strings.IndexByte(`\^]-[`, cls[k+2]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(cls[k+2])
			k += 4
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}

var ereCache sync.Map

// compileERE compiles a POSIX extended regex (leftmost-longest), with the
// GNU escapes glibc accepts; nil when invalid.
func compileERE(src string, nocase bool) *regexp.Regexp {
	key := src
	if nocase {
		key = "(?i)" + src
	}
	if re, ok := ereCache.Load(key); ok {
		return re.(*regexp.Regexp)
	}
	conv := translateERE(src)
	if nocase {
		conv = "(?i)" + conv
	}
	re, err := regexp.Compile(conv)
	if err != nil {
		return nil
	}
	re.Longest()
	ereCache.Store(key, re)
	return re
}

// translateERE turns POSIX ERE (with GNU extensions) into Go syntax:
// \< \> word boundaries, literal braces that start no interval, and
// bracket expressions whose ']' comes first.
func translateERE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			switch s[i+1] {
			case '<', '>':
				b.WriteString(`\b`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			case 'w', 'W', 's', 'S', 'b', 'B':
				b.WriteByte('\\') // (GNU's, which Go has too)
				b.WriteByte(s[i+1])
			default:
				if d := s[i+1]; d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' {
					b.WriteByte(d) // \x is x in glibc's ERE (Go's \x, \d... are escapes)
				} else {
					b.WriteByte('\\')
					b.WriteByte(d)
				}
			}
			i++
		case c == '[':
			j := i + 1
			if j < len(s) && s[j] == '^' {
				j++
			}
			if j < len(s) && s[j] == ']' {
				j++
			}
			for j < len(s) && s[j] != ']' {
				if s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '=') {
					if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			if j >= len(s) {
				b.WriteString(`\[`)
				continue
			}
			cls := bracketClass(s[i : j+1])
			b.WriteString(cls)
			i = j
		case c == '{':
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ',') {
				j++
			}
			if j < len(s) && s[j] == '}' && j > i+1 && i > 0 {
				b.WriteString(s[i : j+1])
				i = j
			} else {
				b.WriteString(`\{`)
			}
		case c == '}':
			b.WriteString(`\}`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
