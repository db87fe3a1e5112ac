//go:build js && wasm

// Command wasmsand-js is the core for the browser and Node (GOOS=js): the
// program that node/ and web/ load beside platform/js's host.js. It puts
// globalThis.__wasmsandCore, whose methods the JS Sandbox class calls (one
// js.FuncOf call per API call; a guest's host calls take the quick export
// of platform/js when they can, a FuncOf callback when not), then waits.
//
// Every method takes plain values (strings, numbers, Uint8Arrays, an
// options object) and returns {value} or {error: {code, message}}, the
// code being the Go API's stable core.Code.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/commands/pyodide"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/sessions"
	"github.com/wasmsand/wasmsand/internal/interrupt"
	"github.com/wasmsand/wasmsand/platform/hostdir"
	jsengine "github.com/wasmsand/wasmsand/platform/js"
	"github.com/wasmsand/wasmsand/platform/js/idbstate"
	"github.com/wasmsand/wasmsand/policy"
	"github.com/wasmsand/wasmsand/shell/interp"
	"github.com/wasmsand/wasmsand/vfs"
)

// state: the sandboxes of this core, by id (all one client's: no owner,
// no bounds beyond each sandbox's own), with their snapshots; a session's
// Value is its pyConfig.
var (
	tools    core.ProgramSource
	registry = sessions.New(sessions.Options{})
)

type pyConfig struct {
	index    string // PythonIndex
	memoryMB int    // the memory limit, the heap's here
}

func main() {
	api := map[string]func(args []js.Value) (any, error){
		"init":       initCore,
		"create":     create,
		"run":        run,
		"readFile":   readFile,
		"writeFile":  writeFile,
		"listDir":    listDir,
		"stat":       stat,
		"remove":     remove,
		"mkdir":      mkdir,
		"snapshot":   snapshot,
		"restore":    restore,
		"fork":       fork,
		"save":       save,
		"destroy":    destroy,
		"mount":      mount,
		"incomplete": incomplete,
		// needsPython(id, command) → whether the worker should load
		// Pyodide before this run
		"needsPython": needsPython,
		// programs(id, names) → those of names that run a WebAssembly
		// program (not a builtin), for the browser's fetch ahead of a run
		"programs": programs,
	}
	obj := js.Global().Get("Object").New()
	for name, f := range api {
		obj.Set(name, js.FuncOf(wrap(name, f)))
	}
	for name, f := range asyncAPI {
		obj.Set(name, js.FuncOf(wrapAsync(name, f)))
	}
	js.Global().Set("__wasmsandCore", obj)
	if ready := js.Global().Get("__wasmsandCoreReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}

// wrap turns a method into a FuncOf body: errors (and panics, which must
// not kill the core) become {error}.
func wrap(name string, f func([]js.Value) (any, error)) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if p := recover(); p != nil {
				out = errValue(core.CodeInternal, fmt.Sprintf("%s: internal error: %v", name, p))
			}
		}()
		v, err := f(args)
		if err != nil {
			code := core.ErrorCode(err)
			var ae *argError
			if errors.As(err, &ae) {
				code = core.CodeInvalidArgument
			}
			return errValue(code, err.Error())
		}
		return map[string]any{"value": v}
	}
}

// wrapAsync is wrap for a method that waits on JS callbacks (IndexedDB): it
// returns a Promise at once and does the work on a goroutine, so the event
// loop is free to deliver those callbacks. The promise always resolves, to
// {value} or {error}.
func wrapAsync(name string, f func([]js.Value) (func() (any, error), error)) func(js.Value, []js.Value) any {
	return func(this js.Value, args []js.Value) any {
		var work func() (any, error)
		first := wrap(name, func(a []js.Value) (any, error) {
			w, err := f(a)
			work = w
			return nil, err
		})(this, args)
		var exec js.Func
		exec = js.FuncOf(func(_ js.Value, p []js.Value) any {
			exec.Release()
			resolve := p[0]
			if work == nil {
				resolve.Invoke(first)
				return nil
			}
			go func() {
				resolve.Invoke(wrap(name, func([]js.Value) (any, error) { return work() })(js.Undefined(), nil))
			}()
			return nil
		})
		return js.Global().Get("Promise").New(exec)
	}
}

