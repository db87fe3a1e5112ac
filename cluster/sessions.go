package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/sessions"
	"github.com/wasmsand/wasmsand/vfs"
)

// held is a session this node owns.
type held struct {
	sb   *core.Sandbox
	rec  Record
	rev  uint64        // the record's revision this node wrote last
	base *vfs.Snapshot // the files as the last checkpoint saved them
}

// restarts tells whether chain should start again with a whole state: it
// is as long as it may be, or its deltas outweigh its whole state.
func restarts(chain []Part, max int) bool {
	if len(chain) == 0 || len(chain) >= max {
		return true
	}
	var deltas int64
	for _, p := range chain[1:] {
		deltas += p.Size
	}
	return deltas > chain[0].Size
}

// keyLocks serialize what this node does with one key (a session's claim
// and the restore after it), so two requests do not claim it twice. A
// lock lives while someone holds or waits for it.
type keyLocks struct {
	mu sync.Mutex
	m  map[string]*keyLock
}

type keyLock struct {
	sync.Mutex
	refs int
}

func (k *keyLocks) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyLock{}
	}
	l := k.m[key]
	if l == nil {
		l = &keyLock{}
		k.m[key] = l
	}
	l.refs++
	k.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
}

// State is a session's last checkpoint, restored: the server makes its
// sandbox from Record.Spec and gives it these files and this shell.
type State struct {
	Record *Record
	Files  *vfs.FS
	Shell  []byte
}

// Create records a new session of client, held by this node, and saves
// its first checkpoint. maxPerClient (0: no bound) bounds the client's
// sessions in all the cluster.
func (n *Node) Create(ctx context.Context, client, id string, spec []byte, sb *core.Sandbox, maxPerClient int) error {
	if !validID(id) {
		return errf(CodeNotFound, "bad session id %q", id)
	}
	if maxPerClient > 0 {
		ids, err := n.Sessions(ctx, client)
		if err != nil {
			return err
		}
		if len(ids) >= maxPerClient {
			return errf(CodeQuotaExceeded, "this client has %d sessions, the most it may have: delete one first", len(ids))
		}
	}
	now := time.Now().UTC()
	rec := Record{Node: n.name, Inc: n.inc, Client: client, Created: now, Used: now, Cwd: sb.Cwd(), Spec: spec}
	b, _ := json.Marshal(rec)
	if _, err := n.kv.Create(ctx, indexKey(client, id), nil); err != nil {
		return unavailable(err)
	}
	rev, err := n.kv.Create(ctx, recordKey(id), b)
	if err != nil {
		_ = n.kv.Delete(ctx, indexKey(client, id))
		return unavailable(err)
	}
	n.mu.Lock()
	n.held[id] = &held{sb: sb, rec: rec, rev: rev}
	n.mu.Unlock()
	return n.Checkpoint(ctx, id)
}

// Open finds session id of client: "" when this node holds it (local
// says the server has it in memory), or the name of the live node that
// does. A session no live node holds is claimed here: restore makes its
// sandbox from the last checkpoint.
func (n *Node) Open(ctx context.Context, client, id string, local func() bool, restore func(*State) (*core.Sandbox, error)) (string, error) {
	if !validID(id) {
		return "", errf(CodeNotFound, "no session %q", id)
	}
	defer n.locks.lock(id)()
	n.mu.Lock()
	h := n.held[id]
	n.mu.Unlock()
	if h != nil && local() {
		if h.rec.Client != client {
			return "", errf(CodeNotFound, "no session %q", id)
		}
		return "", nil
	}
	for range 5 {
		rec, rev, err := n.record(ctx, id)
		if err != nil {
			return "", err
		}
		if rec.Client != client {
			return "", errf(CodeNotFound, "no session %q", id)
		}
		mine := rec.Node == n.name && rec.Inc == n.inc
		if !mine && n.alive(ctx, rec.Node, rec.Inc) {
			return rec.Node, nil
		}
		claimed := *rec
		claimed.Node, claimed.Inc = n.name, n.inc
		b, _ := json.Marshal(claimed)
		rev2, err := n.kv.Update(ctx, recordKey(id), b, rev)
		if conflict(err) {
			continue // (another node was quicker: look again)
		} else if err != nil {
			return "", unavailable(err)
		}
		st, err := n.load(ctx, id, claimed.Chain)
		var sb *core.Sandbox
		if err == nil {
			st.Record = &claimed
			sb, err = restore(st)
		}
		if err != nil {
			// (leave it to be claimed again: a later try may succeed)
			claimed.Node, claimed.Inc = "", ""
			b, _ := json.Marshal(claimed)
			_, _ = n.kv.Update(context.WithoutCancel(ctx), recordKey(id), b, rev2)
			return "", err
		}
		n.mu.Lock()
		n.held[id] = &held{sb: sb, rec: claimed, rev: rev2, base: sb.FS().Base()}
		n.mu.Unlock()
		n.log.Info("cluster: session claimed", "session", id, "from", rec.Node)
		return "", nil
	}
	return "", errf(CodeUnavailable, "session %s changes hands too often to claim", id)
}

