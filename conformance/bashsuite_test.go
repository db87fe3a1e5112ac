package conformance

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/vfs"
)

// bashTestsDir is our part of the bash suite (helpers, lists).
const bashTestsDir = "../testdata/bash-tests"

// bashSuiteTimeout bounds one test file.
const bashSuiteTimeout = 90 * time.Second

// TestBashSuite runs bash's own test files (Debian's bash source package,
// tests/run-*) with our bash, from WASMSAND_BASH_TESTS (the source tree
// `make bash-tests` unpacks). See testdata/bash-tests/README.md.
func TestBashSuite(t *testing.T) {
	src := os.Getenv("WASMSAND_BASH_TESTS")
	if src == "" {
		t.Skip("bash's test suite runs with `make bash-tests` (WASMSAND_BASH_TESTS=DIR)")
	}
	ctx := context.Background()
	tools := builtTools(ctx, t)
	testsDir := filepath.Join(src, "tests")
	skip := readList(t, filepath.Join(bashTestsDir, "skip.txt"))
	passing := readList(t, filepath.Join(bashTestsDir, "passing.txt"))
	runs, _ := filepath.Glob(filepath.Join(testsDir, "run-*"))
	var filter *regexp.Regexp
	if s := os.Getenv("WASMSAND_BASH_TESTS_RUN"); s != "" {
		var err error
		if filter, err = regexp.Compile(s); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	for _, p := range runs {
		n := filepath.Base(p)
		if _, ok := skip[n]; !ok && (filter == nil || filter.MatchString(n)) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatalf("no run-* files in %s", testsDir)
	}
	tree, err := loadTree(testsDir)
	if err != nil {
		t.Fatal(err)
	}
	// BUILD_DIR stands for bash's build tree, whose files heredoc5.sub
	// reads back through here-documents and compares byte for byte:
	// y.tab.c is the one the sources ship; config.h and version.h, which
	// configure and make would write, are config.h.in and patchlevel.h.
	build := map[string]fileData{}
	for to, from := range map[string]string{"y.tab.c": "y.tab.c", "config.h": "config.h.in", "version.h": "patchlevel.h"} {
		data, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		build[to] = fileData{data: data, mode: 0o644}
	}
	for _, h := range []string{"recho", "zecho", "xcase"} {
		data, err := os.ReadFile(filepath.Join(bashTestsDir, h))
		if err != nil {
			t.Fatal(err)
		}
		tree[h] = fileData{data: data, mode: 0o755}
	}

	type result struct {
		name  string
		diff  string
		took  time.Duration
		err   error
		timed bool
	}
	results := make([]*result, len(names))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				t0 := time.Now()
				r := &result{name: names[i]}
				r.diff, r.timed, r.err = runBashTest(ctx, tools, tree, build, names[i])
				r.took = time.Since(t0)
				results[i] = r
			}
		}()
	}
	for i := range names {
		work <- i
	}
	close(work)
	wg.Wait()

	pass := 0
	var report strings.Builder
	var nowPassing []string
	for _, r := range results {
		ok := r.err == nil && !r.timed && r.diff == ""
		lines := strings.Count(r.diff, "\n")
		switch {
		case ok:
			pass++
			fmt.Fprintf(&report, "  %-22s pass (%v)\n", r.name, r.took.Round(time.Millisecond))
			if _, listed := passing[r.name]; !listed {
				nowPassing = append(nowPassing, r.name)
			}
		case r.err != nil:
			fmt.Fprintf(&report, "  %-22s error: %v\n", r.name, r.err)
		case r.timed:
			fmt.Fprintf(&report, "  %-22s timed out after %v (%d diff lines)\n", r.name, bashSuiteTimeout, lines)
		default:
			fmt.Fprintf(&report, "  %-22s %d diff lines (%v)\n", r.name, lines, r.took.Round(time.Millisecond))
		}
		if !ok {
			if _, listed := passing[r.name]; listed && filter == nil {
				t.Errorf("%s passed before (testdata/bash-tests/passing.txt) and fails now:\n%s", r.name, firstLines(r.diff, 40))
			}
		}
		if p := os.Getenv("WASMSAND_BASH_TESTS_REPORT"); p != "" && !ok {
			f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err == nil {
				fmt.Fprintf(f, "=== %s\n%s\n", r.name, r.diff)
				f.Close()
			}
		}
	}
	fmt.Print(report.String())
	fmt.Printf("bash's test suite: %d/%d files pass (%d skipped: testdata/bash-tests/skip.txt)\n", pass, len(names), len(skip))
	for _, n := range nowPassing {
		t.Errorf("%s passes now: add it to testdata/bash-tests/passing.txt", n)
	}
	if filter != nil {
		return
	}
}

