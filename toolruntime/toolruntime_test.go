package toolruntime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/internal/testguest"
	"github.com/wasmsand/wasmsand/internal/testindex"
)

func TestParseManifest(t *testing.T) {
	m, err := ParseManifest([]byte("version: 1\ntools:\n  echo:\n    module: tools.echo\n    function: echo\n  sh:\n    runtime: shell\n    command: cat\n"))
	require.NoError(t, err)
	assert.Equal(t, "python", m.Tools["echo"].Runtime)
	assert.Equal(t, "standard", m.Tools["echo"].SandboxProfile)
	for doc, want := range map[string]string{
		"version: 2\ntools: {}\n":                                                               "version must be 1",
		"version: 1\ntools:\n  a:\n    module: m\n":                                             "tool a: function",
		"version: 1\ntools:\n  a:\n    module: m\n    function: f\n    colour: red\n":           "field colour not found",
		"version: 1\ntools:\n  a:\n    runtime: ruby\n":                                         `runtime "ruby"`,
		"version: 1\ntools:\n  a.b:\n    module: m\n    function: f\n":                          "subject token",
		"version: 1\ntools:\n  a:\n    module: m\n    function: f\n    sandbox_profile: open\n": "sandbox_profile",
		"version: 1\ntools:\n  a:\n    runtime: shell\n":                                        "command: required",
		"version: 1\ntools:\n  a:\n    runtime: wasm\n    module: ../x.wasm\n":                  "relative to the tools directory",
		"version: 1\ntools:\n  a:\n    module: m\n    function: f\n    sha256: abc\n":           "sha256",
	} {
		_, err := ParseManifest([]byte(doc))
		if assert.Error(t, err, doc) {
			assert.Contains(t, err.Error(), want, doc)
		}
	}
}

func TestDirStore(t *testing.T) {
	ctx := context.Background()
	st := &DirStore{Base: t.TempDir()}
	s := Scope{Namespace: "ns", User: "u1", Session: "s1"}
	m0, err := st.Save(ctx, s, "a.txt", []byte("one"), "text/plain")
	require.NoError(t, err)
	m1, err := st.Save(ctx, s, "a.txt", []byte("two"), "")
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, []int{m0.Version, m1.Version})
	assert.FileExists(t, filepath.Join(st.Base, "ns", "u1", "s1", "a.txt", "1.meta"))
	b, m, err := st.Load(ctx, s, "a.txt", -1)
	require.NoError(t, err)
	assert.Equal(t, "two", string(b))
	assert.Equal(t, 1, m.Version)
	b, _, err = st.Load(ctx, s, "a.txt", 0)
	require.NoError(t, err)
	assert.Equal(t, "one", string(b))
	_, _, err = st.Load(ctx, Scope{Namespace: "ns", User: "u1"}, "a.txt", -1)
	assert.ErrorIs(t, err, ErrNoArtifact, "the user-wide scope is another place")
	for _, bad := range []string{"../x", "a/b", "..", "", "x\x00"} {
		_, err := st.Save(ctx, s, bad, nil, "")
		assert.Error(t, err, bad)
	}
	_, err = st.Save(ctx, Scope{Namespace: "ns", User: "../../etc", Session: "s"}, "x", nil, "")
	assert.Error(t, err)
	// a changed file is caught by its sha256
	require.NoError(t, os.WriteFile(filepath.Join(st.Base, "ns", "u1", "s1", "a.txt", "1"), []byte("tampered"), 0o644))
	_, _, err = st.Load(ctx, s, "a.txt", 1)
	assert.ErrorContains(t, err, "sha256")
}

// rig is an embedded NATS server, workers on a manifest, and a client.
type rig struct {
	t        *testing.T
	url      string
	dir      string
	store    Store
	assets   core.ProgramSource
	client   *Client
	workers  []*Worker
	audits   []*strings.Builder
	auditMus []*sync.Mutex
}

