package core_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/testindex"
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

	opt := core.Options{Programs: tools}
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
	off, err := core.New(context.Background(), core.Options{Programs: tools})
	require.NoError(t, err)
	defer off.Close()
	res, err := off.Run(context.Background(), `python3 -c 'import urllib.request as u
try: u.urlopen("`+srv.URL+`/hello")
except OSError as x: print(x)'`, core.RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "<urlopen error [Errno 101] Network is unreachable (the sandbox has no network)>\n", string(res.Stdout), string(res.Stderr))
}

// wheel is a wheel's bytes: its files, and METADATA from meta.
func wheel(_ *testing.T, name, version, meta string, files map[string]string) []byte {
	return testindex.Wheel(name, version, meta, files)
}

// TestPip: pip installs pure-Python wheels from an index the policy allows
// (a PEP 503 index this test serves on 127.0.0.1), with their dependencies
// (markers and extras), into the user site, which python3 then imports
// from; list, freeze, show and uninstall; pip's errors.
func TestPip(t *testing.T) {
	tools := pythonTools(t)
	files := map[string][]byte{
		"demo-1.0-py3-none-any.whl": wheel(t, "demo", "1.0", "Summary: a demo\nRequires-Dist: dep (>=1.0,<2)\nRequires-Dist: never ; python_version < \"3\"\nRequires-Dist: only-with-x ; extra == \"x\"\n",
			map[string]string{"demo/__init__.py": "from dep import twice\ndef f():\n    return twice(21)\n"}),
		"demo-2.0rc1-py3-none-any.whl":                     wheel(t, "demo", "2.0rc1", "", map[string]string{"demo/__init__.py": "def f(): return 'rc'\n"}),
		"dep-1.0-py3-none-any.whl":                         wheel(t, "dep", "1.0", "", map[string]string{"dep/__init__.py": "def twice(x): return 0\n"}),
		"dep-1.5-py3-none-any.whl":                         wheel(t, "dep", "1.5", "", map[string]string{"dep/__init__.py": "def twice(x): return 2 * x\n"}),
		"dep-2.0-py3-none-any.whl":                         wheel(t, "dep", "2.0", "", map[string]string{"dep/__init__.py": "def twice(x): return -1\n"}),
		"native-1.0-cp311-cp311-manylinux_2_17_x86_64.whl": []byte("not really"),
		"tampered-1.0-py3-none-any.whl":                    wheel(t, "tampered", "1.0", "", nil),
	}
	mux := testindex.Handler(files, func(f string) bool { return strings.HasPrefix(f, "tampered") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	opt := core.Options{Programs: tools}
	require.NoError(t, opt.UseNetwork(policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/"}}}, policy.Budget{}, nil, nil))
	sb, err := core.New(context.Background(), opt)
	require.NoError(t, err)
	defer sb.Close()
	idx := srv.URL + "/simple"
	for _, c := range []struct{ script, out, errOut string }{
		{"pip install -i " + idx + " demo", "Collecting demo\n  Downloading demo-1.0-py3-none-any.whl (1 kB)\nCollecting dep<2,>=1.0 (from demo==1.0)\n  Downloading dep-1.5-py3-none-any.whl (1 kB)\nInstalling collected packages: dep, demo\nSuccessfully installed demo-1.0 dep-1.5\n", ""},
		{"python3 -c 'import demo; print(demo.f())'", "42\n", ""},
		{"pip install -i " + idx + " demo", "Requirement already satisfied: demo in /home/user/.local/lib/python3.11/site-packages (1.0)\n", ""},
		{"pip list", "Package Version\n------- -------\ndemo    1.0\ndep     1.5\n", ""},
		{"pip freeze", "demo==1.0\ndep==1.5\n", ""},
		{"pip show demo", "Name: demo\nVersion: 1.0\nSummary: a demo\nHome-page: \nAuthor: \nLicense: \nLocation: /home/user/.local/lib/python3.11/site-packages\nRequires: dep\n", ""},
		{"pip uninstall -y demo; python3 -c 'import demo' 2>&1 | tail -1; ls ~/.local/lib/python3.11/site-packages", "Found existing installation: demo 1.0\nSuccessfully uninstalled demo-1.0\nModuleNotFoundError: No module named 'demo'\ndep\ndep-1.5.dist-info\n", ""},
		{"pip install -q -i " + idx + " 'demo==2.0rc1'; python3 -c 'import demo; print(demo.f())'", "rc\n", ""},
		{"pip install -i " + idx + " nope; echo $?", "Collecting nope\n1\n", "ERROR: Could not find a version that satisfies the requirement nope (from versions: none)\nERROR: No matching distribution found for nope\n"},
		{"pip install -i " + idx + " native; echo $?", "Collecting native\n1\n", "ERROR: Could not find a version that satisfies the requirement native (from versions: 1.0) (wasmsand installs wheels that need no compiled code: py3-none-any)\nERROR: No matching distribution found for native\n"},
		{"pip install -q -i " + idx + " tampered; echo $?", "1\n", "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE INDEX: tampered-1.0-py3-none-any.whl"},
		{"pip install -q -i http://example.com/simple x; echo $?", "1\n", "ERROR: the sandbox's network policy does not allow http://example.com/simple/x/"},
	} {
		res, err := sb.Run(context.Background(), c.script, core.RunOptions{})
		require.NoError(t, err)
		assert.Equal(t, c.out, string(res.Stdout), c.script)
		if c.errOut == "" {
			assert.Empty(t, string(res.Stderr), c.script)
		} else {
			assert.Contains(t, string(res.Stderr), c.errOut, c.script)
		}
	}
}

// TestPythonRequests: requests (Debian's 2.28 over urllib3 1.26, copied
// into the user site as pip would install them) reaches a server the
// policy allows through the bridge: urllib3 makes its own sockets, which
// _wasmsand_http replaces as urllib3.connection loads.
func TestPythonRequests(t *testing.T) {
	tools := pythonTools(t)
	const dist = "/usr/lib/python3/dist-packages"
	pkgs := []string{"requests", "urllib3", "idna", "certifi", "charset_normalizer", "chardet", "six.py"} // (Debian's urllib3 uses six)
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dist, p)); err != nil {
			t.Fatalf("%s: %v (make deps installs python3-requests)", p, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"method": %q, "path": %q, "body": %q, "ua": %q}`, r.Method, r.URL.RequestURI(), b, strings.Fields(r.Header.Get("User-Agent") + " -")[0])
	}))
	defer srv.Close()
	opt := core.Options{Programs: tools}
	require.NoError(t, opt.UseNetwork(policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/", Methods: []string{"GET", "POST"}}}}, policy.Budget{}, nil, nil))
	sb, err := core.New(context.Background(), opt)
	require.NoError(t, err)
	defer sb.Close()
	site := "/home/user/.local/lib/python3.11/site-packages"
	for _, p := range pkgs {
		root := filepath.Join(dist, p)
		require.NoError(t, filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.HasSuffix(path, ".py") || strings.Contains(path, "/__pycache__/") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dist, path)
			dst := site + "/" + filepath.ToSlash(rel)
			if err := sb.FS().MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return sb.WriteFile(dst, b, 0o644)
		}))
	}
	require.NoError(t, sb.FS().Chown("/home/user/.local", 1000, 1000))
	res, err := sb.Run(context.Background(), `python3 -c '
import requests
r = requests.get("`+srv.URL+`/items", params={"q": "a b"})
print(r.status_code, r.json())
r = requests.post("`+srv.URL+`/items", json={"k": 1})
print(r.status_code, r.json()["body"], r.headers["Content-Type"])
s = requests.Session()
print([s.get("`+srv.URL+`/n").json()["path"] for _ in range(3)])
try:
    requests.get("http://example.com/", timeout=5)
except requests.exceptions.ConnectionError as e:
    print("refused:", "network policy" in str(e))
'`, core.RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "200 {'method': 'GET', 'path': '/items?q=a+b', 'body': '', 'ua': 'python-requests/2.28.1'}\n"+
		"200 {\"k\": 1} application/json\n['/n', '/n', '/n']\nrefused: True\n", string(res.Stdout), string(res.Stderr))
}
