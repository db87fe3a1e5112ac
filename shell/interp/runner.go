// Package interp is the sandbox's bash evaluator: expansion, execution and
// builtins over the syntax package's tree. It reaches files only through
// the VFS, programs only through Config.Exec, and time and randomness only
// through Config, so nothing of the host is visible by construction.
package interp

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	mrand "math/rand/v2"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// ExecRequest is a program the shell asks its host to run.
type ExecRequest struct {
	Pid    int    // the pid the program takes over (a child shell's, as exec), or 0
	PPid   int    // the shell process running it ($BASHPID)
	Path   string // absolute VFS path found for Argv[0]
	Argv   []string
	Env    []string // K=V
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Umask  uint32
	// Files are the open fds above 2 the program inherits (`exec 3<f`,
	// `cmd 4>&1`): a *vfs.File, or a stream that is an io.Reader, an
	// io.Writer or both.
	Files map[int]any
	// ErrPrefix starts the messages of a failed exec as the shell's own
	// ("bash: line 3: "), for the caller to print.
	ErrPrefix string
	// NoSkipDots: the shell has globskipdots off. A script without #! runs
	// in bash's reinitialised copy of the shell, which keeps that option.
	NoSkipDots bool
	// Ignored are the numbers of the signals the shell ignores (an empty
	// trap): a program starts with them ignored, as exec keeps SIG_IGN.
	Ignored []int
}

// Config connects a shell to its sandbox.
type Config struct {
	FS *vfs.FS
	// Exec runs a program found in the VFS and returns its exit status.
	Exec func(ctx context.Context, req *ExecRequest) int
	// LookPath resolves a command name as execvp would (the VFS PATH).
	LookPath func(env []string, dir, name string) (string, error)
	// NewPid gives a process of the shell process ppid a process id (and
	// a release function); argv is its command line, nil for a subshell
	// (which shows its parent's). An error makes it fail like fork.
	NewPid func(ppid int, argv []string) (pid int, release func(), err error)
	// Kill signals a process that is not one of the shell's own jobs (the
	// sandbox's process table); an error is ESRCH or EPERM. Nil: only jobs.
	Kill func(pid, sig int) error
	// Now and Rand stand in for the host's clock and randomness.
	Now  func() time.Time
	Rand func() uint64
	// seed seeds $RANDOM: Rand when given, else the clock with the runtime's
	// generator (as bash seeds it from the time), which is cheap where
	// Rand's default (the system's source) is not: ~10 ms at a JS core's
	// first use, for a timer the system source arms
	seed func() uint64
	// Sequential runs pipeline stages one after another over bounded
	// buffers and background jobs at once, without goroutines (GOOS=js,
	// where a shell may run inside a host call that must not block).
	Sequential bool
	// BatchedPrograms: the programs Exec runs read their whole stdin before
	// they start and cannot wait on a pipe (core's batched scheduler,
	// GOOS=js). A coprocess then runs when the shell first reads from it
	// (or waits for it), on what the shell wrote to it by then.
	BatchedPrograms bool
	// UID/GID of the sandbox user (permission checks, $UID).
	UID, GID int
	// MaxSubshells bounds the subshells a run may have going at once.
	MaxSubshells int
	// MaxVarTotal bounds the bytes the session's shells hold in variables
	// (default 256 MiB); one variable holds at most MaxVarBytes.
	MaxVarTotal int64
	// Version is $BASH_VERSION; VersInfo is ${BASH_VERSINFO[@]}.
	Version  string
	VersInfo []string
}

// options are `set -o` options.
type options struct {
	errexit, nounset, xtrace, noglob, noclobber, allexport, pipefail, noexec,
	verbose, monitor, notify, hashall, braceexpand, histexpand, interactiveComments,
	keyword, onecmd, physical, posix, privileged, functrace, errtrace, ignoreeof,
	nolog, vi, emacs, history bool
}

