package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/natstest"
	"github.com/wasmsand/wasmsand/service"
)

// clusterBench: what spreading sessions over machines costs, on a cluster
// of three NATS servers with JetStream replicas = 3 on loopback: a
// checkpoint after a run that changed one file of a 10 MB session (time
// and bytes written), claiming and restoring that session on another node,
// a request forwarded to the owner beside one sent to it, and sessions
// that fit in 1 GB.
func clusterBench(ctx context.Context) {
	fmt.Println()
	dir, err := os.MkdirTemp("", "wasmsand-bench-nats-")
	check(err)
	defer os.RemoveAll(dir)
	urls, stop, err := natstest.Start(3, dir)
	check(err)
	defer stop()
	join := func(name string) (*cluster.Node, *nats.Conn) {
		nc, err := nats.Connect(urls)
		check(err)
		c, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		n, err := cluster.Join(c, cluster.Options{Conn: nc, Name: name, Replicas: 3, LeaseTTL: 3 * time.Second})
		check(err)
		return n, nc
	}
	newSB := func(ctx context.Context, _ service.CreateRequest, on func(core.Event)) (*core.Sandbox, error) {
		return core.New(ctx, core.Options{OnEvent: on})
	}

	// checkpoint: a 10 MB session, one 4 KB file rewritten per run
	a, anc := join("bench-a")
	sb, err := core.New(ctx, core.Options{})
	check(err)
	_, err = sb.Run(ctx, "mkdir -p /home/user/data; for i in {1..1000}; do printf '%10240s' $i > /home/user/data/f$i; done; x=1", core.RunOptions{})
	check(err)
	client := cluster.ClientKey("bench")
	check(a.Create(ctx, client, "bench10mb", nil, sb, 0))
	var times []time.Duration
	var bytesW []int64
	for i := range 200 {
		check(sb.WriteFile(fmt.Sprintf("/home/user/data/f%d", i%1000+1), []byte(strings.Repeat("y", 4096)), 0))
		t0 := time.Now()
		check(a.Checkpoint(ctx, "bench10mb"))
		times = append(times, time.Since(t0))
		rec, err := a.Describe(ctx, client, "bench10mb")
		check(err)
		bytesW = append(bytesW, rec.Chain[len(rec.Chain)-1].Size)
	}
	median := medianOf(times)
	sort.Slice(bytesW, func(i, j int) bool { return bytesW[i] < bytesW[j] })
	medBytes := bytesW[len(bytesW)/2]

	// claim and restore on another node, the owner gone
	a.Close() // (gone: its lease with it)
	anc.Close()
	b, bnc := join("bench-b")
	defer bnc.Close()
	defer b.Close()
	t0 := time.Now()
	owner, err := b.Open(ctx, client, "bench10mb", func() bool { return false }, func(st *cluster.State) (*core.Sandbox, error) {
		sb, err := core.New(ctx, core.Options{})
		if err != nil {
			return nil, err
		}
		return sb, st.Apply(sb)
	})
	check(err)
	tClaim := time.Since(t0)
	if owner != "" {
		fail("cluster: the session stayed with %s", owner)
	}

	// forwarding: a run sent to the owner, and the same sent to another node
	c1, c1nc := join("bench-c1")
	defer c1nc.Close()
	defer c1.Close()
	c2, c2nc := join("bench-c2")
	defer c2nc.Close()
	defer c2.Close()
	s1 := service.New(service.Options{MaxSessions: 1 << 20, NewSandbox: newSB, Cluster: c1})
	defer s1.Close()
	s2 := service.New(service.Options{MaxSessions: 1 << 20, NewSandbox: newSB, Cluster: c2})
	defer s2.Close()
	check(c1.Serve(s1.Handler()))
	check(c2.Serve(s2.Handler()))
	h1 := httptest.NewServer(s1.Handler())
	defer h1.Close()
	h2 := httptest.NewServer(s2.Handler())
	defer h2.Close()
	post := func(base, path, body string) map[string]any {
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		check(err)
		defer res.Body.Close()
		var out map[string]any
		check(json.NewDecoder(res.Body).Decode(&out))
		if res.StatusCode >= 300 {
			fail("cluster: %s: %d %v", path, res.StatusCode, out)
		}
		return out
	}
	id := post(h1.URL, "/v1/sessions", "{}")["id"].(string)
	run := `{"command":"echo hi"}`
	get := func(base string) {
		res, err := http.Get(base + "/v1/sessions/" + id)
		check(err)
		res.Body.Close()
		if res.StatusCode != 200 {
			fail("cluster: GET session: %d", res.StatusCode)
		}
	}
	// medians, the two interleaved (a checkpoint's time varies with
	// JetStream's own work)
	var runOwner, forwarded, getOwner, getForwarded []time.Duration
	for range 300 {
		runOwner = append(runOwner, timed(func() { post(h1.URL, "/v1/sessions/"+id+"/run", run) }))
		forwarded = append(forwarded, timed(func() { post(h2.URL, "/v1/sessions/"+id+"/run", run) }))
		getOwner = append(getOwner, timed(func() { get(h1.URL) }))
		getForwarded = append(getForwarded, timed(func() { get(h2.URL) }))
	}
	tOwner, tForwarded := medianOf(runOwner), medianOf(forwarded)
	tGetOwner, tGetForwarded := medianOf(getOwner), medianOf(getForwarded)

	// sessions per node in 1 GB: 200 sessions held by one node, each after a run
	before := heapAfterGC()
	for range 200 {
		sid := post(h1.URL, "/v1/sessions", "{}")["id"].(string)
		post(h1.URL, "/v1/sessions/"+sid+"/run", `{"command":"cd /tmp; v=1; echo x > f"}`)
	}
	perSession := float64(heapAfterGC()-before) / 200

	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Printf("%-58s %14s %s\n", "cluster (3 NATS servers, JetStream R3, loopback)", "measured", "target")
	fmt.Printf("%-58s %14s %s\n", "checkpoint after a 1-file change, 10 MB session (median)", ms(median), "≤ 5 ms")
	fmt.Printf("%-58s %14s %s\n", "  its p90", ms(times[len(times)*9/10]), "")
	fmt.Printf("%-58s %11.1f KB %s\n", "  bytes written (median)", float64(medBytes)/1024, "≤ 100 KB")
	fmt.Printf("%-58s %14s %s\n", "claim + restore of the 10 MB session on another node", ms(tClaim), "")
	fmt.Printf("%-58s %14s %s\n", "POST /run to the owner (echo hi, with its checkpoint)", ms(tOwner), "median")
	fmt.Printf("%-58s %14s %s\n", "POST /run to another node (forwarded over NATS)", ms(tForwarded), "median")
	fmt.Printf("%-58s %14s %s\n", "  p99 to the owner, forwarded", ms(runOwner[len(runOwner)*99/100])+" "+ms(forwarded[len(forwarded)*99/100]), "")
	fmt.Printf("%-58s %14s %s\n", "GET /v1/sessions/ID from the owner", ms(tGetOwner), "median")
	fmt.Printf("%-58s %14s %s\n", "GET /v1/sessions/ID from another node", ms(tGetForwarded), "median")
	fmt.Printf("%-58s %14s %s\n", "  forwarding overhead (GET)", ms(tGetForwarded-tGetOwner), "≤ 2 ms")
	fmt.Printf("%-58s %11.0f KB %s\n", "memory per held session (after one run)", perSession/1024, "")
	fmt.Printf("%-58s %14.0f %s\n", "  sessions per node in 1 GB", float64(1<<30)/perSession, "")
}

func timed(f func()) time.Duration {
	t0 := time.Now()
	f()
	return time.Since(t0)
}

// medianOf sorts d and returns its median.
func medianOf(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}
