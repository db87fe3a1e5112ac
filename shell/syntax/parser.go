package syntax

import (
	"fmt"
	"io"
	"strings"
)

// Parser reads bash source one complete command at a time.
type Parser struct {
	frames     []*frame
	hist       []byte // every byte read, for the source text of words
	line       int
	firstLine  int
	tok        *token      // a token read ahead
	pending    []*Redirect // here-documents whose bodies follow the next newline
	aliasNext  bool        // the last alias ended in a blank: check the next word too
	aliasFrom  *frame      // that alias's text
	aliasFirst *frame      // an alias's text whose first word is still to come
	condLine   int         // where the [[ being parsed began
	virtualNL  bool        // the newline bash adds after text without one was read
	heredoc    bool        // parsing a here-document's body
	inComsub   int         // $(...) and <(...) being parsed
	dqParam    int         // words of ${...} in double quotes being parsed
	nest       int         // constructs being parsed inside each other (enter)
	budget     *int        // what look-ahead scans may still read (charge), shared with sub-parsers

	// ExtGlob enables ?(...) *(...) +(...) @(...) !(...) patterns (shopt extglob).
	ExtGlob bool
	// Posix is set -o posix: single quotes in a double-quoted ${x+word} are
	// ordinary characters, hiding no closing brace.
	Posix bool
	// Aliases returns an alias's text; nil disables alias expansion.
	Aliases func(name string) (string, bool)
	// Warn receives warnings (a here-document ended by end of file).
	Warn func(line int, msg string)
	// Name is the source's name, kept in function definitions.
	Name string
	// Eval: the source is an eval's text, where bash counts the lines of
	// here-documents differently in its warnings.
	Eval bool
	// More, when set, gives the source a line at a time, as the parser
	// needs it (a shell reading its commands from a stream it shares with
	// them: bash -s, bash < script); false when there is no more.
	More     func() (string, bool)
	moreDone bool
	// MaxNest, when positive, bounds nesting below maxNest, and what the
	// look-ahead scans read to MaxNest times the text: a caller that
	// parses text it does not trust keeps the parser's work linear in it.
	MaxNest int
	// ScriptFile: the source is a script file bash runs, where a backslash
	// that ends the text takes no line of its own (in a string, -c, eval or
	// source, it takes the newline bash adds, and bash counts one more).
	ScriptFile bool
}

// NewParser reads src, whose first line is numbered line.
func NewParser(src string, line int) *Parser {
	if line <= 0 {
		line = 1
	}
	return &Parser{frames: []*frame{{src: src}}, line: line, firstLine: line}
}

// RewindTo makes line, if it is before where the last command ended, the
// line that command ended on: the lines after it count on from there, as
// bash's do after a command it abandoned at line.
func (p *Parser) RewindTo(line int) {
	if end := p.lastLine(); line < end {
		p.line -= end - line
	}
}

// lastLine is the line what was read last is on (p.line, unless that was
// the newline that ends the line before).
func (p *Parser) lastLine() int {
	if len(p.hist) > 0 && p.hist[len(p.hist)-1] == '\n' {
		return p.line - 1
	}
	return p.line
}

// Offset is how much of the source the parser has read.
func (p *Parser) Offset() int { return p.frames[0].pos }

// Source is the source text read so far (all of it without More).
func (p *Parser) Source() string { return p.frames[0].src }

// Line is the line the parser has reached.
func (p *Parser) Line() int { return p.line }

// Next parses the next complete command: a list ended by a newline or the
// end of the input. It returns io.EOF when there is nothing more, and an
// *Error for a syntax error.
func (p *Parser) Next() (stmts []*Stmt, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				err = e
				return
			}
			err = &Error{Line: p.line, Msg: fmt.Sprintf("syntax error: parser failure (%v)", r)}
		}
	}()
	for {
		t := p.peekTok(lexMode{cmd: true, assign: true})
		if t.kind == tNewline {
			p.next(lexMode{})
			continue
		}
		if t.kind == tEOF {
			if len(p.pending) > 0 {
				p.readHeredocs()
			}
			return nil, io.EOF
		}
		break
	}
	stmts = p.list(true)
	t := p.next(lexMode{})
	switch t.kind {
	case tNewline:
	case tEOF:
		if len(p.pending) > 0 {
			p.readHeredocs()
		}
	default:
		p.unexpected(t)
	}
	return stmts, nil
}

