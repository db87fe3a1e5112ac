package policy

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestParseHost(t *testing.T) {
	for _, c := range []struct{ in, name, ip string }{
		{"Example.COM.", "example.com", ""},
		{"127.0.0.1", "", "127.0.0.1"},
		{"2130706433", "", "127.0.0.1"},
		{"0x7f000001", "", "127.0.0.1"},
		{"0177.0.0.1", "", "127.0.0.1"},
		{"0x7f.1", "", "127.0.0.1"},
		{"127.1", "", "127.0.0.1"},
		{"10.1.65535", "", "10.1.255.255"},
		{"0", "", "0.0.0.0"},
		{"[::ffff:127.0.0.1]", "", "::ffff:127.0.0.1"},
		{"[::1]", "", "::1"},
		{"1.2.3.4.example", "1.2.3.4.example", ""},
		{"xn--nxasmq6b.example", "xn--nxasmq6b.example", ""},
	} {
		name, ip, err := ParseHost(c.in)
		if err != nil || name != c.name || (c.ip != "" && ip != netip.MustParseAddr(c.ip)) || (c.ip == "" && ip.IsValid()) {
			t.Errorf("ParseHost(%q) = %q %v %v; want %q %s", c.in, name, ip, err, c.name, c.ip)
		}
	}
	for _, bad := range []string{"1.2.3.256", "256.0.0.1", "0x100000000", "1.2.3.4.5", "08.0.0.1", "[fe80::1%25eth0]", "[1.2.3.4]", "a b", "", "a@b", "0x", "1..2"} {
		if _, _, err := ParseHost(bad); err == nil {
			t.Errorf("ParseHost(%q): no error", bad)
		}
	}
}

func TestSpecial(t *testing.T) {
	for _, ip := range []string{"127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1",
		"0.0.0.0", "255.255.255.255", "224.0.0.1", "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254",
		"::ffff:127.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "2001::1", "ff02::1"} {
		if Special(netip.MustParseAddr(ip)) == "" {
			t.Errorf("%s: taken for public", ip)
		}
	}
	for _, ip := range []string{"8.8.8.8", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"} {
		if w := Special(netip.MustParseAddr(ip)); w != "" {
			t.Errorf("%s: %s", ip, w)
		}
	}
}