func newRig(t *testing.T, manifest string, files map[string]string) *rig {
	t.Helper()
	src := assetsrc.Default()
	if src == "" {
		if d, _ := filepath.Abs("../build/assets"); d != "" {
			if _, err := os.Stat(filepath.Join(d, "manifest.json")); err == nil {
				src = d
			}
		}
	}
	if src == "" {
		t.Skip("no built assets (make assets)")
	}
	tools, err := assetsrc.Open(context.Background(), src)
	require.NoError(t, err)
	s, err := EmbeddedServer("127.0.0.1:0", "", nil)
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte(manifest), 0o644))
	for name, body := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	r := &rig{t: t, url: s.ClientURL(), dir: dir, store: NewMemoryStore(), assets: tools}
	r.client = &Client{Conn: r.conn(), Namespace: "test", Agent: "agent1"}
	return r
}

func (r *rig) conn() *nats.Conn {
	nc, err := nats.Connect(r.url)
	require.NoError(r.t, err)
	r.t.Cleanup(nc.Close)
	return nc
}

func (r *rig) worker(mod func(*WorkerOptions)) *Worker {
	a := &strings.Builder{}
	mu := &sync.Mutex{}
	opt := WorkerOptions{Manifest: filepath.Join(r.dir, "manifest.yaml"), Namespace: "test", Conn: r.conn(),
		Store: r.store, Assets: r.assets, Audit: lockedWriter{mu, a}, Poll: 50 * time.Millisecond}
	if mod != nil {
		mod(&opt)
	}
	w, err := NewWorker(opt)
	require.NoError(r.t, err)
	require.NoError(r.t, w.Start())
	r.t.Cleanup(func() { _ = w.Stop(context.Background()) })
	r.workers, r.audits, r.auditMus = append(r.workers, w), append(r.audits, a), append(r.auditMus, mu)
	return w
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (r *rig) invoke(tool string, args any, opt InvokeOptions) (*Result, *ErrorObject) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := r.client.Invoke(ctx, tool, args, opt)
	if err != nil {
		var eo *ErrorObject
		require.True(r.t, errors.As(err, &eo), "not a protocol error: %v", err)
		return nil, eo
	}
	return res, nil
}

const pyTools = `import time

def echo_tool(message, ctx):
    ctx.send_status("echoing")
    ctx.save_artifact("echo.txt", message.upper(), mime_type="text/plain")
    return {"echo": message, "user": ctx.user_id, "session": ctx.session_id, "key": ctx.get_config("key")}

def count_lines(input_file, ctx):
    return {"lines": len(ctx.load_artifact(input_file, as_text=True).splitlines())}

def boom(ctx):
    raise ValueError("invalid input format")

def spin(ctx):
    while True:
        pass

def fails(ctx):
    return {"status": "error", "message": "nothing to do"}

async def aecho(message):
    return message

def whole(args, ctx):
    return sorted(args)
`

