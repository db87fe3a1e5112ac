//go:build js && wasm

// Package pyodide makes python3 and python, on the JS platforms, the Pyodide
// runtime that jsapi/python.js hosts in the core's worker: a peer
// WebAssembly instance whose files are the sandbox's VFS. Each run is one
// synchronous call into Pyodide; the files, stdin and output it uses come
// back here through host functions made once (js.FuncOf) that serve the run
// in progress.
//
// Pyodide loads asynchronously, so the worker loads it before a run whose
// command line may need it (see Needs); a run that reaches python some
// other way before then (make, find -exec, a git hook), or while the
// worker's Pyodide is busy (python running python), runs in a helper
// thread's Pyodide (jsapi/pyremote.js), with the same host functions.
package pyodide

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/wasmsand/wasmsand/assets"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	goruntime "runtime"
	"strings"
	"sync"
	"syscall"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/shell"
	"github.com/wasmsand/wasmsand/vfs"
	"github.com/wasmsand/wasmsand/wasi"
)

// runtime is jsapi/python.js's object, or undefined.
// ourModules are assets.PyodideModules as jsapi/python.js takes them (the
// CPython asset has them in its zip).
var ourModules = func() []any {
	out := make([]any, len(assets.PyodideModules))
	for i, m := range assets.PyodideModules {
		out[i] = []any{m.Name, m.Source, m.Then}
	}
	return out
}()

func runtime() js.Value { return js.Global().Get("__wasmsandPython") }

// Available says whether the host installed Pyodide.
func Available() bool { return runtime().Type() == js.TypeObject }

// Loaded says whether Pyodide is ready for runs.
func Loaded() bool { return Available() && runtime().Get("loaded").Invoke().Bool() }

// Commands are python3 and python over Pyodide, for core.Options.Commands;
// nil without Pyodide.
func Commands() []shell.Command {
	if !Available() {
		return nil
	}
	return []shell.Command{{Name: "python3", Run: Run}, {Name: "python", Run: Run},
		{Name: "pip", Run: Pip}, {Name: "pip3", Run: Pip}}
}

// Needs is what a run may need of Pyodide before it starts: the runtime,
// and the modules its Python code imports (the run cannot wait for
// either). The command line and the files it names (scripts, say) are
// scanned as text: over-approximate, a false yes only loads something
// early.
func Needs(fsys *vfs.FS, cwd, cmd string) (python bool, imports, packages []string) {
	texts := []string{cmd}
	for _, w := range strings.FieldsFunc(cmd, func(r rune) bool { return strings.ContainsRune(" \t\n;&|()<>`$\"'", r) }) {
		p := w
		if !path.IsAbs(p) {
			p = path.Join(cwd, p)
		}
		if t, ok := scriptText(fsys, p); ok {
			texts = append(texts, t)
		}
	}
	seen := map[string]bool{}
	for _, t := range texts {
		if strings.Contains(t, "python") {
			python = true
		}
		if pk := pipPackages(t); len(pk) > 0 {
			python = true
			packages = append(packages, pk...)
		}
		for _, n := range importsIn(t) {
			if !seen[n] {
				seen[n] = true
				imports = append(imports, n)
			}
		}
	}
	return python, imports, packages
}

