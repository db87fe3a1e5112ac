package policy

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Rule allows (or, among Deny, refuses) requests.
type Rule struct {
	// URL is a prefix: scheme://host[:port][/path]. The host may be a name,
	// "*.name" (any name below it, not the name itself), or an IP
	// literal; the path matches on a segment boundary ("/v1" takes /v1
	// and /v1/x, not /v10).
	URL string `yaml:"url,omitempty" json:"url,omitempty"`
	// CIDR, instead of URL, takes any request whose address is in it.
	CIDR string `yaml:"cidr,omitempty" json:"cidr,omitempty"`
	// Methods it takes; default GET and HEAD.
	Methods []string `yaml:"methods,omitempty" json:"methods,omitempty"`
}

// Network is what the sandbox may reach: nothing unless a rule allows it,
// and never what a Deny rule matches.
type Network struct {
	Allow []Rule `yaml:"allow,omitempty" json:"allow,omitempty"`
	Deny  []Rule `yaml:"deny,omitempty" json:"deny,omitempty"`
}

// rule is a Rule parsed.
type rule struct {
	src      string
	scheme   string
	name     string // host name, or "*.suffix" as ".suffix"; "" for an address
	addr     netip.Addr
	cidr     netip.Prefix
	port     int
	path     string // "" or "/..." without a trailing slash
	anyPath  bool
	methods  []string
	wildcard bool
}

// Compiled is a Network ready to check requests.
type Compiled struct {
	allow, deny []rule
}

// Compile checks the rules; an error names the rule.
func (n Network) Compile() (*Compiled, error) {
	c := &Compiled{}
	for i, r := range n.Allow {
		cr, err := compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("network.allow[%d]: %w", i, err)
		}
		c.allow = append(c.allow, cr)
	}
	for i, r := range n.Deny {
		cr, err := compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("network.deny[%d]: %w", i, err)
		}
		c.deny = append(c.deny, cr)
	}
	return c, nil
}

