//go:build js && wasm

package js_test

// Run with: GOOS=js GOARCH=wasm go test -exec "node platform/js/testdata/go_js_exec.js" ./platform/js/
// (make test-js does). The guests are the built assets ($WASMSAND_ASSETS or
// build/assets).

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/platform/enginetest"
	jsengine "github.com/wasmsand/wasmsand/platform/js"
)

func assetsDir(t *testing.T) string {
	dir := os.Getenv("WASMSAND_ASSETS")
	if dir == "" {
		dir = filepath.Join("..", "..", "build", "assets")
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Skipf("no assets in %s (make assets)", dir)
	}
	return dir
}

func newSandbox(t *testing.T) *core.Sandbox {
	dir := assetsDir(t)
	// synchronous, as the npm package's fetch is: Go's os.ReadFile waits for
	// the JS event loop, which a guest's host call cannot let run
	fetch := func(_ context.Context, file string) ([]byte, error) {
		v := js.Global().Get("fs").Call("readFileSync", filepath.Join(dir, filepath.FromSlash(path.Clean("/"+file))))
		b := make([]byte, v.Get("length").Int())
		js.CopyBytesToGo(b, v)
		return b, nil
	}
	manifest, err := fetch(context.Background(), "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	tools, err := core.NewAssetPrograms(manifest, fetch)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := core.New(context.Background(), core.Options{Programs: tools})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb
}

func run(t *testing.T, sb *core.Sandbox, script string, opt core.RunOptions) *core.Result {
	t.Helper()
	res, err := sb.Run(context.Background(), script, opt)
	if err != nil {
		t.Fatalf("%q: %v", script, err)
	}
	return res
}

func TestGuestsRun(t *testing.T) {
	sb := newSandbox(t)
	for _, c := range []struct{ script, want string }{
		{"echo hi | cat", "hi\n"},
		{"seq 3 | sort -r", "3\n2\n1\n"},
		{"printf 'b\\na\\n' > f; sort f; wc -l < f", "a\nb\n2\n"},
		{"echo abc | tr a-z A-Z | rev", "CBA\n"},
		{"grep -c x /dev/null; echo $?", "0\n1\n"},
		{"cat nosuch 2>&1; echo $?", "cat: nosuch: No such file or directory\n1\n"},
		{"seq 100000 | tail -1", "100000\n"},
	} {
		res := run(t, sb, c.script, core.RunOptions{})
		if got := string(res.Stdout); got != c.want {
			t.Errorf("%q: got %q (stderr %q), want %q", c.script, got, res.Stderr, c.want)
		}
	}
}

// Children a guest spawns run when the parent first needs them (waits, or
// reads a pipe that has nothing yet): xargs, find -exec, tar -z both ways,
// python's subprocess with input and output.
func TestSpawnFromGuest(t *testing.T) {
	sb := newSandbox(t)
	for _, c := range []struct{ script, want string }{
		{"echo a b | xargs -n1 echo", "a\nb\n"},
		{"mkdir -p d; echo in-x > d/x; find d -name x -exec cat {} \\;", "in-x\n"},
		{"mkdir -p t; seq 1000 > t/n; tar czf a.tgz t && tar tzf a.tgz && tar xzf a.tgz -O t/n | tail -1", "t/\nt/n\n1000\n"},
		{`python3 -c 'import subprocess; print(subprocess.run(["echo", "hi"], capture_output=True).stdout)'`, "b'hi\\n'\n"},
		{`python3 -c 'import subprocess; print(subprocess.run(["tr", "a-z", "A-Z"], input=b"up", capture_output=True).stdout)'`, "b'UP'\n"},
		{`python3 -c 'import os; os.system("echo from-system | tr a-z A-Z")'`, "FROM-SYSTEM\n"},
	} {
		res := run(t, sb, c.script, core.RunOptions{Timeout: 20 * time.Second})
		if got := string(res.Stdout); got != c.want {
			t.Errorf("%q: got %q (stderr %q), want %q", c.script, got, res.Stderr, c.want)
		}
	}
}

// Host calls that cannot wait take the export (quickcall); the callback is
// left for those that may: here, each stage's exit.
func TestQuickHostCalls(t *testing.T) {
	sb := newSandbox(t)
	run(t, sb, "seq 3 > f", core.RunOptions{}) // (programs loaded)
	q0, s0 := jsengine.CallCounts()
	res := run(t, sb, "seq 20000 | sort -n | wc -l; grep -c 1 f", core.RunOptions{})
	if got := string(res.Stdout); got != "20000\n1\n" {
		t.Fatalf("got %q (stderr %q)", got, res.Stderr)
	}
	q1, s1 := jsengine.CallCounts()
	if q1-q0 < 50 || s1-s0 > 4 {
		t.Errorf("host calls: %d quick, %d through the callback; want most quick, a callback only per exit", q1-q0, s1-s0)
	}
}

func TestTimeoutStopsGuest(t *testing.T) {
	sb := newSandbox(t)
	start := time.Now()
	res := run(t, sb, "yes > /dev/null", core.RunOptions{Timeout: 300 * time.Millisecond})
	if !res.TimedOut || res.ExitCode != 124 {
		t.Errorf("yes > /dev/null: exit %d timedOut %v, want 124 true (stderr %q)", res.ExitCode, res.TimedOut, res.Stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
	if got := string(run(t, sb, "echo after", core.RunOptions{}).Stdout); got != "after\n" {
		t.Errorf("after a timeout: %q", got)
	}
}

func TestTimeoutStopsShellLoop(t *testing.T) {
	sb := newSandbox(t)
	res := run(t, sb, "while :; do :; done", core.RunOptions{Timeout: 300 * time.Millisecond})
	if !res.TimedOut || res.ExitCode != 124 {
		t.Errorf("shell loop: exit %d timedOut %v (stderr %q)", res.ExitCode, res.TimedOut, res.Stderr)
	}
}

func TestSleep(t *testing.T) {
	sb := newSandbox(t)
	start := time.Now()
	res := run(t, sb, "sleep 0.2; echo done", core.RunOptions{})
	if d := time.Since(start); d < 150*time.Millisecond || !strings.Contains(string(res.Stdout), "done") {
		t.Errorf("sleep 0.2 took %v, output %q %q", d, res.Stdout, res.Stderr)
	}
}

func TestMemoryLimit(t *testing.T) {
	sb := newSandbox(t)
	// the guest's memory is bounded by the sandbox's limit (256 MB)
	res := run(t, sb, `awk 'BEGIN { s = "x"; while (1) s = s s }' 2>&1`, core.RunOptions{Timeout: 20 * time.Second})
	if res.ExitCode == 0 || !strings.Contains(string(res.Stdout), "out of memory (limit 256 MB)") {
		t.Errorf("awk memory bomb: exit %d, output %q", res.ExitCode, res.Stdout)
	}
	if got := string(run(t, sb, "echo alive", core.RunOptions{}).Stdout); got != "alive\n" {
		t.Errorf("after the memory bomb: %q", got)
	}
}

// TestEngine runs the suite every engine passes (platform/enginetest) on
// the JS engine, with the guests written out natively beforehand
// (WASMSAND_TESTGUESTS; make test-js does it).
func TestEngine(t *testing.T) {
	dir := os.Getenv("WASMSAND_TESTGUESTS")
	if dir == "" {
		t.Skip("WASMSAND_TESTGUESTS not set (make test-js exports the guests)")
	}
	e, err := jsengine.New(jsengine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Run(t, enginetest.Harness{Engine: e, Guest: func(t testing.TB, name string) []byte {
		v := js.Global().Get("fs").Call("readFileSync", filepath.Join(dir, name+".wasm"))
		b := make([]byte, v.Get("length").Int())
		js.CopyBytesToGo(b, v)
		return b
	}})
}
