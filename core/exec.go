package core

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// moduleCache maps a content key to its compiled module. It is shared by
// every sandbox of the process; the engine keeps its own cache too, but
// looking a module up here avoids reading and hashing its bytes at every
// run. It is bounded (maxCachedModules): a server whose clients bring their
// own programs would otherwise keep every one compiled. A module in use by
// a run is never evicted; an evicted one is closed (its compiled code
// freed) when the engine's modules can be.
type moduleCache struct {
	mu    sync.Mutex
	byKey map[string]*cachedModule
	tick  uint64
	// byStat maps a VFS file's identity (its file system, inode, size,
	// ctime) to its content key, so a .wasm file in the VFS is hashed once,
	// not at every run; a closed sandbox's entries go (forget).
	byStat map[string]string
}

type cachedModule struct {
	m     platform.Module
	users int    // runs using it now
	used  uint64 // when it was last taken (c.tick)
}

// maxCachedModules: the guest programs of the assets (~20) and room for
// the programs sandboxes bring.
const maxCachedModules = 64

var sharedModules = &moduleCache{byKey: map[string]*cachedModule{}, byStat: map[string]string{}}

// acquire takes a cached module for a run; done gives it back.
func (c *moduleCache) acquire(key string) (platform.Module, func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, nil, false
	}
	return e.m, c.take(e), true
}

func (c *moduleCache) take(e *cachedModule) func() {
	c.tick++
	e.used, e.users = c.tick, e.users+1
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			e.users--
			c.mu.Unlock()
		})
	}
}

// put caches a module just compiled (or finds the one another run cached
// meanwhile) and takes it; past maxCachedModules it evicts the least
// recently taken modules no run uses.
func (c *moduleCache) put(key string, m platform.Module) (platform.Module, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		return e.m, c.take(e)
	}
	e := &cachedModule{m: m}
	c.byKey[key] = e
	done := c.take(e)
	for len(c.byKey) > maxCachedModules {
		var oldKey string
		var old *cachedModule
		for k, x := range c.byKey {
			if x.users == 0 && (old == nil || x.used < old.used) {
				oldKey, old = k, x
			}
		}
		if old == nil {
			break // (all in use: the cache stays over its bound until they end)
		}
		delete(c.byKey, oldKey)
		if cl, ok := old.m.(interface{ Close() error }); ok {
			_ = cl.Close()
		}
	}
	return m, done
}

// forget drops what the cache knows of one file system's files (its
// sandbox is closed).
func (c *moduleCache) forget(fsys *vfs.FS) {
	prefix := fmt.Sprintf("%p:", fsys)
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.byStat {
		if strings.HasPrefix(k, prefix) {
			delete(c.byStat, k)
		}
	}
}

// module finds or compiles the module a command runs; done gives it back
// to the cache when the run ends.
func (sb *Sandbox) module(ctx context.Context, req *shell.ExecRequest) (m platform.Module, done func(), err error) {
	if req.Program != "" {
		if sb.opt.Programs == nil {
			return nil, nil, fmt.Errorf("program %q is not available in this build", req.Program)
		}
		key, load, err := sb.opt.Programs.Module(ctx, req.Program)
		if err != nil {
			return nil, nil, err
		}
		return sb.compile(ctx, key, load)
	}
	fi, err := sb.fs.Stat(req.Path)
	if err != nil {
		return nil, nil, err
	}
	st := fi.Sys().(*vfs.Stat)
	statKey := fmt.Sprintf("%p:%d:%d:%d", sb.fs, st.Ino, st.Size, st.Ctime.UnixNano())
	sharedModules.mu.Lock()
	key, ok := sharedModules.byStat[statKey]
	sharedModules.mu.Unlock()
	var wasm []byte
	if !ok {
		if wasm, err = sb.fs.ReadFile(req.Path); err != nil {
			return nil, nil, err
		}
		key = contentKey(wasm)
		sharedModules.mu.Lock()
		sharedModules.byStat[statKey] = key
		sharedModules.mu.Unlock()
	}
	return sb.compile(ctx, key, func() ([]byte, error) {
		if wasm != nil {
			return wasm, nil
		}
		return sb.fs.ReadFile(req.Path)
	})
}

