package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/shell/arith"
	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// maxDepth bounds function calls, eval, source and nested substitutions:
// unbounded, `f() { f; }; f` would grow the Go stack until the process
// dies. bash itself segfaults a few thousand levels down.
const maxDepth = 2500

func (r *Runner) runStmts(ctx context.Context, stmts []*syntax.Stmt) {
	for _, st := range stmts {
		if r.flow != flowNone {
			return
		}
		if r.opts.noexec && !r.interactive {
			return // set -n: read on, run nothing
		}
		if len(r.coprocs) > 0 {
			r.reapCoprocs()
		}
		if r.checkCtx(ctx) {
			return
		}
		r.runStmt(ctx, st)
		if len(r.psubs) > 0 {
			r.finishPsubsFrom(r.depth)
		}
		if r.sig.pending() {
			r.handleSignals(ctx)
		}
	}
}

func (r *Runner) runStmt(ctx context.Context, st *syntax.Stmt) {
	if st.Async {
		r.runAsync(ctx, st)
		return
	}
	r.runAndOr(ctx, st)
}

func (r *Runner) runAndOr(ctx context.Context, st *syntax.Stmt) {
	for i, pl := range st.Pipes {
		if i > 0 {
			op := st.Ops[i-1]
			if (op == syntax.AndThen) != (r.status == 0) {
				continue
			}
		}
		last := i == len(st.Pipes)-1
		if !last {
			r.noErrexit++
		}
		r.runPipeline(ctx, pl)
		if r.status >= 124 && interrupt.Ended(ctx) {
			r.stop(ctx) // a subshell or program stopped by the run's end (see simple.go)
		}
		if !last {
			r.noErrexit--
		}
		if r.flow != flowNone {
			return
		}
	}
}

func (r *Runner) runPipeline(ctx context.Context, pl *syntax.Pipeline) {
	var start time.Time
	if pl.Time {
		start = r.cfg.Now()
	}
	if pl.Negated {
		r.noErrexit++
	}
	switch len(pl.Cmds) {
	case 0:
		r.status = 0
	case 1:
		if sub, ok := pl.Cmds[0].(*syntax.Subshell); ok && pl.Time && len(sub.Redirs) > 0 {
			// bash reports the time of a redirected subshell from inside
			// it, through its redirections
			r.timeInSubshell = &timeReport{start: start, posix: pl.TimePosix}
		}
		r.runCommand(ctx, pl.Cmds[0])
		if _, simple := pl.Cmds[0].(*syntax.SimpleCmd); simple || true {
			r.pipeStatus = append(r.pipeStatus[:0], r.status)
		}
	default:
		r.runMultiPipeline(ctx, pl)
	}
	if pl.Negated {
		r.noErrexit--
		if r.flow == flowNone || r.flow == flowReturn {
			if r.status == 0 {
				r.status = 1
			} else {
				r.status = 0
			}
		}
	} else if len(pl.Cmds) > 1 && r.flow == flowNone {
		r.afterCommand(ctx, r.status)
	}
	if pl.Time && r.timeInSubshell == nil {
		r.printTime(pl.TimePosix, r.cfg.Now().Sub(start))
	}
	r.timeInSubshell = nil
}

// timeReport is a `time` whose report a subshell prints.
type timeReport struct {
	start time.Time
	posix bool
}

// printTime writes the `time` report (TIMEFORMAT's default).
func (r *Runner) printTime(posix bool, d time.Duration) {
	secs := d.Seconds()
	if posix {
		r.stderr(fmt.Sprintf("real %.2f\nuser %.2f\nsys %.2f\n", secs, 0.0, 0.0))
		return
	}
	tf, ok := r.getVar("TIMEFORMAT")
	if !ok {
		tf = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	}
	if tf == "" {
		return
	}
	r.stderr(timeFormat(tf, secs, 0, 0) + "\n")
}

