package core_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

// TestPythonNetwork: python's http.client and urllib reach the network
// through the sandbox's bridge (wasmsand-http), under its rules, with the
// errors a socket would give. Only servers started here, on 127.0.0.1.
func TestPythonNetwork(t *testing.T) {
	tools := pythonTools(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/hello", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Kind", "greeting")
		io.WriteString(w, "hello from "+r.Method+"\n")
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %s %s %q", r.Method, r.URL.RequestURI(), r.Header.Get("X-Test"), b)
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/hello", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("0123456789", 20000)) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	tls := httptest.NewTLSServer(mux)
	defer tls.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := "http://" + closed.Addr().String()
	closed.Close()

	opt := core.Options{Tools: tools}
	require.NoError(t, opt.UseNetwork(policy.Network{Allow: []policy.Rule{
		{URL: srv.URL + "/", Methods: []string{"GET", "POST"}}, {URL: tls.URL + "/"}, {URL: refused + "/"},
	}}, policy.Budget{}, nil, nil))
	sb, err := core.New(context.Background(), opt)
	require.NoError(t, err)
	defer sb.Close()
	py := func(code string) (string, string) {
		t.Helper()
		res, err := sb.Run(context.Background(), "python3 -c '"+code+"'", core.RunOptions{})
		require.NoError(t, err)
		return string(res.Stdout), string(res.Stderr)
	}
	for _, c := range []struct{ code, out, errPart string }{
		{`import urllib.request as u; r = u.urlopen("` + srv.URL + `/hello"); print(r.status, r.headers["X-Kind"], r.read().decode(), end="")`,
			"200 greeting hello from GET\n", ""},
		{`import urllib.request as u; print(u.urlopen(u.Request("` + srv.URL + `/echo?q=1", data=b"a=1", headers={"X-Test": "t"})).read().decode())`,
			"POST /echo?q=1 t \"a=1\"\n", ""},
		{`import http.client as h; c = h.HTTPConnection("` + srv.Listener.Addr().String() + `"); c.request("GET", "/hello"); r = c.getresponse(); print(r.status, r.reason, r.read()); c.request("GET", "/echo"); print(c.getresponse().read())`,
			"200 OK b'hello from GET\\n'\nb'GET /echo  \"\"'\n", ""},
		{`import urllib.request as u; print(u.urlopen("` + srv.URL + `/redirect").read())`, "b'hello from GET\\n'\n", ""},
		{`import urllib.request as u; print(len(u.urlopen("` + srv.URL + `/big").read()))`, "200000\n", ""},
		{`import urllib.request as u, urllib.error as e
try: u.urlopen("` + srv.URL + `/nope")
except e.HTTPError as x: print(x.code)`, "404\n", ""},
		{`import urllib.request as u, urllib.error as e
try: u.urlopen(u.Request("` + srv.URL + `/hello", method="DELETE"))
except e.URLError as x: print(type(x.reason).__name__, x.reason)`, "PermissionError [Errno 13] blocked by the sandbox's network policy: no rule allows DELETE " + srv.URL + "/hello\n", ""},
		{`import urllib.request as u, urllib.error as e
try: u.urlopen("http://example.com/")
except e.URLError as x: print(type(x.reason).__name__)`, "PermissionError\n", ""},
		{`import urllib.request as u, urllib.error as e
try: u.urlopen("` + refused + `/")
except e.URLError as x: print(x)`, "<urlopen error [Errno 111] Connection refused>\n", ""},
		// https is the bridge's TLS: this test server's certificate is not trusted
		{`import urllib.request as u, urllib.error as e
try: u.urlopen("` + tls.URL + `/hello")
except e.URLError as x: print("certificate" in str(x))`, "True\n", ""},
	} {
		out, errOut := py(c.code)
		assert.Equal(t, c.out, out, c.code)
		if c.errPart == "" {
			assert.Empty(t, errOut, c.code)
		} else {
			assert.Contains(t, errOut, c.errPart, c.code)
		}
	}

	// without a network: a socket's "unreachable"
	off, err := core.New(context.Background(), core.Options{Tools: tools})
	require.NoError(t, err)
	defer off.Close()
	res, err := off.Run(context.Background(), `python3 -c 'import urllib.request as u
try: u.urlopen("`+srv.URL+`/hello")
except OSError as x: print(x)'`, core.RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "<urlopen error [Errno 101] Network is unreachable (the sandbox has no network)>\n", string(res.Stdout), string(res.Stderr))
}