func errValue(code core.Code, msg string) any {
	return map[string]any{"error": map[string]any{"code": string(code), "message": msg}}
}

type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

func session(args []js.Value) (*sessions.Session, error) {
	v := arg(args, 0)
	if v.Type() != js.TypeString {
		return nil, &argError{"sandbox id expected"}
	}
	x, ok := registry.Get(nil, v.String())
	if !ok {
		return nil, &core.Error{Code: core.CodeClosed, Op: "sandbox", Err: errors.New("destroyed")}
	}
	return x, nil
}

func sandbox(args []js.Value) (*core.Sandbox, error) {
	x, err := session(args)
	if err != nil {
		return nil, err
	}
	return x.Sandbox, nil
}

// pyConf is the Pyodide settings of the sandbox args name.
func pyConf(args []js.Value) pyConfig {
	x, err := session(args)
	if err != nil {
		return pyConfig{}
	}
	return x.Value.(pyConfig)
}

// sandboxArg reads the (id, string, ...) most methods take: a path for the
// file methods, the command for run.
func sandboxArg(args []js.Value, what string) (*core.Sandbox, string, error) {
	sb, err := sandbox(args)
	if err != nil {
		return nil, "", err
	}
	v, err := str(args, 1, what)
	return sb, v, err
}

func str(args []js.Value, i int, what string) (string, error) {
	v := arg(args, i)
	if v.Type() != js.TypeString {
		return "", &argError{what + ": a string expected"}
	}
	return v.String(), nil
}