// SkipLine drops the rest of the current line (after a syntax error, as an
// interactive shell does).
func (p *Parser) SkipLine() {
	p.tok = nil
	p.pending = nil
	p.frames = p.frames[:1]
	for c := p.get(); c != '\n' && c != -1; c = p.get() {
	}
}

// Parse parses all of src (for callers that want the whole tree).
func Parse(src string) ([]*Stmt, error) {
	p := NewParser(src, 1)
	var out []*Stmt
	for {
		stmts, err := p.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, stmts...)
	}
}

var cmdMode = lexMode{cmd: true, assign: true}

// closer reports a token that ends a list: a closing reserved word in
// command position, ')' or a case terminator.
func closer(t token) bool {
	switch t.kind {
	case tRParen, tDSemi, tSemiAmp, tDSemiAmp, tEOF:
		return true
	case tWord:
		if t.assign != nil {
			return false
		}
		switch t.lit {
		case "then", "elif", "else", "fi", "do", "done", "esac", "}":
			return true
		}
	}
	return false
}

// list parses statements. At top level it stops before a newline; inside
// compound commands newlines separate statements and it stops before a
// closer.
func (p *Parser) list(top bool) []*Stmt {
	p.enter()
	defer p.leave()
	var out []*Stmt
	for {
		t := p.peekTok(cmdMode)
		if t.kind == tNewline {
			if top {
				return out
			}
			p.next(lexMode{})
			continue
		}
		if closer(t) {
			return out
		}
		st := p.andOr()
		out = append(out, st)
		t = p.peekTok(lexMode{})
		switch t.kind {
		case tSemi:
			p.next(lexMode{})
		case tAmp:
			p.next(lexMode{})
			st.Async = true
		case tNewline:
			st.Newline = true
			if top {
				return out
			}
			p.next(lexMode{})
		default:
			return out
		}
	}
}

func (p *Parser) skipNewlines() { p.skipNewlinesIn(cmdMode) }

// skipNewlinesIn skips newlines, reading what follows in mode m (a case
// pattern is no command word: no alias applies to it).
func (p *Parser) skipNewlinesIn(m lexMode) {
	for p.peekTok(m).kind == tNewline {
		p.next(lexMode{})
	}
}

func (p *Parser) andOr() *Stmt {
	t := p.peekTok(cmdMode)
	st := &Stmt{Line: t.line}
	st.Pipes = append(st.Pipes, p.pipeline())
	for {
		t := p.peekTok(lexMode{})
		if t.kind != tAndAnd && t.kind != tOrOr {
			return st
		}
		p.next(lexMode{})
		p.skipNewlines()
		if t.kind == tAndAnd {
			st.Ops = append(st.Ops, AndThen)
		} else {
			st.Ops = append(st.Ops, OrElse)
		}
		st.Pipes = append(st.Pipes, p.pipeline())
	}
}

func isWord(t token, lit string) bool {
	return t.kind == tWord && t.assign == nil && t.lit == lit
}

// endsPipeline reports tokens after which a pipeline has no command: a bare
// `time` or `!`.
func endsPipeline(t token) bool {
	switch t.kind {
	case tNewline, tSemi, tAmp, tEOF, tAndAnd, tOrOr, tRParen, tDSemi, tSemiAmp, tDSemiAmp:
		return true
	}
	return false
}

func (p *Parser) pipeline() *Pipeline {
	t := p.peekTok(cmdMode)
	pl := &Pipeline{Line: t.line}
	// `time [-p [--]]` and `!`, in any order and number (`! time a`, `time
	// time a`: timed once)
	for {
		if isWord(t, "time") {
			p.next(cmdMode)
			pl.Time = true
			t = p.peekTok(cmdMode)
			if isWord(t, "-p") {
				p.next(cmdMode)
				pl.TimePosix = true
				t = p.peekTok(cmdMode)
				if isWord(t, "--") {
					p.next(cmdMode)
					t = p.peekTok(cmdMode)
				}
			}
			if endsPipeline(t) {
				return pl
			}
			continue
		}
		if isWord(t, "!") {
			p.next(cmdMode)
			pl.Negated = !pl.Negated
			t = p.peekTok(cmdMode)
			if endsPipeline(t) && t.kind != tEOF {
				return pl
			}
			continue
		}
		break
	}
	pl.Cmds = append(pl.Cmds, p.command())
	for {
		t := p.peekTok(lexMode{})
		if t.kind != tPipe && t.kind != tPipeAmp {
			return pl
		}
		p.next(lexMode{})
		pl.PipeErr = append(pl.PipeErr, t.kind == tPipeAmp)
		p.skipNewlines()
		pl.Cmds = append(pl.Cmds, p.command())
	}
}

