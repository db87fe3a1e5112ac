package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/benchdata"
)

// nodeBench: the npm package in Node (build/npm) beside native wasmsand and
// native bash/GNU, and just-bash in the same Node, on the same cases.
func nodeBench(ctx context.Context) {
	pkg, _ := filepath.Abs("build/npm")
	if _, err := os.Stat(filepath.Join(pkg, "wasmsand.wasm")); err != nil {
		fmt.Println("node: no package in build/npm (make npm), section skipped")
		return
	}
	tools := openAssets(ctx, "node", "")
	if tools == nil {
		return
	}
	dir, err := os.MkdirTemp("", "wasmsand-bench")
	check(err)
	defer os.RemoveAll(dir)
	logData := benchdata.Log(5 << 20)
	small := []byte(strings.Repeat("a line\n", 100))
	check(os.WriteFile(filepath.Join(dir, "log.txt"), logData, 0o644))
	check(os.WriteFile(filepath.Join(dir, "small.txt"), small, 0o644))

	cases := append([]pipeCase{
		{"warm echo hi", "echo hi", 200},
		{"10k-iteration for ((…)) loop", "for ((i=0;i<10000;i++)); do :; done", 5},
		{"python3 -c 'print(1)'", "python3 -c 'print(1)'", 5},
	}, append(pipeCases, pyperfCases()...)...)

	// in Node
	type nc struct {
		Name   string `json:"name"`
		Script string `json:"script"`
		Runs   int    `json:"runs"`
	}
	in := struct {
		Pkg     string            `json:"pkg"`
		Files   map[string]string `json:"files"`
		Cases   []nc              `json:"cases"`
		PyCases []nc              `json:"pyCases"`
	}{Pkg: pkg, Files: map[string]string{"/home/user/log.txt": filepath.Join(dir, "log.txt"), "/home/user/small.txt": filepath.Join(dir, "small.txt")}}
	for _, c := range cases {
		in.Cases = append(in.Cases, nc{c.name, c.script, c.runs})
	}
	for _, c := range pyodideCases {
		in.PyCases = append(in.PyCases, nc{c.name, c.script, c.runs})
	}
	data, _ := json.Marshal(in)
	inNode := runJSBench("node", "scripts/bench/node.mjs", data)
	if inNode == nil {
		return
	}
	inChromium := runJSBench("chromium", "scripts/bench/chromium.mjs", data) // nil: column left out

	// natively, in this process
	sb, err := core.New(ctx, core.Options{Programs: tools, FSLimitMB: 1024, OutputLimit: 64 << 20})
	check(err)
	defer sb.Close()
	check(sb.WriteFile("/home/user/log.txt", logData, 0))
	check(sb.WriteFile("/home/user/small.txt", small, 0))
	jb := justBash(dir)

	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Printf("%-36s %12s %12s %8s %12s %8s %12s %9s\n", "in Node and Chromium (npm package)", "node", "native ws", "ratio", "chromium", "ratio", "just-bash", "jb/node")
	for _, c := range cases {
		var native []byte
		tNative := per(c.runs, func() {
			res, err := sb.Run(ctx, c.script, core.RunOptions{})
			check(err)
			native = res.Stdout
		})
		r := inNode[c.name]
		tNode := time.Duration(r.MS * float64(time.Millisecond))
		same := ""
		if r.Stdout != string(native) {
			same = " (output differs from native wasmsand!)"
		}
		jbCol, jbRatio := "-", "-"
		if j, ok := jb[c.name]; ok {
			d := time.Duration(j.MS * float64(time.Millisecond))
			jbCol, jbRatio = ms(d), fmt.Sprintf("%.1f×", float64(d)/float64(tNode))
		}
		crCol, crRatio := "-", "-"
		if r, ok := inChromium[c.name]; ok {
			d := time.Duration(r.MS * float64(time.Millisecond))
			crCol, crRatio = ms(d), fmt.Sprintf("%.2f×", float64(d)/float64(tNative))
			if r.Stdout != string(native) {
				same += " (Chromium's output differs from native wasmsand!)"
			}
		}
		fmt.Printf("%-36s %12s %12s %7.2f× %12s %8s %12s %9s%s\n", c.name, ms(tNode), ms(tNative), float64(tNode)/float64(tNative), crCol, crRatio, jbCol, jbRatio, same)
	}
	if r, ok := inNode["cold start"]; ok {
		fmt.Printf("%-36s %12s   (a new Node process: import, create, first output; median of 5; target ≤ 200 ms)\n", "cold start (Node)", fmt.Sprintf("%.0f ms", r.MS))
		for _, p := range []string{"import", "create", "first run"} {
			fmt.Printf("%-36s %12s\n", "  "+p, fmt.Sprintf("%.0f ms", r.Parts[p]))
		}
	}
	if r, ok := inNode["cold start, one V8 thread"]; ok {
		fmt.Printf("%-36s %12s   (the same with node --v8-pool-size=1: V8's optimising compiler off the two cores)\n", "  same, one V8 background thread", fmt.Sprintf("%.0f ms", r.MS))
	}
	if r, ok := inChromium["first command"]; ok {
		fmt.Printf("%-36s %12s   (page load → first output of echo hi, caches warm; target ≤ 500 ms)\n", "first command (Chromium)", fmt.Sprintf("%.0f ms", r.MS))
	}
	if r, ok := inChromium["first pipeline"]; ok {
		fmt.Printf("%-36s %12s   (page load → seq 3 | sort -r done, after the echo)\n", "first pipeline (Chromium)", fmt.Sprintf("%.0f ms", r.MS))
	}
	fmt.Println("ratio = Node (or Chromium) / native wasmsand (pipelines target ≤ 1.5×); jb/node = just-bash / Node (> 1: wasmsand in Node is faster; target ≥ 10× on pipelines)")
	fmt.Println("Node and Chromium are timed after up to 1 s of warm-up runs per case, once V8 has tiered the guests up (native wazero compiles ahead of time)")
	pyodideTable(ctx, sb, inNode, inChromium)
	poolTable(ctx, pkg, tools, filepath.Join(dir, "log.txt"))
}