func bytesOf(v js.Value) []byte {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func toJS(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// abortFlag (an Int32Array over a SharedArrayBuffer, when the host has one)
// is how a JS AbortSignal reaches a run that holds the thread: the host
// stores the run's abortKey in it and the run's checkpoints poll it.
var (
	abortFlag   = js.Undefined()
	atomicsLoad = js.Global().Get("Atomics").Get("load").Call("bind", js.Global().Get("Atomics"))
)

// fetchedHash is the SHA-256 the host gave with the bytes it fetched last,
// recognised by the identity of the slice the core then checks.
var fetchedHash struct {
	first *byte
	n     int
	hex   string
}

// initCore(manifest Uint8Array, fetch(name) → Uint8Array|{data, sha256}|{error}, sha256?, abortFlag?):
// the guest programs, fetched synchronously by the JS side (a file read in
// Node, the Cache API or a synchronous request in a browser worker);
// sha256(Uint8Array) → hex, when given, is the host's own (native) hash.
func initCore(args []js.Value) (any, error) {
	h := arg(args, 2)
	core.SetSHA256(func(b []byte) (sum [32]byte) {
		hexSum := ""
		if len(b) > 0 && &b[0] == fetchedHash.first && len(b) == fetchedHash.n {
			hexSum = fetchedHash.hex // the host hashed these very bytes
		} else if h.Type() == js.TypeFunction {
			hexSum = h.Invoke(toJS(b)).String()
		}
		if _, err := hex.Decode(sum[:], []byte(hexSum)); err != nil || len(hexSum) != 64 {
			return sha256.Sum256(b)
		}
		return sum
	})
	if f := arg(args, 3); f.Type() == js.TypeObject {
		abortFlag = f
	}
	fetchFn := arg(args, 1)
	if m := arg(args, 0); m.IsUndefined() || m.IsNull() || fetchFn.Type() != js.TypeFunction {
		return nil, &argError{"init(manifest, fetch) expected"}
	}
	fetch := func(_ context.Context, file string) ([]byte, error) {
		v := fetchFn.Invoke(file)
		if v.IsNull() || v.IsUndefined() {
			return nil, fmt.Errorf("asset %s could not be fetched", file)
		}
		if msg := v.Get("error"); !msg.IsUndefined() {
			return nil, fmt.Errorf("asset %s: %s", file, msg.String())
		}
		if data := v.Get("data"); !data.IsUndefined() {
			// {data, sha256}: the host fetched these bytes ahead and hashed
			// them natively (the browser's hash is asynchronous only)
			b := bytesOf(data)
			if sum := v.Get("sha256"); sum.Type() == js.TypeString && len(b) > 0 {
				fetchedHash.first, fetchedHash.n, fetchedHash.hex = &b[0], len(b), sum.String()
			}
			return b, nil
		}
		return bytesOf(v), nil
	}
	var t *core.AssetPrograms
	var err error
	if m := arg(args, 0); m.Type() == js.TypeObject && m.Get("assets").Type() == js.TypeObject {
		var man core.Manifest
		if man, err = manifestOf(m); err == nil {
			t, err = core.AssetProgramsOf(man, fetch)
		}
	} else {
		t, err = core.NewAssetPrograms(bytesOf(m), fetch)
	}
	if err != nil {
		return nil, err
	}
	tools = t
	if err := t.Prepare(context.Background()); err != nil {
		return nil, err
	}
	return len(t.Commands()), nil
}

// manifestOf reads the manifest as JSON.parse made it, as far as the core
// uses it (the worker passes it so: Go's decoder was slow enough under
// GOOS=js that V8 optimised it at every start, on the CPU the start
// needs). A field of the wrong type is an error, as in Go's decoder.
func manifestOf(v js.Value) (core.Manifest, error) {
	var m core.Manifest
	o := &jsObject{v: v}
	for _, a := range o.objects("assets") {
		asset := core.Asset{Name: a.str("name"), File: a.str("file"), SHA256: a.str("sha256"), Size: int64(a.int("size")),
			Commands: a.strs("commands"), Env: a.strMap("env"), ProgramOption: a.str("program_option")}
		if t, ok := a.get("filesTable", js.TypeString, "a string"); ok {
			files, err := filesOfTable(t.String())
			asset.Files = files
			a.keep(err)
		} else {
			for _, f := range a.objects("files") {
				asset.Files = append(asset.Files, core.AssetFile{Path: f.str("path"), File: f.str("file"), SHA256: f.str("sha256"), Size: int64(f.int("size"))})
				o.keep(f.err)
			}
		}
		m.Assets = append(m.Assets, asset)
		o.keep(a.err)
	}
	if o.err == nil && len(m.Assets) == 0 {
		o.err = fmt.Errorf("no assets")
	}
	if o.err != nil {
		return m, fmt.Errorf("asset manifest: %w", o.err)
	}
	return m, nil
}

// filesOfTable reads an asset's file list as the worker sends it (jsapi/manifest.js,
// runtimeManifest): a line per file, path, file, sha256 and size tab-separated.
func filesOfTable(t string) ([]core.AssetFile, error) {
	if t == "" {
		return nil, nil
	}
	lines := strings.Split(t, "\n")
	files := make([]core.AssetFile, 0, len(lines))
	for i, line := range lines {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("filesTable: line %d: 4 fields expected", i+1)
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("filesTable: line %d: size: an integer expected", i+1)
		}
		files = append(files, core.AssetFile{Path: f[0], File: f[1], SHA256: f[2], Size: size})
	}
	return files, nil
}

// createOptions are Sandbox.create's options, as the JS side passes them.
type createOptions struct {
	MemoryLimitMb int               `json:"memoryLimitMb"`
	TimeoutMs     int               `json:"timeoutMs"`
	FsLimitMb     int               `json:"fsLimitMb"`
	MaxProcesses  int               `json:"maxProcesses"`
	OutputLimit   int               `json:"outputLimit"`
	PipeBufferMb  int               `json:"pipeBufferMb"`
	Env           map[string]string `json:"env"`
	// Python is what python3 is: "pyodide", the worker's Pyodide
	// (jsapi/python.js), the default where the worker has it; "wasi", the
	// CPython WASI program.
	Python string `json:"python"`
	// PythonIndex is where Pyodide's packages come from: a URL or (Node) a
	// directory holding Pyodide's distribution or wheels; "" is Pyodide's
	// CDN for its version; "none" turns loading off.
	PythonIndex string `json:"pythonIndex"`
	// Events asks for the sandbox's events (core.Event), each handed to
	// globalThis.__wasmsandEvent(id, json) as it happens.
	Events bool `json:"events"`
	// Policy is a policy document (YAML, or JSON: the JS side sends an
	// object as JSON), Profile a profile's name instead; the options above
	// given explicitly win over its limits.
	Policy  string `json:"policy"`
	Profile string `json:"profile"`
	// AllowNet are URL prefixes GET and HEAD may reach (the CLI's
	// --allow-net), Secrets the values of the secrets the policy declares.
	AllowNet []string          `json:"allowNet"`
	Secrets  map[string]string `json:"secrets"`
}

// usePolicy applies the policy options to opt (events already wired);
// Sandbox.create's explicit limits stay.
func usePolicy(o *createOptions, opt *core.Options) error {
	var p *policy.Policy
	switch {
	case o.Policy != "" && o.Profile != "":
		return &argError{"profile: the policy names its profile"}
	case o.Policy != "":
		var err error
		if p, err = policy.Parse(strings.NewReader(o.Policy)); err != nil {
			return &argError{"policy: " + err.Error()}
		}
	case o.Profile != "":
		pr, err := policy.Profile(o.Profile)
		if err != nil {
			return &argError{"profile: " + err.Error()}
		}
		p = &pr
	}
	if p != nil && len(p.Filesystem.Mounts) > 0 {
		return &argError{"policy: filesystem.mounts: host paths are mounted with Sandbox.mount on this platform"}
	}
	// (the create options' own limits win over the policy's)
	if err := opt.ApplyPolicy(core.PolicyRequest{Policy: p, AllowNet: o.AllowNet, Secrets: o.Secrets, Explicit: *opt}); err != nil {
		msg := strings.TrimPrefix(err.Error(), "network.")
		if p == nil && !strings.HasPrefix(msg, "secrets:") {
			msg = "allowNet: " + msg
		} else if p != nil {
			msg = "policy: " + msg
		}
		return &argError{msg}
	}
	return nil
}

// create(options, state Uint8Array|undefined, files {path: Uint8Array}) → id
// (options: see createOptionsOf)
func create(args []js.Value) (any, error) {
	o, err := createOptionsOf(arg(args, 0))
	if err != nil {
		return nil, err
	}
	opt := core.Options{
		MemoryLimitMB: o.MemoryLimitMb,
		Timeout:       time.Duration(o.TimeoutMs) * time.Millisecond,
		FSLimitMB:     o.FsLimitMb,
		MaxProcesses:  o.MaxProcesses,
		OutputLimit:   o.OutputLimit,
		BatchLimit:    o.PipeBufferMb << 20,
		Env:           o.Env,
		Programs:      tools,
	}
	switch o.Python {
	case "wasi":
	case "":
		opt.Commands = pyodide.Commands() // (none without Pyodide)
	case "pyodide":
		if !pyodide.Available() {
			return nil, &argError{"python: pyodide is not installed in this worker"}
		}
		opt.Commands = pyodide.Commands()
	default:
		return nil, &argError{"python: \"wasi\" or \"pyodide\" expected, not " + fmt.Sprintf("%q", o.Python)}
	}
	if st := arg(args, 1); !st.IsUndefined() && !st.IsNull() {
		limit := int64(o.FsLimitMb) << 20
		if limit <= 0 {
			limit = 256 << 20
		}
		fsys, err := vfs.DecodeBytes(bytesOf(st), vfs.Options{MaxBytes: limit})
		if err != nil {
			return nil, &core.Error{Code: core.CodeCorruptState, Op: "create", Err: err}
		}
		opt.FS = fsys
	}
	id := sessions.NewID() // (this sandbox's id, if it is made)
	if o.Events {
		emit := js.Global().Get("__wasmsandEvent")
		opt.OnEvent = func(e core.Event) {
			if b, err := json.Marshal(e); err == nil && emit.Type() == js.TypeFunction {
				emit.Invoke(id, string(b))
			}
		}
	}
	if err := usePolicy(&o, &opt); err != nil {
		return nil, err
	}
	sb, err := core.New(context.Background(), opt)
	if err != nil {
		return nil, err
	}
	if files := arg(args, 2); files.Type() == js.TypeObject {
		keys := js.Global().Get("Object").Call("keys", files)
		for i := 0; i < keys.Length(); i++ {
			k := keys.Index(i).String()
			if err := sb.WriteFile(k, bytesOf(files.Get(k)), 0); err != nil {
				sb.Close()
				return nil, err
			}
		}
	}
	if _, _, err := registry.Add(nil, id, sb, pyConfig{index: o.PythonIndex, memoryMB: max(o.MemoryLimitMb, 0)}); err != nil {
		sb.Close()
		return nil, err
	}
	return id, nil
}

type runOptions struct {
	Env       map[string]string `json:"env"`
	Cwd       string            `json:"cwd"`
	TimeoutMs int               `json:"timeoutMs"`
	Stateless bool              `json:"stateless"`
	Script    bool              `json:"script"`
	Name      string            `json:"name"`
	AbortKey  int               `json:"abortKey"` // the run is aborted once abortFlag[0] holds it
	// Terminal: a streamed stdin is a tty to programs (a REPL starts), and
	// so are stdout and stderr when they are streamed (onOutput)
	Terminal bool `json:"terminal"`
}

// run(id, command, options, stdin Uint8Array|function|undefined, onOutput) →
// {exitCode, stdout, stderr, executionTimeMs, truncated, timedOut};
// onOutput(stream "stdout"|"stderr", Uint8Array), when given, gets the
// output as it is produced (a guest's, when it exits). A function stdin is
// streamed input (see jsStdin).
func run(args []js.Value) (any, error) {
	sb, cmd, err := sandboxArg(args, "command")
	if err != nil {
		return nil, err
	}
	o, err := runOptionsOf(arg(args, 2))
	if err != nil {
		return nil, err
	}
	opt := core.RunOptions{Env: o.Env, Cwd: o.Cwd, Timeout: time.Duration(o.TimeoutMs) * time.Millisecond,
		Stateless: o.Stateless, Script: o.Script, Name: o.Name}
	if in := arg(args, 3); in.Type() == js.TypeFunction {
		opt.Stdin, opt.Terminal = &jsStdin{read: in}, o.Terminal
	} else if !in.IsUndefined() && !in.IsNull() {
		opt.Stdin = strings.NewReader(string(bytesOf(in)))
	}
	if f := arg(args, 4); f.Type() == js.TypeFunction {
		opt.Stdout, opt.Stderr = jsWriter{f, "stdout", o.Terminal}, jsWriter{f, "stderr", o.Terminal}
	}
	ctx := context.Background()
	if o.AbortKey != 0 && abortFlag.Truthy() {
		key := o.AbortKey
		var cancel context.CancelFunc
		ctx, cancel = interrupt.With(ctx, func() bool {
			return atomicsLoad.Invoke(abortFlag, 0).Int() == key
		})
		defer cancel()
	}
	pyodide.SetRun(abortFlag, o.AbortKey, pyConf(args).memoryMB, pyConf(args).index)
	res, err := sb.Run(ctx, cmd, opt)
	pyodide.SetRun(js.Undefined(), 0, 0, "")
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"exitCode":        res.ExitCode,
		"stdout":          toJS(res.Stdout),
		"stderr":          toJS(res.Stderr),
		"executionTimeMs": float64(res.Duration) / float64(time.Millisecond),
		"truncated":       res.Truncated,
		"timedOut":        res.TimedOut,
		"exited":          res.Exited,
	}, nil
}

