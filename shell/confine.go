package shell

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// confine rewrites the parts of a parsed script that mvdan.cc/sh would
// evaluate against the host, before the interpreter sees them:
//   - `$$` and `$PPID` (read from os.Getpid/os.Getppid) become our own
//     read-only variables;
//   - `<(cmd)` (a FIFO made in the host's temp dir) becomes a command
//     substitution that runs cmd into a file in the VFS /tmp and expands to
//     its path. cmd runs to completion before the outer command starts.
//   - `>(cmd)` has no such equivalent: it is refused with a clear error.
//   - an assignment statement (x=..., declare/local/export x=...) is followed
//     by a check of the variables' size (see limits.go): the interpreter keeps
//     them in the host process's memory, and `x=$x$x` in a loop would
//     otherwise grow until the process dies.
//
// Code parsed by the interpreter itself (eval, source) is confined too: see
// callHandler.
func confine(node syntax.Node) error {
	var err error
	jobs := map[*syntax.Stmt]bool{}    // background statements made by backgroundJob
	checked := map[*syntax.Stmt]bool{} // assignments already followed by their check
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background && !jobs[n] {
				jobs[backgroundJob(n)] = true
				return true // the pipeline, if any, is now inside
			}
			if names, ok := declareFNames(n); ok {
				n.Cmd = call(n.Position, append([]string{funcPrintCmd}, names...)...).Cmd
				return true
			}
			if names := assignedNames(n); len(names) > 0 && !checked[n] {
				checked[checkAssign(n, names)] = true
				return true
			}
			if b, ok := n.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
				recordPipeStatus(n, b)
				// Walk the stages ourselves: their pipes are part of this
				// pipeline, not new ones.
				for _, st := range pipeStages(b) {
					if e := confine(st); e != nil && err == nil {
						err = e
					}
				}
				return false
			}
		case *syntax.ParamExp:
			if n.Param != nil {
				switch n.Param.Value {
				case "$":
					n.Param.Value = pidVar
					n.Short = false
				case "PPID":
					n.Param.Value = ppidVar
				case "!":
					n.Param.Value = lastBgVar
					n.Short = false
				}
			}
		case *syntax.Word:
			for i, part := range n.Parts {
				ps, ok := part.(*syntax.ProcSubst)
				if !ok {
					continue
				}
				if ps.Op != syntax.CmdIn {
					if err == nil {
						err = fmt.Errorf("line %d: process substitution %s(...) is not supported; write to a file instead", ps.Pos().Line(), ps.Op)
					}
					continue
				}
				n.Parts[i] = procSubstIn(ps)
			}
		}
		return true
	})
	return err
}

// pipeStages flattens a pipeline `a | b | c` into its stage statements.
func pipeStages(n *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	for _, side := range []*syntax.Stmt{n.X, n.Y} {
		if b, ok := side.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !side.Negated && len(side.Redirs) == 0 {
			out = append(out, pipeStages(b)...)
		} else {
			out = append(out, side)
		}
	}
	return out
}

var pipelineIDs atomic.Int64

// recordPipeStatus sets PIPESTATUS, which mvdan.cc/sh does not keep, and
// counts a pipeline's stages as processes. The statement `a | b` becomes
//
//	{ { __wasmsand_enter && a; __wasmsand_ps ID 0 2; } | { __wasmsand_enter && b; __wasmsand_ps ID 1 2; }; __wasmsand_psdone ID; }
//
// enter fails (like fork) past the session's subshell limit; ps records a
// stage's status and frees its slot; psdone, after every stage ended, assigns
// PIPESTATUS. ps and psdone return $? unchanged, so the stages' and the
// pipeline's statuses, pipefail, `!` and $? are as before.
func recordPipeStatus(st *syntax.Stmt, pipe *syntax.BinaryCmd) {
	stages := pipeStages(pipe)
	id := strconv.FormatInt(pipelineIDs.Add(1), 10)
	count := strconv.Itoa(len(stages))
	for i, stage := range stages {
		inner := *stage
		wrapCounted(stage, &inner, call(stage.End(), pipeStatusCmd, id, strconv.Itoa(i), count))
	}
	inner := *st
	inner.Negated = false
	st.Redirs = nil
	st.Cmd = &syntax.Block{Lbrace: st.Position, Rbrace: st.End(),
		Stmts: []*syntax.Stmt{&inner, call(st.End(), pipeDoneCmd, id)}}
}

