package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/httpguard"
	"github.com/wasmsand/wasmsand/mcpserver"
)

// call runs one tool and returns its structured result (or its error text).
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	if res.IsError {
		var msg []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msg = append(msg, tc.Text)
			}
		}
		return nil, strings.Join(msg, "\n")
	}
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out, ""
}

// exercise is what an agent does with the tools, through a client session.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	assert.Contains(t, cs.InitializeResult().Instructions, "home is /home/user")
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		switch tl.Name {
		case "read_file", "list_dir", "snapshot":
			assert.True(t, tl.Annotations.ReadOnlyHint, tl.Name)
		case "run", "write_file", "restore":
			if tl.Name == "run" {
				assert.Contains(t, tl.Description, "bash script")
			}
			assert.False(t, tl.Annotations.ReadOnlyHint, tl.Name)
			assert.True(t, *tl.Annotations.DestructiveHint, tl.Name)
		}
	}
	assert.ElementsMatch(t, []string{"run", "read_file", "write_file", "list_dir", "snapshot", "restore", "fork"}, names)

	out, _ := call(t, cs, "run", map[string]any{"command": "echo hi; echo oops >&2; exit 3"})
	assert.Equal(t, map[string]any{"exit_code": 3.0, "stdout": "hi\n", "stderr": "oops\n", "truncated": false, "timed_out": false}, without(out, "execution_time_ms"))
	// state carries over: directory, variables, files
	call(t, cs, "write_file", map[string]any{"path": "proj/f.txt", "content": "data\n"})
	call(t, cs, "run", map[string]any{"command": "cd proj && X=42"})
	out, _ = call(t, cs, "run", map[string]any{"command": "pwd; echo $X; echo $(<f.txt)"})
	assert.Equal(t, "/home/user/proj\n42\ndata\n", out["stdout"])
	out, _ = call(t, cs, "run", map[string]any{"command": "read -r l; echo \"${l^^} in $PWD\"", "stdin": "piped in\n", "cwd": "/tmp"})
	assert.Equal(t, "PIPED IN in /tmp\n", out["stdout"])
	out, _ = call(t, cs, "run", map[string]any{"command": "for ((i = 1; i <= 100000; i++)); do echo $i; done"})
	assert.Equal(t, true, out["truncated"])
	assert.Contains(t, out["stdout"], "bytes left out of 588895")
	assert.Less(t, len(out["stdout"].(string)), 31000)
	out, _ = call(t, cs, "run", map[string]any{"command": "while :; do :; done", "timeout_ms": 200})
	assert.Equal(t, 124.0, out["exit_code"])
	assert.Equal(t, true, out["timed_out"])

	// files: text and binary
	out, _ = call(t, cs, "write_file", map[string]any{"path": "/home/user/notes/a.md", "content": "# title\n"})
	assert.Equal(t, 8.0, out["bytes_written"])
	call(t, cs, "write_file", map[string]any{"path": "bin.dat", "content": base64.StdEncoding.EncodeToString([]byte{0, 0xff, 1}), "encoding": "base64"})
	out, _ = call(t, cs, "read_file", map[string]any{"path": "/home/user/notes/a.md"})
	assert.Equal(t, map[string]any{"content": "# title\n", "encoding": "text", "size": 8.0}, out)
	out, _ = call(t, cs, "read_file", map[string]any{"path": "bin.dat"})
	assert.Equal(t, map[string]any{"content": "AP8B", "encoding": "base64", "size": 3.0}, out)
	out, _ = call(t, cs, "list_dir", map[string]any{"path": "/home/user/notes"})
	assert.Equal(t, []any{map[string]any{"name": "a.md", "type": "file", "size": 8.0, "mode": "-rw-r--r--"}}, out["entries"])
	_, msg := call(t, cs, "read_file", map[string]any{"path": "/nope"})
	assert.Contains(t, msg, "not_found")
	_, msg = call(t, cs, "write_file", map[string]any{"path": "x", "content": "!!", "encoding": "base64"})
	assert.Contains(t, msg, "not base64")

	// snapshot, change, restore
	out, _ = call(t, cs, "snapshot", nil)
	snap := out["snapshot_id"]
	call(t, cs, "run", map[string]any{"command": "rm -r /home/user/notes; echo new > /home/user/new.txt"})
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "restore", Arguments: map[string]any{"snapshot_id": snap}})
	require.NoError(t, err)
	out, _ = call(t, cs, "run", map[string]any{"command": "echo \"$(</home/user/notes/a.md)\"; [[ -e /home/user/new.txt ]] || echo gone"})
	assert.Equal(t, "# title\ngone\n", out["stdout"])

	// fork: a copy to try things on
	out, _ = call(t, cs, "fork", nil)
	child := out["session"].(string)
	call(t, cs, "run", map[string]any{"command": "echo only-in-fork > /home/user/f2", "session": child})
	out, _ = call(t, cs, "run", map[string]any{"command": "echo \"$(</home/user/notes/a.md) $(</home/user/f2)\"", "session": child})
	assert.Equal(t, "# title only-in-fork\n", out["stdout"])
	out, _ = call(t, cs, "run", map[string]any{"command": "[[ -e /home/user/f2 ]] || echo absent"})
	assert.Equal(t, "absent\n", out["stdout"])
	_, msg = call(t, cs, "run", map[string]any{"command": "true", "session": "build"})
	assert.Contains(t, msg, "named sessions are off")
}