// Runner is one shell: its state and the code running in it.
type Runner struct {
	cfg *Config

	vars    *varTable
	funcs   *funcTable
	aliases *aliasTable
	// ignoredAtEntry: signals ignored when the shell started (not trappable)
	ignoredAtEntry map[string]bool
	// viaCommand: a builtin runs under `command` (a special builtin's
	// error then does not end a POSIX shell)
	viaCommand int
	// paramsSet counts `set` changing the positional parameters (a
	// sourced file's change outlives its arguments)
	paramsSet int
	opts      options
	shopt     shopts
	traps     *trapTable
	dir       string
	dirs      []string // pushd stack (without the current directory)
	fds       *fdTable
	umask     uint32

	name   string   // $0
	params []string // $1 ...
	frames []*frame // function calls
	// compound commands running with fd 0 redirected (runAsync)
	stdinRedirected int
	// the prefix assignments of the function calls in progress, innermost
	// last (withTempFrame)
	tempFrames []*tempFrame

	status int // $?
	lastBg int // $!
	// execPid: this child shell was made for one simple command (`cmd &`),
	// so a program it runs from its top level takes over its pid, as the
	// program a forked bash execs does ($! is the program).
	execPid, execPPid int
	psubJobs          *jobTable // process substitutions, for wait $!
	coprocs           []coproc
	// timeInSubshell: the pending `time` report of a redirected subshell
	timeInSubshell *timeReport
	pid            int // $$
	ppid           int
	bashpid        int
	subLevel       int // BASH_SUBSHELL
	interactive    bool
	cmdMode        bool // bash -c: syntax errors say "-c: line N"
	line           int
	lastArg        string            // $_
	curCmd         *syntax.SimpleCmd // BASH_COMMAND (printed when read)
	curCmdText     string            // BASH_COMMAND of a compound command (debugCompound)
	sourceName     string            // BASH_SOURCE of the code running outside functions

	flow       flowKind
	flowN      int
	exitStatus int
	noErrexit  int // inside conditions, && || lists, ! pipelines
	inTrap     int
	loops      int
	depth      int // function/eval/source nesting

	ifsCache     *expand.IFS
	getoptsPos   int
	pipeStatus   []int
	comsubStatus int
	hadComsub    bool

	jobs     *jobTable
	start    time.Time
	zoneName string // TZ as last loaded (localTime)
	// oneShot is the last command of a bash -c string when bash would exec
	// it in place of the shell; curSimple the simple command running.
	oneShot, curSimple *syntax.SimpleCmd
	zone               *time.Location
	secsBase           int64
	rseed              uint32
	lastRand           int
	rseed32            uint32

	sig     *sigQueue // signals sent to this shell
	ctx     context.Context
	cancel  context.CancelFunc
	release func() // frees the pid of a subshell
	live    *atomic.Int64
	// what the session's shells hold in variables (shared with
	// subshells), this shell's last sum, what it inherited, and the bytes
	// assigned since it last summed (checkSize)
	mem                          *memAccount
	varTotal, varBase, sinceWalk int64
	hist                         []string
	hashed                       *cmdHash
	mu                           *sync.Mutex // guards what background jobs share (jobs, signals)

	disabled    map[string]bool // enable -n
	sourceDepth int             // files being sourced (return is allowed)
	readsStdin  bool            // bash -s: $- has s
	traceNest   int
	traceBefore map[string]string // set -x: NAME+= values before the assignment
	psubs       []psub
	getoptsInd  int
	mainSig     *sigQueue // the session shell's signals (kill $$ from anywhere)
	parentJobs  *jobTable // the jobs a subshell can still see (kill $!)
	ulimits     map[byte]string
	calls       []callEntry // FUNCNAME, BASH_SOURCE, BASH_LINENO
	inEval      int
	scriptMain  bool // running a script file: "main" ends FUNCNAME
	mainSource  string
}

type flowKind uint8

const (
	flowNone flowKind = iota
	flowBreak
	flowContinue
	flowReturn
	flowExit
	// flowAbort discards the rest of the current complete command (bash's
	// jump to top level after an expansion error); the shell reads on.
	flowAbort
)

// frame is a function call.
type frame struct {
	name       string
	src        string // BASH_SOURCE
	line       int    // line of the call (BASH_LINENO)
	locals     []string
	params     []string
	defLine    int
	returnTrap string
	// getopts' state when the function made OPTIND local
	savedGetopts           bool
	getoptsPos, getoptsInd int
	// the shell options when the function ran `local -`: restored on return
	savedOpts *options
}

