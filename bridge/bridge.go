// Package bridge makes the HTTP requests a sandbox asks for, under its
// network policy: the one way out of a sandbox. Guests never see a socket;
// curl, wget and python reach the network through a Client, which checks
// every request and every redirect hop against the rules (policy) and
// the address each connection actually goes to, and keeps the sandbox's
// budgets. Natively it uses net/http with the host's resolver and no
// proxy from the host's environment.
package bridge

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/policy"
)

// Budget bounds what a sandbox may use of the network; zero values take
// the defaults.
type Budget struct {
	MaxRequests      int           // per sandbox; default 1000
	MaxBytes         int64         // response bytes per sandbox; default 256 MiB
	MaxResponseBytes int64         // per response; default 64 MiB
	RequestTimeout   time.Duration // per request, redirects included; default 30 s
	MaxRedirects     int           // default 10
}

// WithDefaults is b with its zero values replaced by the defaults.
func (b Budget) WithDefaults() Budget {
	b.withDefaults()
	return b
}

func (b *Budget) withDefaults() {
	if b.MaxRequests <= 0 {
		b.MaxRequests = 1000
	}
	if b.MaxBytes <= 0 {
		b.MaxBytes = 256 << 20
	}
	if b.MaxResponseBytes <= 0 {
		b.MaxResponseBytes = 64 << 20
	}
	if b.RequestTimeout <= 0 {
		b.RequestTimeout = 30 * time.Second
	}
	if b.MaxRedirects <= 0 {
		b.MaxRedirects = 10
	}
}

// Client makes a sandbox's requests. It is safe for concurrent use.
type Client struct {
	rules   *policy.Compiled
	budget  Budget
	secrets []Secret
	formsMu sync.Mutex
	forms   []form // every spelling redaction replaces, longest first

	mu        sync.Mutex
	requests  int
	bytes     int64
	observe   func(Info)
	transport Transport
}

// Info is one request the bridge made or refused, for Observe: its URL
// without user information, the rule that allowed it or why not, the
// answer's status and the bytes read from it.
type Info struct {
	Method, URL  string
	Allowed      bool
	Rule, Reason string
	Status       int
	Bytes        int64
	Duration     time.Duration
}

// Observe sets a function told of every request (every hop of a
// redirect), as it ends; it must not block.
func (c *Client) Observe(f func(Info)) { c.observe = f }

func (c *Client) tell(i Info) {
	if c.observe == nil {
		return
	}
	i.URL = c.redact(Redact(i.URL))
	i.Reason = c.redact(i.Reason)
	defer func() { _ = recover() }()
	c.observe(i)
}

// New compiles the rules; nil rules allow nothing. Secrets are values the
// sandbox may use but never see (see Secret).
func New(n policy.Network, b Budget, secrets ...Secret) (*Client, error) {
	c, err := n.Compile()
	if err != nil {
		return nil, err
	}
	for _, s := range secrets {
		if len(s.Value) < 8 {
			return nil, fmt.Errorf("secret %s: a value shorter than 8 bytes cannot be told apart in what it would be redacted from", s.Name)
		}
	}
	b.withDefaults()
	cl := &Client{rules: c, budget: b, secrets: secrets}
	for _, s := range secrets {
		cl.addForms(s.Value)
	}
	return cl, nil
}

// Request is what a sandbox asks for.
type Request struct {
	Method string
	URL    string
	Header Header
	Body   []byte
	// FollowRedirects follows 3xx answers (each hop checked); otherwise the
	// 3xx answer is the response.
	FollowRedirects bool
	// Timeout, when shorter than the budget's, bounds this request.
	Timeout time.Duration
	// User and Password, when User is set, are sent as basic
	// authentication (encoded here, after placeholders are replaced).
	User, Password string
}

// Response is the answer, its body limited to the budget.
type Response struct {
	Status     int
	StatusText string // "200 OK"
	Proto      string
	Header     Header
	URL        string // the last hop's
	Body       io.ReadCloser
	Redirects  int
}

// basicAuthKey carries Request.User and Password between hops (never sent
// as such: a header name cannot hold a space).
const basicAuthKey = "Basic auth"

// Error kinds a tool reports in its own words (see errors.As).
var (
	ErrDenied   = errors.New("denied by the network policy")
	ErrBudget   = errors.New("network budget exhausted")
	ErrTimeout  = errors.New("request timed out")
	ErrResolve  = errors.New("could not resolve host")
	ErrConnect  = errors.New("could not connect")
	ErrTooLarge = errors.New("response too large")
	ErrRedirect = errors.New("too many redirects")
)