func without(m map[string]any, k string) map[string]any {
	delete(m, k)
	return m
}

// TestMCPStdio: `wasmsand mcp` on stdin/stdout, driven by the SDK's client.
func TestMCPStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run([]string{"mcp", "--timeout", "5s"}, inR, outW, io.Discard)
		outW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	exercise(t, cs)
	inW.Close() // (the server ends at the end of its input, then the client)
	assert.Equal(t, 0, <-done)
	cs.Close()
}

// TestMCPHTTP: streamable HTTP behind a bearer token; each MCP session
// has its own sandbox; --shared sessions are shared by name.
func TestMCPHTTP(t *testing.T) {
	o := &cliOptions{timeout: 5 * time.Second, memory: 256}
	srv := mcpserver.New(mcpserver.Options{NewSandbox: func(ctx context.Context) (*core.Sandbox, error) { return setup(ctx, o.clone()) }, Shared: true})
	defer srv.Close()
	hs := httptest.NewServer(mcpHandler(srv, "s3cret"))
	defer hs.Close()
	var sessions []*mcp.ClientSession
	defer func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}()

	res, err := http.Post(hs.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)

	connect := func() *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp",
			HTTPClient: &http.Client{Transport: bearer{"s3cret"}}, DisableStandaloneSSE: true}, nil)
		require.NoError(t, err)
		sessions = append(sessions, cs)
		return cs
	}
	a, b := connect(), connect()
	call(t, a, "run", map[string]any{"command": "echo a > /home/user/who"})
	out, _ := call(t, b, "run", map[string]any{"command": "[[ -e /home/user/who ]] || echo separate"})
	assert.Equal(t, "separate\n", out["stdout"], "each MCP session has its own sandbox")
	call(t, a, "run", map[string]any{"command": "echo shared > /home/user/s", "session": "team"})
	out, _ = call(t, b, "run", map[string]any{"command": "echo $(</home/user/s)", "session": "team"})
	assert.Equal(t, "shared\n", out["stdout"], "a named session is shared")
	forked, _ := call(t, a, "fork", map[string]any{})
	aID, _ := forked["session"].(string)
	require.Regexp(t, `^s[a-z2-7]{26}$`, aID, "session ids are unguessable")
	_, msg := call(t, b, "run", map[string]any{"command": "true", "session": aID})
	assert.Contains(t, msg, `no session "`+aID+`" in this MCP session`, "another client's session")
	_, msg = call(t, b, "run", map[string]any{"command": "true", "session": "s9"})
	assert.Contains(t, msg, "names starting with")
	out, _ = call(t, a, "run", map[string]any{"command": "while :; do :; done", "timeout_ms": 600000})
	assert.Equal(t, true, out["timed_out"], "a run's timeout_ms cannot raise the operator's 5 s")
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestServe: `wasmsand serve` refuses to listen off loopback without a
// token; its service makes sandboxes from the CLI's options, which a
// create request may only lower.
func TestServe(t *testing.T) {
	_, errOut, st := cli(t, "", "serve", "--listen", "0.0.0.0:0")
	assert.Equal(t, exitUsage, st)
	assert.Contains(t, errOut, "give bearer tokens")
	_, errOut, st = cli(t, "", "mcp", "--listen", "0.0.0.0:0")
	assert.Equal(t, exitUsage, st)
	assert.Contains(t, errOut, "give a bearer token")

	o := &cliOptions{timeout: 5 * time.Second, memory: 256, envs: multiFlag{"FROM_CLI=1"}}
	svc := newService(o, &serveOptions{}, nil)
	defer svc.Close()
	hs := httptest.NewServer(svc.Handler())
	defer hs.Close()
	post := func(path, body string) map[string]any {
		res, err := http.Post(hs.URL+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer res.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		return out
	}
	id := post("/v1/sessions", `{"timeout_ms": 60000, "env": {"FROM_REQ": "2"}}`)["id"].(string)
	out := post("/v1/sessions/"+id+"/run", `{"command": "echo $FROM_CLI $FROM_REQ; while :; do :; done"}`)
	assert.Equal(t, "1 2\n", out["stdout"])
	assert.Equal(t, true, out["timed_out"], "the CLI's 5 s timeout holds: a request cannot raise it")
	o.timeout = time.Second
	id = post("/v1/sessions", `{}`)["id"].(string)
	start := time.Now()
	out = post("/v1/sessions/"+id+"/run", `{"command": "while :; do :; done", "timeout_ms": 600000}`)
	assert.Equal(t, true, out["timed_out"], "nor can a run's timeout_ms")
	assert.Less(t, time.Since(start), time.Minute)
}

// postJSON posts body as JSON and decodes the answer.
func postJSON(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", strings.NewReader(string(b)))
	require.NoError(t, err)
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// TestServeClientPolicy: a client's policy is refused unless the operator
// allows it, and then never reaches the host (mounts, variables, secrets).
func TestServeClientPolicy(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "api ok\n") }))
	defer api.Close()
	for _, allow := range []bool{false, true} {
		svc := newService(&cliOptions{timeout: 5 * time.Second, memory: 256}, &serveOptions{clientPolicy: allow}, nil)
		hs := httptest.NewServer(svc.Handler())
		post := func(path string, body any) (int, map[string]any) { return postJSON(t, hs.URL+path, body) }
		st, out := post("/v1/sessions", map[string]any{"policy": "network:\n  allow: [{url: \"" + api.URL + "/\"}]\n"})
		if !allow {
			assert.Equal(t, 403, st)
			assert.Contains(t, out["message"], "--client-policy")
		} else {
			// loopback is not the client's to reach: the operator's own
			// rules allow no such address
			assert.Equal(t, 403, st, "%v", out)
			assert.Contains(t, out["message"], "loopback addresses, which the operator's policy does not")
			for _, rule := range []string{"{cidr: 0.0.0.0/0}", "{cidr: 169.254.169.254}", "{url: \"http://10.0.0.1/\"}",
				"{url: \"http://[::ffff:127.0.0.1]/\"}", "{cidr: \"::/0\"}", "{url: \"http://2130706433/\"}"} {
				st, out = post("/v1/sessions", map[string]any{"policy": "network:\n  allow: [" + rule + "]\n"})
				assert.Equal(t, 403, st, "%s: %v", rule, out)
			}
			for _, bad := range []string{"filesystem: {mounts: [{host: /, guest: /host}]}", "environment: {inherit: [HOME]}",
				"secrets: [{name: T, hosts: [x.com]}]", "audit: {file: /tmp/x}"} {
				st, out = post("/v1/sessions", map[string]any{"policy": bad})
				assert.Equal(t, 403, st, bad)
				assert.Contains(t, out["message"], "is the operator's to set", bad)
			}
			st, out = post("/v1/sessions", map[string]any{"policy": "netwrk: {}"})
			assert.Equal(t, 400, st)
			assert.Contains(t, out["message"], "field netwrk not found")
		}
		hs.Close()
		svc.Close()
	}

	// Where the operator's policy reaches an address, a client's may too;
	// its limits stay the operator's at most.
	dir := t.TempDir()
	opPolicy := filepath.Join(dir, "op.yaml")
	audit := filepath.Join(dir, "audit.jsonl")
	require.NoError(t, os.WriteFile(opPolicy, []byte("network:\n  allow: [{cidr: 127.0.0.0/8}]\n  budget: {max_requests: 2}\nresources: {fs_mb: 1, max_processes: 8}\n"+
		"audit: {file: "+audit+"}\n"), 0o644))
	svc := newService(&cliOptions{timeout: 5 * time.Second, memory: 64, policyFile: opPolicy, set: map[string]bool{}, assets: builtAssets(t)}, &serveOptions{clientPolicy: true}, nil)
	defer svc.Close()
	hs := httptest.NewServer(svc.Handler())
	defer hs.Close()
	post := func(path string, body any) (int, map[string]any) { return postJSON(t, hs.URL+path, body) }
	st, out := post("/v1/sessions", map[string]any{"policy": "network:\n  allow: [{url: \"" + api.URL + "/\"}]\n  budget: {max_requests: 1000}\n" +
		"resources: {fs_mb: 4096, memory_mb: 4096, max_processes: 100000, timeout_sec: 3600}\n"})
	require.Equal(t, 201, st, "%v", out)
	id := out["id"].(string)
	_, run := post("/v1/sessions/"+id+"/run", map[string]any{"command": "curl -s " + api.URL + "/; curl -s " + api.URL + "/; curl -s " + api.URL + "/ || echo third refused"})
	assert.Equal(t, "api ok\napi ok\nthird refused\n", run["stdout"], "the operator's budget of 2 requests: %v", run)
	_, run = post("/v1/sessions/"+id+"/run", map[string]any{"command": "read -r _ kb _ < /proc/meminfo; echo $kb; head -c 3000000 /dev/zero > /tmp/big; echo $?"})
	assert.Equal(t, "65536\n1\n", run["stdout"], "memory and files at the operator's limits: %v", run)
	assert.Contains(t, run["stderr"], "No space left on device", "%v", run)
	b, err := os.ReadFile(audit)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"kind":"network"`, "the operator's audit file records a client's session too")
}

// TestServersFrontDoor: serve and mcp --listen, on loopback without a token,
// refuse what a web page could send them (a rebinding Host, a foreign
// Origin, a JSON body typed as text/plain) and take what the operator
// allows (internal/httpguard).
func TestServersFrontDoor(t *testing.T) {
	o := &cliOptions{timeout: 5 * time.Second, memory: 256}
	svc := newService(o, &serveOptions{}, nil)
	defer svc.Close()
	msrv := mcpserver.New(mcpserver.Options{NewSandbox: func(ctx context.Context) (*core.Sandbox, error) { return setup(ctx, o.clone()) }})
	defer msrv.Close()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, srv := range []struct {
		name, path, body string
		handler          func(front httpFront, listen string) http.Handler
		ok               int
	}{
		{"serve", "/v1/sessions", `{}`, func(f httpFront, l string) http.Handler {
			return serveHandler(&serveOptions{listen: l, front: f}, svc)
		}, 201},
		{"mcp", "/mcp", initialize, func(f httpFront, l string) http.Handler {
			return f.guard(l, nil, true, mcpHandler(msrv, ""))
		}, 200},
	} {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		front := httpFront{allowHosts: multiFlag{"box.internal"}, allowOrigins: multiFlag{"https://app.example,https://other.example"}}
		hs := &http.Server{Handler: srv.handler(front, l.Addr().String()), ConnContext: httpguard.ConnContext}
		go hs.Serve(l)
		send := func(host, ct string, hdr ...string) (int, string) {
			req, _ := http.NewRequest("POST", "http://"+l.Addr().String()+srv.path, strings.NewReader(srv.body))
			req.Host = host
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Accept", "application/json, text/event-stream")
			for i := 0; i+1 < len(hdr); i += 2 {
				req.Header.Set(hdr[i], hdr[i+1])
			}
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		port := l.Addr().(*net.TCPAddr).Port
		sessions := svc.Sessions()
		st, body := send(fmt.Sprintf("attacker.example:%d", port), "application/json")
		assert.Equal(t, 421, st, "%s: %s", srv.name, body)
		assert.Contains(t, body, "host_not_allowed", srv.name)
		st, body = send(l.Addr().String(), "application/json", "Origin", "https://attacker.example")
		assert.Equal(t, 403, st, srv.name)
		assert.Contains(t, body, "origin_not_allowed", srv.name)
		st, body = send(l.Addr().String(), "text/plain")
		assert.Equal(t, 415, st, srv.name)
		assert.Contains(t, body, "unsupported_media_type", srv.name)
		assert.Equal(t, sessions, svc.Sessions(), "nothing was made")

		st, body = send(fmt.Sprintf("localhost:%d", port), "application/json")
		assert.Equal(t, srv.ok, st, "%s: %s", srv.name, body)
		st, body = send(fmt.Sprintf("box.internal:%d", port), "application/json", "Origin", "https://other.example")
		assert.Equal(t, srv.ok, st, "%s: %s", srv.name, body)
		hs.Close()
	}
}

// TestServerQuotas: mcp has serve's caps: sessions open at once (forks and
// named ones included) and snapshots per session.
func TestServerQuotas(t *testing.T) {
	o := &cliOptions{timeout: 5 * time.Second, memory: 256}
	srv := mcpserver.New(mcpserver.Options{NewSandbox: func(ctx context.Context) (*core.Sandbox, error) { return setup(ctx, o.clone()) },
		Shared: true, MaxSessions: 3, MaxSnapshots: 2})
	defer srv.Close()
	ct, st := mcp.NewInMemoryTransports()
	go srv.MCP().Run(context.Background(), st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	require.NoError(t, err)
	defer cs.Close()
	call(t, cs, "run", map[string]any{"command": "true"}) // its own: 1
	_, msg := call(t, cs, "fork", map[string]any{})       // 2
	assert.Empty(t, msg)
	call(t, cs, "run", map[string]any{"command": "true", "session": "team"}) // 3
	_, msg = call(t, cs, "fork", map[string]any{})
	assert.Contains(t, msg, "quota_exceeded")
	_, msg = call(t, cs, "run", map[string]any{"command": "true", "session": "other"})
	assert.Contains(t, msg, "quota_exceeded")
	for i := 0; i < 2; i++ {
		_, msg = call(t, cs, "snapshot", map[string]any{})
		assert.Empty(t, msg)
	}
	_, msg = call(t, cs, "snapshot", map[string]any{})
	assert.Contains(t, msg, "quota_exceeded")

	svc := newService(o, &serveOptions{maxSnapshots: 2}, nil)
	defer svc.Close()
	hs := httptest.NewServer(svc.Handler())
	defer hs.Close()
	post := func(path string) int {
		res, err := http.Post(hs.URL+path, "application/json", strings.NewReader(`{}`))
		require.NoError(t, err)
		res.Body.Close()
		return res.StatusCode
	}
	res, err := http.Post(hs.URL+"/v1/sessions", "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	var made struct{ ID string }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&made))
	res.Body.Close()
	snaps := "/v1/sessions/" + made.ID + "/snapshots"
	assert.Equal(t, []int{201, 201, 429}, []int{post(snaps), post(snaps), post(snaps)})
}
