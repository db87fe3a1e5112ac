package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/toolruntime"
)

// toolRuntimeBench: a python echo tool invoked over NATS (embedded server, loopback): the
// latency of one invocation at a time (p50, p99) and the invocations per second with 8
// at once, with 1 and 2 workers (concurrency = cores each), beside the seed's design
// point, a new process per call (`python3 -c` here; bwrap adds to it where present).
func toolRuntimeBench(ctx context.Context) {
	fmt.Println()
	src := assetsDir()
	if src == "" {
		fmt.Println("toolruntime: skipped: no assets (run `make assets`)")
		return
	}
	tools, err := assetsrc.Open(ctx, src)
	check(err)
	dir, err := os.MkdirTemp("", "wasmsand-bench-toolruntime-")
	check(err)
	defer os.RemoveAll(dir)
	check(os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte("version: 1\ntools:\n  echo: {module: tools, function: echo}\n"), 0o644))
	check(os.WriteFile(filepath.Join(dir, "tools.py"), []byte("def echo(message, ctx):\n    return {'echo': message}\n"), 0o644))
	s, err := toolruntime.EmbeddedServer("127.0.0.1:0", "", nil)
	check(err)
	defer s.Shutdown()
	conn := func() *nats.Conn {
		nc, err := nats.Connect(s.ClientURL())
		check(err)
		return nc
	}
	cnc := conn()
	defer cnc.Close()
	client := &toolruntime.Client{Conn: cnc, Namespace: "bench"}
	call := func() time.Duration {
		t0 := time.Now()
		_, err := client.Invoke(ctx, "echo", map[string]any{"message": "hi"}, toolruntime.InvokeOptions{TimeoutSeconds: 30})
		check(err)
		return time.Since(t0)
	}
	var workers []*toolruntime.Worker
	addWorker := func() {
		nc := conn()
		w, err := toolruntime.NewWorker(toolruntime.WorkerOptions{Manifest: filepath.Join(dir, "manifest.yaml"), Namespace: "bench",
			Conn: nc, Assets: tools})
		check(err)
		check(w.Start())
		workers = append(workers, w)
	}
	defer func() {
		for _, w := range workers {
			_ = w.Stop(ctx)
		}
	}()
	quantiles := func(ts []time.Duration) (time.Duration, time.Duration) {
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		return ts[len(ts)/2], ts[len(ts)*99/100]
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
	fmt.Printf("%-40s %10s %10s %12s\n", "toolruntime: python echo tool over NATS", "p50", "p99", "per second")
	for n := 1; n <= 2; n++ {
		addWorker()
		for i := 0; i < 5; i++ {
			call()
		}
		var ts []time.Duration
		for i := 0; i < 200; i++ {
			ts = append(ts, call())
		}
		p50, p99 := quantiles(ts)
		const total, par = 400, 8
		var wg sync.WaitGroup
		next := make(chan struct{}, total)
		for i := 0; i < total; i++ {
			next <- struct{}{}
		}
		close(next)
		t0 := time.Now()
		for i := 0; i < par; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range next {
					call()
				}
			}()
		}
		wg.Wait()
		rate := float64(total) / time.Since(t0).Seconds()
		fmt.Printf("%-40s %10s %10s %12.0f\n", fmt.Sprintf("%d worker(s), one at a time / 8 at once", n), ms(p50), ms(p99), rate)
	}
	if py, err := exec.LookPath("python3"); err == nil {
		var ts []time.Duration
		for i := 0; i < 20; i++ {
			t0 := time.Now()
			check(exec.Command(py, "-c", "import json; print(json.dumps({'echo': 'hi'}))").Run())
			ts = append(ts, time.Since(t0))
		}
		p50, p99 := quantiles(ts)
		fmt.Printf("%-40s %10s %10s %12s\n", "reference: a python3 -c process per call", ms(p50), ms(p99), "")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		fmt.Println("(bwrap is not installed here: the seed's bubblewrap sandbox would add its own start to the process)")
	}
}