// needsPython(id, command) → {python, imports, packages, index}: whether
// the worker should load Pyodide before this run, which modules its Python
// code may import and which packages its pip install commands name, from
// which package index.
func needsPython(args []js.Value) (any, error) {
	sb, cmd, err := sandboxArg(args, "command")
	if err != nil {
		return nil, err
	}
	if c, ok := sb.Command("python3"); !ok || c.Run == nil {
		return map[string]any{"python": false}, nil
	}
	python, imports, packages := pyodide.Needs(sb.FS(), sb.Cwd(), cmd)
	list := func(a []string) []any {
		out := make([]any, len(a))
		for i, n := range a {
			out[i] = n
		}
		return out
	}
	return map[string]any{"python": python, "imports": list(imports), "packages": list(packages),
		"index": pyConf(args).index}, nil
}

func programs(args []js.Value) (any, error) {
	sb, err := sandbox(args)
	if err != nil {
		return nil, err
	}
	names := arg(args, 1)
	if names.Type() != js.TypeObject {
		return nil, &argError{"names: a list expected"}
	}
	out := []any{}
	for i := range names.Length() {
		n := names.Index(i)
		if n.Type() != js.TypeString {
			continue
		}
		if c, ok := sb.Command(n.String()); ok && c.Run == nil && !interp.IsBuiltin(n.String()) {
			out = append(out, n.String())
		}
	}
	return out, nil
}