// Checkpoint saves what changed in session id (held here) since its last
// checkpoint. A session another node took meanwhile fails with node_lost
// and is dropped here. Call it with the session locked (between runs).
func (n *Node) Checkpoint(ctx context.Context, id string) error {
	_, err := n.checkpoint(ctx, id, false, 0)
	return err
}

// TakeSnapshot checkpoints session id and keeps that state as a snapshot,
// the session's max-th at most (0: no bound), and returns its id: snap1,
// snap2... in the order the session took them, on whichever node.
func (n *Node) TakeSnapshot(ctx context.Context, id string, max int) (string, error) {
	return n.checkpoint(ctx, id, true, max)
}

func (n *Node) checkpoint(ctx context.Context, id string, takeSnap bool, maxSnaps int) (string, error) {
	n.mu.Lock()
	h := n.held[id]
	n.mu.Unlock()
	if h == nil {
		return "", errf(CodeNodeLost, "session %s is no longer held by node %s", id, n.name)
	}
	if takeSnap && maxSnaps > 0 && h.rec.NSnap >= maxSnaps {
		return "", errf(CodeQuotaExceeded, "session %s keeps %d snapshots, the most it may", id, h.rec.NSnap)
	}
	base := h.base
	if base == nil || restarts(h.rec.Chain, n.opt.MaxChain) {
		base = nil // (a whole state: the chain restarts)
	}
	var files bytesBuffer
	next, err := h.sb.FS().EncodeDelta(&files, base)
	if err != nil {
		return "", errf(CodeUnavailable, "checkpoint of %s: %v", id, err)
	}
	shell, err := h.sb.ShellState()
	if err != nil {
		return "", errf(CodeUnavailable, "checkpoint of %s: %v", id, err)
	}
	rec := h.rec
	rec.Seq++
	part := Part{Seq: rec.Seq, Size: int64(files.Len()), Obj: objectName(id, rec.Seq, n.inc)}
	if _, err := n.obj.PutBytes(ctx, part.Obj, pack(files.Bytes(), shell)); err != nil {
		return "", unavailable(err)
	}
	old := rec.Chain
	if base == nil {
		rec.Chain = []Part{part}
	} else {
		rec.Chain = append(slices.Clip(rec.Chain), part)
	}
	rec.Used = time.Now().UTC()
	rec.Cwd = h.sb.Cwd()
	snap := ""
	if takeSnap {
		rec.NSnap++
		snap = "snap" + strconv.Itoa(rec.NSnap)
		b, _ := json.Marshal(rec.Chain)
		if _, err := n.kv.Put(ctx, snapKey(id, snap), b); err != nil {
			return "", unavailable(err)
		}
	}
	b, _ := json.Marshal(rec)
	rev, err := n.kv.Update(ctx, recordKey(id), b, h.rev)
	if conflict(err) {
		// (the record does not name it, and no chain ever will; after
		// another error it may: a timed-out update can still have landed)
		_ = n.obj.Delete(context.WithoutCancel(ctx), part.Obj)
		n.lost(id)
		return "", errf(CodeNodeLost, "session %s was taken over by another node", id)
	} else if err != nil {
		return "", unavailable(err)
	}
	n.mu.Lock()
	h.rec, h.rev, h.base = rec, rev, next
	n.mu.Unlock()
	if base == nil && len(old) > 0 {
		n.dropParts(id, old)
	}
	return snap, nil
}

// dropParts deletes checkpoints no chain needs any more: not the
// session's, not a snapshot's.
func (n *Node) dropParts(id string, parts []Part) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	keep := map[string]bool{}
	n.mu.Lock()
	if h := n.held[id]; h != nil {
		for _, p := range h.rec.Chain {
			keep[p.Obj] = true
		}
	}
	n.mu.Unlock()
	for _, chain := range n.snapChains(ctx, id) {
		for _, p := range chain {
			keep[p.Obj] = true
		}
	}
	for _, p := range parts {
		if !keep[p.Obj] {
			_ = n.obj.Delete(ctx, p.Obj)
		}
	}
}

// snapChains is the chains of the session's snapshots, by their keys.
func (n *Node) snapChains(ctx context.Context, id string) map[string][]Part {
	l, err := n.kv.ListKeysFiltered(ctx, "p."+id+".*")
	if err != nil {
		return nil
	}
	out := map[string][]Part{}
	for k := range l.Keys() {
		e, err := n.kv.Get(ctx, k)
		if err != nil {
			continue
		}
		var chain []Part
		_ = json.Unmarshal(e.Value(), &chain)
		out[k] = chain
	}
	return out
}

// Snapshot is the files of session id as its snapshot snap saved them.
func (n *Node) Snapshot(ctx context.Context, id, snap string) (*vfs.FS, error) {
	if !validID(snap) {
		return nil, errf(CodeNotFound, "no snapshot %q in session %s", snap, id)
	}
	e, err := n.kv.Get(ctx, snapKey(id, snap))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, errf(CodeNotFound, "no snapshot %q in session %s", snap, id)
	} else if err != nil {
		return nil, unavailable(err)
	}
	var chain []Part
	if err := json.Unmarshal(e.Value(), &chain); err != nil {
		return nil, errf(CodeUnavailable, "snapshot %s of %s: a damaged record", snap, id)
	}
	st, err := n.load(ctx, id, chain)
	if err != nil {
		return nil, err
	}
	return st.Files, nil
}

