package toolruntime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

// WorkerOptions configure a Worker.
type WorkerOptions struct {
	Manifest string // the manifest file, polled for changes
	ToolsDir string // the tools' code; default: the manifest's directory
	// Namespace prefixes the subjects and scopes the artifacts; default "default".
	Namespace string
	Conn      *nats.Conn
	Store     Store              // artifacts; default a MemoryStore
	Assets    core.ProgramSource // the guest programs (python3, coreutils...)
	// Policy gives the network rules (and secrets' declarations) of the standard
	// and permissive profiles; restrictive tools never have the network.
	Policy      *policy.Policy
	Secrets     map[string]string
	Concurrency int // invocations at once; default the number of CPUs
	// Signer, when set, rejects requests it did not sign (UNAUTHORIZED)
	// and signs the answers and status notes, which clients check.
	Signer *Signer
	// RequireIdentity takes only invocations from agents the bus
	// authenticated (on subjects that name them: bus.go); the user_id is
	// then theirs, whatever the request says.
	RequireIdentity bool
	// RatePerMinute bounds each user's invocations (RATE_LIMITED beyond); 0: none.
	RatePerMinute int
	MaxPayload    int       // bytes of a request; default 1 MiB
	Audit         io.Writer // one JSON line per invocation and artifact access
	Log           *slog.Logger
	Poll          time.Duration // how often the manifest is checked; default 2s
	Queue         string        // the queue group workers share; default "wasmsand-workers"
	// Durable takes invocations from a JetStream work queue (see durable.go): a job
	// survives the worker that was running it.
	Durable  bool
	AckWait  time.Duration // a durable job goes to another worker this long after its worker died; default 30s
	Replicas int           // of the durable queue and its bucket (a cluster: 3)
	// Index is the python package index (PEP 503 simple API) the manifest's
	// packages are installed from; its host is the only one the install reaches.
	Index string
}

// Worker serves the tools of a manifest: one queue subscription per tool, each
// invocation in a fresh sandbox.
type Worker struct {
	opt      WorkerOptions
	subj     Subjects
	manifest atomic.Pointer[Manifest]
	pkgs     atomic.Pointer[packages]
	mstamp   string // the manifest file's size and mtime when loaded

	mu        sync.Mutex
	subs      map[string][]*nats.Subscription // a tool's: as anyone, and as authenticated agents
	consumers map[string]jetstream.ConsumeContext
	js        jetstream.JetStream
	kv        jetstream.KeyValue

	sem     chan struct{}
	running sync.WaitGroup
	limits  *rateLimits
	seen    *replayGuard
	auditMu sync.Mutex
	stop    chan struct{}
	stopped sync.Once
}

