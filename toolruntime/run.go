package toolruntime

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

//go:embed runner.py
var runnerPy []byte

// Paths inside an invocation's sandbox.
const (
	toolsMount = "/tools"
	workDir    = "/work"
	runnerPath = "/opt/wasmsand/tool_runner.py"
	// maxToolsBytes bounds the tools directory copied into each sandbox.
	maxToolsBytes = 64 << 20
	statusMark    = "\x1e"
)

// profileFor is the stricter of the tool's profile and the one the request asks for.
func profileFor(tool, asked string) string {
	rank := map[string]int{"restrictive": 0, "standard": 1, "permissive": 2}
	if r, ok := rank[asked]; ok && r < rank[tool] {
		return asked
	}
	return tool
}

// run executes one invocation of t in a fresh sandbox: inputs in, the tool run,
// outputs stored. The three timeouts of the design's §7: the sandbox's own limit, this
// worker's wall clock (limit + 5 s), the client's (limit + 10 s).
func (w *Worker) run(name string, t Tool, req *Request, status func(string)) (*Result, auditRecord, *ErrorObject) {
	var rec auditRecord
	p := &req.Params
	limit := t.TimeoutSeconds
	if limit == 0 {
		limit = p.TimeoutSeconds
	}
	if limit <= 0 {
		limit = DefaultTimeout
	}
	profile := profileFor(t.SandboxProfile, p.SandboxProfile)
	pol, err := policy.Profile(profile)
	if err != nil {
		return nil, rec, errorf(ErrInvalidRequest, "%v", err)
	}
	if w.opt.Policy != nil && profile != "restrictive" {
		pol.Network, pol.Secrets = w.opt.Policy.Network, w.opt.Policy.Secrets
	}
	timeout := time.Duration(limit * float64(time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), timeout+5*time.Second)
	defer cancel()

	opt := core.Options{Programs: w.opt.Assets}
	secrets := w.opt.Secrets
	if profile == "restrictive" {
		secrets = nil
	}
	if err := opt.UsePolicy(&pol, nil, secrets, nil); err != nil {
		return nil, rec, errorf(ErrInternal, "policy: %v", err)
	}
	opt.Timeout = timeout
	sb, err := core.New(ctx, opt)
	if err != nil {
		return nil, rec, errorf(ErrSandboxFailed, "sandbox: %v", err)
	}
	defer sb.Close()
	fsys := sb.FS()

	code, err := t.verify(w.opt.ToolsDir)
	if err != nil {
		return nil, rec, errorf(ErrImport, "tool %s: %v", name, err)
	}
	// A tool with a sha256 sees its verified code alone in /tools: nothing
	// it could import is left out of the hash.
	if t.SHA256 == "" {
		if err := copyTools(fsys, w.opt.ToolsDir); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "tools directory: %v", err)
		}
	}
	if err := w.copyPackages(fsys, t); err != nil {
		return nil, rec, errorf(ErrImport, "tool %s: %v", name, err)
	}
	for rel, b := range code {
		// the sandbox runs the bytes that were verified, whatever the files hold now
		mode := fs.FileMode(0o644)
		if t.Runtime == "wasm" {
			mode = 0o755 // (run as a command)
		}
		guest := path.Join(toolsMount, rel)
		if err := fsys.MkdirAll(path.Dir(guest), 0o755); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "tool code: %v", err)
		}
		if err := fsys.WriteFile(guest, b, mode); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "tool code: %v", err)
		}
		if err := fsys.Chmod(guest, mode); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "tool code: %v", err)
		}
	}
	for _, d := range []string{workDir + "/input", workDir + "/output", workDir + "/mime", path.Dir(runnerPath)} {
		if err := fsys.MkdirAll(d, 0o777); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "%s: %v", d, err)
		}
	}
	loaded, e := w.inputs(ctx, fsys, p)
	rec.Loaded = loaded
	if e != nil {
		return nil, rec, e
	}

	args := p.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var script string
	stdin := []byte(nil)
	switch t.Runtime {
	case "python":
		spec, _ := json.Marshal(map[string]any{"module": t.Module, "function": t.Function, "args": args,
			"tool_config": p.ToolConfig, "user_id": p.UserID, "session_id": p.SessionID, "task_id": p.TaskID, "tool_name": name})
		spec, err := toMarshal(spec)
		if err != nil {
			return nil, rec, errorf(ErrInvalidRequest, "arguments: %v", err)
		}
		if err := fsys.WriteFile(workDir+"/runner_args.marshal", spec, 0o644); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "%v", err)
		}
		if err := fsys.WriteFile(runnerPath, runnerPy, 0o644); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "%v", err)
		}
		script = "python3 " + runnerPath
	case "shell":
		script, stdin = t.Command, args
	case "wasm":
		script, stdin = shellQuote(path.Join(toolsMount, t.Module)), args
	}
	stderr := &statusWriter{status: status}
	started := time.Now()
	res, err := sb.Run(ctx, script, core.RunOptions{Stdin: bytes.NewReader(stdin), Stderr: stderr, Cwd: workDir, Script: true})
	elapsed := time.Since(started)
	stderr.flush()
	if err != nil {
		if ctx.Err() != nil {
			return nil, rec, &ErrorObject{Code: ErrSandboxTimeout, Message: fmt.Sprintf("no result after %v", timeout+5*time.Second), Data: map[string]any{"timed_out": true}}
		}
		return nil, rec, errorf(ErrSandboxFailed, "%v", err)
	}
	if res.TimedOut {
		return nil, rec, &ErrorObject{Code: ErrSandboxTimeout, Message: fmt.Sprintf("the tool ran past its %v limit", timeout), Data: map[string]any{"timed_out": true}}
	}
	var toolResult json.RawMessage
	switch t.Runtime {
	case "python":
		// marshal data, or JSON for a result that is not plain data (runner.py)
		b, err := fsys.ReadFile(workDir + "/result.marshal")
		if err == nil {
			if b, err = fromMarshal(b); err != nil {
				return nil, rec, errorf(ErrSandboxFailed, "the runner's result: %v", err)
			}
		} else {
			b, err = fsys.ReadFile(workDir + "/result.json")
		}
		if err != nil {
			return nil, rec, &ErrorObject{Code: ErrSandboxFailed, Message: fmt.Sprintf("python3 exited with status %d before the tool returned", res.ExitCode),
				Data: map[string]any{"stderr": stderr.tail()}}
		}
		var doc struct {
			ToolResult json.RawMessage `json:"tool_result"`
			Error      *struct {
				Code, Message, Traceback string
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, rec, errorf(ErrSandboxFailed, "the runner's result does not parse: %v", err)
		}
		if doc.Error != nil {
			e := &ErrorObject{Code: doc.Error.Code, Message: doc.Error.Message}
			if doc.Error.Traceback != "" {
				e.Data = map[string]any{"traceback": doc.Error.Traceback}
			}
			return nil, rec, e
		}
		toolResult = doc.ToolResult
	default:
		out := bytes.TrimSpace(res.Stdout)
		if len(out) > 0 && json.Valid(out) {
			toolResult = append(json.RawMessage(nil), out...)
		} else {
			toolResult, _ = json.Marshal(map[string]any{"stdout": string(res.Stdout), "stderr": stderr.tail(), "exit_code": res.ExitCode})
		}
	}
	created, e := w.outputs(ctx, fsys, p)
	rec.Created = created
	if e != nil {
		return nil, rec, e
	}
	out := &Result{ToolResult: toolResult, ExecutionTimeMs: elapsed.Milliseconds(), CreatedArtifacts: []CreatedArtifact{}}
	for _, m := range created {
		out.CreatedArtifacts = append(out.CreatedArtifacts, CreatedArtifact{Filename: m.Filename, Version: m.Version,
			MimeType: m.MimeType, SizeBytes: m.SizeBytes, SHA256: m.SHA256})
	}
	return out, rec, nil
}

