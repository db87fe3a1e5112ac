package conformance

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/core"
)

// jqTestsDir is our part of jq's suite (the test files run, the known failures).
const jqTestsDir = "../testdata/jq-tests"

// jqTest is one test of a jq .test file: its lines (program, input,
// expected outputs; or a %%FAIL block) and where it starts.
type jqTest struct {
	file  string
	line  int
	lines []string
}

func (t jqTest) id() string { return fmt.Sprintf("%s:%d", t.file, t.line) }

// splitJqTests cuts a .test file into its tests: blocks of lines between
// blank lines, comments dropped (jq's own reader, src/jq_test.c, reads
// them the same way).
func splitJqTests(file, text string) []jqTest {
	var out []jqTest
	var cur *jqTest
	for i, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "#"):
		case strings.TrimSpace(l) == "":
			cur = nil
		default:
			if cur == nil {
				out = append(out, jqTest{file: file, line: i + 1})
				cur = &out[len(out)-1]
			}
			cur.lines = append(cur.lines, l)
		}
	}
	return out
}

// TestJqSuite runs jq's own tests (tests/*.test of Debian's jq source, from
// WASMSAND_JQ_TESTS, mounted read-only with its modules) with the
// sandbox's jq: each test alone, `jq -L modules --run-tests`, so that one
// that crashes jq does not hide the others. A test that fails and is not in
// known-failures.txt fails this test.
func TestJqSuite(t *testing.T) {
	dir := os.Getenv("WASMSAND_JQ_TESTS")
	if dir == "" {
		t.Skip("jq's test suite runs with `make jq-tests` (WASMSAND_JQ_TESTS=DIR)")
	}
	ctx := context.Background()
	tools := builtTools(ctx, t)
	files := readList(t, filepath.Join(jqTestsDir, "files.txt"))
	known := readList(t, filepath.Join(jqTestsDir, "known-failures.txt"))
	names := slices.Sorted(maps.Keys(files))
	var report strings.Builder
	total, passed := 0, 0
	seen := map[string]bool{}
	for _, f := range names {
		text, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		tests := splitJqTests(f, string(text))
		results, err := runJqTests(ctx, tools, dir, tests)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		filePassed := 0
		for i, tc := range tests {
			total++
			id := tc.id()
			seen[id] = true
			reason, isKnown := known[id]
			switch r := results[i]; {
			case r.ok && isKnown:
				passed++
				filePassed++
				line := "jq: " + id + " passes now: take it off known-failures.txt"
				fmt.Println(line)
				report.WriteString(line + "\n")
			case r.ok:
				passed++
				filePassed++
			case isKnown:
				report.WriteString("jq: " + id + " (known: " + reason + ")\n")
			default:
				t.Errorf("%s failed (status %d):\n  %s\n%s", id, r.status, strings.Join(tc.lines, "\n  "), lastLines(r.output, 10))
				report.WriteString("jq: " + id + " FAILED\n" + lastLines(r.output, 10) + "\n")
			}
		}
		line := fmt.Sprintf("jq: %-14s %d/%d tests pass", f, filePassed, len(tests))
		fmt.Println(line)
		report.WriteString(line + "\n")
	}
	for id := range known {
		if !seen[id] {
			t.Errorf("known-failures.txt names %s, which is no test (the files changed?)", id)
		}
	}
	fmt.Printf("jq: %d/%d tests pass, %d known failures\n", passed, total, total-passed)
	if p := os.Getenv("WASMSAND_JQ_TESTS_REPORT"); p != "" {
		_ = os.WriteFile(p, []byte(report.String()), 0o644)
	}
}

type jqResult struct {
	ok     bool
	status int
	output string
}

// runJqTests runs each test as its own --run-tests file, in one sandbox
// and one shell script; the results come back by test.
func runJqTests(ctx context.Context, tools core.ProgramSource, dir string, tests []jqTest) ([]jqResult, error) {
	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: 10 * time.Minute, MemoryLimitMB: 512})
	if err != nil {
		return nil, err
	}
	defer sb.Close()
	if err := mountSource(sb, dir, "/opt/jq/tests"); err != nil {
		return nil, err
	}
	if err := sb.FS().MkdirAll("/tmp/jq", 0o755); err != nil {
		return nil, err
	}
	for i, tc := range tests {
		if err := sb.FS().WriteFile(fmt.Sprintf("/tmp/jq/%04d.test", i), []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
			return nil, err
		}
	}
	// jq's tests/jqtest: the modules' directory on the search path
	res, err := sb.Run(ctx, `cd /opt/jq/tests && for f in /tmp/jq/*.test; do
  jq -L /opt/jq/tests/modules --run-tests "$f" > "$f.out" 2>&1; echo "$f $?"
done`, core.RunOptions{})
	if err != nil {
		return nil, err
	}
	status := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(res.Stdout)), "\n") {
		f, st, ok := strings.Cut(l, " ")
		if n, err := strconv.Atoi(st); ok && err == nil {
			status[f] = n
		}
	}
	out := make([]jqResult, len(tests))
	for i := range tests {
		f := fmt.Sprintf("/tmp/jq/%04d.test", i)
		st, ran := status[f]
		b, _ := sb.FS().ReadFile(f + ".out")
		o := string(b)
		// jq 1.6 exits 0 even when a test fails: the summary line says
		out[i] = jqResult{status: st, output: o,
			ok: ran && st == 0 && strings.Contains(o, "1 of 1 tests passed (0 malformed)")}
		if !ran {
			out[i].output = "not run: " + string(res.Stderr)
		}
	}
	return out, nil
}