// Error is a failed request: Kind is one of the Err values, Msg says more.
type Error struct {
	Kind error
	Msg  string
	Rule string // for ErrDenied: the deny rule, if one matched
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// Do makes the request. A refusal, a spent budget, a DNS or connection
// failure and a timeout are *Error; an HTTP error status is a Response.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	timeout := c.budget.RequestTimeout
	if r.Timeout > 0 && r.Timeout < timeout {
		timeout = r.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	method := strings.ToUpper(r.Method)
	if method == "" {
		method = "GET"
	}
	target := r.URL
	body := r.Body
	header := r.Header.Clone()
	if header == nil {
		header = Header{}
	}
	if r.User != "" {
		header.Set(basicAuthKey, r.User+"\x00"+r.Password)
	}
	for hop := 0; ; hop++ {
		res, err := c.once(ctx, method, target, header, body)
		if err != nil {
			cancel()
			if ctx.Err() == context.DeadlineExceeded {
				return nil, &Error{Kind: ErrTimeout, Msg: fmt.Sprintf("timed out after %v", timeout)}
			}
			return nil, err
		}
		loc := res.Header.Get("Location")
		if !r.FollowRedirects || loc == "" || res.StatusCode < 300 || res.StatusCode > 399 || res.StatusCode == 304 {
			return c.response(res, hop, cancel), nil
		}
		res.Body.Close()
		if hop >= c.budget.MaxRedirects {
			cancel()
			return nil, &Error{Kind: ErrRedirect, Msg: fmt.Sprintf("maximum (%d) redirects followed", c.budget.MaxRedirects)}
		}
		next, err := res.URL.Parse(loc)
		if err != nil {
			cancel()
			return nil, &Error{Kind: ErrConnect, Msg: "bad redirect location: " + err.Error()}
		}
		if next.Host != res.URL.Host {
			header.Del("Authorization") // (credentials stay with their host)
			header.Del(basicAuthKey)
			header.Del("Cookie")
		}
		// 301/302/303 turn a POST into a GET, as curl -L and browsers do
		if res.StatusCode == 303 || ((res.StatusCode == 301 || res.StatusCode == 302) && method == "POST") {
			method, body = "GET", nil
		}
		target = next.String()
	}
}

// once makes one hop and tells the observer of it (when its body is
// closed, for an answer).
func (c *Client) once(ctx context.Context, method, target string, header Header, body []byte) (*HopResponse, error) {
	start := time.Now()
	res, rule, err := c.hop(ctx, method, target, header, body)
	if err != nil {
		var e *Error
		allowed := errors.As(err, &e) && e.Kind != ErrDenied && e.Kind != ErrBudget
		c.tell(Info{Method: method, URL: target, Allowed: allowed, Rule: rule, Reason: err.Error(), Duration: time.Since(start)})
		return nil, err
	}
	res.Body = &counted{ReadCloser: res.Body, done: func(n int64) {
		c.tell(Info{Method: method, URL: target, Allowed: true, Rule: rule, Status: res.StatusCode, Bytes: n, Duration: time.Since(start)})
	}}
	return res, nil
}

// counted tells how many bytes were read from a body when it is closed.
type counted struct {
	io.ReadCloser
	n    int64
	done func(int64)
	once sync.Once
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *counted) Close() error {
	err := c.ReadCloser.Close()
	c.once.Do(func() { c.done(c.n) })
	return err
}

// hop makes one hop: the rules judge the URL, the dialer the address.
func (c *Client) hop(ctx context.Context, method, target string, header Header, body []byte) (*HopResponse, string, error) {
	preq, err := policy.ParseRequest(method, target)
	if err != nil {
		return nil, "", denied(err)
	}
	d, err := c.rules.Check(preq)
	if err != nil {
		var dn *policy.Denied
		if errors.As(err, &dn) {
			return nil, dn.Rule, denied(err)
		}
		return nil, "", denied(err)
	}
	host := preq.Name
	if host == "" {
		host = preq.Addr.String()
	}
	header, target, body, sent, err := c.withSecrets(header, target, body, host)
	if err != nil {
		return nil, d.Rule, err
	}
	u := preq.URL
	if target != preq.URL.String() { // (a secret in the URL, escaped: the same parts)
		if u, err = url.Parse(target); err != nil {
			return nil, d.Rule, &Error{Kind: ErrDenied, Msg: "bad URL"}
		}
	}
	c.mu.Lock()
	if c.requests >= c.budget.MaxRequests {
		c.mu.Unlock()
		return nil, d.Rule, &Error{Kind: ErrBudget, Msg: fmt.Sprintf("the sandbox's %d requests are spent", c.budget.MaxRequests)}
	}
	c.requests++
	c.mu.Unlock()
	out := &Hop{Ctx: ctx, Method: method, URL: u, Header: Header{}, Body: body}
	for k, v := range header {
		if k == basicAuthKey {
			user, pass, _ := strings.Cut(v[0], "\x00")
			out.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+pass)))
			continue
		}
		if k == "Host" {
			continue // (the host is the URL's, which the rules judged)
		}
		out.Header[k] = v
	}
	if out.Header.Get("User-Agent") == "" {
		out.Header.Set("User-Agent", "wasmsand")
	}
	if sent {
		// an answer must come back as text redaction can read, whatever
		// the guest asked for
		out.Header.Set("Accept-Encoding", "identity")
	}
	if preq.Name == "" {
		// an address as written: judged before any platform connects to it
		if err := d.CheckAddr(preq.Addr); err != nil {
			return nil, d.Rule, denied(err)
		}
	}
	t := c.transport
	if t == nil {
		t = defaultTransport(c.budget)
	}
	res, err := t.RoundTrip(out, d)
	if err != nil {
		err = classify(err, preq)
		if e, ok := err.(*Error); ok {
			e.Msg = c.redact(e.Msg)
		}
		return nil, d.Rule, err
	}
	if res.URL == nil {
		res.URL = out.URL
	} else if res.URL.String() != out.URL.String() {
		// a transport that cannot stop at a redirect (a browser's) went on:
		// its answer counts only if the rules allow where it ended
		if err := c.allowedEnd(method, res.URL.String()); err != nil {
			res.Body.Close()
			return nil, d.Rule, err
		}
	}
	if sent {
		if err := decodeBody(res); err != nil {
			res.Body.Close()
			return nil, d.Rule, &Error{Kind: ErrDenied, Msg: c.redact(err.Error())}
		}
	}
	// what comes back is the sandbox's: no secret in it
	for k, vs := range res.Header {
		for i, v := range vs {
			vs[i] = c.redact(v)
		}
		res.Header[k] = vs
	}
	res.Body = c.redactBody(res.Body)
	return res, d.Rule, nil
}