// timeFormat expands TIMEFORMAT: %[p][l]R|U|S (p digits after the point,
// at most 3; l for MmS.FFFs), %P (CPU percentage), %%.
func timeFormat(tf string, real, user, sys float64) string {
	var b strings.Builder
	for i := 0; i < len(tf); i++ {
		if tf[i] != '%' || i+1 >= len(tf) {
			b.WriteByte(tf[i])
			continue
		}
		j := i + 1
		prec, long := 3, false
		if tf[j] >= '0' && tf[j] <= '9' {
			prec = min(int(tf[j]-'0'), 3)
			j++
		}
		if j < len(tf) && tf[j] == 'l' {
			long = true
			j++
		}
		if j >= len(tf) {
			b.WriteString(tf[i:])
			break
		}
		var v float64
		switch tf[j] {
		case '%':
			b.WriteByte('%')
			i = j
			continue
		case 'P':
			pct := 0.0
			if real > 0 {
				pct = (user + sys) * 100 / real
			}
			fmt.Fprintf(&b, "%.2f", pct)
			i = j
			continue
		case 'R':
			v = real
		case 'U':
			v = user
		case 'S':
			v = sys
		default:
			b.WriteString(tf[i : j+1])
			i = j
			continue
		}
		// bash truncates, it does not round
		scale := math.Pow10(prec)
		v = math.Floor(v*scale) / scale
		if long {
			m := int(v) / 60
			fmt.Fprintf(&b, "%dm%.*fs", m, prec, v-float64(m*60))
		} else {
			fmt.Fprintf(&b, "%.*f", prec, v)
		}
		i = j
	}
	return b.String()
}

// statusOf is a finished subshell's status.
func (c *Runner) statusOf() int {
	if c.flow == flowExit {
		return c.exitStatus
	}
	return c.status
}

// subshell makes a child shell with its own pid, or reports a failed fork.
func (r *Runner) subshell() (*Runner, error) { return r.subshellAs(nil) }

// subshellAs is subshell whose process shows argv (nil: the shell's own).
func (r *Runner) subshellAs(argv []string) (*Runner, error) {
	if r.live.Add(1) > int64(r.cfg.MaxSubshells) {
		r.live.Add(-1)
		return nil, errFork
	}
	pid, release, err := r.cfg.NewPid(r.bashpid, argv)
	if err != nil {
		r.live.Add(-1)
		return nil, errFork
	}
	c := r.clone()
	c.bashpid = pid
	live := r.live
	parentSig, chld := r.sig, r.chldTrapped()
	c.release = func() {
		release()
		live.Add(-1)
		if chld {
			parentSig.send(sigCHLD) // (the parent's SIGCHLD trap runs)
		}
	}
	return c, nil
}

// chldTrapped: a SIGCHLD trap is set, which runs whenever a child of the
// shell (a program, a subshell, a pipeline stage) ends.
func (r *Runner) chldTrapped() bool {
	t, ok := r.traps.get("CHLD")
	return ok && t != ""
}

var errFork = errors.New("fork: retry: Resource temporarily unavailable")

// pipeBuffer is the capacity of a pipe between stages that run one after
// another (Config.Sequential).
const pipeBuffer = 64 << 20