// NewWorker loads the manifest; Start serves it.
func NewWorker(opt WorkerOptions) (*Worker, error) {
	if opt.Conn == nil {
		return nil, errors.New("toolruntime: a NATS connection is required")
	}
	if opt.ToolsDir == "" {
		opt.ToolsDir = filepath.Dir(opt.Manifest)
	}
	if opt.Store == nil {
		opt.Store = NewMemoryStore()
	}
	if opt.Concurrency <= 0 {
		opt.Concurrency = runtime.NumCPU()
	}
	if opt.MaxPayload <= 0 {
		opt.MaxPayload = 1 << 20
	}
	if opt.Poll <= 0 {
		opt.Poll = 2 * time.Second
	}
	if opt.Queue == "" {
		opt.Queue = "wasmsand-workers"
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opt.AckWait <= 0 {
		opt.AckWait = 30 * time.Second
	}
	w := &Worker{opt: opt, subj: Subjects{opt.Namespace}, subs: map[string][]*nats.Subscription{}, consumers: map[string]jetstream.ConsumeContext{},
		sem: make(chan struct{}, opt.Concurrency), stop: make(chan struct{}), seen: newReplayGuard()}
	if opt.RatePerMinute > 0 {
		w.limits = newRateLimits(opt.RatePerMinute)
	}
	m, stamp, err := w.load()
	if err != nil {
		return nil, err
	}
	w.manifest.Store(m)
	w.mstamp = stamp
	return w, nil
}

func (w *Worker) load() (*Manifest, string, error) {
	fi, err := os.Stat(w.opt.Manifest)
	if err != nil {
		return nil, "", err
	}
	m, err := LoadManifest(w.opt.Manifest)
	if err != nil {
		return nil, "", err
	}
	return m, stamp(fi), nil
}

func stamp(fi os.FileInfo) string { return fmt.Sprint(fi.Size(), fi.ModTime().UnixNano()) }

// Manifest is the manifest being served.
func (w *Worker) Manifest() *Manifest { return w.manifest.Load() }

// Start subscribes to the manifest's tools and watches the manifest.
func (w *Worker) Start() error {
	if w.opt.Durable {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := w.durable(ctx)
		cancel()
		if err != nil {
			return err
		}
	}
	w.installPackages(w.manifest.Load())
	if err := w.sync(w.manifest.Load()); err != nil {
		return err
	}
	go w.watch()
	return w.opt.Conn.Flush()
}

// sync subscribes to the tools of m and drops the subscriptions of tools it lacks.
func (w *Worker) sync(m *Manifest) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for name, subs := range w.subs {
		if _, ok := m.Tools[name]; !ok {
			for _, sub := range subs {
				_ = sub.Unsubscribe()
			}
			delete(w.subs, name)
			w.opt.Log.Info("tool removed", "tool", name)
		}
	}
	for name, c := range w.consumers {
		if _, ok := m.Tools[name]; !ok {
			c.Stop()
			delete(w.consumers, name)
			w.opt.Log.Info("tool removed", "tool", name)
		}
	}
	for name := range m.Tools {
		if w.opt.Durable {
			if _, ok := w.consumers[name]; ok {
				continue
			}
			c, err := w.consume(name)
			if err != nil {
				return fmt.Errorf("toolruntime: durable consumer of %s: %w", name, err)
			}
			w.consumers[name] = c
			w.opt.Log.Info("tool added", "tool", name, "subject", w.subj.Queue(name))
			continue
		}
		if _, ok := w.subs[name]; ok {
			continue
		}
		name := name
		sub, err := w.opt.Conn.QueueSubscribe(w.subj.Invoke(name), w.opt.Queue, func(msg *nats.Msg) { w.receive(name, msg) })
		if err != nil {
			return fmt.Errorf("toolruntime: subscribe %s: %w", name, err)
		}
		// (and as the agents the bus authenticated: InvokeAs)
		as, err := w.opt.Conn.QueueSubscribe(w.subj.Invoke(name)+".*", w.opt.Queue, func(msg *nats.Msg) { w.receive(name, msg) })
		if err != nil {
			_ = sub.Unsubscribe()
			return fmt.Errorf("toolruntime: subscribe %s: %w", name, err)
		}
		w.subs[name] = []*nats.Subscription{sub, as}
		w.opt.Log.Info("tool added", "tool", name, "subject", w.subj.Invoke(name))
	}
	return nil
}

// watch reloads the manifest when its file changes, off the request path; a manifest
// that does not parse is reported and the previous one kept.
func (w *Worker) watch() {
	defer func() {
		if r := recover(); r != nil {
			w.opt.Log.Error("manifest watcher stopped", "panic", r)
		}
	}()
	t := time.NewTicker(w.opt.Poll)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		fi, err := os.Stat(w.opt.Manifest)
		if err != nil || stamp(fi) == w.mstamp {
			continue
		}
		m, st, err := w.load()
		if err != nil {
			w.opt.Log.Error("manifest not reloaded", "err", err)
			w.mstamp = stamp(fi)
			continue
		}
		w.mstamp = st
		w.installPackages(m) // (before the new tools are served)
		w.manifest.Store(m)
		if err := w.sync(m); err != nil {
			w.opt.Log.Error("subscriptions not synced", "err", err)
		}
	}
}

