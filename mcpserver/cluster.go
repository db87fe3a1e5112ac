package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/sessions"
)

// The MCP server in a cluster (Options.Cluster, streamable HTTP only).
//
// Two things live on a node: MCP sessions (the SDK keeps each in the
// memory of the node that initialized it) and sandboxes. Affinity sends an
// MCP session's requests to its node (forwarded over NATS); when that node
// is gone, the next node asked starts the session again under the same id
// from its initialize request, kept in the cluster (adoption), and the
// client goes on as if nothing happened. An MCP session's own sandbox has
// an id made from the session's, so the adopting node finds it and
// restores it from its last checkpoint; its forks are found under the same
// client key. A named shared sandbox is used by clients of every node: it
// runs where it is held, and a node that needs it asks the holder to hand
// it over. Every change is checkpointed before the tool answers.

// clusterState is the server's part of a cluster.
type clusterState struct {
	adoptMu  sync.RWMutex // exclusive while a session is adopted (nextID set)
	nextID   string
	draining bool
}

// sessionID is the SDK's GetSessionID: random, or the id being adopted.
func (s *Server) sessionID() string {
	if s.cl.nextID != "" {
		return s.cl.nextID
	}
	return rand.Text()
}

// ownID is the id of an MCP session's own sandbox: the same on every node.
func ownID(mcpID string) string {
	h := sha256.Sum256([]byte("wasmsand-mcp-own\x00" + mcpID))
	return "m" + hex.EncodeToString(h[:13])
}

// clientOf is the cluster's client key of an MCP session's sandboxes
// (ss nil: the shared ones).
func (s *Server) clientOf(ss *mcp.ServerSession) string {
	if ss == nil {
		return cluster.ClientKey(s.opt.Token + "\x00mcp-shared")
	}
	return cluster.ClientKey(s.opt.Token + "\x00mcp\x00" + ss.ID())
}

// getClustered is get in a cluster.
func (s *Server) getClustered(ctx context.Context, ss *mcp.ServerSession, id string) (*sessions.Session, error) {
	type cand struct {
		owner *mcp.ServerSession // nil: shared
	}
	var cands []cand
	create := false
	switch {
	case id == "":
		if ss == nil || ss.ID() == "" {
			return nil, errors.New("a cluster serves MCP over HTTP only")
		}
		id, cands, create = ownID(ss.ID()), []cand{{ss}}, true
	case !strings.HasPrefix(id, "s"):
		if !s.opt.Shared {
			return nil, fmt.Errorf("no session %q (named sessions are off; fork returns the ids of new ones)", id)
		}
		cands, create = []cand{{nil}}, true
	default: // a fork: the MCP session's own, or of a shared session
		cands = []cand{{ss}, {nil}}
	}
	for _, c := range cands {
		x, err := s.openClustered(ctx, c.owner, id)
		if err == nil {
			return x, nil
		}
		var ce *cluster.Error
		if !errors.As(err, &ce) || ce.Code != cluster.CodeNotFound {
			return nil, toolErr(err)
		}
	}
	if !create {
		return nil, fmt.Errorf("no session %q in this MCP session", id)
	}
	var owner any
	if cands[0].owner != nil {
		owner = cands[0].owner
	}
	if err := s.sessions.Reserve(owner); err != nil {
		return nil, err
	}
	sb, err := s.opt.NewSandbox(ctx)
	if err != nil {
		return nil, toolErr(err)
	}
	x, made, err := s.sessions.Add(owner, id, sb, nil)
	if err != nil || !made {
		sb.Close()
		if err != nil {
			return nil, err
		}
		return x, nil
	}
	x.Lock()
	err = s.opt.Cluster.Create(context.WithoutCancel(ctx), s.clientOf(cands[0].owner), id, nil, sb, 0)
	x.Unlock()
	if err != nil {
		s.sessions.Drop(id)
		var ce *cluster.Error
		if errors.As(err, &ce) && ce.Code == cluster.CodeUnavailable && strings.Contains(ce.Message, "exists") {
			return s.openClustered(ctx, cands[0].owner, id) // (made meanwhile on another node)
		}
		return nil, toolErr(err)
	}
	if owner != nil {
		s.watch(cands[0].owner)
	}
	return x, nil
}