func TestWorker(t *testing.T) {
	sum := sha256.Sum256([]byte(pyTools))
	manifest := `version: 1
tools:
  echo_tool: {module: example_tools, function: echo_tool, sha256: ` + hex.EncodeToString(sum[:]) + `}
  count_lines: {module: example_tools, function: count_lines, sandbox_profile: restrictive}
  boom: {module: example_tools, function: boom}
  missing: {module: example_tools, function: nowhere}
  spin: {module: example_tools, function: spin, timeout_seconds: 1}
  fails: {module: example_tools, function: fails}
  tampered: {module: example_tools, function: echo_tool, sha256: ` + strings.Repeat("0", 64) + `}
  aecho: {module: example_tools, function: aecho}
  whole: {module: example_tools, function: whole}
  jq_tool: {runtime: shell, command: "jq -c '{n: (.x + 1)}'"}
  plain: {runtime: shell, command: "echo not json; echo oops >&2; exit 3"}
`
	r := newRig(t, manifest, map[string]string{"example_tools.py": pyTools})
	r.worker(nil)
	ctx := context.Background()

	var statuses []string
	res, e := r.invoke("echo_tool", map[string]any{"message": "hi"}, InvokeOptions{UserID: "u1", SessionID: "s1",
		ToolConfig: map[string]any{"key": "v"}, OnStatus: func(s string) { statuses = append(statuses, s) }})
	require.Nil(t, e)
	assert.JSONEq(t, `{"echo":"hi","user":"u1","session":"s1","key":"v"}`, string(res.ToolResult))
	require.Len(t, res.CreatedArtifacts, 1)
	assert.Equal(t, CreatedArtifact{Filename: "echo.txt", Version: 0, MimeType: "text/plain", SizeBytes: 2,
		SHA256: res.CreatedArtifacts[0].SHA256}, res.CreatedArtifacts[0])
	b, _, err := r.store.Load(ctx, Scope{"test", "u1", "s1"}, "echo.txt", -1)
	require.NoError(t, err)
	assert.Equal(t, "HI", string(b))
	assert.Equal(t, []string{"echoing"}, statuses)

	// by reference (the session's, else the user-wide one), and preloaded
	_, err = r.store.Save(ctx, Scope{"test", "u1", ""}, "data.csv", []byte("a\nb\nc\n"), "text/csv")
	require.NoError(t, err)
	res, e = r.invoke("count_lines", map[string]any{"input_file": "data.csv"}, InvokeOptions{UserID: "u1", SessionID: "s1",
		References: map[string]ArtifactRef{"input_file": {Filename: "data.csv"}}})
	require.Nil(t, e)
	assert.JSONEq(t, `{"lines":3}`, string(res.ToolResult))
	res, e = r.invoke("count_lines", map[string]any{"input_file": "p.txt"}, InvokeOptions{Preload: map[string][]byte{"p.txt": []byte("x\ny\n")}})
	require.Nil(t, e)
	assert.JSONEq(t, `{"lines":2}`, string(res.ToolResult))
	_, e = r.invoke("count_lines", map[string]any{"input_file": "x"}, InvokeOptions{UserID: "u1",
		References: map[string]ArtifactRef{"input_file": {Filename: "../../etc/passwd"}}})
	require.NotNil(t, e)
	assert.Equal(t, ErrArtifact, e.Code)

	for tool, code := range map[string]string{"boom": ErrExecution, "missing": ErrImport, "spin": ErrSandboxTimeout,
		"fails": ErrTool, "tampered": ErrImport} {
		_, e := r.invoke(tool, nil, InvokeOptions{})
		if assert.NotNil(t, e, tool) {
			assert.Equal(t, code, e.Code, "%s: %s", tool, e.Message)
		}
	}
	_, e = r.invoke("boom", nil, InvokeOptions{})
	assert.Equal(t, "Tool raised ValueError: invalid input format", e.Message)

	res, e = r.invoke("aecho", map[string]any{"message": "async"}, InvokeOptions{})
	require.Nil(t, e)
	assert.Equal(t, `"async"`, string(res.ToolResult))
	res, e = r.invoke("whole", map[string]any{"b": 1, "a": 2}, InvokeOptions{})
	require.Nil(t, e, "args that are not its parameters: the function takes them whole")
	assert.JSONEq(t, `["a", "b"]`, string(res.ToolResult))

	res, e = r.invoke("jq_tool", map[string]any{"x": 1}, InvokeOptions{})
	require.Nil(t, e)
	assert.JSONEq(t, `{"n":2}`, string(res.ToolResult))
	res, e = r.invoke("plain", nil, InvokeOptions{})
	require.Nil(t, e)
	assert.JSONEq(t, `{"stdout":"not json\n","stderr":"oops\n","exit_code":3}`, string(res.ToolResult))

	start := time.Now()
	_, e = r.invoke("nobody_serves_this", nil, InvokeOptions{})
	require.NotNil(t, e)
	assert.Equal(t, ErrNoWorker, e.Code)
	assert.Less(t, time.Since(start), 5*time.Second, "told at once, not at the timeout")

	// every invocation is in the audit log
	r.auditMus[0].Lock()
	log := r.audits[0].String()
	r.auditMus[0].Unlock()
	assert.Equal(t, 14, strings.Count(log, `"kind":"invocation"`), log)
	assert.Contains(t, log, `"outcome":"SANDBOX_TIMEOUT"`)
	assert.Contains(t, log, `"artifacts_loaded":[{"filename":"data.csv"`)
}

