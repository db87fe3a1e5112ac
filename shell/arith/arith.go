// Package arith evaluates bash arithmetic (64-bit integers that wrap, C
// operators, assignments, base#n constants) from text, as bash does: it
// evaluates while it parses, skipping the effects of branches that are not
// taken, and reports errors with bash's wording and error token.
package arith

import (
	"math"
	"strings"
)

// Ref names a variable or array element in an expression.
type Ref struct {
	Name     string
	Index    string // subscript text, as written
	HasIndex bool
	// Key is set by Env.Lookup to the element it resolved (the evaluated
	// index), so that an assignment to the same element (a[i++] += 1) does
	// not evaluate the subscript again.
	Key      string
	Resolved bool
}

// Env gives the evaluator its variables.
type Env interface {
	// Lookup returns a variable's value ("" if unset).
	Lookup(r *Ref) (string, error)
	// Assign sets a variable to an integer.
	Assign(r *Ref, v int64) error
}

// Error is an arithmetic error, worded as bash words it.
type Error struct {
	Expr  string // the expression (leading blanks removed)
	Msg   string
	Token string
}

func (e *Error) Error() string {
	return e.Expr + ": " + e.Msg + " (error token is \"" + e.Token + "\")"
}

// MaxDepth bounds recursive evaluation of variables' values.
const MaxDepth = 1024

type tok uint8

const (
	tEOF tok = iota
	tNum
	tStr
	tEq     // =
	tGt     // >
	tLt     // <
	tPlus   // +
	tMinus  // -
	tMul    // *
	tDiv    // /
	tMod    // %
	tNot    // !
	tLPar   // (
	tRPar   // )
	tBand   // &
	tBor    // |
	tBxor   // ^
	tBnot   // ~
	tQues   // ?
	tCol    // :
	tComma  // ,
	tEqEq   // ==
	tNeq    // !=
	tLeq    // <=
	tGeq    // >=
	tLsh    // <<
	tRsh    // >>
	tLand   // &&
	tLor    // ||
	tPower  // **
	tOpAsg  // op=
	tPreInc // ++x
	tPreDec // --x
	tPostInc
	tPostDec
	tCond // lasttok after a ?: expression
)

var single = map[byte]tok{
	'=': tEq, '>': tGt, '<': tLt, '+': tPlus, '-': tMinus, '*': tMul, '/': tDiv, '%': tMod,
	'!': tNot, '(': tLPar, ')': tRPar, '&': tBand, '|': tBor, '^': tBxor, '~': tBnot,
	'?': tQues, ':': tCol, ',': tComma,
}

func isMulti(t tok) bool {
	switch t {
	case tEqEq, tNeq, tLeq, tGeq, tLand, tLor, tLsh, tRsh, tOpAsg, tCond, tPower, tPreInc, tPreDec, tPostInc, tPostDec:
		return true
	}
	return false
}

func isOp(t tok) bool { return t >= tEq && t <= tComma }

// state is one expression being evaluated (variables' values nest).
type state struct {
	ev       *evaluator
	expr     string
	pos      int // next character
	lastPos  int // start of the last token read
	cur      tok
	last     tok
	val      int64 // value of the last number or variable
	ref      *Ref  // the last variable read
	asgOp    tok   // the operator of op=
	numEnd   int   // end of a number being converted (errors show up to it)
	inNumber bool
}

type evaluator struct {
	env    Env
	depth  int
	noeval int
}

// bail unwinds an evaluation that failed.
type bail struct{ err error }

// Eval evaluates expr.
func Eval(expr string, env Env) (v int64, err error) {
	ev := &evaluator{env: env}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			v, err = 0, b.err
		}
	}()
	return ev.subexpr(expr), nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (ev *evaluator) subexpr(expr string) int64 {
	i := 0
	for i < len(expr) && isSpace(expr[i]) {
		i++
	}
	if i == len(expr) {
		return 0
	}
	if ev.depth >= MaxDepth-1 {
		panic(bail{&Error{Expr: strings.TrimLeft(expr, " \t\n"), Msg: "expression recursion level exceeded", Token: expr}})
	}
	ev.depth++
	defer func() { ev.depth-- }()
	s := &state{ev: ev, expr: expr}
	s.readtok()
	v := s.comma()
	if s.cur != tEOF {
		s.fail("syntax error in expression")
	}
	return v
}