func (w *Worker) scope(p *RequestParams, session string) Scope {
	return ScopeFor(w.opt.Namespace, p.UserID, session)
}

// ScopeFor is where a worker of namespace keeps a user's artifacts (session "": the
// user-wide ones); a client storing inputs by reference uses it too.
func ScopeFor(namespace, user, session string) Scope {
	if namespace = strings.ReplaceAll(strings.Trim(namespace, "/"), "/", "_"); namespace == "" {
		namespace = "default"
	}
	if user == "" {
		user = "anonymous"
	}
	return Scope{Namespace: namespace, User: user, Session: session}
}

// ArtifactBucket is the JetStream object store of a namespace's artifacts.
func ArtifactBucket(namespace string) string { return Subjects{namespace}.streamName() + "_ARTIFACTS" }

// inputs writes the request's artifacts into input/: preloaded ones decoded,
// referenced ones loaded from the session's scope, else the user-wide one.
func (w *Worker) inputs(ctx context.Context, fsys fsWriter, p *RequestParams) ([]ArtifactMeta, *ErrorObject) {
	var loaded []ArtifactMeta
	pre := make([]string, 0, len(p.PreloadedArtifacts))
	for k := range p.PreloadedArtifacts {
		pre = append(pre, k)
	}
	sort.Strings(pre)
	for _, k := range pre {
		a := p.PreloadedArtifacts[k]
		name := a.Filename
		if name == "" {
			name = k
		}
		if err := checkName("artifact name", name); err != nil {
			return loaded, errorf(ErrArtifact, "preloaded %s: %v", k, err)
		}
		data, err := base64.StdEncoding.DecodeString(a.Content)
		if err != nil {
			return loaded, errorf(ErrArtifact, "preloaded %s: not base64: %v", name, err)
		}
		if err := fsys.WriteFile(workDir+"/input/"+name, data, 0o644); err != nil {
			return loaded, errorf(ErrArtifact, "preloaded %s: %v", name, err)
		}
		loaded = append(loaded, meta(name, -1, data, a.MimeType))
	}
	refs := make([]string, 0, len(p.ArtifactReferences))
	for k := range p.ArtifactReferences {
		refs = append(refs, k)
	}
	sort.Strings(refs)
	for _, k := range refs {
		r := p.ArtifactReferences[k]
		v := -1
		if r.Version != nil {
			v = *r.Version
		}
		data, m, err := w.opt.Store.Load(ctx, w.scope(p, p.SessionID), r.Filename, v)
		if errors.Is(err, ErrNoArtifact) && p.SessionID != "" {
			data, m, err = w.opt.Store.Load(ctx, w.scope(p, ""), r.Filename, v)
		}
		if err != nil {
			return loaded, errorf(ErrArtifact, "artifact %s: %v", r.Filename, err)
		}
		if err := fsys.WriteFile(workDir+"/input/"+r.Filename, data, 0o644); err != nil {
			return loaded, errorf(ErrArtifact, "artifact %s: %v", r.Filename, err)
		}
		loaded = append(loaded, m)
	}
	return loaded, nil
}

