package syntax

import (
	"math"
	"reflect"
	"strings"
)

// Input: a stack of frames. Frame 0 is the source; aliases push their text
// (with a blank appended, so their last word ends there, as in bash).
type frame struct {
	src   string
	pos   int
	alias string
}

// Error is a syntax error, worded as bash words it.
type Error struct {
	Line int
	Msg  string // "syntax error near unexpected token `then'"
	Text string // the line the error is on, shown as "`...'" (empty: not shown)
	// Incomplete reports that more input could complete the command (an
	// interactive shell would prompt for it).
	Incomplete bool
	// Discard: bash drops the line and reads on (an error inside a
	// compound array assignment), status 1, instead of ending a script.
	Discard bool
	// KeepStatus: an error inside [[ ]], which ends a script with the
	// status it had ($? is not set to 2).
	KeepStatus bool
	// Fatal: bash exits even an interactive shell or one inside eval (more
	// here-documents on one line than HeredocMax).
	Fatal bool
	// TextLabel, when set, goes before Text on its line ("syntax error:
	// `(( a; b ))'", where bash shows the construct instead of the line).
	TextLabel string
}

func (e *Error) Error() string { return e.Msg }

// QuotedText is the error's second line: its text quoted, after TextLabel.
func (e *Error) QuotedText() string {
	if e.TextLabel != "" {
		return e.TextLabel + " `" + e.Text + "'"
	}
	return "`" + e.Text + "'"
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tWord
	tNewline
	tSemi     // ;
	tAmp      // &
	tAndAnd   // &&
	tOrOr     // ||
	tPipe     // |
	tPipeAmp  // |&
	tLParen   // (
	tRParen   // )
	tDSemi    // ;;
	tSemiAmp  // ;&
	tDSemiAmp // ;;&
	tRedir
	tLess    // < inside [[ ]]
	tGreater // > inside [[ ]]
)

var tokText = map[tokKind]string{
	tNewline: "newline", tSemi: ";", tAmp: "&", tAndAnd: "&&", tOrOr: "||", tPipe: "|",
	tPipeAmp: "|&", tLParen: "(", tRParen: ")", tDSemi: ";;", tSemiAmp: ";&", tDSemiAmp: ";;&",
	tLess: "<", tGreater: ">",
}

type token struct {
	kind   tokKind
	word   *Word
	lit    string // a plain word's text (keywords); an operator's text
	redir  *Redirect
	assign *Assign // a word read as an assignment
	line   int
	text   string // how an error shows it
}

// lexMode says how the next token is read.
type lexMode struct {
	cmd    bool // command position: aliases and (( apply
	assign bool // NAME=... is an assignment
	cond   bool // inside [[ ]]: < and > are operators
}

func (p *Parser) peek() int {
	for {
		for i := len(p.frames) - 1; i >= 0; i-- {
			f := p.frames[i]
			if f.pos < len(f.src) {
				return int(f.src[f.pos])
			}
		}
		if !p.more() {
			return -1
		}
	}
}

// peekAt looks n bytes ahead.
func (p *Parser) peekAt(n int) int {
	for {
		m := n
		for i := len(p.frames) - 1; i >= 0; i-- {
			f := p.frames[i]
			if f.pos+m < len(f.src) {
				return int(f.src[f.pos+m])
			}
			m -= len(f.src) - f.pos
		}
		if !p.more() {
			return -1
		}
	}
}

// more asks Parser.More for the next line of the source.
func (p *Parser) more() bool {
	if p.More == nil || p.moreDone {
		return false
	}
	s, ok := p.More()
	if !ok {
		p.moreDone = true
	}
	p.frames[0].src += s
	return s != ""
}

// rest is what is left of the current frame (for scans that look ahead).
func (p *Parser) rest() string {
	for len(p.frames) > 1 && p.frames[len(p.frames)-1].pos >= len(p.frames[len(p.frames)-1].src) {
		p.popFrame()
	}
	f := p.frames[len(p.frames)-1]
	return f.src[f.pos:]
}

// restAll is what is left of every frame, the current one first: an
// alias's text, then the input after it (bash reads `$((` across them).
func (p *Parser) restAll() string {
	s := p.rest()
	if len(p.frames) == 1 {
		return s
	}
	var b strings.Builder
	b.WriteString(s)
	for i := len(p.frames) - 2; i >= 0; i-- {
		f := p.frames[i]
		b.WriteString(f.src[f.pos:])
	}
	return b.String()
}

func (p *Parser) popFrame() {
	p.frames = p.frames[:len(p.frames)-1]
}

func (p *Parser) get() int {
	for {
		f := p.frames[len(p.frames)-1]
		if f.pos < len(f.src) {
			c := f.src[f.pos]
			f.pos++
			p.hist = append(p.hist, c)
			if c == '\n' && len(p.frames) == 1 {
				p.line++
			}
			return int(c)
		}
		if len(p.frames) == 1 {
			if p.more() {
				continue
			}
			return -1
		}
		p.popFrame()
	}
}

// skip consumes n bytes.
func (p *Parser) skip(n int) {
	for ; n > 0; n-- {
		p.get()
	}
}

func (p *Parser) histPos() int { return len(p.hist) }

func (p *Parser) rawFrom(start int) string { return string(p.hist[start:]) }

func isBlank(c int) bool { return c == ' ' || c == '\t' }

func isMeta(c int) bool {
	switch c {
	case ' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>', -1:
		return true
	}
	return false
}

func isNameStart(c int) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameChar(c int) bool { return isNameStart(c) || c >= '0' && c <= '9' }

func isDigit(c int) bool { return c >= '0' && c <= '9' }

// skipBlanks skips blanks and line continuations.
func (p *Parser) skipBlanks() {
	for {
		c := p.peek()
		if isBlank(c) {
			p.get()
			continue
		}
		if c == '\\' && p.peekAt(1) == '\n' {
			p.get()
			p.get()
			continue
		}
		return
	}
}

func (p *Parser) fail(line int, msg string, showLine bool) {
	e := &Error{Line: line, Msg: msg}
	if showLine {
		e.Text = p.lineText(line)
	}
	panic(e)
}

// failEOF reports input that ended inside a construct.
func (p *Parser) failEOF(line int, msg string) {
	panic(&Error{Line: line, Msg: msg, Incomplete: true})
}

func (p *Parser) unexpected(t token) {
	if t.kind == tEOF {
		p.failEOF(p.eofLine(), "syntax error: unexpected end of file")
	}
	p.fail(t.line, "syntax error near unexpected token `"+t.text+"'", true)
}