// defaults fills what a Config leaves unset (New and CloneWith).
func (cfg *Config) defaults(pid int) {
	if cfg.MaxSubshells <= 0 {
		cfg.MaxSubshells = 256
	}
	if cfg.MaxVarTotal <= 0 {
		cfg.MaxVarTotal = 256 << 20
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.seed == nil {
		cfg.seed = cfg.Rand
		if cfg.seed == nil {
			// (the clock tells restored processes apart)
			cfg.seed = func() uint64 { return mrand.Uint64() ^ uint64(time.Now().UnixNano())*0x9e3779b97f4a7c15 }
		}
	}
	if cfg.Rand == nil {
		// ($SRANDOM) from the system's source, not the runtime's generator:
		// that one's state is the same in every process started from the JS
		// core's recorded start (jsapi/coreinit.js)
		cfg.Rand = func() uint64 {
			var b [8]byte
			rand.Read(b[:])
			return binary.LittleEndian.Uint64(b[:])
		}
	}
	if cfg.NewPid == nil {
		n := pid
		var mu sync.Mutex
		cfg.NewPid = func(int, []string) (int, func(), error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			return n, func() {}, nil
		}
	}
}

// New makes a shell with env (K=V) exported, in dir.
func New(cfg *Config, env []string, dir string, pid, ppid int) *Runner {
	cfg.defaults(pid)
	r := &Runner{
		cfg: cfg, vars: newVarTable(), funcs: newFuncTable(), aliases: newAliasTable(),
		traps: newTrapTable(), dir: dir, fds: newFdTable(), umask: 0o022,
		name: "bash", pid: pid, ppid: ppid, bashpid: pid, jobs: newJobTable(),
		start: cfg.Now(), sig: newSigQueue(), live: new(atomic.Int64), mem: &memAccount{}, mu: new(sync.Mutex),
		hashed: newCmdHash(),
	}
	r.mainSig = r.sig
	r.rseed = uint32(cfg.seed())
	r.rseed32 = uint32(cfg.seed())
	r.opts.braceexpand = true
	r.opts.hashall = true
	r.opts.interactiveComments = true
	r.shopt = defaultShopts()
	m := r.vars.m
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if strings.HasPrefix(k, funcEnvPrefix) && strings.HasSuffix(k, funcEnvSuffix) {
			r.importFunc(strings.TrimSuffix(strings.TrimPrefix(k, funcEnvPrefix), funcEnvSuffix), v)
			continue
		}
		if !syntax.ValidName(k) {
			continue
		}
		m[k] = &Var{str: v, set: true, attrs: attrExport}
	}
	r.initVars()
	return r
}

// defaultVars are the variables a new shell sets unless its environment
// has them (tables rather than code: initVars runs for every sandbox, and
// as a long function V8 optimised it at each start of the JS build).
var defaultVars = [...]struct{ name, value string }{
	{"IFS", " \t\n"}, {"PS4", "+ "}, {"OPTIND", "1"}, {"OPTERR", "1"},
	{"COMP_WORDBREAKS", " \t\n\"'@><=;|&(:"}, {"HOSTNAME", "wasmsand"}, {"HOSTTYPE", "wasm32"},
	{"MACHTYPE", "wasm32-wasmsand-linux-gnu"}, {"OSTYPE", "linux-gnu"}, {"BASH", "/bin/bash"},
	{"TERM", "dumb"}, {"HISTFILESIZE", "500"}, {"HISTSIZE", "500"},
}

// dynVars are the variables whose value the shell computes when read.
var dynVars = [...]struct {
	name string
	kind dynKind
}{
	{"RANDOM", dynRandom}, {"SRANDOM", dynSRandom}, {"SECONDS", dynSeconds}, {"LINENO", dynLineno},
	{"BASHPID", dynBashpid}, {"EPOCHSECONDS", dynEpochSeconds}, {"EPOCHREALTIME", dynEpochRealtime},
	{"BASH_SUBSHELL", dynSubshell}, {"FUNCNAME", dynFuncname}, {"BASH_SOURCE", dynBashSource},
	{"BASH_LINENO", dynBashLineno}, {"PIPESTATUS", dynPipestatus}, {"SHELLOPTS", dynShellopts},
	{"BASHOPTS", dynBashopts}, {"GROUPS", dynGroups}, {"DIRSTACK", dynDirstack},
	{"BASH_COMMAND", dynBashCommand}, {"HISTCMD", dynHistcmd}, {"BASH_ARGV0", dynArgv0}, {"BASH_ARGC", dynBashArgc}, {"BASH_ARGV", dynBashArgv},
	{"BASH_ALIASES", dynAliases}, {"BASH_CMDS", dynCmds},
}

func (r *Runner) initVars() {
	m := r.vars.m
	for _, d := range defaultVars {
		if _, ok := m[d.name]; !ok {
			m[d.name] = &Var{str: d.value, set: true}
		}
	}
	if _, ok := m["BASH_VERSION"]; !ok {
		m["BASH_VERSION"] = &Var{str: r.cfg.Version, set: true}
	}

	m["UID"] = &Var{str: strconv.Itoa(r.cfg.UID), set: true, attrs: attrReadonly | attrInteger}
	m["EUID"] = &Var{str: strconv.Itoa(r.cfg.UID), set: true, attrs: attrReadonly | attrInteger}
	m["PPID"] = &Var{str: strconv.Itoa(r.ppid), set: true, attrs: attrReadonly | attrInteger}
	vi := newIndexed()
	for _, s := range r.cfg.VersInfo {
		vi.append(s)
	}
	m["BASH_VERSINFO"] = &Var{arr: vi, set: true, attrs: attrReadonly | attrArray}
	if pwd, ok := m["PWD"]; !ok || pwd.str != r.dir {
		m["PWD"] = &Var{str: r.dir, set: true, attrs: attrExport}
	}
	if _, ok := m["OLDPWD"]; !ok {
		m["OLDPWD"] = &Var{attrs: attrExport}
	}
	lvl := 0
	if v, ok := m["SHLVL"]; ok {
		lvl, _ = strconv.Atoi(v.str)
	}
	m["SHLVL"] = &Var{str: strconv.Itoa(lvl + 1), set: true, attrs: attrExport}
	if _, ok := m["POSIXLY_CORRECT"]; ok {
		r.opts.posix = true
	}
	for _, v := range dynVars {
		m[v.name] = newDynVar(v.kind)
	}
	m["FUNCNAME"].set = false // only set inside functions (bash: unset at top level)
}

