package conformance

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/core"
)

// gnuTestsDir is our part of the GNU packages' own test suites (the known
// failures).
const gnuTestsDir = "../testdata/gnu-tests"

// gnuTestTimeout bounds one test script (the slowest here take ~20 s).
const gnuTestTimeout = 3 * time.Minute

// gnuSuite is how one GNU package runs its tests under `make check`
// (its TESTS_ENVIRONMENT), for the sandbox's build of that package.
type gnuSuite struct {
	pkg      string // the source's directory under WASMSAND_GNU_TESTS, and the asset's name
	makefile string // where the test list is, relative to the source
	listVar  string // the variable listing the tests there ("T", "TESTS")
	srcdir   string // $srcdir: what test names are relative to ("." or "tests")
	programs string // $built_programs; empty: the commands of the asset of that name
	bindir   string // where the tests expect the built programs, under the build directory
	perlLib  string // where the perl test scripts' Coreutils.pm is, under $srcdir (-I)
}

var gnuSuites = []gnuSuite{
	{pkg: "sed", makefile: "testsuite/local.mk", listVar: "T", srcdir: ".", programs: "sed", bindir: "sed", perlLib: "testsuite"},
	{pkg: "grep", makefile: "tests/Makefile.am", listVar: "TESTS", srcdir: "tests", programs: "grep egrep fgrep", bindir: "src", perlLib: "."},
	{pkg: "diffutils", makefile: "tests/Makefile.am", listVar: "TESTS", srcdir: "tests", programs: "cmp diff diff3 sdiff", bindir: "src", perlLib: "."},
	// (the tests of programs the asset does not build skip themselves)
	{pkg: "coreutils", makefile: "tests/local.mk", listVar: "all_tests", srcdir: ".", bindir: "src", perlLib: "tests"},
}

// gnuTestList reads the tests a makefile lists in listVar (its "=" and
// "+=" assignments, continued by backslashes).
func gnuTestList(makefile, listVar string) []string {
	var out []string
	start := regexp.MustCompile(`^` + regexp.QuoteMeta(listVar) + `\s*\+?=`)
	in := false
	for _, l := range strings.Split(makefile, "\n") {
		if !in && start.MatchString(l) {
			in = true
			l = l[strings.IndexByte(l, '=')+1:]
		} else if !in {
			continue
		}
		cont := strings.HasSuffix(strings.TrimSpace(l), "\\")
		for _, w := range strings.Fields(strings.TrimSuffix(strings.TrimSpace(l), "\\")) {
			if !strings.HasPrefix(w, "$(") {
				out = append(out, w)
			}
		}
		in = cont
	}
	return out
}

// TestGNUSuites runs the test scripts of GNU sed, grep, diffutils and
// coreutils (their `make check`, from Debian's sources that `make
// gnu-tests` unpacks under WASMSAND_GNU_TESTS) in a sandbox against its
// own programs: the scripts
// run on the sandbox's bash with its coreutils, through gnulib's init.sh.
// Perl scripts (.pl, .xpl) run with the sandbox's perl as the packages'
// PL_LOG_COMPILER runs them. Status 0 passes, 77 is a skip (the script says
// why: a locale, a compiler...), anything else fails, and a failure that is not in
// known-failures.txt fails this test.
func TestGNUSuites(t *testing.T) {
	root := os.Getenv("WASMSAND_GNU_TESTS")
	if root == "" {
		t.Skip("the GNU packages' test suites run with `make gnu-tests` (WASMSAND_GNU_TESTS=DIR)")
	}
	ctx := context.Background()
	tools := builtTools(ctx, t)
	known := readList(t, filepath.Join(gnuTestsDir, "known-failures.txt"))
	var report strings.Builder
	seen := map[string]bool{}
	for _, s := range gnuSuites {
		if s.programs == "" {
			for _, a := range tools.Assets() {
				if a.Name == s.pkg {
					s.programs = strings.Join(a.Commands, " ")
				}
			}
		}
		src := filepath.Join(root, s.pkg)
		mk, err := os.ReadFile(filepath.Join(src, s.makefile))
		if err != nil {
			t.Fatal(err)
		}
		sb, err := gnuSandbox(ctx, tools, src, s)
		if err != nil {
			t.Fatal(err)
		}
		version := ""
		if conf, err := os.ReadFile(filepath.Join(src, "configure")); err == nil {
			if m := regexp.MustCompile(`(?m)^PACKAGE_VERSION='([^']*)'`).FindSubmatch(conf); m != nil {
				version = string(m[1])
			}
		}
		// tests expected to fail (the package's own XFAIL_TESTS)
		xfail := map[string]bool{}
		for _, x := range gnuTestList(string(mk), "XFAIL_TESTS") {
			xfail[x] = true
		}
		pass, fail, skip := 0, 0, 0
		for _, test := range gnuTestList(string(mk), s.listVar) {
			id := s.pkg + "/" + test
			seen[id] = true
			reason, isKnown := known[id]
			st, log := runGNUTest(ctx, sb, s, test, version)
			if (st == 99 && strings.Contains(log, "getlimits: command not found")) ||
				(st == 2 && strings.Contains(log, `Can't exec "getlimits"`)) {
				// coreutils' init.cfg runs src/getlimits, a helper of its
				// build tree (the platform's integer limits), not a program
				st, log = 77, "skipped test: needs coreutils' getlimits (a build-tree helper the asset does not ship)"
			}
			if xfail[test] && st != 77 && st != 99 {
				// (an expected failure passes by failing)
				if st == 0 {
					st = 1
				} else {
					st = 0
				}
			}
			switch {
			case st == 0 && isKnown:
				pass++
				fmt.Printf("gnu: %s passes now: take it off known-failures.txt\n", id)
				report.WriteString("PASS " + id + " (listed as failing)\n")
			case st == 0:
				pass++
				report.WriteString("PASS " + id + "\n")
			case st == 77:
				skip++
				report.WriteString("SKIP " + id + ": " + skipReason(log) + "\n")
			case isKnown:
				fail++
				report.WriteString(fmt.Sprintf("FAIL %s (known: %s)\n", id, reason))
			default:
				fail++
				t.Errorf("%s failed (status %d):\n%s", id, st, lastLines(log, 25))
				report.WriteString(fmt.Sprintf("FAIL %s (status %d)\n%s\n", id, st, lastLines(log, 25)))
			}
		}
		sb.Close()
		line := fmt.Sprintf("gnu: %-9s %3d pass, %2d fail, %2d skip", s.pkg, pass, fail, skip)
		fmt.Println(line)
		report.WriteString(line + "\n")
	}
	for id := range known {
		if !seen[id] {
			t.Errorf("known-failures.txt names %s, which is no test", id)
		}
	}
	if p := os.Getenv("WASMSAND_GNU_TESTS_REPORT"); p != "" {
		_ = os.WriteFile(p, []byte(report.String()), 0o644)
	}
}