// eofLine is the line bash reports an unexpected end of file on: the one
// after the last (bash reads a final newline that is not there).
func (p *Parser) eofLine() int {
	src := p.frames[0].src
	line := p.line
	if src != "" && !strings.HasSuffix(src, "\n") && !p.virtualNL {
		line++
	}
	if !p.ScriptFile && oddTrailingBackslashes(src) {
		line++ // (the backslash took that newline, and bash reads another)
	}
	return line
}

// lineText is the source line numbered line (counted from the parser's
// first line).
func (p *Parser) lineText(line int) string {
	src := p.frames[0].src
	n := p.firstLine
	for n < line {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			return ""
		}
		src = src[i+1:]
		n++
	}
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return src
}

// next returns the next token, reading it in mode m if none is pending.
func (p *Parser) next(m lexMode) token {
	if p.tok != nil {
		t := *p.tok
		p.tok = nil
		return t
	}
	return p.lex(m)
}

// peekTok looks at the next token without consuming it.
func (p *Parser) peekTok(m lexMode) token {
	if p.tok == nil {
		t := p.lex(m)
		p.tok = &t
	}
	return *p.tok
}

func (p *Parser) lex(m lexMode) token {
	for {
		p.skipBlanks()
		c := p.peek()
		if c == '#' {
			for c = p.peek(); c != '\n' && c != -1; c = p.peek() {
				p.get()
			}
			continue
		}
		line := p.line
		op := func(k tokKind, n int) token {
			p.skip(n)
			return token{kind: k, line: line, text: tokText[k], lit: tokText[k]}
		}
		switch c {
		case -1:
			if !p.virtualNL && len(p.frames) == 1 && p.frames[0].src != "" && !strings.HasSuffix(p.frames[0].src, "\n") {
				// bash reads a final newline that the text does not have
				p.virtualNL = true
				p.line++
				p.readHeredocs()
				return token{kind: tNewline, line: line, text: "newline", lit: "\n"}
			}
			return token{kind: tEOF, line: line, text: "end of file"}
		case '\n':
			// nothing past the newline is read (with Parser.More, the rest
			// of the input belongs to the commands until they are parsed)
			p.get()
			p.readHeredocs()
			return token{kind: tNewline, line: line, text: "newline", lit: "\n"}
		}
		c1 := p.peekAt(1)
		switch c {
		case ';':
			if c1 == ';' {
				if p.peekAt(2) == '&' {
					return op(tDSemiAmp, 3)
				}
				return op(tDSemi, 2)
			}
			if c1 == '&' {
				return op(tSemiAmp, 2)
			}
			return op(tSemi, 1)
		case '&':
			switch c1 {
			case '&':
				return op(tAndAnd, 2)
			case '>':
				if !m.cond {
					if p.peekAt(2) == '>' {
						return p.redirOp(RedirAllApp, 3, -1, "", line)
					}
					return p.redirOp(RedirAll, 2, -1, "", line)
				}
			}
			return op(tAmp, 1)
		case '|':
			if c1 == '|' {
				return op(tOrOr, 2)
			}
			if c1 == '&' {
				return op(tPipeAmp, 2)
			}
			return op(tPipe, 1)
		case '(':
			return op(tLParen, 1)
		case ')':
			return op(tRParen, 1)
		case '<', '>':
			if c1 == '(' {
				return p.wordToken(m, line)
			}
			if m.cond {
				if c == '<' {
					return op(tLess, 1)
				}
				return op(tGreater, 1)
			}
			return p.redirect(-1, "", line)
		}
		if !m.cond {
			// An fd number or {varname} right before a redirection operator.
			rest := p.rest()
			if isDigit(c) {
				i := 0
				for i < len(rest) && isDigit(int(rest[i])) {
					i++
				}
				n, fits := 0, true
				for _, d := range rest[:i] {
					if n = n*10 + int(d-'0'); n > math.MaxInt32 {
						fits = false // (bash reads a number past INT_MAX as a word)
						break
					}
				}
				if fits && i < len(rest) && (rest[i] == '<' || rest[i] == '>') && (i+1 >= len(rest) || rest[i+1] != '(') {
					p.skip(i)
					return p.redirect(n, "", line)
				}
			}
			if c == '{' {
				i := 1
				for i < len(rest) && isNameChar(int(rest[i])) {
					i++
				}
				if i > 1 && i < len(rest) && rest[i] == '[' {
					if end, ok := p.scanBracket(rest, i+1); ok {
						i = end + 1
					}
				}
				if i > 1 && i+1 < len(rest) && rest[i] == '}' && (rest[i+1] == '<' || rest[i+1] == '>') && isNameStart(int(rest[1])) {
					name := rest[1:i]
					p.skip(i + 1)
					return p.redirect(-1, name, line)
				}
			}
		}
		return p.wordToken(m, line)
	}
}

// redirect reads a redirection operator (the target is read by the parser).
func (p *Parser) redirect(n int, varName string, line int) token {
	c, c1 := p.peek(), p.peekAt(1)
	if c == '<' {
		switch c1 {
		case '<':
			if p.peekAt(2) == '<' {
				return p.redirOp(RedirHerestr, 3, n, varName, line)
			}
			t := p.redirOp(RedirHeredoc, 2, n, varName, line)
			if p.peek() == '-' {
				p.get()
				t.redir.StripTabs = true
				t.text, t.lit = "<<-", "<<-"
			}
			return t
		case '&':
			return p.redirOp(RedirDupIn, 2, n, varName, line)
		case '>':
			return p.redirOp(RedirInOut, 2, n, varName, line)
		}
		return p.redirOp(RedirIn, 1, n, varName, line)
	}
	switch c1 {
	case '>':
		return p.redirOp(RedirAppend, 2, n, varName, line)
	case '&':
		return p.redirOp(RedirDupOut, 2, n, varName, line)
	case '|':
		return p.redirOp(RedirClobber, 2, n, varName, line)
	}
	return p.redirOp(RedirOut, 1, n, varName, line)
}

func (p *Parser) redirOp(op RedirOp, width, n int, varName string, line int) token {
	p.skip(width)
	r := &Redirect{Op: op, N: n, VarName: varName, Line: line}
	return token{kind: tRedir, redir: r, line: line, text: op.String(), lit: op.String()}
}

// wordToken reads a word (or an assignment, in mode m.assign).
func (p *Parser) wordToken(m lexMode, line int) token {
	if m.assign {
		if a := p.tryAssign(); a != nil {
			return token{kind: tWord, assign: a, word: &Word{Raw: a.Raw}, line: line, text: a.Raw}
		}
	}
	for len(p.frames) > 1 && p.frames[len(p.frames)-1].pos >= len(p.frames[len(p.frames)-1].src) {
		p.popFrame()
	}
	from := p.frames[len(p.frames)-1]
	w := p.readWord(nil, m.cond || p.ExtGlob)
	t := token{kind: tWord, word: w, line: line, text: w.Raw, lit: w.Lit()}
	// An alias's first word is an alias's name too; a word past the
	// alias's text is one when the text ends in a blank.
	checkAlias := m.cmd || p.aliasNext && from != p.aliasFrom || from == p.aliasFirst
	p.aliasFirst = nil
	if from != p.aliasFrom {
		p.aliasNext = false
	}
	if checkAlias && p.Aliases != nil && t.lit != "" && !IsKeyword(t.lit) {
		if p.expandAlias(t.lit) {
			return p.lex(m)
		}
	}
	return t
}

