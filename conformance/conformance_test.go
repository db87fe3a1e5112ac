package conformance

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/policy"
)

// suiteDir is the suite, relative to this package.
const suiteDir = "../testdata/conformance"

// minCases is the floor for the suite's size.
const minCases = 300

// caseCwd is where each case starts: a fresh empty directory, as in the
// recording (scripts/record-conformance).
const caseCwd = "/home/user/case"

// caseEnv is added to the sandbox's default environment (which already has
// HOME=/home/user, USER=user, LANG=C.UTF-8, TZ=UTC, TERM=xterm-256color and
// PATH=/usr/local/bin:/usr/bin:/bin, like the recording).
var caseEnv = map[string]string{"LC_ALL": "C.UTF-8"}

type group struct {
	name     string
	cases    []Case
	expected map[string]Recorded
}

func loadSuite(t *testing.T) []group {
	t.Helper()
	names, err := Groups(suiteDir)
	if err != nil {
		t.Fatal(err)
	}
	var groups []group
	for _, g := range names {
		cases, err := LoadCases(suiteDir, g)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := LoadExpected(suiteDir, g)
		if err != nil {
			t.Fatalf("%v (record it: sudo go run ./scripts/record-conformance %s)", err, g)
		}
		m := map[string]Recorded{}
		for _, r := range exp.Cases {
			m[r.Name] = r
		}
		groups = append(groups, group{name: g, cases: cases, expected: m})
	}
	return groups
}