func (r *Runner) runMultiPipeline(ctx context.Context, pl *syntax.Pipeline) {
	if pl.Line > 0 {
		defer func(l int) { r.line = l }(pl.Line) // (an ERR trap after it sees its line: the stages ran in children)
	}
	n := len(pl.Cmds)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	var prev *openFile // read end of the previous stage's pipe
	lastInShell := r.shopt.lastpipe && !r.opts.monitor
	var savedIn *openFile
	for i, cmd := range pl.Cmds {
		last := i == n-1
		var child *Runner
		if last && lastInShell {
			child = r
			if prev != nil {
				savedIn = r.fds.swap(0, prev)
				prev = nil
			}
		} else {
			c, err := r.subshell()
			if err != nil {
				r.errorf("%v", err)
				statuses[i] = 254
				prev.drop()
				prev = nil
				if !last && !r.cfg.Sequential {
					// the next stage reads nothing
				}
				continue
			}
			child = c
			if prev != nil {
				child.fds.set(0, prev)
				child.stdinRedirected++ // (a background job in it reads the pipe)
				prev = nil
			}
		}
		var buf *boundedBuffer
		if !last {
			if r.cfg.Sequential {
				buf = &boundedBuffer{limit: pipeBuffer}
				w := newOpenFile(nil, buf, buf)
				if pl.PipeErr[i] {
					child.fds.set(2, w.hold())
				}
				child.fds.set(1, w)
			} else {
				pr, pw := vfs.Pipe(0)
				w := newOpenFile(nil, pw, pw)
				if pl.PipeErr[i] {
					child.fds.set(2, w.hold())
				}
				child.fds.set(1, w)
				prev = newOpenFile(pr, nil, pr)
			}
		}
		if child == r {
			r.runCommand(ctx, cmd)
			statuses[i] = r.status
			if r.flow == flowExit {
				statuses[i] = r.exitStatus
			}
			continue
		}
		run := func(i int, child *Runner, cmd syntax.Command) {
			defer func() {
				if p := recover(); p != nil {
					child.internalError(p)
					statuses[i] = 1
				}
				child.finish()
			}()
			child.runCommand(ctx, cmd)
			child.runExitTrap(ctx)
			statuses[i] = child.statusOf()
		}
		if r.cfg.Sequential {
			run(i, child, cmd)
			if buf != nil {
				prev = newOpenFile(buf, nil, buf)
			}
			continue
		}
		wg.Add(1)
		go func(i int, child *Runner, cmd syntax.Command) {
			defer wg.Done()
			run(i, child, cmd)
		}(i, child, cmd)
	}
	prev.drop()
	wg.Wait()
	if savedIn != nil {
		r.fds.set(0, savedIn)
	}
	r.pipeStatus = statuses
	st := statuses[n-1]
	if r.opts.pipefail {
		for i := n - 1; i >= 0; i-- {
			if statuses[i] != 0 {
				st = statuses[i]
				break
			}
		}
	}
	if r.flow == flowNone || !lastInShell {
		r.status = st
	}
}

// runCommand runs one command with its redirections.
func (r *Runner) runCommand(ctx context.Context, cmd syntax.Command) {
	if sc, ok := cmd.(*syntax.SimpleCmd); ok {
		r.runSimple(ctx, sc)
		return
	}
	base := cmd.Base()
	r.line = base.Line
	if fd, ok := cmd.(*syntax.FuncDef); ok {
		r.defineFunc(fd)
		return
	}
	if len(base.Redirs) > 0 {
		restore, err := r.redirect(ctx, base.Redirs, false)
		if err != nil {
			r.redirError(err)
			return
		}
		defer restore()
		if redirectsStdin(base.Redirs) {
			// (a background job in it keeps this stdin, not /dev/null)
			r.stdinRedirected++
			defer func() { r.stdinRedirected-- }()
		}
	}
	switch c := cmd.(type) {
	case *syntax.Block:
		r.runStmts(ctx, c.Body)
	case *syntax.Subshell:
		tr := r.timeInSubshell
		r.timeInSubshell = nil
		r.runSubshell(ctx, c.Body)
		if tr != nil {
			r.printTime(tr.posix, r.cfg.Now().Sub(tr.start))
			r.timeInSubshell = tr // printed: the pipeline does not again
		}
		if r.flow == flowNone {
			r.afterCommand(ctx, r.status)
		}
	case *syntax.If:
		r.runIf(ctx, c)
	case *syntax.While:
		r.runWhile(ctx, c)
	case *syntax.For:
		r.runFor(ctx, c)
	case *syntax.ArithFor:
		r.runArithFor(ctx, c)
	case *syntax.Case:
		r.runCase(ctx, c)
	case *syntax.ArithCmd:
		r.runArithCmd(ctx, c)
	case *syntax.CondCmd:
		r.runCond(ctx, c)
	case *syntax.Coproc:
		r.runCoproc(ctx, c)
	}
}

// runSubshell runs code in a child shell: nothing it changes stays.
func (r *Runner) runSubshell(ctx context.Context, body []*syntax.Stmt) {
	c, err := r.subshell()
	if err != nil {
		r.errorf("%v", err)
		r.status = 254
		return
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				c.internalError(p)
				c.status = 1
			}
		}()
		c.runStmts(ctx, body)
		c.runExitTrap(ctx)
	}()
	r.status = c.statusOf()
	c.finish()
}

