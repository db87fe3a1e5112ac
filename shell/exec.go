package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Names the shell handles itself, routed through the exec handler because
// only there a handler can write output and set a status.
const (
	psubCmd   = "__wasmsand_psub"
	typeCmd   = "__wasmsand_type"
	commandV  = "__wasmsand_command_v"
	pwdPhysic = "__wasmsand_pwd_P"
	// echo and printf: the interpreter's own ignore write errors (a full
	// disk, a closed pipe) and write in pieces; ours write once and fail
	// like bash ("bash: echo: write error: ...", status 1).
	echoCmd   = "__wasmsand_echo"
	printfCmd = "__wasmsand_printf"
	// pipeStatusCmd records a pipeline stage's status (see recordPipeStatus)
	// and, like leaveCmd, frees the subshell slot enterCmd took.
	pipeStatusCmd = "__wasmsand_ps"
	pipeDoneCmd   = "__wasmsand_psdone"
	enterCmd      = "__wasmsand_enter"
	leaveCmd      = "__wasmsand_leave"
)

// Recursion (functions, eval, source, nested shells) nests the interpreter's Go
// calls: ~12 frames and ~8 KiB of goroutine stack per function level. Unbounded,
// `f() { f; }; f` would grow the stack by ~15 MB/s until the run's timeout, or
// until Go's 1 GB stack limit kills the whole process (every sandbox in it).
// bash itself dies of a segfault a few thousand levels down; we stop the run at
// ~2500 levels (~20 MiB of stack), checking every few commands.
const (
	maxShellFrames  = 30000
	depthCheckEvery = 16
)

// stackTooDeep reports whether the calling goroutine's stack holds more than
// maxShellFrames frames (it walks at most that many).
func stackTooDeep() bool {
	var pc [1]uintptr
	return runtime.Callers(maxShellFrames, pc[:]) > 0
}

// callHandler sees every simple command after expansion. It re-routes the
// builtins whose mvdan.cc/sh implementation looks at the host (type,
// command -v, hash, pwd -P, cd's errors) and confines code that the
// interpreter parses itself (eval, source).
func (s *Session) callHandler(ctx context.Context, args []string) ([]string, error) {
	if j := s.currentJob(interp.HandlerCtx(ctx)); j != nil && args[0] != jobDoneCmd {
		s.mu.Lock()
		killed := j.killed != 0
		s.mu.Unlock()
		if killed {
			return []string{"exit", "143"}, nil // the job was killed: end it here
		}
	}
	if s.calls.Add(1)%depthCheckEvery == 0 && stackTooDeep() {
		// bash's FUNCNEST message; the run stops as bash's script does.
		fmt.Fprintf(interp.HandlerCtx(ctx).Stderr,
			"bash: %s: maximum function nesting level exceeded (recursion too deep for the sandbox)\n", args[0])
		return nil, interp.NewExitStatus(1)
	}
	switch args[0] {
	case varCheckCmd:
		if err := checkVars(interp.HandlerCtx(ctx), args[1:]); err != nil {
			return nil, err
		}
	case "kill":
		return append([]string{killCmd}, args[1:]...), nil
	case "jobs":
		return append([]string{jobsCmd}, args[1:]...), nil
	case "wait":
		if len(args) > 1 {
			return append([]string{waitCmd}, args[1:]...), nil
		}
	case "echo":
		return append([]string{echoCmd}, args[1:]...), nil
	case "umask":
		return append([]string{umaskCmd}, args[1:]...), nil
	case "test", "[":
		return append([]string{testCmd, args[0]}, args[1:]...), nil
	case "printf":
		return append([]string{printfCmd}, args[1:]...), nil
	case "type":
		return append([]string{typeCmd}, args[1:]...), nil
	case "command":
		if len(args) > 1 && (args[1] == "-v" || args[1] == "-V") {
			return append([]string{commandV}, args[1:]...), nil
		}
	case "hash":
		return append([]string{typeCmd, "-hash"}, args[1:]...), nil
	case "pwd":
		if len(args) > 1 && args[1] == "-P" {
			return []string{pwdPhysic}, nil
		}
	case "cd":
		return s.checkCd(ctx, args), nil
	case "eval":
		src, err := confineSource(strings.Join(args[1:], " "), "eval")
		if err != nil {
			return []string{"eval", "echo " + quote("bash: eval: "+err.Error()) + " >&2; false"}, nil
		}
		return []string{"eval", src}, nil
	case "source", ".":
		if len(args) > 1 {
			if p, ok := s.prepareSource(ctx, args[1]); ok {
				args = append([]string{args[0], p}, args[2:]...)
			}
		}
	}
	return args, nil
}