type fileData struct {
	data []byte
	mode fs.FileMode
	link string
}

// loadTree reads the tests directory into memory once.
func loadTree(dir string) (map[string]fileData, error) {
	tree := map[string]fileData{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." || d.IsDir() {
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			tree[rel] = fileData{link: target}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		tree[rel] = fileData{data: data, mode: mode}
		return nil
	})
	return tree, err
}

// runBashTest runs one run-* file in a fresh sandbox holding the tests
// directory at /home/user/tests; its output is the differences.
func runBashTest(ctx context.Context, tools core.ProgramSource, tree, build map[string]fileData, name string) (string, bool, error) {
	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: bashSuiteTimeout, FSLimitMB: 512})
	if err != nil {
		return "", false, err
	}
	defer sb.Close()
	if err := writeTree(sb.FS(), "/home/user/tests", tree); err != nil {
		return "", false, err
	}
	if err := writeTree(sb.FS(), "/home/user/build", build); err != nil {
		return "", false, err
	}
	res, err := sb.Run(ctx, "sh "+name, core.RunOptions{
		// bash's expected outputs are made at a terminal (`make check` as
		// its developers run it: test -t 0, /dev/tty): stdin is one, where
		// only the end is typed
		Stdin: emptyTerminal{}, Terminal: true,
		Script: true,
		Cwd:    "/home/user/tests",
		Env: map[string]string{
			"THIS_SH": "/bin/bash", "BASH_TSTOUT": "/tmp/bashtst-out", "TMPDIR": "/tmp", "BUILD_DIR": "/home/user/build",
			"PATH": "/home/user/tests:.:/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
		},
	})
	if err != nil {
		return "", false, err
	}
	return string(res.Stdout), res.TimedOut, nil
}

// emptyTerminal is a terminal's input where only the end is typed
// (Ctrl-D): a terminal that waited for input would hold run-read's reads
// of /dev/tty without -t until the run's timeout.
type emptyTerminal struct{}

func (emptyTerminal) Read([]byte) (int, error)                { return 0, io.EOF }
func (t emptyTerminal) WithContext(context.Context) io.Reader { return t }

func writeTree(fsys *vfs.FS, root string, tree map[string]fileData) error {
	for rel, f := range tree {
		p := root + "/" + filepath.ToSlash(rel)
		if err := fsys.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if f.link != "" {
			if err := fsys.Symlink(f.link, p); err != nil {
				return err
			}
			continue
		}
		if err := fsys.WriteFile(p, f.data, f.mode); err != nil {
			return err
		}
	}
	return chownTree(fsys, root)
}

func chownTree(fsys *vfs.FS, p string) error {
	if err := fsys.Lchown(p, 1000, 1000); err != nil {
		return err
	}
	ents, err := fsys.ReadDir(p)
	if err != nil {
		return nil
	}
	for _, e := range ents {
		if err := chownTree(fsys, p+"/"+e.Name()); err != nil {
			return err
		}
	}
	return nil
}

// builtTools opens build/assets (or $WASMSAND_ASSETS) for a suite that make
// asked for by name, which fails without them.
func builtTools(ctx context.Context, t *testing.T) *core.AssetPrograms {
	t.Helper()
	dir := assetsDir()
	if dir == "" {
		t.Fatal("no guest programs in build/assets: run `make assets`")
	}
	tools, err := assetsrc.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// readList reads "name  reason" lines (comments with #); a list that
// cannot be read fails the test.
func readList(t *testing.T, p string) map[string]string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, _ := strings.Cut(line, " ")
		out[name] = strings.TrimSpace(reason)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}
