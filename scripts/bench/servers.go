package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/mcpserver"
	"github.com/wasmsand/wasmsand/service"
)

// serversBench is what the agent interfaces cost beside a direct Run of the
// same command: an MCP run round trip (in-memory pipe as stdio would be,
// and streamable HTTP on 127.0.0.1), an HTTP service run, sessions created
// per second, memory per idle session, and a load test
// (WASMSAND_BENCH_LOAD=SECONDS, default 10; the figure is 60).
func serversBench(ctx context.Context) {
	fmt.Println()
	const script = "x=$((6*7)); echo $x"
	newSB := func(ctx context.Context) (*core.Sandbox, error) { return core.New(ctx, core.Options{}) }
	direct, err := newSB(ctx)
	check(err)
	defer direct.Close()
	tDirect := per(2000, func() {
		_, err := direct.Run(ctx, script, core.RunOptions{})
		check(err)
	})

	srv := mcpserver.New(mcpserver.Options{NewSandbox: newSB})
	defer srv.Close()
	mcpCall := func(cs *mcp.ClientSession) func() {
		return func() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": script}})
			check(err)
			if res.IsError {
				fail("mcp run: %v", res.Content)
			}
		}
	}
	t1, t2 := mcp.NewInMemoryTransports()
	_, err = srv.MCP().Connect(ctx, t1, nil)
	check(err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, t2, nil)
	check(err)
	defer cs.Close()
	tStdio := per(2000, mcpCall(cs))

	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() }, nil))
	defer hs.Close()
	hcs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
	check(err)
	defer hcs.Close()
	tHTTP := per(1000, mcpCall(hcs))

	svc := service.New(service.Options{MaxSessions: 1 << 20, NewSandbox: func(ctx context.Context, _ service.CreateRequest, on func(core.Event)) (*core.Sandbox, error) {
		return core.New(ctx, core.Options{OnEvent: on})
	}})
	defer svc.Close()
	shs := httptest.NewServer(svc.Handler())
	defer shs.Close()
	post := func(path, body string) map[string]any {
		res, err := http.Post(shs.URL+path, "application/json", strings.NewReader(body))
		check(err)
		defer res.Body.Close()
		var out map[string]any
		if res.StatusCode != 204 {
			check(json.NewDecoder(res.Body).Decode(&out))
		}
		if res.StatusCode >= 300 {
			fail("%s: %d %v", path, res.StatusCode, out)
		}
		return out
	}
	id := post("/v1/sessions", "{}")["id"].(string)
	body, _ := json.Marshal(map[string]string{"command": script})
	tService := per(1000, func() { post("/v1/sessions/"+id+"/run", string(body)) })
	del := func(id string) {
		req, _ := http.NewRequest("DELETE", shs.URL+"/v1/sessions/"+id, nil)
		res, err := http.DefaultClient.Do(req)
		check(err)
		res.Body.Close()
	}
	tCreate := per(1000, func() { del(post("/v1/sessions", "{}")["id"].(string)) })

	// memory per idle session: 1000 of them, each having run a command
	before := heapAfterGC()
	var idle []*core.Sandbox
	for i := 0; i < 1000; i++ {
		sb, err := newSB(ctx)
		check(err)
		_, err = sb.Run(ctx, "cd /tmp; v=1", core.RunOptions{})
		check(err)
		idle = append(idle, sb)
	}
	perIdle := float64(heapAfterGC()-before) / 1000
	for _, sb := range idle {
		sb.Close()
	}

	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Printf("%-46s %12s %10s\n", "agent interfaces (run: "+script+")", "per call", "ratio")
	fmt.Printf("%-46s %12s %10s\n", "core.Sandbox.Run (direct, Go)", ms(tDirect), "1.00×")
	fmt.Printf("%-46s %12s %9.2f×\n", "MCP tools/call run, in-memory pipe (as stdio)", ms(tStdio), float64(tStdio)/float64(tDirect))
	fmt.Printf("%-46s %12s %9.2f×\n", "MCP tools/call run, streamable HTTP (loopback)", ms(tHTTP), float64(tHTTP)/float64(tDirect))
	fmt.Printf("%-46s %12s %9.2f×\n", "HTTP service POST /run (loopback)", ms(tService), float64(tService)/float64(tDirect))
	fmt.Printf("%-46s %12s %9.0f/s\n", "HTTP service session create + delete", ms(tCreate), float64(time.Second)/float64(tCreate))
	fmt.Printf("%-46s %12.1f KB\n", "memory per idle session (after one run)", perIdle/1024)
	loadTest(ctx, shs.URL)
}

// loadTest: 200 sessions, each a client running mixed commands in a loop.
func loadTest(ctx context.Context, base string) {
	secs := 10
	if s, err := strconv.Atoi(os.Getenv("WASMSAND_BENCH_LOAD")); err == nil && s > 0 {
		secs = s
	}
	const clients = 200
	scripts := []string{"echo hi", "for i in {1..200}; do x=$((x+i)); done; echo $x", "echo data > f; read -r l < f; echo ${l^^}",
		"declare -A m=([a]=1 [b]=2); echo ${!m[@]}", "printf '%s\\n' {1..50} > n; while read -r v; do s=$((s+v)); done < n; echo $s"}
	var mu sync.Mutex
	var lat []time.Duration
	errs := 0
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var wg sync.WaitGroup
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }()
			res, err := hc.Post(base+"/v1/sessions", "application/json", strings.NewReader("{}"))
			if err != nil {
				mu.Lock()
				errs++
				mu.Unlock()
				return
			}
			var s map[string]any
			_ = json.NewDecoder(res.Body).Decode(&s)
			res.Body.Close()
			id, _ := s["id"].(string)
			for i := c; time.Now().Before(deadline); i++ {
				body, _ := json.Marshal(map[string]string{"command": scripts[i%len(scripts)]})
				t0 := time.Now()
				res, err := hc.Post(base+"/v1/sessions/"+id+"/run", "application/json", strings.NewReader(string(body)))
				ok := err == nil && res.StatusCode == 200
				if err == nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				mu.Lock()
				lat = append(lat, time.Since(t0))
				if !ok {
					errs++
				}
				mu.Unlock()
			}
			req, _ := http.NewRequest("DELETE", base+"/v1/sessions/"+id, nil)
			if res, err := hc.Do(req); err == nil {
				res.Body.Close()
			}
		}()
	}
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if len(lat) == 0 {
		fail("load test: no request ran")
	}
	fmt.Printf("load: %d sessions × %d s on loopback: %d runs (%.0f/s), %d errors, p50 %.2f ms, p99 %.2f ms, heap %d MB (sys %d MB)\n",
		clients, secs, len(lat), float64(len(lat))/float64(secs), errs,
		float64(lat[len(lat)/2])/1e6, float64(lat[len(lat)*99/100])/1e6, m.HeapAlloc>>20, m.Sys>>20)
}