// checkCd reports a bad `cd` target with bash's message; mvdan.cc/sh's own
// wording differs ("cd: no such file or directory: ...").
func (s *Session) checkCd(ctx context.Context, args []string) []string {
	hc := interp.HandlerCtx(ctx)
	var target string
	switch {
	case len(args) == 1:
		target = hc.Env.Get("HOME").String()
	case len(args) > 2 && !strings.HasPrefix(args[1], "-"):
		fmt.Fprintln(hc.Stderr, "bash: cd: too many arguments")
		return []string{"false"}
	case args[len(args)-1] == "-":
		return args
	default:
		target = args[len(args)-1]
	}
	if target == "" {
		return args
	}
	fi, err := s.cfg.FS.Stat(absPath(ctx, target))
	switch {
	case err != nil:
		fmt.Fprintf(hc.Stderr, "bash: cd: %s: %s\n", target, strerror(errnoOf(err)))
	case !fi.IsDir():
		fmt.Fprintf(hc.Stderr, "bash: cd: %s: Not a directory\n", target)
	case !permits(fi, 1):
		fmt.Fprintf(hc.Stderr, "bash: cd: %s: Permission denied\n", target)
	default:
		return args
	}
	return []string{"false"}
}

// prepareSource resolves a sourced file in the VFS like bash (a name without
// a slash is searched in PATH, then the current directory) and queues its
// confined text for the open handler.
func (s *Session) prepareSource(ctx context.Context, name string) (string, bool) {
	hc := interp.HandlerCtx(ctx)
	var candidates []string
	if !strings.Contains(name, "/") {
		for _, dir := range strings.Split(hc.Env.Get("PATH").String(), ":") {
			if dir != "" {
				candidates = append(candidates, path.Join(dir, name))
			}
		}
	}
	candidates = append(candidates, absPath(ctx, name))
	for _, p := range candidates {
		fi, err := s.cfg.FS.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		data, err := s.cfg.FS.ReadFile(p)
		if err != nil {
			return "", false
		}
		src, err := confineSource(string(data), name)
		if err != nil {
			src = "echo " + quote(name+": "+err.Error()) + " >&2; return 1 2>/dev/null || exit 1"
		}
		s.mu.Lock()
		s.sources[p] = append(s.sources[p], src)
		s.mu.Unlock()
		return p, true
	}
	return "", false
}

// takeSource hands the open handler the confined text queued for path.
func (s *Session) takeSource(p string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.sources[p]
	if len(q) == 0 {
		return "", false
	}
	src := q[0]
	if len(q) == 1 {
		delete(s.sources, p)
	} else {
		s.sources[p] = q[1:]
	}
	return src, true
}

// execHandler runs every command that is not a function or builtin.
func (s *Session) execHandler(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	switch args[0] {
	case psubCmd:
		return s.newPsubFile(hc)
	case echoCmd:
		return status(writeOut(hc, "echo", echo(hc, args[1:])))
	case printfCmd:
		return status(s.printfBuiltin(ctx, hc, args[1:]))
	case varCheckCmd:
		return status(hc.LastExitStatus)
	case funcPrintCmd:
		return status(s.declareF(hc, args[1:]))
	case umaskCmd:
		return status(s.umaskBuiltin(hc, args[1:]))
	case testCmd:
		return status(s.testBuiltin(ctx, hc, args[1], args[2:]))
	case newJobCmd:
		return status(s.newJob(ctx, hc, args[1:]))
	case jobDoneCmd:
		s.jobDone(hc)
		return status(hc.LastExitStatus)
	case killCmd:
		return status(s.kill(hc, args[1:]))
	case waitCmd:
		return status(s.waitFor(ctx, hc, args[1:]))
	case jobsCmd:
		return status(s.listJobs(hc, args[1:]))
	case enterCmd:
		if s.subshells.Add(1) > int64(s.cfg.MaxSubshells) {
			fmt.Fprintln(hc.Stderr, "bash: fork: retry: Resource temporarily unavailable")
			return status(254)
		}
		return nil
	case leaveCmd:
		s.subshells.Add(-1)
		return status(hc.LastExitStatus)
	case pipeStatusCmd:
		s.subshells.Add(-1)
		s.recordStage(args[1:], hc.LastExitStatus)
		return status(hc.LastExitStatus)
	case pipeDoneCmd:
		if st := s.takePipeStatus(args[1]); st != nil {
			// Assigned in the runner that ran the pipeline, so subshells and
			// copies of the session see it like any variable.
			_ = hc.Builtin(ctx, []string{"eval", "PIPESTATUS=(" + strings.Join(st, " ") + ")"})
		}
		return status(hc.LastExitStatus)
	case typeCmd:
		return status(s.typeBuiltin(hc, args[1:]))
	case commandV:
		return status(s.commandV(hc, args[1] == "-V", args[2:]))
	case pwdPhysic:
		p, err := s.cfg.FS.Realpath(hc.Dir)
		if err != nil {
			p = hc.Dir
		}
		fmt.Fprintln(hc.Stdout, p)
		return nil
	}
	if j := s.currentJob(hc); j != nil {
		ctx = j.ctx // so kill reaches the job's programs
	}
	st := s.Exec(ctx, &ExecRequest{
		Umask:  s.umask.Load(),
		Argv:   args,
		Env:    exportedEnv(hc.Env),
		Dir:    hc.Dir,
		Stdin:  hc.Stdin,
		Stdout: captureLimit(hc.Stdout),
		Stderr: hc.Stderr,
	})
	return status(st)
}