func contentKey(wasm []byte) string {
	sum := sum256(wasm)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (sb *Sandbox) compile(ctx context.Context, key string, load func() ([]byte, error)) (platform.Module, func(), error) {
	if m, done, ok := sharedModules.acquire(key); ok {
		return m, done, nil
	}
	wasm, err := load()
	if err != nil {
		return nil, nil, err
	}
	m, err := sb.engine.Compile(ctx, key, wasm)
	if err != nil {
		return nil, nil, err
	}
	m, done := sharedModules.put(key, m)
	return m, done, nil
}

// execGuest is the shell's Exec: it runs a WebAssembly program as a process.
func (sb *Sandbox) execGuest(ctx context.Context, req *shell.ExecRequest) (status int) {
	name := path.Base(req.Argv[0])
	pid := req.Pid
	if pid == 0 {
		var release func()
		var err error
		if pid, release, err = sb.procs.alloc(req.PPid, req.Argv); err != nil {
			fmt.Fprintf(req.Stderr, "bash: fork: %v\n", err)
			return 126
		}
		defer release()
	}
	// kill and pkill reach it through the table
	var k killable
	ctx, kill, cancel := k.context(ctx)
	defer cancel()
	if len(req.Ignored) > 0 {
		// signals the shell ignored stay ignored in the program it runs
		ignored := map[int]bool{}
		for _, n := range req.Ignored {
			ignored[n] = true
		}
		deliver := kill
		kill = func(sig int) {
			if !ignored[sig] {
				deliver(sig)
			}
		}
	}
	defer func() { status = k.status(status) }()
	fds := map[int]string{0: wasi.FDTarget(req.Stdin), 1: wasi.FDTarget(req.Stdout), 2: wasi.FDTarget(req.Stderr)}
	for n, f := range req.Files {
		fds[n] = wasi.FDTarget(f)
	}
	sb.procs.table.Update(pid, func(p *procfs.Process) {
		p.Argv, p.Env, p.Cwd, p.Exe, p.Kill = req.Argv, req.Env, req.Dir, req.Path, kill
		p.FDs = func() map[int]string { return fds }
	})
	if sb.opt.OnEvent != nil {
		start := time.Now()
		sb.emit(Event{Kind: "process_start", Pid: pid, Argv: req.Argv})
		defer func() {
			sb.emit(Event{Kind: "process_exit", Pid: pid, Status: intp(status), DurationMs: ms(time.Since(start))})
		}()
	}
	env := req.Env
	if t, ok := sb.opt.Programs.(*AssetPrograms); ok && req.Program != "" {
		env = withDefaults(env, t.env(req.Program))
	}
	mod, done, err := sb.module(ctx, req)
	if done != nil {
		defer done()
	}
	if err != nil && ctx.Err() != nil {
		return platform.ExitKilled // killed before it could start: nothing to say
	}
	if err != nil {
		fmt.Fprintf(req.Stderr, "bash: %s: cannot execute: %v\n", req.Argv[0], err)
		if errors.Is(err, platform.ErrInvalidModule) || errors.Is(err, errCorruptAsset) {
			return 126
		}
		return 127
	}
	stdin, stdout, stderr := req.Stdin, req.Stdout, req.Stderr // (the run's stdin comes as a terminal when it is one)
	if stdout != nil && unwrapWriter(stdout) == sb.ttyOut {
		stdout = terminalWriter{stdout}
	}
	if stderr != nil && unwrapWriter(stderr) == sb.ttyErr {
		stderr = terminalWriter{stderr}
	}
	argv := req.Argv
	if t, ok := sb.opt.Programs.(*AssetPrograms); ok && req.Program != "" {
		argv = t.programArgs(req.Program, argv)
	}
	return sb.runProc(ctx, mod, req.Program, name, pid, argv, env, req.Dir, req.Umask, stdin, stdout, stderr, req.Files)
}

// preinit says how an asset command's engine may pre-initialize it (see
// platform.Preinitializer): in a pristine sandbox holding the default layout
// and the assets' data files, nothing of this sandbox, so that the image is
// the same for every sandbox sharing the assets; the environment is the
// asset's defaults only.
func (sb *Sandbox) preinit(program string) *platform.Preinit {
	t, ok := sb.opt.Programs.(*AssetPrograms)
	if !ok || program == "" {
		return nil
	}
	key, ok := t.preinitKey(program)
	if !ok {
		return nil
	}
	return &platform.Preinit{Key: key, New: func() *wasi.Proc {
		// (the layout of the programs alone: the image is shared by sandboxes
		// whose Options.Commands differ)
		fsys := vfs.NewDefault(vfs.Options{}, commandTable(Options{Programs: t}, nil).Names())
		for dir, afs := range t.dataMounts() {
			if fsys.MkdirAll(dir, 0o755) != nil || fsys.Mount(dir, afs, true) != nil {
				fsys = nil // the image is then not made
				break
			}
		}
		var env []string
		for k, v := range t.env(program) {
			env = append(env, k+"="+v)
		}
		return &wasi.Proc{Name: program, Pid: 1, Args: []string{program}, Env: env, Cwd: "/", FS: fsys,
			Uid: shell.UserID, Gid: shell.UserID}
	}}
}

// terminal marks the run's stdin as a tty for guests (see RunOptions.Terminal).
type terminal struct{ io.Reader }

func (terminal) IsTerminal() bool { return true }

// ReadsInPlace passes on what the reader says (see vfs.ReadsInPlace).
func (t terminal) ReadsInPlace() bool { return vfs.ReadsInPlace(t.Reader) }

// terminalWriter marks the run's stdout or stderr as a tty for guests.
type terminalWriter struct{ io.Writer }

func (terminalWriter) IsTerminal() bool { return true }

// Unwrap: the writer under it (so a guest's output is still known as the
// run's terminal through the shell's wrappers and this one).
func (t terminalWriter) Unwrap() io.Writer { return t.Writer }

// NeverBlocks passes on what the writer says (the run's own output does not
// block, so the batched scheduler streams it rather than buffering it).
func (t terminalWriter) NeverBlocks() bool { return wasi.NeverBlocks(t.Writer) }

// unwrapWriter takes off the shell's wrappers (such as its xtrace filter).
func unwrapWriter(w io.Writer) io.Writer {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// isTerminal: w says it is a terminal (RunOptions.Terminal).
func isTerminal(w io.Writer) bool {
	t, ok := w.(interface{ IsTerminal() bool })
	return ok && t.IsTerminal()
}

// withDefaults adds K=V pairs for keys env does not set.
func withDefaults(env []string, defaults map[string]string) []string {
	if len(defaults) == 0 {
		return env
	}
	out := append([]string(nil), env...)
	for k, v := range defaults {
		if envIndex(env, k) < 0 {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// envIndex is where K=... is in an environment list, or -1.
func envIndex(env []string, k string) int {
	for i, kv := range env {
		if strings.HasPrefix(kv, k+"=") {
			return i
		}
	}
	return -1
}

// runProc runs one guest process to its end and returns its exit status. tool
// names the asset command it runs ("" for none), for a pre-initialized start.
func (sb *Sandbox) runProc(ctx context.Context, mod platform.Module, tool, name string, pid int, argv, env []string, dir string, umask uint32, stdin io.Reader, stdout, stderr io.Writer, files map[int]any) int {
	stdin, stdout, stderr, finish := sb.sched.start(stdin, stdout, stderr)
	defer finish()
	p := &wasi.Proc{
		Name:     name,
		Uid:      shell.UserID,
		Gid:      shell.UserID,
		Pid:      pid,
		PPid:     sb.ppid(pid),
		Args:     argv,
		Env:      env,
		Cwd:      dir,
		Umask:    &umask,
		FS:       sb.fs,
		Stdin:    stdin,
		Stdout:   stdout,
		Stderr:   stderr,
		Files:    files,
		MaxFDs:   sb.opt.MaxFDs,
		Spawner:  spawner{sb},
		Signal:   sb.procs.table.Signal,
		PipeSize: sb.sched.pipeSize(),
	}
	if d := sb.opt.Deterministic; d != nil {
		p.Clock = &logicalClock{epoch: d.epoch()}
		p.Rand = d.stream(uint64(pid))
	}
	// Release the process's fds once it has ended: files and pipes it left
	// open, and the references it holds on its parent's files when it is a
	// spawned child (a pipe's write end shared with a child is only closed,
	// so its reader only sees EOF, when the child's table lets go of it).
	defer p.Close()
	lim := platform.Limits{MemoryPages: uint32(sb.opt.MemoryLimitMB) * 16}
	var code int
	var err error
	pm, ok := mod.(platform.Preinitializer)
	var pre *platform.Preinit
	if ok && pm.Preinitializable() && sb.opt.Deterministic == nil {
		// (an image holds the randomness it was made with: deterministic
		// runs start afresh, from their own seed)
		pre = sb.preinit(tool)
	}
	if pre != nil {
		code, err = pm.RunPreinit(ctx, p, lim, *pre)
	} else {
		code, err = mod.Run(ctx, p, lim)
	}
	if err != nil {
		switch {
		case errors.Is(err, platform.ErrMemoryLimit):
			fmt.Fprintf(stderr, "wasmsand: %s: out of memory (limit %d MB)\n", name, sb.opt.MemoryLimitMB)
			sb.emit(Event{Kind: "limit", Limit: "memory", Pid: p.Pid})
		case errors.Is(err, platform.ErrTrap):
			// the engine already told the guest's stderr, like a crash report
		case ctx.Err() != nil, errors.Is(err, platform.ErrTimeout), errors.Is(err, platform.ErrKilled):
			// killed by the run's timeout or cancellation: reported by Run
		default:
			fmt.Fprintf(stderr, "wasmsand: %s: %v\n", name, err)
		}
	}
	return code
}

// RunWASI runs a user-supplied WASI preview1 module directly (no shell),
// under the sandbox's limits, with its files and the given argv.
func (sb *Sandbox) RunWASI(ctx context.Context, wasm []byte, argv []string, opt RunOptions) (*Result, error) {
	if err := sb.checkOpen("RunWASI"); err != nil {
		return nil, err
	}
	if len(argv) == 0 {
		argv = []string{"main.wasm"}
	}
	mod, done, err := sb.compile(ctx, contentKey(wasm), func() ([]byte, error) { return wasm, nil })
	if done != nil {
		defer done()
	}
	if err != nil {
		if errors.Is(err, platform.ErrInvalidModule) {
			return nil, newErr(CodeInvalidModule, "RunWASI", "", err)
		}
		return nil, newErr(CodeInternal, "RunWASI", "", err)
	}
	sb.runMu.Lock()
	defer sb.runMu.Unlock()
	pid, release, err := sb.procs.alloc(0, argv)
	if err != nil {
		return nil, newErr(CodeTooManyProcesses, "RunWASI", "", err)
	}
	defer release()
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = sb.opt.Timeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stdout := newCapWriter(sb.opt.OutputLimit, opt.Stdout, nil)
	stderr := newCapWriter(sb.opt.OutputLimit, opt.Stderr, nil)
	// the environment a shell of this sandbox starts with, then the run's
	env := shell.DefaultEnv()
	for _, m := range []map[string]string{sb.opt.Env, opt.Env} {
		for k, v := range m {
			env = setEnv(env, k, v)
		}
	}
	dir := sb.Cwd()
	if opt.Cwd != "" {
		dir = sb.abs(opt.Cwd)
	}
	start := time.Now()
	code := sb.runProc(runCtx, mod, "", path.Base(argv[0]), pid, argv, env, dir, wasi.DefaultUmask, opt.Stdin, stdout, stderr, nil)
	res := &Result{ExitCode: code, Duration: time.Since(start)}
	if errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
		res.TimedOut, res.ExitCode = true, 124
		fmt.Fprintf(stderr, "wasmsand: run timed out after %v and was killed\n", timeout)
	}
	var t1, t2 bool
	res.Stdout, t1 = stdout.result()
	res.Stderr, t2 = stderr.result()
	res.Truncated = t1 || t2
	return res, nil
}

// spawner runs the children guests ask for through the `wasmsand.spawn`
// import: by argv, through the shell's exec path, so a child can be a
// WebAssembly program, a tool, a script or `sh -c`.
type spawner struct{ sb *Sandbox }

func (s spawner) Spawn(ctx context.Context, req wasi.SpawnRequest) (wasi.Child, error) {
	if len(req.Argv) == 0 {
		return nil, errors.New("spawn: empty argv")
	}
	sh, err := s.sb.session()
	if err != nil {
		return nil, err
	}
	// Like execvp in a forked child, a missing command fails the spawn, so
	// the guest reports it in its own words (xargs: ...: No such file...).
	if _, err := sh.LookPath(req.Env, req.Dir, req.Argv[0]); err != nil {
		return nil, err
	}
	pid, release, err := s.sb.procs.alloc(req.PPid, req.Argv)
	if err != nil {
		return nil, err
	}
	var cancel context.CancelFunc
	if d, env, ok := spawnTimeout(req.Env); ok {
		req.Env = env
		ctx, cancel = context.WithTimeout(ctx, d)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	c := &child{pid: pid, done: make(chan struct{}), cancel: cancel}
	s.sb.procs.table.Update(pid, func(p *procfs.Process) {
		p.Env, p.Cwd, p.Kill = req.Env, req.Dir, func(sig int) { c.Kill(sig) }
	})
	if s.sb.sched.inline() {
		// Guests cannot yield here (GOOS=js): the child runs to completion
		// when its parent first needs it (waits for it, or would wait on a
		// pipe; see wasi.Starter), with what its stdin holds by then (then
		// end of file), its output going to pipes large enough to hold it.
		c.run = func() {
			defer close(c.done)
			defer release()
			defer cancel()
			c.status = sh.Exec(ctx, &shell.ExecRequest{
				Pid: pid, PPid: req.PPid,
				Argv: req.Argv, Env: req.Env, Dir: req.Dir, Umask: req.Umask,
				Stdin: vfs.NonBlocking(req.Stdin), Stdout: req.Stdout, Stderr: req.Stderr,
			})
			for _, s := range []any{req.Stdin, req.Stdout, req.Stderr} {
				if cl, ok := s.(io.Closer); ok {
					cl.Close()
				}
			}
		}
		return c, nil
	}
	go func() {
		defer close(c.done)
		defer release()
		defer cancel()
		c.status = sh.Exec(ctx, &shell.ExecRequest{
			Pid: pid, PPid: req.PPid,
			Argv: req.Argv, Env: req.Env, Dir: req.Dir, Umask: req.Umask,
			Stdin: req.Stdin, Stdout: req.Stdout, Stderr: req.Stderr,
		})
		if ctx.Err() != nil && c.killed.Load() {
			c.status = 128 + 9
		}
		// The child owns its copies of the parent's fds (see wasi.Spawner).
		for _, s := range []any{req.Stdin, req.Stdout, req.Stderr} {
			if cl, ok := s.(io.Closer); ok {
				cl.Close()
			}
		}
	}()
	return c, nil
}

// spawnTimeoutVar in a spawn's environment bounds the child's run (see
// docs/contracts.md, spawn): timeout(1) passes it, since on the JS engine
// the child runs to its end before timeout can look at the clock.
const spawnTimeoutVar = "WASMSAND_SPAWN_TIMEOUT_MS="

// spawnTimeout takes the variable out of env; ok when it held a duration.
func spawnTimeout(env []string) (time.Duration, []string, bool) {
	for i, kv := range env {
		if !strings.HasPrefix(kv, spawnTimeoutVar) {
			continue
		}
		rest := append(append([]string(nil), env[:i]...), env[i+1:]...)
		ms, err := strconv.ParseInt(kv[len(spawnTimeoutVar):], 10, 64)
		if err != nil || ms < 0 {
			return 0, rest, false
		}
		return time.Duration(ms) * time.Millisecond, rest, true
	}
	return 0, env, false
}

type child struct {
	pid    int
	done   chan struct{}
	status int
	cancel context.CancelFunc
	killed atomic.Bool
	run    func() // a deferred child's run (inline scheduler), nil once started
}

func (c *child) Pid() int { return c.pid }

// Start runs a deferred child to its end (wasi.Starter); it does nothing
// for a child already started.
func (c *child) Start() {
	if f := c.run; f != nil {
		c.run = nil
		f()
	}
}

func (c *child) Wait() int { c.Start(); <-c.done; return c.status }

func (c *child) TryWait() (int, bool) {
	c.Start()
	select {
	case <-c.done:
		return c.status, true
	default:
		return 0, false
	}
}

// Kill ends the child; every signal kills (there are no handlers in guests).
func (c *child) Kill(sig int) error {
	c.killed.Store(true)
	c.cancel()
	return nil
}

// setEnv sets K=V in an environment list, replacing K's entry if it has one
// (a program's getenv takes the first).
func setEnv(env []string, k, v string) []string {
	if i := envIndex(env, k); i >= 0 {
		env[i] = k + "=" + v
		return env
	}
	return append(env, k+"="+v)
}
