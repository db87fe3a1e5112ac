// Package sessions is the one session registry of the servers that hold
// sandboxes for clients: `wasmsand serve` (service), `wasmsand mcp`
// (mcpserver) and the JS core (cmd/wasmsand-js). It keeps sandboxes by id,
// each owned by one client (or shared), with the bounds a server puts on
// all of them together (how many, how much memory they keep), the snapshots
// each keeps, one run at a time in each, and idle expiry.
package sessions

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/core"
)

// Error codes of the registry's errors (stable; each server maps them to
// its own answers: HTTP statuses, MCP tool errors, JS errors).
const (
	CodeNotFound          = "not_found"
	CodeQuotaExceeded     = "quota_exceeded"
	CodeResourceExhausted = "resource_exhausted"
	CodeClosed            = "closed"
	// A cluster's (package cluster): the node running a request was lost;
	// the cluster's store could not be reached.
	CodeNodeLost    = "node_lost"
	CodeUnavailable = "unavailable"
)

// Error is a registry error with its stable code.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func errf(code, format string, a ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, a...)}
}

// Options bound the registry's sessions. Zero values: no bound.
type Options struct {
	MaxSessions  int   // sessions open at once, in all
	MaxPerOwner  int   // sessions open at once per owner
	MaxSnapshots int   // snapshots one session keeps
	MaxMemory    int64 // bytes all sessions keep together (Sandbox.MemoryHeld)
	// Limit names the option that sets MaxMemory, for the message of a
	// refusal (e.g. "--max-memory").
	Limit string
}

// Registry holds sessions by id. Its methods are safe for concurrent use.
type Registry struct {
	opt    Options
	mu     sync.Mutex
	byID   map[string]*Session
	closed bool
}

// New makes an empty registry.
func New(opt Options) *Registry {
	return &Registry{opt: opt, byID: map[string]*Session{}}
}

// Session is one sandbox of the registry. Lock it around what must not
// overlap a run (a sandbox is one terminal).
type Session struct {
	ID      string
	Owner   any // whom it belongs to (a token, a client's connection); nil: shared by all
	Sandbox *core.Sandbox
	Created time.Time
	// Value is the server's own state of the session (set before Add).
	Value any

	run   sync.Mutex
	mu    sync.Mutex // used, snaps, nsnap
	used  time.Time
	snaps map[string]*core.Snapshot
	nsnap int
}

// NewID is an unguessable session id: "s" and 26 base32 characters
// (130 random bits), so knowing one id tells nothing of another.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "s" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// Reserve says whether one more session of owner would fit, before the
// caller makes its sandbox (Add checks again).
func (r *Registry) Reserve(owner any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.fits(owner); err != nil {
		return err
	}
	return r.roomLocked(0)
}

// fits checks the bounds on counts (r.mu held).
func (r *Registry) fits(owner any) error {
	if r.closed {
		return errf(CodeClosed, "the server is shutting down")
	}
	if r.opt.MaxSessions > 0 && len(r.byID) >= r.opt.MaxSessions {
		return errf(CodeQuotaExceeded, "the server has %d sessions open, the most it may have", len(r.byID))
	}
	if r.opt.MaxPerOwner > 0 && owner != nil {
		n := 0
		for _, x := range r.byID {
			if x.Owner == owner {
				n++
			}
		}
		if n >= r.opt.MaxPerOwner {
			return errf(CodeQuotaExceeded, "this client has %d sessions, the most it may have: delete one first", n)
		}
	}
	return nil
}

// Add registers sb as a session of owner under id (NewID() when empty).
// When id is taken, Add returns the session holding it and ok false, and
// sb is not registered (the caller closes it). A session past the bounds
// is refused with a *Error.
func (r *Registry) Add(owner any, id string, sb *core.Sandbox, value any) (x *Session, ok bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id == "" {
		id = NewID()
	} else if other, taken := r.byID[id]; taken {
		return other, false, nil
	}
	if err := r.fits(owner); err != nil {
		return nil, false, err
	}
	now := time.Now()
	x = &Session{ID: id, Owner: owner, Sandbox: sb, Created: now, Value: value, used: now, snaps: map[string]*core.Snapshot{}}
	r.byID[id] = x
	return x, true, nil
}