func (s *state) fail(msg string) {
	expr := s.expr
	if s.inNumber {
		expr = expr[:s.numEnd]
	}
	t := ""
	if s.lastPos < len(expr) {
		t = expr[s.lastPos:]
	}
	panic(bail{&Error{Expr: strings.TrimLeft(expr, " \t"), Msg: msg, Token: t}})
}

// failErr ends the evaluation with an error from the environment.
func (s *state) failErr(err error) { panic(bail{err}) }

func (s *state) comma() int64 {
	v := s.assign()
	for s.cur == tComma {
		s.readtok()
		v = s.assign()
	}
	return v
}

func (s *state) assign() int64 {
	v := s.cond()
	if s.cur != tEq && s.cur != tOpAsg {
		return v
	}
	special := s.cur == tOpAsg
	if s.last != tStr {
		s.fail("attempted assignment to non-variable")
	}
	op := s.asgOp
	lv := v
	ref := s.ref
	if ref == nil {
		s.fail("syntax error in variable assignment")
	}
	s.readtok()
	v = s.assign()
	if special {
		if (op == tDiv || op == tMod) && v == 0 {
			if s.ev.noeval == 0 {
				s.fail("division by 0")
			}
			v = 1
		}
		switch op {
		case tMul:
			lv *= v
		case tDiv, tMod:
			lv = divmod(lv, v, op)
		case tPlus:
			lv += v
		case tMinus:
			lv -= v
		case tLsh:
			lv = shl(lv, v)
		case tRsh:
			lv = shr(lv, v)
		case tBand:
			lv &= v
		case tBor:
			lv |= v
		case tBxor:
			lv ^= v
		}
		v = lv
	}
	if s.ev.noeval == 0 {
		if err := s.ev.env.Assign(ref, v); err != nil {
			s.failErr(err)
		}
	}
	return v
}

func divmod(a, b int64, op tok) int64 {
	if a == math.MinInt64 && b == -1 {
		if op == tDiv {
			return math.MinInt64
		}
		return 0
	}
	if op == tDiv {
		return a / b
	}
	return a % b
}

// Shifts take their count modulo 64, as the machine bash runs on does.
func shl(a, b int64) int64 { return a << (uint64(b) & 63) }
func shr(a, b int64) int64 { return a >> (uint64(b) & 63) }

func (s *state) cond() int64 {
	c := s.lor()
	if s.cur != tQues {
		return c
	}
	skip := c == 0
	if skip {
		s.ev.noeval++
	}
	s.readtok()
	if s.cur == tEOF || s.cur == tCol {
		s.fail("expression expected")
	}
	v1 := s.comma()
	if skip {
		s.ev.noeval--
	}
	if s.cur != tCol {
		s.fail("`:' expected for conditional expression")
	}
	skip = c != 0
	if skip {
		s.ev.noeval++
	}
	s.readtok()
	if s.cur == tEOF {
		s.fail("expression expected")
	}
	v2 := s.cond()
	if skip {
		s.ev.noeval--
	}
	s.last = tCond
	if c != 0 {
		return v1
	}
	return v2
}

func (s *state) lor() int64 {
	v := s.land()
	for s.cur == tLor {
		skip := v != 0
		if skip {
			s.ev.noeval++
		}
		s.readtok()
		v2 := s.land()
		if skip {
			s.ev.noeval--
		}
		v = b2i(v != 0 || v2 != 0)
		s.last = tLor
	}
	return v
}