// poolTable: many sandboxes in one Node process on the pool's workers
// (scripts/bench/pool.mjs), beside the same natively in this process.
func poolTable(ctx context.Context, pkg string, tools core.ProgramSource, logPath string) {
	in, _ := json.Marshal(map[string]string{"log": logPath})
	cmd := exec.Command("node", "--expose-gc", "scripts/bench/pool.mjs", pkg)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Printf("pool: failed (%v): %s\n", err, strings.TrimSpace(stderr.String()))
		return
	}
	var r struct {
		Workers                             int
		RssPerIdleSandboxKB, RssFor1000MB   float64
		CreateP50, CreateP99, EchoP50       float64
		FirstEchoP50                        float64
		OneClientPerSec, EightClientsPerSec float64
	}
	check(json.Unmarshal(out, &r))

	// natively: 1,000 sandboxes in this process, create times and heap
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	var creates []time.Duration
	var sbs []*core.Sandbox
	for range 1000 {
		t := time.Now()
		sb, err := core.New(ctx, core.Options{Programs: tools})
		check(err)
		creates = append(creates, time.Since(t))
		sbs = append(sbs, sb)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	// (as pool.mjs: a sandbox's first run, then warm runs of one in ten)
	var first, echo []time.Duration
	for i, sb := range sbs[:200] {
		t := time.Now()
		_, err := sb.Run(ctx, "echo hi", core.RunOptions{})
		check(err)
		first = append(first, time.Since(t))
		for j := 0; i%10 == 0 && j < 50; j++ {
			t = time.Now()
			_, err := sb.Run(ctx, "echo hi", core.RunOptions{})
			check(err)
			echo = append(echo, time.Since(t))
		}
	}
	for _, sb := range sbs {
		sb.Close()
	}
	pct := func(d []time.Duration, p float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[min(len(s)-1, int(p*float64(len(s))))]) / float64(time.Millisecond)
	}
	heapKB := float64(m1.HeapAlloc-min(m0.HeapAlloc, m1.HeapAlloc)) / 1000 / 1024

	fmt.Printf("\n%-44s %12s %12s   %s\n", fmt.Sprintf("many sandboxes, one process (%d workers)", r.Workers), "node", "native", "target (node)")
	fmt.Printf("%-44s %9.0f KB %9.0f KB   ≤ 1 MB (1,000 idle: %.0f MB of RSS in all; native: heap)\n", "memory per idle sandbox", r.RssPerIdleSandboxKB, heapKB, r.RssFor1000MB)
	fmt.Printf("%-44s %9.2f ms %9.2f ms   ≤ 2 ms\n", "create, p50 (pool warm)", r.CreateP50, pct(creates, 0.5))
	fmt.Printf("%-44s %9.2f ms %9.2f ms   ≤ 20 ms\n", "create, p99", r.CreateP99, pct(creates, 0.99))
	fmt.Printf("%-44s %9.2f ms %9.2f ms   ≤ 0.5 ms\n", "warm echo hi, p50", r.EchoP50, pct(echo, 0.5))
	fmt.Printf("%-44s %9.2f ms %9.2f ms\n", "an idle sandbox's first echo hi, p50", r.FirstEchoP50, pct(first, 0.5))
	fmt.Printf("%-44s %11.2f× %12s   ≥ 1.6× (%.1f runs/s for one client, %.1f for eight)\n", "8 clients' grep|sort|uniq vs one's", r.EightClientsPerSec/r.OneClientPerSec, "-", r.OneClientPerSec, r.EightClientsPerSec)
}

