// Package service is wasmsand's HTTP service: JSON over HTTP for agents
// written in any language, over the public core API only (a thin
// transport, as the MCP server is). Sessions are sandboxes a client
// creates, runs commands in (the whole result, or streamed as server-sent
// events), reads and writes files of, snapshots, restores, forks and
// deletes. The routes table below makes both the handler and the OpenAPI
// document served at /v1/openapi.json.
//
// Bearer tokens, when given, are required; each token owns its sessions
// (another token gets not_found), up to MaxSessions at once. A session
// unused for IdleTTL is closed. Bodies are bounded by MaxBody; errors are
// {"code", "message"} with core's stable codes and a few of the service's
// own (unauthorized, quota_exceeded, payload_too_large, not_found for a
// session).
package service

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/sessions"
)

// Options configure a Server.
type Options struct {
	// NewSandbox makes a session's sandbox for a create request (the
	// operator's limits and policy apply; the request may only lower the
	// limits); onEvent hears its events.
	NewSandbox func(ctx context.Context, req CreateRequest, onEvent func(core.Event)) (*core.Sandbox, error)
	// Tokens are the accepted bearer tokens; none: no authentication (the
	// CLI allows that on loopback only).
	Tokens []string
	// MaxSessions bounds the sessions a token has at once (default 16).
	MaxSessions int
	// IdleTTL closes a session unused that long (default 30 min).
	IdleTTL time.Duration
	// MaxBody bounds a request body, file uploads included (default 64 MiB).
	MaxBody int64
	// MaxSnapshots bounds the snapshots a session keeps (default 32).
	MaxSnapshots int
	// MaxMemory bounds what all sessions together keep in memory (their
	// files, what their snapshots keep, their shell variables: Sandbox.
	// MemoryHeld), in bytes; 0: no bound. Past it, creating a session, a
	// fork or a snapshot and uploading a file fail with 507
	// resource_exhausted; the sessions go on within their own limits.
	MaxMemory int64
	// Cluster, when set, makes this server one node of a cluster (package
	// cluster): sessions live on any node, requests are forwarded to the
	// node that holds a session, and every change is checkpointed.
	Cluster *cluster.Node
	// IdleEvict, in a cluster, hands a session unused that long back to the
	// cluster's store (its memory is freed; its next request restores it
	// on whichever node takes it). 0: sessions stay until IdleTTL.
	IdleEvict time.Duration
}

// Server serves the sessions.
type Server struct {
	opt Options

	sessions *sessions.Registry // owned by their tokens
	stop     chan struct{}
	stopOnce sync.Once
	draining atomic.Bool // (a cluster's node shutting down)
}

// listener is a session's Value: the streaming run's event listener, if any.
type listener struct {
	mu     sync.Mutex
	events func(core.Event)
}

func (l *listener) set(f func(core.Event)) {
	l.mu.Lock()
	l.events = f
	l.mu.Unlock()
}

func (l *listener) hear(e core.Event) {
	l.mu.Lock()
	f := l.events
	l.mu.Unlock()
	if f != nil {
		f(e)
	}
}

// New starts a server (and its janitor, which closes idle sessions).
func New(opt Options) *Server {
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 16
	}
	if opt.IdleTTL <= 0 {
		opt.IdleTTL = 30 * time.Minute
	}
	if opt.MaxBody <= 0 {
		opt.MaxBody = 64 << 20
	}
	if opt.MaxSnapshots <= 0 {
		opt.MaxSnapshots = 32
	}
	s := &Server{opt: opt, stop: make(chan struct{}), sessions: sessions.New(sessions.Options{
		MaxPerOwner: opt.MaxSessions, MaxSnapshots: opt.MaxSnapshots, MaxMemory: opt.MaxMemory, Limit: "--max-memory"})}
	if opt.Cluster != nil {
		// (another node claimed it while this one was cut off: its state
		// there is the last checkpoint, this copy is stale)
		opt.Cluster.OnLost(func(id string) { s.sessions.Drop(id) })
	}
	go s.janitor()
	return s
}