// Stop unsubscribes (other workers take the tools' requests) and waits for the
// invocations in flight to be answered, or for ctx.
func (w *Worker) Stop(ctx context.Context) error {
	w.stopped.Do(func() { close(w.stop) })
	w.mu.Lock()
	for name, subs := range w.subs {
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
		delete(w.subs, name)
	}
	for name, c := range w.consumers {
		c.Stop()
		delete(w.consumers, name)
	}
	w.mu.Unlock()
	done := make(chan struct{})
	go func() { w.running.Wait(); close(done) }()
	select {
	case <-done:
		return w.opt.Conn.Flush()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// receive answers one message; the work runs on its own goroutine (a subscription's
// handler runs one message at a time).
func (w *Worker) receive(tool string, msg *nats.Msg) {
	w.running.Add(1)
	go func() {
		defer w.running.Done()
		defer func() {
			if r := recover(); r != nil {
				w.opt.Log.Error("invocation panicked", "tool", tool, "panic", r)
				w.reply(msg, &Response{Error: errorf(ErrInternal, "the worker failed: %v", r)})
			}
		}()
		w.reply(msg, w.handle(tool, msg, nil))
	}()
}

// answered is how a durable worker finds the response to a task already answered
// (a redelivered job): nil in core mode.
type answered func(taskID string) *Response

// handle checks and runs one invocation and returns its response.
func (w *Worker) handle(tool string, msg *nats.Msg, done answered) *Response {
	start := time.Now()
	if len(msg.Data) > w.opt.MaxPayload {
		return &Response{Error: errorf(ErrInvalidRequest, "request of %d bytes: the limit is %d", len(msg.Data), w.opt.MaxPayload)}
	}
	var req Request
	if err := json.Unmarshal(msg.Data, &req); err != nil {
		return &Response{Error: errorf(ErrInvalidRequest, "not a JSON-RPC request: %v", err)}
	}
	p := &req.Params
	if p.TaskID == "" {
		p.TaskID = req.ID
	}
	fail := func(e *ErrorObject) *Response {
		w.audit(auditRecord{Kind: "invocation", TaskID: p.TaskID, Tool: tool, User: p.UserID, Session: p.SessionID,
			Client: msg.Header.Get(HeaderClientID), Outcome: e.Code, DurationMs: time.Since(start).Milliseconds()})
		return &Response{ID: req.ID, Error: e}
	}
	switch {
	case req.JSONRPC != "2.0" || req.Method != MethodInvoke:
		return fail(errorf(ErrInvalidRequest, "want jsonrpc 2.0 and method %s", MethodInvoke))
	case p.ToolName != tool:
		return fail(errorf(ErrInvalidRequest, "tool_name %q does not match the subject's tool %q", p.ToolName, tool))
	case p.TaskID == "":
		return fail(errorf(ErrInvalidRequest, "no task_id (nor id)"))
	}
	if u := msg.Header.Get(HeaderUserID); u != "" && p.UserID != "" && u != p.UserID {
		return fail(errorf(ErrInvalidRequest, "the userId header and params.user_id differ"))
	} else if p.UserID == "" {
		p.UserID = u
	}
	if id := w.subj.identity(tool, msg.Subject); id != "" {
		// the bus let only that agent publish here: it is the user
		if p.UserID != "" && p.UserID != id {
			return fail(errorf(ErrUnauthorized, "user_id %q: this invocation comes from %q", p.UserID, id))
		}
		p.UserID = id
		for _, h := range []struct{ name, want string }{{HeaderReplyTo, w.subj.prefix() + "response." + id + "."},
			{HeaderStatusTo, w.subj.prefix() + "status." + id + "."}} {
			if v := msg.Header.Get(h.name); v != "" && !strings.HasPrefix(v, h.want) {
				// (no answer goes to another agent's subjects, this refusal included)
				msg.Header.Del(HeaderReplyTo)
				msg.Header.Del(HeaderStatusTo)
				msg.Reply = ""
				return fail(errorf(ErrUnauthorized, "%s %q is not %s's", h.name, v, id))
			}
		}
		if msg.Reply != "" && !strings.HasPrefix(msg.Reply, w.subj.prefix()+"response."+id+".") {
			msg.Reply = "" // (answers go to the agent's own subjects only)
		}
	} else if w.opt.RequireIdentity {
		return fail(errorf(ErrUnauthorized, "invocations on this bus come from an agent it authenticated (on %s)", w.subj.InvokeAs(tool, "AGENT")))
	}
	if s := w.opt.Signer; s != nil {
		if err := s.Verify(msg); err != nil {
			return fail(errorf(ErrUnauthorized, "%v", err))
		}
	}
	if done != nil {
		// a job delivered again (its worker died, or a replay): the answer it got
		if r := done(req.ID); r != nil && req.ID != "" {
			return r
		}
	} else if s := w.opt.Signer; s != nil && !w.seen.first(p.TaskID, s.maxSkew()) {
		return fail(errorf(ErrUnauthorized, "task %s was already received (a replay?)", p.TaskID))
	}
	if w.limits != nil && !w.limits.allow(p.UserID) {
		return fail(errorf(ErrRateLimited, "user %q is over %d invocations a minute", p.UserID, w.opt.RatePerMinute))
	}
	t, ok := w.manifest.Load().Tools[tool]
	if !ok {
		// A stale subscription (the manifest dropped the tool): stop taking its
		// requests; the client retries, reaching a worker that has it.
		w.unsubscribe(tool)
		return fail(errorf(ErrToolNotAvailable, "tool %s is not served here any more", tool))
	}
	select {
	case w.sem <- struct{}{}:
	case <-w.stop:
		return fail(errorf(ErrToolNotAvailable, "the worker is stopping"))
	}
	defer func() { <-w.sem }()
	statusTo := msg.Header.Get(HeaderStatusTo)
	status := func(text string) {
		if statusTo == "" {
			return
		}
		b, _ := json.Marshal(StatusNote{JSONRPC: "2.0", Method: MethodStatus, Params: StatusParams{
			TaskID: p.TaskID, StatusText: text, Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z07:00")}})
		_ = w.publish(statusTo, b)
	}
	res, rec, e := w.run(tool, t, &req, status)
	rec.Kind, rec.TaskID, rec.Tool, rec.User, rec.Session = "invocation", p.TaskID, tool, p.UserID, p.SessionID
	rec.Client, rec.DurationMs = msg.Header.Get(HeaderClientID), time.Since(start).Milliseconds()
	rec.Outcome = "ok"
	if e != nil {
		rec.Outcome = e.Code
	}
	w.audit(rec)
	if e != nil {
		return &Response{ID: req.ID, Error: e}
	}
	return &Response{ID: req.ID, Result: res}
}

// reply publishes the response to the request's replyTo (or its NATS reply subject).
func (w *Worker) reply(msg *nats.Msg, r *Response) error {
	to := msg.Header.Get(HeaderReplyTo)
	if to == "" {
		to = msg.Reply
	}
	if to == "" {
		return nil
	}
	err := w.publish(to, encodeResponse(r))
	if err != nil {
		w.opt.Log.Error("response not published", "to", to, "err", err)
	}
	return err
}

// publish sends an answer or a status note, signed when the worker signs.
func (w *Worker) publish(to string, data []byte) error {
	m := nats.NewMsg(to)
	m.Data = data
	if w.opt.Signer != nil {
		w.opt.Signer.Sign(m)
	}
	return w.opt.Conn.PublishMsg(m)
}

func encodeResponse(r *Response) []byte {
	r.JSONRPC = "2.0"
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(Response{JSONRPC: "2.0", ID: r.ID, Error: errorf(ErrInternal, "response not encodable: %v", err)})
	}
	return b
}

// unsubscribe stops taking a tool's requests.
func (w *Worker) unsubscribe(tool string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if subs := w.subs[tool]; subs != nil {
		for _, sub := range subs {
			_ = sub.Unsubscribe()
		}
		delete(w.subs, tool)
	}
	if c := w.consumers[tool]; c != nil {
		c.Stop()
		delete(w.consumers, tool)
	}
}

// auditRecord is one line of the audit log.
type auditRecord struct {
	Time       string          `json:"time"`
	Kind       string          `json:"kind"` // invocation
	TaskID     string          `json:"task_id"`
	Tool       string          `json:"tool"`
	User       string          `json:"user_id"`
	Session    string          `json:"session_id,omitempty"`
	Client     string          `json:"client_id,omitempty"`
	Outcome    string          `json:"outcome"`
	DurationMs int64           `json:"duration_ms"`
	Loaded     []ArtifactMeta  `json:"artifacts_loaded,omitempty"`
	Created    []ArtifactMeta  `json:"artifacts_created,omitempty"`
	Extra      json.RawMessage `json:"extra,omitempty"`
}

func (w *Worker) audit(r auditRecord) {
	if w.opt.Audit == nil {
		return
	}
	r.Time = time.Now().UTC().Format(time.RFC3339Nano)
	b, _ := json.Marshal(r)
	w.auditMu.Lock()
	defer w.auditMu.Unlock()
	_, _ = w.opt.Audit.Write(append(b, '\n'))
}
