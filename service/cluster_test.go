package service_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/internal/natstest"
	"github.com/wasmsand/wasmsand/service"
)

// clusterNode is one service of a test cluster, with its own connection
// to NATS (closing it is what a killed node looks like to the others).
type clusterNode struct {
	svc  *service.Server
	hs   *httptest.Server
	node *cluster.Node
	nc   *nats.Conn
}

func startNode(t *testing.T, urls, name string, replicas int) *clusterNode {
	t.Helper()
	nc, err := nats.Connect(urls, nats.MaxReconnects(-1))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	node, err := cluster.Join(ctx, cluster.Options{Conn: nc, Name: name, Replicas: replicas, LeaseTTL: 3 * time.Second})
	require.NoError(t, err)
	svc, hs := newServer(t, service.Options{Tokens: []string{"tok-a", "tok-b"}, Cluster: node})
	require.NoError(t, node.Serve(svc.Handler()))
	c := &clusterNode{svc: svc, hs: hs, node: node, nc: nc}
	t.Cleanup(func() { node.Close(); nc.Close() })
	return c
}

// kill makes the node vanish as a SIGKILL would: no drain, no release.
func (c *clusterNode) kill() {
	c.hs.Close()
	c.nc.Close()
}

func TestClusterForwardAndFailover(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a := startNode(t, urls, "a", 1)
	b := startNode(t, urls, "b", 1)
	ca := client{t, a.hs.URL, "tok-a"}
	cb := client{t, b.hs.URL, "tok-a"}

	s := ca.json("POST", "/v1/sessions", map[string]any{"env": map[string]string{"WHO": "alice"}}, 201)
	id := s["id"].(string)
	r := ca.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "cd /tmp && echo one > f && X=42 && g() { echo g$1; }"}, 200)
	require.EqualValues(t, 0, r["exit_code"], r)

	// forwarded: b does not hold it
	r = cb.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "pwd; read l < f; echo $l; echo $X $WHO; g 7"}, 200)
	assert.Equal(t, "/tmp\none\n42 alice\ng7\n", r["stdout"])
	// another token sees nothing, on either node
	st, _, _ := client{t, b.hs.URL, "tok-b"}.do("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "true"})
	assert.Equal(t, 404, st)
	// a large upload and its download, both forwarded
	big := strings.Repeat("0123456789abcdef", 80<<10) // 1.25 MiB
	cb.json("PUT", "/v1/sessions/"+id+"/files?path=/tmp/big", []byte(big), 200)
	st, got, _ := cb.do("GET", "/v1/sessions/"+id+"/files?path=/tmp/big", nil)
	require.Equal(t, 200, st)
	assert.Equal(t, len(big), len(got))
	assert.True(t, string(got) == big)
	// a streamed run, forwarded: events arrive as they are made
	req, _ := http.NewRequest("POST", b.hs.URL+"/v1/sessions/"+id+"/run", strings.NewReader(`{"command":"echo a; sleep 0.3; echo b","stream":true}`))
	req.Header.Set("Authorization", "Bearer tok-a")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	sc := bufio.NewScanner(res.Body)
	var events []string
	for sc.Scan() {
		if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok && (ev == "stdout" || ev == "result") {
			events = append(events, ev)
		}
	}
	res.Body.Close()
	assert.Equal(t, []string{"stdout", "stdout", "result"}, events)
	// listed on both nodes
	for _, c := range []client{ca, cb} {
		l := c.json("GET", "/v1/sessions", nil, 200)
		require.Len(t, l["sessions"], 1)
	}
	snap := ca.json("POST", "/v1/sessions/"+id+"/snapshots", nil, 201)["snapshot_id"].(string)
	ca.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "echo two > /tmp/f"}, 200)

	// a dies: b claims the session and restores it from its checkpoints
	a.kill()
	r = cb.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "pwd; read l < f; echo $l; echo $X $WHO; g 8; v=$(<big); echo ${#v}"}, 200)
	assert.Equal(t, "/tmp\ntwo\n42 alice\ng8\n1310720\n", r["stdout"])
	// the snapshot taken on a is there too
	cb.json("POST", "/v1/sessions/"+id+"/restore", map[string]any{"snapshot_id": snap}, 204)
	r = cb.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "read l < f; echo $l"}, 200)
	assert.Equal(t, "one\n", r["stdout"])
	cb.json("DELETE", "/v1/sessions/"+id, nil, 204)
	st, _, _ = cb.do("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "true"})
	assert.Equal(t, 404, st)
}

func TestClusterDrain(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	a := startNode(t, urls, "a", 1)
	b := startNode(t, urls, "b", 1)
	ca := client{t, a.hs.URL, "tok-a"}
	cb := client{t, b.hs.URL, "tok-a"}
	var ids []string
	for i := range 5 {
		id := ca.json("POST", "/v1/sessions", nil, 201)["id"].(string)
		ca.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": fmt.Sprintf("echo %d > /tmp/n; N=%d", i, i)}, 200)
		ids = append(ids, id)
	}
	// a long run in flight while a drains: it completes, then a lets go
	done := make(chan map[string]any)
	go func() {
		done <- cb.json("POST", "/v1/sessions/"+ids[0]+"/run", map[string]any{"command": "sleep 0.5; echo late >> /tmp/n"}, 200)
	}()
	time.Sleep(100 * time.Millisecond)
	a.hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a.svc.Drain(ctx)
	a.node.Close()
	<-done
	for i, id := range ids {
		r := cb.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "while read l; do echo $l; done < /tmp/n; echo $N"}, 200)
		want := fmt.Sprintf("%d\n%d\n", i, i)
		if i == 0 {
			want = "0\nlate\n0\n"
		}
		assert.Equal(t, want, r["stdout"], id)
	}
}

// TestClusterIdleEvict: a session idle past IdleEvict leaves the node's
// memory (its record stays), and its next request restores it.
func TestClusterIdleEvict(t *testing.T) {
	urls := natstest.Cluster(t, 1)
	nc, err := nats.Connect(urls)
	require.NoError(t, err)
	defer nc.Close()
	node, err := cluster.Join(context.Background(), cluster.Options{Conn: nc, Name: "a"})
	require.NoError(t, err)
	defer node.Close()
	svc, hs := newServer(t, service.Options{Cluster: node, IdleEvict: 200 * time.Millisecond})
	c := client{t, hs.URL, ""}
	id := c.json("POST", "/v1/sessions", nil, 201)["id"].(string)
	c.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "cd /tmp; k=v"}, 200)
	require.Eventually(t, func() bool { return svc.Sessions() == 0 && len(node.Held()) == 0 }, 10*time.Second, 50*time.Millisecond)
	r := c.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "echo $k $PWD"}, 200)
	assert.Equal(t, "v /tmp\n", r["stdout"])
	assert.Equal(t, 1, svc.Sessions())
}
