package curl_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/commands/curl"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

// server is the only thing these tests talk to: on 127.0.0.1, started here.
func server(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/hello.txt", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello\n") })
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		u, p, _ := r.BasicAuth()
		fmt.Fprintf(w, "%s %s %q %s:%s %s\n", r.Method, r.URL.RequestURI(), b, u, p, r.Header.Get("X-Test"))
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/hello.txt", http.StatusFound) })
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/to-localhost", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost"+r.Host[strings.LastIndex(r.Host, ":"):]+"/hello.txt", http.StatusFound)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("x", 1000)) })
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func sandbox(t *testing.T, n policy.Network, b bridge.Budget, secrets ...bridge.Secret) *core.Sandbox {
	t.Helper()
	c, err := bridge.New(n, b, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := core.New(context.Background(), core.Options{Commands: curl.Commands(c)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func run(t *testing.T, sb *core.Sandbox, script string) (string, string) {
	t.Helper()
	res, err := sb.Run(context.Background(), script, core.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return string(res.Stdout), string(res.Stderr)
}

func TestCurl(t *testing.T) {
	srv := server(t)
	base := srv.URL // http://127.0.0.1:PORT
	sb := sandbox(t, policy.Network{Allow: []policy.Rule{
		{URL: base + "/"},
		{URL: base + "/echo", Methods: []string{"GET", "POST", "PUT"}},
		{URL: "http://localhost" + base[strings.LastIndex(base, ":"):] + "/"},
	}}, bridge.Budget{})
	for _, c := range []struct{ script, out, errPart string }{
		{"curl -s " + base + "/hello.txt", "hello\n", ""},
		{"curl -sS -o h.txt -w '%{http_code} %{size_download}\\n' " + base + "/hello.txt; echo \"$(<h.txt)\"", "200 6\nhello\n", ""},
		{"curl -sO " + base + "/hello.txt && echo \"$(<hello.txt)\"", "hello\n", ""},
		{"curl -s -o /dev/null -w '%{http_code}' " + base + "/hello.txt", "200", ""},
		{"curl -sSf " + base + "/nope; echo $?", "22\n", "curl: (22) The requested URL returned error: 404"},
		{"curl -s " + base + "/nope -w '%{http_code}'", "404 page not found\n404", ""},
		{"curl -sL " + base + "/redirect", "hello\n", ""},
		{"curl -s -w '%{http_code}' " + base + "/redirect", "<a href=\"/hello.txt\">Found</a>.\n\n302", ""},
		{"curl -s -X POST -d a=1 -d b=2 -H 'X-Test: yes' -u me:pw " + base + "/echo", "POST /echo \"a=1&b=2\" me:pw yes\n", ""},
		{"curl -sG --data-urlencode 'q=a b' " + base + "/echo", "GET /echo?q=a+b \"\" : \n", ""},
		{"curl -sSX POST " + base + "/hello.txt; echo $?", "7\n", "blocked by the sandbox's network policy (no rule allows POST"},
		{"curl -sS http://example.com/; echo $?", "7\n", "curl: (7) Failed to connect to example.com port 80: blocked by the sandbox's network policy"},
		{"curl -s http://example.com/; echo $?", "7\n", ""},
		// a name the rules allow that resolves to loopback: refused at the address
		{"curl -sS http://localhost" + base[strings.LastIndex(base, ":"):] + "/hello.txt; echo $?", "7\n", "loopback: only a rule naming it can reach it"},
		// redirects are checked hop by hop
		{"curl -sSL " + base + "/to-metadata; echo $?", "7\n", "no rule allows GET http://169.254.169.254/latest/meta-data/"},
		{"curl -sSL " + base + "/to-localhost; echo $?", "7\n", "loopback"},
		{"curl -sS file:///etc/passwd; echo $?", "1\n", "curl: (1) Protocol \"file\" not supported or disabled in libcurl"},
		{"curl --bogus x; echo $?", "2\n", "curl: option --bogus: is unknown"},
		{"curl; echo $?", "2\n", "curl: no URL specified"},
		{"curl -sS -x http://proxy:1 " + base + "/; echo $?", "1\n", "proxies are not available"},
		{"curl -sI " + base + "/hello.txt | { read -r l; echo \"$l\"; }", "HTTP/1.1 200 OK\r\n", ""},
	} {
		out, errOut := run(t, sb, c.script)
		if out != c.out || !strings.Contains(errOut, c.errPart) || (c.errPart == "" && errOut != "") {
			t.Errorf("%s\n got stdout %q stderr %q\nwant stdout %q stderr containing %q", c.script, out, errOut, c.out, c.errPart)
		}
	}
}

// TestSecrets: a secret reaches its host only, by placeholder or
// injection, and never comes back into the sandbox.
func TestSecrets(t *testing.T) {
	const token = "s3cr3t-t0ken-value"
	srv := server(t)
	other := server(t)
	c, err := bridge.New(policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/"}, {URL: other.URL + "/"}}}, bridge.Budget{},
		bridge.Secret{Secret: policy.Secret{Name: "TOKEN", Hosts: []string{"127.0.0.1"}, In: []string{"basic_auth"},
			Inject: &policy.Inject{Header: "X-Test", Value: "tok {secret}"}}, Value: token})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := core.New(context.Background(), core.Options{Commands: curl.Commands(c)})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	// injected (the echo handler prints X-Test), and redacted on the way back
	out, errOut := run(t, sb, "curl -s "+srv.URL+"/echo")
	if out != "GET /echo \"\" : tok [secret TOKEN]\n" {
		t.Errorf("inject: %q %q", out, errOut)
	}
	// a placeholder in a header the sandbox writes; -v shows the placeholder, not the value
	out, errOut = run(t, sb, "curl -sv -u 'me:{{secret:TOKEN}}' "+srv.URL+"/echo")
	if out != "GET /echo \"\" [secret TOKEN] tok [secret TOKEN]\n" || strings.Contains(errOut, token) {
		t.Errorf("placeholder: %q %q", out, errOut)
	}
	out, errOut = run(t, sb, "curl -s -H 'X-Test: {{secret:TOKEN}}' "+srv.URL+"/echo; curl -sS -H 'X-Test: {{secret:NOPE}}' "+srv.URL+"/echo; echo $?")
	if out != "GET /echo \"\" : [secret TOKEN]\n7\n" || !strings.Contains(errOut, "no secret NOPE") {
		t.Errorf("unknown secret: %q %q", out, errOut)
	}
	// not to another host, not in the environment, not in files
	out, errOut = run(t, sb, "[[ \"$(export -p; set)\" == *s3cr3t* ]] && echo leak; echo ${TOKEN:-unset}")
	if out != "unset\n" {
		t.Errorf("environment: %q %q", out, errOut)
	}
	// a basic-auth pair, the URL and the body take a placeholder only
	// where the policy says so (an echo of them is often encoded)
	sb2 := sandbox(t, policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/", Methods: []string{"GET", "POST"}}}}, bridge.Budget{},
		bridge.Secret{Secret: policy.Secret{Name: "TOKEN", Hosts: []string{"127.0.0.1"}}, Value: token})
	out, errOut = run(t, sb2, "curl -sS -u 'me:{{secret:TOKEN}}' "+srv.URL+"/echo; echo $?; curl -sS -d 'k={{secret:TOKEN}}' "+srv.URL+"/echo; echo $?; curl -sS '"+srv.URL+"/echo?k={{secret:TOKEN}}'; echo $?")
	if out != "7\n7\n7\n" || strings.Count(errOut, "secret TOKEN may not stand in the") != 3 || strings.Contains(errOut, token) {
		t.Errorf("placeholders out of place: %q %q", out, errOut)
	}
	if _, err := bridge.New(policy.Network{}, bridge.Budget{}, bridge.Secret{Secret: policy.Secret{Name: "S", Hosts: []string{"x"}}, Value: "short"}); err == nil {
		t.Error("a 5-byte secret was taken")
	}
}

func TestBudgets(t *testing.T) {
	srv := server(t)
	sb := sandbox(t, policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/"}}}, bridge.Budget{MaxRequests: 2, MaxResponseBytes: 100})
	out, errOut := run(t, sb, "curl -sS "+srv.URL+"/big >/dev/null; echo $?; curl -sS "+srv.URL+"/hello.txt; curl -sS "+srv.URL+"/hello.txt; echo $?")
	if out != "63\nhello\n7\n" || !strings.Contains(errOut, "Maximum file size exceeded") || !strings.Contains(errOut, "requests are spent") {
		t.Errorf("got %q %q", out, errOut)
	}
}

func TestWget(t *testing.T) {
	srv := server(t)
	sb := sandbox(t, policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/"}}}, bridge.Budget{})
	for _, c := range []struct{ script, out, errPart string }{
		{"wget -q -O - " + srv.URL + "/hello.txt", "hello\n", ""},
		{"wget -q " + srv.URL + "/hello.txt && echo \"$(<hello.txt)\"", "hello\n", ""},
		{"wget -qO- " + srv.URL + "/redirect", "hello\n", ""},
		{"wget -q " + srv.URL + "/nope; echo $?", "8\n", ""},
		{"wget " + srv.URL + "/nope; echo $?", "8\n", "ERROR 404: Not Found."},
		{"wget -q http://example.com/; echo $?", "4\n", "blocked by the sandbox's network policy"},
		{"wget; echo $?", "1\n", "wget: missing URL"},
	} {
		out, errOut := run(t, sb, c.script)
		if out != c.out || !strings.Contains(errOut, c.errPart) || (c.errPart == "" && errOut != "") {
			t.Errorf("%s\n got stdout %q stderr %q\nwant stdout %q stderr containing %q", c.script, out, errOut, c.out, c.errPart)
		}
	}
}

// TestRawHTTP: wasmsand-http makes one exchange from a raw request, the
// bridge's rules applying, and says why it failed in a stable form.
func TestRawHTTP(t *testing.T) {
	srv := server(t)
	base := srv.URL
	sb := sandbox(t, policy.Network{Allow: []policy.Rule{
		{URL: base + "/"},
		{URL: base + "/echo", Methods: []string{"GET", "POST"}},
	}}, bridge.Budget{MaxResponseBytes: 500})
	for _, c := range []struct{ script, out, errPart string }{
		{`printf 'GET /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n' | wasmsand-http ` + base + ` | while IFS= read -r l; do l=${l%$'\r'}; [[ $l == Date:* ]] || echo "$l"; done`,
			"HTTP/1.1 200 OK\nConnection: close\nContent-Length: 6\nContent-Type: text/plain; charset=utf-8\n\nhello\n", ""},
		{`printf 'POST /echo?a=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nX-Test: t\r\n\r\nabc' | wasmsand-http ` + base + ` | { while read -r l; do last=$l; done; echo "$last"; }`,
			"POST /echo?a=1 \"abc\" : t\n", ""},
		{`printf 'POST /hello.txt HTTP/1.1\r\nHost: x\r\n\r\n' | wasmsand-http ` + base + `; echo $?`, "3\n", "wasmsand-http: denied: no rule allows POST"},
		{`printf 'GET / HTTP/1.1\r\n\r\n' | wasmsand-http http://example.com; echo $?`, "3\n", "wasmsand-http: denied:"},
		{`printf 'GET /big HTTP/1.1\r\nHost: x\r\n\r\n' | wasmsand-http ` + base + ` >/dev/null; echo $?`, "8\n", "wasmsand-http: too-large:"},
		{`echo nonsense | wasmsand-http ` + base + `; echo $?`, "2\n", "wasmsand-http: request:"},
		{`wasmsand-http ftp://x </dev/null; echo $?`, "2\n", "wasmsand-http: usage:"},
	} {
		out, errOut := run(t, sb, c.script)
		if out != c.out || !strings.Contains(errOut, c.errPart) || (c.errPart == "" && errOut != "") {
			t.Errorf("%s\n got stdout %q stderr %q\nwant stdout %q stderr containing %q", c.script, out, errOut, c.out, c.errPart)
		}
	}
}
