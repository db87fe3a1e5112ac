// Package shell is the sandbox's bash: mvdan.cc/sh/v3's interpreter confined to
// the VFS and the process manager. Every path, stat, directory listing and
// command goes through handlers here; nothing reaches the host OS.
//
// The shell runs commands it cannot run itself (WebAssembly programs and
// tools) through the Exec function of its Config, which the process manager
// provides: the shell never depends on the engine.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/wasmsand/wasmsand/vfs"
)

// ExecRequest is a program the shell wants the process manager to run.
type ExecRequest struct {
	Pid    int    // a pid already allocated for this process (spawn), or 0
	Path   string // absolute VFS path of the executable file
	Tool   string // for a tool entry ("#!wasmsand NAME"): the tool's name; empty for a .wasm file
	Argv   []string
	Env    []string // K=V
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Umask  uint32 // the file-creation mask the process starts with
}

// Config wires a shell to its sandbox.
type Config struct {
	FS   *vfs.FS
	Env  []string // initial exported environment, K=V
	Dir  string   // initial working directory
	Pid  int      // $$
	PPid int      // $PPID
	// Exec runs a WebAssembly program or tool and returns its exit status.
	Exec func(ctx context.Context, req *ExecRequest) int
	// NewPid allocates a process id for a child shell (bash -c, scripts) and
	// returns a release function; an error (too many processes) fails the
	// command like a failed fork.
	NewPid func() (pid int, release func(), err error)
	// MaxSubshells bounds the pipeline stages and background jobs a run may
	// have going at once (the interpreter runs them as goroutines); past it
	// they fail like a fork would. Default 256.
	MaxSubshells int
}

// Stdio are the streams of one run.
type Stdio struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Session is a shell that keeps its state (cwd, variables, functions,
// options) between runs, like a terminal.
type Session struct {
	cfg    Config
	runner *interp.Runner

	mu      sync.Mutex
	sources map[string][]string // confined text of files being sourced, by path
	psubs   []string            // temp files made for <(...) during the current run
	psubN   int
	exited  bool // the last run ended with `exit` (or errexit)

	subshells atomic.Int64  // live counted subshells of the current run
	umask     atomic.Uint32 // file-creation mask (umask.go)
	calls     atomic.Uint64 // simple commands run, to check the recursion depth now and then

	pipes map[string][]string // stage statuses of running pipelines, by id

	jobs       map[int]*job // background jobs by pid (jobs.go)
	failedJobs int          // ids (negative) of jobs whose fork failed
	jobsLive   atomic.Int64
}

// New starts a session. Nothing is read from the host.
func New(cfg Config) (*Session, error) {
	return newSession(cfg, nil)
}

// Fork starts a session on cfg (a forked sandbox's) with this session's
// state: cwd, variables (strings) and functions.
func (s *Session) Fork(cfg Config) (*Session, error) {
	cfg.Dir = s.runner.Dir
	cfg.Env = s.Env()
	hidden := map[string]string{}
	for name, vr := range s.runner.Vars {
		if !vr.Exported && vr.IsSet() && vr.Kind == expand.String && !vr.ReadOnly {
			hidden[name] = vr.Str
		}
	}
	child, err := newSession(cfg, hidden)
	if err != nil {
		return nil, err
	}
	child.runner.Funcs = maps.Clone(s.runner.Funcs)
	child.umask.Store(s.umask.Load())
	return child, nil
}

func newSession(cfg Config, vars map[string]string) (*Session, error) {
	if cfg.FS == nil || cfg.Exec == nil {
		return nil, errors.New("shell: Config needs FS and Exec")
	}
	if cfg.Dir == "" {
		cfg.Dir = "/home/user"
	}
	if cfg.MaxSubshells <= 0 {
		cfg.MaxSubshells = 256
	}
	if cfg.NewPid == nil {
		cfg.NewPid = func() (int, func(), error) { return cfg.Pid + 1, func() {}, nil }
	}
	s := &Session{cfg: cfg, sources: map[string][]string{}, pipes: map[string][]string{}, jobs: map[int]*job{}}
	s.umask.Store(DefaultUmask)
	r, err := interp.New(
		interp.Env(newEnviron(cfg.Env, vars, cfg.Pid, cfg.PPid)),
		// interp.Dir would os.Stat the host; set the field directly.
		func(r *interp.Runner) error { r.Dir = cfg.Dir; return nil },
		interp.OpenHandler(s.openHandler),
		interp.StatHandler(s.statHandler),
		interp.ReadDirHandler2(s.readDirHandler),
		interp.AccessHandler(s.accessHandler),
		interp.CallHandler(s.callHandler),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return s.execHandler }),
	)
	if err != nil {
		return nil, err
	}
	s.runner = r
	// Reset reads TMPDIR (noTempDir, see env.go) into the interpreter's
	// private temp dir; then TMPDIR is taken back out of sight.
	r.Reset()
	if err := r.Run(context.Background(), mustParse("unset TMPDIR")); err != nil {
		return nil, err
	}
	return s, nil
}

