package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Forwarding: one HTTP request from the node that took it (A) to the
// session's owner (B), over NATS, with its answer streamed back.
//
//	A → PREFIX.node.B   request: Ws-Method, Ws-URI, Ws-Header (JSON), Ws-Reply
//	                    (A's inbox for the answer), Ws-Body: inline (the data),
//	                    stream (chunks follow) or none; B replies with Ws-Ctl,
//	                    its inbox for the body's chunks and for a cancel
//	A → Ws-Ctl          body chunks (each acknowledged: flow control), eof;
//	                    cancel when A's client went away
//	B → Ws-Reply        head (status, headers), data chunks (each acknowledged,
//	                    so a slow client slows B rather than filling A's
//	                    buffers), beat every second while the handler runs,
//	                    end
//
// A that hears nothing from B for lostAfter takes B for lost: a request that
// has not had its head yet gets node_lost; an event stream gets a last
// error event. No subscriber on PREFIX.node.B (B is dead or cut off) is an
// answer at once: ErrGone, and A claims the session itself.

const (
	chunkSize = 256 << 10
	beatEvery = time.Second
	lostAfter = 5 * time.Second
	// HeaderMoved, in an answer's head, says the node does not hold the
	// session (released it while draining): look it up again.
	HeaderMoved = "Wasmsand-Moved"
	// HeaderForwarded marks a request another node forwarded (it is not
	// forwarded again).
	HeaderForwarded = "Wasmsand-Forwarded"
)

var (
	// ErrGone: the node takes no requests (dead, or cut off from NATS).
	ErrGone = errors.New("cluster: the node is gone")
	// ErrMoved: the node no longer holds the session.
	ErrMoved = errors.New("cluster: the session moved")
)

// LostError is a forwarded request whose node was lost while it ran.
type LostError struct {
	Node      string
	WroteHead bool // the head (and perhaps part of the body) was sent on
}

func (e *LostError) Error() string { return "cluster: node " + e.Node + " was lost during the request" }

func (n *Node) subject(node string) string { return n.opt.Prefix + ".node." + node }

// hopHeaders are not forwarded (RFC 9110 7.6.1).
var hopHeaders = map[string]bool{"Connection": true, "Keep-Alive": true, "Proxy-Connection": true,
	"Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true}

// Forward sends r to node and writes its answer to w. ErrGone and ErrMoved
// come before anything was written; a *LostError may come after.
func (n *Node) Forward(w http.ResponseWriter, r *http.Request, node string) error {
	nc := n.opt.Conn
	inbox := nc.NewRespInbox()
	ch := make(chan *nats.Msg, 64)
	sub, err := nc.ChanSubscribe(inbox, ch)
	if err != nil {
		return unavailable(err)
	}
	defer func() { _ = sub.Unsubscribe() }()

	hdr := http.Header{}
	for k, v := range r.Header {
		if !hopHeaders[k] {
			hdr[k] = v
		}
	}
	hj, _ := json.Marshal(hdr)
	m := nats.NewMsg(n.subject(node))
	m.Header.Set("Ws-Method", r.Method)
	m.Header.Set("Ws-URI", r.URL.RequestURI())
	m.Header.Set("Ws-Header", string(hj))
	m.Header.Set("Ws-Reply", inbox)
	m.Header.Set("Ws-From", n.name)
	// a small body goes with the request; a larger one follows in chunks
	var first []byte
	more := false
	if r.Body != nil && r.Body != http.NoBody {
		first, err = io.ReadAll(io.LimitReader(r.Body, chunkSize+1))
		if err != nil {
			return errf(CodeUnavailable, "reading the request: %v", err)
		}
		if len(first) > chunkSize {
			more = true
		}
	}
	switch {
	case more:
		m.Header.Set("Ws-Body", "stream")
	case len(first) > 0:
		m.Header.Set("Ws-Body", "inline")
		m.Data = first
	default:
		m.Header.Set("Ws-Body", "none")
	}
	ctx := r.Context()
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	ack, err := nc.RequestMsgWithContext(rctx, m)
	cancel()
	timedOut := ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout))
	if errors.Is(err, nats.ErrNoResponders) || timedOut {
		// (no subscriber: it is gone. A node takes a request in
		// microseconds: one that never did died before it started the
		// handler, as a request delivered to a node killed then does.)
		n.markGone(node)
		return ErrGone
	} else if err != nil {
		return errf(CodeUnavailable, "forwarding to node %s: %v", node, err)
	}
	ctl := ack.Header.Get("Ws-Ctl")
	if ctl == "" {
		return errf(CodeUnavailable, "node %s did not take the request", node)
	}
	ended := false
	defer func() {
		if !ended { // (the client went away, B was lost or moved: B stops and waits for no acks)
			c := nats.NewMsg(ctl)
			c.Header.Set("Ws-Kind", "cancel")
			_ = nc.PublishMsg(c)
		}
	}()
	if more {
		if err := sendBody(ctx, nc, ctl, first, r.Body); err != nil {
			return errf(CodeUnavailable, "forwarding the body to node %s: %v", node, err)
		}
	}
	wroteHead := false
	flusher, _ := w.(http.Flusher)
	timer := time.NewTimer(lostAfter)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil // (the client went away: B is told by the deferred cancel)
		case <-timer.C:
			return &LostError{Node: node, WroteHead: wroteHead}
		case msg := <-ch:
			timer.Reset(lostAfter)
			switch msg.Header.Get("Ws-Kind") {
			case "head":
				if msg.Header.Get(HeaderMoved) != "" {
					_ = msg.Respond(nil)
					return ErrMoved
				}
				var h http.Header
				_ = json.Unmarshal([]byte(msg.Header.Get("Ws-Header")), &h)
				for k, v := range h {
					if !hopHeaders[k] && k != "Content-Length" {
						w.Header()[k] = v
					}
				}
				status, _ := strconv.Atoi(msg.Header.Get("Ws-Status"))
				if status < 100 || status > 999 {
					status = http.StatusBadGateway
				}
				w.WriteHeader(status)
				wroteHead = true
				if flusher != nil {
					flusher.Flush()
				}
				_ = msg.Respond(nil)
			case "data":
				_, werr := w.Write(msg.Data)
				if flusher != nil {
					flusher.Flush()
				}
				if werr != nil {
					return nil // (the client is gone: the cancel tells B)
				}
				_ = msg.Respond(nil)
			case "end":
				ended = true
				return nil
			case "beat":
			}
		}
	}
}

