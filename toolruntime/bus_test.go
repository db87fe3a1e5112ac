package toolruntime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBusAuthentication: on a bus with credentials nobody anonymous gets
// in, an agent reads only its own answers and invokes only as itself, and
// the worker's user_id is the authenticated one, whatever the request says.
func TestBusAuthentication(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  echo_tool: {module: example_tools, function: echo_tool}\n  slow: {runtime: shell, command: 'sleep 1; echo ok'}\n",
		map[string]string{"example_tools.py": pyTools})
	auth := &BusAuth{Namespace: "test", Worker: NewCredentials("worker"), Agents: []Credentials{NewCredentials("alice"), NewCredentials("bob")}}
	s, err := EmbeddedServer("127.0.0.1:0", "", auth)
	require.NoError(t, err)
	t.Cleanup(s.Shutdown)
	connect := func(c *Credentials, errs chan<- error) (*nats.Conn, error) {
		opts := []nats.Option{nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errs != nil {
				select {
				case errs <- err:
				default:
				}
			}
		})}
		if c != nil {
			opts = append(opts, c.Options()...)
		}
		nc, err := nats.Connect(s.ClientURL(), opts...)
		if err == nil {
			t.Cleanup(nc.Close)
		}
		return nc, err
	}
	_, err = connect(nil, nil)
	require.Error(t, err, "an anonymous client is refused")
	_, err = connect(&Credentials{User: "alice", Password: "guess"}, nil)
	require.Error(t, err)

	wc, err := connect(&auth.Worker, nil)
	require.NoError(t, err)
	r.worker(func(o *WorkerOptions) { o.Conn = wc; o.RequireIdentity = true })
	alice, err := connect(&auth.Agents[0], nil)
	require.NoError(t, err)
	bobErrs := make(chan error, 16)
	bob, err := connect(&auth.Agents[1], bobErrs)
	require.NoError(t, err)

	// alice invokes as herself; bob, listening on her answers, hears nothing
	overheard := make(chan *nats.Msg, 16)
	_, err = bob.ChanSubscribe("test.a2a.v1.sam_remote_tool.response.alice.>", overheard)
	require.NoError(t, err)
	ac := &Client{Conn: alice, Namespace: "test", User: "alice"}
	res, err := ac.Invoke(context.Background(), "echo_tool", map[string]any{"message": "hi"}, InvokeOptions{})
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(res.ToolResult, &out))
	assert.Equal(t, "alice", out["user"], "user_id is the bus's identity")
	select {
	case m := <-overheard:
		t.Fatalf("bob read alice's answer: %s", m.Data)
	case err := <-bobErrs:
		assert.Contains(t, strings.ToLower(err.Error()), "permissions violation")
	case <-time.After(2 * time.Second):
		t.Fatal("no permissions violation reported to bob")
	}

	// bob claiming to be alice: refused by his client, by the bus (her
	// subject), and by the worker (a user_id that is not his)
	bc := &Client{Conn: bob, Namespace: "test", User: "bob"}
	_, err = bc.Invoke(context.Background(), "echo_tool", map[string]any{"message": "x"}, InvokeOptions{UserID: "alice"})
	assert.ErrorContains(t, err, "this connection is \"bob\"")
	msg := nats.NewMsg("test.a2a.v1.sam_remote_tool.invoke.echo_tool.alice")
	msg.Data = []byte(`{"jsonrpc":"2.0","id":"x1","method":"sam_remote_tool/invoke","params":{"task_id":"x1","tool_name":"echo_tool","args":{"message":"x"}}}`)
	require.NoError(t, bob.PublishMsg(msg))
	select {
	case err := <-bobErrs:
		assert.Contains(t, strings.ToLower(err.Error()), "permissions violation")
	case <-time.After(2 * time.Second):
		t.Fatal("bob published as alice")
	}
	answers := make(chan *nats.Msg, 4)
	_, err = bob.ChanSubscribe("test.a2a.v1.sam_remote_tool.response.bob.>", answers)
	require.NoError(t, err)
	msg = nats.NewMsg("test.a2a.v1.sam_remote_tool.invoke.echo_tool.bob")
	msg.Header.Set(HeaderReplyTo, "test.a2a.v1.sam_remote_tool.response.bob.x2")
	msg.Data = []byte(`{"jsonrpc":"2.0","id":"x2","method":"sam_remote_tool/invoke","params":{"task_id":"x2","tool_name":"echo_tool","user_id":"alice","args":{"message":"x"}}}`)
	require.NoError(t, bob.PublishMsg(msg))
	select {
	case m := <-answers:
		assert.Contains(t, string(m.Data), "UNAUTHORIZED")
		assert.Contains(t, string(m.Data), "this invocation comes from")
	case <-time.After(10 * time.Second):
		t.Fatal("no answer")
	}
	// and bob's request cannot send its answer to alice's subjects
	toAlice := make(chan *nats.Msg, 4)
	_, err = alice.ChanSubscribe("test.a2a.v1.sam_remote_tool.response.alice.>", toAlice)
	require.NoError(t, err)
	require.NoError(t, alice.Flush())
	msg = nats.NewMsg("test.a2a.v1.sam_remote_tool.invoke.echo_tool.bob")
	msg.Header.Set(HeaderReplyTo, "test.a2a.v1.sam_remote_tool.response.alice.x3")
	msg.Data = []byte(`{"jsonrpc":"2.0","id":"x3","method":"sam_remote_tool/invoke","params":{"task_id":"x3","tool_name":"echo_tool","args":{"message":"x"}}}`)
	require.NoError(t, bob.PublishMsg(msg))
	select {
	case m := <-toAlice:
		t.Fatalf("alice got an answer to bob's request: %s", m.Data)
	case <-time.After(2 * time.Second):
	}

	// a credentials file: 0600, user:password
	p := filepath.Join(t.TempDir(), "sub", "agent.creds")
	require.NoError(t, auth.Agents[0].Write(p))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	c, err := ReadCredentials(p)
	require.NoError(t, err)
	assert.Equal(t, auth.Agents[0], c)

	// off loopback, a bus without credentials is refused
	_, err = EmbeddedServer("0.0.0.0:0", "", nil)
	assert.ErrorContains(t, err, "needs credentials")
}

