package syntax

import (
	"strconv"
	"strings"
)

// Printing follows bash's layout of functions (declare -f, type): one
// command per line, four-space indentation, ';' after each command but the
// last of a group, words as written. The printer keeps bash's state: a
// pending indentation skip, here-document bodies deferred past the
// connector that follows them.

type printer struct {
	b          strings.Builder
	indent     int
	skipIndent int
	inFunc     int
	inConn     int
	deferred   []*Redirect
	wasHeredoc bool
	// source: text to parse again rather than bash's listing (FuncSource)
	source bool
}

// pnode is bash's command tree for printing: a connection of two commands
// (left-associative, && and || binding tighter than ; and &) or one command.
type pnode struct {
	first, second *pnode
	connector     string // ";", "&", "|", "&&", "||"; "" for a leaf
	leaf          Command
	time, posix   bool
	negated       bool
}

func listTree(list []*Stmt) *pnode { return listTreeNL(list, false) }

// listTreeNL keeps commands ended by a newline joined by one when keepNL
// (bash's parser does so inside $(...)).
func listTreeNL(list []*Stmt, keepNL bool) *pnode {
	var n *pnode
	for i, st := range list {
		t := stmtTree(st)
		if i == 0 {
			n = t
		} else {
			conn := ";"
			if list[i-1].Async {
				conn = "&"
			} else if keepNL && list[i-1].Newline {
				conn = "\n"
			}
			n = &pnode{first: n, second: t, connector: conn}
		}
	}
	if len(list) > 0 && list[len(list)-1].Async {
		n = &pnode{first: n, connector: "&"}
	}
	return n
}

func stmtTree(st *Stmt) *pnode {
	n := pipeTree(st.Pipes[0])
	for i, op := range st.Ops {
		conn := "&&"
		if op == OrElse {
			conn = "||"
		}
		n = &pnode{first: n, second: pipeTree(st.Pipes[i+1]), connector: conn}
	}
	return n
}

func pipeTree(pl *Pipeline) *pnode {
	var n *pnode
	for i, c := range pl.Cmds {
		if i < len(pl.PipeErr) && pl.PipeErr[i] {
			c = withStderr(c) // bash stores |& as 2>&1 |
		}
		leaf := &pnode{leaf: c}
		if i == 0 {
			n = leaf
		} else {
			n = &pnode{first: n, second: leaf, connector: "|"}
		}
	}
	if n == nil {
		n = &pnode{leaf: &SimpleCmd{}}
	}
	n.time, n.posix, n.negated = pl.Time, pl.TimePosix, pl.Negated
	return n
}

// withStderr is a shallow copy of c with 2>&1 added.
func withStderr(c Command) Command {
	dup := &Redirect{Op: RedirDupOut, N: 2, Word: &Word{Raw: "1"}}
	switch c := c.(type) {
	case *SimpleCmd:
		cc := *c
		cc.Redirs = append(append([]*Redirect(nil), c.Redirs...), dup)
		return &cc
	}
	return c
}

// FuncString prints a function definition as `declare -f` does.
func FuncString(name string, body Command) string {
	return (&printer{}).funcDef(name, body)
}

// FuncSource prints a function definition as FuncString does, but as text
// that parses back to the same function where bash's listing does not: a
// coproc of a simple command, which bash lists with the name COPROC that
// its parser would then take for the command's first word.
func FuncSource(name string, body Command) string {
	return (&printer{source: true}).funcDef(name, body)
}

func (p *printer) funcDef(name string, body Command) string {
	if IsKeyword(name) {
		p.put("function ")
	}
	p.put(name + " () \n")
	p.indent = 4
	p.inFunc++
	p.put("{ \n")
	redirs := p.funcInner(body)
	p.deferredHeredocs("")
	p.indent = 0
	p.inFunc--
	p.closeFunc(redirs)
	return p.b.String()
}

// funcInner prints a function's body without the braces of a group;
// it returns the group's redirections.
func (p *printer) funcInner(body Command) []*Redirect {
	if blk, ok := body.(*Block); ok {
		p.node(listTree(blk.Body))
		return blk.Redirs
	}
	p.node(&pnode{leaf: body})
	return nil
}

