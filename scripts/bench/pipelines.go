package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/benchdata"
)

// pipeCase is one pipeline of issue 3's benchmark, run in wasmsand, native
// bash + GNU tools and just-bash on the same 5 MB log.
type pipeCase struct {
	name, script string
	runs         int
}

var pipeCases = []pipeCase{
	{"grep -c", "grep -c ERROR log.txt", 5},
	{"grep|awk|sort|uniq -c|sort -nr|head", "grep ERROR log.txt | awk '{print $3}' | sort | uniq -c | sort -nr | head", 3},
	{"word frequency tr|sort|uniq -c", "tr -s ' ' '\\n' < log.txt | sort | uniq -c | sort -nr | head", 2},
	{"sed s///g | wc -c", "sed 's/ERROR/WARN/g' log.txt | wc -c", 3},
	{"seq 200000|sort -n|uniq|wc -l", "seq 1 200000 | sort -n | uniq | wc -l", 3},
	{"warm cat f | wc -l", "cat small.txt | wc -l", 200},
}

func pipelines(ctx context.Context) {
	tools := openAssets(ctx, "pipelines", "")
	if tools == nil {
		return
	}
	logData := benchdata.Log(5 << 20)
	small := []byte(strings.Repeat("a line\n", 100))
	dir, err := os.MkdirTemp("", "wasmsand-bench")
	check(err)
	defer os.RemoveAll(dir)
	check(os.WriteFile(filepath.Join(dir, "log.txt"), logData, 0o644))
	check(os.WriteFile(filepath.Join(dir, "small.txt"), small, 0o644))

	sb, err := core.New(ctx, core.Options{Programs: tools, FSLimitMB: 1024, OutputLimit: 64 << 20})
	check(err)
	defer sb.Close()
	check(sb.WriteFile("/home/user/log.txt", logData, 0))
	check(sb.WriteFile("/home/user/small.txt", small, 0))

	jb := justBash(dir)

	fmt.Printf("%-36s %12s %12s %8s %12s %9s\n", "pipeline (5 MB log)", "wasmsand", "native", "ratio", "just-bash", "jb ratio")
	for _, c := range pipeCases {
		var theirs []byte
		tOurs, ours := timeIn(ctx, sb, c)
		tNative := per(c.runs, func() {
			cmd := exec.Command("bash", "-c", c.script)
			cmd.Dir = dir
			cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
			out, err := cmd.Output()
			check(err)
			theirs = out
		})
		same := ""
		if !bytes.Equal(ours, theirs) {
			same = " (output differs from native!)"
		}
		jbCol, jbRatio := "-", "-"
		if r, ok := jb[c.name]; ok {
			d := time.Duration(r.MS * float64(time.Millisecond))
			jbCol, jbRatio = d.Round(time.Microsecond).String(), fmt.Sprintf("%.2f×", float64(tOurs)/float64(d))
		}
		fmt.Printf("%-36s %12s %12s %7.2f× %12s %9s%s\n", c.name, tOurs.Round(time.Microsecond), tNative.Round(time.Microsecond),
			float64(tOurs)/float64(tNative), jbCol, jbRatio, same)
	}
	fmt.Println("ratio = wasmsand / native (target ≤ 3×; warm single command ≤ 1 ms); jb ratio = wasmsand / just-bash (< 1 is faster)")
}

type jbResult struct {
	MS       float64            `json:"ms"`
	Stdout   string             `json:"stdout"`
	ExitCode int                `json:"exitCode"`
	Parts    map[string]float64 `json:"parts,omitempty"` // (a start's parts, in ms)
}

// justBash runs the cases in just-bash through node; nil when it is not installed.
func justBash(dir string) map[string]jbResult {
	if _, err := os.Stat("node_modules/just-bash"); err != nil {
		fmt.Println("just-bash: not installed (npm install), column skipped")
		return nil
	}
	type jc struct {
		Name   string `json:"name"`
		Script string `json:"script"`
		Runs   int    `json:"runs"`
	}
	in := struct {
		Files map[string]string `json:"files"`
		Cases []jc              `json:"cases"`
	}{Files: map[string]string{"/home/user/log.txt": filepath.Join(dir, "log.txt"), "/home/user/small.txt": filepath.Join(dir, "small.txt")}}
	for _, c := range pipeCases {
		in.Cases = append(in.Cases, jc{c.name, c.script, c.runs})
	}
	data, _ := json.Marshal(in)
	cmd := exec.Command("node", "scripts/bench/justbash.mjs")
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Printf("just-bash: failed (%v): %s\n", err, strings.TrimSpace(stderr.String()))
		return nil
	}
	var res map[string]jbResult
	if err := json.Unmarshal(out, &res); err != nil {
		fmt.Printf("just-bash: bad output: %v\n", err)
		return nil
	}
	return res
}

// timeIn times c's script in sb (per), failing on a non-zero exit, and returns its output.
func timeIn(ctx context.Context, sb *core.Sandbox, c pipeCase) (time.Duration, []byte) {
	var out []byte
	d := per(c.runs, func() { out = runOK(ctx, sb, c.name, c.script).Stdout })
	return d, out
}