// importsIn are the top-level modules text's import statements name.
func importsIn(text string) []string {
	if !strings.Contains(text, "import") {
		return nil // (importRE cannot match; on a data file it is slow)
	}
	var out []string
	for _, m := range importRE().FindAllStringSubmatch(text, -1) {
		names := []string{m[1]}
		if m[1] == "" {
			names = strings.Split(m[2], ",")
		}
		for _, n := range names {
			n = strings.Fields(n)[0]
			n, _, _ = strings.Cut(n, ".")
			if n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// executable is sys.executable: the program's path as CPython's getpath
// finds it (argv[0] made absolute, or looked up on PATH).
func executable(s *shell.Session, req *shell.ExecRequest) string {
	a := req.Argv[0]
	if strings.Contains(a, "/") {
		if !path.IsAbs(a) {
			a = path.Join(req.Dir, a)
		}
		return path.Clean(a)
	}
	if p, err := s.LookPath(req.Env, req.Dir, a); err == nil {
		if !path.IsAbs(p) {
			p = path.Join(req.Dir, p)
		}
		return p
	}
	return "/usr/bin/" + a
}

// scriptText is the text of a file that may be a script: a regular file
// of at most 1 MB (a data file is not read whole for a text scan).
func scriptText(fsys *vfs.FS, p string) (string, bool) {
	fi, err := fsys.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return "", false
	}
	b, err := fsys.ReadFile(p)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// codeImports are the modules a run's own code imports (-c's text, or the
// script's), for a run in a helper thread, which can load them first.
func codeImports(fsys *vfs.FS, inv invocation, dir string) []any {
	text := ""
	switch inv.mode {
	case "c":
		text = inv.arg
	case "file":
		p := inv.arg
		if !path.IsAbs(p) {
			p = path.Join(dir, p)
		}
		text, _ = scriptText(fsys, p)
	}
	out := []any{}
	seen := map[string]bool{}
	for _, n := range importsIn(text) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// importRE finds `import a.b as c, d` and `from a.b import c`.
var importRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bfrom\s+([A-Za-z_]\w*)[\w.]*\s+import\b|\bimport\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)`)
}) // (on first use: see policy's secretName)

// limits are what the sandbox's run allows (see SetRun).
var limits struct {
	flag     js.Value
	key      int
	memoryMB int
	index    string
}

// SetRun tells the python runs of a sandbox's run which cancel flag (an
// Int32Array over shared memory) and key mean "stop", which Pyodide polls
// itself while Go waits, how large its heap may grow (MB; 0: 256), and
// which package index its imports load from (the sandbox's pythonIndex).
func SetRun(flag js.Value, key, memoryMB int, index string) {
	limits.flag, limits.key, limits.memoryMB, limits.index = flag, key, memoryMB, index
}

// Run is the python3 command.
func Run(ctx context.Context, s *shell.Session, req *shell.ExecRequest) int {
	name := path.Base(req.Argv[0])
	inv, err := parseArgs(req.Argv)
	if err != nil {
		fmt.Fprintf(req.Stderr, "%s\nusage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\nTry `python -h' for more information.\n", err, name)
		return 2
	}
	if inv.help {
		fmt.Fprintf(req.Stdout, "usage: %s [option] ... [-c cmd | -m mod | file | -] [arg] ...\n", name)
		return 0
	}
	if inv.mode == "module" && inv.arg == "pip" {
		return pip(name+" -m pip", inv.argv[1:], req)
	}
	rt := runtime()
	if why := rt.Call("unavailable").String(); why != "" {
		fmt.Fprintf(req.Stderr, "%s: %s\n", name, why)
		return 126
	}
	if inv.mode == "file" {
		abs := inv.arg
		if !path.IsAbs(abs) {
			abs = path.Join(req.Dir, abs)
		}
		// CPython's words (errno as on Linux)
		if fi, err := s.FS().Stat(abs); err != nil {
			fmt.Fprintf(req.Stderr, "%s: can't open file '%s': [Errno 2] No such file or directory\n", name, abs)
			return 2
		} else if fi.IsDir() {
			fmt.Fprintf(req.Stderr, "%s: can't open file '%s': [Errno 21] Is a directory\n", name, abs)
			return 2
		}
	}
	// Stdin is read whole before Pyodide starts: a read from inside it
	// cannot wait for a pipeline stage that has yet to run. A stdin that
	// waits for its input on the thread (a run's streamed stdin: someone
	// typing) is read as Python asks; on a terminal, `python3` alone is
	// the interactive interpreter.
	var stdin io.Reader
	interactive := false
	if vfs.ReadsInPlace(req.Stdin) {
		stdin = req.Stdin
		t, ok := req.Stdin.(interface{ IsTerminal() bool })
		interactive = ok && t.IsTerminal() && inv.mode == "stdin" && len(inv.argv) == 1 && inv.argv[0] == ""
	} else if req.Stdin != nil {
		b, err := io.ReadAll(io.LimitReader(req.Stdin, maxStdin))
		if err != nil && len(b) == 0 {
			fmt.Fprintf(req.Stderr, "%s: stdin: %v\n", name, err)
			return 1
		}
		stdin = bytes.NewReader(b)
	}
	r := &run{ctx: ctx, sh: s, umaskBits: req.Umask, fsys: s.FS(), stdin: stdin, stdout: req.Stdout, stderr: req.Stderr,
		files: map[int]*vfs.File{}, umask: fs.FileMode(req.Umask)}
	defer r.closeAll()
	// (a python program's child may be python: the host serves the
	// innermost run, then the outer one again)
	outer := cur
	cur = r
	defer func() { cur = outer }()

	env := map[string]any{}
	for _, kv := range req.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	var names []any
	if ents, err := s.FS().ReadDir("/"); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
	}
	argv := make([]any, len(inv.argv))
	for i, a := range inv.argv {
		argv[i] = a
	}
	timeout := 0.0
	if d, ok := ctx.Deadline(); ok {
		timeout = max(1, float64(time.Until(d))/float64(time.Millisecond))
	}
	mem := limits.memoryMB
	if mem <= 0 {
		mem = 256
	}
	mode := inv.mode
	if interactive {
		mode = "interactive"
	}
	// (the imports matter only to a helper thread's run, which loads them
	// first: Pyodide not loaded yet, or busy with the python around this)
	imports := []any{}
	if !Loaded() || outer != nil {
		imports = codeImports(s.FS(), inv, req.Dir)
	}
	call := js.ValueOf(map[string]any{"mode": mode, "arg": inv.arg, "argv": argv, "env": env,
		"cwd": req.Dir, "names": names, "timeoutMs": timeout, "umask": int(req.Umask), "memoryMB": mem,
		"modules": ourModules, "index": limits.index, "imports": imports,
		"executable": executable(s, req)})
	if limits.key != 0 {
		call.Set("abort", map[string]any{"flag": limits.flag, "run": limits.key})
	}
	rc := rt.Call("run", call, hostObject())
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		// Go's timers could not fire while Pyodide held the thread: let
		// the run's deadline cancel it before the shell goes on
		for i := 0; i < 10 && ctx.Err() == nil; i++ {
			goruntime.Gosched()
		}
	}
	if ctx.Err() != nil {
		return 137 // the sandbox reports the timeout or the cancel
	}
	if rc.Type() == js.TypeString { // (it could not run: why)
		fmt.Fprintf(req.Stderr, "%s: %s\n", name, rc.String())
		return 126
	}
	if rc.Int() == outOfMemory {
		fmt.Fprintf(req.Stderr, "wasmsand: %s: out of memory (limit %d MB)\n", name, mem)
		return 137
	}
	return rc.Int()
}