// Close closes every session.
func (s *Server) Close() {
	s.stopOnce.Do(func() { close(s.stop) })
	s.sessions.Close()
}

// Sessions is how many sessions are open.
func (s *Server) Sessions() int { return s.sessions.Len() }

func (s *Server) janitor() {
	defer func() { _ = recover() }()
	every := min(s.opt.IdleTTL/4, time.Minute)
	if s.opt.IdleEvict > 0 {
		every = min(every, max(s.opt.IdleEvict/4, time.Second))
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			if s.opt.Cluster != nil {
				s.evict()
				s.expireCluster()
			} else {
				s.sessions.Expire(s.opt.IdleTTL)
			}
		}
	}
}

// apiError is an error with its HTTP status and stable code.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.message }

func errf(status int, code, format string, a ...any) *apiError {
	return &apiError{status, code, fmt.Sprintf(format, a...)}
}

// statusOf maps core's codes to HTTP statuses.
var statusOf = map[core.Code]int{
	core.CodeNotFound: 404, core.CodeExists: 409, core.CodeNotDir: 400, core.CodeIsDir: 400,
	core.CodeNotEmpty: 409, core.CodePermission: 403, core.CodeReadOnly: 403, core.CodeNoSpace: 507,
	core.CodeInvalidArgument: 400, core.CodeInvalidModule: 400, core.CodeTimeout: 504, core.CodeCanceled: 499,
	core.CodeTooManyProcesses: 429, core.CodeClosed: 410, core.CodeHostPath: 400, core.CodeCorruptState: 400,
	core.CodeStorage: 500, core.CodeInternal: 500,
}

// registryStatus maps the session registry's codes to HTTP statuses.
var registryStatus = map[string]int{
	sessions.CodeNotFound: 404, sessions.CodeQuotaExceeded: 429, sessions.CodeResourceExhausted: 507, sessions.CodeClosed: 503,
	sessions.CodeNodeLost: 502, sessions.CodeUnavailable: 503,
}

func writeErr(w http.ResponseWriter, err error) {
	var ae *apiError
	var ce *core.Error
	var se *sessions.Error
	switch {
	case errors.As(err, &ae):
	case errors.As(err, &se):
		ae = &apiError{registryStatus[se.Code], se.Code, se.Message}
	case errors.As(err, &ce):
		st := statusOf[ce.Code]
		if st == 0 {
			st = 500
		}
		ae = &apiError{st, string(ce.Code), strings.TrimPrefix(ce.Error(), "wasmsand: ")}
	default:
		ae = &apiError{500, string(core.CodeInternal), err.Error()}
	}
	writeJSON(w, ae.status, ErrorBody{Code: ae.code, Message: ae.message})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// token checks the bearer token and returns it ("" without tokens).
func (s *Server) token(r *http.Request) (string, error) {
	if len(s.opt.Tokens) == 0 {
		return "", nil
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if ok {
		for _, t := range s.opt.Tokens {
			if subtle.ConstantTimeCompare([]byte(got), []byte(t)) == 1 {
				return t, nil
			}
		}
	}
	return "", errf(401, "unauthorized", "a valid bearer token is required (Authorization: Bearer TOKEN)")
}

// session finds the request's session, for its token.
func (s *Server) session(r *http.Request, token string) (*sessions.Session, error) {
	id := r.PathValue("id")
	x, ok := s.sessions.Get(token, id)
	if !ok {
		return nil, errf(404, "not_found", "no session %q", id)
	}
	return x, nil
}

// sessionPath is session, and the path its file route names.
func (s *Server) sessionPath(r *http.Request, token string) (*sessions.Session, string, error) {
	x, err := s.session(r, token)
	if err != nil {
		return nil, "", err
	}
	p := r.URL.Query().Get("path")
	if p == "" {
		return nil, "", errf(400, "invalid_argument", "path is required")
	}
	return x, p, nil
}

// decode reads a JSON body (bounded) into v; an empty body leaves v as is.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	body := http.MaxBytesReader(w, r.Body, s.opt.MaxBody)
	b, err := io.ReadAll(body)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return errf(413, "payload_too_large", "the body is larger than %d bytes", s.opt.MaxBody)
		}
		return errf(400, "invalid_argument", "reading the body: %v", err)
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errf(400, "invalid_argument", "the body: %v", err)
	}
	return nil
}