// maxNest bounds how deeply constructs nest (commands, substitutions,
// quotes, [[ ]] groups): the parser recurses into each, and a text nested
// deeper would overflow the goroutine's stack, which ends the process
// (bash's own parser gives up at a few thousand levels).
const maxNest = 4000

// enter starts a nested construct; leave (deferred) ends it.
func (p *Parser) enter() {
	limit := maxNest
	if p.MaxNest > 0 && p.MaxNest < limit {
		limit = p.MaxNest
	}
	if p.nest++; p.nest > limit {
		panic(&Error{Line: p.line, Msg: "syntax error: constructs nested too deeply"})
	}
}

func (p *Parser) leave() { p.nest-- }

// command parses one simple or compound command with its redirections.
func (p *Parser) command() Command {
	p.enter()
	defer p.leave()
	t := p.peekTok(cmdMode)
	switch t.kind {
	case tWord:
		if t.assign == nil {
			switch t.lit {
			case "then", "elif", "else", "fi", "do", "done", "esac", "}", "in":
				p.unexpected(t)
			case "function":
				p.next(cmdMode)
				return p.funcDef(t.line, true, nil)
			case "coproc":
				p.next(cmdMode)
				return p.coproc(t.line)
			}
			if c := p.compound(); c != nil {
				return c
			}
		}
		return p.simple()
	case tLParen:
		if c := p.compound(); c != nil {
			return c
		}
	case tRedir:
		return p.simple()
	}
	p.unexpected(p.next(cmdMode))
	return nil
}

// compound parses a compound command if the next token starts one.
func (p *Parser) compound() Command {
	t := p.peekTok(cmdMode)
	var c Command
	switch {
	case t.kind == tLParen:
		p.next(cmdMode)
		if p.peek() == '(' {
			if end, ok := p.scanArith(p.rest(), 1); ok {
				p.get()
				x := p.arithText(end - 1)
				c = &ArithCmd{CmdBase: CmdBase{Line: t.line}, X: x}
				break
			}
		}
		body := p.list(false)
		if len(body) == 0 {
			p.unexpected(p.next(cmdMode))
		}
		p.expectTok(tRParen)
		c = &Subshell{CmdBase: CmdBase{Line: t.line}, Body: body}
	case t.kind != tWord || t.assign != nil:
		return nil
	case t.lit == "{":
		p.next(cmdMode)
		body := p.nonEmptyList()
		p.expectWord("}")
		c = &Block{CmdBase: CmdBase{Line: t.line}, Body: body}
	case t.lit == "if":
		p.next(cmdMode)
		c = p.ifClause(t.line)
	case t.lit == "while", t.lit == "until":
		p.next(cmdMode)
		w := &While{CmdBase: CmdBase{Line: t.line}, Until: t.lit == "until"}
		w.Cond = p.nonEmptyList()
		p.expectWord("do")
		w.Body = p.nonEmptyList()
		p.expectWord("done")
		c = w
	case t.lit == "for", t.lit == "select":
		p.next(cmdMode)
		c = p.forClause(t.line, t.lit == "select")
	case t.lit == "case":
		p.next(cmdMode)
		c = p.caseClause(t.line)
	case t.lit == "[[":
		p.next(cmdMode)
		p.condLine = t.line
		x := p.condOr()
		end := p.nextCond()
		if !isWord(end, "]]") {
			msg := "syntax error in conditional expression"
			if end.kind != tWord && end.kind != tNewline {
				msg += ": unexpected token `" + end.text + "'"
			}
			p.condUnexpected(end, msg)
		}
		c = &CondCmd{CmdBase: CmdBase{Line: t.line}, X: x}
	default:
		return nil
	}
	p.redirections(c.Base())
	return c
}