// gnuSandbox mounts the package's source at /src and makes the build
// directory the tests expect: /home/user/build/<bindir>/<program> for each program,
// links to the sandbox's own.
func gnuSandbox(ctx context.Context, tools core.ProgramSource, src string, s gnuSuite) (*core.Sandbox, error) {
	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: gnuTestTimeout, MemoryLimitMB: 512, FSLimitMB: 1024})
	if err != nil {
		return nil, err
	}
	if err := mountSource(sb, src, "/src"); err != nil {
		sb.Close()
		return nil, err
	}
	res, err := sb.Run(ctx, fmt.Sprintf(`mkdir -p /home/user/build/%[1]s && cd /home/user/build/%[1]s && for p in %[2]s; do ln -s "$(type -P $p)" $p; done
[ -e install ] && ln -s install ginstall; true`, s.bindir, s.programs), core.RunOptions{})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("setting up /build: %s", res.Stderr)
	}
	if err != nil {
		sb.Close()
		return nil, err
	}
	return sb, nil
}

// runGNUTest runs one test script as `make check` would: its environment,
// the build directory first on PATH, fd 9 a copy of stderr (init.sh's).
func runGNUTest(ctx context.Context, sb *core.Sandbox, s gnuSuite, test, version string) (int, string) {
	srcdir := "/src"
	if s.srcdir != "." {
		srcdir += "/" + s.srcdir
	}
	env := map[string]string{
		"LC_ALL": "C", "VERSION": version, "PACKAGE_VERSION": version, "AWK": "awk", "MAKE": "make", "PERL": "perl",
		"PCRE_WORKS":       "1", // (grep's configure: its -P works)
		"abs_top_builddir": "/home/user/build", "abs_top_srcdir": "/src", "abs_srcdir": srcdir, "srcdir": srcdir,
		"top_srcdir": "/src", "built_programs": s.programs, "SHELL": "/bin/bash", "CONFIG_HEADER": "/home/user/build/config.h",
		"TMPDIR": "/tmp", "PATH": "/home/user/build/" + s.bindir + ":/usr/bin:/bin",
		strings.ToUpper(s.pkg) + "_TEST_NAME": strings.ReplaceAll(test, "/", "-"),
	}
	dir := "/home/user/build"
	if s.srcdir != "." {
		dir += "/" + s.srcdir
	}
	script := fmt.Sprintf("mkdir -p %s && cd %s && bash %s/%s 9>&2 2>&1", dir, dir, srcdir, test)
	if ext := filepath.Ext(test); ext == ".pl" || ext == ".xpl" {
		// the package's PL_LOG_COMPILER (XPL: in taint mode); $f names the
		// test for CuTmpdir's directory
		taint := ""
		if ext == ".xpl" {
			taint = " -T"
		}
		script = fmt.Sprintf(`mkdir -p %s && cd %s && f=%s && mkdir -p "$(dirname $f)" && perl%s -w -I%s/%s -MCuSkip -MCoreutils -M"CuTmpdir qw($f)" -- %s/%s 9>&2 2>&1`,
			dir, dir, test, taint, srcdir, s.perlLib, srcdir, test)
	}
	res, err := sb.Run(ctx, script, core.RunOptions{Env: env, Stateless: true, Timeout: gnuTestTimeout,
		Stdin: strings.NewReader("")}) // (make check's stdin is open)
	if err != nil {
		return -1, err.Error()
	}
	out := string(res.Stdout) + string(res.Stderr)
	if res.TimedOut {
		out += "\n(timed out)"
	}
	return res.ExitCode, out
}

// skipReason is what a skipped script said ("...: skipped test: WHY").
func skipReason(log string) string {
	for _, l := range strings.Split(log, "\n") {
		if i := strings.Index(l, "skipped test: "); i >= 0 {
			return strings.TrimSpace(l[i+len("skipped test: "):])
		}
	}
	return strings.TrimSpace(lastLines(log, 1))
}