// A tool the manifest drops stops being served (TOOL_NOT_AVAILABLE, retried once by
// the client); one it adds is served, without a restart.
func TestManifestReload(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  a: {runtime: shell, command: 'echo 1'}\n", nil)
	w := r.worker(nil)
	res, e := r.invoke("a", nil, InvokeOptions{})
	require.Nil(t, e)
	assert.Equal(t, "1", string(res.ToolResult))
	// a request arriving on the stale subscription (the manifest changed, the
	// poll has not run): TOOL_NOT_AVAILABLE, and the worker unsubscribes
	w.manifest.Store(&Manifest{Version: 1, Tools: map[string]Tool{}})
	RetryDelay = 10 * time.Millisecond
	_, e = r.invoke("a", nil, InvokeOptions{})
	require.NotNil(t, e)
	assert.Equal(t, ErrNoWorker, e.Code, "the retry finds no one: %s", e.Message)

	require.NoError(t, os.WriteFile(filepath.Join(r.dir, "manifest.yaml"),
		[]byte("version: 1\ntools:\n  b: {runtime: shell, command: 'echo 2'}\n"), 0o644))
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if _, ok := w.Manifest().Tools["b"]; ok {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	res, e = r.invoke("b", nil, InvokeOptions{})
	require.Nil(t, e)
	assert.Equal(t, "2", string(res.ToolResult))
	// a manifest that does not parse is refused; the last good one stays
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, "manifest.yaml"), []byte("version: 1\ntools:\n  c: {runtime: x}\n"), 0o644))
	time.Sleep(300 * time.Millisecond)
	res, e = r.invoke("b", nil, InvokeOptions{})
	require.Nil(t, e)
	assert.Equal(t, "2", string(res.ToolResult))
}

// Two workers share a tool's invocations.
func TestWorkersShareLoad(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  a: {runtime: shell, command: 'echo ok'}\n", nil)
	r.worker(nil)
	r.worker(nil)
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, e := r.invoke("a", nil, InvokeOptions{})
			if assert.Nil(t, e) {
				assert.JSONEq(t, `{"stdout":"ok\n","stderr":"","exit_code":0}`, string(res.ToolResult))
			}
		}()
	}
	wg.Wait()
	for i := range r.audits {
		r.auditMus[i].Lock()
		n := strings.Count(r.audits[i].String(), `"kind":"invocation"`)
		r.auditMus[i].Unlock()
		assert.Greater(t, n, 0, "worker %d served none of the 40", i)
	}
}