// jsWriter hands output to a JS function as it comes.
type jsWriter struct {
	f      js.Value
	stream string
	tty    bool // programs writing to it see a terminal (run's terminal option)
}

func (w jsWriter) IsTerminal() bool { return w.tty }

func (w jsWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		w.f.Invoke(w.stream, toJS(p))
	}
	return len(p), nil
}

// jsStdin is a run's streamed stdin: read(max, waitMs) → a Uint8Array of
// what has come (empty: nothing within waitMs), or null at the end of the
// input. The worker's read waits on the shared memory the page writes to
// (jsapi/worker.js). The run reads it directly (a core.ContextReader), in
// slices, so that its timeout or an abort ends a wait for input: timers
// cannot fire while the wait holds the thread.
type jsStdin struct {
	read js.Value
	ctx  context.Context
}

func (s *jsStdin) WithContext(ctx context.Context) io.Reader { return &jsStdin{s.read, ctx} }

// ReadsInPlace: guests read it directly, as its input comes (core's batched
// scheduler would read a stdin to its end first).
func (s *jsStdin) ReadsInPlace() bool { return true }

func (s *jsStdin) Read(p []byte) (int, error) {
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	deadline, hasDeadline := ctx.Deadline()
	for {
		if ctx.Err() != nil || interrupt.Polled(ctx) {
			return 0, context.Canceled
		}
		if hasDeadline && !time.Now().Before(deadline) {
			<-ctx.Done() // (its timer fires now that this goroutine waits: the run is marked timed out)
			return 0, ctx.Err()
		}
		if len(p) == 0 {
			return 0, nil
		}
		v := s.read.Invoke(len(p), 100)
		if v.IsNull() || v.IsUndefined() {
			return 0, io.EOF
		}
		if v.Type() == js.TypeString {
			return 0, syscall.EINTR // a Ctrl-C for Python, which is reading (jsapi/stdin.js)
		}
		if n := js.CopyBytesToGo(p, v); n > 0 {
			return n, nil
		}
	}
}