// expandAlias pushes the text of alias name (unless it is being expanded
// already), reporting whether it did.
func (p *Parser) expandAlias(name string) bool {
	for _, f := range p.frames[1:] {
		if f.alias == name {
			return false // being expanded: not again
		}
	}
	text, ok := p.Aliases(name)
	if !ok {
		return false
	}
	p.aliasNext = strings.HasSuffix(text, " ") || strings.HasSuffix(text, "\t")
	p.frames = append(p.frames, &frame{src: text, alias: name})
	p.aliasFrom = p.frames[len(p.frames)-1]
	p.aliasFirst = p.aliasFrom
	return true
}

// readWord reads an unquoted word up to a metacharacter. parts are parts
// already read (a process substitution that starts the word).
func (p *Parser) readWord(parts []Part, extglob bool) *Word {
	start := p.histPos()
	var lit strings.Builder
	esc := false
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Lit{Val: lit.String(), Escapes: esc})
			lit.Reset()
			esc = false
		}
	}
	depth := 0 // inside an extglob group
	for {
		c := p.peek()
		switch {
		case c == -1:
			if depth > 0 {
				p.failEOF(p.line, "unexpected EOF while looking for matching `)'")
			}
			flush()
			return &Word{Parts: parts, Raw: p.rawFrom(start)}
		case c == '\\':
			p.get()
			d := p.peek()
			if d == '\n' {
				p.get()
				continue
			}
			lit.WriteByte('\\')
			if d != -1 {
				p.get()
				lit.WriteByte(byte(d))
			} else {
				lit.WriteByte('\\') // a backslash at the end stays
			}
			esc = true
		case c == '\'':
			p.get()
			flush()
			parts = append(parts, &SglQuoted{Val: p.readSingle()})
		case c == '"':
			p.get()
			flush()
			parts = append(parts, &DblQuoted{Parts: p.readDquote()})
		case c == '$':
			if part := p.readDollar(false); part != nil {
				flush()
				parts = append(parts, part)
			} else {
				lit.WriteByte('$')
			}
		case c == '`':
			p.get()
			flush()
			parts = append(parts, p.readBackquote(false))
		case (c == '<' || c == '>') && p.peekAt(1) == '(' && depth == 0: // anywhere in a word, as in bash
			flush()
			parts = append(parts, p.readProcSubst())
		case extglob && (c == '?' || c == '*' || c == '+' || c == '@' || c == '!') && p.peekAt(1) == '(':
			p.get()
			p.get()
			lit.WriteByte(byte(c))
			lit.WriteByte('(')
			depth++
		case depth > 0 && c == '(':
			p.get()
			lit.WriteByte('(')
			depth++
		case depth > 0 && c == ')':
			p.get()
			lit.WriteByte(')')
			depth--
		case depth > 0 && c != '\n':
			p.get()
			lit.WriteByte(byte(c))
		case isMeta(c):
			flush()
			return &Word{Parts: parts, Raw: p.rawFrom(start)}
		default:
			p.get()
			lit.WriteByte(byte(c))
		}
	}
}

// readSingle reads the rest of '...'.
func (p *Parser) readSingle() string {
	line := p.line
	var b strings.Builder
	for {
		c := p.get()
		if c == -1 {
			p.failEOF(line, "unexpected EOF while looking for matching `''")
		}
		if c == '\'' {
			return b.String()
		}
		b.WriteByte(byte(c))
	}
}

// readDquote reads the rest of "...".
func (p *Parser) readDquote() []Part { return p.readDquoteEscapes(false) }

// readDquoteEscapes reads "...": with unquoted, a backslash quotes any
// character, as outside quotes.
func (p *Parser) readDquoteEscapes(unquoted bool) []Part {
	p.enter()
	defer p.leave()
	line := p.line
	var parts []Part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Lit{Val: lit.String()})
			lit.Reset()
		}
	}
	for {
		c := p.peek()
		switch c {
		case -1:
			p.failEOF(line, "unexpected EOF while looking for matching `\"'")
		case '"':
			p.get()
			flush()
			return parts
		case '\\':
			p.get()
			d := p.peek()
			switch d {
			case '\n':
				p.get()
			case '$', '`', '"', '\\':
				p.get()
				lit.WriteByte(byte(d))
			default:
				if unquoted && d != -1 {
					p.get()
					lit.WriteByte(byte(d))
					continue
				}
				lit.WriteByte('\\')
			}
		case '$':
			if part := p.readDollar(true); part != nil {
				flush()
				parts = append(parts, part)
			} else {
				lit.WriteByte('$')
			}
		case '`':
			p.get()
			flush()
			parts = append(parts, p.readBackquote(true))
		default:
			p.get()
			lit.WriteByte(byte(c))
		}
	}
}

// heredocSubList reads the commands of a $(...) in a here-document's body.
// bash parses them only when it expands the body, so a syntax error is
// returned (the rest of the body is skipped) for the expansion to report.
func (p *Parser) heredocSubList() (body []*Stmt, err *Error) {
	pending, inComsub := p.pending, p.inComsub
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(*Error)
			if !ok {
				panic(x)
			}
			err = e
			p.frames = p.frames[:1]
			p.frames[0].pos = len(p.frames[0].src)
			p.tok, p.pending, p.inComsub = nil, pending, inComsub
		}
	}()
	return p.subList(), nil
}

