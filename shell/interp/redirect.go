package interp

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// maxFd bounds descriptor numbers (bash's limit is the open-files ulimit).
const maxFd = 1024

// redirError is a failed redirection: reported, the command does not run.
type redirErr struct {
	msg      string
	reported bool // written already, to the stderr of the redirections before it
}

func (e *redirErr) Error() string { return e.msg }

// redirect performs redirections; restore undoes them (unless permanent,
// as for `exec` without a command).
func (r *Runner) redirect(ctx context.Context, rs []*syntax.Redirect, permanent bool) (restore func(), err error) {
	if len(rs) == 0 {
		return func() {}, nil
	}
	type save struct {
		fd  int
		old *openFile
	}
	var saved []save
	undo := func() {
		for i := len(saved) - 1; i >= 0; i-- {
			s := saved[i]
			r.fds.set(s.fd, s.old)
		}
	}
	install := func(fd int, f *openFile) {
		if permanent {
			r.fds.set(fd, f)
			return
		}
		saved = append(saved, save{fd, r.fds.swap(fd, f)})
	}
	for _, rd := range rs {
		if err := r.redirectOne(ctx, rd, install); err != nil {
			// the message goes where fd 2 points now: `2>&1 >&bad | grep`
			// sees it, as bash's does
			if re, ok := err.(*redirErr); ok {
				r.errmsg(re.msg)
				re.reported = true
			}
			undo()
			return nil, err
		}
	}
	if permanent {
		r.syncCoprocs()
		return func() {}, nil
	}
	return undo, nil
}