// newDynVar is a dynamic variable as a new shell has it.
func newDynVar(k dynKind) *Var {
	v := &Var{dyn: k, set: true}
	switch k {
	case dynShellopts, dynBashopts:
		v.attrs = attrReadonly
	case dynFuncname, dynBashSource, dynBashLineno, dynPipestatus, dynGroups, dynDirstack, dynBashArgc, dynBashArgv:
		v.attrs = attrArray
	case dynRandom, dynSeconds, dynSRandom, dynLineno:
		v.attrs = attrInteger
	case dynAliases, dynCmds:
		v.attrs, v.assoc = attrAssoc, newAssoc()
	}
	return v
}

// SetStdio sets fds 0-2 (streams the shell does not own).
func (r *Runner) SetStdio(in io.Reader, out, errw io.Writer) {
	// nil is empty input or discarded output: the fds are open all the same
	if in == nil {
		in = eofReader{}
	}
	if out == nil {
		out = io.Discard
	}
	if errw == nil {
		errw = io.Discard
	}
	set := func(fd int, f *openFile, x any) {
		if x == Closed {
			f.drop()
			f = nil // a parent shell closed it
		}
		r.fds.set(fd, f)
	}
	set(0, borrowed(in, nil), in)
	set(1, borrowed(nil, out), out)
	set(2, borrowed(nil, errw), errw)
}