// outOfMemory is what jsapi/python.js's run answers when the heap passed
// the limit (the program was stopped and the runtime dropped).
const outOfMemory = -2

// maxStdin bounds what a run's stdin holds (an endless source such as
// /dev/zero ends there).
const maxStdin = 64 << 20

// invocation is a parsed python3 command line.
type invocation struct {
	mode string // "c", "module", "file", "stdin"
	arg  string
	argv []string // sys.argv
	help bool
}

// parseArgs reads CPython's command line: options (accepted; those that
// change nothing here are ignored), then -c CMD, -m MOD, FILE or -.
func parseArgs(args []string) (invocation, error) {
	inv := invocation{mode: "stdin"}
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			break
		}
		switch a {
		case "--help":
			inv.help = true
			return inv, nil
		case "--version":
			inv.mode, inv.arg, inv.argv = "c", "import sys; print('Python ' + sys.version.split()[0])", []string{"-c"}
			return inv, nil
		case "--check-hash-based-pycs":
			i++
			continue
		}
		if strings.HasPrefix(a, "--") {
			return inv, fmt.Errorf("unknown option %s", a)
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; c {
			case 'c', 'm':
				rest := a[j+1:]
				if rest == "" {
					i++
					if i >= len(args) {
						return inv, fmt.Errorf("Argument expected for the -%c option", c)
					}
					rest = args[i]
				}
				if c == 'c' {
					inv.mode, inv.arg = "c", rest
					inv.argv = append([]string{"-c"}, args[i+1:]...)
				} else {
					inv.mode, inv.arg = "module", rest
					inv.argv = append([]string{"-m"}, args[i+1:]...)
				}
				return inv, nil
			case 'W', 'X':
				if j == len(a)-1 {
					i++
				}
				j = len(a)
			case 'V':
				inv.mode, inv.arg, inv.argv = "c", "import sys; print('Python ' + sys.version.split()[0])", []string{"-c"}
				return inv, nil
			case 'h', '?':
				inv.help = true
				return inv, nil
			case 'b', 'B', 'd', 'E', 'i', 'I', 'O', 'P', 'q', 's', 'S', 'u', 'v', 'x':
			default:
				return inv, fmt.Errorf("Unknown option: -%c", c)
			}
		}
	}
	if i < len(args) && args[i] != "-" {
		inv.mode, inv.arg = "file", args[i]
		inv.argv = append([]string{}, args[i:]...)
		return inv, nil
	}
	inv.argv = []string{""}
	if i < len(args) {
		inv.argv = append([]string{"-"}, args[i+1:]...)
	}
	return inv, nil
}