func status(st int) error {
	if st == 0 {
		return nil
	}
	return interp.NewExitStatus(uint8(st))
}

// maxShebangDepth bounds interpreter chains (#!/a whose /a is #!/b ...).
const maxShebangDepth = 8

// Exec runs a command by argv the way execve(2) from bash would: argv[0] is
// looked up in PATH (or taken as a path when it has a slash), then run as a
// WebAssembly program, a tool, a `#!` script, or a shell script. It is also
// what the `spawn` import of guests reaches. req.Path and req.Tool are
// ignored.
func (s *Session) Exec(ctx context.Context, req *ExecRequest) int {
	return s.exec(ctx, req, 0)
}

func (s *Session) exec(ctx context.Context, req *ExecRequest, depth int) int {
	name := req.Argv[0]
	p, errno := s.lookPath(req.Env, req.Dir, name)
	if errno != 0 {
		if errno == syscall.ENOENT && !strings.Contains(name, "/") {
			fmt.Fprintf(req.Stderr, "bash: %s: command not found\n", name)
			return 127
		}
		fmt.Fprintf(req.Stderr, "bash: %s: %s\n", name, strerror(errno))
		if errno == syscall.ENOENT {
			return 127
		}
		return 126
	}
	head, err := s.readHead(p)
	if err != nil {
		fmt.Fprintf(req.Stderr, "bash: %s: %s\n", name, strerror(errnoOf(err)))
		return 126
	}
	switch {
	case bytes.HasPrefix(head, []byte("\x00asm")):
		r := *req
		r.Path = p
		return s.cfg.Exec(ctx, &r)
	case bytes.HasPrefix(head, []byte(toolMagic)):
		tool := strings.TrimSpace(strings.SplitN(string(head[len(toolMagic):]), "\n", 2)[0])
		if internal, ok := internalTools[tool]; ok {
			return internal(s, ctx, req)
		}
		r := *req
		r.Path, r.Tool = p, tool
		return s.cfg.Exec(ctx, &r)
	case bytes.HasPrefix(head, []byte("#!")):
		line := strings.SplitN(string(head[2:]), "\n", 2)[0]
		interpArgv := strings.Fields(line)
		if len(interpArgv) == 0 || depth >= maxShebangDepth {
			fmt.Fprintf(req.Stderr, "bash: %s: bad interpreter\n", name)
			return 126
		}
		// Linux passes everything after the interpreter as one argument.
		argv := []string{interpArgv[0]}
		if rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), interpArgv[0])); rest != "" {
			argv = append(argv, rest)
		}
		if ip, errno := s.lookPath(req.Env, req.Dir, interpArgv[0]); errno != 0 || !strings.HasPrefix(interpArgv[0], "/") {
			if errno == 0 {
				errno = syscall.ENOENT
			}
			_ = ip
			fmt.Fprintf(req.Stderr, "bash: %s: %s: bad interpreter: %s\n", name, interpArgv[0], strerror(errno))
			return 126
		}
		r := *req
		r.Argv = append(append(argv, name), req.Argv[1:]...)
		return s.exec(ctx, &r, depth+1)
	default:
		// bash runs a text file without #! as a shell script.
		r := *req
		r.Argv = append([]string{"bash", name}, req.Argv[1:]...)
		return runShell(s, ctx, &r)
	}
}

// LookPath resolves a command name like execvp(3) would, for programs that
// spawn children: the path, or ENOENT/EACCES/EISDIR.
func (s *Session) LookPath(env []string, dir, name string) (string, error) {
	p, errno := s.lookPath(env, dir, name)
	if errno != 0 {
		return "", errno
	}
	return p, nil
}