// TestForgedAnswers: with a signing key, the worker signs its answers and
// the client takes no other, however fast it comes.
func TestForgedAnswers(t *testing.T) {
	r := newRig(t, "version: 1\ntools:\n  slow: {runtime: shell, command: 'sleep 1; echo genuine'}\n", nil)
	key := []byte("0123456789abcdef0123")
	r.worker(func(o *WorkerOptions) { o.Signer = &Signer{Key: key} })
	r.client.Signer = &Signer{Key: key}
	// an attacker on an open bus reads the request and answers first
	spy := r.conn()
	_, err := spy.Subscribe("test.a2a.v1.sam_remote_tool.invoke.>", func(m *nats.Msg) {
		var req Request
		_ = json.Unmarshal(m.Data, &req)
		forged := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"tool_result":"forged","execution_time_ms":1,"timed_out":false,"created_artifacts":[]}}`, req.ID)
		_ = spy.Publish(m.Header.Get(HeaderReplyTo), []byte(forged))
		_ = spy.Publish(m.Header.Get(HeaderStatusTo), []byte(`{"jsonrpc":"2.0","method":"sam_remote_tool/status","params":{"status_text":"forged status"}}`))
	})
	require.NoError(t, err)
	var statuses []string
	var mu sync.Mutex
	res, e := r.invoke("slow", nil, InvokeOptions{OnStatus: func(s string) { mu.Lock(); statuses = append(statuses, s); mu.Unlock() }})
	require.Nil(t, e)
	assert.Contains(t, string(res.ToolResult), "genuine")
	mu.Lock()
	assert.NotContains(t, statuses, "forged status")
	mu.Unlock()
}

// TestPackageHash: a python tool's sha256 covers every file of its
// package (what `find | sha256sum | sha256sum` prints), and the sandbox
// sees only those files: a changed helper module is caught.
func TestPackageHash(t *testing.T) {
	files := map[string]string{
		"mypkg/__init__.py":   "from .helpers import shout\n\ndef run(message, ctx):\n    return {'said': shout(message)}\n",
		"mypkg/helpers.py":    "def shout(s):\n    return s.upper()\n",
		"mypkg/sub/extra.py":  "X = 1\n",
		"mypkg/__pycache__/x": "ignored",
		"other.py":            "SECRET = 'not for this tool'\n",
	}
	lines := ""
	for _, n := range []string{"mypkg/__init__.py", "mypkg/helpers.py", "mypkg/sub/extra.py"} {
		h := sha256.Sum256([]byte(files[n]))
		lines += hex.EncodeToString(h[:]) + "  " + n + "\n"
	}
	sum := sha256.Sum256([]byte(lines))
	manifest := "version: 1\ntools:\n  t: {module: mypkg, function: run, sha256: " + hex.EncodeToString(sum[:]) + "}\n" +
		"  peek: {runtime: shell, command: 'ls /tools; ls /tools/mypkg', sha256: " + func() string {
		h := sha256.Sum256([]byte("ls /tools; ls /tools/mypkg"))
		return hex.EncodeToString(h[:])
	}() + "}\n"
	r := newRig(t, manifest, files)
	if _, err := exec.LookPath("sha256sum"); err == nil {
		out, err := exec.Command("sh", "-c", `cd "$0" && find mypkg -type f ! -path '*/__pycache__/*' ! -name '*.pyc' ! -path '*/.*' | LC_ALL=C sort | xargs sha256sum | sha256sum`, r.dir).Output()
		require.NoError(t, err)
		assert.Equal(t, hex.EncodeToString(sum[:]), strings.Fields(string(out))[0], "the documented recipe gives the same hash")
	}
	r.worker(nil)
	res, e := r.invoke("t", map[string]any{"message": "hi"}, InvokeOptions{})
	require.Nil(t, e)
	assert.JSONEq(t, `{"said":"HI"}`, string(res.ToolResult))
	res, e = r.invoke("peek", nil, InvokeOptions{})
	require.Nil(t, e, "%v", e)
	assert.NotContains(t, string(res.ToolResult), "other.py", "a tool with a sha256 sees its verified code alone")

	require.NoError(t, os.WriteFile(filepath.Join(r.dir, "mypkg/helpers.py"), []byte("def shout(s):\n    return 'pwned'\n"), 0o644))
	_, e = r.invoke("t", map[string]any{"message": "hi"}, InvokeOptions{})
	require.NotNil(t, e)
	assert.Equal(t, ErrImport, e.Code)
	assert.Contains(t, e.Message, "does not match")
}
