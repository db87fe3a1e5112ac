package conformance

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/core"
)

// perlTestsDir is our part of perl's suite (the distributions run, the
// known failures).
const perlTestsDir = "../testdata/perl-tests"

// perlTestTimeout bounds one .t file (the slowest run here take ~40 s).
const perlTestTimeout = 5 * time.Minute

var (
	tapPlanRE  = regexp.MustCompile(`(?m)^1\.\.(\d+)(.*)$`)
	tapOkRE    = regexp.MustCompile(`(?m)^ok \d+`)
	tapNotOkRE = regexp.MustCompile(`(?m)^not ok \d+(.*)$`)
	shebangRE  = regexp.MustCompile(`\s(-[Ttw]+)\b`)
)

// TestPerlSuite runs perl's own tests of the modules agents use: every t/*.t
// of the distributions in testdata/perl-tests/dists.txt, with the sandbox's
// perl, from WASMSAND_PERL_TESTS (Debian's perl source that `make
// perl-tests` unpacks, mounted read-only). Each distribution runs in a fresh
// sandbox from a writable copy of its directory, as `perl t/NAME.t` with the
// switches of its #! line (as prove does). A file passes when it exits 0
// after every test its plan announced, none "not ok" outside a TODO; one
// that fails and is not in known-failures.txt fails this test.
func TestPerlSuite(t *testing.T) {
	src := os.Getenv("WASMSAND_PERL_TESTS")
	if src == "" {
		t.Skip("perl's test suite runs with `make perl-tests` (WASMSAND_PERL_TESTS=DIR)")
	}
	ctx := context.Background()
	tools := builtTools(ctx, t)
	dists := readList(t, filepath.Join(perlTestsDir, "dists.txt"))
	known := readList(t, filepath.Join(perlTestsDir, "known-failures.txt"))
	var report strings.Builder
	seen := map[string]bool{}
	files, passed, tests := 0, 0, 0
	for _, dist := range slices.Sorted(maps.Keys(dists)) {
		results, err := runPerlDist(ctx, tools, src, dist)
		if err != nil {
			t.Errorf("%s: %v", dist, err)
			continue
		}
		distPassed := 0
		for _, r := range results {
			files++
			seen[r.file] = true
			tests += r.ok
			line := fmt.Sprintf("perl: %-45s %s", r.file, r.summary())
			switch reason, isKnown := known[r.file]; {
			case r.pass && isKnown:
				passed++
				distPassed++
				line += "  (listed as failing: now passes, take it off known-failures.txt)"
			case r.pass:
				passed++
				distPassed++
			case isKnown:
				line += "  (known: " + reason + ")"
			default:
				t.Errorf("%s failed: %s\n%s", r.file, r.summary(), lastLines(r.output, 30))
				line += "  FAILED"
			}
			report.WriteString(line + "\n")
			if !r.pass || strings.Contains(line, "(listed") {
				fmt.Println(line)
			}
		}
		line := fmt.Sprintf("perl: %-30s %d/%d files pass (%s)", dist, distPassed, len(results), dists[dist])
		fmt.Println(line)
		report.WriteString(line + "\n")
	}
	for f := range known {
		if !seen[f] {
			t.Errorf("known-failures.txt names %s, which is no test file of dists.txt (the source changed?)", f)
		}
	}
	fmt.Printf("perl: %d/%d test files pass (%d tests ok in all), %d known failures\n", passed, files, tests, files-passed)
	if p := os.Getenv("WASMSAND_PERL_TESTS_REPORT"); p != "" {
		_ = os.WriteFile(p, []byte(report.String()), 0o644)
	}
}

type perlResult struct {
	file          string // e.g. cpan/JSON-PP/t/001_utf8.t
	pass          bool
	plan, ok, bad int
	skipAll       bool
	status        int
	timedOut      bool
	output        string
}

func (r perlResult) summary() string {
	switch {
	case r.skipAll:
		return "skipped by the test itself"
	case r.timedOut:
		return fmt.Sprintf("timed out after %d of %d tests", r.ok+r.bad, r.plan)
	case r.plan == 0:
		return fmt.Sprintf("no plan, exit status %d", r.status)
	}
	s := fmt.Sprintf("%d/%d ok", r.ok, r.plan)
	if r.bad > 0 {
		s += fmt.Sprintf(", %d not ok", r.bad)
	}
	if r.status != 0 {
		s += fmt.Sprintf(", exit status %d", r.status)
	}
	return s
}