// readDollar reads what starts with $ (the $ not yet consumed); nil means a
// literal $ (consumed).
func (p *Parser) readDollar(inDq bool) Part {
	p.enter()
	defer p.leave()
	p.get() // $
	c := p.peek()
	switch {
	case c == '(':
		if p.peekAt(1) == '(' {
			if end, ok := p.scanArith(p.restAll(), 2); ok {
				p.skip(2)
				return &ArithExp{X: p.arithText(end - 2)}
			} else if end == -1 {
				line := p.line
				p.skip(len(p.rest()))
				p.failEOF(line, "unexpected EOF while looking for matching `)'")
			}
		}
		start := p.histPos() - 1 // at the $
		p.get()
		var body []*Stmt
		if p.heredoc {
			var err *Error
			if body, err = p.heredocSubList(); err != nil {
				return &CmdSubst{Err: err}
			}
		} else {
			body = p.subList()
		}
		// bash 5.2 keeps $(...) as its parser reprints it ("$( ls )" is
		// "$(ls)" in declare -f): the word's text says so too
		if text := comsubString(body); !strings.Contains(text, "<<") {
			p.hist = append(p.hist[:start], "$("+text+")"...)
		}
		return &CmdSubst{Body: body}
	case c == '[':
		if end, ok := p.scanBracket(p.rest(), 1); ok {
			p.get()
			x := p.arithText(end - 1)
			p.get() // ]
			return &ArithExp{X: x}
		}
		return nil
	case c == '{':
		p.get()
		return p.readParamExp(inDq)
	case c == '\'' && !inDq:
		start := p.histPos() - 1 // at the $
		p.get()
		val := p.readAnsiC()
		// bash decodes $'...' as it reads it: the word's text is then the
		// single-quoted result (what declare -f prints)
		p.hist = append(p.hist[:start], singleQuote(val)...)
		return &SglQuoted{Val: val, Dollar: true}
	case c == '"' && !inDq:
		p.get()
		return &DblQuoted{Parts: p.readDquote(), Dollar: true}
	case isNameStart(c):
		start := p.histPos()
		for isNameChar(p.peek()) {
			p.get()
		}
		return &ParamExp{Short: true, Name: p.rawFrom(start)}
	case isDigit(c) || strings.IndexByte("@*#?-$!", byte(c)) >= 0:
		p.get()
		return &ParamExp{Short: true, Name: string(rune(c))}
	}
	return nil
}

// arithText consumes n bytes of arithmetic text (then the closing "))" is
// left to the caller... for $(( the two parens are consumed here).
func (p *Parser) arithText(n int) *Arith {
	start := p.histPos()
	line := p.line
	p.skip(n)
	src := p.rawFrom(start)
	if p.peek() == ')' && p.peekAt(1) == ')' {
		p.skip(2)
	}
	return p.newArith(src, line)
}

// newArith parses arithmetic text as a word for expansion.
func (p *Parser) newArith(src string, line int) *Arith {
	return &Arith{Src: src, W: p.subWord(src, line, textArith)}
}

// scanArith finds the "))" closing an arithmetic expression in s, starting
// at i (after the opening parens). ok is false when the parens do not close
// that way (bash then reads a subshell or command substitution instead);
// end is -1 when s ends first.
func scanArith(s string, i int) (end int, ok bool) {
	depth := 0
	for i < len(s) {
		c := s[i]
		switch c {
		case '\\':
			i++
		case '\'', '"', '`':
			j := skipQuoted(s, i)
			if j < 0 {
				return -1, false
			}
			i = j
			continue
		case '$':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				j := skipGroup(s, i+1)
				if j < 0 {
					return -1, false
				}
				i = j
				continue
			}
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				break
			}
			if i+1 < len(s) && s[i+1] == ')' {
				return i, true
			}
			return i, false
		}
		i++
	}
	return -1, false
}

// The look-ahead scans, as methods: they charge what they read to the
// budget of a parser with MaxNest, MaxNest times its text. A scan may
// repeat over the same text (one per `[` of a line, per level of `((`),
// which would otherwise cost the square of a text made for it.

func (p *Parser) scanArith(s string, i int) (int, bool) {
	end, ok := scanArith(s, i)
	p.charge(s, i, end)
	return end, ok
}

func (p *Parser) scanBracket(s string, i int) (int, bool) {
	end, ok := scanBracket(s, i)
	p.charge(s, i, end)
	return end, ok
}

func (p *Parser) skipQuoted(s string, i int) int {
	end := skipQuoted(s, i)
	p.charge(s, i, end)
	return end
}

func (p *Parser) skipGroup(s string, i int) int {
	end := skipGroup(s, i)
	p.charge(s, i, end)
	return end
}

// charge counts a scan of s from i to end (-1: to its end).
func (p *Parser) charge(s string, i, end int) {
	if p.MaxNest <= 0 {
		return
	}
	if end < 0 {
		end = len(s)
	}
	b := p.scanBudget()
	if *b -= max(end-i, 1); *b < 0 {
		panic(&Error{Line: p.line, Msg: "syntax error: text too complex to parse"})
	}
}

// scanBudget is what the scans of a parser with MaxNest may still read,
// shared with its sub-parsers.
func (p *Parser) scanBudget() *int {
	if p.budget == nil {
		b := p.MaxNest * (len(p.frames[0].src) + 1024)
		p.budget = &b
	}
	return p.budget
}

// scanBracket finds the ']' matching an opening '[' at i-1.
func scanBracket(s string, i int) (int, bool) {
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '\\':
			i++
		case '\'', '"', '`':
			j := skipQuoted(s, i)
			if j < 0 {
				return -1, false
			}
			i = j
			continue
		case '$':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				j := skipGroup(s, i+1)
				if j < 0 {
					return -1, false
				}
				i = j
				continue
			}
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return i, true
			}
			depth--
		case '\n':
			return -1, false
		}
		i++
	}
	return -1, false
}

// skipQuoted returns the index after the quoted string starting at s[i].
func skipQuoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && q != '\'':
			j++
		case s[j] == q:
			return j + 1
		case q == '"' && s[j] == '$' && j+1 < len(s) && (s[j+1] == '(' || s[j+1] == '{'):
			k := skipGroup(s, j+1)
			if k < 0 {
				return -1
			}
			j = k - 1
		}
	}
	return -1
}

// skipGroup returns the index after the (...) or {...} starting at s[i].
func skipGroup(s string, i int) int {
	open := s[i]
	close := byte(')')
	if open == '{' {
		close = '}'
	}
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == '\'' && open == '(' || c == '"' || c == '`':
			k := skipQuoted(s, j)
			if k < 0 {
				return -1
			}
			j = k - 1
		case c == open:
			depth++
		case c == close:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// readAnsiC reads the rest of $'...' and decodes its escapes.
func (p *Parser) readAnsiC() string {
	line := p.line
	var raw strings.Builder
	for {
		c := p.get()
		if c == -1 {
			p.failEOF(line, "unexpected EOF while looking for matching `''")
		}
		if c == '\'' {
			break
		}
		raw.WriteByte(byte(c))
		if c == '\\' {
			d := p.get()
			if d == -1 {
				p.failEOF(line, "unexpected EOF while looking for matching `''")
			}
			raw.WriteByte(byte(d))
		}
	}
	s, _ := DecodeEscapes(raw.String(), EscAnsiC)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i] // (a C string in bash: $'a\0b' is a)
	}
	return s
}

