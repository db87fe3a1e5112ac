// Package core is the Sandbox: the public Go API of wasmsand and its process
// manager. A Sandbox owns a VFS, a shell session and a process table; guests
// run on a platform.Engine (wazero natively, the JS engine under GOOS=js).
package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/commands/curl"
	"github.com/wasmsand/wasmsand/commands/procps"
	"github.com/wasmsand/wasmsand/commands/text"
	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
	"github.com/wasmsand/wasmsand/vfs"
)

// Options configure a Sandbox. Zero values take the defaults.
type Options struct {
	MemoryLimitMB int           // per guest; default 256
	Timeout       time.Duration // per Run; default 30s
	FSLimitMB     int           // total file bytes in the VFS; default 256
	MaxInodes     int           // default 1,000,000
	MaxProcesses  int           // live processes at once; default 64
	OutputLimit   int           // bytes kept per stream per Run; default 16 MiB
	MaxFDs        int           // open fds per guest; default 1024
	// Env is added to (and overrides) the default environment.
	Env map[string]string
	// Engine runs guests. Nil: the platform's default (wazero natively).
	Engine platform.Engine
	// Programs provides the modules behind command entries in /bin. Nil:
	// only the commands written in Go (the shell's, commands/).
	Programs ProgramSource
	// Commands are programs without a module of their own (Go code, or a
	// runtime the platform hosts, such as Pyodide in the JS build), added
	// to the command table after the shell's, the programs' and the Go commands'; one of the
	// same name replaces theirs.
	Commands []Command
	// BatchLimit bounds each guest's buffered output on engines whose guests
	// cannot yield (GOOS=js; see sched.go); default 64 MiB.
	BatchLimit int
	// FS, when set, is the file tree to start from (such as one loaded from a
	// saved state) instead of the default layout.
	FS *vfs.FS
	// KillGrace is how long a timed-out run may take to wind down before Run
	// returns anyway; default 2s.
	KillGrace time.Duration
	// Deterministic, when set, makes runs repeatable: a logical clock,
	// seeded randomness, files stamped with one time (see Deterministic).
	Deterministic *Deterministic
	// OnEvent, when set, hears what happens: runs, processes (see Event).
	// It is called synchronously from the sandbox's goroutines.
	OnEvent func(Event)
}

// Command is a program of the sandbox's command table (see shell.Command).
type Command = shell.Command

// ProgramSource provides the WebAssembly modules behind /bin command entries. It is
// asked lazily, the first time a program runs.
type ProgramSource interface {
	// Commands lists the command names that get /bin and /usr/bin entries.
	Commands() []string
	// Module returns a key identifying the content of a command's module
	// (such as its sha256), used to find it compiled, and a loader for its
	// bytes, called only when it must be compiled.
	Module(ctx context.Context, command string) (key string, load func() ([]byte, error), err error)
}

