// Command bench measures wasmsand beside native bash in the same run and
// prints ratios. It is `make bench`; no test asserts on these numbers.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
)

func init() { _ = os.Setenv("LC_ALL", "C.UTF-8") }

type row struct {
	name           string
	ours, native   time.Duration
	target, remark string
}

// main runs every section, or those named on the command line
// (shell, pipelines, python, node, network, servers, newprocess, toolruntime, playground, userland). WASMSAND_BENCH_CPUPROFILE=FILE writes a Go
// CPU profile of the run.
func main() {
	ctx := context.Background()
	sections := map[string]func(context.Context){"shell": shellBench, "pipelines": pipelines, "python": pythonBench, "node": nodeBench, "network": networkBench, "servers": serversBench, "newprocess": newProcessBench, "toolruntime": toolRuntimeBench, "playground": playgroundBench, "userland": userlandBench, "node-guest": nodeGuestBench, "cluster": clusterBench}
	names := os.Args[1:]
	if len(names) == 0 {
		names = []string{"shell", "pipelines", "python", "node", "network", "servers", "newprocess", "toolruntime", "playground", "userland", "node-guest", "cluster"}
	}
	for _, n := range names {
		if sections[n] == nil {
			fail("unknown section %q (shell, pipelines, python, node, network, servers, newprocess, toolruntime, playground, userland, node-guest, cluster)", n)
		}
	}
	if f := os.Getenv("WASMSAND_BENCH_CPUPROFILE"); f != "" {
		out, err := os.Create(f)
		check(err)
		check(pprof.StartCPUProfile(out))
		defer pprof.StopCPUProfile()
	}
	for _, n := range names {
		sections[n](ctx)
	}
}

// shellBench: the shell itself beside native bash.
func shellBench(ctx context.Context) {
	var rows []row

	sb, err := core.New(ctx, core.Options{})
	check(err)
	defer sb.Close()
	run := func(script string) { runOK(ctx, sb, "shell", script) }

	run("echo warmup")
	rows = append(rows, row{"warm Run: echo hi", per(20000, func() { run("echo hi") }),
		per(200, func() { bash("echo hi") }), "≤ 20 µs", "native = a new bash process"})

	rows = append(rows, row{"new sandbox + echo hi", per(300, func() {
		s, err := core.New(ctx, core.Options{})
		check(err)
		_, err = s.Run(ctx, "echo hi", core.RunOptions{})
		check(err)
		s.Close()
	}), per(200, func() { bash("echo hi") }), "", "native = a new bash process"})

	big, err := core.New(ctx, core.Options{})
	check(err)
	for i := 0; i < 10_000; i++ {
		check(big.WriteFile(fmt.Sprintf("/home/user/d%d/f%d.txt", i/100, i), []byte("x"), 0))
	}
	rows = append(rows, row{"Fork of a 10k-file sandbox", per(20000, func() {
		f, err := big.Fork(ctx)
		check(err)
		f.Close()
	}), 0, "≤ 10 µs", ""})

	forLoop := "for ((i=0;i<10000;i++)); do :; done"
	whileLoop := "i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done"
	rows = append(rows,
		row{"10k-iteration for ((…)) loop", per(10, func() { run(forLoop) }), per(10, func() { bash(forLoop) }), "≤ 1.5× bash", ""},
		row{"10k-iteration while [ ] loop", per(10, func() { run(whileLoop) }), per(10, func() { bash(whileLoop) }), "≤ 1.5× bash", ""},
	)

	// The 1,000-line script, sourced 20 times in one shell on both sides so
	// that neither pays for starting a process.
	script := mixedScript()
	tmp, err := os.CreateTemp("", "wasmsand-bench-*.sh")
	check(err)
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(script)
	check(err)
	check(tmp.Close())
	check(sb.WriteFile("/tmp/mixed.sh", []byte(script), 0o644))
	const reps = 20
	loop := func(path string) string {
		return fmt.Sprintf("for r in {1..%d}; do . %s; done", reps, path)
	}
	rows = append(rows, row{"1,000-line mixed script",
		per(3, func() { run(loop("/tmp/mixed.sh")) }) / reps,
		per(3, func() { bash(loop(tmp.Name())) }) / reps, "≤ 1.5× bash", "builtins and expansions, no programs"})

	fmt.Printf("%-32s %14s %14s %8s  %-10s %s\n", "benchmark", "wasmsand", "native bash", "ratio", "target", "")
	for _, r := range rows {
		ratio := "-"
		nat := "-"
		if r.native > 0 {
			ratio = fmt.Sprintf("%.2f×", float64(r.ours)/float64(r.native))
			nat = r.native.String()
		}
		fmt.Printf("%-32s %14s %14s %8s  %-10s %s\n", r.name, r.ours, nat, ratio, r.target, r.remark)
	}
	fmt.Println()
}

// openAssets opens the guest programs for a section, or says why it is
// skipped and returns nil: none built, or none providing need.
func openAssets(ctx context.Context, section, need string) *core.AssetPrograms {
	src := assetsDir()
	if src == "" {
		fmt.Printf("%s: skipped: no assets (run `make assets`)\n", section)
		return nil
	}
	tools, err := assetsrc.Open(ctx, src)
	check(err)
	if need != "" && !slices.Contains(tools.Commands(), need) {
		fmt.Printf("%s: skipped: the assets have no %s (run `make assets`)\n", section, need)
		return nil
	}
	return tools
}

// assetsDir finds the guest programs: assetsrc.Default(), else build/assets
// under the current directory (`make bench` runs from the checkout; `go run`
// builds the binary elsewhere).
func assetsDir() string {
	if d := assetsrc.Default(); d != "" {
		return d
	}
	if _, err := os.Stat(filepath.Join("build", "assets", assetsrc.ManifestName)); err == nil {
		return filepath.Join("build", "assets")
	}
	return ""
}

// per runs f n times and returns the mean duration of one call.
// heapAfterGC is the live heap, after collecting twice.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func per(n int, f func()) time.Duration {
	for i := 0; i < max(1, n/10); i++ {
		f() // warm: a steady state, as a long-lived server sees it
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		f()
	}
	return time.Since(start) / time.Duration(n)
}

func bash(script string) {
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	if out, err := cmd.CombinedOutput(); err != nil {
		fail("native bash %q: %v: %s", script, err, strings.TrimSpace(string(out)))
	}
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}

// runOK runs a script in sb and fails the bench (naming what) unless it exits 0.
func runOK(ctx context.Context, sb *core.Sandbox, what, script string) *core.Result {
	res, err := sb.Run(ctx, script, core.RunOptions{})
	check(err)
	if res.ExitCode != 0 {
		fail("%s: %q exited %d: %s", what, script, res.ExitCode, res.Stderr)
	}
	return res
}

// sandboxRunner runs a script in sb and fails the section when it fails.
func sandboxRunner(ctx context.Context, sb *core.Sandbox, section string) func(string) func() {
	return func(script string) func() {
		return func() { runOK(ctx, sb, section, script) }
	}
}

// nativeRunner runs a script with the host's bash in dir, with env.
func nativeRunner(dir string, env ...string) func(string) func() {
	return func(script string) func() {
		return func() {
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = dir
			cmd.Env = append([]string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}, env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				fail("native %q: %v: %s", script, err, out)
			}
		}
	}
}