// pyodideCases are timed with python3 as Pyodide (Sandbox.create({python:
// "pyodide"})), beside python3.wasm natively and the host's CPython.
var pyodideCases = append([]pipeCase{
	{"python3 -c 'print(1)' (warm)", "python3 -c 'print(1)'", 20},
	{"import json, csv, sqlite3, decimal", "python3 -c 'import json, csv, sqlite3, decimal'", 10},
	{"3M-iteration for loop", "python3 -c 's = 0\nfor i in range(3000000): s += i\nprint(s)'", 3},
}, pyperfCases()...)

func pyodideTable(ctx context.Context, sb *core.Sandbox, inNode, inChromium map[string]jbResult) {
	native := nativePython()
	fmt.Printf("\n%-36s %12s %12s %14s %12s   %s\n", "python3 as Pyodide", "node", "chromium", "python3.wasm", "native", "(python3.wasm: native wasmsand; native: "+native+")")
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
	for _, c := range pyodideCases {
		script := c.script
		wasi := per(c.runs, func() { runOK(ctx, sb, c.name, script) })
		nat := "-"
		if native != "" {
			code := pythonCode(script)
			nat = ms(per(c.runs, func() {
				if out, err := exec.Command(native, "-c", code).CombinedOutput(); err != nil {
					fail("native %s -c %q: %v: %s", native, code, err, out)
				}
			}))
		}
		col := func(m map[string]jbResult) string {
			if r, ok := m["pyodide: "+c.name]; ok {
				return ms(time.Duration(r.MS * float64(time.Millisecond)))
			}
			return "-"
		}
		fmt.Printf("%-36s %12s %12s %14s %12s\n", c.name, col(inNode), col(inChromium), ms(wasi), nat)
	}
	first := func(m map[string]jbResult) string {
		if r, ok := m["pyodide first run"]; ok {
			return fmt.Sprintf("%.0f ms", r.MS)
		}
		return "-"
	}
	fmt.Printf("%-36s %12s %12s   (after create, Pyodide loaded from the package's snapshot; Node: a new process, Chromium: a later visit)\n", "first python3 -c 'print(1)'", first(inNode), first(inChromium))
	fmt.Println("targets: warm run ≤ 30 ms; first run ≤ 1 s in Node")
}

// runJSBench runs one of the JS bench scripts on the cases (JSON on its
// stdin) and reads its results; nil (and a line saying why) on failure.
func runJSBench(what, script string, input []byte) map[string]jbResult {
	cmd := exec.Command("node", script)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Printf("%s: failed (%v): %s\n", what, err, strings.TrimSpace(stderr.String()))
		return nil
	}
	var res map[string]jbResult
	if err := json.Unmarshal(out, &res); err != nil {
		fmt.Printf("%s: bad output (%v)\n", what, err)
		return nil
	}
	return res
}