func (p *Parser) nonEmptyList() []*Stmt {
	l := p.list(false)
	if len(l) == 0 {
		p.unexpected(p.next(cmdMode))
	}
	return l
}

func (p *Parser) expectWord(kw string) {
	t := p.next(cmdMode)
	if !isWord(t, kw) {
		p.unexpected(t)
	}
}

func (p *Parser) expectTok(k tokKind) {
	t := p.next(lexMode{})
	if t.kind != k {
		p.unexpected(t)
	}
}

// redirections reads the redirections after a compound command.
func (p *Parser) redirections(b *CmdBase) {
	for {
		t := p.peekTok(lexMode{})
		if t.kind != tRedir {
			return
		}
		p.next(lexMode{})
		b.Redirs = append(b.Redirs, p.redirTarget(t.redir))
	}
}

// HeredocMax is how many here-documents bash lets one line open.
const HeredocMax = 16

// redirTarget reads the word after a redirection operator.
func (p *Parser) redirTarget(r *Redirect) *Redirect {
	t := p.next(lexMode{})
	if t.kind != tWord {
		p.unexpected(t)
	}
	r.Word = t.word
	if r.Op == RedirHeredoc {
		if len(p.pending) >= HeredocMax {
			panic(&Error{Line: t.line, Msg: "maximum here-document count exceeded", Fatal: true})
		}
		p.pending = append(p.pending, r)
	}
	return r
}

func (p *Parser) ifClause(line int) Command {
	c := &If{CmdBase: CmdBase{Line: line}}
	for {
		c.Conds = append(c.Conds, p.nonEmptyList())
		p.expectWord("then")
		c.Thens = append(c.Thens, p.nonEmptyList())
		t := p.next(cmdMode)
		switch {
		case isWord(t, "elif"):
			continue
		case isWord(t, "else"):
			c.IsElse = true
			c.Else = p.nonEmptyList()
			p.expectWord("fi")
			return c
		case isWord(t, "fi"):
			return c
		default:
			p.unexpected(t)
		}
	}
}

func (p *Parser) forClause(line int, sel bool) Command {
	t := p.next(lexMode{})
	if t.kind == tLParen && !sel && p.peek() == '(' {
		return p.arithFor(line)
	}
	if t.kind != tWord {
		p.unexpected(t)
	}
	f := &For{CmdBase: CmdBase{Line: line}, Select: sel, Name: t.word.Raw}
	p.skipNewlines()
	t = p.peekTok(cmdMode)
	switch {
	case isWord(t, "in"):
		p.next(cmdMode)
		f.In = true
		for {
			t := p.next(lexMode{})
			if t.kind == tWord {
				f.Words = append(f.Words, t.word)
				continue
			}
			if t.kind != tSemi && t.kind != tNewline {
				p.unexpected(t)
			}
			break
		}
	case t.kind == tSemi:
		p.next(cmdMode)
	}
	p.skipNewlines()
	f.Body = p.loopBody()
	return f
}

// loopBody reads do ... done (or { ... }).
func (p *Parser) loopBody() []*Stmt {
	t := p.next(cmdMode)
	switch {
	case isWord(t, "do"):
		body := p.nonEmptyList()
		p.expectWord("done")
		return body
	case isWord(t, "{"):
		body := p.nonEmptyList()
		p.expectWord("}")
		return body
	}
	p.unexpected(t)
	return nil
}