// backgroundJob makes `X &` a job we can list, wait for and kill (the
// interpreter's own jobs are goroutines without pids or handles):
//
//	{ __wasmsand_newjob 'X'; { __wasmsand_job=$__wasmsand_lastbg; ( __wasmsand_enter && X ); __wasmsand_jobdone; } & }
//
// newjob allocates the job's pid and sets $! in the launching shell; the job
// knows itself by __wasmsand_job (its copy of the variables); commands run in
// it get the job's context, and once it is killed its next command is
// `exit 143`, which ends the ( ) so jobdone still records the status.
func backgroundJob(st *syntax.Stmt) (job *syntax.Stmt) {
	inner := *st
	inner.Background = false
	inner.Coprocess = false
	var text bytes.Buffer
	_ = syntax.NewPrinter().Print(&text, &inner)
	pos := st.Position
	guarded := &syntax.Stmt{Position: pos, Cmd: &syntax.BinaryCmd{OpPos: pos, Op: syntax.AndStmt,
		X: call(pos, enterCmd), Y: &inner}}
	assign := &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Assigns: []*syntax.Assign{{
		Name:  &syntax.Lit{Value: jobVar},
		Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: lastBgVar}}}},
	}}}}
	job = &syntax.Stmt{Position: pos, Background: true, Cmd: &syntax.Block{Lbrace: pos, Rbrace: st.End(), Stmts: []*syntax.Stmt{
		assign,
		{Position: pos, Cmd: &syntax.Subshell{Lparen: pos, Rparen: st.End(), Stmts: []*syntax.Stmt{guarded}}},
		call(st.End(), jobDoneCmd),
	}}}
	*st = syntax.Stmt{Position: pos, Cmd: &syntax.Block{Lbrace: pos, Rbrace: st.End(), Stmts: []*syntax.Stmt{
		call(pos, newJobCmd, hex.EncodeToString(bytes.TrimSpace(text.Bytes()))), job,
	}}}
	return job
}

// assignedNames lists the variables a statement assigns for good: `x=...`
// alone (with a command, the assignment is only the command's environment)
// and declare/local/export/readonly/typeset.
func assignedNames(st *syntax.Stmt) []string {
	var assigns []*syntax.Assign
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			assigns = c.Assigns
		}
	case *syntax.DeclClause:
		assigns = c.Args
	}
	var names []string
	for _, a := range assigns {
		if a.Name != nil && !strings.HasPrefix(a.Name.Value, internalPrefix) {
			names = append(names, a.Name.Value)
		}
	}
	return names
}

// declareFNames recognises `declare -f [NAME...]` (and typeset), which our
// funcPrintCmd prints without the rewrites (unconfine.go).
func declareFNames(st *syntax.Stmt) ([]string, bool) {
	d, ok := st.Cmd.(*syntax.DeclClause)
	if !ok || (d.Variant.Value != "declare" && d.Variant.Value != "typeset") || len(d.Args) == 0 {
		return nil, false
	}
	if a := d.Args[0]; !a.Naked || a.Name != nil || a.Value == nil || a.Value.Lit() != "-f" {
		return nil, false
	}
	var names []string
	for _, a := range d.Args[1:] {
		if !a.Naked || a.Name == nil || a.Index != nil || a.Value != nil {
			return nil, false
		}
		names = append(names, a.Name.Value)
	}
	return names, true
}

// checkAssign turns st into `{ st; __wasmsand_vchk NAME...; }` and returns
// the inner st. The check keeps $? (and so errexit and ! behave as before).
func checkAssign(st *syntax.Stmt, names []string) *syntax.Stmt {
	inner := *st
	*st = syntax.Stmt{Position: inner.Position, Cmd: &syntax.Block{Lbrace: inner.Position, Rbrace: inner.End(),
		Stmts: []*syntax.Stmt{&inner, call(inner.End(), append([]string{varCheckCmd}, names...)...)}}}
	return &inner
}

// wrapCounted turns st into `{ __wasmsand_enter && inner; after; }`.
func wrapCounted(st, inner *syntax.Stmt, after *syntax.Stmt) {
	guarded := &syntax.Stmt{Position: inner.Position, Cmd: &syntax.BinaryCmd{OpPos: inner.Position, Op: syntax.AndStmt,
		X: call(inner.Position, enterCmd), Y: inner}}
	*st = syntax.Stmt{Position: inner.Position, Cmd: &syntax.Block{Lbrace: inner.Position, Rbrace: inner.End(),
		Stmts: []*syntax.Stmt{guarded, after}}}
}

func call(pos syntax.Pos, args ...string) *syntax.Stmt {
	words := make([]*syntax.Word, len(args))
	for i, a := range args {
		words[i] = lit(a)
	}
	return &syntax.Stmt{Position: pos, Cmd: &syntax.CallExpr{Args: words}}
}

func lit(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// procSubstTemplate is what `<(X)` becomes; X replaces the `:` in the block.
const procSubstTemplate = `__wasmsand_p=$(` + psubCmd + `) && { :; } >"$__wasmsand_p"; printf %s "$__wasmsand_p"`

func procSubstIn(ps *syntax.ProcSubst) *syntax.CmdSubst {
	f, err := syntax.NewParser().Parse(strings.NewReader(procSubstTemplate), "")
	if err != nil {
		panic("shell: bad process substitution template: " + err.Error())
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.Block); ok {
			b.Stmts = ps.Stmts
			return false
		}
		return true
	})
	return &syntax.CmdSubst{Left: ps.OpPos, Right: ps.Rparen, Stmts: f.Stmts}
}

// confineSource parses, confines and prints back a piece of shell code, for
// code that the interpreter parses itself (eval, source). On a parse error it
// returns the code unchanged and lets the interpreter report the error.
func confineSource(src, name string) (string, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err != nil {
		return src, nil
	}
	if err := confine(f); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := syntax.NewPrinter().Print(&buf, f); err != nil {
		return "", err
	}
	return buf.String(), nil
}
