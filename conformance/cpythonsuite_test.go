package conformance

import (
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

// cpythonTestsDir is our part of CPython's suite (the modules run, the known
// failures).
const cpythonTestsDir = "../testdata/cpython-tests"

// cpythonModuleTimeout bounds one test module (the slowest here take ~30 s).
const cpythonModuleTimeout = 5 * time.Minute

var (
	ranRE    = regexp.MustCompile(`(?m)^Ran (\d+) tests?`)
	resultRE = regexp.MustCompile(`(?m)^(OK|FAILED)\b(.*)$`)
)

// TestCPythonSuite runs CPython's own regression tests for the modules of
// testdata/cpython-tests/modules.txt with the sandbox's python3 (the WASI
// CPython), from WASMSAND_CPYTHON_TESTS: the Lib directory of Debian's
// python3.11 source that `make cpython-tests` unpacks, mounted read-only.
// Each module runs in a fresh sandbox (`python3 -m test -v MODULE`); one
// that fails and is not in known-failures.txt fails this test.
func TestCPythonSuite(t *testing.T) {
	lib := os.Getenv("WASMSAND_CPYTHON_TESTS")
	if lib == "" {
		t.Skip("CPython's test suite runs with `make cpython-tests` (WASMSAND_CPYTHON_TESTS=DIR)")
	}
	ctx := context.Background()
	tools := builtTools(ctx, t)
	modules := readList(t, filepath.Join(cpythonTestsDir, "modules.txt"))
	known := readList(t, filepath.Join(cpythonTestsDir, "known-failures.txt"))
	names := slices.Sorted(maps.Keys(modules))
	var report strings.Builder
	passed, skipped := 0, 0
	for _, m := range names {
		res, err := runCPythonModule(ctx, tools, lib, m)
		if err != nil {
			t.Errorf("%s: %v", m, err)
			continue
		}
		line := fmt.Sprintf("cpython: %-18s %s", m, res.summary())
		switch reason, isKnown := known[m]; {
		case res.ok:
			passed++
			if res.skipped {
				skipped++
			}
			if isKnown {
				line += "  (listed as failing: now passes, take it off known-failures.txt)"
			}
		case isKnown:
			line += "  (known: " + reason + ")"
		default:
			t.Errorf("%s failed:\n%s", m, lastLines(res.output, 40))
		}
		fmt.Println(line)
		report.WriteString(line + "\n")
	}
	fmt.Printf("cpython: %d/%d modules pass (%d of them skipped by the suite itself), %d known failures\n", passed, len(names), skipped, len(names)-passed)
	if p := os.Getenv("WASMSAND_CPYTHON_TESTS_REPORT"); p != "" {
		_ = os.WriteFile(p, []byte(report.String()), 0o644)
	}
}

type cpythonResult struct {
	ok, skipped bool
	ran         string // "Ran N tests" count
	verdict     string // unittest's "OK (skipped=3)" / "FAILED (errors=2)"
	output      string
}

func (r cpythonResult) summary() string {
	switch {
	case r.skipped:
		return "skipped by the suite (it needs what WASI lacks)"
	case r.ran == "":
		return "did not run: " + r.verdict
	}
	return fmt.Sprintf("%5s tests  %s", r.ran, r.verdict)
}

func runCPythonModule(ctx context.Context, tools core.ProgramSource, lib, module string) (cpythonResult, error) {
	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: cpythonModuleTimeout, MemoryLimitMB: 1024, FSLimitMB: 1024})
	if err != nil {
		return cpythonResult{}, err
	}
	defer sb.Close()
	// only Lib/test: the modules under test must be the sandbox's own (its
	// stdlib zip, with our patches), not the source tree's beside them
	// (checked below)
	if err := mountSource(sb, filepath.Join(lib, "test"), "/opt/cpython/test"); err != nil {
		return cpythonResult{}, err
	}
	// the modules under test must come from the sandbox's stdlib zip
	check, err := sb.Run(ctx, `PYTHONPATH=/opt/cpython python3 -c 'import csv; print(csv.__file__)'`, core.RunOptions{Cwd: "/tmp"})
	if err != nil {
		return cpythonResult{}, err
	}
	if !strings.Contains(string(check.Stdout), ".zip/") {
		return cpythonResult{}, fmt.Errorf("csv comes from %q, not the sandbox's stdlib zip", strings.TrimSpace(string(check.Stdout)))
	}
	res, err := sb.Run(ctx, "PYTHONPATH=/opt/cpython python3 -m test -v "+module+" 2>&1", core.RunOptions{Cwd: "/tmp"})
	if err != nil {
		return cpythonResult{}, err
	}
	out := string(res.Stdout)
	r := cpythonResult{output: out, ok: res.ExitCode == 0 && strings.Contains(out, "Tests result: SUCCESS")}
	if m := ranRE.FindStringSubmatch(out); m != nil {
		r.ran = m[1]
	}
	if m := resultRE.FindAllStringSubmatch(out, -1); len(m) > 0 {
		r.verdict = strings.TrimSpace(m[len(m)-1][1] + m[len(m)-1][2])
	} else if res.TimedOut {
		r.verdict = "timed out"
	} else {
		r.verdict = fmt.Sprintf("exit status %d", res.ExitCode)
	}
	r.skipped = r.ok && strings.Contains(out, module+" skipped")
	return r, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
