package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/natstest"
	"github.com/wasmsand/wasmsand/mcpserver"
)

// mcpNode is one `mcp --listen --nats` server of a test cluster.
type mcpNode struct {
	srv  *mcpserver.Server
	hs   *httptest.Server
	node *cluster.Node
	nc   *nats.Conn
}

func startMCPNode(t *testing.T, urls, name string) *mcpNode {
	t.Helper()
	nc, err := nats.Connect(urls, nats.MaxReconnects(-1))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	node, err := cluster.Join(ctx, cluster.Options{Conn: nc, Name: name, LeaseTTL: 3 * time.Second})
	require.NoError(t, err)
	o := &cliOptions{timeout: 5 * time.Second, memory: 256}
	srv := mcpserver.New(mcpserver.Options{NewSandbox: func(ctx context.Context) (*core.Sandbox, error) { return setup(ctx, o.clone()) },
		Shared: true, Cluster: node, Token: "s3cret"})
	h := mcpHandler(srv, "s3cret")
	require.NoError(t, node.Serve(h))
	hs := httptest.NewServer(h)
	t.Cleanup(func() { hs.Close(); srv.Close(); node.Close(); nc.Close() })
	return &mcpNode{srv: srv, hs: hs, node: node, nc: nc}
}

// balancer sends every request to the node it points at (a load balancer
// that moves a client to another node, as after a failure).
type balancer struct{ target atomic.Pointer[url.URL] }

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u := b.target.Load()
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1
	p.ServeHTTP(w, r)
}

func (b *balancer) to(raw string) {
	u, _ := url.Parse(raw)
	b.target.Store(u)
}

// mcpPair is two MCP nodes of a cluster, and a balancer in front that
// sends clients to a until it is told otherwise.
func mcpPair(t *testing.T) (a, b *mcpNode, lb *balancer, lbURL string) {
	urls := natstest.Cluster(t, 1)
	a = startMCPNode(t, urls, "a")
	b = startMCPNode(t, urls, "b")
	lb = &balancer{}
	lb.to(a.hs.URL)
	lbs := httptest.NewServer(lb)
	t.Cleanup(lbs.Close)
	return a, b, lb, lbs.URL
}

// TestMCPCluster: an MCP client keeps its session, its sandbox's files and
// shell when the node it talked to dies and its requests reach another;
// a named session is shared by clients of two nodes; an MCP session that
// ends takes its sandboxes with it.
func TestMCPCluster(t *testing.T) {
	a, b, lb, lbURL := mcpPair(t)
	cs := connectMCP(t, lbURL)
	out, msg := call(t, cs, "run", map[string]any{"command": "cd /tmp; echo one > f; N=7; g() { echo g$1; }"})
	require.Empty(t, msg)
	require.EqualValues(t, 0, out["exit_code"])
	snap, _ := call(t, cs, "snapshot", map[string]any{})
	call(t, cs, "write_file", map[string]any{"path": "/tmp/f", "content": "two\n"})
	forked, _ := call(t, cs, "fork", map[string]any{})
	fid := forked["session"].(string)
	call(t, cs, "run", map[string]any{"command": "echo forked > /tmp/h", "session": fid})

	// a named session, used through both nodes
	other := connectMCP(t, b.hs.URL)
	call(t, cs, "run", map[string]any{"command": "echo shared > /home/user/s", "session": "team"})
	out, _ = call(t, other, "run", map[string]any{"command": "echo $(</home/user/s)", "session": "team"})
	assert.Equal(t, "shared\n", out["stdout"])
	out, _ = call(t, cs, "run", map[string]any{"command": "echo more >> /home/user/s; echo $(</home/user/s)", "session": "team"})
	assert.Equal(t, "shared more\n", out["stdout"])

	// node a dies; the balancer sends the client to b
	a.hs.Close()
	a.nc.Close()
	lb.to(b.hs.URL)
	out, msg = call(t, cs, "run", map[string]any{"command": "pwd; read l < f; echo $l $N; g 1"})
	require.Empty(t, msg)
	assert.Equal(t, "/tmp\ntwo 7\ng1\n", out["stdout"], "the session, its files and its shell, on node b")
	out, _ = call(t, cs, "run", map[string]any{"command": "read l < /tmp/h; echo $l", "session": fid})
	assert.Equal(t, "forked\n", out["stdout"], "its fork too")
	_, msg = call(t, cs, "restore", map[string]any{"snapshot_id": snap["snapshot_id"]})
	require.Empty(t, msg)
	out, _ = call(t, cs, "run", map[string]any{"command": "read l < /tmp/f; echo $l"})
	assert.Equal(t, "one\n", out["stdout"], "a snapshot taken on node a")
	out, _ = call(t, other, "run", map[string]any{"command": "echo $(</home/user/s)", "session": "team"})
	assert.Equal(t, "shared more\n", out["stdout"])

	// the client ends its session: its sandboxes leave the cluster
	ctx := context.Background()
	client := mcpClientKeyForTest(cs.ID())
	ids, err := b.node.Sessions(ctx, client)
	require.NoError(t, err)
	assert.Len(t, ids, 2)
	require.NoError(t, cs.Close())
	require.Eventually(t, func() bool {
		ids, err := b.node.Sessions(ctx, client)
		return err == nil && len(ids) == 0
	}, 10*time.Second, 50*time.Millisecond)
}

// connectMCP is an MCP client session over streamable HTTP at endpoint.
func connectMCP(t *testing.T, endpoint string) *mcp.ClientSession {
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{"s3cret"}}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func mcpClientKeyForTest(mcpID string) string {
	return cluster.ClientKey("s3cret" + "\x00mcp\x00" + mcpID)
}

// TestMCPClusterDrain: a node that drains (SIGTERM) hands its MCP sessions
// and sandboxes over; the client's next call, on another node, finds them.
func TestMCPClusterDrain(t *testing.T) {
	a, b, lb, lbURL := mcpPair(t)
	cs := connectMCP(t, lbURL)
	call(t, cs, "run", map[string]any{"command": "cd /tmp; x=drained; echo kept > k"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a.srv.Drain(ctx)
	a.hs.Close()
	a.node.Close()
	lb.to(b.hs.URL)
	out, msg := call(t, cs, "run", map[string]any{"command": "echo $x $(<k) $PWD"})
	require.Empty(t, msg)
	assert.Equal(t, "drained kept /tmp\n", out["stdout"])
}