// Signed requests only (forged, unsigned and replayed ones refused), a rate per
// user, a bound on the payload.
func TestWorkerGuards(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  a: {runtime: shell, command: 'echo ok'}\n", nil)
	key := []byte("0123456789abcdef0123")
	r.worker(func(o *WorkerOptions) {
		o.Signer = &Signer{Key: key}
		o.RatePerMinute = 3
		o.MaxPayload = 4096
	})
	_, e := r.invoke("a", nil, InvokeOptions{UserID: "u"})
	require.NotNil(t, e)
	assert.Equal(t, ErrUnauthorized, e.Code)
	r.client.Signer = &Signer{Key: []byte("not-the-key-at-all!!")}
	_, e = r.invoke("a", nil, InvokeOptions{UserID: "u"})
	require.NotNil(t, e)
	assert.Equal(t, ErrUnauthorized, e.Code)
	r.client.Signer = &Signer{Key: key}
	_, e = r.invoke("a", nil, InvokeOptions{UserID: "u"})
	require.Nil(t, e)

	// a replay of a signed request, or one redirected elsewhere
	nc := r.conn()
	replies := make(chan *nats.Msg, 4)
	sub, err := nc.ChanSubscribe("test.a2a.v1.sam_remote_tool.response.x.>", replies)
	require.NoError(t, err)
	defer sub.Unsubscribe()
	body, _ := json.Marshal(Request{JSONRPC: "2.0", ID: "t1", Method: MethodInvoke, Params: RequestParams{TaskID: "t1", ToolName: "a", UserID: "v"}})
	msg := nats.NewMsg(Subjects{"test"}.Invoke("a"))
	msg.Data = body
	msg.Header.Set(HeaderReplyTo, Subjects{"test"}.Response("x", "t1"))
	(&Signer{Key: key}).Sign(msg)
	for i := 0; i < 2; i++ {
		require.NoError(t, nc.PublishMsg(msg))
		select {
		case m := <-replies:
			var resp Response
			require.NoError(t, json.Unmarshal(m.Data, &resp))
			if i == 0 {
				assert.Nil(t, resp.Error)
			} else if assert.NotNil(t, resp.Error) {
				assert.Equal(t, ErrUnauthorized, resp.Error.Code)
				assert.Contains(t, resp.Error.Message, "already received")
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no response")
		}
	}
	msg.Header.Set(HeaderReplyTo, Subjects{"test"}.Response("x", "other"))
	msg.Data = []byte(strings.Replace(string(body), "t1", "t2", -1))
	require.NoError(t, nc.PublishMsg(msg))
	select {
	case m := <-replies:
		var resp Response
		require.NoError(t, json.Unmarshal(m.Data, &resp))
		if assert.NotNil(t, resp.Error) {
			assert.Equal(t, "UNAUTHORIZED: bad signature", resp.Error.Error())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no response")
	}

	// u has used 1 of its 3; v 1
	for i := 0; i < 2; i++ {
		_, e = r.invoke("a", nil, InvokeOptions{UserID: "u"})
		require.Nil(t, e)
	}
	_, e = r.invoke("a", nil, InvokeOptions{UserID: "u"})
	require.NotNil(t, e)
	assert.Equal(t, ErrRateLimited, e.Code)
	_, e = r.invoke("a", nil, InvokeOptions{UserID: "w"})
	assert.Nil(t, e, "another user has a rate of its own")

	_, e = r.invoke("a", nil, InvokeOptions{UserID: "z", Preload: map[string][]byte{"big": make([]byte, 8192)}})
	require.NotNil(t, e)
	assert.Equal(t, ErrInvalidRequest, e.Code)
}

// Durable mode: 1,000 invocations through the JetStream work queue, two workers, one
// of them killed halfway (its connection dropped with jobs in hand): every invocation
// is answered, and exactly once.
func TestDurableWorkerKilled(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  a: {runtime: shell, command: 'read -r x; echo \"$x\"'}\n", nil)
	js, err := EmbeddedServer("127.0.0.1:0", t.TempDir(), nil)
	require.NoError(t, err)
	t.Cleanup(js.Shutdown)
	r.url = js.ClientURL()
	r.client = &Client{Conn: r.conn(), Namespace: "test", Agent: "agent1", Durable: true}
	durable := func(o *WorkerOptions) { o.Durable, o.AckWait, o.Concurrency = true, time.Second, 4 }
	victim := r.worker(durable)
	r.worker(durable)

	var mu sync.Mutex
	answers := map[string]int{}
	watch := r.conn()
	sub, err := watch.Subscribe("test.a2a.v1.sam_remote_tool.response.>", func(m *nats.Msg) {
		var resp Response
		if json.Unmarshal(m.Data, &resp) == nil {
			mu.Lock()
			answers[resp.ID]++
			mu.Unlock()
		}
	})
	require.NoError(t, err)
	defer sub.Unsubscribe()
	require.NoError(t, watch.Flush())

	const n = 1000
	var wg sync.WaitGroup
	var failed, answered atomic.Int32
	killed := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			res, err := r.client.Invoke(ctx, "a", i, InvokeOptions{TimeoutSeconds: 30})
			if err != nil || string(res.ToolResult) != strconv.Itoa(i) {
				failed.Add(1)
				return
			}
			if answered.Add(1) == n/2 {
				close(killed)
			}
		}()
	}
	<-killed
	victim.opt.Conn.Close() // (its sandboxes finish, their answers and acks go nowhere)
	wg.Wait()
	assert.Zero(t, failed.Load())
	require.NoError(t, watch.Flush())
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, answers, n)
	for id, c := range answers {
		if c != 1 {
			t.Errorf("task %s answered %d times", id, c)
		}
	}
}