// readBackquote reads the rest of `...` and parses it.
func (p *Parser) readBackquote(inDq bool) Part {
	line := p.line
	var b strings.Builder
	for {
		c := p.get()
		if c == -1 {
			p.failEOF(line, "unexpected EOF while looking for matching ``'")
		}
		if c == '`' {
			break
		}
		if c == '\\' {
			d := p.peek()
			if d == '`' || d == '$' || d == '\\' || (inDq && d == '"') {
				p.get()
				b.WriteByte(byte(d))
				continue
			}
			if d == '\n' {
				// a line joined before the body is parsed, even inside
				// its quotes ('a\<newline>b' is ab there)
				p.get()
				continue
			}
		}
		b.WriteByte(byte(c))
	}
	sub := p.sub(b.String(), line)
	body := sub.all()
	shiftLines(body, p.line-line)
	return &CmdSubst{Body: body, Backquote: true}
}

// readProcSubst reads <(...) or >(...).
func (p *Parser) readProcSubst() Part {
	out := p.get() == '>'
	p.get() // (
	return &ProcSubst{Out: out, Body: p.subList()}
}

// subList parses the commands of $( ... ) or <( ... ) up to the closing paren.
func (p *Parser) subList() []*Stmt {
	line := p.line
	saved, savedTok := p.pending, p.tok
	p.pending, p.tok = nil, nil
	p.inComsub++
	body := p.list(false)
	p.inComsub--
	t := p.next(lexMode{})
	if t.kind == tEOF {
		p.failEOF(p.eofLine(), "unexpected EOF while looking for matching `)'")
	}
	if t.kind != tRParen {
		p.unexpected(t)
	}
	if len(body) > 0 {
		line = body[0].Line
	}
	shiftLines(body, p.line-line)
	if n := len(p.pending); n > 0 && !p.heredoc {
		// bash reads the bodies of here-documents a substitution left
		// open from the lines after the command (and warns)
		if p.Warn != nil {
			p.Warn(p.line, "warning: command substitution: "+itoa(n)+" unterminated here-document"+map[bool]string{true: "s"}[n > 1])
		}
		saved = append(saved, p.pending...)
	}
	p.pending, p.tok = saved, savedTok
	return body
}

// shiftLines adds by to every line number in a command substitution's
// body: bash numbers a body that spans lines so that its first command is
// on the line the substitution ends on ($(a<newline>b) on lines 1-2 runs a
// as line 2; $(<newline>a<newline>) on lines 1-3 too).
func shiftLines(body []*Stmt, by int) {
	if by == 0 {
		return
	}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Struct:
			t := v.Type()
			for i := 0; i < v.NumField(); i++ {
				f := v.Field(i)
				if t.Field(i).Name == "Line" && f.Kind() == reflect.Int && f.CanSet() {
					f.SetInt(f.Int() + int64(by))
					continue
				}
				if t.Field(i).IsExported() || t.Field(i).Anonymous {
					walk(f)
				}
			}
		}
	}
	walk(reflect.ValueOf(body))
}

// readParamExp reads the rest of ${...}.
func (p *Parser) readParamExp(inDq bool) Part {
	start := p.histPos() - 2
	line := p.line
	pe := &ParamExp{}
	bad := func() Part {
		p.skipParamRest(line)
		return &ParamExp{Bad: p.rawFrom(start)}
	}
	c := p.peek()
	switch c {
	case '#':
		d := p.peekAt(1)
		switch {
		case d == '}':
			p.get()
			p.get()
			pe.Name = "#"
			return pe
		case isParamStart(d) && !(d == '#' && p.peekAt(2) != '}' && p.peekAt(2) != '[') &&
			!((d == '-' || d == '?' || d == '=' || d == '+') && p.peekAt(2) != '}') &&
			!(d == '@' && p.peekAt(2) != '}'): // (${#@Q}: $# transformed)
			p.get()
			pe.Length = true
		case p.peekAt(2) == '}':
			// ${#c}: the length of $c, and no parameter is named c
			// (${#=}, ${#:}, ${#^}); ${#=x} is still $# with =
			return bad()
		}
	case '!':
		d := p.peekAt(1)
		// (${!-x}, ${!?x}...: $! with an operator, as ${#-x} is $#'s)
		if d != '}' && isParamStart(d) && !((d == '-' || d == '?' || d == '=' || d == '+') && (p.peekAt(2) != '}' || p.Posix)) {
			p.get()
			pe.Indirect = true
		}
	}
	if (inDq || p.dqParam > 0) && p.peek() == '$' && p.peekAt(1) == '\'' && !pe.Length && !pe.Indirect {
		// in double quotes bash (extquote) decodes a $'...' here before
		// it looks for the name: "${$'x1'%t}" is "${x1%t}"
		s := p.histPos()
		p.skip(2)
		pe.Name = p.readAnsiC()
		p.hist = append(p.hist[:s], pe.Name...)
		if !ValidName(pe.Name) {
			return bad()
		}
	} else if p.peek() == '$' && p.peekAt(1) == '\'' {
		return bad() // (shown decoded: "${'x1'%t}")
	} else {
		pe.Name = p.readParamName()
	}
	if pe.Name == "" {
		return bad()
	}
	if p.peek() == '[' && ValidName(pe.Name) {
		end, ok := p.scanBracket(p.rest(), 1)
		if !ok {
			return bad()
		}
		p.get()
		s := p.histPos()
		p.skip(end - 1)
		src := p.rawFrom(s)
		p.get() // ]
		pe.Index = &Subscript{Src: src, W: p.subWord(src, line, textSubscript)}
	}
	if pe.Indirect && pe.Index == nil && (p.peek() == '*' || p.peek() == '@') && p.peekAt(1) == '}' {
		if !isNameStart(int(pe.Name[0])) {
			return bad() // ${!1*}, ${!@*}: a prefix is the start of a name
		}
		if p.get() == '*' {
			pe.Op = OpNamesStar
		} else {
			pe.Op = OpNamesAt
		}
		p.get()
		return pe
	}
	c = p.peek()
	if c != -1 && strings.IndexByte("}:-=?+#%/^,@~", byte(c)) >= 0 {
		p.get()
	}
	switch c {
	case '}':
		return pe
	case -1:
		p.failEOF(line, "unexpected EOF while looking for matching `}'")
	case ':':
		switch d := p.peek(); d {
		case '-', '=', '?', '+':
			p.get()
			pe.Colon = true
			pe.Op = map[int]ParamOp{'-': OpDefault, '=': OpAssign, '?': OpError, '+': OpAlt}[d]
			pe.Arg = p.readParamArg(false, inDq, false)
		case '}':
			return bad() // ${x:}: an offset is needed
		default:
			pe.Op = OpSubstr
			off, end := p.readSubstrPart(line)
			pe.Off = p.newArith(off, line)
			if end == ':' {
				l, _ := p.readSubstrPart(line)
				pe.Len = p.newArith(l, line)
				pe.HasLen = true
			}
		}
	case '-', '=', '?', '+':
		pe.Op = map[int]ParamOp{'-': OpDefault, '=': OpAssign, '?': OpError, '+': OpAlt}[c]
		pe.Arg = p.readParamArg(false, inDq, false)
	case '#', '%':
		long := p.peek() == c
		if long {
			p.get()
		}
		switch {
		case c == '#' && long:
			pe.Op = OpTrimPrefixL
		case c == '#':
			pe.Op = OpTrimPrefix
		case long:
			pe.Op = OpTrimSuffixL
		default:
			pe.Op = OpTrimSuffix
		}
		pe.Arg = p.readParamArg(false, inDq, true)
	case '/':
		pe.Op = OpReplace
		switch p.peek() {
		case '/':
			p.get()
			pe.Op = OpReplaceAll
		case '#':
			p.get()
			pe.Op = OpReplacePre
		case '%':
			p.get()
			pe.Op = OpReplaceSuf
		}
		var ended bool
		if pe.Op == OpReplaceAll && p.peek() == '/' {
			// ${a///x}: the pattern cannot be empty, so that / is its first
			p.get()
			pe.Arg, ended = p.readParamArgSlash(inDq)
			pe.Arg.Raw = "/" + pe.Arg.Raw
			pe.Arg.Parts = append([]Part{&Lit{Val: "/"}}, pe.Arg.Parts...)
		} else {
			pe.Arg, ended = p.readParamArgSlash(inDq)
		}
		if !ended {
			pe.Repl = p.readParamArg(false, inDq, true)
		}
	case '^', ',', '~':
		long := p.peek() == c
		if long {
			p.get()
		}
		switch {
		case c == '^' && long:
			pe.Op = OpUpperAll
		case c == '^':
			pe.Op = OpUpperFirst
		case c == '~' && long:
			pe.Op = OpToggleAll
		case c == '~':
			pe.Op = OpToggleFirst
		case long:
			pe.Op = OpLowerAll
		default:
			pe.Op = OpLowerFirst
		}
		pe.Arg = p.readParamArg(false, inDq, true)
	case '@':
		t := p.peek()
		if t != -1 && strings.IndexByte("QEPAaUuLKk", byte(t)) >= 0 && p.peekAt(1) == '}' {
			p.get()
			p.get()
			pe.Op = OpTransform
			pe.Transform = byte(t)
		} else {
			return bad()
		}
	default:
		return bad()
	}
	if pe.Length && pe.Op != OpNone {
		pe.Bad = p.rawFrom(start)
	}
	return pe
}