func mustParse(src string) *syntax.File {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		panic(err)
	}
	return f
}

// RunOptions tune one run.
type RunOptions struct {
	// Name is $0 and the name in error messages ("bash" by default).
	Name string
	// Script runs the code as a whole script (the EXIT trap fires at its end),
	// as `bash -c` or `bash file` do. Otherwise statements run one by one like
	// lines typed at a terminal and the EXIT trap waits for an `exit`.
	Script bool
	// Stateless runs on a copy of the session: nothing it changes is kept.
	Stateless bool
	// Dir and Env, when set, apply to this run only (Env adds K=V pairs): the
	// run then works on a copy of the session, like `(cd DIR; K=V; ...)`.
	Dir string
	Env []string
}

// Run parses and runs script and returns its exit status. A syntax error is
// reported on stderr the way bash does and gives status 2. The error is only
// non-nil for failures of the shell itself (a cancelled context included).
func (s *Session) Run(ctx context.Context, script string, stdio Stdio, opt RunOptions) (int, error) {
	name := opt.Name
	if name == "" {
		name = "bash"
	}
	file, err := syntax.NewParser().Parse(strings.NewReader(script), name)
	if err != nil {
		fmt.Fprintln(errWriter(stdio), syntaxError(name, err))
		return 2, nil
	}
	if err := confine(file); err != nil {
		fmt.Fprintf(errWriter(stdio), "%s: %v\n", name, err)
		return 1, nil
	}
	defer s.cleanupPsubs()
	// Slots of stages that ended through `exit` are never given back: start
	// each run afresh.
	s.subshells.Store(0)

	r := s.runner
	if opt.Stateless || opt.Dir != "" || len(opt.Env) > 0 {
		r = s.runner.Subshell()
		setup := &strings.Builder{}
		if opt.Dir != "" {
			fmt.Fprintf(setup, "cd %s\n", quote(opt.Dir))
		}
		if setup.Len() > 0 || len(opt.Env) > 0 {
			for _, kv := range opt.Env {
				k, v, _ := strings.Cut(kv, "=")
				if syntax.ValidName(k) {
					fmt.Fprintf(setup, "export %s=%s\n", k, quote(v))
				}
			}
			if err := r.Run(ctx, mustParse(setup.String())); err != nil {
				return 1, err
			}
		}
	}
	stderr := stdio.Stderr
	if stderr != nil {
		stderr = traceFilter{stderr}
	}
	if err := interp.StdIO(stdio.Stdin, stdio.Stdout, stderr)(r); err != nil {
		return 1, err
	}
	if opt.Script {
		return exitStatus(r.Run(ctx, file))
	}
	s.exited = false
	status := 0
	for _, stmt := range file.Stmts {
		if ctx.Err() != nil {
			return exitStatus(ctx.Err())
		}
		st, err := exitStatus(r.Run(ctx, stmt))
		status = st
		if err != nil || r.Exited() {
			s.exited = r.Exited()
			return status, err
		}
	}
	return status, nil
}

// exitStatus turns an interpreter result into an exit status, separating the
// shell's own failures.
func exitStatus(err error) (int, error) {
	if err == nil {
		return 0, nil
	}
	if st, ok := interp.IsExitStatus(err); ok {
		return int(st), nil
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return 124, err
	}
	return 1, err
}

func errWriter(stdio Stdio) io.Writer {
	if stdio.Stderr == nil {
		return io.Discard
	}
	return stdio.Stderr
}

// syntaxError words a parse error like bash: "bash: line 3: syntax error: ...".
func syntaxError(name string, err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s: line %d: syntax error: %s", name, pe.Pos.Line(), pe.Text)
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return fmt.Sprintf("%s: line %d: syntax error: %s", name, le.Pos.Line(), strings.TrimPrefix(le.Error(), le.Filename+":"+le.Pos.String()+": "))
	}
	return fmt.Sprintf("%s: syntax error: %v", name, err)
}

// quote single-quotes a string for the shell.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Exited reports whether the last run ended the shell (`exit`, set -e).
func (s *Session) Exited() bool { return s.exited }

// SetDir changes the session's directory, like `cd DIR`.
func (s *Session) SetDir(dir string) {
	_ = s.runner.Run(context.Background(), mustParse("cd "+quote(dir)))
}

// Dir is the session's current directory.
func (s *Session) Dir() string { return s.runner.Dir }

// Env is the session's exported environment (K=V, sorted).
func (s *Session) Env() []string {
	var out []string
	for name, vr := range s.runner.Vars {
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
			out = append(out, name+"="+vr.Str)
		}
	}
	sort.Strings(out)
	return out
}