func readFile(args []js.Value) (any, error) {
	sb, p, err := sandboxArg(args, "path")
	if err != nil {
		return nil, err
	}
	b, err := sb.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return toJS(b), nil
}

// writeFile(id, path, data Uint8Array, mode)
func writeFile(args []js.Value) (any, error) {
	sb, p, err := sandboxArg(args, "path")
	if err != nil {
		return nil, err
	}
	var mode fs.FileMode
	if m := arg(args, 3); m.Type() == js.TypeNumber {
		mode = fs.FileMode(m.Int()) & fs.ModePerm
	}
	return nil, sb.WriteFile(p, bytesOf(arg(args, 2)), mode)
}

func listDir(args []js.Value) (any, error) {
	sb, p, err := sandboxArg(args, "path")
	if err != nil {
		return nil, err
	}
	ents, err := sb.ListDir(p)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(ents))
	for i, e := range ents {
		out[i] = map[string]any{"name": e.Name, "type": e.Type(), "size": e.Size,
			"mode": int(e.Mode.Perm()), "mtimeMs": float64(e.ModTime.UnixMilli())}
	}
	return out, nil
}

func stat(args []js.Value) (any, error) {
	sb, p, err := sandboxArg(args, "path")
	if err != nil {
		return nil, err
	}
	fi, err := sb.Stat(p)
	if err != nil {
		return nil, err
	}
	return map[string]any{"name": fi.Name(), "type": core.FileType(fi.Mode()), "size": fi.Size(),
		"mode": int(fi.Mode().Perm()), "mtimeMs": float64(fi.ModTime().UnixMilli())}, nil
}