func isParamStart(c int) bool {
	return isNameStart(c) || isDigit(c) || c != -1 && strings.IndexByte("@*#?-$!", byte(c)) >= 0
}

// readParamName reads a name, a positional number or a special parameter.
func (p *Parser) readParamName() string {
	c := p.peek()
	start := p.histPos()
	switch {
	case isNameStart(c):
		for isNameChar(p.peek()) {
			p.get()
		}
	case isDigit(c):
		for isDigit(p.peek()) {
			p.get()
		}
	case c != -1 && strings.IndexByte("@*#?-$!", byte(c)) >= 0:
		p.get()
	default:
		return ""
	}
	return p.rawFrom(start)
}

// skipParamRest consumes up to the } closing a bad substitution.
func (p *Parser) skipParamRest(line int) {
	depth := 0
	for {
		c := p.get()
		switch c {
		case -1:
			p.failEOF(line, "unexpected EOF while looking for matching `}'")
		case '\\':
			p.get()
		case '\'':
			p.readSingle()
		case '$':
			if p.peek() == '\'' {
				// shown decoded, as bash reads $'...' ("${'x1'%'t'}")
				s := p.histPos() - 1
				p.get()
				val := p.readAnsiC()
				p.hist = append(p.hist[:s], singleQuote(val)...)
			}
		case '"':
			p.readDquote()
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return
			}
			depth--
		}
	}
}

// readSubstrPart reads an offset or length of ${x:off:len} as text, up to
// ':' or '}' (returned).
func (p *Parser) readSubstrPart(line int) (string, int) {
	start := p.histPos()
	depth := 0
	for {
		c := p.peek()
		switch c {
		case -1:
			p.failEOF(line, "unexpected EOF while looking for matching `}'")
		case '\\':
			p.get()
		case '\'', '"', '`':
			j := p.skipQuoted(p.rest(), 0)
			if j < 0 {
				p.failEOF(line, "unexpected EOF while looking for matching `}'")
			}
			p.skip(j)
			continue
		case '$':
			r := p.rest()
			if len(r) > 1 && (r[1] == '(' || r[1] == '{') {
				j := p.skipGroup(r, 1)
				if j < 0 {
					p.failEOF(line, "unexpected EOF while looking for matching `}'")
				}
				p.skip(j)
				continue
			}
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ':', '}':
			if depth <= 0 && !(c == ':' && p.ternaryOpen(start)) {
				s := p.rawFrom(start)
				p.get()
				return s, c
			}
		}
		p.get()
	}
}

// ternaryOpen reports whether the text since start has a '?' waiting for
// its ':' (so that ${x:a?1:2} keeps the ternary whole).
func (p *Parser) ternaryOpen(start int) bool {
	open := 0
	for _, c := range p.hist[start:] {
		switch c {
		case '?':
			open++
		case ':':
			open--
		}
	}
	return open > 0
}

// readParamArg reads the operand of a ${...} operator up to its '}'.
// In double quotes, single quotes are literal except in patterns.
func (p *Parser) readParamArg(stopSlash, inDq, pattern bool) *Word {
	w, _ := p.paramArg(stopSlash, inDq, pattern)
	return w
}

// readParamArgSlash reads a pattern of ${x/pat/rep}; ended reports that the
// expansion closed (no replacement).
func (p *Parser) readParamArgSlash(inDq bool) (*Word, bool) {
	return p.paramArg(true, inDq, true)
}