// openClustered finds sandbox id of owner here, claimed from the cluster,
// or handed over by the node that holds it.
func (s *Server) openClustered(ctx context.Context, owner *mcp.ServerSession, id string) (*sessions.Session, error) {
	n := s.opt.Cluster
	var key any
	if owner != nil {
		key = owner
	}
	for range 4 {
		holder, err := n.Open(ctx, s.clientOf(owner), id,
			func() bool { _, ok := s.sessions.Get(key, id); return ok },
			func(st *cluster.State) (*core.Sandbox, error) {
				sb, err := s.opt.NewSandbox(context.WithoutCancel(ctx))
				if err != nil {
					return nil, err
				}
				if err := st.Apply(sb); err != nil {
					sb.Close()
					return nil, err
				}
				if _, made, err := s.sessions.Add(key, id, sb, nil); err != nil || !made {
					sb.Close()
					return nil, fmt.Errorf("session %s: restored twice", id)
				}
				if owner != nil {
					s.watch(owner)
				}
				return sb, nil
			})
		if err != nil {
			return nil, err
		}
		if holder == "" {
			if x, ok := s.sessions.Get(key, id); ok {
				return x, nil
			}
			continue
		}
		if err := n.AskRelease(ctx, holder, id); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("session %s keeps moving: try again", id)
}

// release hands sandbox id back to the cluster (another node asked for
// it, or this one is draining), after its run in progress.
func (s *Server) release(id string) error {
	x, ok := s.sessions.Lookup(id)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.opt.Cluster.ReleaseSession(ctx, s.sessions, x)
}

// checkpoint saves x's changes in a cluster (x locked by the caller).
func (s *Server) checkpoint(ctx context.Context, x *sessions.Session) error {
	if s.opt.Cluster == nil {
		return nil
	}
	return toolErr(s.opt.Cluster.Checkpoint(context.WithoutCancel(ctx), x.ID))
}

// ended cleans up after an MCP session that ended (its client deleted it):
// its sandboxes go from the cluster too, unless this node is draining
// (then the session lives on, on another node).
func (s *Server) ended(ss *mcp.ServerSession) {
	n := s.opt.Cluster
	s.cl.adoptMu.RLock()
	draining := s.cl.draining
	s.cl.adoptMu.RUnlock()
	if n == nil || draining {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// (its sandboxes, here or held nowhere now: the cluster lists them all)
	if ids, err := n.Sessions(ctx, s.clientOf(ss)); err == nil {
		for _, id := range ids {
			_ = n.Delete(ctx, s.clientOf(ss), id)
		}
	}
	n.Unpin(ctx, ss.ID())
}

// Drain hands everything this node holds to the cluster: each sandbox after
// its call in progress, each MCP session to be adopted by the next node its
// client reaches (the sessions are closed here).
func (s *Server) Drain(ctx context.Context) {
	n := s.opt.Cluster
	if n == nil {
		return
	}
	s.cl.adoptMu.Lock()
	s.cl.draining = true
	s.cl.adoptMu.Unlock()
	for _, x := range s.sessions.All() {
		_ = s.release(x.ID)
	}
	for ss := range s.mcp.Sessions() {
		if ss.ID() != "" {
			n.LetGo(ctx, ss.ID())
		}
		_ = ss.Close()
	}
}

// hasSession tells whether the SDK holds MCP session id here.
func (s *Server) hasSession(id string) bool {
	for ss := range s.mcp.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// Affinity sends each MCP session's requests to the node that holds it
// (h is the streamable HTTP handler, behind the token check).
func (s *Server) Affinity(h http.Handler) http.Handler {
	n := s.opt.Cluster
	if n == nil {
		return h
	}
	client := cluster.ClientKey(s.opt.Token + "\x00mcp-session")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get("Mcp-Session-Id")
		body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		if err != nil {
			http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if sid == "" {
			if isInitialize(body) {
				// (pinned before the answer leaves: the client's next
				// request may reach another node at once)
				w = &pinWriter{ResponseWriter: w, pin: func(id string) {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					_ = n.Pin(ctx, client, id, body)
				}}
			}
			s.cl.adoptMu.RLock()
			defer s.cl.adoptMu.RUnlock()
			h.ServeHTTP(w, r)
			return
		}
		if s.hasSession(sid) {
			h.ServeHTTP(w, r)
			return
		}
		for range 3 {
			node, init, _, err := n.Where(r.Context(), client, sid)
			var ce *cluster.Error
			if errors.As(err, &ce) && ce.Code == cluster.CodeNotFound {
				http.Error(w, "session not found", http.StatusNotFound) // (the client starts a new one)
				return
			} else if err != nil {
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
			if node == "" {
				if !s.hasSession(sid) {
					if err := s.adopt(h, r, sid, init); err != nil {
						http.Error(w, "taking the session over: "+err.Error(), http.StatusServiceUnavailable)
						return
					}
				}
				h.ServeHTTP(w, r)
				return
			}
			if r.Header.Get(cluster.HeaderForwarded) != "" {
				http.Error(w, "the session moved", http.StatusServiceUnavailable)
				return
			}
			err = n.Forward(w, r, node)
			var lost *cluster.LostError
			switch {
			case err == nil:
				return
			case errors.Is(err, cluster.ErrGone), errors.Is(err, cluster.ErrMoved):
				r.Body = io.NopCloser(bytes.NewReader(body))
				continue
			case errors.As(err, &lost):
				if !lost.WroteHead {
					http.Error(w, `{"code":"node_lost","message":"the node running the request was lost"}`, http.StatusBadGateway)
				}
				return
			default:
				http.Error(w, err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		http.Error(w, "the session keeps moving: try again", http.StatusServiceUnavailable)
	})
}

// isInitialize tells whether a request body is MCP's initialize.
func isInitialize(body []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &m) == nil && m.Method == "initialize"
}

// adopt starts MCP session sid here again from its initialize request, as
// its client made it, then the client's initialized notification.
func (s *Server) adopt(h http.Handler, r *http.Request, sid string, init []byte) error {
	if !isInitialize(init) {
		return errors.New("no initialize request kept")
	}
	var p struct {
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	_ = json.Unmarshal(init, &p)
	s.cl.adoptMu.Lock()
	defer s.cl.adoptMu.Unlock()
	if s.hasSession(sid) {
		return nil
	}
	send := func(body string, id string) *recorder {
		req, _ := http.NewRequestWithContext(context.WithoutCancel(r.Context()), "POST", r.URL.Path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", r.Header.Get("Authorization"))
		if id != "" {
			req.Header.Set("Mcp-Session-Id", id)
			req.Header.Set("Mcp-Protocol-Version", p.Params.ProtocolVersion)
		}
		rec := &recorder{hdr: http.Header{}}
		h.ServeHTTP(rec, req)
		return rec
	}
	s.cl.nextID = sid
	rec := send(string(init), "")
	s.cl.nextID = ""
	if rec.status >= 300 || rec.hdr.Get("Mcp-Session-Id") != sid {
		return fmt.Errorf("initialize: %d %s", rec.status, strings.TrimSpace(rec.body.String()))
	}
	if rec := send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid); rec.status >= 300 {
		return fmt.Errorf("initialized: %d %s", rec.status, strings.TrimSpace(rec.body.String()))
	}
	return nil
}

// recorder is the answer to a request the server makes to itself.
type recorder struct {
	hdr    http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.hdr }
func (r *recorder) WriteHeader(s int) {
	if r.status == 0 {
		r.status = s
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	return r.body.Write(b)
}
func (r *recorder) Flush() {}

// pinWriter pins the session id an initialize answer gives, before the
// answer leaves.
type pinWriter struct {
	http.ResponseWriter
	pin    func(id string)
	pinned bool
}

func (w *pinWriter) WriteHeader(status int) {
	if !w.pinned {
		w.pinned = true
		if id := w.Header().Get("Mcp-Session-Id"); id != "" && status < 300 {
			w.pin(id)
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *pinWriter) Write(b []byte) (int, error) {
	if !w.pinned {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *pinWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