// remove(id, path, recursive)
func remove(args []js.Value) (any, error) {
	sb, p, err := sandboxArg(args, "path")
	if err != nil {
		return nil, err
	}
	return nil, sb.Remove(p, arg(args, 2).Truthy())
}

// mkdir(id, path, mode): parents are made as needed.
func mkdir(args []js.Value) (any, error) {
	sb, p, err := sandboxArg(args, "path")
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o755)
	if m := arg(args, 2); m.Type() == js.TypeNumber {
		mode = fs.FileMode(m.Int()) & fs.ModePerm
	}
	return nil, sb.Mkdir(p, mode)
}

// snapshot(id) → "SANDBOX/snapN", a snapshot kept until its sandbox is
// destroyed.
func snapshot(args []js.Value) (any, error) {
	x, err := session(args)
	if err != nil {
		return nil, err
	}
	id, err := registry.Snapshot(x)
	if err != nil {
		return nil, err
	}
	return x.ID + "/" + id, nil
}

// restore(id, snapshotId): any snapshot of this core (of this sandbox or
// another), as the Go API allows.
func restore(args []js.Value) (any, error) {
	sb, err := sandbox(args)
	if err != nil {
		return nil, err
	}
	v := arg(args, 1)
	if v.Type() != js.TypeString {
		return nil, &argError{"snapshot id expected"}
	}
	notFound := &core.Error{Code: core.CodeNotFound, Op: "restore", Err: errors.New("no such snapshot")}
	from, snapID, _ := strings.Cut(v.String(), "/")
	x, ok := registry.Get(nil, from)
	if !ok {
		return nil, notFound
	}
	snap, err := x.SnapshotOf(snapID)
	if err != nil {
		return nil, notFound
	}
	return nil, sb.Restore(snap)
}

func fork(args []js.Value) (any, error) {
	x, err := session(args)
	if err != nil {
		return nil, err
	}
	y, err := registry.Fork(context.Background(), x, x.Value)
	if err != nil {
		return nil, err
	}
	return y.ID, nil
}

// The persisted states of persistLoad/persistSave, by name (browser:
// IndexedDB through idbstate; Node keeps its own in a host directory).
var stores = map[string]*idbstate.Store{}

var asyncAPI = map[string]func([]js.Value) (func() (any, error), error){
	"persistLoad":  persistLoad,
	"persistSave":  persistSave,
	"persistClear": persistClear,
}