// TestSuiteFiles checks the suite itself (no sandbox needed): every case has
// a recording of its current script, every known failure names a case, and
// there are enough cases.
func TestSuiteFiles(t *testing.T) {
	groups := loadSuite(t)
	total := 0
	ids := map[string]bool{}
	for _, g := range groups {
		for _, c := range g.cases {
			total++
			ids[c.ID()] = true
			r, ok := g.expected[c.Name]
			switch {
			case !ok:
				t.Errorf("%s (%s.txt:%d) has no recording: run sudo go run ./scripts/record-conformance %s", c.ID(), g.name, c.Line, g.name)
			case r.Script != c.Hash():
				t.Errorf("%s (%s.txt:%d) changed since it was recorded: run sudo go run ./scripts/record-conformance %s", c.ID(), g.name, c.Line, g.name)
			}
			if _, err := r.Result(); err != nil {
				t.Error(err)
			}
		}
		if len(g.expected) != len(g.cases) {
			t.Errorf("%s.expected.json has %d recordings for %d cases: record the group again", g.name, len(g.expected), len(g.cases))
		}
	}
	if total < minCases {
		t.Errorf("the suite has %d cases, want at least %d", total, minCases)
	}
	known, err := LoadKnownFailures(filepath.Join(suiteDir, "known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for id, k := range known {
		if !ids[id] {
			t.Errorf("known-failures.txt:%d: no case %s", k.Line, id)
		}
	}
	// the JS engine's own differences (node/test/conformance.mjs adds them),
	// and a browser's (web/test/conformance-browser.mjs adds both)
	listed := map[string]string{}
	for id := range known {
		listed[id] = "known-failures.txt"
	}
	for _, name := range []string{"known-failures-js.txt", "known-failures-browser.txt"} {
		more, err := LoadKnownFailures(filepath.Join(suiteDir, name))
		if err != nil {
			t.Fatal(err)
		}
		for id, k := range more {
			if !ids[id] {
				t.Errorf("%s:%d: no case %s", name, k.Line, id)
			}
			if in, dup := listed[id]; dup {
				t.Errorf("%s:%d: %s is in %s already", name, k.Line, id, in)
			}
			listed[id] = name
		}
	}
}

func TestParseCases(t *testing.T) {
	src := "# comment\n\n=== a\necho 1\n\n=== b-2\ncat <<EOF\n\nx\nEOF\n\n\n"
	cases, err := ParseCases("g", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Case{{"g", "a", "echo 1\n", 3}, {"g", "b-2", "cat <<EOF\n\nx\nEOF\n", 6}}
	if !slices.Equal(cases, want) {
		t.Fatalf("got %+v", cases)
	}
	for _, bad := range []string{"=== a\n=== b\necho\n", "=== a\necho\n=== a\necho\n", "=== a b\necho\n", "=== -x\necho\n"} {
		if _, err := ParseCases("g", []byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestLoadKnownFailures(t *testing.T) {
	p := filepath.Join(t.TempDir(), "k.txt")
	os.WriteFile(p, []byte("# c\n\ng/a  some reason\ng/b\tother: reason\n"), 0o644)
	k, err := LoadKnownFailures(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(k) != 2 || k["g/a"].Reason != "some reason" || k["g/b"].Reason != "other: reason" || k["g/b"].Line != 4 {
		t.Fatalf("got %+v", k)
	}
	for _, bad := range []string{"g/a\n", "noslash reason\n", "g/a x\ng/a y\n"} {
		os.WriteFile(p, []byte(bad), 0o644)
		if _, err := LoadKnownFailures(p); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestNormalizeStderr(t *testing.T) {
	for in, want := range map[string]string{
		"bash: line 1: foo: command not found\n":               "bash: foo: command not found\n",
		"bash: -c: line 12: syntax error near `fi'\n":          "bash: syntax error near `fi'\n",
		"bash: foo: command not found\n":                       "bash: foo: command not found\n",
		"x\nbash: line 3: cd: /x: No such file or directory\n": "x\nbash: cd: /x: No such file or directory\n",
		"grep: line 1: x\n":                                    "grep: line 1: x\n",
	} {
		if got := NormalizeStderr(in); got != want {
			t.Errorf("NormalizeStderr(%q) = %q, want %q", in, got, want)
		}
	}
}

// assetsDir finds the guest programs: $WASMSAND_ASSETS, else the repository's
// build/assets.
func assetsDir() string {
	if d := assetsrc.Default(); d != "" {
		return d
	}
	d, _ := filepath.Abs("../build/assets")
	if _, err := os.Stat(filepath.Join(d, assetsrc.ManifestName)); err == nil {
		return d
	}
	return ""
}

// buildNeedsAssets reports whether the Makefile's build target depends on
// assets, from which point a missing build/assets is an error, not a skip.
func buildNeedsAssets() bool {
	f, err := os.Open("../Makefile")
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if deps, ok := strings.CutPrefix(sc.Text(), "build:"); ok {
			return slices.Contains(strings.Fields(deps), "assets")
		}
	}
	return false
}

type outcome struct {
	c        Case
	want     Result
	got      Result
	err      error
	duration time.Duration
}

func (o *outcome) passed() bool {
	return o.err == nil && o.got.Status == o.want.Status && o.got.Stdout == o.want.Stdout &&
		NormalizeStderr(o.got.Stderr) == NormalizeStderr(o.want.Stderr)
}

// TestConformance runs every case in a fresh sandbox. It runs with
// `make conformance` (WASMSAND_CONFORMANCE=1); WASMSAND_CONFORMANCE_RUN=REGEXP
// selects cases by group/name, WASMSAND_CONFORMANCE_REPORT=FILE writes every
// failure (known ones too) with its differences.
func TestConformance(t *testing.T) {
	if os.Getenv("WASMSAND_CONFORMANCE") == "" {
		t.Skip("the conformance suite runs with `make conformance` (WASMSAND_CONFORMANCE=1)")
	}
	dir := assetsDir()
	if dir == "" {
		if buildNeedsAssets() {
			t.Fatal("no guest programs in build/assets: run `make assets` (or set WASMSAND_ASSETS)")
		}
		t.Skip("no guest programs in build/assets yet (`make assets`); the suite needs them")
	}
	ctx := context.Background()
	tools, err := assetsrc.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	known, err := LoadKnownFailures(filepath.Join(suiteDir, "known-failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var filter *regexp.Regexp
	if s := os.Getenv("WASMSAND_CONFORMANCE_RUN"); s != "" {
		if filter, err = regexp.Compile(s); err != nil {
			t.Fatal(err)
		}
	}

	groups := loadSuite(t)
	var all []*outcome
	for _, g := range groups {
		for _, c := range g.cases {
			if filter != nil && !filter.MatchString(c.ID()) {
				continue
			}
			want, err := g.expected[c.Name].Result()
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, &outcome{c: c, want: want})
		}
	}

	// Compile every module first (one command of each asset), so that no
	// case pays for a compilation inside its own timings (timeout, sleep).
	t0 := time.Now()
	var warm sync.WaitGroup
	for _, a := range tools.Assets() {
		if len(a.Commands) == 0 {
			continue
		}
		warm.Add(1)
		go func() {
			defer warm.Done()
			sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: 5 * time.Minute})
			if err != nil {
				return
			}
			defer sb.Close()
			_, _ = sb.Run(ctx, a.Commands[0]+" --version </dev/null >/dev/null 2>&1", core.RunOptions{Script: true})
		}()
	}
	warm.Wait()
	fmt.Printf("conformance: %d assets from %s compiled in %v\n", len(tools.Assets()), dir, time.Since(t0).Round(time.Millisecond))

	// the network group's server (see NetHandler)
	for _, o := range all {
		if o.c.Group == NetGroup {
			l, err := net.Listen("tcp", NetAddr)
			if err != nil {
				t.Fatalf("the network group's server: %v", err)
			}
			srv := &http.Server{Handler: NetHandler()}
			go srv.Serve(l)
			defer srv.Close()
			break
		}
	}

	start := time.Now()
	work := make(chan *outcome)
	var wg sync.WaitGroup
	for range max(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for o := range work {
				t0 := time.Now()
				o.got, o.err = runCase(ctx, tools, o.c)
				o.duration = time.Since(t0)
			}
		}()
	}
	for _, o := range all {
		work <- o
	}
	close(work)
	wg.Wait()

	// Report: per group, overall; fail on unlisted failures and on listed
	// cases that pass.
	type tally struct{ total, passed, known int }
	per := map[string]*tally{}
	var order []string
	var overall tally
	var unexpected, stale []*outcome
	var report strings.Builder
	for _, o := range all {
		tl := per[o.c.Group]
		if tl == nil {
			tl = &tally{}
			per[o.c.Group] = tl
			order = append(order, o.c.Group)
		}
		tl.total++
		overall.total++
		k, listed := known[o.c.ID()]
		if o.passed() {
			tl.passed++
			overall.passed++
			if listed {
				stale = append(stale, o)
			}
			continue
		}
		if listed {
			tl.known++
			overall.known++
			fmt.Fprintf(&report, "--- %s (known: %s)\n%s\n", o.c.ID(), k.Reason, o.describe())
		} else {
			unexpected = append(unexpected, o)
			fmt.Fprintf(&report, "--- %s (UNEXPECTED)\n%s\n", o.c.ID(), o.describe())
		}
	}
	for _, g := range order {
		tl := per[g]
		fmt.Printf("conformance: %-10s %3d/%-3d passed (%d known failures)\n", g, tl.passed, tl.total, tl.known)
	}
	fmt.Printf("conformance: %d/%d passed (%.1f%%; %d known failures, %d unexpected failures, %d listed cases now passing) in %v\n",
		overall.passed, overall.total, 100*float64(overall.passed)/float64(max(overall.total, 1)),
		overall.known, len(unexpected), len(stale), time.Since(start).Round(time.Second))
	slow := slices.Clone(all)
	slices.SortFunc(slow, func(a, b *outcome) int { return int(b.duration - a.duration) })
	var names []string
	for _, o := range slow[:min(3, len(slow))] {
		names = append(names, fmt.Sprintf("%s %v", o.c.ID(), o.duration.Round(10*time.Millisecond)))
	}
	fmt.Printf("conformance: slowest: %s\n", strings.Join(names, ", "))
	if p := os.Getenv("WASMSAND_CONFORMANCE_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(report.String()), 0o644); err != nil {
			t.Error(err)
		} else {
			fmt.Printf("conformance: failures written to %s\n", p)
		}
	}
	for _, o := range unexpected {
		t.Errorf("%s (%s.txt:%d) fails and is not in known-failures.txt:\n%s", o.c.ID(), o.c.Group, o.c.Line, o.describe())
	}
	for _, o := range stale {
		t.Errorf("%s passes now: remove it from known-failures.txt (line %d)", o.c.ID(), known[o.c.ID()].Line)
	}
}

// runCase runs one case in a fresh sandbox, from an empty caseCwd.
func runCase(ctx context.Context, tools core.ProgramSource, c Case) (Result, error) {
	opt := core.Options{Programs: tools, Timeout: 30 * time.Second}
	if c.Group == NetGroup {
		var n policy.Network
		for _, u := range NetAllow {
			n.Allow = append(n.Allow, policy.Rule{URL: u, Methods: NetMethods})
		}
		if err := opt.UseNetwork(n, policy.Budget{}, nil, nil); err != nil {
			return Result{}, err
		}
	}
	sb, err := core.New(ctx, opt)
	if err != nil {
		return Result{}, err
	}
	defer sb.Close()
	if err := sb.FS().MkdirAll(caseCwd, 0o755); err != nil {
		return Result{}, err
	}
	if err := sb.FS().Chown(caseCwd, 1000, 1000); err != nil {
		return Result{}, err
	}
	res, err := sb.Run(ctx, c.Script, core.RunOptions{
		Script: true,
		Cwd:    caseCwd,
		Env:    caseEnv,
		// (no Stdin: /dev/null, as the recorder gives the real programs)
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Stdout: string(res.Stdout), Stderr: string(res.Stderr), Status: res.ExitCode}, nil
}

// describe shows how a result differs from the recording.
func (o *outcome) describe() string {
	var s strings.Builder
	if o.err != nil {
		fmt.Fprintf(&s, "  error: %v\n", o.err)
		return s.String()
	}
	if o.got.Status != o.want.Status {
		fmt.Fprintf(&s, "  status: got %d, want %d\n", o.got.Status, o.want.Status)
	}
	if o.got.Stdout != o.want.Stdout {
		fmt.Fprintf(&s, "  stdout: got  %s\n          want %s\n", clip(o.got.Stdout), clip(o.want.Stdout))
	}
	if g, w := NormalizeStderr(o.got.Stderr), NormalizeStderr(o.want.Stderr); g != w {
		fmt.Fprintf(&s, "  stderr: got  %s\n          want %s\n", clip(g), clip(w))
	}
	fmt.Fprintf(&s, "  script (%s.txt:%d):\n    %s", o.c.Group, o.c.Line,
		strings.ReplaceAll(strings.TrimSuffix(o.c.Script, "\n"), "\n", "\n    "))
	return s.String()
}

func clip(s string) string {
	const max = 1500
	if len(s) > max {
		return fmt.Sprintf("%q... (%d bytes)", s[:max], len(s))
	}
	return fmt.Sprintf("%q", s)
}
