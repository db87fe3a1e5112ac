// Package syntax is the sandbox's bash parser: it reads bash 5.2 source one
// complete command at a time (as bash does, so aliases and shopt settings of
// one line apply to the next), reports errors in bash's words, and keeps
// arithmetic and array subscripts as text to be evaluated when they run.
//
// Words keep their source text (Raw), which is what `declare -f` prints;
// their parts say what expands and what is quoted.
package syntax

// Stmt is one element of a list: and-or pipelines with its terminator.
type Stmt struct {
	Line    int
	Pipes   []*Pipeline // joined by Ops
	Ops     []AndOr     // len(Pipes)-1
	Async   bool        // terminated by &
	Newline bool        // terminated by a newline (kept when $(...) is reprinted)
}

// AndOr joins two pipelines of a Stmt.
type AndOr uint8

const (
	AndThen AndOr = iota // &&
	OrElse               // ||
)

// Pipeline is cmd | cmd |& cmd, maybe negated or timed.
type Pipeline struct {
	Line      int
	Negated   bool
	Time      bool
	TimePosix bool // time -p
	Cmds      []Command
	PipeErr   []bool // PipeErr[i]: the pipe after Cmds[i] is |& (stderr too)
}

// Command is a simple or compound command.
type Command interface {
	// Base gives the command's line and redirections.
	Base() *CmdBase
}

// CmdBase holds what every command has.
type CmdBase struct {
	Line   int
	Redirs []*Redirect
}

func (b *CmdBase) Base() *CmdBase { return b }

// SimpleCmd is assignments, words and redirections.
type SimpleCmd struct {
	CmdBase
	Assigns []*Assign
	Words   []*Word
}

// Block is { list; }.
type Block struct {
	CmdBase
	Body []*Stmt
}

// Subshell is ( list ).
type Subshell struct {
	CmdBase
	Body []*Stmt
}

// If is if/elif/else/fi.
type If struct {
	CmdBase
	Conds  [][]*Stmt // if and elifs
	Thens  [][]*Stmt
	Else   []*Stmt
	IsElse bool // an else branch is present (it may not be empty)
}

// While is while/until.
type While struct {
	CmdBase
	Until bool
	Cond  []*Stmt
	Body  []*Stmt
}

// For is for NAME [in WORDS]; do ...; done, and select.
type For struct {
	CmdBase
	Select bool
	Name   string
	In     bool // "in WORDS" given (otherwise "$@")
	Words  []*Word
	Body   []*Stmt
}

// ArithFor is for (( init; cond; post )).
type ArithFor struct {
	CmdBase
	Init, Cond, Post *Arith // nil when empty
	Body             []*Stmt
}

// Case is case WORD in items esac.
type Case struct {
	CmdBase
	Word  *Word
	Items []*CaseItem
}

// CaseItem is one pattern list and its commands.
type CaseItem struct {
	Patterns []*Word
	Body     []*Stmt
	Term     CaseTerm
}

// CaseTerm ends a case item.
type CaseTerm uint8

const (
	CaseBreak    CaseTerm = iota // ;;
	CaseFall                     // ;&
	CaseContinue                 // ;;&
)

// ArithCmd is (( expr )).
type ArithCmd struct {
	CmdBase
	X *Arith
}

// CondCmd is [[ expr ]].
type CondCmd struct {
	CmdBase
	X Cond
}

// FuncDef is NAME () BODY or function NAME [()] BODY.
type FuncDef struct {
	CmdBase
	Name    string
	Keyword bool
	Body    Command
	Src     string // source file, for BASH_SOURCE
	EndLine int    // the line the definition ends on (where bash reports its errors)
}

// Coproc is coproc [NAME] command.
type Coproc struct {
	CmdBase
	Name string
	Cmd  Command
}

// Cond is a [[ ]] expression node.
type Cond interface{ condNode() }

// CondWord is an operand (a string, a pattern or a regex by position).
type CondWord struct{ W *Word }

// CondUnary is -OP X or ! X (Op "!").
type CondUnary struct {
	Op string
	X  Cond
}

// CondBinary is X OP Y, incl. && and ||.
type CondBinary struct {
	Op   string
	X, Y Cond
}

// CondParen is ( X ).
type CondParen struct{ X Cond }

func (*CondWord) condNode()   {}
func (*CondUnary) condNode()  {}
func (*CondBinary) condNode() {}
func (*CondParen) condNode()  {}

// Arith is an arithmetic expression kept as text: it is expanded (like a
// double-quoted string) and parsed when evaluated, as bash does.
type Arith struct {
	Src string // as written
	W   *Word  // Src parsed for expansion
}

// Assign is NAME=value, NAME+=value, NAME[sub]=value or NAME=(...).
type Assign struct {
	Name   string
	Index  *Subscript // NAME[sub]=
	Append bool
	Value  *Word     // nil: empty value
	Array  *ArrayLit // NAME=( ... )
	Raw    string
}

// ArrayLit is ( elem ... ) in an assignment.
type ArrayLit struct {
	Elems []*ArrayElem
}