func (p *Parser) arithFor(line int) Command {
	line0 := p.line
	end, ok := p.scanArith(p.rest(), 1)
	if !ok {
		if end == -1 {
			p.skip(len(p.rest()))
			p.failEOF(line0, "unexpected EOF while looking for matching `)'")
		}
		p.fail(line0, "syntax error: `((' without matching `))'", false)
	}
	p.get() // second (
	start := p.histPos()
	p.skip(end - 1)
	src := p.rawFrom(start)
	p.skip(2) // ))
	parts := splitArithFor(src)
	if len(parts) != 3 {
		// (bash then shows the construct: syntax error: `(( a; b ))')
		msg := "syntax error: arithmetic expression required"
		if len(parts) > 3 {
			msg = "syntax error: `;' unexpected"
		}
		panic(&Error{Line: line0, Msg: msg, Text: "((" + src + "))", TextLabel: "syntax error:"})
	}
	f := &ArithFor{CmdBase: CmdBase{Line: line}}
	for i, s := range parts {
		if strings.TrimSpace(s) == "" {
			continue
		}
		a := p.newArith(s, line0)
		switch i {
		case 0:
			f.Init = a
		case 1:
			f.Cond = a
		default:
			f.Post = a
		}
	}
	t := p.peekTok(lexMode{})
	if t.kind == tSemi {
		p.next(lexMode{})
	}
	p.skipNewlines()
	f.Body = p.loopBody()
	return f
}