// toolMagic starts the /bin and /usr/bin entries of tools (see vfs.NewDefault).
const toolMagic = "#!wasmsand "

// lookPath finds an executable in the VFS like bash: a name with a slash is
// a path; otherwise each PATH entry is tried (an empty one is the cwd).
func (s *Session) lookPath(env []string, dir, name string) (string, syscall.Errno) {
	if name == "" {
		return "", syscall.ENOENT
	}
	if strings.Contains(name, "/") {
		p := name
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		fi, err := s.cfg.FS.Stat(p)
		switch {
		case err != nil:
			return "", errnoOf(err)
		case fi.IsDir():
			return "", syscall.EISDIR
		case !permits(fi, 1):
			return "", syscall.EACCES
		}
		return p, 0
	}
	found := syscall.ENOENT
	for _, d := range strings.Split(envGet(env, "PATH"), ":") {
		if d == "" {
			d = dir
		} else if !path.IsAbs(d) {
			d = path.Join(dir, d)
		}
		p := path.Join(d, name)
		fi, err := s.cfg.FS.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if !permits(fi, 1) {
			found = syscall.EACCES
			continue
		}
		return p, 0
	}
	return "", found
}

func envGet(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// readHead reads the start of an executable: enough for magic and #! lines.
func (s *Session) readHead(p string) ([]byte, error) {
	f, err := s.cfg.FS.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return buf[:n], nil
}

func echo(hc interp.HandlerContext, args []string) string {
	newline, escapes := true, false
flags:
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		for _, c := range args[0][1:] {
			if c != 'n' && c != 'e' && c != 'E' {
				break flags
			}
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	cfg := &expand.Config{Env: hc.Env}
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			a, _, _ = expand.Format(cfg, a, nil)
		}
		b.WriteString(a)
	}
	if newline {
		b.WriteByte('\n')
	}
	return b.String()
}

// printfBuiltin is bash's printf [-v VAR] [--] FORMAT [ARGS...].
func (s *Session) printfBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) int {
	varName := ""
	for len(args) > 0 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if args[0] == "-v" && len(args) > 1 {
			varName, args = args[1], args[2:]
			continue
		}
		if len(args[0]) > 1 && args[0][0] == '-' {
			fmt.Fprintf(hc.Stderr, "bash: printf: %s: invalid option\nprintf: usage: printf [-v var] format [arguments]\n", args[0])
			return 2
		}
		break
	}
	if len(args) == 0 {
		fmt.Fprintln(hc.Stderr, "printf: usage: printf [-v var] format [arguments]")
		return 2
	}
	out, problems := bashPrintf(args[0], args[1:])
	st := 0
	for _, p := range problems {
		fmt.Fprintf(hc.Stderr, "bash: printf: %s\n", p)
		st = 1
	}
	if varName != "" {
		if !validVarRef(varName) {
			fmt.Fprintf(hc.Stderr, "bash: printf: `%s': not a valid identifier\n", varName)
			return 2
		}
		// Assigned in the runner that called printf, like the builtin.
		_ = hc.Builtin(ctx, []string{"eval", varName + "=" + quote(out)})
		return st
	}
	if w := writeOut(hc, "printf", out); w != 0 {
		return w
	}
	return st
}

// validVarRef accepts NAME or NAME[subscript].
func validVarRef(v string) bool {
	name, sub, hasSub := strings.Cut(v, "[")
	if hasSub && !strings.HasSuffix(sub, "]") {
		return false
	}
	return syntax.ValidName(name)
}

// writeOut writes a builtin's whole output at once and reports a failure
// the way bash does.
func writeOut(hc interp.HandlerContext, name, out string) int {
	if out == "" {
		return 0
	}
	if _, err := io.WriteString(captureLimit(hc.Stdout), out); err != nil {
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrClosedPipe) {
			// bash's subshell would die of SIGPIPE, silently.
			return 128 + 13
		}
		fmt.Fprintf(hc.Stderr, "bash: %s: write error: %s\n", name, strerror(errnoOf(err)))
		return 1
	}
	return 0
}