func (p *Parser) paramArg(stopSlash, inDq, pattern bool) (*Word, bool) {
	if inDq {
		p.dqParam++
		defer func() { p.dqParam-- }()
	}
	line := p.line
	start := p.histPos()
	var parts []Part
	var lit strings.Builder
	esc := false
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Lit{Val: lit.String(), Escapes: esc})
			lit.Reset()
			esc = false
		}
	}
	end := func() *Word {
		flush()
		return &Word{Parts: parts, Raw: string(p.hist[start : len(p.hist)-1])}
	}
	for {
		c := p.peek()
		switch {
		case c == -1:
			p.failEOF(line, "unexpected EOF while looking for matching `}'")
		case c == '}':
			p.get()
			return end(), true
		case c == '/' && stopSlash:
			p.get()
			return end(), false
		case c == '\\':
			p.get()
			d := p.peek()
			if d == '\n' {
				p.get()
				continue
			}
			if inDq && !pattern && d != '$' && d != '`' && d != '"' && d != '\\' && d != '}' && d != -1 {
				// a backslash that stays, and the character it protects
				p.get()
				lit.WriteString(`\\\`)
				lit.WriteByte(byte(d))
				esc = true
				continue
			}
			lit.WriteByte('\\')
			if d != -1 {
				p.get()
				lit.WriteByte(byte(d))
			}
			esc = true
		case c == '\'' && inDq && !pattern && p.Posix:
			// POSIX: an ordinary character here
			p.get()
			lit.WriteByte('\'')
		case c == '\'' && (!inDq || pattern):
			p.get()
			flush()
			parts = append(parts, &SglQuoted{Val: p.readSingle()})
		case c == '\'':
			// In double quotes a default value's single quotes are literal,
			// but they still hide what they enclose from the search for
			// the closing brace; what they enclose expands as the rest of
			// the double-quoted word does, and double quotes in it go.
			p.get()
			line := p.line
			v := strings.ReplaceAll(p.readSingle(), `"`, "")
			lit.WriteByte('\'')
			if w := p.subWord(v, line, textHeredoc); w != nil && len(w.Parts) > 0 {
				flush()
				parts = append(parts, w.Parts...)
			}
			lit.WriteByte('\'')
		case c == '"':
			p.get()
			flush()
			if inDq && !pattern {
				// double quotes in a double-quoted ${x:+word}: bash reads
				// their backslashes as outside quotes ("${x:+"\p"}" is p)
				parts = append(parts, &DblQuoted{Parts: p.readDquoteEscapes(true)})
			} else {
				parts = append(parts, &DblQuoted{Parts: p.readDquote()})
			}
		case c == '$':
			// $'...' works inside ${...} even in double quotes (extquote),
			// but not in a here-document's default values
			if part := p.readDollar(p.heredoc && !pattern); part != nil {
				flush()
				parts = append(parts, part)
			} else {
				lit.WriteByte('$')
			}
		case (c == '<' || c == '>') && p.peekAt(1) == '(' && !inDq:
			flush()
			parts = append(parts, p.readProcSubst()) // ${x:-<(cmd)}
		case c == '`':
			p.get()
			flush()
			parts = append(parts, p.readBackquote(inDq))
		default:
			p.get()
			lit.WriteByte(byte(c))
		}
	}
}

// tryAssign reads NAME=value, NAME+=value, NAME[sub]=value or NAME=(...) if
// the input starts with one.
func (p *Parser) tryAssign() *Assign {
	rest := p.rest()
	if len(rest) == 0 || !isNameStart(int(rest[0])) {
		return nil
	}
	i := 1
	for i < len(rest) && isNameChar(int(rest[i])) {
		i++
	}
	name := rest[:i]
	subEnd := -1
	if i < len(rest) && rest[i] == '[' {
		end, ok := p.scanBracket(rest, i+1)
		if !ok {
			return nil
		}
		subEnd = end
		i = end + 1
	}
	appendOp := false
	if i < len(rest) && rest[i] == '+' {
		appendOp = true
		i++
	}
	if i >= len(rest) || rest[i] != '=' {
		return nil
	}
	start := p.histPos()
	line := p.line
	a := &Assign{Name: name, Append: appendOp}
	if subEnd >= 0 {
		src := rest[len(name)+1 : subEnd]
		a.Index = &Subscript{Src: src, W: p.subWord(src, line, textSubscript)}
	}
	p.skip(i + 1)
	if p.peek() == '(' {
		p.get()
		a.Array = p.readArrayLit()
	} else if c := p.peek(); !isMeta(c) || (c == '<' || c == '>') && p.peekAt(1) == '(' {
		a.Value = p.readWord(nil, p.ExtGlob)
	}
	a.Raw = p.rawFrom(start)
	return a
}

// readArrayLit reads the elements of ( ... ) after the paren.
func (p *Parser) readArrayLit() *ArrayLit {
	line := p.line
	arr := &ArrayLit{}
	// any syntax error inside ( ... ) makes bash drop the line (status 1),
	// an unfinished list at the end of the input too
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				e.Discard = true
			}
			panic(r)
		}
	}()
	for {
		c := p.peek()
		switch {
		case isBlank(c) || c == '\n':
			p.get()
			continue
		case c == '\\' && p.peekAt(1) == '\n':
			p.skip(2)
			continue
		case c == '#':
			for c = p.peek(); c != '\n' && c != -1; c = p.peek() {
				p.get()
			}
			continue
		case c == ')':
			p.get()
			return arr
		case c == -1:
			p.failEOF(line, "unexpected EOF while looking for matching `)'")
		}
		el := &ArrayElem{}
		if c == '[' {
			rest := p.rest()
			if end, ok := p.scanBracket(rest, 1); ok {
				j := end + 1
				app := false
				if j < len(rest) && rest[j] == '+' {
					app = true
					j++
				}
				if j < len(rest) && rest[j] == '=' {
					src := rest[1:end]
					el.Key = &Subscript{Src: src, W: p.subWord(src, p.line, textSubscript)}
					el.Append = app
					p.skip(j + 1)
					if !isMeta(p.peek()) {
						el.Value = p.readWord(nil, p.ExtGlob)
					}
					arr.Elems = append(arr.Elems, el)
					continue
				}
			}
		}
		if isMeta(c) {
			t := p.lex(lexMode{})
			func() {
				defer func() {
					if e, ok := recover().(*Error); ok {
						e.Discard = true
						panic(e)
					}
				}()
				p.unexpected(t)
			}()
		}
		el.Value = p.readWord(nil, p.ExtGlob)
		arr.Elems = append(arr.Elems, el)
	}
}