func (r *Runner) runIf(ctx context.Context, c *syntax.If) {
	for i, cond := range c.Conds {
		r.noErrexit++
		r.runStmts(ctx, cond)
		r.noErrexit--
		if r.flow != flowNone {
			return
		}
		if r.status == 0 {
			r.runStmts(ctx, c.Thens[i])
			return
		}
	}
	if c.IsElse {
		r.runStmts(ctx, c.Else)
		return
	}
	r.status = 0
}

// loopFlow handles break/continue at the end of a loop iteration; it
// reports whether the loop must stop.
func (r *Runner) loopFlow() bool {
	switch r.flow {
	case flowBreak:
		if r.flowN > 1 {
			r.flowN--
		} else {
			r.flow = flowNone
		}
		return true
	case flowContinue:
		if r.flowN > 1 {
			r.flowN--
			r.flow = flowContinue
			return true
		}
		r.flow = flowNone
		return false
	case flowNone:
		return false
	}
	return true
}

func (r *Runner) runWhile(ctx context.Context, c *syntax.While) {
	r.loops++
	defer func() { r.loops-- }()
	status := 0
	for {
		if r.checkCtx(ctx) {
			return
		}
		r.noErrexit++
		r.runStmts(ctx, c.Cond)
		r.noErrexit--
		if r.flow != flowNone {
			if r.loopFlow() {
				break
			}
			continue
		}
		if (r.status == 0) == c.Until {
			break
		}
		r.runStmts(ctx, c.Body)
		status = r.status
		if r.loopFlow() {
			break
		}
	}
	if r.flow == flowNone {
		r.status = status
	}
}

// forText is a for or select command's head, as BASH_COMMAND shows it.
func forText(c *syntax.For) string {
	kw := "for "
	if c.Select {
		kw = "select "
	}
	s := kw + c.Name
	if c.In {
		s += " in"
		for _, w := range c.Words {
			s += " " + w.Raw
		}
	}
	return s
}

func (r *Runner) runFor(ctx context.Context, c *syntax.For) {
	var items []string
	if c.In {
		var err error
		items, err = r.expandArgs(ctx, c.Words)
		if err != nil {
			r.expansionError(err)
			return
		}
	} else {
		items = append([]string(nil), r.params...)
	}
	if !syntax.ValidName(c.Name) {
		r.errorf("`%s': not a valid identifier", c.Name)
		r.status = 1
		if !r.interactive && r.opts.posix {
			r.exit(2) // (bash goes on, status 1, unless POSIX)
		}
		return
	}
	if c.Select {
		if r.debugCompound(ctx, forText(c)) {
			return
		}
		r.runSelect(ctx, c, items)
		return
	}
	r.loops++
	defer func() { r.loops-- }()
	status := 0
	ref := r.vars.m[c.Name]
	isRef := ref != nil && ref.attrs&attrNameref != 0
	var text string
	for _, it := range items {
		if r.checkCtx(ctx) {
			return
		}
		if t, ok := r.traps.get("DEBUG"); ok && t != "" {
			if text == "" {
				text = forText(c)
			}
			if r.debugCompound(ctx, text) {
				return
			}
		}
		if r.opts.xtrace {
			words := make([]string, len(items))
			for i, w := range items {
				words[i] = expand.QuoteXtrace(w)
			}
			r.traceLine(ctx, "for "+c.Name+" in "+strings.Join(words, " "))
		}
		if isRef {
			// a nameref loop variable refers to each word in turn
			if v := r.mutVars()[c.Name]; v != nil {
				v.str, v.set = it, true
			}
		} else if err := r.setVar(c.Name, it, 0); err != nil {
			r.errorf("%v", err)
			r.status = 1
			return
		}
		r.runStmts(ctx, c.Body)
		status = r.status
		if r.loopFlow() {
			break
		}
	}
	if r.flow == flowNone {
		r.status = status
	}
}