func (o *Options) withDefaults() {
	if o.MemoryLimitMB <= 0 {
		o.MemoryLimitMB = 256
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.FSLimitMB <= 0 {
		o.FSLimitMB = 256
	}
	if o.MaxInodes <= 0 {
		o.MaxInodes = 1_000_000
	}
	if o.MaxProcesses <= 0 {
		o.MaxProcesses = 64
	}
	if o.OutputLimit <= 0 {
		o.OutputLimit = 16 << 20
	}
	if o.MaxFDs <= 0 {
		o.MaxFDs = 1024
	}
	if o.BatchLimit <= 0 {
		o.BatchLimit = 64 << 20
	}
	if o.KillGrace <= 0 {
		o.KillGrace = 2 * time.Second
	}
}

// Sandbox is one isolated machine: a VFS, a shell session, processes.
// Its methods are safe for concurrent use; runs are serialized like commands
// typed at one terminal.
type Sandbox struct {
	opt    Options
	engine platform.Engine // shared: compiled modules are reused across sandboxes
	sched  scheduler
	fs     *vfs.FS
	procs  *procTable
	// The shell session is made on first use, so that Fork stays O(1).
	shOnce  sync.Once
	sh      *shell.Session
	shErr   error
	shSetup func() (*shell.Session, error)
	// shFrom is the state a fork's shell starts with (its parent's when it
	// forked), until that shell is made.
	shFrom *shell.Session

	runMu  sync.Mutex // one Run at a time
	ttyOut io.Writer  // its stdout and stderr writers, when they are one (see RunOptions.Terminal)
	ttyErr io.Writer
	mu     sync.Mutex
	closed bool
	stop   context.CancelFunc // cancels the run in progress (Close)

	commands *shell.Commands
	runID    atomic.Int64 // the current run's number, for events
}

// New makes a sandbox with the default layout and environment. Nothing of the
// host is visible inside it.
func New(ctx context.Context, opt Options) (*Sandbox, error) {
	opt.withDefaults()
	fsys := opt.FS
	if fsys == nil {
		vo := vfs.Options{
			MaxBytes:  int64(opt.FSLimitMB) << 20,
			MaxInodes: int64(opt.MaxInodes),
		}
		if d := opt.Deterministic; d != nil {
			epoch := d.epoch()
			vo.Now = func() time.Time { return epoch }
		}
		fsys = vfs.NewDefault(vo, commandTable(opt, nil).Names())
	}
	if t, ok := opt.Programs.(*AssetPrograms); ok {
		for dir, afs := range t.dataMounts() {
			if err := fsys.MkdirAll(dir, 0o755); err != nil {
				return nil, fsErr("New", dir, err)
			}
			if err := fsys.Mount(dir, afs, true); err != nil {
				return nil, fsErr("New", dir, err)
			}
		}
	}
	return newSandbox(ctx, opt, fsys, nil)
}

// commandTable is the sandbox's one command table: the shell's own
// commands, the Go commands of commands/ (curl and wget offline until a
// network policy replaces them through Options.Commands), the programs of
// Programs, ps and its family over the sandbox's process table, then
// Options.Commands. A later entry of the same name wins.
func commandTable(opt Options, procCmds []shell.Command) *shell.Commands {
	var programs []string
	if opt.Programs != nil {
		programs = opt.Programs.Commands()
	}
	if procCmds == nil {
		procCmds = procps.Commands(nil, nil) // (for their names)
	}
	return shell.NewCommands(shell.ShellCommands(), text.Commands(), curl.Offline(), shell.Programs(programs), procCmds, opt.Commands)
}

// newSandbox wires a sandbox around a VFS; from, when set, is the sandbox
// whose shell state (cwd, variables, functions) the new one starts with.
func newSandbox(ctx context.Context, opt Options, fsys *vfs.FS, from *shell.Session) (*Sandbox, error) {
	sb := &Sandbox{opt: opt, fs: fsys, engine: opt.Engine, shFrom: from}
	now := time.Now
	if d := opt.Deterministic; d != nil {
		// (a clock of its own: the shell's logical time does not move
		// with every process start and /proc read)
		now = (&logicalClock{epoch: d.epoch()}).Now
	}
	boot := now()
	sb.procs = newProcTable(opt.MaxProcesses, now, func() procfs.System { return sb.procSystem(boot) })
	sb.procs.full = func() { sb.emit(Event{Kind: "limit", Limit: "processes"}) }
	if sb.engine == nil {
		eng, err := defaultEngine(ctx)
		if err != nil {
			return nil, newErr(CodeInternal, "New", "", err)
		}
		sb.engine = eng
	}
	sb.sched = schedulerFor(sb.engine, opt.BatchLimit)
	sb.commands = commandTable(opt, procps.Commands(sb.procs.table, sb.enterCommand))
	sb.mountProc()
	if opt.OnEvent != nil {
		sb.commands = sb.observed(sb.commands)
	}
	env := shell.DefaultEnv()
	for k, v := range opt.Env {
		env = append(env, k+"="+v)
	}
	cfg := shell.Config{
		FS:     fsys,
		Env:    env,
		Dir:    "/home/user",
		Pid:    1,
		PPid:   0,
		Exec:   sb.execGuest,
		NewPid: sb.procs.alloc,
		Kill:   sb.procs.table.Signal,
		// Pipeline stages and background jobs of the shell itself.
		MaxSubshells: 4 * opt.MaxProcesses,
		// What the shell keeps in the host's memory is bounded by the
		// same limit as a program's memory.
		MaxVarBytes:     int64(opt.MemoryLimitMB) << 20,
		BatchedPrograms: sb.sched.inline(),
		Commands:        sb.commands,
	}
	if d := opt.Deterministic; d != nil {
		clock := &logicalClock{epoch: d.epoch()}
		cfg.Now = clock.Now
		var mu sync.Mutex
		r := d.stream(0)
		cfg.Rand = func() uint64 {
			mu.Lock()
			defer mu.Unlock()
			return r.Uint64()
		}
	}
	sb.shSetup = func() (*shell.Session, error) {
		var s *shell.Session
		var err error
		if from != nil {
			s, err = from.Fork(cfg)
		} else {
			s, err = shell.New(cfg)
		}
		if err == nil {
			sb.procs.table.Set(procfs.Process{Pid: 1, Argv: []string{"bash"}, Env: env, Dir: s.Dir,
				Uid: shell.UserID, Gid: shell.UserID, Start: boot})
		}
		return s, err
	}
	return sb, nil
}

// session is the sandbox's shell, made on first use.
func (sb *Sandbox) session() (*shell.Session, error) {
	sb.shOnce.Do(func() {
		sb.sh, sb.shErr = sb.shSetup()
		sb.shSetup = nil
	})
	if sb.shErr != nil {
		return nil, newErr(CodeInternal, "shell", "", sb.shErr)
	}
	return sb.sh, nil
}

// RunOptions tune one Run.
type RunOptions struct {
	Stdin   io.Reader
	Env     map[string]string // added for this run only
	Cwd     string            // for this run only
	Timeout time.Duration     // overrides Options.Timeout
	// Stdout and Stderr, when set, receive output as it is produced (it is
	// also collected in the Result, up to OutputLimit).
	Stdout, Stderr io.Writer
	// Stateless runs on a copy of the session: cwd, variables and functions
	// set by the script are not kept (files written are).
	Stateless bool
	// Script runs the code as one script (`bash -c`), so the EXIT trap fires
	// at its end; otherwise lines run like a terminal's.
	Script bool
	// Name is $0 and the name in the shell's messages ("bash" by default).
	Name string
	// Terminal says Stdin is an interactive terminal: programs reading it
	// directly see a tty (isatty), so a REPL starts. Stdin must be an
	// *os.File or a ContextReader for this (other readers reach commands
	// through a pipe).
	// Stdout and Stderr look like a terminal to programs writing to them
	// directly when they have an IsTerminal() bool method that reports true.
	Terminal bool
}

// StdinText is a RunOptions.Stdin holding text, or none (nil) for "": a
// request's stdin field left out reads /dev/null, as a command an agent's
// harness starts without input does (rg then searches the directory, where
// it would search an empty pipe).
func StdinText(s string) io.Reader {
	if s == "" {
		return nil
	}
	return strings.NewReader(s)
}

// ContextReader is a RunOptions.Stdin that reads under the run's context:
// WithContext(ctx) gives the reader the run uses, whose Read returns (with
// io.EOF or an error) once ctx is done even while no input comes. It is
// read directly, where another reader is read ahead by a goroutine feeding
// a pipe: nothing typed is lost in a read-ahead when the run ends, and no
// goroutine is left blocked in Read (the JS engine's streamed stdin waits
// on the thread itself).
type ContextReader interface {
	io.Reader
	WithContext(ctx context.Context) io.Reader
}

// Result of a Run.
type Result struct {
	ExitCode  int
	Stdout    []byte
	Stderr    []byte
	Duration  time.Duration
	Truncated bool // output went past OutputLimit and was cut (with a marker)
	TimedOut  bool // the run was killed at its timeout (ExitCode 124)
	Exited    bool // the script ran `exit` (ends an interactive session)
}

// Run runs a shell script in the session. Its exit status is in the Result;
// the error is only for failures of the sandbox itself (closed, cancelled).
func (sb *Sandbox) Run(ctx context.Context, script string, opt RunOptions) (*Result, error) {
	if err := sb.checkOpen("Run"); err != nil {
		return nil, err
	}
	sh, err := sb.session()
	if err != nil {
		return nil, err
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	sb.mu.Lock()
	if sb.closed { // (closed while this run waited for the last)
		sb.mu.Unlock()
		return nil, newErr(CodeClosed, "Run", "", errors.New("sandbox is closed"))
	}
	sb.stop = stop
	sb.mu.Unlock()
	defer func() {
		sb.mu.Lock()
		sb.stop = nil
		sb.mu.Unlock()
	}()
	start := time.Now()
	sb.runID.Add(1)
	sb.emit(Event{Kind: "run_start", Script: script})
	floodCtx, flood := context.WithCancelCause(ctx)
	defer flood(nil)
	onFlood := func() { flood(errOutputFlood) }
	outW, errW := sb.observeOutput(opt.Stdout, opt.Stderr)
	stdout := newCapWriter(sb.opt.OutputLimit, outW, onFlood)
	stderr := newCapWriter(sb.opt.OutputLimit, errW, onFlood)
	var env []string
	for k, v := range opt.Env {
		env = append(env, k+"="+v)
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = sb.opt.Timeout
	}
	runCtx, cancel := context.WithTimeout(floodCtx, timeout)
	defer cancel()

	type outcome struct {
		status int
		err    error
	}
	done := make(chan outcome, 1)
	stdin := opt.Stdin
	sb.ttyOut, sb.ttyErr = nil, nil
	if isTerminal(opt.Stdout) {
		sb.ttyOut = stdout
	}
	if isTerminal(opt.Stderr) {
		sb.ttyErr = stderr
	}
	if r, ok := stdin.(ContextReader); ok {
		stdin = r.WithContext(runCtx) // read directly: it returns by itself when the run ends
	} else if _, isFile := stdin.(*os.File); stdin != nil && !isFile {
		// A reader that blocks forever must not keep a guest blocked past the
		// run's end: the guest reads through a pipe fed from here, closed on
		// cancellation. (*os.File stdin, such as a terminal, is used directly.)
		stdin = cancelableReader(runCtx, stdin)
		opt.Terminal = false // (a pipe, as guests see it)
	}
	if opt.Terminal {
		stdin = terminal{stdin} // for guests and the shell's `[ -t 0 ]`
	}
	if stdin == nil {
		// No input is /dev/null, the device (not an empty pipe): programs
		// that look, as rg does for whether to search stdin, see so.
		if null, err := sb.fs.OpenFile("/dev/null", os.O_RDONLY, 0); err == nil {
			defer null.Close()
			stdin = null
		}
	}
	// The shell's `[ -t 1 ]`, and its /dev/tty, know a terminal output.
	var shellOut, shellErr io.Writer = stdout, stderr
	if sb.ttyOut != nil {
		shellOut = terminalWriter{stdout}
	}
	if sb.ttyErr != nil {
		shellErr = terminalWriter{stderr}
	}
	go func() {
		st, err := sh.Run(runCtx, script, shell.Stdio{Stdin: stdin, Stdout: shellOut, Stderr: shellErr},
			shell.RunOptions{Name: opt.Name, Script: opt.Script, Stateless: opt.Stateless, Dir: opt.Cwd, Env: env})
		done <- outcome{st, err}
	}()
	var out outcome
	select {
	case out = <-done:
	case <-runCtx.Done():
		// Escalation: the context cancel kills guests and stops the shell at
		// its next statement; if that does not happen within the grace
		// period, give up waiting.
		select {
		case out = <-done:
		case <-time.After(sb.opt.KillGrace):
			out = outcome{124, runCtx.Err()}
		}
	}
	res := &Result{ExitCode: out.status, Duration: time.Since(start), Exited: sh.Exited()}
	if context.Cause(floodCtx) == errOutputFlood && ctx.Err() == nil {
		res.ExitCode = exitFlooded
	} else if timedOut(runCtx, out.status) && ctx.Err() == nil {
		res.TimedOut = true
		res.ExitCode = 124
		fmt.Fprintf(stderr, "wasmsand: run timed out after %v and was killed\n", timeout)
	} else if ctx.Err() != nil {
		res.Stdout, res.Truncated = stdout.result()
		res.Stderr, _ = stderr.result()
		sb.emit(Event{Kind: "run_end", Status: intp(res.ExitCode), DurationMs: ms(res.Duration), Reason: "canceled"})
		return res, newErr(CodeCanceled, "Run", "", ctx.Err())
	}
	var t1, t2 bool
	res.Stdout, t1 = stdout.result()
	res.Stderr, t2 = stderr.result()
	res.Truncated = t1 || t2
	switch {
	case res.ExitCode == exitFlooded:
		sb.emit(Event{Kind: "limit", Limit: "output_flood"})
	case res.Truncated:
		sb.emit(Event{Kind: "limit", Limit: "output"})
	}
	if res.TimedOut {
		sb.emit(Event{Kind: "limit", Limit: "timeout"})
	}
	sb.emit(Event{Kind: "run_end", Status: intp(res.ExitCode), DurationMs: ms(res.Duration), TimedOut: res.TimedOut, Truncated: res.Truncated})
	return res, nil
}

// timedOut: the run's deadline ended it. Under GOOS=js its timer may not
// have fired yet when the run comes back (none can while a guest runs), so
// a run that ended as timed out is also checked against the clock.
func timedOut(runCtx context.Context, status int) bool {
	if errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		return true
	}
	d, ok := runCtx.Deadline()
	return ok && status == platform.ExitTimeout && !time.Now().Before(d)
}

// errOutputFlood ends a run that keeps printing far past OutputLimit.
var errOutputFlood = errors.New("output limit exceeded")

// exitFlooded is the status of a run ended for flooding its output: 128+SIGPIPE,
// as for a writer whose reader went away.
const exitFlooded = 141

// Cwd is the session's current directory.
func (sb *Sandbox) Cwd() string {
	sh, err := sb.session()
	if err != nil {
		return "/"
	}
	return sh.Dir()
}

// MemoryHeld is what the sandbox keeps in the host's memory between runs:
// its files and what its snapshots keep of them (vfs.FS.Held), and its
// shell variables. (A running program's memory comes and goes with it.)
func (sb *Sandbox) MemoryHeld() int64 {
	n := sb.fs.Held()
	if sh, err := sb.session(); err == nil {
		n += sh.VarBytes()
	}
	return n
}

// ShorterTimeout is a client's timeout (ms, 0: none asked) as a server
// applies it: it can only shorten the sandbox's own.
func (sb *Sandbox) ShorterTimeout(ms int) time.Duration {
	if d := time.Duration(ms) * time.Millisecond; ms > 0 && d < sb.opt.Timeout {
		return d
	}
	return 0
}

// FS gives direct access to the sandbox's file tree.
func (sb *Sandbox) FS() *vfs.FS { return sb.fs }

// Command looks a name up in the sandbox's command table.
func (sb *Sandbox) Command(name string) (Command, bool) { return sb.commands.Lookup(name) }

// Close releases the sandbox: a run in progress is cancelled (it returns
// CodeCanceled), later calls fail with CodeClosed, and what the process-wide
// module cache kept for its files is dropped.
func (sb *Sandbox) Close() error {
	sb.mu.Lock()
	if sb.closed {
		sb.mu.Unlock()
		return nil
	}
	sb.closed = true
	stop := sb.stop
	sb.mu.Unlock()
	if stop != nil {
		stop()
	}
	sharedModules.forget(sb.fs)
	return nil
}

func (sb *Sandbox) checkOpen(op string) error {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.closed {
		return newErr(CodeClosed, op, "", errors.New("sandbox is closed"))
	}
	return nil
}

// Snapshot is a saved state of a sandbox's files.
type Snapshot struct{ s *vfs.Snapshot }

// Snapshot saves the file tree in O(1); later writes don't affect it. Mounts
// and the shell's state are not part of it.
func (sb *Sandbox) Snapshot() *Snapshot { return &Snapshot{sb.fs.Snapshot()} }

// Restore puts the file tree back as it was at s, in O(1).
func (sb *Sandbox) Restore(s *Snapshot) error {
	if s == nil || s.s == nil {
		return newErr(CodeInvalidArgument, "Restore", "", errors.New("nil snapshot"))
	}
	sb.fs.Restore(s.s)
	return nil
}

// Fork makes an independent copy of the sandbox in O(1): files (by
// copy-on-write), cwd, variables and functions. Neither sees the other's
// later changes.
func (sb *Sandbox) Fork(ctx context.Context) (*Sandbox, error) {
	if err := sb.checkOpen("Fork"); err != nil {
		return nil, err
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	opt := sb.opt
	opt.Engine = sb.engine
	sh := sb.shellState()
	if sh == nil {
		// Never ran: nothing of the shell to carry over.
		return newSandbox(ctx, opt, sb.fs.Clone(), nil)
	}
	// (a copy: the child's shell is made on its first use, and this one
	// may run again before that)
	return newSandbox(ctx, opt, sb.fs.Clone(), sh.Copy())
}

// shellState is the session whose state the sandbox's shell has: its own,
// or, for a fork whose shell has not started, the state it forked with;
// nil when there is none. The caller holds runMu.
func (sb *Sandbox) shellState() *shell.Session {
	if sb.sh != nil {
		return sb.sh
	}
	return sb.shFrom
}

// ShellState is the shell's state as bytes, for LoadShellState in another
// sandbox, in this process or another: the working directory and pushd
// stack, variables and their attributes, functions, aliases, set and
// shopt options, traps, umask, positional parameters, $? (not jobs nor
// open fds: a run's end closes them). Files are not in it. It is nil when
// the shell never ran: there is nothing to save.
func (sb *Sandbox) ShellState() ([]byte, error) {
	if err := sb.checkOpen("ShellState"); err != nil {
		return nil, err
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	sh := sb.shellState()
	if sh == nil {
		return nil, nil
	}
	state, err := sh.SaveState()
	if err != nil {
		return nil, newErr(CodeInternal, "ShellState", "", err)
	}
	return state, nil
}

// LoadShellState makes the shell's state the one ShellState saved,
// replacing what the shell had. The state is read, never run: bytes that
// are no saved state are CodeInvalidArgument, a state it refuses
// (truncated, altered, beyond this sandbox's limits) CodeCorruptState, and
// the shell is then left as it was.
func (sb *Sandbox) LoadShellState(state []byte) error {
	if err := sb.checkOpen("LoadShellState"); err != nil {
		return err
	}
	sh, err := sb.session()
	if err != nil {
		return err
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	if err := sh.LoadState(state); err != nil {
		code := CodeCorruptState
		if errors.Is(err, shell.ErrNotState) {
			code = CodeInvalidArgument
		}
		return newErr(code, "LoadShellState", "", err)
	}
	return nil
}
