package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/sessions"
)

// The service in a cluster (Options.Cluster): a request for a session
// another node holds is forwarded there; one no live node holds is claimed
// here and its sandbox restored from the last checkpoint; every change
// (a run, a file written or removed, a restore, a snapshot, a new session or
// fork) is checkpointed before it is answered, so nothing a client was told
// of is lost with a node.

// codeMoved: a draining node no longer takes the session (forwarded
// requests are looked up again by the node that sent them).
const codeMoved = "moved"

// route sends the request for session {id} where the session is: handled
// is false when it is (now) here and the caller serves it.
func (s *Server) route(w http.ResponseWriter, r *http.Request, token string) (handled bool, err error) {
	n := s.opt.Cluster
	id := r.PathValue("id")
	client := cluster.ClientKey(token)
	forwarded := r.Header.Get(cluster.HeaderForwarded) != ""
	for range 4 {
		if s.draining.Load() {
			if _, ok := s.sessions.Get(token, id); !ok {
				w.Header().Set(cluster.HeaderMoved, "1")
				return true, errf(503, codeMoved, "this node is shutting down: the session is elsewhere")
			}
		}
		owner, err := n.Open(r.Context(), client, id,
			func() bool { _, ok := s.sessions.Get(token, id); return ok },
			func(st *cluster.State) (*core.Sandbox, error) { return s.restoreSession(r.Context(), token, id, st) })
		if err != nil {
			return true, err
		}
		if owner == "" {
			return false, nil
		}
		if forwarded { // (never forwarded twice: the first node looks again)
			w.Header().Set(cluster.HeaderMoved, "1")
			return true, errf(503, codeMoved, "session %s is on node %s", id, owner)
		}
		var body []byte
		if r.ContentLength >= 0 && r.ContentLength <= 1<<20 && r.Body != nil {
			// (kept to send again if the owner turns out gone)
			if body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, s.opt.MaxBody)); err != nil {
				return true, errf(413, "payload_too_large", "the body is larger than %d bytes", s.opt.MaxBody)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		err = n.Forward(w, r, owner)
		var lost *cluster.LostError
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, cluster.ErrGone), errors.Is(err, cluster.ErrMoved):
			if body == nil && r.ContentLength != 0 {
				return true, errf(503, codeMoved, "session %s moved during the request: send it again", id)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			continue
		case errors.As(err, &lost):
			if !lost.WroteHead {
				return true, errf(502, cluster.CodeNodeLost, "node %s was lost while it ran the request; what completed before it is kept", lost.Node)
			}
			if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
				b, _ := json.Marshal(ErrorBody{Code: cluster.CodeNodeLost, Message: "node " + lost.Node + " was lost during the run"})
				_, _ = w.Write([]byte("event: error\ndata: " + string(b) + "\n\n"))
				return true, nil
			}
			panic(http.ErrAbortHandler) // (a body cut short: the client must see it break)
		default:
			return true, err
		}
	}
	return true, errf(503, cluster.CodeUnavailable, "session %s keeps moving: try again", id)
}

// restoreSession makes the sandbox of a session this node claimed.
func (s *Server) restoreSession(ctx context.Context, token, id string, st *cluster.State) (*core.Sandbox, error) {
	var req CreateRequest
	if len(st.Record.Spec) > 0 {
		if err := json.Unmarshal(st.Record.Spec, &req); err != nil {
			return nil, errf(503, cluster.CodeUnavailable, "session %s: its record: %v", id, err)
		}
	}
	l := &listener{}
	sb, err := s.opt.NewSandbox(context.WithoutCancel(ctx), req, l.hear)
	if err != nil {
		return nil, err
	}
	if err := st.Apply(sb); err != nil {
		sb.Close()
		return nil, err
	}
	x, made, err := s.sessions.Add(token, id, sb, l)
	if err != nil || !made {
		sb.Close()
		if err == nil {
			return x.Sandbox, nil
		}
		return nil, err
	}
	return sb, nil
}

// checkpoint saves session x's changes when the service is a cluster's
// (x locked by the caller).
func (s *Server) checkpoint(ctx context.Context, x *sessions.Session) error {
	if s.opt.Cluster == nil {
		return nil
	}
	return s.opt.Cluster.Checkpoint(context.WithoutCancel(ctx), x.ID)
}

// Drain hands every session this node holds back to the cluster, each
// after its run in progress, and answers later forwarded requests with
// "moved" (a rolling restart: stop taking connections first).
func (s *Server) Drain(ctx context.Context) {
	if s.opt.Cluster == nil {
		return
	}
	s.draining.Store(true)
	for _, x := range s.sessions.All() {
		// (one that fails is kept: its lease lapses when the node stops)
		_ = s.opt.Cluster.ReleaseSession(ctx, s.sessions, x)
	}
}

// evict gives the sessions idle longer than IdleEvict back to the cluster.
func (s *Server) evict() {
	if s.opt.Cluster == nil || s.opt.IdleEvict <= 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, x := range s.sessions.Idle(s.opt.IdleEvict) {
		_ = s.opt.Cluster.ReleaseSession(ctx, s.sessions, x)
	}
}

// expireCluster deletes the sessions unused for IdleTTL: this node's own,
// and those no node holds.
func (s *Server) expireCluster() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, x := range s.sessions.Idle(s.opt.IdleTTL) {
		x.Lock()
		owner, _ := x.Owner.(string)
		if err := s.opt.Cluster.Delete(ctx, cluster.ClientKey(owner), x.ID); err == nil {
			s.sessions.Drop(x.ID)
		}
		x.Unlock()
	}
	s.opt.Cluster.Sweep(ctx, s.opt.IdleTTL)
}

// lock locks session x for a run or a change. In a cluster, a session
// released while the request waited (a drain, an eviction) is elsewhere
// now: the request is answered "moved", and a node that forwarded it looks
// again.
func (s *Server) lock(w http.ResponseWriter, x *sessions.Session) error {
	x.Lock()
	if s.opt.Cluster != nil {
		if y, ok := s.sessions.Lookup(x.ID); !ok || y != x {
			x.Unlock()
			w.Header().Set(cluster.HeaderMoved, "1")
			return errf(503, codeMoved, "session %s moved while the request waited: send it again", x.ID)
		}
	}
	return nil
}