func (r *Runner) redirectOne(ctx context.Context, rd *syntax.Redirect, install func(int, *openFile)) (err error) {
	r.line = rd.Line
	fd := rd.N
	switch rd.Op {
	case syntax.RedirIn, syntax.RedirInOut, syntax.RedirDupIn, syntax.RedirHeredoc, syntax.RedirHerestr:
		if fd < 0 {
			fd = 0
		}
	default:
		if fd < 0 {
			fd = 1
		}
	}
	if fd >= maxFd {
		if (rd.Op == syntax.RedirDupOut || rd.Op == syntax.RedirDupIn) && rd.Word.Raw == "-" {
			return nil // (closing what cannot be open: bash says nothing)
		}
		return &redirErr{msg: strconv.Itoa(fd) + ": Bad file descriptor"}
	}
	if rd.VarName != "" && (rd.Op == syntax.RedirDupOut || rd.Op == syntax.RedirDupIn) && rd.Word.Raw == "-" {
		// {name}>&- closes the fd whose number $name holds
		v, _ := r.getVarRef(rd.VarName)
		if v == "" {
			return &redirErr{msg: rd.VarName + ": ambiguous redirect"}
		}
		n, err := strconv.Atoi(v)
		if err != nil || r.fds.get(n) == nil {
			return nil // (bash closes nothing and says nothing)
		}
		r.fds.set(n, nil)
		return nil
	}
	if rd.VarName != "" {
		// {name}>file: a new fd from 10 up, its number in $name, set once
		// the file is open (a readonly name: the file is made all the same)
		fd = r.fds.lowestFree(10)
		var assignErr error
		target := fd
		outer := install
		install = func(n int, f *openFile) {
			if n != target { // (the fd a move closes)
				r.fds.set(n, f)
				return
			}
			if e := r.setVar(rd.VarName, strconv.Itoa(n), 0); e != nil {
				assignErr = e
				f.drop() // (made, and closed again)
				return
			}
			if r.shopt.varredirClose {
				outer(n, f) // closed when the command completes
				return
			}
			r.fds.set(n, f) // (such fds stay open after the command, as bash's)
		}
		defer func() {
			if assignErr != nil && err == nil {
				r.errmsg(assignErr.Error())
				err = &redirErr{msg: rd.VarName + ": cannot assign fd to variable"}
			}
		}()
	}
	switch rd.Op {
	case syntax.RedirHeredoc:
		var body string
		if rd.Hdoc != nil {
			s, err := r.expandQuoted(ctx, rd.Hdoc)
			if err != nil {
				return err
			}
			body = s
		} else {
			body = rd.HdocText
		}
		rdr := strings.NewReader(body)
		install(fd, newOpenFile(rdr, nil, nil))
		return nil
	case syntax.RedirHerestr:
		s, err := r.expandString(ctx, rd.Word, ctxNoSplit)
		if err != nil {
			return err
		}
		install(fd, newOpenFile(strings.NewReader(s+"\n"), nil, nil))
		return nil
	}
	target, err := r.redirTarget(ctx, rd)
	if err != nil {
		return err
	}
	switch rd.Op {
	case syntax.RedirDupIn, syntax.RedirDupOut:
		if target == "-" {
			install(fd, nil)
			return nil
		}
		move := false
		num := target
		if strings.HasSuffix(num, "-") {
			num, move = num[:len(num)-1], true
		}
		if n, err := strconv.Atoi(num); err == nil && num != "" {
			src := r.fds.get(n)
			if src == nil || n >= maxFd {
				// (bash names the word as written: `>&$a' says $a)
				return &redirErr{msg: rd.Word.Raw + ": Bad file descriptor"}
			}
			// (like dup2, whatever its direction: `exec 3>&0` keeps
			// stdin at 3; a write to it fails then, as in bash)
			install(fd, src.hold())
			if move && n != fd {
				install(n, nil)
			}
			return nil
		}
		if rd.Op == syntax.RedirDupOut && (rd.N < 0 || rd.N == 1) {
			// >&word with a file name is &>word
			f, err := r.openTarget(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, true)
			if err != nil {
				return err
			}
			install(1, f)
			install(2, f.hold())
			return nil
		}
		return &redirErr{msg: target + ": ambiguous redirect"}
	case syntax.RedirAll, syntax.RedirAllApp:
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if rd.Op == syntax.RedirAllApp {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := r.openTarget(target, flag, rd.Op == syntax.RedirAll)
		if err != nil {
			return err
		}
		install(1, f)
		install(2, f.hold())
		return nil
	}
	var flag int
	clobberCheck := false
	switch rd.Op {
	case syntax.RedirIn:
		flag = os.O_RDONLY
	case syntax.RedirOut:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		clobberCheck = true
	case syntax.RedirClobber:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.RedirAppend:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RedirInOut:
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := r.openTarget(target, flag, clobberCheck)
	if err != nil {
		return err
	}
	install(fd, f)
	return nil
}

// redirTarget expands a redirection's word: exactly one word.
func (r *Runner) redirTarget(ctx context.Context, rd *syntax.Redirect) (string, error) {
	if s, ok := simpleWord(rd.Word); ok {
		return s, nil
	}
	// (a POSIX-mode script does no pathname expansion here, as bash's)
	ws, err := r.expandWordFieldsGlob(ctx, rd.Word, !r.opts.posix || r.interactive)
	if err != nil {
		return "", err
	}
	if len(ws) != 1 {
		return "", &redirErr{msg: rd.Word.Raw + ": ambiguous redirect"}
	}
	return ws[0], nil
}

// DevFD is the fd that /dev/stdin, /dev/stdout, /dev/stderr or
// /dev/fd/N (an absolute path) names.
func DevFD(abs string) (int, bool) {
	switch abs {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	if s, ok := strings.CutPrefix(abs, "/dev/fd/"); ok {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 && s[0] != '+' {
			return n, true
		}
	}
	return 0, false
}

// readFile reads a file the shell itself reads (source): /dev/fd/N is
// its own fd N, read to its end (a file from its start, as Linux opens
// /dev/fd/N anew).
func (r *Runner) readFile(abs string) ([]byte, error) {
	if n, ok := DevFD(abs); ok {
		f := r.fds.get(n)
		if f == nil {
			return nil, syscall.EBADF
		}
		return ReadOpenFile(r.cfg.FS, f)
	}
	return r.cfg.FS.ReadFile(abs)
}

// ReadOpenFile reads what an inherited fd (ExecRequest.Files) holds: a
// VFS file anew from its start, a stream to its end.
func ReadOpenFile(fsys *vfs.FS, x any) ([]byte, error) {
	switch v := x.(type) {
	case *openFile:
		if v.vf != nil {
			return fsys.ReadFile(v.vf.Name())
		}
		if v.r == nil {
			return nil, syscall.EBADF
		}
		return io.ReadAll(v)
	case *vfs.File:
		return fsys.ReadFile(v.Name())
	case io.Reader:
		return io.ReadAll(v)
	}
	return nil, syscall.EBADF
}

// openTarget opens a redirection's file in the VFS (special /dev paths are
// the shell's own descriptors).
func (r *Runner) openTarget(name string, flag int, clobberCheck bool) (*openFile, error) {
	if name == "" {
		return nil, &redirErr{msg: ": No such file or directory"}
	}
	abs := r.abs(name)
	switch {
	case strings.HasPrefix(abs, "/dev/tcp/"), strings.HasPrefix(abs, "/dev/udp/"):
		return nil, &redirErr{msg: name + ": network connections are not available in this sandbox"}
	case abs == "/dev/tty":
		// the run's terminal, as its controlling terminal; without one
		// the vfs node answers ENXIO, as Linux does
		if n, ok := r.terminalFD(flag); ok {
			return r.fds.get(n).hold(), nil
		}
	case strings.HasPrefix(abs, "/dev/"):
		n, ok := DevFD(abs)
		if !ok {
			break
		}
		f := r.fds.get(n)
		if f == nil {
			return nil, &redirErr{msg: name + ": Bad file descriptor"}
		}
		return f.hold(), nil
	}
	if clobberCheck && r.opts.noclobber {
		if fi, err := r.cfg.FS.Stat(abs); err == nil && fi.Mode().IsRegular() {
			return nil, &redirErr{msg: name + ": cannot overwrite existing file"}
		}
	}
	if err := r.checkOpen(abs, flag); err != nil {
		return nil, &redirErr{msg: name + ": " + Strerror(errnoOf(err))}
	}
	vf, err := r.cfg.FS.OpenFile(abs, flag, fs.FileMode(0o666&^r.umask))
	if err != nil {
		return nil, &redirErr{msg: name + ": " + Strerror(errnoOf(err))}
	}
	acc := flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR)
	f := newOpenFile(nil, nil, vf)
	if acc != os.O_WRONLY {
		f.r = vf
	}
	if acc != os.O_RDONLY {
		f.w = vf
	}
	return f, nil
}

// checkOpen applies the mode bits for the sandbox user, as open(2) would.
func (r *Runner) checkOpen(abs string, flag int) error {
	fi, err := r.cfg.FS.Stat(abs)
	if err != nil {
		if flag&os.O_CREATE != 0 && errnoOf(err) == syscall.ENOENT {
			return r.cfg.FS.CheckCreate(abs, uint32(r.cfg.UID), uint32(r.cfg.GID))
		}
		return nil
	}
	if fi.Mode()&fs.ModeCharDevice != 0 {
		return nil
	}
	if fi.IsDir() && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return syscall.EISDIR
	}
	want := uint32(vfs.AccessRead)
	switch {
	case flag&os.O_RDWR != 0:
		want = vfs.AccessRead | vfs.AccessWrite
	case flag&os.O_WRONLY != 0:
		want = vfs.AccessWrite
	}
	if !r.permits(fi, want) {
		return syscall.EACCES
	}
	return nil
}

var _ = errors.New