// ArrayElem is WORD or [KEY]=WORD or [KEY]+=WORD.
type ArrayElem struct {
	Key    *Subscript
	Append bool
	Value  *Word
}

// Subscript is an array index as text: arithmetic for indexed arrays, a
// word for associative ones, "@" or "*" for all elements.
type Subscript struct {
	Src string
	W   *Word
}

// RedirOp is a redirection operator.
type RedirOp uint8

const (
	RedirIn      RedirOp = iota // <
	RedirOut                    // >
	RedirAppend                 // >>
	RedirClobber                // >|
	RedirInOut                  // <>
	RedirDupIn                  // <&
	RedirDupOut                 // >&
	RedirHeredoc                // << and <<-
	RedirHerestr                // <<<
	RedirAll                    // &>
	RedirAllApp                 // &>>
)

var redirOpText = [...]string{"<", ">", ">>", ">|", "<>", "<&", ">&", "<<", "<<<", "&>", "&>>"}

func (op RedirOp) String() string { return redirOpText[op] }

// Redirect is one redirection.
type Redirect struct {
	Op        RedirOp
	N         int    // explicit fd, or -1
	VarName   string // {name}>...
	Word      *Word  // target (the delimiter for a here-document)
	Hdoc      *Word  // here-document body (nil when the delimiter was quoted: HdocText)
	HdocText  string // literal body
	StripTabs bool   // <<-
	Line      int
}

// Word is one shell word: its parts and its source text.
type Word struct {
	Parts []Part
	Raw   string
	// Assign is set for NAME=value arguments of declare, local, export,
	// readonly and typeset, which are assignments (Parts is then empty).
	Assign *Assign
}

// Lit returns the word's text if it is one unquoted literal without
// backslashes, else "".
func (w *Word) Lit() string {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*Lit); ok && !l.Escapes {
			return l.Val
		}
	}
	return ""
}

// Part is a piece of a word.
type Part interface{ partNode() }

// Lit is literal text. Outside double quotes it is the source text, with
// backslash escapes still in it (Escapes says whether there are any); inside
// double quotes the escapes are already removed.
type Lit struct {
	Val     string
	Escapes bool
}

// SglQuoted is '...' or $'...' (Val decoded).
type SglQuoted struct {
	Val    string
	Dollar bool
}

// DblQuoted is "..." or $"...".
type DblQuoted struct {
	Parts  []Part
	Dollar bool
}

// ParamOp is the operator of a ${...} expansion.
type ParamOp uint8

const (
	OpNone        ParamOp = iota
	OpDefault             // - :-
	OpAssign              // = :=
	OpError               // ? :?
	OpAlt                 // + :+
	OpTrimPrefix          // #
	OpTrimPrefixL         // ##
	OpTrimSuffix          // %
	OpTrimSuffixL         // %%
	OpReplace             // /
	OpReplaceAll          // //
	OpReplacePre          // /#
	OpReplaceSuf          // /%
	OpUpperFirst          // ^
	OpUpperAll            // ^^
	OpLowerFirst          // ,
	OpLowerAll            // ,,
	OpTransform           // @X
	OpSubstr              // :off:len
	OpNamesStar           // ${!prefix*}
	OpNamesAt             // ${!prefix@}
	OpToggleFirst         // ~ (undocumented: swap case)
	OpToggleAll           // ~~
)

// ParamExp is $name or ${...}.
type ParamExp struct {
	Short     bool // $name
	Name      string
	Index     *Subscript
	Length    bool // ${#...}
	Indirect  bool // ${!...}
	Op        ParamOp
	Colon     bool  // :- := :? :+
	Arg       *Word // operand (pattern, default value...)
	Repl      *Word // replacement of / ops (nil: none)
	Off, Len  *Arith
	HasLen    bool
	Transform byte   // @Q etc.
	Bad       string // the text of a bad substitution (error when expanded)
}

// CmdSubst is $(...) or `...`.
type CmdSubst struct {
	Body      []*Stmt
	Backquote bool
	// Err: in a here-document's body, a $(...) that does not parse (bash
	// parses it only when the body is expanded, and fails that expansion).
	Err *Error
}

// ArithExp is $((...)) or $[...].
type ArithExp struct{ X *Arith }

// ProcSubst is <(...) or >(...).
type ProcSubst struct {
	Out  bool
	Body []*Stmt
}

func (*Lit) partNode()       {}
func (*SglQuoted) partNode() {}
func (*DblQuoted) partNode() {}
func (*ParamExp) partNode()  {}
func (*CmdSubst) partNode()  {}
func (*ArithExp) partNode()  {}
func (*ProcSubst) partNode() {}

// IsKeyword reports whether s is a bash reserved word.
func IsKeyword(s string) bool {
	switch s {
	case "if", "then", "elif", "else", "fi", "do", "done", "case", "esac", "while", "until",
		"for", "in", "select", "function", "time", "{", "}", "!", "[[", "]]", "coproc":
		return true
	}
	return false
}

// ValidName reports whether s is a shell variable name.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