// handler wraps a route's function: token, recovery, errors.
func (s *Server) handler(f func(w http.ResponseWriter, r *http.Request, token string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				writeErr(w, errf(500, "internal", "internal error: %v", p))
			}
		}()
		token, err := s.token(r)
		if err == nil && s.opt.Cluster != nil && r.PathValue("id") != "" {
			var handled bool
			if handled, err = s.route(w, r, token); handled {
				if err != nil {
					writeErr(w, err)
				}
				return
			}
		}
		if err == nil {
			err = f(w, r, token)
		}
		if err != nil {
			writeErr(w, err)
		}
	}
}

// --- the API's types (their JSON schemas are in the OpenAPI document) ---

// CreateRequest makes a session. Limits may only be lowered from the
// operator's.
type CreateRequest struct {
	TimeoutMs int               `json:"timeout_ms,omitempty" jsonschema:"default timeout of a run, in ms (at most the operator's)"`
	MemoryMB  int               `json:"memory_mb,omitempty" jsonschema:"memory per program, in MB (at most the operator's)"`
	Env       map[string]string `json:"env,omitempty" jsonschema:"variables added to the session's environment"`
	// Policy is a policy document (YAML or JSON text) for the session, when
	// the operator lets clients give one.
	Policy string `json:"policy,omitempty" jsonschema:"a policy document (YAML or JSON text: network rules and budget, limits, capabilities), when the operator allows it"`
}

// Session describes a session.
type Session struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at"`
	LastUsed  time.Time `json:"last_used"`
	Cwd       string    `json:"cwd"`
}

// SessionList lists a token's sessions.
type SessionList struct {
	Sessions []Session `json:"sessions"`
}

// RunRequest runs a bash script in a session.
type RunRequest struct {
	Command   string            `json:"command" jsonschema:"the bash script"`
	Stdin     string            `json:"stdin,omitempty" jsonschema:"text given to the script on its standard input (left out: /dev/null)"`
	Cwd       string            `json:"cwd,omitempty" jsonschema:"working directory for this run"`
	TimeoutMs int               `json:"timeout_ms,omitempty" jsonschema:"this run's timeout in ms (only shortens the session's)"`
	Env       map[string]string `json:"env,omitempty" jsonschema:"variables for this run only"`
	// Stream answers with server-sent events (also asked by Accept:
	// text/event-stream): "stdout" and "stderr" chunks ({"text"} or
	// {"base64"}), "event" (the sandbox's events), then "result".
	Stream bool `json:"stream,omitempty"`
}

// RunResult is a run's outcome.
type RunResult struct {
	ExitCode        int    `json:"exit_code"`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	ExecutionTimeMs int64  `json:"execution_time_ms"`
	Truncated       bool   `json:"truncated"`
	TimedOut        bool   `json:"timed_out"`
}

// Chunk is a piece of streamed output.
type Chunk struct {
	Text   string `json:"text,omitempty"`
	Base64 string `json:"base64,omitempty"`
}

// Entry is one entry of a directory listing.
type Entry struct {
	Name    string    `json:"name"`
	Type    string    `json:"type" jsonschema:"file, directory, symlink, fifo or other"`
	Size    int64     `json:"size"`
	Mode    string    `json:"mode"`
	ModTime time.Time `json:"mod_time"`
}

// Listing lists a directory.
type Listing struct {
	Path    string  `json:"path"`
	Entries []Entry `json:"entries"`
}