func (r *Runner) runArithFor(ctx context.Context, c *syntax.ArithFor) {
	r.loops++
	defer func() { r.loops-- }()
	eval := func(a *syntax.Arith) (int64, bool) {
		if a == nil {
			return 1, true
		}
		if r.debugCompound(ctx, "(("+strings.TrimSpace(a.Src)+"))") {
			return 0, false
		}
		if r.opts.xtrace {
			// (bash shows each part as written, trailing blanks and all)
			if s, err := r.expandQuoted(ctx, a.W); err == nil {
				r.traceLine(ctx, "(( "+strings.TrimLeft(s, " \t\n")+" ))")
			}
		}
		n, err := r.evalArith(ctx, a)
		if err != nil {
			r.arithCmdError(err)
			return 0, false
		}
		return n, true
	}
	status := 0
	if c.Init != nil {
		if _, ok := eval(c.Init); !ok {
			return
		}
	}
	for {
		if r.checkCtx(ctx) {
			return
		}
		n, ok := eval(c.Cond)
		if !ok {
			return
		}
		if n == 0 {
			break
		}
		r.runStmts(ctx, c.Body)
		status = r.status
		if r.loopFlow() {
			break
		}
		if c.Post != nil {
			if _, ok := eval(c.Post); !ok {
				return
			}
		}
	}
	if r.flow == flowNone {
		r.status = status
	}
}

func (r *Runner) runCase(ctx context.Context, c *syntax.Case) {
	if r.debugCompound(ctx, "case "+c.Word.Raw+" in ") {
		return
	}
	word, err := r.expandString(ctx, c.Word, ctxNoSplit)
	if err != nil {
		r.expansionError(err)
		return
	}
	r.traceLine(ctx, "case "+expand.QuoteXtrace(word)+" in")
	r.status = 0
	flags := r.patFlags()
	if r.shopt.nocasematch {
		flags |= pattern.NoCase
	}
	fallthru := false
	for i := 0; i < len(c.Items); i++ {
		it := c.Items[i]
		matched := fallthru
		if !matched {
			for _, pw := range it.Patterns {
				pat, err := r.expandPattern(ctx, pw, false)
				if err != nil {
					r.expansionError(err)
					return
				}
				if pattern.Compile(pat, flags).Match(word) {
					matched = true
					break
				}
			}
		}
		if !matched {
			continue
		}
		r.runStmts(ctx, it.Body)
		if len(it.Body) == 0 {
			r.status = 0
		}
		if r.flow != flowNone {
			return
		}
		switch it.Term {
		case syntax.CaseFall:
			fallthru = true
		case syntax.CaseContinue:
			fallthru = false
		default:
			return
		}
	}
}

func (r *Runner) runArithCmd(ctx context.Context, c *syntax.ArithCmd) {
	if r.debugCompound(ctx, "(( "+strings.TrimSpace(c.X.Src)+" ))") {
		return
	}
	r.traceArith(ctx, c.X)
	n, err := r.evalArith(ctx, c.X)
	if err != nil {
		r.arithCmdError(err)
		return
	}
	if n != 0 {
		r.status = 0
	} else {
		r.status = 1
	}
	r.afterCommand(ctx, r.status)
}

// arithCmdError reports an arithmetic error of (( )) or a for (( )) loop:
// the command fails (status 1) without ending the shell.
func (r *Runner) arithCmdError(err error) {
	var fe *fatalError
	if errors.As(err, &fe) && strings.Contains(fe.msg, "(error token is") {
		r.errmsg("((: " + fe.msg)
		r.status = 1
		return
	}
	r.expansionError(err)
}

// expansionError reports an error found while expanding a command: fatal
// ones end a non-interactive shell, others fail the command.
func (r *Runner) expansionError(err error) {
	var fe *fatalError
	var ge *globError
	var ve *varError
	switch {
	case errors.As(err, &fe):
		r.fatal(fe, 1)
	case errors.As(err, &ge):
		r.fatal(&fatalError{msg: ge.msg}, 1)
	case errors.As(err, &ve):
		r.errmsg(ve.msg)
		r.status = 1
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		r.exit(124)
	default:
		var ae *arith.Error
		if errors.As(err, &ae) {
			r.fatal(ae, 1)
			return
		}
		r.errmsg(err.Error())
		r.status = 1
	}
}

// afterCommand applies set -e and the ERR trap to a command's status.
func (r *Runner) afterCommand(ctx context.Context, status int) {
	if status == 0 || r.noErrexit > 0 || r.flow != flowNone {
		return
	}
	if t, ok := r.traps.get("ERR"); ok && t != "" && (len(r.frames) == 0 || r.opts.errtrace || r.shopt.extdebug) && r.inTrap == 0 {
		r.runTrap(ctx, "ERR", t)
		r.status = status
	}
	if r.opts.errexit && r.flow == flowNone {
		r.exit(status)
	}
}