// parsePerlTAP judges one test file's TAP (top level only: subtests are
// indented and summed up by their parent's line).
func parsePerlTAP(file, out string, status int, timedOut bool) perlResult {
	r := perlResult{file: file, status: status, timedOut: timedOut, output: out}
	if m := tapPlanRE.FindStringSubmatch(out); m != nil {
		fmt.Sscan(m[1], &r.plan)
		r.skipAll = r.plan == 0 && strings.Contains(strings.ToLower(m[2]), "skip")
	}
	r.ok = len(tapOkRE.FindAllString(out, -1))
	for _, m := range tapNotOkRE.FindAllStringSubmatch(out, -1) {
		if strings.Contains(m[1], "# TODO") {
			r.ok++
		} else {
			r.bad++
		}
	}
	r.pass = status == 0 && !timedOut && r.bad == 0 && (r.skipAll || (r.plan > 0 && r.ok == r.plan))
	return r
}

// perlSwitches are the switches of a test's #! line that prove passes on
// (taint mode must be given on the command line too, or perl refuses).
func perlSwitches(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	if !strings.HasPrefix(line, "#!") || !strings.Contains(line, "perl") {
		return ""
	}
	var sw []string
	for _, m := range shebangRE.FindAllStringSubmatch(line, -1) {
		sw = append(sw, m[1])
	}
	return strings.Join(sw, " ")
}

// runPerlDist runs every t/*.t of one distribution in a fresh sandbox; an
// entry that is one .t file (lib/strict.t) is a core test, run as perl's
// own harness does: from t/, with ../lib the library and t/perl the perl.
func runPerlDist(ctx context.Context, tools core.ProgramSource, src, dist string) ([]perlResult, error) {
	names := []string{filepath.Join(src, dist)}
	if !strings.HasSuffix(dist, ".t") {
		var err error
		names, err = filepath.Glob(filepath.Join(src, dist, "t", "*.t"))
		if err != nil || len(names) == 0 {
			return nil, fmt.Errorf("no t/*.t under %s (%v)", filepath.Join(src, dist), err)
		}
	}
	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: perlTestTimeout, MemoryLimitMB: 1024, FSLimitMB: 1024})
	if err != nil {
		return nil, err
	}
	defer sb.Close()
	if err := mountSource(sb, src, "/opt/perl-src"); err != nil {
		return nil, err
	}
	// tests write beside themselves; those of ext/ reach ../../t for helpers
	work, setup := "/tmp/w/"+dist, ""
	if strings.HasSuffix(dist, ".t") {
		work = "/tmp/w/t"
		setup = "mkdir -p /tmp/w && cp -r /opt/perl-src/t /tmp/w/t && ln -s /usr/lib/wasmsand/perl/lib /tmp/w/lib && ln -s /usr/bin/perl /tmp/w/t/perl"
	} else {
		setup = fmt.Sprintf("mkdir -p %s && cp -r /opt/perl-src/%s/. %s && ln -s /opt/perl-src/t /tmp/w/t", filepath.Dir(work), dist, work)
	}
	if res, err := sb.Run(ctx, setup, core.RunOptions{Cwd: "/"}); err != nil || res.ExitCode != 0 {
		return nil, fmt.Errorf("copying %s: %v %s", dist, err, res.Stderr)
	}
	var results []perlResult
	for _, name := range names {
		rel, file := "t/"+filepath.Base(name), dist+"/t/"+filepath.Base(name)
		if strings.HasSuffix(dist, ".t") {
			rel, file = "/opt/perl-src/"+dist, dist
		}
		cmd := strings.TrimSpace("perl "+perlSwitches(name)) + " " + rel + " 2>&1"
		res, err := sb.Run(ctx, cmd, core.RunOptions{Cwd: work})
		if err != nil {
			return nil, err
		}
		results = append(results, parsePerlTAP(file, string(res.Stdout), res.ExitCode, res.TimedOut))
	}
	return results, nil
}