// Written says what a PUT wrote.
type Written struct {
	Path         string `json:"path"`
	BytesWritten int    `json:"bytes_written"`
}

// SnapshotRef names a snapshot of a session.
type SnapshotRef struct {
	SnapshotID string `json:"snapshot_id"`
}

// ErrorBody is every error's body.
type ErrorBody struct {
	Code    string `json:"code" jsonschema:"a stable code: not_found, invalid_argument, unauthorized, quota_exceeded, payload_too_large, permission_denied, no_space, timeout, and in a cluster node_lost (the node running the request was lost: what completed before it is kept), unavailable, moved (send it again), ..."`
	Message string `json:"message"`
}

// --- the handlers ---

func (s *Server) create(w http.ResponseWriter, r *http.Request, token string) error {
	var req CreateRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if req.TimeoutMs < 0 || req.MemoryMB < 0 {
		return errf(400, "invalid_argument", "timeout_ms and memory_mb must not be negative")
	}
	if err := s.sessions.Reserve(token); err != nil {
		return err
	}
	l := &listener{}
	sb, err := s.opt.NewSandbox(r.Context(), req, l.hear)
	if err != nil {
		return err
	}
	x, _, err := s.sessions.Add(token, "", sb, l)
	if err != nil {
		sb.Close()
		return err
	}
	if s.opt.Cluster != nil {
		spec, _ := json.Marshal(req)
		x.Lock()
		err := s.opt.Cluster.Create(context.WithoutCancel(r.Context()), cluster.ClientKey(token), x.ID, spec, sb, s.opt.MaxSessions)
		x.Unlock()
		if err != nil {
			s.sessions.Drop(x.ID)
			return err
		}
	}
	writeJSON(w, 201, describe(x))
	return nil
}

func describe(x *sessions.Session) Session {
	return Session{ID: x.ID, CreatedAt: x.Created, LastUsed: x.LastUsed(), Cwd: x.Sandbox.Cwd()}
}

func (s *Server) list(w http.ResponseWriter, r *http.Request, token string) error {
	out := SessionList{Sessions: []Session{}}
	if n := s.opt.Cluster; n != nil {
		client := cluster.ClientKey(token)
		ids, err := n.Sessions(r.Context(), client)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if x, ok := s.sessions.Get(token, id); ok {
				out.Sessions = append(out.Sessions, describe(x))
			} else if rec, err := n.Describe(r.Context(), client, id); err == nil {
				out.Sessions = append(out.Sessions, Session{ID: id, CreatedAt: rec.Created, LastUsed: rec.Used, Cwd: rec.Cwd})
			}
		}
		slices.SortFunc(out.Sessions, func(a, b Session) int { return a.CreatedAt.Compare(b.CreatedAt) })
		writeJSON(w, 200, out)
		return nil
	}
	for _, x := range s.sessions.List(token) {
		out.Sessions = append(out.Sessions, describe(x))
	}
	writeJSON(w, 200, out)
	return nil
}

func (s *Server) get(w http.ResponseWriter, r *http.Request, token string) error {
	x, err := s.session(r, token)
	if err != nil {
		return err
	}
	writeJSON(w, 200, describe(x))
	return nil
}

func (s *Server) remove(w http.ResponseWriter, r *http.Request, token string) error {
	if s.opt.Cluster != nil {
		if err := s.opt.Cluster.Delete(r.Context(), cluster.ClientKey(token), r.PathValue("id")); err != nil {
			return err
		}
	}
	if !s.sessions.Remove(token, r.PathValue("id")) { // (a run in it is cancelled)
		return errf(404, "not_found", "no session %q", r.PathValue("id"))
	}
	w.WriteHeader(204)
	return nil
}