func (s *state) land() int64 {
	v := s.bor()
	for s.cur == tLand {
		skip := v == 0
		if skip {
			s.ev.noeval++
		}
		s.readtok()
		v2 := s.bor()
		if skip {
			s.ev.noeval--
		}
		v = b2i(v != 0 && v2 != 0)
		s.last = tLand
	}
	return v
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (s *state) bor() int64 {
	v := s.bxor()
	for s.cur == tBor {
		s.readtok()
		v |= s.bxor()
		s.last = tNum
	}
	return v
}

func (s *state) bxor() int64 {
	v := s.band()
	for s.cur == tBxor {
		s.readtok()
		v ^= s.band()
		s.last = tNum
	}
	return v
}

func (s *state) band() int64 {
	v := s.equality()
	for s.cur == tBand {
		s.readtok()
		v &= s.equality()
		s.last = tNum
	}
	return v
}

func (s *state) equality() int64 {
	v := s.relational()
	for s.cur == tEqEq || s.cur == tNeq {
		op := s.cur
		s.readtok()
		v2 := s.relational()
		if op == tEqEq {
			v = b2i(v == v2)
		} else {
			v = b2i(v != v2)
		}
		s.last = tNum
	}
	return v
}

func (s *state) relational() int64 {
	v := s.shift()
	for s.cur == tLeq || s.cur == tGeq || s.cur == tLt || s.cur == tGt {
		op := s.cur
		s.readtok()
		v2 := s.shift()
		switch op {
		case tLeq:
			v = b2i(v <= v2)
		case tGeq:
			v = b2i(v >= v2)
		case tLt:
			v = b2i(v < v2)
		default:
			v = b2i(v > v2)
		}
		s.last = tNum
	}
	return v
}

func (s *state) shift() int64 {
	v := s.additive()
	for s.cur == tLsh || s.cur == tRsh {
		op := s.cur
		s.readtok()
		v2 := s.additive()
		if op == tLsh {
			v = shl(v, v2)
		} else {
			v = shr(v, v2)
		}
		s.last = tNum
	}
	return v
}

func (s *state) additive() int64 {
	v := s.multiplicative()
	for s.cur == tPlus || s.cur == tMinus {
		op := s.cur
		s.readtok()
		v2 := s.multiplicative()
		if op == tPlus {
			v += v2
		} else {
			v -= v2
		}
		s.last = tNum
	}
	return v
}

func (s *state) multiplicative() int64 {
	v := s.power()
	for s.cur == tMul || s.cur == tDiv || s.cur == tMod {
		op := s.cur
		opEnd := s.pos
		s.readtok()
		v2 := s.power()
		if (op == tDiv || op == tMod) && v2 == 0 {
			if s.ev.noeval == 0 {
				for opEnd < len(s.expr) && isSpace(s.expr[opEnd]) {
					opEnd++
				}
				s.lastPos = opEnd
				s.fail("division by 0")
			}
			v2 = 1
		}
		if op == tMul {
			v *= v2
		} else {
			v = divmod(v, v2, op)
		}
		s.last = tNum
	}
	return v
}

func ipow(base, exp int64) int64 {
	r := int64(1)
	for exp != 0 {
		if exp&1 != 0 {
			r *= base
		}
		exp >>= 1
		base *= base
	}
	return r
}

func (s *state) power() int64 {
	v := s.unary()
	for s.cur == tPower {
		s.readtok()
		e := s.power() // right-associative
		s.last = tNum
		if e == 0 {
			return 1
		}
		if e < 0 {
			s.fail("exponent less than 0")
		}
		v = ipow(v, e)
	}
	return v
}

func (s *state) unary() int64 {
	switch s.cur {
	case tNot:
		s.readtok()
		v := b2i(s.unary() == 0)
		s.last = tNum
		return v
	case tBnot:
		s.readtok()
		v := ^s.unary()
		s.last = tNum
		return v
	case tMinus:
		s.readtok()
		v := -s.unary()
		s.last = tNum
		return v
	case tPlus:
		s.readtok()
		v := s.unary()
		s.last = tNum
		return v
	}
	return s.primary()
}

func (s *state) primary() int64 {
	switch s.cur {
	case tPreInc, tPreDec:
		op := s.cur
		s.last = s.cur
		s.readtok()
		if s.cur != tStr {
			s.fail("identifier expected after pre-increment or pre-decrement")
		}
		v := s.val + 1
		if op == tPreDec {
			v = s.val - 1
		}
		if s.ev.noeval == 0 {
			if err := s.ev.env.Assign(s.ref, v); err != nil {
				s.failErr(err)
			}
		}
		s.cur = tNum // --x=7 is an error
		s.readtok()
		return v
	case tLPar:
		s.readtok()
		v := s.comma()
		if s.cur != tRPar {
			s.fail("missing `)'")
		}
		s.readtok()
		return v
	case tNum:
		v := s.val
		s.readtok()
		return v
	case tStr:
		v := s.val
		ref := s.ref
		// Look at the next token without evaluating it: x++ / x--.
		save := *s
		s.ev.noeval++
		s.readtok()
		s.ev.noeval--
		if s.cur == tPostInc || s.cur == tPostDec {
			nv := v + 1
			if s.cur == tPostDec {
				nv = v - 1
			}
			s.last = tStr
			s.ref = ref
			if s.ev.noeval == 0 {
				if err := s.ev.env.Assign(ref, nv); err != nil {
					s.failErr(err)
				}
			}
			s.cur = tNum // x++=7 is an error
		} else {
			*s = save
		}
		s.readtok()
		return v
	}
	s.fail("syntax error: operand expected")
	return 0
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }
func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (s *state) readtok() {
	e := s.expr
	cp := s.pos
	for cp < len(e) && isSpace(e[cp]) {
		cp++
	}
	if cp >= len(e) {
		s.last = s.cur
		s.cur = tEOF
		s.pos = cp
		return
	}
	start := cp
	s.lastPos = start
	c := e[cp]
	switch {
	case isNameStart(c):
		for cp < len(e) && isNameChar(e[cp]) {
			cp++
		}
		ref := &Ref{Name: e[start:cp]}
		if cp < len(e) && e[cp] == '[' {
			end := skipSubscript(e, cp)
			if end < 0 {
				s.fail("bad array subscript")
			}
			ref.Index = e[cp+1 : end]
			ref.HasIndex = true
			cp = end + 1
		}
		s.pos = cp
		// A variable about to be assigned (x = ...) is not evaluated.
		j := cp
		for j < len(e) && isSpace(e[j]) {
			j++
		}
		assignNext := j < len(e) && e[j] == '=' && (j+1 >= len(e) || e[j+1] != '=')
		s.ref = ref
		if s.last == tPreInc || s.last == tPreDec || !assignNext {
			s.val = s.streval(ref)
		} else {
			s.val = 0
		}
		s.last = s.cur
		s.cur = tStr
		return
	case isDigit(c):
		for cp < len(e) && (isAlnum(e[cp]) || e[cp] == '#' || e[cp] == '@' || e[cp] == '_') {
			cp++
		}
		s.numEnd = cp
		s.inNumber = true
		s.val = s.strlong(e[start:cp])
		s.inNumber = false
		s.pos = cp
		s.last = s.cur
		s.cur = tNum
		return
	}
	cp++
	var c1 byte
	if cp < len(e) {
		c1 = e[cp]
	}
	cp++
	t, ok := single[c]
	switch {
	case c == '=' && c1 == '=':
		t = tEqEq
	case c == '!' && c1 == '=':
		t = tNeq
	case c == '>' && c1 == '=':
		t = tGeq
	case c == '<' && c1 == '=':
		t = tLeq
	case c == '<' && c1 == '<':
		t = tLsh
		if cp < len(e) && e[cp] == '=' {
			s.asgOp, t = tLsh, tOpAsg
			cp++
		}
	case c == '>' && c1 == '>':
		t = tRsh
		if cp < len(e) && e[cp] == '=' {
			s.asgOp, t = tRsh, tOpAsg
			cp++
		}
	case c == '&' && c1 == '&':
		t = tLand
	case c == '|' && c1 == '|':
		t = tLor
	case c == '*' && c1 == '*':
		t = tPower
	case (c == '-' || c == '+') && c1 == c && s.cur == tStr:
		t = tPostInc
		if c == '-' {
			t = tPostDec
		}
	case (c == '-' || c == '+') && c1 == c && s.cur == tNum && (s.last == tPreInc || s.last == tPreDec):
		if c == '-' {
			s.fail("--: assignment requires lvalue")
		}
		s.fail("++: assignment requires lvalue")
	case (c == '-' || c == '+') && c1 == c:
		j := cp
		for j < len(e) && isSpace(e[j]) {
			j++
		}
		if j < len(e) && isNameStart(e[j]) {
			t = tPreInc
			if c == '-' {
				t = tPreDec
			}
		} else {
			cp-- // a unary sign; the second one is read next
		}
	case c1 == '=' && strings.IndexByte("*/%+-&^|", c) >= 0:
		s.asgOp = single[c]
		t = tOpAsg
	case !ok:
		s.pos = cp - 1
		if s.cur == tEOF || isOp(s.cur) || isMulti(s.cur) {
			s.fail("syntax error: operand expected")
		}
		s.fail("syntax error: invalid arithmetic operator")
	default:
		cp--
	}
	if cp > len(e) {
		cp = len(e)
	}
	s.last = s.cur
	s.cur = t
	s.pos = cp
}

// skipSubscript returns the index of the ']' closing the '[' at i, or -1.
func skipSubscript(e string, i int) int {
	depth := 0
	for j := i; j < len(e); j++ {
		switch e[j] {
		case '\\':
			j++
		case '\'', '"':
			q := e[j]
			for j++; j < len(e) && e[j] != q; j++ {
				if e[j] == '\\' && q == '"' {
					j++
				}
			}
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// streval is a variable's value as a number: its text evaluated as an
// expression (0 when unset or empty).
func (s *state) streval(r *Ref) int64 {
	if s.ev.noeval > 0 {
		return 0
	}
	v, err := s.ev.env.Lookup(r)
	if err != nil {
		s.failErr(err)
	}
	if v == "" {
		return 0
	}
	if n, ok := quickInt(v); ok {
		return n
	}
	return s.ev.subexpr(v)
}

// quickInt parses a plain decimal without the evaluator.
func quickInt(v string) (int64, bool) {
	if len(v) == 0 || len(v) > 18 {
		return 0, false
	}
	neg := false
	i := 0
	if v[0] == '-' {
		neg = true
		i = 1
		if len(v) == 1 {
			return 0, false
		}
	}
	if v[i] == '0' && len(v) > i+1 {
		return 0, false // octal or hex
	}
	var n int64
	for ; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// strlong converts a constant: 0nnn octal, 0xnn hex, base#n (2..64), decimal.
func (s *state) strlong(num string) int64 {
	i := 0
	base := int64(10)
	foundBase := false
	if num[0] == '0' {
		i++
		if i == len(num) {
			return 0
		}
		if num[i] == 'x' || num[i] == 'X' {
			base = 16
			i++
		} else {
			base = 8
		}
		foundBase = true
	}
	var val int64
	for ; i < len(num); i++ {
		c := num[i]
		if c == '#' {
			if foundBase {
				s.fail("invalid number")
			}
			if val < 2 || val > 64 {
				s.fail("invalid arithmetic base")
			}
			base = val
			val = 0
			foundBase = true
			if i+1 >= len(num) || !(isAlnum(num[i+1]) || num[i+1] == '_' || num[i+1] == '@') {
				s.fail("invalid integer constant")
			}
			continue
		}
		var d int64
		switch {
		case isDigit(c):
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			if base <= 36 {
				d = int64(c-'A') + 10
			} else {
				d = int64(c-'A') + 36
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return val
		}
		if d >= base {
			s.fail("value too great for base")
		}
		val = val*base + d
	}
	return val
}