func (p *printer) closeFunc(redirs []*Redirect) {
	if len(redirs) > 0 {
		p.newline("} ")
		p.redirects(redirs)
	} else {
		p.newline("}")
		p.wasHeredoc = false
	}
}

// CommandString prints a list of statements on one line, as bash shows a
// command (BASH_COMMAND, job listings).
func CommandString(stmts []*Stmt) string {
	p := &printer{}
	p.node(listTree(stmts))
	return p.b.String()
}

// comsubString is the body of $(...) as bash 5.2 reprints it.
func comsubString(stmts []*Stmt) string {
	p := &printer{}
	p.node(listTreeNL(stmts, true))
	return p.b.String()
}

func (p *printer) put(s string) { p.b.WriteString(s) }

func (p *printer) last() byte {
	s := p.b.String()
	if s == "" {
		return 0
	}
	return s[len(s)-1]
}

func (p *printer) newline(s string) {
	p.put("\n")
	p.putIndent(p.indent)
	p.put(s)
}

func (p *printer) putIndent(n int) {
	for ; n > 0; n-- {
		p.b.WriteByte(' ')
	}
}

func (p *printer) semicolon() {
	if c := p.last(); c == '&' || c == '\n' {
		return
	}
	p.put(";")
}

func (p *printer) node(n *pnode) {
	if n == nil {
		return
	}
	if p.skipIndent > 0 {
		p.skipIndent--
	} else {
		p.putIndent(p.indent)
	}
	if n.time {
		p.put("time ")
		if n.posix {
			p.put("-p ")
		}
	}
	if n.negated {
		p.put("! ")
	}
	if n.connector == "" {
		p.command(n.leaf)
		return
	}
	p.skipIndent++
	p.inConn++
	p.node(n.first)
	switch c := n.connector; c {
	case "&", "|":
		p.deferredHeredocs(" " + c)
		if c != "&" || n.second != nil {
			p.put(" ")
			p.skipIndent++
		}
	case "&&", "||":
		p.deferredHeredocs(" " + c + " ")
		if n.second != nil {
			p.skipIndent++
		}
	default: // ";" or, in $(...), "\n"
		if len(p.deferred) == 0 {
			if !p.wasHeredoc {
				p.put(c)
			} else {
				p.wasHeredoc = false
			}
		} else if p.inFunc > 0 {
			p.deferredHeredocs("")
		} else {
			p.deferredHeredocs(";")
		}
		if p.inFunc > 0 {
			p.put("\n")
		} else {
			if c == ";" {
				p.put(" ")
			}
			if n.second != nil {
				p.skipIndent++
			}
		}
	}
	p.node(n.second)
	p.deferredHeredocs("")
	p.inConn--
}