// sendBody sends the body's chunks to B, each acknowledged.
func sendBody(ctx context.Context, nc *nats.Conn, ctl string, first []byte, rest io.Reader) error {
	r := io.MultiReader(bytes.NewReader(first), rest)
	chunk := make([]byte, chunkSize)
	for {
		k, err := io.ReadFull(r, chunk)
		if k > 0 {
			m := nats.NewMsg(ctl)
			m.Header.Set("Ws-Kind", "body")
			m.Data = chunk[:k]
			c, cancel := context.WithTimeout(ctx, 60*time.Second)
			_, rerr := nc.RequestMsgWithContext(c, m)
			cancel()
			if rerr != nil {
				return rerr
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return err
		}
	}
	m := nats.NewMsg(ctl)
	m.Header.Set("Ws-Kind", "eof")
	c, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	_, err := nc.RequestMsgWithContext(c, m)
	return err
}

// Serve takes the requests other nodes forward to this one and answers
// them with h (the server's handler, behind no front door: the node that
// took the request applied its own; h checks tokens itself).
func (n *Node) Serve(h http.Handler) error {
	sub, err := n.opt.Conn.Subscribe(n.subject(n.name), func(m *nats.Msg) {
		n.serving.Add(1)
		go func() {
			defer n.serving.Done()
			n.serveOne(h, m)
		}()
	})
	if err != nil {
		return unavailable(err)
	}
	n.mu.Lock()
	n.sub = sub
	n.mu.Unlock()
	return n.opt.Conn.Flush()
}

func (n *Node) serveOne(h http.Handler, m *nats.Msg) {
	defer func() { _ = recover() }()
	nc := n.opt.Conn
	reply := m.Header.Get("Ws-Reply")
	if reply == "" || m.Reply == "" {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctlIn := nc.NewRespInbox()
	bodyR, bodyW := io.Pipe()
	ctl, err := nc.Subscribe(ctlIn, func(c *nats.Msg) {
		switch c.Header.Get("Ws-Kind") {
		case "body":
			_, err := bodyW.Write(c.Data) // (blocks until the handler reads: flow control)
			if err == nil {
				_ = c.Respond(nil)
			}
		case "eof":
			_ = bodyW.Close()
			_ = c.Respond(nil)
		case "cancel":
			cancel()
			_ = bodyW.CloseWithError(context.Canceled)
		}
	})
	if err != nil {
		return
	}
	defer func() { _ = ctl.Unsubscribe() }()
	ack := nats.NewMsg(m.Reply)
	ack.Header.Set("Ws-Ctl", ctlIn)
	if err := m.RespondMsg(ack); err != nil {
		return
	}
	var body io.ReadCloser = http.NoBody
	switch m.Header.Get("Ws-Body") {
	case "inline":
		body = io.NopCloser(bytes.NewReader(m.Data))
		_ = bodyW.Close()
	case "stream":
		body = bodyR
	default:
		_ = bodyW.Close()
	}
	req, err := http.NewRequestWithContext(ctx, m.Header.Get("Ws-Method"), m.Header.Get("Ws-URI"), body)
	if err != nil {
		return
	}
	_ = json.Unmarshal([]byte(m.Header.Get("Ws-Header")), &req.Header)
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set(HeaderForwarded, m.Header.Get("Ws-From"))
	req.RequestURI = m.Header.Get("Ws-URI")
	rw := &natsWriter{nc: nc, reply: reply, hdr: http.Header{}, ctx: ctx, cancel: cancel}
	done := make(chan struct{})
	go func() { // beats, so A knows this node is alive while the handler runs
		t := time.NewTicker(beatEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				b := nats.NewMsg(reply)
				b.Header.Set("Ws-Kind", "beat")
				_ = nc.PublishMsg(b)
			}
		}
	}()
	func() {
		defer func() {
			if p := recover(); p != nil && p != http.ErrAbortHandler {
				n.log.Error("cluster: forwarded request panicked", "panic", p)
			}
		}()
		h.ServeHTTP(rw, req)
	}()
	close(done)
	rw.finish()
}

// natsWriter is the http.ResponseWriter of a forwarded request: it sends
// the head, then the body in chunks, each waiting for A's acknowledgement.
type natsWriter struct {
	nc     *nats.Conn
	reply  string
	hdr    http.Header
	ctx    context.Context // the request's: A's cancel ends it
	cancel context.CancelFunc

	mu     sync.Mutex
	status int
	sent   bool // the head
	buf    []byte
	err    error
}

func (w *natsWriter) Header() http.Header { return w.hdr }

func (w *natsWriter) WriteHeader(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.status == 0 {
		w.status = status
	}
}

func (w *natsWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.err != nil {
		return 0, w.err
	}
	w.buf = append(w.buf, p...)
	for len(w.buf) >= chunkSize && w.err == nil {
		w.sendLocked(w.buf[:chunkSize])
		w.buf = w.buf[chunkSize:]
	}
	return len(p), w.err
}

func (w *natsWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if len(w.buf) > 0 || !w.sent {
		w.sendLocked(w.buf)
		w.buf = nil
	}
}

// sendLocked sends the head if not yet sent, then data (if any), each
// acknowledged by A.
func (w *natsWriter) sendLocked(data []byte) {
	if w.err != nil {
		return
	}
	if !w.sent {
		hj, _ := json.Marshal(w.hdr)
		m := nats.NewMsg(w.reply)
		m.Header.Set("Ws-Kind", "head")
		m.Header.Set("Ws-Status", strconv.Itoa(w.status))
		m.Header.Set("Ws-Header", string(hj))
		if w.hdr.Get(HeaderMoved) != "" {
			m.Header.Set(HeaderMoved, "1")
		}
		if err := w.request(m); err != nil {
			w.fail(err)
			return
		}
		w.sent = true
	}
	if len(data) == 0 {
		return
	}
	m := nats.NewMsg(w.reply)
	m.Header.Set("Ws-Kind", "data")
	m.Data = data
	if err := w.request(m); err != nil {
		w.fail(err)
	}
}

// request sends m and waits for A's acknowledgement: A writes to a client
// that may be slow, so the wait is long, but a cancel from A ends it.
func (w *natsWriter) request(m *nats.Msg) error {
	ctx, cancel := context.WithTimeout(w.ctx, 5*time.Minute)
	defer cancel()
	_, err := w.nc.RequestMsgWithContext(ctx, m)
	return err
}

func (w *natsWriter) fail(err error) {
	w.err = err
	w.cancel() // (A is gone: stop the handler's work)
}

// finish sends what is left and the end.
func (w *natsWriter) finish() {
	w.Flush()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	m := nats.NewMsg(w.reply)
	m.Header.Set("Ws-Kind", "end")
	_ = w.nc.PublishMsg(m)
}
