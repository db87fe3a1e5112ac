package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Pins: what lives on one node beside sessions, and how another takes it
// over (an MCP session: the SDK keeps it in the memory of the node that
// initialized it; the pin keeps its initialize request, so that another
// node can start it again under the same id when that node is gone).
// Records m.KEY, with the same compare-and-set rules as sessions.

// pin is a pin's record.
type pin struct {
	Node   string `json:"node,omitempty"`
	Inc    string `json:"inc,omitempty"`
	Client string `json:"client"`
	Data   []byte `json:"data,omitempty"`
}

func pinKey(key string) string { return "m." + key }

// Pin records that this node serves key for client, with data to take it
// over.
func (n *Node) Pin(ctx context.Context, client, key string, data []byte) error {
	if !validID(key) {
		return errf(CodeNotFound, "bad key %q", key)
	}
	b, _ := json.Marshal(pin{Node: n.name, Inc: n.inc, Client: client, Data: data})
	if _, err := n.kv.Put(ctx, pinKey(key), b); err != nil {
		return unavailable(err)
	}
	return nil
}

// Where is the node that serves key for client: "" when it is this one,
// or when this node just took it over from a node that is gone (claimed,
// with the data to start it again).
func (n *Node) Where(ctx context.Context, client, key string) (node string, data []byte, claimed bool, err error) {
	if !validID(key) {
		return "", nil, false, errf(CodeNotFound, "no %q", key)
	}
	defer n.locks.lock("m." + key)()
	for range 5 {
		e, err := n.kv.Get(ctx, pinKey(key))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return "", nil, false, errf(CodeNotFound, "no %q", key)
		} else if err != nil {
			return "", nil, false, unavailable(err)
		}
		var p pin
		if json.Unmarshal(e.Value(), &p) != nil || p.Client != client {
			return "", nil, false, errf(CodeNotFound, "no %q", key)
		}
		if p.Node == n.name && p.Inc == n.inc {
			return "", p.Data, false, nil
		}
		if n.alive(ctx, p.Node, p.Inc) {
			return p.Node, nil, false, nil
		}
		p.Node, p.Inc = n.name, n.inc
		b, _ := json.Marshal(p)
		if _, err := n.kv.Update(ctx, pinKey(key), b, e.Revision()); conflict(err) {
			continue
		} else if err != nil {
			return "", nil, false, unavailable(err)
		}
		return "", p.Data, true, nil
	}
	return "", nil, false, errf(CodeUnavailable, "%s changes hands too often", key)
}

// Unpin forgets key (its MCP session ended).
func (n *Node) Unpin(ctx context.Context, key string) {
	if validID(key) {
		_ = n.kv.Purge(ctx, pinKey(key))
	}
}

// LetGo leaves key to the next node asked (this node is draining).
func (n *Node) LetGo(ctx context.Context, key string) {
	if !validID(key) {
		return
	}
	e, err := n.kv.Get(ctx, pinKey(key))
	if err != nil {
		return
	}
	var p pin
	if json.Unmarshal(e.Value(), &p) != nil || p.Node != n.name || p.Inc != n.inc {
		return
	}
	p.Node, p.Inc = "", ""
	b, _ := json.Marshal(p)
	_, _ = n.kv.Update(ctx, pinKey(key), b, e.Revision())
}

// Hand-overs: a session shared by clients of several nodes (an MCP named
// session) runs where it is held; a node that needs it asks the holder to
// release it (after its run in progress), then claims it.

// OnRelease sets how this node releases a session another node asks for
// (the server locks it, then Release, then drops it).
func (n *Node) OnRelease(f func(id string) error) error {
	sub, err := n.opt.Conn.Subscribe(n.subject(n.name)+".release", func(m *nats.Msg) {
		id := string(m.Data)
		out := nats.NewMsg(m.Reply)
		if !validID(id) {
			out.Header.Set("Ws-Error", "bad id")
		} else if err := f(id); err != nil {
			out.Header.Set("Ws-Error", err.Error())
		}
		_ = m.RespondMsg(out)
	})
	if err != nil {
		return unavailable(err)
	}
	n.mu.Lock()
	n.relSub = sub
	n.mu.Unlock()
	return nil
}

// AskRelease asks node to release session id; a node that is gone counts
// as released (the session is claimable).
func (n *Node) AskRelease(ctx context.Context, node, id string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // (it waits for a run in progress)
	defer cancel()
	m, err := n.opt.Conn.RequestWithContext(ctx, n.subject(node)+".release", []byte(id))
	if errors.Is(err, nats.ErrNoResponders) {
		n.markGone(node)
		return nil
	} else if err != nil {
		return unavailable(err)
	}
	if e := m.Header.Get("Ws-Error"); e != "" {
		return errf(CodeUnavailable, "node %s did not release %s: %s", node, id, e)
	}
	return nil
}