// persistLoad(name) → Promise of the newest saved state (Uint8Array) or
// null; create takes it as its state.
func persistLoad(args []js.Value) (func() (any, error), error) {
	name, err := str(args, 0, "name")
	if err != nil {
		return nil, err
	}
	return withStore(name, "load", func(ctx context.Context, st *idbstate.Store) (any, error) {
		b, err := st.Load(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		return toJS(b), nil
	}), nil
}

// persistSave(id, name) → Promise: the sandbox's files saved under name. The
// files are encoded at once (an O(1) snapshot), written afterwards.
func persistSave(args []js.Value) (func() (any, error), error) {
	sb, err := sandbox(args)
	if err != nil {
		return nil, err
	}
	name, err := str(args, 1, "name")
	if err != nil {
		return nil, err
	}
	state, err := encode(sb)
	if err != nil {
		return nil, err
	}
	return withStore(name, "save", func(ctx context.Context, st *idbstate.Store) (any, error) {
		return nil, st.Save(ctx, state)
	}), nil
}

// persistClear(name) → Promise: forgets what was saved under name.
func persistClear(args []js.Value) (func() (any, error), error) {
	name, err := str(args, 0, "name")
	if err != nil {
		return nil, err
	}
	return withStore(name, "clear", func(ctx context.Context, st *idbstate.Store) (any, error) {
		return nil, st.Clear(ctx)
	}), nil
}

// withStore is the work of a persist method: f on the store called name,
// its error reported as a storage error.
func withStore(name, op string, f func(context.Context, *idbstate.Store) (any, error)) func() (any, error) {
	return func() (any, error) {
		st, err := openStore(name)
		if err != nil {
			return nil, err
		}
		v, err := f(context.Background(), st)
		return v, persistErr(op, err)
	}
}

// openStore opens a store once per core (after a first Load, which finds
// the slot the next save may overwrite).
func openStore(name string) (*idbstate.Store, error) {
	if st := stores[name]; st != nil {
		return st, nil
	}
	st, err := idbstate.Open(context.Background(), name)
	if err != nil {
		return nil, persistErr("open", err)
	}
	if _, err := st.Load(context.Background()); err != nil {
		return nil, persistErr("load", err)
	}
	stores[name] = st
	return st, nil
}

func persistErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return &core.Error{Code: core.CodeStorage, Op: "persist " + op, Err: err}
}

// mount(id, hostDir, sandboxDir, readOnly): a host directory, confined by
// platform/hostdir, at sandboxDir. Node only: its worker serves Go's os
// calls synchronously (node/worker.cjs); a browser has no host directory.
func mount(args []js.Value) (any, error) {
	sb, err := sandbox(args)
	if err != nil {
		return nil, err
	}
	host, err := str(args, 1, "host directory")
	if err != nil {
		return nil, err
	}
	dir, err := str(args, 2, "sandbox directory")
	if err != nil {
		return nil, err
	}
	backend, err := hostdir.New(host)
	if err != nil {
		return nil, &core.Error{Code: core.CodeHostPath, Op: "mount", Path: host, Err: err}
	}
	jsengine.HostFSMounted() // its os calls wait: no more quick host calls
	return nil, sb.Mount(dir, backend, arg(args, 3).Truthy())
}

// encode is the sandbox's files in the format of the native --save.
func encode(sb *core.Sandbox) ([]byte, error) {
	var b bytes.Buffer
	err := sb.FS().Encode(&b)
	return b.Bytes(), err
}

// save(id) → the sandbox's files as one Uint8Array (the format of the
// native --save; create takes it back).
func save(args []js.Value) (any, error) {
	sb, err := sandbox(args)
	if err != nil {
		return nil, err
	}
	b, err := encode(sb)
	if err != nil {
		return nil, err
	}
	return toJS(b), nil
}

// incomplete(id, script): whether script needs more lines to be complete
// commands (an open quote, block or here-document), as an interactive
// shell asks for them.
func incomplete(args []js.Value) (any, error) {
	if _, err := sandbox(args); err != nil {
		return nil, err
	}
	s := arg(args, 1)
	if s.Type() != js.TypeString {
		return nil, &argError{"script expected"}
	}
	return core.Incomplete(s.String()), nil
}

func destroy(args []js.Value) (any, error) {
	if v := arg(args, 0); v.Type() == js.TypeString {
		registry.Remove(nil, v.String()) // (destroying twice is fine)
	}
	return nil, nil
}