// The JetStream object store keeps versions as the directory store does; two stores
// (two workers) saving the same artifact at once get distinct versions.
func TestNATSStore(t *testing.T) {
	s, err := EmbeddedServer("127.0.0.1:0", t.TempDir(), nil)
	require.NoError(t, err)
	defer s.Shutdown()
	ctx := context.Background()
	open := func() *NATSStore {
		nc, err := nats.Connect(s.ClientURL())
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		st, err := NewNATSStore(ctx, nc, "ART", 1)
		require.NoError(t, err)
		return st
	}
	a, b := open(), open()
	sc := Scope{Namespace: "ns", User: "u", Session: "s"}
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := a
			if i%2 == 1 {
				st = b
			}
			_, err := st.Save(ctx, sc, "r.txt", []byte(strconv.Itoa(i)), "text/plain")
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	vs, err := a.Versions(ctx, sc, "r.txt")
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, vs)
	data, m, err := b.Load(ctx, sc, "r.txt", -1)
	require.NoError(t, err)
	assert.Equal(t, 9, m.Version)
	assert.Equal(t, "text/plain", m.MimeType)
	assert.Len(t, data, 1)
	_, _, err = a.Load(ctx, Scope{Namespace: "ns", User: "u"}, "r.txt", -1)
	assert.ErrorIs(t, err, ErrNoArtifact)
	_, err = a.Save(ctx, sc, "../x", nil, "")
	assert.Error(t, err)
}