// redirectsStdin: one of rs is an input redirection of fd 0.
func redirectsStdin(rs []*syntax.Redirect) bool {
	for _, rd := range rs {
		switch rd.Op {
		case syntax.RedirIn, syntax.RedirInOut, syntax.RedirDupIn, syntax.RedirHeredoc, syntax.RedirHerestr:
			if rd.N <= 0 {
				return true
			}
		}
	}
	return false
}

// execArgv is what a background job that is one simple command running a
// program shows in the process table from its start, as bash's child has
// exec'd it by the time the shell goes on: its words, when all are plain
// text and the first names no function, builtin or alias; else nil.
func (r *Runner) execArgv(st *syntax.Stmt) []string {
	c, ok := loneCommand(st).(*syntax.SimpleCmd)
	if !ok || len(c.Words) == 0 {
		return nil
	}
	var argv []string
	for _, w := range c.Words {
		if !pureWord(w.Parts) {
			return nil
		}
		ws, err := r.expandWordFields(context.Background(), w)
		if err != nil {
			return nil
		}
		argv = append(argv, ws...)
	}
	if len(argv) == 0 {
		return nil
	}
	if k := r.kindOf(argv[0], false); len(k) > 0 && k[0] != "file" {
		return nil
	}
	if t, ok := r.traps.get("EXIT"); ok && t != "" {
		return nil // (the job's shell stays to run it)
	}
	return argv
}

// loneCommand is st's one command when that is all st is (no pipe, list,
// ! or time), else nil.
func loneCommand(st *syntax.Stmt) syntax.Command {
	if len(st.Pipes) != 1 || len(st.Pipes[0].Cmds) != 1 || st.Pipes[0].Negated || st.Pipes[0].Time {
		return nil
	}
	return st.Pipes[0].Cmds[0]
}