func compile(t *testing.T, n Network) *Compiled {
	t.Helper()
	c, err := n.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// check runs a request through the rules and, when allowed, through the
// address it would connect to.
func check(c *Compiled, method, rawURL, addr string) error {
	r, err := ParseRequest(method, rawURL)
	if err != nil {
		return err
	}
	d, err := c.Check(r)
	if err != nil {
		return err
	}
	return d.CheckAddr(netip.MustParseAddr(addr))
}

func TestRules(t *testing.T) {
	c := compile(t, Network{
		Allow: []Rule{
			{URL: "https://api.example.com/v1"},
			{URL: "https://*.cdn.example.net/"},
			{URL: "http://upload.example.org/in/", Methods: []string{"post", "PUT"}},
			{URL: "http://127.0.0.1:8080/"},
			{CIDR: "10.9.0.0/16"},
		},
		Deny: []Rule{{URL: "https://api.example.com/v1/admin"}, {CIDR: "10.9.9.0/24"}},
	})
	const pub = "93.184.216.34"
	for _, ok := range []struct{ m, u, addr string }{
		{"GET", "https://api.example.com/v1", pub},
		{"GET", "https://api.example.com/v1/users?id=1", pub},
		{"HEAD", "https://API.example.com.:443/v1/", pub},
		{"GET", "https://a.b.cdn.example.net/x.js", pub},
		{"POST", "http://upload.example.org/in/file", pub},
		{"GET", "http://127.0.0.1:8080/anything", "127.0.0.1"},
		{"GET", "http://2130706433:8080/", "127.0.0.1"},
		{"GET", "http://internal.corp:9000/", "10.9.1.2"},
		{"GET", "https://api.example.com/v1//users", pub},
		{"GET", "https://api.example.com/v1/administrators", pub}, // not below the deny rule
		{"GET", "https://api.example.com/v1/my%20file", pub},
	} {
		if err := check(c, ok.m, ok.u, ok.addr); err != nil {
			t.Errorf("%s %s (%s): %v", ok.m, ok.u, ok.addr, err)
		}
	}
	for _, no := range []struct{ m, u, addr, want string }{
		{"GET", "https://api.example.com/v10", pub, "no rule"},
		{"GET", "http://api.example.com/v1", pub, "no rule"},              // scheme
		{"GET", "https://api.example.com:8443/v1", pub, "no rule"},        // port
		{"POST", "https://api.example.com/v1", pub, "no rule"},            // method
		{"GET", "https://api.example.com/v1/admin", pub, "denied"},        // deny wins
		{"GET", "https://api.example.com/v1/admin/x", pub, "denied"},      //
		{"GET", "https://api.example.com/v1/%61dmin", pub, "denied"},      // an escaped letter
		{"GET", "https://api.example.com/v1/..%2fadmin", pub, "denied"},   // encoded slash
		{"GET", "https://api.example.com/v1/../admin", pub, "denied"},     // dot segment
		{"GET", "https://api.example.com/v1;x=1", pub, "denied"},          // parameter
		{"GET", "https://api.example.com/v1%5cadmin", pub, "denied"},      // encoded backslash
		{"GET", "https://api.example.com/v1//admin", pub, "denied"},       // repeated slashes
		{"GET", "https://api.example.com//v1///admin/", pub, "denied"},    //
		{"GET", "https://api.example.com/v1/Admin", pub, "denied"},        // case
		{"GET", "https://api.example.com/V1/ADMIN", pub, "denied"},        //
		{"GET", "https://api.example.com/v1/admin%20", pub, "denied"},     // trailing space
		{"GET", "https://api.example.com/v1/admin%09/x", pub, "denied"},   // tab
		{"GET", "https://api.example.com/v1/admin.", pub, "denied"},       // trailing dot
		{"GET", "https://api.example.com/v1/admin%2E", pub, "denied"},     // encoded dot
		{"GET", "https://api.example.com/v1/ad%6Din%20.", pub, "denied"},  //
		{"GET", "https://cdn.example.net/x.js", pub, "no rule"},           // the wildcard's own name
		{"GET", "https://evilcdn.example.net/x.js", pub, "no rule"},       // not below it
		{"GET", "https://api.example.com@evil.com/v1", pub, "no rule"},    // userinfo trick
		{"GET", "https://api.example.com/v1", "127.0.0.1", "loopback"},    // rebinding to loopback
		{"GET", "https://api.example.com/v1", "169.254.169.254", "metad"}, // metadata
		{"GET", "https://api.example.com/v1", "::ffff:10.0.0.1", "private"},
		{"GET", "https://api.example.com/v1", "fd00::1", "unique local"},
		{"GET", "http://127.0.0.2:8080/", "127.0.0.2", "no rule"},
		{"GET", "http://0x7f.0.0.2:8080/", "127.0.0.2", "no rule"},
		{"GET", "http://internal.corp:9000/", "10.8.1.2", "no rule allows GET http://internal.corp:9000/ (address 10.8.1.2)"},
		{"GET", "http://internal.corp:9000/", "10.9.9.9", "denied"},
		{"GET", "ftp://api.example.com/v1", pub, "scheme"},
		{"GET", "https://1.2.3.256/v1", pub, "ambiguous"},
		{"GET", "file:///etc/passwd", pub, "scheme"},
	} {
		err := check(c, no.m, no.u, no.addr)
		var d *Denied
		if !errors.As(err, &d) || !strings.Contains(err.Error(), no.want) {
			t.Errorf("%s %s (%s): %v, want a refusal mentioning %q", no.m, no.u, no.addr, err, no.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, bad := range []Network{
		{Allow: []Rule{{}}},
		{Allow: []Rule{{URL: "ftp://x/"}}},
		{Allow: []Rule{{URL: "https://x/", CIDR: "10.0.0.0/8"}}},
		{Allow: []Rule{{CIDR: "10.0.0.0/33"}}},
		{Allow: []Rule{{URL: "https://u:p@x/"}}},
		{Allow: []Rule{{URL: "https://x/a/../b"}}},
		{Allow: []Rule{{URL: "https://x:99999/"}}},
		{Deny: []Rule{{URL: "https://*.1.2.3.4/"}}},
		{Allow: []Rule{{URL: "https://x/", Methods: []string{"GET POST"}}}},
	} {
		if _, err := bad.Compile(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestControlDial: the check runs on the address actually dialled, so a
// name that resolves to loopback is refused even though its rule allows
// the name, and a rule naming the address reaches a server this test
// starts on 127.0.0.1.
func TestControlDial(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	get := func(c *Compiled, rawURL string) error {
		r, err := ParseRequest("GET", rawURL)
		if err != nil {
			return err
		}
		d, err := c.Check(r)
		if err != nil {
			return err
		}
		dialer := &net.Dialer{Timeout: 2 * time.Second, Control: d.Control}
		tr := &http.Transport{
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				// "localhost" stands for a name whose DNS answer is loopback
				return dialer.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", r.URL.Port()))
			},
		}
		defer tr.CloseIdleConnections()
		res, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Get(rawURL)
		if err != nil {
			return err
		}
		res.Body.Close()
		return nil
	}
	u := "http://localhost:" + strconv.Itoa(port) + "/"
	byName := compile(t, Network{Allow: []Rule{{URL: u}}})
	var d *Denied
	if err := get(byName, u); !errors.As(err, &d) || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a name leading to loopback: %v", err)
	}
	lit := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
	if err := get(compile(t, Network{Allow: []Rule{{URL: lit}}}), lit); err != nil {
		t.Errorf("a rule naming 127.0.0.1: %v", err)
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{"https://api.example.com/v1", "http://0x7f.1:8080/", "http://[::ffff:127.0.0.1]/", "https://a@b/c;d", "http://1.2.3.256/", "http://%30/"} {
		f.Add("GET", s, "127.0.0.1")
	}
	c, err := Network{Allow: []Rule{{URL: "https://api.example.com/v1"}, {URL: "http://127.0.0.1:8080/"}, {CIDR: "10.0.0.0/8"}},
		Deny: []Rule{{URL: "https://api.example.com/v1/admin"}}}.Compile()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, rawURL, addr string) {
		r, err := ParseRequest(method, rawURL)
		if err != nil {
			return
		}
		d, err := c.Check(r)
		if err != nil {
			return
		}
		ip, err := netip.ParseAddr(addr)
		if err != nil {
			return
		}
		// whatever the URL's spelling, a special address needs a rule that names it
		if d.CheckAddr(ip) == nil && Special(ip) != "" && !namesAddr(d, ip) {
			t.Errorf("%s %q reached %s (%s) through rule %s", method, rawURL, ip, Special(ip), d.Rule)
		}
	})
}

// namesAddr: one of the decision's rules names ip or a CIDR holding it.
func namesAddr(d *Decision, ip netip.Addr) bool {
	ip = ip.WithZone("")
	for _, r := range d.rules {
		if (r.cidr.IsValid() && (r.cidr.Contains(ip) || r.cidr.Contains(ip.Unmap()))) || (r.addr.IsValid() && r.addr.Unmap() == ip.Unmap()) {
			return true
		}
	}
	return false
}

// refPath is a reference reading of a request path by the most forgiving
// server: every escape decoded, dot segments and repeated slashes resolved,
// any case, trailing spaces and dots of each segment dropped.
func refPath(escaped string) (string, bool) {
	p, err := url.PathUnescape(escaped)
	if err != nil {
		return "", false
	}
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.IndexByte(p, ';'); i >= 0 {
		p = p[:i]
	}
	p = path.Clean("/" + strings.ToLower(p))
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = strings.TrimRight(seg, " \t\r\n\v\f.")
	}
	return path.Clean(strings.Join(segs, "/")), true
}

// FuzzDenyRespelling: whatever the spelling of a path, when the reference
// reading puts it under a deny rule's path, the request is refused.
func FuzzDenyRespelling(f *testing.F) {
	for _, s := range []string{"/v1/admin", "/v1//admin", "/v1/Admin", "/v1/admin%20", "/v1/%61dmin", "/v1/./admin",
		"/v1/x/../admin", "/v1/admin.", "/v1/ADMIN%2e", "/v1/adm%69n/", "/v1%2fadmin", "/v1\\admin", "/v1/admin;x"} {
		f.Add(s)
	}
	c, err := Network{
		Allow: []Rule{{URL: "https://api.example.com/"}},
		Deny:  []Rule{{URL: "https://api.example.com/v1/admin"}},
	}.Compile()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		u := "https://api.example.com" + p
		pu, err := url.Parse(u)
		if err != nil || pu.RawQuery != "" || pu.Fragment != "" || pu.Host != "api.example.com" {
			return
		}
		ref, ok := refPath(pu.EscapedPath())
		if !ok || (ref != "/v1/admin" && !strings.HasPrefix(ref, "/v1/admin/")) {
			return
		}
		r, err := ParseRequest("GET", u)
		if err != nil {
			return // refused
		}
		if _, err := c.Check(r); err == nil {
			t.Fatalf("%q reads as %q under the deny rule, yet was allowed", p, ref)
		}
	})
}

func TestSpecialWithin(t *testing.T) {
	op := Network{Allow: []Rule{{CIDR: "10.1.0.0/16"}, {URL: "http://127.0.0.1:9000/"}, {URL: "https://api.example.com/"}}}
	for _, ok := range []Rule{
		{URL: "https://example.org/"}, {URL: "http://10.1.2.3/"}, {CIDR: "10.1.5.0/24"},
		{URL: "http://127.0.0.1:9000/x"}, {CIDR: "93.184.216.0/24"},
	} {
		assert.NoError(t, Network{Allow: []Rule{ok}}.SpecialWithin(op), "%+v", ok)
	}
	for _, no := range []Rule{
		{URL: "http://127.0.0.2/"}, {URL: "http://0x7f.0.0.1/"}, {URL: "http://127.0.0.1:8080/"}, {CIDR: "127.0.0.1"}, {URL: "http://[::1]/"}, {URL: "http://[::ffff:10.2.0.1]/"},
		{CIDR: "10.0.0.0/8"}, {CIDR: "0.0.0.0/0"}, {CIDR: "::/0"}, {CIDR: "169.254.169.254"}, {CIDR: "64:ff9b::/96"},
		{URL: "http://192.168.1.1/"}, {CIDR: "100.64.0.0/10"},
	} {
		assert.Error(t, Network{Allow: []Rule{no}}.SpecialWithin(op), "%+v", no)
		assert.Error(t, Network{Allow: []Rule{no}}.SpecialWithin(Network{}), "%+v", no)
	}
}