func compileRule(r Rule) (rule, error) {
	var cr rule // (methods nil: GET and HEAD to allow, any to deny)
	if len(r.Methods) > 0 {
		for _, m := range r.Methods {
			m = strings.ToUpper(strings.TrimSpace(m))
			if m == "" || strings.ContainsAny(m, " \t/") {
				return cr, fmt.Errorf("bad method %q", m)
			}
			cr.methods = append(cr.methods, m)
		}
	}
	switch {
	case r.CIDR != "" && r.URL != "":
		return cr, fmt.Errorf("a rule has url or cidr, not both")
	case r.CIDR != "":
		p, err := netip.ParsePrefix(r.CIDR)
		if err != nil {
			a, err2 := netip.ParseAddr(r.CIDR)
			if err2 != nil {
				return cr, fmt.Errorf("cidr %q: %v", r.CIDR, err)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		cr.src, cr.cidr, cr.anyPath = "cidr "+r.CIDR, p.Masked(), true
		return cr, nil
	case r.URL == "":
		return cr, fmt.Errorf("a rule needs url or cidr")
	}
	cr.src = r.URL
	u, err := url.Parse(r.URL)
	if err != nil {
		return cr, fmt.Errorf("url %q: %v", r.URL, err)
	}
	cr.scheme = strings.ToLower(u.Scheme)
	if cr.scheme != "http" && cr.scheme != "https" {
		return cr, fmt.Errorf("url %q: scheme must be http or https", r.URL)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return cr, fmt.Errorf("url %q: a prefix has no user, query or fragment", r.URL)
	}
	host := u.Hostname()
	if strings.HasPrefix(host, "*.") {
		cr.wildcard = true
		host = host[2:]
	}
	h := host
	if strings.Contains(host, ":") {
		h = "[" + host + "]"
	}
	name, addr, err := ParseHost(h)
	if err != nil || (cr.wildcard && name == "") {
		return cr, fmt.Errorf("url %q: bad host", r.URL)
	}
	cr.name, cr.addr = name, addr
	cr.port = defaultPort(cr.scheme)
	if p := u.Port(); p != "" {
		if cr.port, err = strconv.Atoi(p); err != nil || cr.port <= 0 || cr.port > 65535 {
			return cr, fmt.Errorf("url %q: bad port", r.URL)
		}
	}
	p := u.EscapedPath()
	if ambiguousPath(p) {
		return cr, fmt.Errorf("url %q: ambiguous path", r.URL)
	}
	cr.path = strings.TrimSuffix(normalizePath(p), "/")
	cr.anyPath = cr.path == ""
	return cr, nil
}

func defaultPort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}

// ambiguousPath: encodings that servers read differently (an encoded
// slash, backslash or dot, a ";" parameter) and dot segments.
func ambiguousPath(p string) bool {
	l := strings.ToLower(p)
	if strings.Contains(l, "%2f") || strings.Contains(l, "%5c") || strings.Contains(l, "%2e") ||
		strings.Contains(l, "%00") || strings.ContainsAny(p, ";\\") {
		return true
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// normalizePath decodes the escapes of unreserved characters ("%61" is
// "a", as every server reads it), writes the others in upper case and
// makes repeated slashes one, as most servers read them, so that one path
// has one spelling (RFC 3986 6.2.2).
func normalizePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '/' && i > 0 && p[i-1] == '/' {
			continue
		}
		if p[i] == '%' && i+2 < len(p) {
			if v, err := strconv.ParseUint(p[i+1:i+3], 16, 8); err == nil {
				c := byte(v)
				if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '~' {
					b.WriteByte(c)
				} else {
					b.WriteString("%" + strings.ToUpper(p[i+1:i+3]))
				}
				i += 2
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// Request is one request's target, parsed.
type Request struct {
	Method string
	URL    *url.URL
	Name   string     // host name, or ""
	Addr   netip.Addr // the host when it is an address literal
	Port   int
}

// Decision is an allowed request: which rule allowed it, and so which
// addresses it may connect to (see CheckAddr).
type Decision struct {
	Rule  string // the rule's url or cidr, for events (the first candidate)
	rules []rule // the allow rules that matched: the address must suit one
	req   *Request
	c     *Compiled
}

// Denied is a refused request or address; Rule names the deny rule that
// matched, if one did.
type Denied struct {
	Reason string
	Rule   string
}

func (d *Denied) Error() string { return d.Reason }

// ParseRequest reads a request's method and URL; a URL the rules cannot
// judge safely (another scheme, an ambiguous host or path) is Denied.
func ParseRequest(method, rawURL string) (*Request, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &Denied{Reason: "bad URL: " + err.Error()}
	}
	r := &Request{Method: strings.ToUpper(method), URL: u}
	if r.Method == "" {
		r.Method = "GET"
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return nil, &Denied{Reason: fmt.Sprintf("scheme %q is not allowed (http and https only)", u.Scheme)}
	}
	host := u.Host
	if i := strings.LastIndex(host, ":"); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	if r.Name, r.Addr, err = ParseHost(host); err != nil {
		return nil, &Denied{Reason: fmt.Sprintf("host %q is ambiguous", u.Host)}
	}
	r.Port = defaultPort(scheme)
	if p := u.Port(); p != "" {
		if r.Port, err = strconv.Atoi(p); err != nil || r.Port <= 0 || r.Port > 65535 {
			return nil, &Denied{Reason: fmt.Sprintf("port %q is not a port", p)}
		}
	}
	return r, nil
}

// Check decides a request before its host is resolved: a deny rule wins,
// then the first allow rule that matches; no rule is a refusal.
func (c *Compiled) Check(r *Request) (*Decision, error) {
	for _, d := range c.deny {
		if d.matches(r, true) {
			return nil, &Denied{Reason: "denied by rule " + d.src, Rule: d.src}
		}
	}
	d := &Decision{req: r, c: c}
	for _, a := range c.allow {
		if a.matches(r, false) {
			d.rules = append(d.rules, a)
		}
	}
	if len(d.rules) == 0 {
		return nil, &Denied{Reason: fmt.Sprintf("no rule allows %s %s", r.Method, redact(r.URL))}
	}
	d.Rule = d.rules[0].src
	return d, nil
}

// matches: without methods, an allow rule takes GET and HEAD, a deny rule
// any method.
func (ru rule) matches(r *Request, deny bool) bool {
	switch {
	case ru.methods != nil:
		if !slices.Contains(ru.methods, r.Method) {
			return false
		}
	case !deny:
		if r.Method != "GET" && r.Method != "HEAD" {
			return false
		}
	}
	if ru.cidr.IsValid() {
		// a CIDR rule judges the address; for a name, CheckAddr does
		// (a deny rule then, an allow rule by what the name leads to)
		if !r.Addr.IsValid() {
			return !deny
		}
		return ru.cidr.Contains(r.Addr) || ru.cidr.Contains(r.Addr.Unmap())
	}
	if strings.ToLower(r.URL.Scheme) != ru.scheme || r.Port != ru.port {
		return false
	}
	switch {
	case ru.addr.IsValid():
		if !r.Addr.IsValid() || r.Addr.Unmap() != ru.addr.Unmap() {
			return false
		}
	case ru.wildcard:
		if r.Name == "" || !strings.HasSuffix(r.Name, "."+ru.name) {
			return false
		}
	default:
		if r.Name != ru.name {
			return false
		}
	}
	if ru.anyPath {
		return true
	}
	p := r.URL.EscapedPath()
	if ambiguousPath(p) {
		return deny // a deny rule refuses what it cannot judge
	}
	p, rp := normalizePath(p), ru.path
	if deny {
		// a deny rule takes every spelling a server might read as its path
		p, rp = loosePath(p), loosePath(rp)
	}
	return p == rp || strings.HasPrefix(p, rp+"/")
}

// loosePath is a path as the most forgiving server reads it, for deny
// rules: any case, and each segment without trailing spaces, tabs, line
// ends or dots ("/v1/Admin%20" and "/v1/admin." are "/v1/admin"), and
// without empty segments.
func loosePath(p string) string {
	var out []string
	for _, seg := range strings.Split(strings.ToLower(p), "/") {
		for {
			t := strings.TrimRight(seg, ". ")
			for _, ws := range []string{"%20", "%09", "%0a", "%0b", "%0c", "%0d"} {
				t = strings.TrimSuffix(t, ws)
			}
			if t == seg {
				break
			}
			seg = t
		}
		if seg != "" { // (a segment of spaces alone is gone too)
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

// CheckAddr checks the address a request is about to connect to (after
// DNS, for every redirect hop too): a special address (loopback, private,
// link-local, ...) only when the allowing rule names that very address or
// a CIDR holding it; never one a deny CIDR holds.
func (d *Decision) CheckAddr(ip netip.Addr) error {
	ip = ip.WithZone("")
	for _, dr := range d.c.deny {
		if dr.cidr.IsValid() && (dr.cidr.Contains(ip) || dr.cidr.Contains(ip.Unmap())) {
			return &Denied{Reason: fmt.Sprintf("address %s is denied by rule %s", ip, dr.src), Rule: dr.src}
		}
	}
	why := ""
	for _, ru := range d.rules {
		switch {
		case ru.cidr.IsValid():
			if ru.cidr.Contains(ip) || ru.cidr.Contains(ip.Unmap()) {
				d.Rule = ru.src
				return nil
			}
		case ru.addr.IsValid() && ru.addr.Unmap() == ip.Unmap():
			d.Rule = ru.src
			return nil
		default:
			if why = Special(ip); why == "" {
				d.Rule = ru.src
				return nil
			}
		}
	}
	if why != "" {
		return &Denied{Reason: fmt.Sprintf("address %s is %s: only a rule naming it can reach it", ip, why)}
	}
	return &Denied{Reason: fmt.Sprintf("no rule allows %s %s (address %s)", d.req.Method, redact(d.req.URL), ip)}
}

// Control is for net.Dialer.Control: it checks the address actually
// dialled, after resolution, so a name that resolves differently later
// (DNS rebinding) is still judged by where it leads.
func (d *Decision) Control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return &Denied{Reason: "bad address " + address}
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return &Denied{Reason: "bad address " + address}
	}
	return d.CheckAddr(ip)
}

// redact leaves a URL's user information and query out of messages.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	c.Fragment = ""
	return c.String()
}