// SetFiles opens the fds above 2 a parent passed (ExecRequest.Files); the
// shell does not close them.
func (r *Runner) SetFiles(files map[int]any) {
	for fd, x := range files {
		if fd <= 2 || x == Closed {
			continue
		}
		in, _ := x.(io.Reader)
		out, _ := x.(io.Writer)
		if f := borrowed(in, out); f != nil {
			r.fds.set(fd, f)
		}
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// Dir is the current directory.
func (r *Runner) Dir() string { return r.dir }

// SetParams sets $0 and the positional parameters.
func (r *Runner) SetParams(name string, args []string) {
	r.name = name
	r.params = args
}

// SetScript marks a shell running a script file (FUNCNAME ends in "main",
// BASH_SOURCE in the file's name).
func (r *Runner) SetScript(name string) {
	r.scriptMain = true
	r.mainSource = name
	r.sourceName = name
}

// SetCommandMode makes syntax errors read "NAME: -c: line N" as for bash -c.
func (r *Runner) SetCommandMode(on bool) { r.cmdMode = on }

// SetExecutionString sets BASH_EXECUTION_STRING, the -c string.
func (r *Runner) SetExecutionString(s string) {
	r.mutVars()["BASH_EXECUTION_STRING"] = &Var{str: s, set: true}
}

// SetInteractive makes errors that would end a script end only the
// current command line, as at a terminal.
func (r *Runner) SetInteractive(on bool) {
	r.interactive = on
	if on {
		m := r.mutVars()
		if _, ok := m["PS1"]; !ok {
			m["PS1"] = &Var{str: `\s-\v\$ `, set: true}
		}
		if _, ok := m["PS2"]; !ok {
			m["PS2"] = &Var{str: "> ", set: true}
		}
	}
}

// Umask is the file-creation mask.
func (r *Runner) Umask() uint32 { return r.umask }

// SetUmask sets the file-creation mask.
func (r *Runner) SetUmask(m uint32) { r.umask = m & 0o777 }

// SetIgnoredAtEntry marks the signals (by number) the shell started with
// ignored: as bash, it lists them with an empty trap and cannot trap or
// reset them.
func (r *Runner) SetIgnoredAtEntry(sigs []int) {
	if len(sigs) == 0 {
		return
	}
	r.traps = r.traps.writable()
	r.ignoredAtEntry = map[string]bool{}
	for _, n := range sigs {
		if name := signalName(n); n > 0 && name != "" {
			r.ignoredAtEntry[name] = true
			r.traps.m[name] = ""
		}
	}
}

// ignoredSignals are the numbers of the signals the shell ignores, for its
// jobs and programs (EXIT, DEBUG, ERR and RETURN are no signals).
func (r *Runner) ignoredSignals() []int {
	var out []int
	for k, v := range r.traps.m {
		if n, ok := signalNum(k); ok && n > 0 && v == "" {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// Exited reports whether the shell ended (exit, set -e, a fatal error).
func (r *Runner) Exited() bool { return r.flow == flowExit }

// ResetExit lets a session that ended run again (a new terminal line).
func (r *Runner) ResetExit() {
	if r.flow == flowExit {
		r.flow = flowNone
	}
}

// Environ is the exported environment.
func (r *Runner) Environ() []string { return r.environ() }

// SetOption sets a `set -o` option by its letter or long name.
func (r *Runner) SetOption(name string, on bool) error {
	if len(name) == 1 {
		if p := r.optByLetter(name[0]); p != nil {
			*p = on
			return nil
		}
		return fmt.Errorf("-%s: invalid option", name)
	}
	if p := r.optByName(name); p != nil {
		*p = on
		return nil
	}
	return fmt.Errorf("%s: invalid option name", name)
}

// clone makes a subshell: a copy of the state that shares nothing the
// child may change (variables and functions copy-on-write).
func (r *Runner) clone() *Runner {
	c := *r
	c.vars = r.vars.share()
	c.funcs = r.funcs.share()
	c.aliases = r.aliases.share()
	c.traps = r.traps.forSubshell()
	c.fds = r.fds.dup()
	c.frames = append([]*frame(nil), r.frames...)
	c.calls = append([]callEntry(nil), r.calls...)
	c.params = r.params
	c.dirs = append([]string(nil), r.dirs...)
	c.parentJobs = r.jobs
	c.jobs = newJobTable()
	c.psubJobs = nil
	c.subLevel++
	c.psubs = nil
	if r.disabled != nil {
		c.disabled = map[string]bool{}
		for k, v := range r.disabled {
			c.disabled[k] = v
		}
	}
	if r.ulimits != nil {
		c.ulimits = make(map[byte]string, len(r.ulimits))
		for k, v := range r.ulimits {
			c.ulimits[k] = v
		}
	}
	c.sig = newSigQueue()
	c.hashed = r.hashed.clone()
	c.pipeStatus = append([]int(nil), r.pipeStatus...)
	c.flow = flowNone
	c.release = nil
	c.ifsCache = r.ifsCache
	c.varBase, c.sinceWalk = r.varTotal, 0 // (it charges what it adds)
	return &c
}

// VarBytes is what the session's shells hold in variables, as last summed.
func (r *Runner) VarBytes() int64 { return r.mem.Total() }

// Clone makes an independent copy of the shell (a forked sandbox).
func (r *Runner) Clone() *Runner {
	c := r.clone()
	c.subLevel = r.subLevel
	c.mainSig = c.sig
	c.mem, c.varBase = &memAccount{}, 0 // (a sandbox of its own)
	c.jobs = newJobTable()
	c.parentJobs = nil
	return c
}

// finish releases what a subshell holds.
func (r *Runner) finish() {
	r.finishPsubs()
	r.fds.closeAll()
	r.vars.release()
	r.mem.drop(r)
	if r.release != nil {
		r.release()
	}
}

// fatalError ends a non-interactive shell (an expansion error): reported,
// status 1 (or the given one).
type fatalError struct {
	msg    string
	status int  // 1 when zero; 127 for unset parameters
	arith  bool // an arithmetic expression's error
	quiet  bool // reported already
}

func (e *fatalError) Error() string { return e.msg }

// errorf reports an error the way bash does: "bash: line N: msg".
func (r *Runner) errorf(format string, a ...any) {
	r.errmsg(fmt.Sprintf(format, a...))
}

func (r *Runner) errmsg(msg string) {
	r.stderr(r.msgPrefix() + msg + "\n")
}

// msgPrefix starts an error message: "bash: line 3: ".
func (r *Runner) msgPrefix() string {
	var b strings.Builder
	b.WriteString(r.errPrefix())
	b.WriteString(": ")
	if !r.interactive {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(r.line))
		b.WriteString(": ")
	}
	return b.String()
}

// errPrefix names where an error happened as bash does: the script, the
// sourced file, or the file a running function came from ("environment"
// for functions defined by bash -c).
func (r *Runner) errPrefix() string {
	if r.interactive {
		if r.name == "" {
			return "bash"
		}
		return r.name
	}
	if n := len(r.frames); n > 0 {
		if src := r.frames[n-1].src; src != "" {
			return src
		}
		return "environment"
	}
	if r.sourceDepth > 0 && r.sourceName != "" {
		return r.sourceName
	}
	if r.name == "" {
		return "bash"
	}
	return r.name
}

// stderr writes to fd 2.
func (r *Runner) stderr(s string) {
	if f := r.fds.get(2); f != nil {
		_, _ = f.WriteString(s)
	}
}

// RunOpts tune one Run.
type RunOpts struct {
	// Script runs the text as a script: the EXIT trap fires at its end.
	Script bool
	// Name is the source's name for BASH_SOURCE.
	Source string
	// FromStdin reads the commands from fd 0 instead of the text, a line
	// at a time, leaving the rest to the commands (bash -s).
	FromStdin bool
}

// Run parses src one complete command at a time and runs each, as bash
// reads a script. It returns the status. A panic in the shell becomes an
// error message and status 1: nothing a script does may crash the host.
func (r *Runner) Run(ctx context.Context, src string, opt RunOpts) (status int) {
	defer func() {
		if p := recover(); p != nil {
			r.internalError(p)
			status = 1
			r.status = 1
		}
	}()
	r.ctx = ctx
	if opt.Source != "" {
		r.sourceName = opt.Source
	}
	if opt.FromStdin {
		r.runStdin(ctx)
	} else {
		p := syntax.NewParser(src, 1)
		p.ScriptFile = opt.Script && !r.cmdMode
		r.runParser(ctx, p, false)
	}
	if r.flow == flowAbort {
		r.flow = flowNone
	}
	if opt.Script {
		r.runExitTrap(ctx)
	}
	if r.flow == flowExit {
		return r.exitStatus
	}
	if r.flow == flowReturn || r.flow == flowBreak || r.flow == flowContinue {
		r.flow = flowNone
	}
	return r.status
}

// internalError reports a Go panic inside the shell as an error of the
// command that caused it.
func (r *Runner) internalError(p any) {
	r.errmsg(fmt.Sprintf("internal error (please report): %v", p))
	if debugPanics {
		r.stderr(string(debug.Stack()))
	}
}

// debugPanics prints stacks of internal errors (tests set it).
var debugPanics = false

// runSource parses and runs text (a script, eval, source) starting at line.
// In an eval, a syntax error does not end the shell.
func (r *Runner) runSource(ctx context.Context, src string, line int, isEval bool) {
	r.runParser(ctx, syntax.NewParser(src, line), isEval)
}

// runStdin runs the commands fd 0 gives, reading a line at a time as the
// parser needs them, so that what they read of fd 0 is what follows them
// (bash < script, bash -s).
func (r *Runner) runStdin(ctx context.Context) {
	p := syntax.NewParser("", 1)
	p.More = func() (string, bool) {
		f := r.fds.get(0)
		if f == nil || ctx.Err() != nil {
			return "", false
		}
		data, hit, _ := f.readUntil('\n', -1)
		return string(data), hit
	}
	r.runParser(ctx, p, false)
}

func (r *Runner) runParser(ctx context.Context, p *syntax.Parser, isEval bool) {
	p.Name = r.sourceName
	p.Eval = isEval && r.inEval > 0
	p.Warn = func(line int, msg string) {
		old := r.line
		r.line = line
		r.errmsg(msg)
		r.line = old
	}
	r.depth++
	defer func() { r.depth-- }()
	echoed := 0
	for {
		p.ExtGlob, p.Posix = r.shopt.extglob, r.opts.posix
		if r.shopt.expandAliases && r.aliases.len() > 0 {
			p.Aliases = r.aliases.get
		} else {
			p.Aliases = nil
		}
		stmts, err := p.Next()
		src := p.Source()
		if off := p.Offset(); off > echoed && off <= len(src) {
			if r.opts.verbose {
				// set -v: the input as it is read
				text := src[echoed:off]
				if !strings.HasSuffix(text, "\n") {
					text += "\n"
				}
				r.stderr(text)
			}
			echoed = off
		}
		if err == io.EOF {
			return
		}
		if se, ok := err.(*syntax.Error); ok && se.Discard {
			r.syntaxError(err)
			r.status = 1
			p.SkipLine()
			continue
		}
		if se, ok := err.(*syntax.Error); ok && se.Fatal {
			r.syntaxError(err)
			if isEval {
				r.exit(1) // (bash's status from eval)
			} else {
				r.exit(2)
			}
			return
		}
		if err != nil {
			r.syntaxError(err)
			if se, ok := err.(*syntax.Error); ok && se.KeepStatus && !isEval && !r.interactive {
				r.exit(r.status) // bash ends the script, $? unchanged
				return
			}
			r.status = 2
			if isEval || r.interactive {
				if r.interactive && !isEval {
					p.SkipLine()
					continue
				}
				return
			}
			r.exit(2)
			return
		}
		if r.opts.noexec && !r.interactive {
			continue
		}
		if r.cmdMode && r.depth == 1 && !isEval && r.subLevel == 0 && p.More == nil && strings.TrimSpace(src[min(p.Offset(), len(src)):]) == "" {
			r.oneShot = oneShotCmd(stmts)
		}
		r.runStmts(ctx, stmts)
		if r.flow == flowAbort && r.depth == 1 {
			// an expansion error discarded this command: read on. bash's
			// line count goes on from the failing line, not the command's
			// end (a loop that failed on its line 2 of 4 shifts the rest)
			r.flow = flowNone
			if len(stmts) > 0 && r.line >= stmts[0].Line && compoundStmt(stmts[len(stmts)-1]) {
				p.RewindTo(r.line)
			}
			continue
		}
		if r.flow != flowNone {
			return
		}
	}
}

// compoundStmt: st is one compound command (a loop, a group...), whose
// lines an error may abandon half way.
func compoundStmt(st *syntax.Stmt) bool {
	if len(st.Pipes) != 1 || len(st.Pipes[0].Cmds) != 1 {
		return false
	}
	_, simple := st.Pipes[0].Cmds[0].(*syntax.SimpleCmd)
	return !simple
}

// syntaxError prints a parse error as bash does.
func (r *Runner) syntaxError(err error) {
	var se *syntax.Error
	if !errors.As(err, &se) {
		r.errmsg(err.Error())
		return
	}
	if se.Msg == "" {
		return // bash says nothing (some errors inside [[ ]])
	}
	prefix := r.name
	if prefix == "" {
		prefix = "bash"
	}
	if r.cmdMode {
		prefix += ": -c"
	}
	if r.sourceDepth > 0 && r.sourceName != "" {
		prefix = r.sourceName // (the sourced file is what is being read)
	}
	loc := ""
	if !r.interactive || r.cmdMode {
		loc = "line " + strconv.Itoa(se.Line) + ": "
	}
	if r.inEval > 0 && !r.interactive {
		loc = "eval: " + loc
		prefix = r.errPrefix()
	}
	r.stderr(prefix + ": " + loc + se.Msg + "\n")
	if !r.interactive && (se.Text != "" || strings.HasPrefix(se.Msg, "syntax error near")) {
		r.stderr(prefix + ": " + loc + se.QuotedText() + "\n")
	}
}

// exit ends the shell with status.
func (r *Runner) exit(status int) {
	r.flow = flowExit
	r.exitStatus = status & 0xff
	r.status = r.exitStatus
}

// fatal handles an expansion error as bash does: an unset parameter
// (${x?}, set -u) ends a non-interactive shell with 127; other errors
// discard the rest of the current complete command, status 1, and the
// shell reads on.
func (r *Runner) fatal(err error, status int) {
	if fe, ok := err.(*fatalError); ok && fe.status != 0 {
		status = fe.status
	}
	if fe, ok := err.(*fatalError); !ok || !fe.quiet {
		r.errmsg(err.Error())
	}
	if r.opts.posix {
		status = 127 // (POSIX: an expansion error ends the shell)
	}
	if status == 127 && !r.interactive {
		if r.subLevel > 0 {
			status = 1 // a subshell ends with 1 (bash's exit status there)
		}
		r.exit(status)
		return
	}
	if status == 127 {
		status = 1
	}
	r.status = status
	r.flow = flowAbort
}

// checkCtx stops the shell when its context ended (timeout, kill).
func (r *Runner) checkCtx(ctx context.Context) bool {
	if ctx.Err() != nil || pastDeadline(ctx) {
		r.stop(ctx)
		return true
	}
	return false
}

// stop ends the shell for its context's end: 124 (timeout), 128+SIGTERM (`kill`).
func (r *Runner) stop(ctx context.Context) {
	if r.flow != flowExit {
		r.exit(124)
		if errors.Is(context.Cause(ctx), errKilled) {
			r.exit(128 + sigTERM)
		}
	}
}

// errKilled is the cause of a job's context ended by `kill`.
var errKilled = errors.New("killed")

// fileInfo is what the shell needs to know of a file.
func (r *Runner) stat(p string) (*vfs.FileInfo, error) { return r.cfg.FS.Stat(r.abs(p)) }

func (r *Runner) lstat(p string) (*vfs.FileInfo, error) { return r.cfg.FS.Lstat(r.abs(p)) }

// abs makes a path absolute against the current directory.
func (r *Runner) abs(p string) string {
	if strings.HasPrefix(p, "/") {
		// /proc is shared by the sandbox's processes: its "self" is ours
		if rest, ok := strings.CutPrefix(p, "/proc/self/"); ok && !strings.HasPrefix(rest, "fd/") {
			return "/proc/" + strconv.Itoa(r.bashpid) + "/" + rest
		}
		return p
	}
	if p == "" {
		return r.dir
	}
	if r.dir == "/" {
		return "/" + p
	}
	return r.dir + "/" + p
}

// permits reports whether the sandbox user may access fi (4 r, 2 w, 1 x).
func (r *Runner) permits(fi *vfs.FileInfo, want uint32) bool {
	return vfs.Permits(fi.Sys().(*vfs.Stat), want, uint32(r.cfg.UID), uint32(r.cfg.GID))
}

// errnoOf extracts the errno from a VFS error (ENOENT by default).
func errnoOf(err error) syscall.Errno {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	if errors.Is(err, fs.ErrNotExist) {
		return syscall.ENOENT
	}
	if errors.Is(err, fs.ErrPermission) {
		return syscall.EACCES
	}
	if errors.Is(err, fs.ErrExist) {
		return syscall.EEXIST
	}
	return syscall.EIO
}

// Strerror is the C library's wording of errno, as bash prints it.
func Strerror(e syscall.Errno) string {
	switch e {
	case syscall.ENOENT:
		return "No such file or directory"
	case syscall.EACCES:
		return "Permission denied"
	case syscall.EISDIR:
		return "Is a directory"
	case syscall.ENOTDIR:
		return "Not a directory"
	case syscall.EEXIST:
		return "File exists"
	case syscall.ENOTEMPTY:
		return "Directory not empty"
	case syscall.ENOSPC:
		return "No space left on device"
	case syscall.EROFS:
		return "Read-only file system"
	case syscall.ELOOP:
		return "Too many levels of symbolic links"
	case syscall.ENAMETOOLONG:
		return "File name too long"
	case syscall.EINVAL:
		return "Invalid argument"
	case syscall.EPIPE:
		return "Broken pipe"
	case syscall.ENXIO:
		return "No such device or address"
	case syscall.EBADF:
		return "Bad file descriptor"
	case syscall.EFBIG:
		return "File too large"
	case syscall.EDQUOT:
		return "Disk quota exceeded"
	case syscall.EIO:
		return "Input/output error"
	case syscall.EAGAIN:
		return "Resource temporarily unavailable"
	case syscall.ENOEXEC:
		return "Exec format error"
	case syscall.EPERM:
		return "Operation not permitted"
	}
	msg := e.Error()
	if msg == "" || strings.HasPrefix(msg, "errno ") {
		return "Error " + strconv.Itoa(int(e))
	}
	return strings.ToUpper(msg[:1]) + msg[1:]
}

// CloneWith copies the shell onto another sandbox's configuration (Fork).
func (r *Runner) CloneWith(cfg *Config) *Runner {
	c := r.Clone()
	cfg.defaults(r.pid)
	c.cfg = cfg
	c.live = new(atomic.Int64)
	c.sig = newSigQueue()
	c.mainSig = c.sig
	c.jobs = newJobTable()
	c.parentJobs = nil
	return c
}

// Export sets an exported variable (a run's extra environment).
func (r *Runner) Export(name, value string) {
	_ = r.setVar(name, value, setForce)
	if v := r.vars.m[name]; v != nil {
		v.attrs |= attrExport
	}
}

// SetName sets $0 and the name errors are reported under.
func (r *Runner) SetName(name string) { r.name = name }

// SetReadsStdin marks a shell reading its commands from stdin ($- has s).
func (r *Runner) SetReadsStdin(on bool) { r.readsStdin = on }

// SetShopt sets a shopt option by name.
func (r *Runner) SetShopt(name string, on bool) error {
	for _, e := range r.shoptList() {
		if e.name == name {
			*e.p = on
			return nil
		}
	}
	return fmt.Errorf("%s: invalid shell option name", name)
}

// RunExitTrap runs the EXIT trap (a terminal session that ran `exit`).
func (r *Runner) RunExitTrap(ctx context.Context) { r.runExitTrap(ctx) }

// ExitStatus is the status the shell ended with.
func (r *Runner) ExitStatus() int { return r.statusOf() }

// oneShotCmd is the command bash -c would exec without forking when it ends
// the string: a lone simple command without redirections.
func oneShotCmd(stmts []*syntax.Stmt) *syntax.SimpleCmd {
	if len(stmts) == 0 {
		return nil
	}
	st := stmts[len(stmts)-1]
	if st.Async || len(st.Pipes) != 1 {
		return nil
	}
	pl := st.Pipes[0]
	if pl.Negated || pl.Time || len(pl.Cmds) != 1 {
		return nil
	}
	c, ok := pl.Cmds[0].(*syntax.SimpleCmd)
	if !ok || len(c.Redirs) > 0 {
		return nil
	}
	return c
}
