package toolruntime

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"golang.org/x/time/rate"
)

// Signer signs and checks invocations with a shared key (the design's §9.6, "no request
// signing"): an HMAC-SHA256 over the subject, the signing time, the routing headers
// (replyTo, statusTo, clientId, userId) and the payload, so a captured request can be
// neither altered, redirected nor sent to another tool; the worker also refuses a
// task id it has seen within MaxSkew (a replay).
type Signer struct {
	Key     []byte
	MaxSkew time.Duration // how old (or early) a signature may be; default 5 min
}

func (s *Signer) maxSkew() time.Duration {
	if s.MaxSkew > 0 {
		return s.MaxSkew
	}
	return 5 * time.Minute
}

func (s *Signer) mac(msg *nats.Msg, ts string) string {
	m := hmac.New(sha256.New, s.Key)
	// (the domain tag keeps the package's old name: workers and clients of
	// earlier builds must keep agreeing on signatures)
	for _, part := range []string{"wasmsand-toolrt-v1", msg.Subject, ts, msg.Header.Get(HeaderReplyTo),
		msg.Header.Get(HeaderStatusTo), msg.Header.Get(HeaderClientID), msg.Header.Get(HeaderUserID)} {
		m.Write([]byte(strconv.Itoa(len(part)) + ":" + part + "\n"))
	}
	m.Write(msg.Data)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Sign sets msg's timestamp and signature headers (after its other headers).
func (s *Signer) Sign(msg *nats.Msg) {
	if msg.Header == nil {
		msg.Header = nats.Header{}
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	msg.Header.Set(HeaderTimestamp, ts)
	msg.Header.Set(HeaderSignature, s.mac(msg, ts))
}

// Verify checks msg's signature and its age.
func (s *Signer) Verify(msg *nats.Msg) error {
	sig, ts := msg.Header.Get(HeaderSignature), msg.Header.Get(HeaderTimestamp)
	if sig == "" || ts == "" {
		return errors.New("the request is not signed")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("bad signature timestamp")
	}
	if d := time.Since(time.Unix(sec, 0)); d > s.maxSkew() || d < -s.maxSkew() {
		return fmt.Errorf("signature %v old: beyond %v", d.Round(time.Second), s.maxSkew())
	}
	if !hmac.Equal([]byte(strings.ToLower(sig)), []byte(s.mac(msg, ts))) {
		return errors.New("bad signature")
	}
	return nil
}

// replayGuard remembers the task ids of signed requests for the signatures' lifetime.
type replayGuard struct {
	mu   sync.Mutex
	seen map[string]time.Time
	last time.Time
}

func newReplayGuard() *replayGuard { return &replayGuard{seen: map[string]time.Time{}} }

// first reports whether id is new, and remembers it for keep (twice the skew: a
// signature is good that long).
func (g *replayGuard) first(id string, skew time.Duration) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if now.Sub(g.last) > time.Minute || len(g.seen) > 1<<20 {
		for k, t := range g.seen {
			if now.Sub(t) > 2*skew {
				delete(g.seen, k)
			}
		}
		g.last = now
	}
	if _, ok := g.seen[id]; ok {
		return false
	}
	g.seen[id] = now
	return true
}

// rateLimits holds a token bucket per user (the design's §9.6, "no per-user rate limiting").
type rateLimits struct {
	mu     sync.Mutex
	perMin int
	users  map[string]*userLimit
	last   time.Time
}

type userLimit struct {
	l    *rate.Limiter
	used time.Time
}

func newRateLimits(perMin int) *rateLimits {
	return &rateLimits{perMin: perMin, users: map[string]*userLimit{}}
}

func (r *rateLimits) allow(user string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if now.Sub(r.last) > time.Minute {
		for k, u := range r.users {
			if now.Sub(u.used) > time.Minute { // (its bucket is full again)
				delete(r.users, k)
			}
		}
		r.last = now
	}
	u := r.users[user]
	if u == nil {
		u = &userLimit{l: rate.NewLimiter(rate.Limit(float64(r.perMin)/60), r.perMin)}
		r.users[user] = u
	}
	u.used = now
	return u.l.AllowN(now, 1)
}