// outputs stores the files the tool left in output/ as new versions.
func (w *Worker) outputs(ctx context.Context, fsys fsWriter, p *RequestParams) ([]ArtifactMeta, *ErrorObject) {
	ents, err := fsys.ReadDir(workDir + "/output")
	if err != nil {
		return nil, errorf(ErrArtifact, "output/: %v", err)
	}
	var created []ArtifactMeta
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		name := e.Name()
		data, err := fsys.ReadFile(workDir + "/output/" + name)
		if err != nil {
			return created, errorf(ErrArtifact, "output %s: %v", name, err)
		}
		mt := ""
		if b, err := fsys.ReadFile(workDir + "/mime/" + name); err == nil {
			mt = strings.TrimSpace(string(b))
		}
		if mt == "" {
			mt = mime.TypeByExtension(path.Ext(name))
		}
		if mt == "" {
			mt = "application/octet-stream"
		}
		m, err := w.opt.Store.Save(ctx, w.scope(p, p.SessionID), name, data, mt)
		if err != nil {
			return created, errorf(ErrArtifact, "saving %s: %v", name, err)
		}
		created = append(created, m)
	}
	return created, nil
}

// fsWriter is what run needs of the sandbox's file tree.
type fsWriter interface {
	WriteFile(name string, data []byte, perm fs.FileMode) error
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	MkdirAll(name string, perm fs.FileMode) error
	Chmod(name string, mode fs.FileMode) error
}

// copyTools copies the tools directory to /tools (regular files and directories;
// links are not followed out of it).
func copyTools(fsys fsWriter, dir string) error {
	total := 0
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		guest := path.Join(toolsMount, filepath.ToSlash(rel))
		switch {
		case d.IsDir():
			if d.Name() == "__pycache__" || (rel != "." && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return fsys.MkdirAll(guest, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if total += len(b); total > maxToolsBytes {
				return fmt.Errorf("more than %d MiB", maxToolsBytes>>20)
			}
			return fsys.WriteFile(guest, b, 0o644)
		}
		return nil
	})
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// statusWriter is the tool's stderr: lines marked as status updates are published,
// the rest kept (the last 64 KiB) for error messages.
type statusWriter struct {
	status func(string)
	line   []byte
	kept   []byte
}

func (s *statusWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			s.line = append(s.line, p...)
			if len(s.line) > 64<<10 {
				s.keep(s.line)
				s.line = s.line[:0]
			}
			break
		}
		s.line = append(s.line, p[:i+1]...)
		p = p[i+1:]
		s.end()
	}
	return n, nil
}

func (s *statusWriter) end() {
	if bytes.HasPrefix(s.line, []byte(statusMark)) {
		var st struct {
			StatusText string `json:"status_text"`
		}
		if json.Unmarshal(bytes.TrimSpace(s.line[len(statusMark):]), &st) == nil {
			s.status(st.StatusText)
		}
	} else {
		s.keep(s.line)
	}
	s.line = s.line[:0]
}

func (s *statusWriter) keep(b []byte) {
	s.kept = append(s.kept, b...)
	if len(s.kept) > 64<<10 {
		s.kept = append([]byte(nil), s.kept[len(s.kept)-64<<10:]...)
	}
}

func (s *statusWriter) flush() {
	if len(s.line) > 0 {
		s.end()
	}
}

func (s *statusWriter) tail() string { return string(s.kept) }