// splitArithFor splits "init; cond; post" at top-level semicolons.
func splitArithFor(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '\'', '"', '`':
			if j := skipQuoted(s, i); j > 0 {
				i = j - 1
			}
		case ';':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func (p *Parser) caseClause(line int) Command {
	t := p.next(lexMode{})
	if t.kind != tWord {
		p.unexpected(t)
	}
	c := &Case{CmdBase: CmdBase{Line: line}, Word: t.word}
	p.skipNewlinesIn(lexMode{})
	p.expectWord("in")
	for {
		p.skipNewlinesIn(lexMode{})
		t := p.peekTok(lexMode{})
		if isWord(t, "esac") {
			p.next(lexMode{})
			return c
		}
		if t.kind == tLParen {
			p.next(lexMode{})
		}
		item := &CaseItem{}
		for {
			t := p.next(lexMode{})
			if t.kind != tWord {
				p.unexpected(t)
			}
			item.Patterns = append(item.Patterns, t.word)
			t = p.next(lexMode{})
			if t.kind == tPipe {
				continue
			}
			if t.kind != tRParen {
				p.unexpected(t)
			}
			break
		}
		item.Body = p.list(false)
		c.Items = append(c.Items, item)
		t = p.next(cmdMode)
		switch {
		case t.kind == tDSemi:
			item.Term = CaseBreak
		case t.kind == tSemiAmp:
			item.Term = CaseFall
		case t.kind == tDSemiAmp:
			item.Term = CaseContinue
		case isWord(t, "esac"):
			return c
		default:
			p.unexpected(t)
		}
	}
}

// funcDef parses a function definition after `function` (keyword) or after
// its name word (name given).
func (p *Parser) funcDef(line int, keyword bool, name *token) Command {
	if name == nil {
		t := p.next(lexMode{})
		if t.kind != tWord {
			p.unexpected(t)
		}
		name = &t
		p.skipBlanks()
		if p.peek() == '(' {
			p.next(lexMode{})
			p.expectTok(tRParen)
		}
	}
	p.skipNewlines()
	body := p.compound()
	if body == nil {
		p.unexpected(p.next(cmdMode))
	}
	return &FuncDef{CmdBase: CmdBase{Line: line}, Name: name.word.Raw, Keyword: keyword, Body: body, Src: p.Name, EndLine: p.lastLine()}
}

func (p *Parser) coproc(line int) Command {
	if c := p.compound(); c != nil {
		return &Coproc{CmdBase: CmdBase{Line: line}, Name: "COPROC", Cmd: c}
	}
	t := p.peekTok(cmdMode)
	if t.kind == tWord && t.assign == nil && t.lit != "" {
		p.next(cmdMode)
		if c := p.compound(); c != nil {
			return &Coproc{CmdBase: CmdBase{Line: line}, Name: t.lit, Cmd: c}
		}
		return &Coproc{CmdBase: CmdBase{Line: line}, Name: "COPROC", Cmd: p.simpleFrom(&t)}
	}
	return &Coproc{CmdBase: CmdBase{Line: line}, Name: "COPROC", Cmd: p.simple()}
}

// declBuiltins take assignments as arguments.
var declBuiltins = map[string]bool{"declare": true, "typeset": true, "local": true, "export": true, "readonly": true,
	"alias": true, "eval": true, "let": true}

// assignWord is NAME=value as a plain word.
func assignWord(a *Assign) *Word {
	prefix := a.Name
	if a.Index != nil {
		prefix += "[" + a.Index.Src + "]"
	}
	if a.Append {
		prefix += "+"
	}
	parts := []Part{&Lit{Val: prefix + "="}}
	if a.Value != nil {
		parts = append(parts, a.Value.Parts...)
	}
	return &Word{Parts: parts, Raw: a.Raw}
}

// evalLike builtins read NAME=(...) words but get them as text.
var evalLike = map[string]bool{"eval": true, "let": true, "alias": true}

func (p *Parser) simple() Command { return p.simpleFrom(nil) }

// simpleFrom parses a simple command (first: its first word, already read).
func (p *Parser) simpleFrom(first *token) Command {
	t := p.peekTok(cmdMode)
	sc := &SimpleCmd{CmdBase: CmdBase{Line: t.line}}
	decl := false
	addWord := func(t token) {
		sc.Words = append(sc.Words, t.word)
		if len(sc.Words) == 1 {
			decl = declBuiltins[t.lit]
		}
	}
	if first != nil {
		sc.Line = first.line
		addWord(*first)
	}
	for {
		m := lexMode{assign: len(sc.Words) == 0 || decl, cmd: len(sc.Words) == 0}
		t := p.peekTok(m)
		switch t.kind {
		case tRedir:
			p.next(m)
			sc.Redirs = append(sc.Redirs, p.redirTarget(t.redir))
			continue
		case tWord:
			p.next(m)
			if t.assign != nil {
				if len(sc.Words) == 0 {
					sc.Assigns = append(sc.Assigns, t.assign)
				} else if evalLike[sc.Words[0].Lit()] && t.assign.Array != nil {
					// eval and let take NAME=(...) as text
					sc.Words = append(sc.Words, p.subWord(t.assign.Raw, t.line, textWord))
				} else if evalLike[sc.Words[0].Lit()] {
					// and NAME=value as a word, expanded before they run
					sc.Words = append(sc.Words, assignWord(t.assign))
				} else {
					sc.Words = append(sc.Words, &Word{Raw: t.assign.Raw, Assign: t.assign})
				}
				continue
			}
			if len(sc.Words) == 0 && len(sc.Assigns) == 0 && len(sc.Redirs) == 0 {
				p.skipBlanks()
				if p.peek() == '(' {
					p.next(lexMode{})
					p.expectTok(tRParen)
					return p.funcDef(t.line, false, &t)
				}
			}
			addWord(t)
			continue
		}
		break
	}
	if len(sc.Words) == 0 && len(sc.Assigns) == 0 && len(sc.Redirs) == 0 {
		p.unexpected(p.next(cmdMode))
	}
	return sc
}

// [[ ]] expressions.

var condMode = lexMode{cond: true}

// nextCond reads a token inside [[ ]], skipping newlines.
func (p *Parser) nextCond() token {
	for {
		t := p.next(condMode)
		if t.kind != tNewline {
			return t
		}
	}
}

func (p *Parser) peekCond() token {
	for {
		t := p.peekTok(condMode)
		if t.kind != tNewline {
			return t
		}
		p.next(condMode)
	}
}

// condUnexpected reports an error inside [[ ]] as bash does: on the line
// of the [[ for an end of file, else without the offending line's text.
func (p *Parser) condUnexpected(t token, msg string) {
	if t.kind == tEOF {
		p.failEOF(p.condLine, "unexpected EOF while looking for `]]'")
	}
	panic(&Error{Line: t.line, Msg: msg, KeepStatus: true})
}

func (p *Parser) condOr() Cond {
	x := p.condAnd()
	for p.peekCond().kind == tOrOr {
		p.nextCond()
		x = &CondBinary{Op: "||", X: x, Y: p.condAnd()}
	}
	return x
}

func (p *Parser) condAnd() Cond {
	x := p.condNot()
	for p.peekCond().kind == tAndAnd {
		p.nextCond()
		x = &CondBinary{Op: "&&", X: x, Y: p.condNot()}
	}
	return x
}

func (p *Parser) condNot() Cond {
	p.enter()
	defer p.leave()
	if t := p.peekCond(); isWord(t, "!") {
		p.nextCond()
		return &CondUnary{Op: "!", X: p.condNot()}
	}
	return p.condPrimary()
}

// CondUnaryOps are the [[ ]] and test unary operators.
var CondUnaryOps = map[string]bool{
	"-a": true, "-b": true, "-c": true, "-d": true, "-e": true, "-f": true, "-g": true, "-h": true,
	"-k": true, "-p": true, "-r": true, "-s": true, "-t": true, "-u": true, "-w": true, "-x": true,
	"-G": true, "-L": true, "-N": true, "-O": true, "-S": true, "-z": true, "-n": true, "-o": true,
	"-v": true, "-R": true,
}

// CondBinaryOps are the [[ ]] binary operators (< and > are tokens).
var CondBinaryOps = map[string]bool{
	"=": true, "==": true, "!=": true, "=~": true, "-eq": true, "-ne": true, "-lt": true,
	"-le": true, "-gt": true, "-ge": true, "-ef": true, "-nt": true, "-ot": true,
}

func (p *Parser) condPrimary() Cond {
	t := p.nextCond()
	switch t.kind {
	case tLParen:
		if isWord(p.peekCond(), "]]") {
			p.condUnexpected(p.peekCond(), "expected `)'")
		}
		x := p.condOr()
		if e := p.nextCond(); e.kind != tRParen {
			p.condUnexpected(e, "unexpected token `"+e.text+"', expected `)'")
		}
		return &CondParen{X: x}
	case tWord:
		if isWord(t, "]]") {
			p.condUnexpected(t, "") // bash gives up without a word
		}
	case tAndAnd, tOrOr:
		p.condUnexpected(t, "")
	default:
		p.condUnexpected(t, "unexpected token `"+t.text+"' in conditional command")
	}
	if t.lit != "" && CondUnaryOps[t.lit] {
		n := p.peekCond()
		if n.kind == tWord && !isWord(n, "]]") {
			p.nextCond()
			return &CondUnary{Op: t.lit, X: &CondWord{W: n.word}}
		}
		if n.kind != tWord || isWord(n, "]]") {
			p.condUnexpected(n, "unexpected argument `"+n.text+"' to conditional unary operator")
		}
	}
	lhs := &CondWord{W: t.word}
	n := p.peekCond()
	op := ""
	switch {
	case n.kind == tLess:
		op = "<"
	case n.kind == tGreater:
		op = ">"
	case n.kind == tWord && CondBinaryOps[n.lit]:
		op = n.lit
	case n.kind == tWord && !isWord(n, "]]"):
		p.condUnexpected(n, "conditional binary operator expected")
	default:
		return lhs
	}
	p.nextCond()
	if op == "=~" {
		p.skipBlanks()
		w := p.readRegexWord()
		if len(w.Parts) == 0 {
			n := p.nextCond()
			p.condUnexpected(n, "unexpected argument `"+n.text+"' to conditional binary operator")
		}
		return &CondBinary{Op: op, X: lhs, Y: &CondWord{W: w}}
	}
	r := p.nextCond()
	if r.kind != tWord || isWord(r, "]]") {
		p.condUnexpected(r, "unexpected argument `"+r.text+"' to conditional binary operator")
	}
	return &CondBinary{Op: op, X: lhs, Y: &CondWord{W: r.word}}
}

// readRegexWord reads the right side of =~: parentheses and | belong to the
// word, and blanks inside parentheses too.
func (p *Parser) readRegexWord() *Word {
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
	depth := 0
	for {
		c := p.peek()
		switch {
		case c == -1 || c == '\n':
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
		case c == '(':
			p.get()
			depth++
			lit.WriteByte('(')
		case c == ')':
			if depth == 0 {
				flush()
				return &Word{Parts: parts, Raw: p.rawFrom(start)}
			}
			p.get()
			depth--
			lit.WriteByte(')')
		case depth > 0 && (isBlank(c) || c == '|' || c == '<' || c == '>' || c == '&' || c == ';'):
			p.get()
			lit.WriteByte(byte(c))
		case c == '|':
			p.get()
			lit.WriteByte('|')
		case isMeta(c):
			flush()
			return &Word{Parts: parts, Raw: p.rawFrom(start)}
		default:
			p.get()
			lit.WriteByte(byte(c))
		}
	}
}