// run is the state of the python run in progress: the host functions
// serve it.
type run struct {
	ctx            context.Context
	sh             *shell.Session
	umaskBits      uint32
	fsys           *vfs.FS
	stdin          io.Reader
	stdout, stderr io.Writer
	files          map[int]*vfs.File
	next           int
	umask          fs.FileMode
}

var cur *run

func (r *run) closeAll() {
	for _, f := range r.files {
		f.Close()
	}
}

// uid and gid are the sandbox user's, as for every other process.
const uid, gid = shell.UserID, shell.UserID

var host js.Value

// hostObject is the object of Go functions jsapi/python.js calls: numbers
// below zero are -errno (WASI's numbering, which is Emscripten's).
func hostObject() js.Value {
	if host.Truthy() {
		return host
	}
	host = js.Global().Get("Object").New()
	def := func(name string, f func(r *run, a []js.Value) any) {
		host.Set(name, js.FuncOf(func(_ js.Value, a []js.Value) (out any) {
			defer func() {
				if p := recover(); p != nil {
					out = -int(wasi.EIO)
				}
			}()
			if cur == nil {
				return -int(wasi.EBADF)
			}
			return f(cur, a)
		}))
	}
	def("write", func(r *run, a []js.Value) any {
		b := make([]byte, a[1].Length())
		js.CopyBytesToGo(b, a[1])
		w := r.stdout
		if a[0].Int() == 2 {
			w = r.stderr
		}
		if w != nil {
			if _, err := w.Write(b); err != nil {
				return -int(wasi.EPIPE)
			}
		}
		return len(b)
	})
	def("read", func(r *run, a []js.Value) any {
		if r.stdin == nil {
			return 0
		}
		b := make([]byte, a[0].Length())
		n, err := r.stdin.Read(b)
		if n == 0 && errors.Is(err, syscall.EINTR) {
			return "EINTR" // (a Ctrl-C: python.js makes it Python's EINTR)
		}
		if n == 0 && err != nil && !errors.Is(err, io.EOF) {
			return -int(wasi.EIO)
		}
		js.CopyBytesToJS(a[0], b[:n])
		return n
	})
	// spawn(argv, shell, input|null, cwd, env, captureOut, captureErr, mergeErr)
	// → [status, stdout, stderr]: a child process in the sandbox's shell.
	def("spawn", func(r *run, a []js.Value) any {
		argv := make([]string, a[0].Length())
		for i := range argv {
			argv[i] = a[0].Index(i).String()
		}
		if len(argv) == 0 {
			return []any{-2}
		}
		dir := a[3].String()
		var env []string
		keys := js.Global().Get("Object").Call("keys", a[4])
		for i := 0; i < keys.Length(); i++ {
			k := keys.Index(i).String()
			env = append(env, k+"="+a[4].Get(k).String())
		}
		if !a[1].Bool() {
			if _, err := r.sh.LookPath(env, dir, argv[0]); err != nil {
				return []any{-2}
			}
		}
		var in io.Reader = bytes.NewReader(nil)
		if a[2].Truthy() {
			b := make([]byte, a[2].Length())
			js.CopyBytesToGo(b, a[2])
			in = bytes.NewReader(b)
		}
		var out, errb bytes.Buffer
		req := &shell.ExecRequest{Argv: argv, Env: env, Dir: dir, Stdin: in, Stdout: r.stdout, Stderr: r.stderr, Umask: r.umaskBits}
		if a[5].Bool() {
			req.Stdout = &out
		}
		if a[6].Bool() {
			req.Stderr = &errb
		}
		if a[7].Bool() {
			req.Stderr = req.Stdout
		}
		st := r.sh.Exec(r.ctx, req)
		return []any{st, toJS(out.Bytes()), toJS(errb.Bytes())}
	})
	def("openFiles", func(r *run, a []js.Value) any { return len(r.files) })
	def("lstat", func(r *run, a []js.Value) any {
		fi, err := r.fsys.Lstat(a[0].String())
		if err != nil {
			return errno(err)
		}
		st := fi.Sys().(*vfs.Stat)
		ms := func(t time.Time) any { return float64(t.UnixNano()) / 1e6 }
		size := st.Size
		if st.Mode.IsDir() {
			size = 4096
		}
		return []any{wasi.LinuxMode(st.Mode), size, st.Ino, st.Nlink, ms(st.Atime), ms(st.Mtime), ms(st.Ctime), st.Uid, st.Gid}
	})
	def("readdir", func(r *run, a []js.Value) any {
		p := a[0].String()
		if err := r.fsys.CheckAccess(p, vfs.AccessRead, uid, gid); err != nil {
			return errno(err)
		}
		ents, err := r.fsys.ReadDir(p)
		if err != nil {
			return errno(err)
		}
		names := make([]any, len(ents))
		for i, e := range ents {
			names[i] = e.Name()
		}
		return names
	})
	def("mkdir", func(r *run, a []js.Value) any {
		p := a[0].String()
		if err := r.fsys.CheckCreate(p, uid, gid); err != nil {
			return errno(err)
		}
		return status(r.fsys.Mkdir(p, wasi.PermFromLinux(uint32(a[1].Int()))&^r.umask))
	})
	def("create", func(r *run, a []js.Value) any {
		p := a[0].String()
		if err := r.fsys.CheckCreate(p, uid, gid); err != nil {
			return errno(err)
		}
		f, err := r.fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, wasi.PermFromLinux(uint32(a[1].Int()))&^r.umask)
		if err != nil {
			return errno(err)
		}
		return status(f.Close())
	})
	def("unlink", func(r *run, a []js.Value) any {
		p := a[0].String()
		if err := r.fsys.CheckCreate(p, uid, gid); err != nil {
			return errno(err)
		}
		return status(r.fsys.Unlink(p))
	})
	def("rmdir", func(r *run, a []js.Value) any {
		p := a[0].String()
		if err := r.fsys.CheckCreate(p, uid, gid); err != nil {
			return errno(err)
		}
		return status(r.fsys.Rmdir(p))
	})
	def("rename", func(r *run, a []js.Value) any {
		from, to := a[0].String(), a[1].String()
		if err := r.fsys.CheckCreate(from, uid, gid); err != nil {
			return errno(err)
		}
		if err := r.fsys.CheckCreate(to, uid, gid); err != nil {
			return errno(err)
		}
		return status(r.fsys.Rename(from, to))
	})
	def("symlink", func(r *run, a []js.Value) any {
		p := a[1].String()
		if err := r.fsys.CheckCreate(p, uid, gid); err != nil {
			return errno(err)
		}
		return status(r.fsys.Symlink(a[0].String(), p))
	})
	def("readlink", func(r *run, a []js.Value) any {
		t, err := r.fsys.Readlink(a[0].String())
		if err != nil {
			return errno(err)
		}
		return t
	})
	def("chmod", func(r *run, a []js.Value) any {
		p := a[0].String()
		if e := owner(r.fsys, p); e != 0 {
			return e
		}
		return status(r.fsys.Chmod(p, wasi.PermFromLinux(uint32(a[1].Int()))))
	})
	def("utimes", func(r *run, a []js.Value) any {
		p := a[0].String()
		if e := owner(r.fsys, p); e != 0 {
			return e
		}
		fi, err := r.fsys.Stat(p)
		if err != nil {
			return errno(err)
		}
		st := fi.Sys().(*vfs.Stat)
		at, mt := st.Atime, st.Mtime
		if v := a[1].Float(); v >= 0 {
			at = time.UnixMilli(0).Add(time.Duration(v * float64(time.Millisecond)))
		}
		if v := a[2].Float(); v >= 0 {
			mt = time.UnixMilli(0).Add(time.Duration(v * float64(time.Millisecond)))
		}
		return status(r.fsys.Chtimes(p, at, mt, true))
	})
	def("truncate", func(r *run, a []js.Value) any {
		p := a[0].String()
		if err := r.fsys.CheckAccess(p, vfs.AccessWrite, uid, gid); err != nil {
			return errno(err)
		}
		return status(r.fsys.Truncate(p, int64(a[1].Float())))
	})
	def("open", func(r *run, a []js.Value) any {
		p, flags := a[0].String(), a[1].Int()
		acc, want := os.O_RDONLY, uint32(vfs.AccessRead)
		switch flags & 3 {
		case 1:
			acc, want = os.O_WRONLY, vfs.AccessWrite
		case 2:
			acc, want = os.O_RDWR, vfs.AccessRead|vfs.AccessWrite
		}
		if fi, err := r.fsys.Stat(p); err == nil && fi.Mode()&fs.ModeCharDevice == 0 {
			if err := r.fsys.CheckAccess(p, want, uid, gid); err != nil {
				return errno(err)
			}
		}
		f, err := r.fsys.OpenFile(p, acc, 0)
		if err != nil {
			return errno(err)
		}
		r.next++
		r.files[r.next] = f
		return r.next
	})
	def("close", func(r *run, a []js.Value) any {
		f, ok := r.files[a[0].Int()]
		if !ok {
			return -int(wasi.EBADF)
		}
		delete(r.files, a[0].Int())
		return status(f.Close())
	})
	def("pread", func(r *run, a []js.Value) any {
		f, ok := r.files[a[0].Int()]
		if !ok {
			return -int(wasi.EBADF)
		}
		b := make([]byte, a[1].Length())
		n, err := f.ReadAt(b, int64(a[2].Float()))
		if n == 0 && err != nil && !errors.Is(err, io.EOF) {
			return errno(err)
		}
		js.CopyBytesToJS(a[1], b[:n])
		return n
	})
	def("pwrite", func(r *run, a []js.Value) any {
		f, ok := r.files[a[0].Int()]
		if !ok {
			return -int(wasi.EBADF)
		}
		b := make([]byte, a[1].Length())
		js.CopyBytesToGo(b, a[1])
		n, err := f.WriteAt(b, int64(a[2].Float()))
		if err != nil && n == 0 {
			return errno(err)
		}
		return n
	})
	return host
}

func toJS(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

func errno(err error) int { return -int(wasi.ToErrno(err)) }

func status(err error) int {
	if err != nil {
		return errno(err)
	}
	return 0
}

// owner: changing a file's mode or times takes its owner (or root).
func owner(fsys *vfs.FS, p string) int {
	fi, err := fsys.Stat(p)
	if err != nil {
		return errno(err)
	}
	if st := fi.Sys().(*vfs.Stat); st.Uid != uid {
		return -int(wasi.EPERM)
	}
	return 0
}