// command prints one command (after its indentation).
func (p *printer) command(c Command) {
	switch c := c.(type) {
	case *SimpleCmd:
		var words []string
		for _, a := range c.Assigns {
			words = append(words, a.Raw)
		}
		for _, w := range c.Words {
			words = append(words, w.Raw)
		}
		p.put(strings.Join(words, " "))
		if len(c.Redirs) > 0 {
			if len(words) > 0 {
				p.put(" ")
			}
			p.redirects(c.Redirs)
		}
		return
	case *For:
		kw := "for"
		if c.Select {
			kw = "select"
		}
		p.put(kw + " " + c.Name + " in ")
		var ws []string
		if c.In {
			for _, w := range c.Words {
				ws = append(ws, w.Raw)
			}
		} else {
			ws = []string{`"$@"`}
		}
		p.put(strings.Join(ws, " "))
		p.put(";")
		p.loopBody(c.Body)
	case *ArithFor:
		p.put("for ((")
		for i, a := range []*Arith{c.Init, c.Cond, c.Post} {
			if i > 0 {
				p.put("; ")
			}
			if a == nil || strings.TrimSpace(a.Src) == "" {
				p.put("1") // (bash prints an empty expression so)
			} else {
				p.put(strings.TrimLeft(a.Src, " \t\n"))
			}
		}
		p.put("))")
		p.loopBody(c.Body)
	case *Case:
		p.put("case " + c.Word.Raw + " in ")
		p.indent += 4
		for _, it := range c.Items {
			p.newline("")
			var ps []string
			for _, w := range it.Patterns {
				ps = append(ps, w.Raw)
			}
			p.put(strings.Join(ps, " | "))
			p.put(")\n")
			p.indent += 4
			p.node(listTree(it.Body))
			p.indent -= 4
			p.deferredHeredocs("")
			switch it.Term {
			case CaseFall:
				p.newline(";&")
			case CaseContinue:
				p.newline(";;&")
			default:
				p.newline(";;")
			}
		}
		p.indent -= 4
		p.newline("esac")
	case *While:
		if c.Until {
			p.put("until ")
		} else {
			p.put("while ")
		}
		p.skipIndent++
		p.node(listTree(c.Cond))
		p.deferredHeredocs("")
		p.semicolon()
		p.put(" do\n")
		p.indent += 4
		p.node(listTree(c.Body))
		p.deferredHeredocs("")
		p.indent -= 4
		p.semicolon()
		p.newline("done")
	case *If:
		p.ifCmd(c, 0)
	case *ArithCmd:
		p.put("((" + c.X.Src + "))")
	case *CondCmd:
		p.put("[[ ")
		p.cond(c.X)
		p.put(" ]]")
	case *FuncDef:
		p.put("function " + c.Name + " () \n")
		p.putIndent(p.indent)
		p.put("{ \n")
		p.inFunc++
		p.indent += 4
		redirs := p.funcInner(c.Body)
		p.deferredHeredocs("")
		p.indent -= 4
		p.inFunc--
		p.closeFunc(redirs)
		return
	case *Block:
		p.put("{ ")
		if p.inFunc == 0 {
			p.skipIndent++
		} else {
			p.put("\n")
			p.indent += 4
		}
		p.node(listTree(c.Body))
		p.deferredHeredocs("")
		if p.inFunc > 0 {
			p.put("\n")
			p.indent -= 4
			p.putIndent(p.indent)
		} else {
			p.semicolon()
			p.put(" ")
		}
		p.put("}")
	case *Subshell:
		p.put("( ")
		p.skipIndent++
		p.node(listTree(c.Body))
		p.deferredHeredocs("")
		p.put(" )")
	case *Coproc:
		if _, simple := c.Cmd.(*SimpleCmd); simple && p.source {
			p.put("coproc ") // (named COPROC all the same)
		} else {
			p.put("coproc " + c.Name + " ")
		}
		p.skipIndent++
		p.node(&pnode{leaf: c.Cmd})
	}
	if rs := c.Base().Redirs; len(rs) > 0 {
		p.put(" ")
		p.redirects(rs)
	}
}

func (p *printer) loopBody(body []*Stmt) {
	p.newline("do\n")
	p.indent += 4
	p.node(listTree(body))
	p.deferredHeredocs("")
	p.semicolon()
	p.indent -= 4
	p.newline("done")
}

// ifCmd prints if/elif/else the way bash stores it: an elif is an if in
// the else branch.
func (p *printer) ifCmd(c *If, i int) {
	p.put("if ")
	p.skipIndent++
	p.node(listTree(c.Conds[i]))
	p.semicolon()
	p.put(" then\n")
	p.indent += 4
	p.node(listTree(c.Thens[i]))
	p.deferredHeredocs("")
	p.indent -= 4
	if i+1 < len(c.Conds) || c.IsElse {
		p.semicolon()
		p.newline("else\n")
		p.indent += 4
		if i+1 < len(c.Conds) {
			p.putIndent(p.indent)
			p.ifCmd(c, i+1)
		} else {
			p.node(listTree(c.Else))
		}
		p.deferredHeredocs("")
		p.indent -= 4
	}
	p.semicolon()
	p.newline("fi")
}

func (p *printer) cond(c Cond) { p.put(CondString(c)) }

// CondString prints a [[ ]] expression as bash does: a word that is a test
// of its own shows the -n it stands for ([[ -n $x && ! -n y ]]).
func CondString(c Cond) string {
	return condString(c, true)
}

