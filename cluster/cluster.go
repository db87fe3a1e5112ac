// Package cluster spreads the servers' sessions (`wasmsand serve`,
// `wasmsand mcp`) over machines that share a NATS JetStream: any node takes
// any session's request, the session runs on one node at a time (its
// owner), a request that reaches another node is forwarded to the owner over
// NATS (forward.go), and after each change the owner checkpoints the
// session's files and shell to a JetStream object store, only what changed
// since the last checkpoint (checkpoint.go). A node that is gone leaves its
// sessions to whichever node next gets a request for them, which restores
// the last checkpoint. No consensus of our own: every decision is a
// compare-and-set on a JetStream key-value record.
//
// Buckets (PREFIX is Options.Prefix, "wasmsand" by default):
//
//	PREFIX_nodes     node name → its incarnation; TTL LeaseTTL, renewed by the
//	                 node: a node whose key is gone or names another
//	                 incarnation is dead
//	PREFIX_sessions  s.ID → Record (owner node and incarnation, the
//	                 client it belongs to, its checkpoint chain);
//	                 o.CLIENT.ID → "" (a client's sessions, to list and
//	                 count them); p.ID.SNAP → a snapshot's chain
//	PREFIX_state     objects ID/SEQ: one checkpoint each (full or delta)
//
// Subjects: PREFIX.node.NAME takes the requests other nodes forward.
package cluster

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/wasmsand/wasmsand/core/sessions"
)

// Error codes of the cluster's errors (stable; the servers send them on).
// Its errors are the session registry's (*sessions.Error), with two codes
// of its own.
const (
	// CodeNodeLost: the node running the request is gone (a run in flight
	// there is lost; what completed before it is not).
	CodeNodeLost = sessions.CodeNodeLost
	// CodeUnavailable: the cluster's store could not be reached or did not
	// answer in time.
	CodeUnavailable = sessions.CodeUnavailable
	// CodeNotFound: no such session (or not this client's).
	CodeNotFound = sessions.CodeNotFound
	// CodeQuotaExceeded: the client has as many sessions as it may have.
	CodeQuotaExceeded = sessions.CodeQuotaExceeded
)

// Error is a cluster error with its stable code.
type Error = sessions.Error

func errf(code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}

// Options configure a node.
type Options struct {
	// Conn is the connection to NATS (JetStream enabled).
	Conn *nats.Conn
	// Name is this node's name in the cluster (letters, digits, - and _);
	// default: the host name and a random suffix.
	Name string
	// Prefix names the buckets and subjects (default "wasmsand"): clusters
	// with different prefixes share a NATS without seeing each other.
	Prefix string
	// Replicas is how many copies JetStream keeps of each bucket (1, or 3
	// in a cluster of NATS servers).
	Replicas int
	// LeaseTTL is how long a node that stops renewing its lease keeps its
	// sessions (default 10 s). A node found gone sooner (it no longer
	// takes its subject: killed, or its connection closed) loses them at
	// once.
	LeaseTTL time.Duration
	// MaxChain is how many checkpoints a session's chain holds before the
	// next one is written whole (default 16).
	MaxChain int
	Log      *slog.Logger
}