func (s *Server) runs(w http.ResponseWriter, r *http.Request, token string) error {
	x, err := s.session(r, token)
	if err != nil {
		return err
	}
	var req RunRequest
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Command) == "" {
		return errf(400, "invalid_argument", "command is empty")
	}
	opt := core.RunOptions{Stdin: core.StdinText(req.Stdin), Cwd: req.Cwd, Env: req.Env, Timeout: x.Sandbox.ShorterTimeout(req.TimeoutMs)}
	stream := req.Stream || strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	if err := s.lock(w, x); err != nil {
		return err
	}
	defer x.Unlock()
	if !stream {
		res, err := x.Sandbox.Run(r.Context(), req.Command, opt)
		if err != nil {
			return err
		}
		if err := s.checkpoint(r.Context(), x); err != nil {
			return err
		}
		writeJSON(w, 200, RunResult{ExitCode: res.ExitCode, Stdout: string(res.Stdout), Stderr: string(res.Stderr),
			ExecutionTimeMs: res.Duration.Milliseconds(), Truncated: res.Truncated, TimedOut: res.TimedOut})
		return nil
	}
	sse := newSSE(w)
	opt.Stdout = sse.writer("stdout")
	opt.Stderr = sse.writer("stderr")
	l := x.Value.(*listener)
	l.set(func(e core.Event) {
		if e.Kind != "output" { // (output comes as stdout/stderr chunks)
			sse.send("event", e)
		}
	})
	defer l.set(nil)
	res, err := x.Sandbox.Run(r.Context(), req.Command, opt)
	if err == nil {
		err = s.checkpoint(r.Context(), x)
	}
	if err != nil {
		var ae *apiError
		var se *sessions.Error
		var ce *core.Error
		body := ErrorBody{Code: string(core.CodeInternal), Message: err.Error()}
		if errors.As(err, &ce) {
			body.Code = string(ce.Code)
		} else if errors.As(err, &ae) {
			body.Code = ae.code
		} else if errors.As(err, &se) {
			body.Code, body.Message = se.Code, se.Message
		}
		sse.send("error", body)
		return nil
	}
	sse.send("result", RunResult{ExitCode: res.ExitCode, ExecutionTimeMs: res.Duration.Milliseconds(),
		Truncated: res.Truncated, TimedOut: res.TimedOut})
	return nil
}

// sse writes server-sent events, one at a time.
type sse struct {
	mu sync.Mutex
	w  http.ResponseWriter
	f  http.Flusher
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (s *sse) send(event string, v any) {
	b, _ := json.Marshal(v)
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", event, b)
	if s.f != nil {
		s.f.Flush()
	}
}

type sseWriter struct {
	s      *sse
	stream string
}

func (s *sse) writer(stream string) io.Writer { return sseWriter{s, stream} }

func (w sseWriter) Write(p []byte) (int, error) {
	c := Chunk{Text: string(p)}
	if !utf8.Valid(p) {
		c = Chunk{Base64: base64.StdEncoding.EncodeToString(p)}
	}
	w.s.send(w.stream, c)
	return len(p), nil
}

func (s *Server) getFile(w http.ResponseWriter, r *http.Request, token string) error {
	x, p, err := s.sessionPath(r, token)
	if err != nil {
		return err
	}
	info, err := x.Sandbox.Stat(p)
	if err != nil {
		return err
	}
	if info.IsDir() {
		ents, err := x.Sandbox.ListDir(p)
		if err != nil {
			return err
		}
		out := Listing{Path: p, Entries: []Entry{}}
		for _, e := range ents {
			out.Entries = append(out.Entries, Entry{Name: e.Name, Type: e.Type(), Size: e.Size, Mode: e.Mode.String(), ModTime: e.ModTime})
		}
		writeJSON(w, 200, out)
		return nil
	}
	b, err := x.Sandbox.ReadFile(p)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
	return nil
}

func (s *Server) putFile(w http.ResponseWriter, r *http.Request, token string) error {
	x, p, err := s.sessionPath(r, token)
	if err != nil {
		return err
	}
	if err := s.sessions.Room(max(r.ContentLength, 0)); err != nil {
		return err
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opt.MaxBody))
	if err != nil {
		return errf(413, "payload_too_large", "the body is larger than %d bytes", s.opt.MaxBody)
	}
	var mode fs.FileMode
	if m := r.URL.Query().Get("mode"); m != "" {
		v, err := strconv.ParseUint(m, 8, 32)
		if err != nil || v > 0o7777 {
			return errf(400, "invalid_argument", "mode: an octal number, not %q", m)
		}
		mode = fs.FileMode(v)
	}
	if s.opt.Cluster != nil {
		if err := s.lock(w, x); err != nil {
			return err
		}
		defer x.Unlock()
	}
	if err := x.Sandbox.WriteFile(p, b, mode); err != nil {
		return err
	}
	if err := s.checkpoint(r.Context(), x); err != nil {
		return err
	}
	writeJSON(w, 200, Written{Path: p, BytesWritten: len(b)})
	return nil
}