// Release hands session id (held here, locked by the caller) back to the
// cluster: its last checkpoint stays, and the next request for it, on any
// node, claims it. For a drain or an idle session's eviction.
func (n *Node) Release(ctx context.Context, id string) error {
	n.mu.Lock()
	h := n.held[id]
	delete(n.held, id)
	n.mu.Unlock()
	if h == nil {
		return nil
	}
	rec := h.rec
	rec.Node, rec.Inc = "", ""
	b, _ := json.Marshal(rec)
	if _, err := n.kv.Update(ctx, recordKey(id), b, h.rev); err != nil && !conflict(err) {
		return unavailable(err)
	}
	return nil
}

// Held is the ids of the sessions this node holds.
func (n *Node) Held() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	ids := make([]string, 0, len(n.held))
	for id := range n.held {
		ids = append(ids, id)
	}
	return ids
}

// Delete removes session id of client from the cluster: its record, its
// checkpoints and its snapshots.
func (n *Node) Delete(ctx context.Context, client, id string) error {
	rec, _, err := n.record(ctx, id)
	if err != nil {
		return err
	}
	if rec.Client != client {
		return errf(CodeNotFound, "no session %q", id)
	}
	n.mu.Lock()
	delete(n.held, id)
	n.mu.Unlock()
	if err := n.kv.Purge(ctx, recordKey(id)); err != nil {
		return unavailable(err)
	}
	_ = n.kv.Purge(ctx, indexKey(client, id))
	parts := slices.Clone(rec.Chain)
	for k, chain := range n.snapChains(ctx, id) {
		_ = n.kv.Purge(ctx, k)
		parts = append(parts, chain...)
	}
	for _, p := range parts {
		_ = n.obj.Delete(ctx, p.Obj)
	}
	return nil
}

// Sweep deletes the sessions no node holds that were last used before
// idle ago (evicted, or left by a node that is gone), and returns how many.
// Every node may sweep: each deletion is a compare-and-set.
func (n *Node) Sweep(ctx context.Context, idle time.Duration) int {
	l, err := n.kv.ListKeysFiltered(ctx, "s.*")
	if err != nil {
		return 0
	}
	var keys []string
	for k := range l.Keys() {
		keys = append(keys, k)
	}
	gone := 0
	for _, k := range keys {
		id := k[len("s."):]
		rec, rev, err := n.record(ctx, id)
		if err != nil || time.Since(rec.Used) < idle || n.alive(ctx, rec.Node, rec.Inc) {
			continue
		}
		// (claim it first, so that no node restores it while it goes)
		rec.Node, rec.Inc = n.name, n.inc
		b, _ := json.Marshal(rec)
		if _, err := n.kv.Update(ctx, k, b, rev); err != nil {
			continue
		}
		if n.Delete(ctx, rec.Client, id) == nil {
			gone++
		}
	}
	return gone
}

// What both servers do with a session of their registry (core/sessions)
// in a cluster.

// Apply gives sb the restored files and shell.
func (st *State) Apply(sb *core.Sandbox) error {
	if err := sb.ReplaceFiles(st.Files); err != nil {
		return err
	}
	if st.Shell == nil {
		return nil
	}
	return sb.LoadShellState(st.Shell)
}

// SnapshotSession checkpoints session x (held here, locked by the caller)
// as a snapshot, at most its max-th, and keeps it in reg too; it returns
// the snapshot's id.
func (n *Node) SnapshotSession(ctx context.Context, reg *sessions.Registry, x *sessions.Session, max int) (string, error) {
	if err := reg.Room(0); err != nil {
		return "", err
	}
	id, err := n.TakeSnapshot(ctx, x.ID, max)
	if err != nil {
		return "", err
	}
	// (the same files: nothing ran since the checkpoint)
	return id, reg.KeepSnapshot(x, id, x.Sandbox.Snapshot())
}

// SnapshotOf is session x's snapshot snap: kept in memory, or, when it was
// taken on another node, read back from its checkpoints.
func (n *Node) SnapshotOf(ctx context.Context, x *sessions.Session, snap string) (*core.Snapshot, error) {
	if s, err := x.SnapshotOf(snap); err == nil {
		return s, nil
	}
	files, err := n.Snapshot(ctx, x.ID, snap)
	if err != nil {
		return nil, err
	}
	return core.SnapshotOf(files), nil
}

// ReleaseSession hands session x back to the cluster after its run in
// progress and drops it from reg (a drain, an eviction, another node
// asking for it).
func (n *Node) ReleaseSession(ctx context.Context, reg *sessions.Registry, x *sessions.Session) error {
	x.Lock()
	defer x.Unlock()
	if err := n.Release(ctx, x.ID); err != nil {
		return err
	}
	reg.Drop(x.ID)
	return nil
}
