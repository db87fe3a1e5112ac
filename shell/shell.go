// Package shell is the sandbox's bash: a session of our own interpreter
// (shell/interp, over the shell/syntax parser) wired to the VFS and to the
// process manager. It resolves commands in the VFS and runs the commands it
// provides itself (bash, sh, which...); WebAssembly programs go to the
// process manager through Config.Exec. Nothing reaches the host OS.
package shell

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/shell/interp"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// ExecRequest is a program the shell wants the process manager to run.
type ExecRequest struct {
	Pid     int    // a pid already allocated for this process (spawn), or 0
	PPid    int    // its parent's pid (the shell, or the guest that spawned it)
	Path    string // absolute VFS path of the executable file
	Program string // for a command entry ("#!wasmsand NAME"): the program's name; empty for a .wasm file
	Argv    []string
	Env     []string // K=V
	Dir     string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Umask   uint32      // the file-creation mask the process starts with
	Files   map[int]any // open fds above 2 it inherits (see wasi.Proc.Files)
	// ErrPrefix starts messages about a failed exec ("bash: line 3: ");
	// empty is "bash: ".
	ErrPrefix string
	// NoSkipDots: the calling shell has globskipdots off (interp.ExecRequest).
	NoSkipDots bool
	// Ignored: the numbers of the signals the caller ignores, which the
	// program keeps ignored (interp.ExecRequest).
	Ignored []int
	// reinit marks a script without #!, run as bash runs one: in a
	// reinitialised shell, which keeps globskipdots as the caller had it.
	reinit bool
}

// Config wires a shell to its sandbox.
type Config struct {
	FS   *vfs.FS
	Env  []string // initial exported environment, K=V
	Dir  string   // initial working directory
	Pid  int      // $$
	PPid int      // $PPID
	// Exec runs a WebAssembly program and returns its exit status.
	Exec func(ctx context.Context, req *ExecRequest) int
	// NewPid allocates a process id for a child shell (bash -c, scripts,
	// subshells) and returns a release function; an error (too many
	// processes) fails the command like a failed fork.
	NewPid func(ppid int, argv []string) (pid int, release func(), err error)
	// Kill signals a sandbox process that is not a job of the shell
	// (see interp.Config.Kill).
	Kill func(pid, sig int) error
	// MaxSubshells bounds the subshells (pipeline stages, jobs) a run may
	// have going at once. Default 256.
	MaxSubshells int
	// MaxVarBytes bounds what the session's shells hold in variables
	// (interp.Config.MaxVarTotal; default 256 MiB).
	MaxVarBytes int64
	// Sequential runs pipeline stages one after another (engines whose
	// guests cannot yield: GOOS=js).
	Sequential bool
	// BatchedPrograms: see interp.Config.
	BatchedPrograms bool
	// Now and Rand, when set, stand in for the clock and randomness of the
	// shell itself ($RANDOM, $SECONDS, printf %(...)T, ...).
	Now  func() time.Time
	Rand func() uint64
	// Commands is the command table command entries resolve through; nil is
	// the shell's own (ShellCommands) and WebAssembly programs for any
	// other name.
	Commands *Commands
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
	icfg   *interp.Config
	runner *interp.Runner
	exited bool
}

// The bash we stand in for: 5.2, as recorded in the conformance suite.
const (
	bashVersionNumber = "5.2.15(1)-release"
	bashVersion       = "GNU bash, version " + bashVersionNumber + " (wasm32-wasmsand)"
)

var bashVersInfo = []string{"5", "2", "15", "1", "release", "wasm32-wasmsand"}

// New starts a session. Nothing is read from the host.
func New(cfg Config) (*Session, error) {
	s, err := newSession(cfg)
	if err != nil {
		return nil, err
	}
	s.runner = interp.New(s.icfg, s.cfg.Env, s.cfg.Dir, s.cfg.Pid, s.cfg.PPid)
	s.runner.SetUmask(interp.DefaultUmask)
	return s, nil
}

func newSession(cfg Config) (*Session, error) {
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
		var n atomic.Int64 // pipeline stages fork concurrently
		n.Store(int64(cfg.Pid))
		cfg.NewPid = func(int, []string) (int, func(), error) { return int(n.Add(1)), func() {}, nil }
	}
	if cfg.Commands == nil {
		cfg.Commands = NewCommands(ShellCommands())
	}
	s := &Session{cfg: cfg}
	s.icfg = s.interpConfig()
	return s, nil
}