// pureWord: expanding parts changes nothing (text, quotes, plain $x), so the
// shell may expand them ahead of the job that will.
func pureWord(parts []syntax.Part) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !pureWord(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if p.Op != syntax.OpNone || p.Indirect || p.Length || p.Index != nil || p.Bad != "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// runAsync starts a background job.
func (r *Runner) runAsync(ctx context.Context, st *syntax.Stmt) {
	c, err := r.subshellAs(r.execArgv(st))
	if err != nil {
		// bash retries the fork; here the job just does not start
		r.errorf("%v", err)
		r.status = 0
		return
	}
	jctx, cancel := context.WithCancelCause(ctx)
	j := r.jobs.add(c.bashpid, syntax.CommandString([]*syntax.Stmt{{Pipes: st.Pipes, Ops: st.Ops}}), cancel)
	for _, n := range r.ignoredSignals() {
		if j.ignored == nil {
			j.ignored = map[int]bool{}
		}
		j.ignored[n] = true
	}
	c.noErrexit = 0
	if !r.opts.monitor && r.stdinRedirected == 0 {
		// a background job's stdin is /dev/null unless redirected (by
		// its own redirections, or a compound command's around it)
		if null, err := r.cfg.FS.OpenFile("/dev/null", 0, 0); err == nil {
			c.fds.set(0, newOpenFile(null, nil, null))
		}
	}
	r.lastBg = c.bashpid
	r.status = 0
	run := func() {
		defer func() {
			if p := recover(); p != nil {
				c.internalError(p)
				c.status = 1
			}
			st := c.statusOf()
			if errors.Is(context.Cause(jctx), errKilled) {
				st = j.killStatus()
			}
			c.finish()
			r.jobs.done(j, st)
			cancel(nil)
		}()
		if _, simple := loneCommand(st).(*syntax.SimpleCmd); simple {
			if t, ok := c.traps.get("EXIT"); !ok || t == "" {
				c.execPid, c.execPPid = c.bashpid, r.bashpid
			}
		}
		if sub, ok := loneCommand(st).(*syntax.Subshell); ok {
			// ( a; b ) &: the job's own shell runs the list, one process
			// as bash's (not a subshell inside the job's)
			c.runCommand(jctx, &syntax.Block{CmdBase: sub.CmdBase, Body: sub.Body})
		} else {
			c.runAndOr(jctx, &syntax.Stmt{Pipes: st.Pipes, Ops: st.Ops, Line: st.Line})
		}
		c.runExitTrap(jctx)
	}
	if r.cfg.Sequential {
		run()
		return
	}
	go run()
}

// coproc remembers a coprocess's fds, which its NAME array shows.
type coproc struct {
	lazy  bool // runs on first read (Config.Sequential, BatchedPrograms)
	name  string
	fds   [2]int
	files [2]*openFile
	job   *job
}

// reapCoprocs forgets the coprocesses that have ended, as bash does when
// it reaps one: their fds close, NAME and NAME_PID are unset.
func (r *Runner) reapCoprocs() {
	keep := r.coprocs[:0]
	for _, cp := range r.coprocs {
		// a coprocess run on first read (lazy) ended before its time: it
		// stays until the shell closes its input or waits for it, as a
		// real one would still be reading
		early := cp.lazy && !cp.job.waited && cp.fds[1] >= 0 && r.fds.get(cp.fds[1]) == cp.files[1]
		if !cp.job.isDone() || early {
			keep = append(keep, cp)
			continue
		}
		for k := 0; k < 2; k++ {
			if cp.fds[k] >= 0 && r.fds.get(cp.fds[k]) == cp.files[k] {
				r.fds.set(cp.fds[k], nil)
			}
		}
		_ = r.unsetVar(cp.name, false)
		_ = r.unsetVar(cp.name+"_PID", false)
	}
	r.coprocs = keep
}

// syncCoprocs marks -1 in NAME the coprocess fds that were closed or moved
// (exec 3<&${COPROC[0]}-), as bash does.
func (r *Runner) syncCoprocs() {
	for i := range r.coprocs {
		cp := &r.coprocs[i]
		for k := 0; k < 2; k++ {
			if cp.fds[k] >= 0 && r.fds.get(cp.fds[k]) != cp.files[k] {
				cp.fds[k] = -1
				_ = r.setVar(cp.name+"["+itoa(k)+"]", "-1", 0)
			}
		}
	}
}

// runCoproc runs a coprocess: a background job with pipes to and from it.
func (r *Runner) runCoproc(ctx context.Context, c *syntax.Coproc) {
	r.reapCoprocs()
	child, err := r.subshell()
	if err != nil {
		r.errorf("%v", err)
		r.status = 254
		return
	}
	lazy := r.cfg.Sequential || r.cfg.BatchedPrograms
	size := 0
	if lazy {
		size = seqCoprocPipe
	}
	inR, inW := vfs.Pipe(size)
	outR, outW := vfs.Pipe(size)
	var childIn io.Reader = inR
	var shellOut io.Reader = outR
	var start func()
	if lazy {
		// Nothing runs beside the shell here: the coprocess runs when the
		// shell first reads what it writes (or waits for it), on what the
		// shell wrote to it by then, then end of file.
		childIn = vfs.NonBlocking(inR)
		shellOut = startOnRead{outR, func() { start() }}
	}
	child.fds.set(0, newOpenFile(childIn, nil, inR))
	child.fds.set(1, newOpenFile(nil, outW, outW))
	// bash's places: the read end at 63, the write end at 60 (or the
	// highest free below)
	readFd := r.fds.highestFree(63)
	rf := newOpenFile(shellOut, nil, outR)
	r.fds.set(readFd, rf)
	writeFd := r.fds.highestFree(60)
	wf := newOpenFile(nil, inW, inW)
	r.fds.set(writeFd, wf)
	_ = r.setArray(c.Name, []string{itoa(readFd), itoa(writeFd)}, 0)
	cp := coproc{lazy: lazy, name: c.Name, fds: [2]int{readFd, writeFd}, files: [2]*openFile{rf, wf}}
	_ = r.setVar(c.Name+"_PID", itoa(child.bashpid), 0)
	jctx, cancel := context.WithCancelCause(ctx)
	// killed, the coprocess also loses its ends of the pipes: a program
	// blocked reading or writing them stops as a signal would stop it
	kill := func(err error) {
		cancel(err)
		_ = inR.Close()
		_ = outW.Close()
	}
	j := r.jobs.add(child.bashpid, "coproc "+c.Name, kill)
	cp.job = j
	r.coprocs = append(r.coprocs, cp)
	r.lastBg = child.bashpid
	run := func() {
		defer func() {
			if p := recover(); p != nil {
				child.internalError(p)
			}
			st := child.statusOf()
			child.finish()
			r.jobs.done(j, st)
			cancel(nil)
		}()
		child.runCommand(jctx, c.Cmd)
	}
	if lazy {
		start = sync.OnceFunc(run)
		j.start = start
	} else {
		go run()
	}
	r.status = 0
}

// seqCoprocPipe is a coprocess's pipe size where it runs only once the
// shell reads from it (Config.Sequential, BatchedPrograms): what the shell
// writes first must fit, and so must what the coprocess answers.
const seqCoprocPipe = 16 << 20

// startOnRead runs start before the first read.
type startOnRead struct {
	r     io.Reader
	start func()
}

func (s startOnRead) Read(b []byte) (int, error) {
	s.start()
	return s.r.Read(b)
}

// runSelect is select NAME in WORDS: a numbered menu on stderr, choices
// read from stdin until break or end of input.
func (r *Runner) runSelect(ctx context.Context, c *syntax.For, items []string) {
	if len(items) == 0 {
		r.status = 0
		return
	}
	r.loops++
	defer func() { r.loops-- }()
	status := 0
	for {
		if r.checkCtx(ctx) {
			return
		}
		var menu strings.Builder
		for i, it := range items {
			fmt.Fprintf(&menu, "%d) %s\n", i+1, it)
		}
		r.stderr(menu.String())
		ps3, ok := r.getVar("PS3")
		if !ok {
			ps3 = "#? "
		}
		r.stderr(ps3)
		line, eof := r.readLine(0)
		if eof && line == "" {
			// end of input: bash ends the menu's line on stdout, status 1
			if f := r.fds.get(1); f != nil {
				_, _ = f.WriteString("\n")
			}
			status = 1
			break
		}
		_ = r.setVar("REPLY", line, 0)
		choice := ""
		if n, ok := plainInt(strings.TrimSpace(line)); ok && n >= 1 && n <= int64(len(items)) {
			choice = items[n-1]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		_ = r.setVar(c.Name, choice, 0)
		r.runStmts(ctx, c.Body)
		status = r.status
		if r.loopFlow() {
			break
		}
	}
	if r.flow == flowNone {
		r.status = status
	}
}

// readLine reads a line (without its newline) from fd for select.
func (r *Runner) readLine(fd int) (string, bool) {
	f := r.fds.get(fd)
	if f == nil {
		return "", true
	}
	var b strings.Builder
	for {
		c, err := f.readByte()
		if err != nil {
			return b.String(), true
		}
		if c == '\n' {
			return b.String(), false
		}
		b.WriteByte(c)
	}
}

// redirError reports a failed redirection: the command does not run.
func (r *Runner) redirError(err error) {
	var fe *fatalError
	if errors.As(err, &fe) {
		r.fatal(fe, 1)
		return
	}
	if re, ok := err.(*redirErr); !ok || !re.reported {
		r.errmsg(err.Error())
	}
	r.status = 1
}

// runExitTrap runs the EXIT trap once, when a shell ends.
func (r *Runner) runExitTrap(ctx context.Context) {
	t, ok := r.traps.get("EXIT")
	if !ok || t == "" {
		return
	}
	r.traps = r.traps.writable()
	r.traps.unset("EXIT")
	st := r.statusOf()
	flow, es := r.flow, r.exitStatus
	r.flow = flowNone
	r.status = st
	r.runTrap(ctx, "EXIT", t)
	if r.flow == flowExit {
		return // exit in the trap sets the status
	}
	r.flow, r.exitStatus = flow, es
	r.status = st
}

// fileExists is test -e.
func (r *Runner) fileExists(p string) bool {
	_, err := r.stat(p)
	return err == nil
}

var _ = io.EOF
var _ = syscall.EPIPE
