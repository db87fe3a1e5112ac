package interp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// comsubSyntaxError reports a $(...) in a here-document that did not parse,
// as bash does when it expands the body; the command does not run.
func (r *Runner) comsubSyntaxError(se *syntax.Error) error {
	prefix := r.errPrefix() + ": command substitution: line " + strconv.Itoa(se.Line) + ": "
	r.stderr(prefix + se.Msg + "\n")
	if se.Text != "" {
		r.stderr(prefix + se.QuotedText() + "\n")
	}
	return &fatalError{quiet: true}
}

// cmdSubst runs $(...) in a subshell and returns its output without the
// trailing newlines.
func (r *Runner) cmdSubst(ctx context.Context, body []*syntax.Stmt) (string, error) {
	if name, ok := readFileSubst(body); ok {
		return r.readFileSubst(ctx, name)
	}
	if r.depth >= maxDepth {
		return "", &fatalError{msg: "maximum function nesting level exceeded (recursion too deep for the sandbox)"}
	}
	c, err := r.subshell()
	if err != nil {
		return "", &fatalError{msg: err.Error()}
	}
	out := &capture{limit: r.oneVarLimit()}
	c.fds.set(1, newOpenFile(nil, out, nil))
	if !r.shopt.inheritErrexit {
		c.opts.errexit = false
	}
	c.noErrexit = 0
	if r.noErrexit > 0 && !r.shopt.inheritErrexit {
		c.noErrexit = r.noErrexit
	}
	c.depth++
	c.traceNest++ // set -x marks it with one more PS4 character
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
	st := c.statusOf()
	c.finish()
	r.comsubStatus, r.hadComsub = st, true
	r.status = st
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if st != 0 { // maybe stopped by the run's end, which ctx.Err() may not show yet (see simple.go)
		if err := interrupt.Err(ctx); err != nil {
			return "", err
		}
	}
	return r.trimCapture(out.buf.Bytes()), nil
}

// trimCapture drops NUL bytes (with bash's warning) and trailing newlines.
func (r *Runner) trimCapture(b []byte) string {
	if bytes.IndexByte(b, 0) >= 0 {
		r.errmsg("warning: command substitution: ignored null byte in input")
		b = bytes.ReplaceAll(b, []byte{0}, nil)
	}
	for len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	return string(b)
}

// readFileSubst recognises $(< file).
func readFileSubst(body []*syntax.Stmt) (*syntax.Word, bool) {
	if len(body) != 1 || body[0].Async || len(body[0].Pipes) != 1 {
		return nil, false
	}
	pl := body[0].Pipes[0]
	if len(pl.Cmds) != 1 || pl.Negated || pl.Time {
		return nil, false
	}
	sc, ok := pl.Cmds[0].(*syntax.SimpleCmd)
	if !ok || len(sc.Words) > 0 || len(sc.Assigns) > 0 || len(sc.Redirs) != 1 {
		return nil, false
	}
	rd := sc.Redirs[0]
	if rd.Op != syntax.RedirIn || (rd.N != -1 && rd.N != 0) {
		return nil, false
	}
	return rd.Word, true
}

func (r *Runner) readFileSubst(ctx context.Context, w *syntax.Word) (string, error) {
	name, err := r.redirTarget(ctx, &syntax.Redirect{Word: w})
	if err != nil {
		return "", err
	}
	r.hadComsub = true
	f, err := r.openTarget(name, os.O_RDONLY, false)
	if err != nil {
		r.errmsg(err.Error())
		r.comsubStatus = 1
		r.status = 1
		return "", nil
	}
	defer f.drop()
	var buf bytes.Buffer
	tmp := make([]byte, 32<<10)
	for {
		n, err := f.Read(tmp)
		if buf.Len()+n > r.oneVarLimit() {
			break
		}
		buf.Write(tmp[:n])
		if err != nil || n == 0 {
			break
		}
	}
	r.comsubStatus = 0
	r.status = 0
	return r.trimCapture(buf.Bytes()), nil
}

var psubCount atomic.Int64

// psub is a process substitution waiting for its command to end.
type psub struct {
	fd    int       // the shell's fd /dev/fd/N names
	hold  *openFile // what the shell holds there
	wait  func()
	level int // the shell depth (functions, eval, source) that made it
}