// recordStage keeps one pipeline stage's status until the pipeline is done.
func (s *Session) recordStage(args []string, st int) {
	if len(args) != 3 {
		return
	}
	i, err1 := strconv.Atoi(args[1])
	n, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || i < 0 || i >= n {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.pipes[args[0]]
	if len(list) != n {
		list = make([]string, n)
		for j := range list {
			list[j] = "0"
		}
		s.pipes[args[0]] = list
	}
	list[i] = strconv.Itoa(st)
}

// takePipeStatus returns and forgets the stage statuses of a pipeline.
func (s *Session) takePipeStatus(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.pipes[id]
	delete(s.pipes, id)
	return st
}

// newPsubFile makes the VFS file behind one `<(...)` and prints its path.
func (s *Session) newPsubFile(hc interp.HandlerContext) error {
	s.mu.Lock()
	s.psubN++
	p := fmt.Sprintf("/tmp/.wasmsand-psub-%d-%d", s.cfg.Pid, s.psubN)
	s.psubs = append(s.psubs, p)
	s.mu.Unlock()
	if err := s.cfg.FS.WriteFile(p, nil, 0o600); err != nil {
		fmt.Fprintf(hc.Stderr, "bash: process substitution: %s\n", strerror(errnoOf(err)))
		return status(1)
	}
	fmt.Fprint(hc.Stdout, p)
	return nil
}

func (s *Session) cleanupPsubs() {
	s.mu.Lock()
	ps := s.psubs
	s.psubs = nil
	s.mu.Unlock()
	for _, p := range ps {
		_ = s.cfg.FS.Remove(p)
	}
}

// typeBuiltin is bash's `type` (and `hash`, as a lookup) over the VFS PATH.
func (s *Session) typeBuiltin(hc interp.HandlerContext, args []string) int {
	mode := ""
	if len(args) > 0 && args[0] == "-hash" {
		for _, name := range args[1:] {
			if strings.HasPrefix(name, "-") {
				continue
			}
			if _, errno := s.lookPath(exportedEnv(hc.Env), hc.Dir, name); errno != 0 {
				fmt.Fprintf(hc.Stderr, "bash: hash: %s: not found\n", name)
				return 1
			}
		}
		return 0
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		switch args[0] {
		case "-t", "-p", "-P", "-a":
			mode = args[0]
		case "--":
		default:
			fmt.Fprintf(hc.Stderr, "bash: type: %s: invalid option\n", args[0])
			return 2
		}
		args = args[1:]
	}
	st := 0
	env := exportedEnv(hc.Env)
	for _, name := range args {
		kind, where := s.classify(env, hc.Dir, name)
		switch {
		case kind == "":
			if mode != "-t" && mode != "-p" && mode != "-P" {
				fmt.Fprintf(hc.Stderr, "bash: type: %s: not found\n", name)
			}
			st = 1
		case mode == "-t":
			fmt.Fprintln(hc.Stdout, kind)
		case mode == "-p" || mode == "-P":
			if kind == "file" {
				fmt.Fprintln(hc.Stdout, where)
			} else if mode == "-P" {
				if p, errno := s.lookPath(env, hc.Dir, name); errno == 0 {
					fmt.Fprintln(hc.Stdout, p)
				} else {
					st = 1
				}
			}
		case kind == "keyword":
			fmt.Fprintf(hc.Stdout, "%s is a shell keyword\n", name)
		case kind == "function":
			fmt.Fprintf(hc.Stdout, "%s is a function\n", name)
			if fn := s.runner.Funcs[name]; fn != nil {
				fmt.Fprintf(hc.Stdout, "%s() %s\n", name, funcText(fn))
			}
		case kind == "builtin":
			fmt.Fprintf(hc.Stdout, "%s is a shell builtin\n", name)
		default:
			fmt.Fprintf(hc.Stdout, "%s is %s\n", name, where)
		}
	}
	return st
}

// commandV is `command -v` / `command -V`.
func (s *Session) commandV(hc interp.HandlerContext, verbose bool, args []string) int {
	st := 0
	env := exportedEnv(hc.Env)
	for _, name := range args {
		kind, where := s.classify(env, hc.Dir, name)
		switch {
		case kind == "":
			if verbose {
				fmt.Fprintf(hc.Stderr, "bash: command: %s: not found\n", name)
			}
			st = 1
		case verbose:
			return s.typeBuiltin(hc, []string{name})
		case kind == "file":
			fmt.Fprintln(hc.Stdout, where)
		default:
			fmt.Fprintln(hc.Stdout, name)
		}
	}
	return st
}

// classify says what running name would run: keyword, function, builtin or
// file (with its path); "" when nothing.
func (s *Session) classify(env []string, dir, name string) (kind, where string) {
	switch {
	case syntax.IsKeyword(name):
		return "keyword", ""
	case s.runner.Funcs[name] != nil:
		return "function", ""
	case interp.IsBuiltin(name):
		return "builtin", ""
	}
	if p, errno := s.lookPath(env, dir, name); errno == 0 {
		return "file", p
	}
	return "", ""
}