// Transport makes one HTTP exchange (no redirects followed). Natively the
// bridge dials with net/http and checks the address each connection goes
// to (d.Control); a platform without sockets (the JS build) supplies its
// own, which passes every address it is about to connect to through
// d.CheckAddr where it can know it (Node can; a browser cannot).
type Transport interface {
	RoundTrip(h *Hop, d *policy.Decision) (*HopResponse, error)
}

// Hop is one exchange for a Transport to make, the rules already passed
// and the secrets in its header.
type Hop struct {
	Ctx    context.Context // its deadline is the request's
	Method string
	URL    *url.URL
	Header Header
	Body   []byte // nil: none
}

// HopResponse is a Transport's answer. URL is where it ended when the
// transport followed redirects itself (a browser's must), else nil.
type HopResponse struct {
	StatusCode int
	Status     string // "200 OK"
	Proto      string
	Header     Header
	Body       io.ReadCloser
	URL        *url.URL
	// Decoded says the platform already undid Content-Encoding (a
	// browser's fetch always does), though the header still names it.
	Decoded bool
}

// SetTransport replaces net/http for this client's requests; the rules,
// budgets, secrets and redirects stay the bridge's. Without one the JS
// build has no network.
func (c *Client) SetTransport(t Transport) { c.transport = t }

// allowedEnd judges the URL a transport's own redirects ended at.
func (c *Client) allowedEnd(method, target string) error {
	preq, err := policy.ParseRequest(method, target)
	if err == nil {
		_, err = c.rules.Check(preq)
	}
	if err != nil {
		return denied(err)
	}
	return nil
}

func denied(err error) error {
	var d *policy.Denied
	if errors.As(err, &d) {
		return &Error{Kind: ErrDenied, Msg: d.Reason, Rule: d.Rule}
	}
	return &Error{Kind: ErrDenied, Msg: err.Error()}
}

// classify turns a transport error into an Error.
func classify(err error, r *policy.Request) error {
	var d *policy.Denied
	if errors.As(err, &d) {
		return &Error{Kind: ErrDenied, Msg: d.Reason, Rule: d.Rule}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &Error{Kind: ErrResolve, Msg: "could not resolve host: " + dns.Name}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Kind: ErrTimeout, Msg: "timed out"}
	}
	host := r.Name
	if host == "" {
		host = r.Addr.String()
	}
	return &Error{Kind: ErrConnect, Msg: fmt.Sprintf("failed to connect to %s port %d: %v", host, r.Port, unwrapOp(err))}
}

// unwrapOp keeps the last words of a net error ("connection refused").
func unwrapOp(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

func (c *Client) response(res *HopResponse, hops int, cancel func()) *Response {
	per := c.budget.MaxResponseBytes
	return &Response{
		Status: res.StatusCode, StatusText: res.Status, Proto: res.Proto, Header: res.Header,
		URL: res.URL.String(), Redirects: hops,
		Body: &limited{r: res.Body, c: c, left: per, cancel: cancel},
	}
}

// limited counts a body against the budgets and ends it past them.
type limited struct {
	r      io.ReadCloser
	c      *Client
	left   int64
	cancel func()
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &Error{Kind: ErrTooLarge, Msg: fmt.Sprintf("response larger than %d bytes", l.c.budget.MaxResponseBytes)}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	l.c.mu.Lock()
	l.c.bytes += int64(n)
	over := l.c.bytes > l.c.budget.MaxBytes
	l.c.mu.Unlock()
	if over {
		return n, &Error{Kind: ErrBudget, Msg: fmt.Sprintf("the sandbox's %d response bytes are spent", l.c.budget.MaxBytes)}
	}
	if err != nil && errors.Is(err, context.DeadlineExceeded) {
		return n, &Error{Kind: ErrTimeout, Msg: "timed out"}
	}
	return n, err
}

func (l *limited) Close() error {
	err := l.r.Close()
	l.cancel()
	return err
}

// Redact leaves a URL's user information out, for messages and events.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.User = nil
	return u.String()
}