// cluster starts n NATS servers routed to each other, with JetStream.
func cluster(t *testing.T, n int) []*server.Server {
	t.Helper()
	free := func() int {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}
	ports := make([]int, n)
	var routes []string
	for i := range ports {
		ports[i] = free()
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", ports[i]))
	}
	var out []*server.Server
	for i := 0; i < n; i++ {
		opts := &server.Options{ServerName: fmt.Sprintf("n%d", i), Host: "127.0.0.1", Port: server.RANDOM_PORT,
			NoSigs: true, NoLog: true, JetStream: true, StoreDir: t.TempDir(),
			Cluster: server.ClusterOpts{Name: "toolrt", Host: "127.0.0.1", Port: ports[i]},
			Routes:  server.RoutesFromStr(strings.Join(routes, ","))}
		s, err := server.NewServer(opts)
		require.NoError(t, err)
		go s.Start()
		require.True(t, s.ReadyForConnections(10*time.Second))
		t.Cleanup(s.Shutdown)
		out = append(out, s)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, s := range out {
		for s.NumRoutes() < n-1 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return out
}

// A 3-node cluster: workers on two nodes, the client on the third, the durable queue
// replicated three times. The node of one worker goes down while that worker runs a
// job: the worker reconnects to another node and its answer still arrives.
func TestCluster(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  slow: {runtime: shell, command: 'sleep 1; echo done'}\n  fast: {runtime: shell, command: 'echo 1'}\n", nil)
	nodes := cluster(t, 3)
	urls := func(first int) string {
		var u []string
		for i := range nodes {
			u = append(u, nodes[(first+i)%len(nodes)].ClientURL())
		}
		return strings.Join(u, ",")
	}
	connect := func(first int) *nats.Conn {
		nc, err := nats.Connect(urls(first), nats.DontRandomize(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		return nc
	}
	core := func(o *WorkerOptions) { o.Conn = connect(0) }
	r.worker(core)
	r.worker(func(o *WorkerOptions) { o.Conn = connect(1) })
	r.client = &Client{Conn: connect(2), Namespace: "test", Agent: "agent1"}
	require.Eventually(t, func() bool {
		_, e := r.invoke("fast", nil, InvokeOptions{})
		return e == nil
	}, 20*time.Second, 100*time.Millisecond, "the subscriptions reach the client's node")
	for i := 0; i < 20; i++ {
		res, e := r.invoke("fast", nil, InvokeOptions{})
		require.Nil(t, e)
		assert.Equal(t, "1", string(res.ToolResult))
	}

	// durable mode, the queue replicated on the three nodes
	dw := r.worker(func(o *WorkerOptions) { o.Conn, o.Durable, o.Replicas = connect(1), true, 3 })
	dc := &Client{Conn: connect(2), Namespace: "test", Agent: "agent1", Durable: true}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := dc.Invoke(ctx, "fast", nil, InvokeOptions{})
	require.NoError(t, err)
	assert.Equal(t, "1", string(res.ToolResult))
	require.NoError(t, dw.Stop(context.Background()))

	// only the worker on node 0 left: its node dies during a run
	require.NoError(t, r.workers[1].Stop(context.Background()))
	done := make(chan *ErrorObject, 1)
	go func() {
		res, e := r.invoke("slow", nil, InvokeOptions{TimeoutSeconds: 20})
		if e == nil && !strings.Contains(string(res.ToolResult), "done") {
			e = errorf("unexpected", "%s", res.ToolResult)
		}
		done <- e
	}()
	time.Sleep(300 * time.Millisecond)
	nodes[0].Shutdown()
	select {
	case e := <-done:
		assert.Nil(t, e)
	case <-time.After(60 * time.Second):
		t.Fatal("the answer did not arrive")
	}
}

// The manifest changes (another tool comes and goes) while a tool is under load: no
// request of that tool is dropped.
func TestManifestChangesUnderLoad(t *testing.T) {
	base := "version: 1\ntools:\n  a: {runtime: shell, command: 'echo ok'}\n"
	r := newRig(t, base, nil)
	r.worker(nil)
	r.worker(nil)
	stop := make(chan struct{})
	var flips sync.WaitGroup
	flips.Add(1)
	go func() {
		defer flips.Done()
		for i := 0; ; i++ {
			doc := base
			if i%2 == 0 {
				doc += "  b" + strconv.Itoa(i) + ": {runtime: shell, command: 'echo b'}\n"
			}
			_ = os.WriteFile(filepath.Join(r.dir, "manifest.yaml"), []byte(doc), 0o644)
			select {
			case <-stop:
				return
			case <-time.After(30 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, e := r.invoke("a", nil, InvokeOptions{}); e != nil {
				failed.Add(1)
				t.Log(e)
			}
		}()
		time.Sleep(2 * time.Millisecond)
	}
	wg.Wait()
	close(stop)
	flips.Wait()
	assert.Zero(t, failed.Load())
}

// A tool's package is installed at start-up from the worker's index (served here on
// 127.0.0.1), with its dependencies; one that cannot be installed fails only its tool.
func TestPackages(t *testing.T) {
	files := map[string][]byte{
		"greet-1.0-py3-none-any.whl": testindex.Wheel("greet", "1.0", "Requires-Dist: shout\n",
			map[string]string{"greet/__init__.py": "from shout import up\ndef hello(name, ctx):\n    return up('hello ' + name)\n"}),
		"greet-2.0-py3-none-any.whl": testindex.Wheel("greet", "2.0", "", map[string]string{"greet/__init__.py": "def hello(name, ctx):\n    return 'v2'\n"}),
		"shout-1.0-py3-none-any.whl": testindex.Wheel("shout", "1.0", "", map[string]string{"shout/__init__.py": "def up(s):\n    return s.upper()\n"}),
	}
	srv := httptest.NewServer(testindex.Handler(files, nil))
	defer srv.Close()
	r := newRig(t, `version: 1
tools:
  hello: {module: greet, function: hello, package: greet, version: "<2"}
  broken: {module: nothing, function: f, package: nothing}
`, nil)
	r.worker(func(o *WorkerOptions) { o.Index = srv.URL + "/simple" })
	res, e := r.invoke("hello", map[string]any{"name": "you"}, InvokeOptions{})
	require.Nil(t, e)
	assert.Equal(t, `"HELLO YOU"`, string(res.ToolResult))
	_, e = r.invoke("broken", nil, InvokeOptions{})
	require.NotNil(t, e)
	assert.Equal(t, ErrImport, e.Code)
	assert.Contains(t, e.Message, "package nothing could not be installed")
}

// A wasm tool is any WASI module: the args as JSON on its stdin, its stdout the result
// (here a cat: the args come back); its sha256 is checked before it is loaded.
func TestWasmTool(t *testing.T) {
	wasm := testguest.C(t, "../platform/enginetest/testdata/guests/cat.c")
	sum := sha256.Sum256(wasm)
	r := newRig(t, "version: 1\ntools:\n  cat: {runtime: wasm, module: bin/cat.wasm, sha256: "+hex.EncodeToString(sum[:])+
		"}\n  badcat: {runtime: wasm, module: bin/cat.wasm, sha256: "+strings.Repeat("1", 64)+"}\n",
		map[string]string{"bin/cat.wasm": string(wasm)})
	r.worker(nil)
	res, e := r.invoke("cat", map[string]any{"a": []int{1, 2}}, InvokeOptions{})
	require.Nil(t, e)
	assert.JSONEq(t, `{"a":[1,2]}`, string(res.ToolResult))
	_, e = r.invoke("badcat", nil, InvokeOptions{})
	require.NotNil(t, e)
	assert.Equal(t, ErrImport, e.Code)
	assert.Contains(t, e.Message, "does not match")
}

// Arguments and results cross as marshal data: JSON values survive the trip both ways,
// in Go alone and through python.
func TestMarshal(t *testing.T) {
	for _, doc := range []string{`null`, `true`, `[1, -2, 2147483647, -2147483648, 2147483648, -99999999999999999999999, 1.5, -0.25, 1e300]`,
		`{"a": "é \u0000 \" \\", "b": [], "c": {}, "d": [[{"x": null}]]}`, `"plain"`} {
		m, err := toMarshal([]byte(doc))
		require.NoError(t, err, doc)
		back, err := fromMarshal(m)
		require.NoError(t, err, doc)
		assert.JSONEq(t, doc, string(back))
	}
	_, err := fromMarshal([]byte("S\x00\x00"))
	assert.Error(t, err, "a type JSON has not")
	_, err = fromMarshal([]byte("u\xff\xff\xff\x7f"))
	assert.Error(t, err, "a length past the end")

	r := newRig(t, "version: 1\ntools:\n  kinds: {module: k, function: kinds}\n  odd: {module: k, function: odd}\n", map[string]string{"k.py": `
def kinds(v):
    return {"echo": v, "big": 2**100, "neg": -2**70, "t": (1, "two"), "f": 0.1, "u": "naïve ☃", "rep": ["s", "s"]}

def odd():
    return {"set": {1}, "nan": float("nan")}
`})
	r.worker(nil)
	args := map[string]any{"v": []any{1, "x", nil, true, map[string]any{"k": 1.25}, json.Number("123456789012345678901234567890")}}
	res, e := r.invoke("kinds", args, InvokeOptions{})
	require.Nil(t, e)
	assert.JSONEq(t, `{"echo": [1, "x", null, true, {"k": 1.25}, 123456789012345678901234567890], "big": 1267650600228229401496703205376,
		"neg": -1180591620717411303424, "t": [1, "two"], "f": 0.1, "u": "naïve ☃", "rep": ["s", "s"]}`, string(res.ToolResult))
	res, e = r.invoke("odd", nil, InvokeOptions{})
	require.Nil(t, e, "a result that is not plain JSON data goes through json (default=str)")
	assert.JSONEq(t, `{"set": "{1}", "nan": "nan"}`, string(res.ToolResult))
}