// Node is this process's membership of the cluster.
type Node struct {
	opt  Options
	name string
	inc  string // this incarnation: a restarted node owns nothing of its past life
	js   jetstream.JetStream
	live jetstream.KeyValue
	kv   jetstream.KeyValue
	obj  jetstream.ObjectStore
	log  *slog.Logger

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
	serving  sync.WaitGroup // forwarded requests in progress

	locks    keyLocks
	mu       sync.Mutex
	held     map[string]*held     // sessions this node owns
	gone     map[string]time.Time // nodes found not answering, when
	sub      *nats.Subscription
	relSub   *nats.Subscription
	lostFunc func(id string) // the server drops a session it no longer owns
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Join makes this process a node of the cluster: it opens (or creates) the
// buckets and starts renewing its lease.
func Join(ctx context.Context, opt Options) (*Node, error) {
	if opt.Conn == nil {
		return nil, errors.New("cluster: no NATS connection")
	}
	if opt.Prefix == "" {
		opt.Prefix = "wasmsand"
	}
	if !nameRE.MatchString(opt.Prefix) {
		return nil, fmt.Errorf("cluster: prefix %q: letters, digits, - and _ only", opt.Prefix)
	}
	if opt.Name == "" {
		h, _ := os.Hostname()
		h = strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return '-'
		}, h)
		if len(h) > 40 {
			h = h[:40]
		}
		opt.Name = h + "-" + randHex(4)
	}
	if !nameRE.MatchString(opt.Name) {
		return nil, fmt.Errorf("cluster: node name %q: 1 to 64 letters, digits, - and _", opt.Name)
	}
	if opt.Replicas <= 0 {
		opt.Replicas = 1
	}
	if opt.LeaseTTL <= 0 {
		opt.LeaseTTL = 10 * time.Second
	}
	if opt.MaxChain <= 0 {
		opt.MaxChain = 16
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	js, err := jetstream.New(opt.Conn)
	if err != nil {
		return nil, err
	}
	n := &Node{opt: opt, name: opt.Name, inc: randHex(8), js: js, log: opt.Log,
		stop: make(chan struct{}), held: map[string]*held{}, gone: map[string]time.Time{}}
	if err := retry(ctx, func(ctx context.Context) (err error) {
		n.live, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: opt.Prefix + "_nodes",
			TTL: opt.LeaseTTL, Storage: jetstream.FileStorage, Replicas: opt.Replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("cluster: bucket %s_nodes: %w", opt.Prefix, err)
	}
	if err := retry(ctx, func(ctx context.Context) (err error) {
		n.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: opt.Prefix + "_sessions",
			Storage: jetstream.FileStorage, Replicas: opt.Replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("cluster: bucket %s_sessions: %w", opt.Prefix, err)
	}
	if err := retry(ctx, func(ctx context.Context) (err error) {
		n.obj, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: opt.Prefix + "_state",
			Storage: jetstream.FileStorage, Replicas: opt.Replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("cluster: bucket %s_state: %w", opt.Prefix, err)
	}
	if _, err := n.live.Put(ctx, n.name, []byte(n.inc)); err != nil {
		return nil, fmt.Errorf("cluster: lease of node %s: %w", n.name, err)
	}
	// (a bucket just made with replicas may still be electing its leader:
	// serve only once each takes a write)
	if err := retry(ctx, func(ctx context.Context) error {
		if _, err := n.kv.Put(ctx, "probe."+n.name, nil); err != nil {
			return err
		}
		_, err := n.obj.PutBytes(ctx, "probe/"+n.name, nil)
		return err
	}); err != nil {
		return nil, fmt.Errorf("cluster: the buckets do not answer: %w", err)
	}
	n.wg.Add(1)
	go n.renew()
	return n, nil
}

// Name is this node's name.
func (n *Node) Name() string { return n.name }

// OnLost sets what the server does with a session this node finds it no
// longer owns (another node claimed it while this one was cut off): drop
// it from memory, without saving.
func (n *Node) OnLost(f func(id string)) {
	n.mu.Lock()
	n.lostFunc = f
	n.mu.Unlock()
}

// renew keeps the node's lease, and after a reconnection checks every
// session it holds is still its own.
func (n *Node) renew() {
	defer n.wg.Done()
	t := time.NewTicker(n.opt.LeaseTTL / 4)
	defer t.Stop()
	lastOK := time.Now()
	for {
		select {
		case <-n.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), n.opt.LeaseTTL/4)
		_, err := n.live.Put(ctx, n.name, []byte(n.inc))
		cancel()
		if err != nil {
			n.log.Warn("cluster: lease not renewed", "err", err)
			continue
		}
		if time.Since(lastOK) > n.opt.LeaseTTL/2 {
			// (cut off long enough for others to have claimed sessions)
			n.recheck()
		}
		lastOK = time.Now()
	}
}

// recheck drops the held sessions whose record names another owner.
func (n *Node) recheck() {
	n.mu.Lock()
	ids := make([]string, 0, len(n.held))
	for id := range n.held {
		ids = append(ids, id)
	}
	n.mu.Unlock()
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		rec, _, err := n.record(ctx, id)
		cancel()
		if err != nil && !isNotFound(err) {
			continue
		}
		if rec == nil || rec.Node != n.name || rec.Inc != n.inc {
			n.lost(id)
		}
	}
}

// lost forgets a session another node owns now.
func (n *Node) lost(id string) {
	n.mu.Lock()
	delete(n.held, id)
	f := n.lostFunc
	n.mu.Unlock()
	n.log.Warn("cluster: session taken by another node", "session", id)
	if f != nil {
		f(id)
	}
}

// Close leaves the cluster: no more forwarded requests, no lease. The
// sessions it held are claimable at once (Release them first to hand
// them over cleanly: a rolling restart).
func (n *Node) Close() {
	n.stopOnce.Do(func() { close(n.stop) })
	n.wg.Wait()
	n.mu.Lock()
	subs := []*nats.Subscription{n.sub, n.relSub}
	n.sub, n.relSub = nil, nil
	n.mu.Unlock()
	for _, sub := range subs {
		if sub != nil {
			_ = sub.Drain()
		}
	}
	// (their answers go out before the connection closes; bounded)
	done := make(chan struct{})
	go func() { n.serving.Wait(); close(done) }()
	t0 := time.Now()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
	}
	n.log.Info("cluster: left", "waited for forwarded requests", time.Since(t0).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = n.live.Delete(ctx, n.name)
}

// alive tells whether node's incarnation inc holds its lease.
func (n *Node) alive(ctx context.Context, node, inc string) bool {
	if node == "" {
		return false
	}
	if node == n.name {
		return inc == n.inc
	}
	n.mu.Lock()
	t, found := n.gone[node]
	n.mu.Unlock()
	if found && time.Since(t) < n.opt.LeaseTTL {
		return false
	}
	e, err := n.live.Get(ctx, node)
	if err != nil {
		return !errors.Is(err, jetstream.ErrKeyNotFound) // (unsure: not claimable)
	}
	return string(e.Value()) == inc
}

// markGone notes that node did not take a forwarded request (no
// subscriber: it is dead, or cut off from NATS).
func (n *Node) markGone(node string) {
	n.mu.Lock()
	n.gone[node] = time.Now()
	for k, t := range n.gone {
		if time.Since(t) > n.opt.LeaseTTL {
			delete(n.gone, k)
		}
	}
	n.mu.Unlock()
}

// ClientKey is what records keep of a client's credentials (a token): a
// hash, the same on every node, that names its sessions without telling
// the token.
func ClientKey(token string) string {
	h := sha256.Sum256([]byte("wasmsand-client\x00" + token))
	return hex.EncodeToString(h[:16])
}

// Record is a session's entry in the sessions bucket.
type Record struct {
	Node    string    `json:"node,omitempty"` // its owner ("": none, the next request claims it)
	Inc     string    `json:"inc,omitempty"`  // the owner's incarnation
	Client  string    `json:"client"`         // ClientKey of the client it belongs to
	Created time.Time `json:"created"`
	Used    time.Time `json:"used"`
	Cwd     string    `json:"cwd,omitempty"`
	// Spec is the server's description of how to make the session's
	// sandbox again (its create request: limits, environment, policy).
	Spec  json.RawMessage `json:"spec,omitempty"`
	Chain []Part          `json:"chain,omitempty"` // checkpoints: a whole state, then deltas
	Seq   int             `json:"seq"`             // the last checkpoint's number
	NSnap int             `json:"nsnap,omitempty"` // snapshots taken (their ids: snap1, snap2...)
}

// Part is one checkpoint of a chain.
type Part struct {
	Seq  int    `json:"seq"`
	Size int64  `json:"size"`
	Obj  string `json:"obj"` // its object's name
}

func recordKey(id string) string        { return "s." + id }
func indexKey(client, id string) string { return "o." + client + "." + id }
func snapKey(id, snap string) string    { return "p." + id + "." + snap }

// validID: a session id as the registry makes them, or a shared name
// (letters, digits, - and _), never a subject wildcard or separator.
func validID(id string) bool { return nameRE.MatchString(id) }

// record reads a session's record and its revision.
func (n *Node) record(ctx context.Context, id string) (*Record, uint64, error) {
	if !validID(id) {
		return nil, 0, errf(CodeNotFound, "no session %q", id)
	}
	e, err := n.kv.Get(ctx, recordKey(id))
	if err != nil {
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, 0, errf(CodeNotFound, "no session %q", id)
		}
		return nil, 0, unavailable(err)
	}
	var rec Record
	if err := json.Unmarshal(e.Value(), &rec); err != nil {
		return nil, 0, errf(CodeUnavailable, "session %s: a damaged record: %v", id, err)
	}
	return &rec, e.Revision(), nil
}

func unavailable(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return errf(CodeUnavailable, "the cluster's store: %v", err)
}

func isNotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeNotFound
}

// Sessions is the ids of a client's sessions, in all the cluster.
func (n *Node) Sessions(ctx context.Context, client string) ([]string, error) {
	l, err := n.kv.ListKeysFiltered(ctx, "o."+client+".*")
	if err != nil {
		return nil, unavailable(err)
	}
	var ids []string
	for k := range l.Keys() {
		ids = append(ids, k[len("o."+client+"."):])
	}
	return ids, nil
}

// Describe is a session's record, for a client (not_found when it is
// another's).
func (n *Node) Describe(ctx context.Context, client, id string) (*Record, error) {
	rec, _, err := n.record(ctx, id)
	if err != nil {
		return nil, err
	}
	if rec.Client != client {
		return nil, errf(CodeNotFound, "no session %q", id)
	}
	return rec, nil
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// retry runs f until it succeeds or ctx ends (JetStream may still be
// electing its leaders when a cluster starts).
func retry(ctx context.Context, f func(context.Context) error) error {
	for {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := f(c)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// conflict tells whether a compare-and-set failed because the record
// changed (nats.go words it as either error, by path).
func conflict(err error) bool {
	return errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch)
}
