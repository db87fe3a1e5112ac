package interp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wasmsand/wasmsand/shell/syntax"
)

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
	out := &capture{}
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
		if buf.Len()+n > MaxVarBytes {
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
	path  string
	wait  func()
	level int // the shell depth (functions, eval, source) that made it
}

// procSubst runs <(cmd) or >(cmd) and returns a path that reads its
// output or feeds its input. Natively the command runs alongside over a
// VFS FIFO; one after another (GOOS=js), <(cmd) runs first into a file and
// >(cmd) reads what was written when the command using it is done.
func (r *Runner) procSubst(ctx context.Context, p *syntax.ProcSubst) (string, error) {
	path := fmt.Sprintf("/tmp/.wasmsand-psub-%d-%d", r.pid, psubCount.Add(1))
	c, err := r.subshell()
	if err != nil {
		return "", &fatalError{msg: err.Error()}
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
	if r.cfg.Sequential {
		if !p.Out {
			vf, err := fsys.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
			if err != nil {
				c.finish()
				return "", &fatalError{msg: "process substitution: " + Strerror(errnoOf(err))}
			}
			c.fds.set(1, newOpenFile(nil, vf, vf))
			run()
			r.psubs = append(r.psubs, psub{path: path, wait: func() { _ = fsys.Remove(path) }, level: r.depth})
			return path, nil
		}
		if err := fsys.WriteFile(path, nil, 0o600); err != nil {
			c.finish()
			return "", &fatalError{msg: "process substitution: " + Strerror(errnoOf(err))}
		}
		r.psubs = append(r.psubs, psub{path: path, wait: func() {
			if vf, err := fsys.OpenFile(path, os.O_RDONLY, 0); err == nil {
				c.fds.set(0, newOpenFile(vf, nil, vf))
			}
			run()
			_ = fsys.Remove(path)
		}, level: r.depth})
		return path, nil
	}
	if err := fsys.Mkfifo(path, 0o600); err != nil {
		c.finish()
		return "", &fatalError{msg: "process substitution: " + Strerror(errnoOf(err))}
	}
	// One pipe for the FIFO's whole life, as bash's /dev/fd/N is: opened
	// again after its writer is done, it reads end of file.
	_ = fsys.KeepPipe(path)
	flag := os.O_WRONLY
	if p.Out {
		flag = os.O_RDONLY
	}
	vf, err := fsys.OpenFile(path, flag, 0)
	if err != nil {
		c.finish()
		_ = fsys.Remove(path)
		return "", &fatalError{msg: "process substitution: " + Strerror(errnoOf(err))}
	}
	if p.Out {
		c.fds.set(0, newOpenFile(vf, nil, vf))
	} else {
		c.fds.set(1, newOpenFile(nil, vf, vf))
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		run()
	}()
	r.psubs = append(r.psubs, psub{path: path, wait: func() {
		// Open and close the other end, so that a side nobody opened sees
		// end of file or a broken pipe instead of waiting forever.
		other := os.O_RDONLY
		if p.Out {
			other = os.O_WRONLY
		}
		if f, err := fsys.OpenFile(path, other, 0); err == nil {
			_ = f.Close()
		}
		wg.Wait()
		_ = fsys.Remove(path)
	}, level: r.depth})
	return path, nil
}

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

var _ = strings.Contains