// Get is owner's session id: one it owns, or a shared one.
func (r *Registry) Get(owner any, id string) (*Session, bool) {
	r.mu.Lock()
	x, ok := r.byID[id]
	r.mu.Unlock()
	if !ok || (x.Owner != nil && x.Owner != owner) {
		return nil, false
	}
	x.Touch()
	return x, true
}

// Remove takes owner's session id out of the registry and closes its
// sandbox (a run in it is cancelled).
func (r *Registry) Remove(owner any, id string) bool {
	r.mu.Lock()
	x, ok := r.byID[id]
	if ok && x.Owner != nil && x.Owner != owner {
		ok = false
	}
	if ok {
		delete(r.byID, id)
	}
	r.mu.Unlock()
	if ok {
		x.Sandbox.Close()
	}
	return ok
}

// RemoveOwner removes and closes every session owner owns (its client is
// gone).
func (r *Registry) RemoveOwner(owner any) {
	r.mu.Lock()
	var gone []*Session
	for id, x := range r.byID {
		if x.Owner == owner {
			gone = append(gone, x)
			delete(r.byID, id)
		}
	}
	r.mu.Unlock()
	for _, x := range gone {
		x.Sandbox.Close()
	}
}

// List is owner's sessions (shared ones not included), oldest first.
func (r *Registry) List(owner any) []*Session {
	r.mu.Lock()
	var list []*Session
	for _, x := range r.byID {
		if x.Owner == owner {
			list = append(list, x)
		}
	}
	r.mu.Unlock()
	slices.SortFunc(list, func(a, b *Session) int { return a.Created.Compare(b.Created) })
	return list
}

// Len is how many sessions are open.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byID)
}

// Room is a resource_exhausted *Error when the sessions together keep more
// than MaxMemory, or would with extra bytes more.
func (r *Registry) Room(extra int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.roomLocked(extra)
}

func (r *Registry) roomLocked(extra int64) error {
	if r.opt.MaxMemory <= 0 {
		return nil
	}
	held := extra
	for _, x := range r.byID {
		held += x.Sandbox.MemoryHeld()
	}
	if held > r.opt.MaxMemory {
		limit := ""
		if r.opt.Limit != "" {
			limit = " (" + r.opt.Limit + ")"
		}
		return errf(CodeResourceExhausted, "the sessions keep %d MiB of the %d MiB this server allows%s: delete sessions first",
			(held-extra)>>20, r.opt.MaxMemory>>20, limit)
	}
	return nil
}

// Expire removes and closes the sessions unused for longer than idle that
// are not running, and returns how many.
func (r *Registry) Expire(idle time.Duration) int {
	now := time.Now()
	r.mu.Lock()
	var gone []*Session
	for id, x := range r.byID {
		if now.Sub(x.LastUsed()) > idle && x.run.TryLock() {
			x.run.Unlock()
			gone = append(gone, x)
			delete(r.byID, id)
		}
	}
	r.mu.Unlock()
	for _, x := range gone {
		x.Sandbox.Close()
	}
	return len(gone)
}

// Lookup is session id, whoever owns it (for the server's own use: a
// cluster handing it to another node).
func (r *Registry) Lookup(id string) (*Session, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	x, ok := r.byID[id]
	return x, ok
}

// Drop takes session id out of the registry, whoever owns it, and
// closes its sandbox (a cluster moved it elsewhere, or released it).
func (r *Registry) Drop(id string) bool {
	r.mu.Lock()
	x, ok := r.byID[id]
	delete(r.byID, id)
	r.mu.Unlock()
	if ok {
		x.Sandbox.Close()
	}
	return ok
}