// readHeredocs reads the bodies of the here-documents started on the line
// that just ended.
func (p *Parser) readHeredocs() {
	pending := p.pending
	p.pending = nil
	for _, r := range pending {
		delim, quoted := heredocDelim(r.Word.Raw)
		var body strings.Builder
		startLine, lines := p.line, 0
		for {
			if p.inComsub > 0 && !r.StripTabs {
				// in $(...), a line that begins with the delimiter and has
				// a closing paren later ends the body (bash warns, as at
				// end of file); the rest of the line is read as commands
				rest := p.rest()
				if i := strings.IndexByte(rest, '\n'); i >= 0 {
					rest = rest[:i]
				}
				if strings.HasPrefix(rest, delim) && strings.Contains(rest[len(delim):], ")") {
					at := r.Line
					if p.Eval {
						at++
					}
					p.warnHeredocEOF(p.line, at, delim)
					p.skip(len(delim))
					break
				}
			}
			if p.peek() == -1 {
				// bash names the line the body was gathered at (where the
				// command's line ended) and its last line (in an eval,
				// bash has counted the body's lines into the first already)
				at := startLine - 1
				if p.Eval {
					at += lines
				}
				p.warnHeredocEOF(at+lines, at, delim)
				break
			}
			lines++
			var line strings.Builder
			for {
				c := p.get()
				if c == -1 {
					break
				}
				if c == '\n' {
					// an unquoted body joins a line ending in a backslash
					// with the next before it looks for the delimiter
					// (EO\<newline>F ends it)
					if s := line.String(); !quoted && oddTrailingBackslashes(s) {
						line.Reset()
						line.WriteString(s[:len(s)-1])
						lines++
						if p.peek() == -1 {
							break // (the body ends there, a line of its own)
						}
						continue
					}
					break
				}
				line.WriteByte(byte(c))
			}
			l := line.String()
			if r.StripTabs {
				l = strings.TrimLeft(l, "\t")
			}
			// (<<- takes the delimiter's own leading tabs off too)
			if l == delim || r.StripTabs && l == strings.TrimLeft(delim, "\t") {
				break
			}
			// An unquoted body joins lines ending in a backslash.
			body.WriteString(l)
			body.WriteByte('\n')
		}
		text := body.String()
		if quoted {
			r.HdocText = text
		} else {
			r.Hdoc = p.subWord(text, startLine, textHeredoc)
		}
	}
}

// warnHeredocEOF warns, at line, of the here-document begun at line at
// that ended without its delimiter.
func (p *Parser) warnHeredocEOF(line, at int, delim string) {
	if p.Warn != nil {
		p.Warn(line, "warning: here-document at line "+itoa(at)+" delimited by end-of-file (wanted `"+delim+"')")
	}
}

// oddTrailingBackslashes: s ends in a backslash that no other escapes.
func oddTrailingBackslashes(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// heredocDelim is the delimiter word with quotes removed, and whether any
// part of it was quoted.
func heredocDelim(raw string) (string, bool) {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '\\':
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
				continue
			}
			quoted = true
			if i+1 < len(raw) {
				i++
				b.WriteByte(raw[i])
			}
		case '\'':
			quoted = true
			j := strings.IndexByte(raw[i+1:], '\'')
			if j < 0 {
				b.WriteString(raw[i+1:])
				i = len(raw)
			} else {
				b.WriteString(raw[i+1 : i+1+j])
				i += j + 1
			}
		case '"':
			quoted = true
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' && i+1 < len(raw) && strings.IndexByte("$`\"\\", raw[i+1]) >= 0 {
					i++
				}
				b.WriteByte(raw[i])
			}
		case '$':
			if i+1 < len(raw) && (raw[i+1] == '\'' || raw[i+1] == '"') {
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), quoted
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// textKind says how a piece of text read later (arithmetic, subscripts,
// here-document bodies) is parsed into a word.
type textKind uint8

const (
	textArith     textKind = iota // $((...)): like "..." but " is removed and ' is literal
	textSubscript                 // [...]: like "...", with quotes removed
	textHeredoc                   // like "..." but " is literal
	textWord                      // an unquoted word whose blanks and operators are literal
)

// subWord parses text into one word of the given kind.
func (p *Parser) subWord(src string, line int, kind textKind) *Word {
	if !needsExpansion(src, kind) {
		if src == "" {
			return &Word{Raw: src}
		}
		return &Word{Parts: []Part{&Lit{Val: src}}, Raw: src}
	}
	sub := p.sub(src, line)
	sub.heredoc = kind == textHeredoc
	var parts []Part
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, &Lit{Val: lit.String()})
			lit.Reset()
		}
	}
	for {
		c := sub.peek()
		switch {
		case c == -1:
			flush()
			return &Word{Parts: parts, Raw: src}
		case c == '\\' && kind == textWord:
			sub.get()
			if d := sub.get(); d != -1 {
				flush()
				parts = append(parts, &Lit{Val: "\\" + string(rune(d)), Escapes: true})
			}
		case c == '\'' && kind == textWord:
			sub.get()
			flush()
			parts = append(parts, &SglQuoted{Val: sub.readSingle()})
		case c == '\\':
			sub.get()
			d := sub.peek()
			switch {
			case d == '\n':
				sub.get()
			case d == '$' || d == '`' || d == '\\' || (d == '"' && kind != textHeredoc) || (kind == textSubscript && d != -1):
				sub.get()
				lit.WriteByte(byte(d))
			default:
				lit.WriteByte('\\')
			}
		case c == '$':
			// ($'...' works in a subscript: [$'x\ty']=1)
			if part := sub.readDollar(kind != textWord && kind != textSubscript); part != nil {
				flush()
				parts = append(parts, part)
			} else {
				lit.WriteByte('$')
			}
		case c == '`':
			sub.get()
			flush()
			parts = append(parts, sub.readBackquote(true))
		case c == '"' && kind != textHeredoc:
			sub.get()
			flush()
			parts = append(parts, &DblQuoted{Parts: sub.readDquote()})
		case c == '\'' && kind == textSubscript:
			sub.get()
			flush()
			parts = append(parts, &SglQuoted{Val: sub.readSingle()})
		default:
			sub.get()
			lit.WriteByte(byte(c))
		}
	}
}

func needsExpansion(s string, kind textKind) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$', '`', '\\':
			return true
		case '"':
			if kind != textHeredoc {
				return true
			}
		case '\'':
			if kind == textSubscript || kind == textWord {
				return true
			}
		}
	}
	return false
}

// sub makes a parser for text found inside this one (backquotes, here-docs,
// arithmetic), sharing its options.
func (p *Parser) sub(src string, line int) *Parser {
	q := &Parser{frames: []*frame{{src: src}}, line: line, firstLine: line, ExtGlob: p.ExtGlob,
		Warn: p.Warn, Name: p.Name, nest: p.nest, MaxNest: p.MaxNest}
	if p.MaxNest > 0 {
		q.budget = p.scanBudget()
	}
	return q
}

// all parses every command of a sub-parser (backquotes).
func (p *Parser) all() []*Stmt {
	var out []*Stmt
	for {
		t := p.peekTok(lexMode{cmd: true, assign: true})
		if t.kind == tNewline {
			p.next(lexMode{})
			continue
		}
		if t.kind == tEOF {
			return out
		}
		out = append(out, p.list(false)...)
		t = p.peekTok(lexMode{})
		if t.kind != tEOF && t.kind != tNewline {
			p.unexpected(p.next(lexMode{}))
		}
	}
}

// ParseDouble parses text as the inside of a double-quoted string (prompt
// strings: PS4, ${x@P}).
func ParseDouble(s string) (w *Word, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	p := NewParser("", 1)
	return p.subWord(s, 1, textHeredoc), nil
}

// singleQuote quotes s as bash's sh_single_quote does.
func singleQuote(s string) string {
	if s == "'" {
		return `\'`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