// interpConfig connects the interpreter to this session.
func (s *Session) interpConfig() *interp.Config {
	return &interp.Config{
		FS: s.cfg.FS,
		Exec: func(ctx context.Context, req *interp.ExecRequest) int {
			return s.run(ctx, &ExecRequest{Pid: req.Pid, PPid: req.PPid, Path: req.Path, Argv: req.Argv, Env: req.Env, Dir: req.Dir,
				Stdin: req.Stdin, Stdout: req.Stdout, Stderr: req.Stderr, Umask: req.Umask, Files: req.Files, ErrPrefix: req.ErrPrefix, NoSkipDots: req.NoSkipDots, Ignored: req.Ignored}, 0)
		},
		LookPath: s.LookPath,
		NewPid:   s.cfg.NewPid,
		Kill:     s.cfg.Kill,
		Now:      s.cfg.Now,
		Rand:     s.cfg.Rand,
		UID:      UserID, GID: UserID,
		MaxSubshells:    s.cfg.MaxSubshells,
		MaxVarTotal:     s.cfg.MaxVarBytes,
		Sequential:      s.cfg.Sequential,
		BatchedPrograms: s.cfg.BatchedPrograms,
		Version:         bashVersionNumber,
		VersInfo:        bashVersInfo,
	}
}

// Fork starts a session on cfg (a forked sandbox's) with this session's
// state: cwd, variables, functions, options.
func (s *Session) Fork(cfg Config) (*Session, error) {
	child, err := newSession(cfg)
	if err != nil {
		return nil, err
	}
	child.runner = s.runner.CloneWith(child.icfg)
	return child, nil
}

// Copy is the session's state as it is now, to Fork from later (a sandbox
// forked now whose shell starts on its first use): the session's later runs
// do not change it. It is not to be run itself.
func (s *Session) Copy() *Session {
	return &Session{cfg: s.cfg, icfg: s.icfg, runner: s.runner.Clone(), exited: s.exited}
}

// ErrNotState: LoadState was given bytes that are no saved shell state
// (another error is a state it refuses: truncated, changed, hostile).
var ErrNotState = interp.ErrNotState

// SaveState is the session's state as bytes, for LoadState in a session
// of another process: cwd and the pushd stack, variables with their
// attributes, functions, aliases, set and shopt options, traps, umask,
// positional parameters, $? (interp.Runner.SaveState says what is not
// carried). It is a bash script, readable; nothing may run meanwhile.
func (s *Session) SaveState() ([]byte, error) { return s.runner.SaveState() }

// LoadState makes the session's state the one SaveState saved, whatever it
// was before (it may have run). Nothing in the state runs: it is read, not
// executed, and refused with an error unless it is one SaveState writes;
// the session is then unchanged.
func (s *Session) LoadState(state []byte) error {
	r := interp.New(s.icfg, nil, s.cfg.Dir, s.cfg.Pid, s.cfg.PPid)
	r.SetUmask(interp.DefaultUmask)
	if err := r.LoadState(state); err != nil {
		return err
	}
	s.runner, s.exited = r, false
	return nil
}

// RunOptions tune one run.
type RunOptions struct {
	// Name is $0 and the name in error messages ("bash" by default).
	Name string
	// Script runs the code as a whole script (the EXIT trap fires at its end),
	// as `bash -c` or `bash file` do. Otherwise the EXIT trap waits for an
	// `exit`, like lines typed at a terminal.
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
	r := s.runner
	if opt.Stateless || opt.Dir != "" || len(opt.Env) > 0 {
		r = s.runner.Clone()
		if opt.Dir != "" {
			if err := r.SetDir(opt.Dir); err != nil {
				errw := stdio.Stderr
				if errw == nil {
					errw = io.Discard
				}
				io.WriteString(errw, "bash: cd: "+opt.Dir+": "+err.Error()+"\n")
				return 1, nil
			}
		}
		for _, kv := range opt.Env {
			k, v, _ := strings.Cut(kv, "=")
			if syntax.ValidName(k) {
				r.Export(k, v)
			}
		}
	}
	r.ResetExit()
	r.SetStdio(stdio.Stdin, stdio.Stdout, stdio.Stderr)
	r.SetName(name)
	// A script runs as `bash -c` does; otherwise lines run as typed at a
	// terminal: errors name no line, and one that would end a script
	// abandons its line only.
	r.SetCommandMode(opt.Script)
	if opt.Script {
		r.SetExecutionString(script)
	}
	r.SetInteractive(!opt.Script)
	st := r.Run(ctx, script, interp.RunOpts{Script: opt.Script})
	if !opt.Script && r.Exited() {
		r.RunExitTrap(ctx)
		st = r.ExitStatus()
	}
	if r == s.runner {
		s.exited = r.Exited()
	}
	if err := ctx.Err(); err != nil {
		return 124, err
	}
	return st, nil
}

// Exited reports whether the last run ended the shell (`exit`, set -e).
func (s *Session) Exited() bool { return s.exited }

// VarBytes is what the session's shells hold in variables (as last summed).
func (s *Session) VarBytes() int64 { return s.runner.VarBytes() }

// SetDir changes the session's directory, like `cd DIR`.
func (s *Session) SetDir(dir string) { _ = s.runner.SetDir(dir) }

// FS is the file tree the session works on.
func (s *Session) FS() *vfs.FS { return s.cfg.FS }

// Dir is the session's current directory.
func (s *Session) Dir() string { return s.runner.Dir() }

// Env is the session's exported environment (K=V, sorted).
func (s *Session) Env() []string { return s.runner.Environ() }