// procSubst runs <(cmd) or >(cmd) and returns the /dev/fd/N path that
// reads its output or feeds its input, N being a fd of the shell (63 and
// down, as bash picks them) that programs of the command inherit.
// Natively the command runs alongside over a pipe; one after another
// (GOOS=js), <(cmd) runs first into a file and >(cmd) reads what was
// written when the command using it is done.
func (r *Runner) procSubst(ctx context.Context, p *syntax.ProcSubst) (string, error) {
	c, err := r.subshell()
	if err != nil {
		return "", &fatalError{msg: err.Error()}
	}
	// the others' fds are not this one's to hold: a >(cmd) would never
	// see end of file while a sibling kept its write end
	for _, ps := range r.psubs {
		if c.fds.get(ps.fd) == ps.hold {
			c.fds.set(ps.fd, nil)
		}
	}
	c.traceNest++
	fsys := r.cfg.FS
	// $! is its pid, and `wait $!` its status (as in bash), though jobs
	// does not list it
	if r.psubJobs == nil {
		r.psubJobs = newJobTable()
	}
	j := r.psubJobs.add(c.bashpid, "", nil)
	r.lastBg = c.bashpid
	psubs := r.psubJobs
	run := func() {
		defer func() {
			if p := recover(); p != nil {
				c.internalError(p)
			}
			st := c.statusOf()
			c.finish()
			psubs.done(j, st)
		}()
		c.runStmts(ctx, p.Body)
		c.runExitTrap(ctx)
	}
	fd := r.fds.highestFree(63)
	install := func(hold *openFile, wait func()) string {
		r.fds.set(fd, hold)
		r.psubs = append(r.psubs, psub{fd: fd, hold: hold, level: r.depth, wait: func() {
			if r.fds.get(fd) == hold {
				r.fds.set(fd, nil)
			}
			wait()
		}})
		return "/dev/fd/" + strconv.Itoa(fd)
	}
	if r.cfg.Sequential {
		path := fmt.Sprintf("/tmp/.wasmsand-psub-%d-%d", r.pid, psubCount.Add(1))
		fail := func(err error) (string, error) {
			c.finish()
			_ = fsys.Remove(path)
			return "", &fatalError{msg: "process substitution: " + Strerror(errnoOf(err))}
		}
		if !p.Out {
			vf, err := fsys.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				return fail(err)
			}
			c.fds.set(1, newOpenFile(nil, vf, vf))
			run()
			rf, err := fsys.OpenFile(path, os.O_RDONLY, 0)
			if err != nil {
				return fail(err)
			}
			return install(newOpenFile(rf, nil, rf), func() { _ = fsys.Remove(path) }), nil
		}
		wf, err := fsys.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return fail(err)
		}
		return install(newOpenFile(nil, wf, wf), func() {
			if vf, err := fsys.OpenFile(path, os.O_RDONLY, 0); err == nil {
				c.fds.set(0, newOpenFile(vf, nil, vf))
			}
			run()
			_ = fsys.Remove(path)
		}), nil
	}
	pr, pw := vfs.Pipe(psubPipeSize)
	var hold *openFile
	if p.Out {
		c.fds.set(0, newOpenFile(pr, nil, pr))
		hold = newOpenFile(nil, pw, pw)
	} else {
		c.fds.set(1, newOpenFile(nil, pw, pw))
		hold = newOpenFile(pr, nil, pr)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		run()
	}()
	// the shell letting go of its end is what ends the other side: end of
	// file for >(cmd), a broken pipe for an unread <(cmd)
	return install(hold, wg.Wait), nil
}

// psubPipeSize is a process substitution's pipe buffer (Linux's).
const psubPipeSize = 64 << 10

// finishPsubs waits for the process substitutions of a finished command.
func (r *Runner) finishPsubs() { r.finishPsubsFrom(0) }

// finishPsubsFrom finishes those made at function-call depth level or
// deeper: a function's commands leave alone those of its own call's
// arguments, which last until the call ends (as bash keeps them).
func (r *Runner) finishPsubsFrom(level int) {
	var keep, done []psub
	for _, p := range r.psubs {
		if p.level >= level {
			done = append(done, p)
		} else {
			keep = append(keep, p)
		}
	}
	r.psubs = keep
	for _, p := range done {
		p.wait()
	}
}