func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request, token string) error {
	x, p, err := s.sessionPath(r, token)
	if err != nil {
		return err
	}
	if s.opt.Cluster != nil {
		if err := s.lock(w, x); err != nil {
			return err
		}
		defer x.Unlock()
	}
	if err := x.Sandbox.Remove(p, r.URL.Query().Get("recursive") == "true"); err != nil {
		return err
	}
	if err := s.checkpoint(r.Context(), x); err != nil {
		return err
	}
	w.WriteHeader(204)
	return nil
}

func (s *Server) snapshot(w http.ResponseWriter, r *http.Request, token string) error {
	x, err := s.session(r, token)
	if err != nil {
		return err
	}
	if err := s.lock(w, x); err != nil {
		return err
	}
	defer x.Unlock()
	var id string
	if n := s.opt.Cluster; n != nil {
		id, err = n.SnapshotSession(context.WithoutCancel(r.Context()), s.sessions, x, s.opt.MaxSnapshots)
	} else {
		id, err = s.sessions.Snapshot(x)
	}
	if err != nil {
		return err
	}
	writeJSON(w, 201, SnapshotRef{SnapshotID: id})
	return nil
}

func (s *Server) restore(w http.ResponseWriter, r *http.Request, token string) error {
	x, err := s.session(r, token)
	if err != nil {
		return err
	}
	var req SnapshotRef
	if err := s.decode(w, r, &req); err != nil {
		return err
	}
	if err := s.lock(w, x); err != nil {
		return err
	}
	defer x.Unlock()
	var snap *core.Snapshot
	if n := s.opt.Cluster; n != nil {
		snap, err = n.SnapshotOf(r.Context(), x, req.SnapshotID)
	} else {
		snap, err = x.SnapshotOf(req.SnapshotID)
	}
	if err != nil {
		return err
	}
	if err := x.Sandbox.Restore(snap); err != nil {
		return err
	}
	if err := s.checkpoint(r.Context(), x); err != nil {
		return err
	}
	w.WriteHeader(204)
	return nil
}

func (s *Server) fork(w http.ResponseWriter, r *http.Request, token string) error {
	x, err := s.session(r, token)
	if err != nil {
		return err
	}
	if err := s.lock(w, x); err != nil {
		return err
	}
	y, err := s.sessions.Fork(r.Context(), x, &listener{})
	x.Unlock()
	if err != nil {
		return err
	}
	if n := s.opt.Cluster; n != nil {
		rec, err := n.Describe(r.Context(), cluster.ClientKey(token), x.ID)
		if err == nil {
			y.Lock()
			err = n.Create(context.WithoutCancel(r.Context()), cluster.ClientKey(token), y.ID, rec.Spec, y.Sandbox, s.opt.MaxSessions)
			y.Unlock()
		}
		if err != nil {
			s.sessions.Drop(y.ID)
			return err
		}
	}
	writeJSON(w, 201, describe(y))
	return nil
}