// Idle is the sessions unused for longer than idle, oldest first (a
// cluster evicts them to its store).
func (r *Registry) Idle(idle time.Duration) []*Session {
	now := time.Now()
	r.mu.Lock()
	var list []*Session
	for _, x := range r.byID {
		if now.Sub(x.LastUsed()) > idle {
			list = append(list, x)
		}
	}
	r.mu.Unlock()
	slices.SortFunc(list, func(a, b *Session) int { return a.LastUsed().Compare(b.LastUsed()) })
	return list
}

// All is every session, oldest first.
func (r *Registry) All() []*Session {
	r.mu.Lock()
	list := make([]*Session, 0, len(r.byID))
	for _, x := range r.byID {
		list = append(list, x)
	}
	r.mu.Unlock()
	slices.SortFunc(list, func(a, b *Session) int { return a.Created.Compare(b.Created) })
	return list
}

// Close closes every session; later Adds fail with closed.
func (r *Registry) Close() {
	r.mu.Lock()
	r.closed = true
	list := r.byID
	r.byID = map[string]*Session{}
	r.mu.Unlock()
	for _, x := range list {
		x.Sandbox.Close()
	}
}

// Lock waits for the session's run in progress, if any, and holds it.
func (x *Session) Lock() { x.run.Lock() }

// Unlock ends what Lock began; it counts as a use.
func (x *Session) Unlock() {
	x.Touch()
	x.run.Unlock()
}

// Touch marks the session used now.
func (x *Session) Touch() {
	x.mu.Lock()
	x.used = time.Now()
	x.mu.Unlock()
}

// LastUsed is when the session was last used.
func (x *Session) LastUsed() time.Time {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.used
}

// Snapshot keeps a snapshot of the session's files and returns its id
// ("snap1", "snap2"... within the session). Call it with the session
// locked.
func (r *Registry) Snapshot(x *Session) (string, error) {
	if err := r.Room(0); err != nil {
		return "", err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if r.opt.MaxSnapshots > 0 && len(x.snaps) >= r.opt.MaxSnapshots {
		return "", errf(CodeQuotaExceeded, "session %s keeps %d snapshots, the most it may", x.ID, len(x.snaps))
	}
	x.nsnap++
	id := "snap" + strconv.Itoa(x.nsnap)
	x.snaps[id] = x.Sandbox.Snapshot()
	return id, nil
}

// KeepSnapshot keeps s as the session's snapshot id (named by a cluster,
// which numbers a session's snapshots across machines), within the bounds
// Snapshot applies. Call it with the session locked.
func (r *Registry) KeepSnapshot(x *Session, id string, s *core.Snapshot) error {
	if err := r.Room(0); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if r.opt.MaxSnapshots > 0 && len(x.snaps) >= r.opt.MaxSnapshots {
		return errf(CodeQuotaExceeded, "session %s keeps %d snapshots, the most it may", x.ID, len(x.snaps))
	}
	x.snaps[id] = s
	return nil
}

// SnapshotOf is the session's snapshot id.
func (x *Session) SnapshotOf(id string) (*core.Snapshot, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	s, ok := x.snaps[id]
	if !ok {
		return nil, errf(CodeNotFound, "no snapshot %q in session %s", id, x.ID)
	}
	return s, nil
}

// Fork makes a child of the session (locked by the caller) as a new
// session of the same owner.
func (r *Registry) Fork(ctx context.Context, x *Session, value any) (*Session, error) {
	if err := r.Reserve(x.Owner); err != nil {
		return nil, err
	}
	child, err := x.Sandbox.Fork(ctx)
	if err != nil {
		return nil, err
	}
	y, _, err := r.Add(x.Owner, "", child, value)
	if err != nil {
		child.Close()
		return nil, err
	}
	return y, nil
}