// condString: alone says c is a test of its own (not an operator's operand).
func condString(c Cond, alone bool) string {
	switch c := c.(type) {
	case *CondWord:
		if alone {
			return "-n " + c.W.Raw
		}
		return c.W.Raw
	case *CondUnary:
		if c.Op == "!" {
			return "! " + condString(c.X, true)
		}
		return c.Op + " " + condString(c.X, false)
	case *CondBinary:
		sub := c.Op == "&&" || c.Op == "||"
		return condString(c.X, sub) + " " + c.Op + " " + condString(c.Y, sub)
	case *CondParen:
		return "( " + condString(c.X, true) + " )"
	}
	return ""
}

func (p *printer) redirects(rs []*Redirect) {
	var hds []*Redirect
	p.wasHeredoc = false
	for i, r := range rs {
		if r.Op == RedirHeredoc {
			p.heredocHeader(r)
			hds = append(hds, r)
		} else {
			p.redirect(r)
		}
		if i < len(rs)-1 {
			p.put(" ")
		}
	}
	if len(hds) > 0 {
		if p.inConn > 0 {
			p.deferred = append(p.deferred, hds...)
		} else {
			p.heredocBodies(hds)
		}
	}
}

func (p *printer) heredocHeader(r *Redirect) {
	p.redirFd(r, 0)
	delim, quoted := heredocDelim(r.Word.Raw)
	op := "<<"
	if r.StripTabs {
		op = "<<-"
	}
	if quoted {
		delim = "'" + strings.ReplaceAll(delim, "'", `'\''`) + "'"
	}
	p.put(op + delim)
}

func (p *printer) heredocBodies(hds []*Redirect) {
	p.put("\n")
	for _, r := range hds {
		delim, _ := heredocDelim(r.Word.Raw)
		body := r.HdocText
		if r.Hdoc != nil {
			body = r.Hdoc.Raw
		}
		p.put(body + delim + "\n")
	}
	p.wasHeredoc = true
}

func (p *printer) deferredHeredocs(conn string) {
	show := conn != "" && conn != ";"
	if show {
		p.put(conn)
	}
	if len(p.deferred) > 0 {
		p.heredocBodies(p.deferred)
		if show {
			p.put(" ")
		}
		p.deferred = nil
		p.wasHeredoc = true
	}
}

// redirFd prints the fd before an operator when it is not the default.
func (p *printer) redirFd(r *Redirect, def int) {
	switch {
	case r.VarName != "":
		p.put("{" + r.VarName + "}")
	case r.N >= 0 && r.N != def:
		p.put(strconv.Itoa(r.N))
	}
}

func (p *printer) redirect(r *Redirect) {
	target := r.Word.Raw
	fdText := func(def int) string {
		if r.VarName != "" {
			return "{" + r.VarName + "}"
		}
		n := r.N
		if n < 0 {
			n = def
		}
		return strconv.Itoa(n)
	}
	switch r.Op {
	case RedirIn:
		p.redirFd(r, 0)
		p.put("< " + target)
	case RedirOut:
		p.redirFd(r, 1)
		p.put("> " + target)
	case RedirClobber:
		p.redirFd(r, 1)
		p.put(">| " + target)
	case RedirAppend:
		p.redirFd(r, 1)
		p.put(">> " + target)
	case RedirInOut:
		p.redirFd(r, 1)
		p.put("<> " + target)
	case RedirHerestr:
		p.redirFd(r, 0)
		p.put("<<< " + target)
	case RedirAll:
		p.put("&> " + target)
	case RedirAllApp:
		p.put("&>> " + target)
	case RedirDupIn, RedirDupOut:
		op, def := "<&", 0
		if r.Op == RedirDupOut {
			op, def = ">&", 1
		}
		switch {
		case target == "-":
			p.put(fdText(def) + ">&-")
		case isNumber(target):
			p.put(fdText(def) + op + target)
		case strings.HasSuffix(target, "-") && isNumber(strings.TrimSuffix(target, "-")):
			p.put(fdText(def) + op + target)
		default:
			if r.VarName == "" && (r.N < 0 || r.N == def) {
				p.put(op + target)
			} else {
				p.put(fdText(def) + op + target)
			}
		}
	}
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
