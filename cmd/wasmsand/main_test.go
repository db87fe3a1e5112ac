package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/internal/testguest"
)

func cli(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	st := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), st
}

func TestRunContract(t *testing.T) {
	out, _, st := cli(t, "", "run", "-c", "echo hi; exit 3")
	assert.Equal(t, "hi\n", out)
	assert.Equal(t, 3, st)

	_, errOut, st := cli(t, "", "run", "-c", "foo")
	assert.Equal(t, 127, st)
	assert.Equal(t, "bash: line 1: foo: command not found\n", errOut)

	out, _, st = cli(t, "echo from-stdin\n", "run", "-")
	assert.Equal(t, "from-stdin\n", out)
	assert.Equal(t, 0, st)

	script := filepath.Join(t.TempDir(), "s.sh")
	require.NoError(t, os.WriteFile(script, []byte("echo \"file $PWD $X ${0##*/}\"\n"), 0o644))
	out, _, st = cli(t, "", "run", "--cwd", "/tmp", "--env", "X=1", script)
	assert.Equal(t, "file /tmp 1 s.sh\n", out)
	assert.Equal(t, 0, st)

	out, _, _ = cli(t, "line\n", "run", "-c", "read -r l; echo got:$l")
	assert.Equal(t, "got:line\n", out, "the script's stdin is the CLI's stdin")
}

// TestAllowNet: --allow-net opens a URL prefix to curl and wget (a server
// this test starts on 127.0.0.1); the rest stays closed.
func TestAllowNet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok "+r.URL.Path+"\n") }))
	defer srv.Close()
	out, errOut, st := cli(t, "", "run", "--allow-net", srv.URL+"/api", "-c",
		"curl -s "+srv.URL+"/api/x; wget -qO- "+srv.URL+"/api; curl -sS "+srv.URL+"/other; echo $?")
	assert.Equal(t, "ok /api/x\nok /api\n7\n", out)
	assert.Contains(t, errOut, "no rule allows GET "+srv.URL+"/other")
	assert.Equal(t, 0, st)
	_, errOut, _ = cli(t, "", "run", "-c", "curl -sS "+srv.URL+"/api")
	assert.Contains(t, errOut, "network is disabled", "without --allow-net")
}

// TestPolicyFile: --policy sets the environment (its own variables and
// the host's it names, nothing else) and the network; bad documents are
// refused with the line at fault.
func TestPolicyFile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Method+" ok\n") }))
	defer srv.Close()
	t.Setenv("WASMSAND_TEST_INHERIT", "from-host")
	t.Setenv("WASMSAND_TEST_SECRET", "leak")
	dir := t.TempDir()
	pol := filepath.Join(dir, "p.yaml")
	require.NoError(t, os.WriteFile(pol, []byte(`profile: restrictive
environment:
  set: {GREETING: hi}
  inherit: [WASMSAND_TEST_INHERIT]
network:
  allow:
    - url: `+srv.URL+`/
      methods: [GET, POST]
`), 0o644))
	out, errOut, st := cli(t, "", "run", "--policy", pol, "-c",
		"echo $GREETING $WASMSAND_TEST_INHERIT ${WASMSAND_TEST_SECRET:-none}; curl -s -X POST "+srv.URL+"/; curl -s -X PUT "+srv.URL+"/; echo $?")
	assert.Equal(t, "hi from-host none\nPOST ok\n7\n", out, errOut)
	assert.Equal(t, 0, st)

	require.NoError(t, os.WriteFile(pol, []byte("resources:\n  memory_mb: 64\n  timeout: 3\n"), 0o644))
	_, errOut, st = cli(t, "", "run", "--policy", pol, "-c", "true")
	assert.Equal(t, exitSetup, st)
	assert.Contains(t, errOut, "line 3: field timeout not found")
	_, errOut, st = cli(t, "", "run", "--profile", "lax", "-c", "true")
	assert.Equal(t, exitSetup, st)
	assert.Contains(t, errOut, `no profile "lax"`)
	out, _, st = cli(t, "", "run", "--profile", "restrictive", "-c", "echo ok")
	assert.Equal(t, "ok\n", out)
	assert.Equal(t, 0, st)

	// secrets: values from the flag or the host's environment, sent to their hosts only
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Header.Get("X-Key")+"\n")
	}))
	defer echo.Close()
	require.NoError(t, os.WriteFile(pol, []byte(`network:
  allow: [{url: "`+echo.URL+`/"}]
secrets:
  - {name: API_KEY, hosts: [127.0.0.1]}
`), 0o644))
	t.Setenv("API_KEY", "key-from-the-host")
	out, errOut, st = cli(t, "", "run", "--policy", pol, "--secret", "API_KEY", "-c",
		"curl -s -H 'X-Key: {{secret:API_KEY}}' "+echo.URL+"/; echo ${API_KEY:-unset}")
	assert.Equal(t, "[secret API_KEY]\nunset\n", out, errOut)
	assert.Equal(t, 0, st)
	_, errOut, st = cli(t, "", "run", "--policy", pol, "-c", "true")
	assert.Equal(t, exitSetup, st)
	assert.Contains(t, errOut, "secret API_KEY has no value")
	_, errOut, _ = cli(t, "", "run", "--policy", pol, "--secret", "API_KEY=abcdefgh", "--secret", "OTHER=abcdefgh", "-c", "true")
	assert.Contains(t, errOut, "--secret OTHER: the policy does not declare it")
	assert.Contains(t, errOut, "warning: --secret API_KEY=VALUE puts the value where other users", "a value on the command line warns")

	// --secret-file: the value from a file (what a secrets manager mounts)
	keyFile := filepath.Join(t.TempDir(), "key")
	require.NoError(t, os.WriteFile(keyFile, []byte("key-from-a-file\n"), 0o600))
	t.Setenv("API_KEY", "")
	out, errOut, st = cli(t, "", "run", "--policy", pol, "--secret-file", "API_KEY="+keyFile, "-c",
		"curl -s -H 'X-Key: {{secret:API_KEY}}' "+echo.URL+"/")
	assert.Equal(t, "[secret API_KEY]\n", out, errOut)
	assert.NotContains(t, errOut, "warning")
	_, errOut, st = cli(t, "", "run", "--policy", pol, "--secret-file", "API_KEY=/no/such/file", "-c", "true")
	assert.Equal(t, exitSetup, st)
	assert.Contains(t, errOut, "--secret-file API_KEY")
}

// TestRunWasmPlugin: run-wasm runs a WASI plugin (here one written in Go,
// built by the test) under a policy: its mounts, environment and memory.
func TestRunWasmPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "plugin.go")
	require.NoError(t, os.WriteFile(src, []byte(`package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "bomb" {
		var keep [][]byte
		for i := 0; i < 1000; i++ {
			keep = append(keep, make([]byte, 1<<20))
			keep[i][0] = 1
		}
		fmt.Println(len(keep))
		return
	}
	in, err := os.ReadFile("/data/in.txt")
	fmt.Printf("args=%q greeting=%s secret=%q in=%q err=%v\n", os.Args[1:], os.Getenv("GREETING"), os.Getenv("WASMSAND_TEST_SECRET"), in, err)
	fmt.Println("write ro:", os.WriteFile("/data/x", []byte("x"), 0o644) != nil)
	fmt.Println("write rw:", os.WriteFile("/out/result.txt", []byte("done\n"), 0o644))
}
`), 0o644))
	wasm := filepath.Join(dir, "plugin.wasm")
	build := exec.Command("go", "build", "-o", wasm, src)
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the plugin: %v\n%s", err, out)
	}
	pol, out := pluginPolicy(t, dir, "resources: {memory_mb: 64}\n")
	t.Setenv("WASMSAND_TEST_SECRET", "leak")
	stdout, errOut, st := cli(t, "", "run-wasm", "--policy", pol, wasm, "a", "b c")
	assert.Equal(t, "args=[\"a\" \"b c\"] greeting=hello secret=\"\" in=\"input\" err=<nil>\nwrite ro: true\nwrite rw: <nil>\n", stdout, errOut)
	assert.Equal(t, 0, st)
	got, err := os.ReadFile(filepath.Join(out, "result.txt"))
	require.NoError(t, err)
	assert.Equal(t, "done\n", string(got))
	stdout, errOut, st = cli(t, "", "run-wasm", "--policy", pol, wasm, "bomb")
	assert.NotEqual(t, 0, st)
	assert.Empty(t, stdout)
	assert.Contains(t, errOut, "out of memory (limit 64 MB)")
	_, errOut, st = cli(t, "", "run-wasm", "--policy", pol, pol)
	assert.Equal(t, 126, st)
	assert.Contains(t, errOut, "is not a WebAssembly module")
}

// pluginPolicy makes the plugins' host directories in dir (data, with
// in.txt, mounted read-only at /data; out, read-write at /out) and their
// policy (and extra lines); it returns the policy's path and out.
func pluginPolicy(t *testing.T, dir, extra string) (string, string) {
	t.Helper()
	data, out := filepath.Join(dir, "data"), filepath.Join(dir, "out")
	require.NoError(t, os.MkdirAll(data, 0o755))
	require.NoError(t, os.MkdirAll(out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(data, "in.txt"), []byte("input"), 0o644))
	pol := filepath.Join(dir, "plugin.yaml")
	require.NoError(t, os.WriteFile(pol, []byte(`profile: restrictive
filesystem:
  mounts:
    - {host: `+data+`, guest: /data}
    - {host: `+out+`, guest: /out, mode: rw}
environment:
  set: {GREETING: hello}
`+extra), 0o644))
	return pol, out
}

// TestRunWasmPlugins: the same policy over plugins written in C (wasi-libc,
// clang) and Rust (Debian's rustc and its wasm32-wasi standard library).
func TestRunWasmPlugins(t *testing.T) {
	for _, lang := range []struct{ name, out string }{
		{"c", "argc=2 [a] [b c] greeting=hello secret=-\nin=input\nwrite ro: refused\nwrite rw: ok\nhost passwd: absent\n"},
		{"rust", "args=[\"a\", \"b c\"] greeting=hello secret=-\nin=input\nwrite ro: refused\nwrite rw: ok\nhost shadow: absent\n"},
	} {
		t.Run(lang.name, func(t *testing.T) {
			dir := t.TempDir()
			wasm := filepath.Join(dir, "plugin.wasm")
			if lang.name == "c" {
				require.NoError(t, os.WriteFile(wasm, testguest.C(t, "testdata/plugin.c"), 0o644))
			} else {
				rustc := "/usr/bin/rustc" // (Debian's, which has the wasm32-wasi target: make deps)
				if _, err := os.Stat(rustc); err != nil {
					t.Fatalf("%s: %v (make deps installs rustc and libstd-rust-dev-wasm32)", rustc, err)
				}
				if out, err := exec.Command(rustc, "--target", "wasm32-wasi", "-C", "opt-level=1", "-o", wasm, "testdata/plugin.rs").CombinedOutput(); err != nil {
					t.Fatalf("rustc: %v\n%s", err, out)
				}
			}
			pol, out := pluginPolicy(t, dir, "")
			t.Setenv("WASMSAND_TEST_SECRET", "leak")
			stdout, errOut, st := cli(t, "", "run-wasm", "--policy", pol, wasm, "a", "b c")
			assert.Equal(t, lang.out, stdout, errOut)
			assert.Equal(t, 0, st)
			got, err := os.ReadFile(filepath.Join(out, "result.txt"))
			require.NoError(t, err)
			assert.Equal(t, "done\n", string(got))
			_, _, st = cli(t, "", "run-wasm", "--policy", pol, wasm, "1", "2", "3")
			assert.Equal(t, 3, st, "the plugin's exit status")
		})
	}
}

// TestEvents: --events writes runs, processes and network requests as JSON
// lines, allowed or not.
func TestEventsFile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	events := filepath.Join(t.TempDir(), "events.jsonl")
	_, _, st := cli(t, "", "run", "--allow-net", srv.URL+"/", "--events", events, "-c",
		"curl -s "+srv.URL+"/a; curl -s http://example.com/; exit 4")
	assert.Equal(t, 4, st)
	data, err := os.ReadFile(events)
	require.NoError(t, err)
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		k := e["kind"].(string)
		if k == "network" {
			k += fmt.Sprintf(" %v %v %v", e["allowed"], e["url"], e["http_status"])
		}
		if k == "output" {
			k += fmt.Sprintf(" %v %v", e["stream"], e["data"]) // (base64)
		}
		kinds = append(kinds, k)
	}
	assert.Equal(t, []string{"run_start", "process_start", "output stdout b2s=", "network true " + srv.URL + "/a 200", "process_exit",
		"process_start", "network false http://example.com/ <nil>", "process_exit", "run_end"}, kinds)
	assert.Contains(t, string(data), `"reason":"no rule allows GET http://example.com/"`)

	// the policy's audit file gets the same records, without the secret
	dir := t.TempDir()
	pol, audit := filepath.Join(dir, "p.yaml"), filepath.Join(dir, "audit.jsonl")
	require.NoError(t, os.WriteFile(pol, []byte(`network: {allow: [{url: "`+srv.URL+`/"}]}
secrets: [{name: KEY, hosts: [127.0.0.1], inject: {header: X-Key}}]
audit: {file: `+audit+`}
`), 0o644))
	_, _, st = cli(t, "", "run", "--policy", pol, "--secret", "KEY=very-secret-value", "-c", "curl -s "+srv.URL+"/b")
	assert.Equal(t, 0, st)
	data, err = os.ReadFile(audit)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"kind":"network"`)
	assert.Contains(t, string(data), `"url":"`+srv.URL+`/b"`)
	assert.NotContains(t, string(data), "very-secret-value")

	// a second run appends: an audit file is never truncated
	t.Setenv("KEY", "very-secret-value")
	_, errOut, st := cli(t, "", "run", "--policy", pol, "--secret", "KEY", "-c", "curl -s "+srv.URL+"/c")
	require.Equal(t, 0, st, errOut)
	data2, err := os.ReadFile(audit)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(data2), string(data)), "the first run's records are kept")
	assert.Contains(t, string(data2[len(data):]), `"url":"`+srv.URL+`/c"`)
	for _, line := range strings.Split(strings.TrimSpace(string(data2)), "\n") {
		assert.True(t, json.Valid([]byte(line)), "one JSON object a line: %s", line)
	}
}

// TestDeterministicPolicy: with clock: fixed and random: seeded, two runs
// of a script print the same bytes.
func TestDeterministicPolicy(t *testing.T) {
	pol := filepath.Join(t.TempDir(), "d.yaml")
	require.NoError(t, os.WriteFile(pol, []byte("capabilities: {clock: fixed, random: seeded, seed: 42, epoch: \"2024-05-01T12:00:00Z\"}\n"), 0o644))
	script := `echo $RANDOM $RANDOM $SRANDOM; printf '%(%F %T)T\n' -1`
	a, errA, _ := cli(t, "", "run", "--policy", pol, "-c", script)
	b, _, _ := cli(t, "", "run", "--policy", pol, "-c", script)
	assert.Equal(t, a, b, errA)
	assert.Contains(t, a, "2024-05-01 12:00:00\n")
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		msg    string
	}{
		{"no command", nil, exitUsage, "usage"},
		{"unknown subcommand", []string{"frobnicate"}, exitUsage, "unknown command"},
		{"bad flag", []string{"run", "--bogus", "-c", "true"}, exitUsage, "flag provided but not defined"},
		{"no script", []string{"run"}, exitUsage, "need exactly one"},
		{"missing host file", []string{"run", "/no/such/script.sh"}, exitSetup, "no such file"},
		{"missing import", []string{"run", "--import", "/no/such:/x", "-c", "true"}, exitSetup, "--import /no/such"},
		{"missing mount", []string{"run", "--mount", "/no/such:/mnt/x", "-c", "true"}, exitSetup, "--mount /no/such"},
		{"bad import spec", []string{"run", "--import", "nocolon", "-c", "true"}, exitSetup, "HOST:GUEST"},
		{"bad env", []string{"run", "--env", "NOEQUALS", "-c", "true"}, exitSetup, "want K=V"},
		{"bad allow-net", []string{"run", "--allow-net", "ftp://x/", "-c", "true"}, exitSetup, "--allow-net"},
		{"bad timeout", []string{"run", "--timeout", "soon", "-c", "true"}, exitUsage, "invalid value"},
		{"bad cwd", []string{"run", "--cwd", "/no/such", "-c", "true"}, exitSetup, "--cwd /no/such"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, st := cli(t, "", tt.args...)
			assert.Equal(t, tt.status, st)
			assert.Contains(t, errOut, tt.msg)
			assert.NotContains(t, errOut, "panic")
		})
	}

	bad := filepath.Join(t.TempDir(), "bad.wasm")
	require.NoError(t, os.WriteFile(bad, []byte("\x00asm\x01\x00\x00\x00garbage"), 0o644))
	_, errOut, st := cli(t, "", "run", bad)
	assert.Equal(t, 126, st)
	assert.Contains(t, errOut, "invalid")
}

func TestImportMountSaveLoad(t *testing.T) {
	host := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(host, "src", "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(host, "src", "sub", "a.txt"), []byte("A\n"), 0o644))

	// --import copies; writes inside never reach the host.
	out, errOut, st := cli(t, "", "run", "--import", filepath.Join(host, "src")+":/home/user/src",
		"-c", "read -r x < src/sub/a.txt; echo $x; echo changed > src/sub/a.txt; echo new > src/new.txt")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "A\n", out)
	b, _ := os.ReadFile(filepath.Join(host, "src", "sub", "a.txt"))
	assert.Equal(t, "A\n", string(b))
	_, err := os.Stat(filepath.Join(host, "src", "new.txt"))
	assert.True(t, os.IsNotExist(err))

	// --import keeps the host's modification times, of files, symlinks and
	// directories (make and find -newer see the tree as it is)
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	require.NoError(t, os.Symlink("a.txt", filepath.Join(host, "src", "sub", "ln")))
	require.NoError(t, os.Chtimes(filepath.Join(host, "src", "sub", "a.txt"), old, old))
	require.NoError(t, os.Chtimes(filepath.Join(host, "src", "sub"), old, old))
	out, errOut, st = cli(t, "", "run", "--import", filepath.Join(host, "src")+":/home/user/src",
		"-c", "cd src; echo new > n; [ sub/a.txt -ot n ] && echo older; [ sub -ot n ] && echo dir-older; [ sub/ln -ef sub/a.txt ] && echo link")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "older\ndir-older\nlink\n", out)

	// --mount rw is live; :ro refuses writes.
	_, errOut, st = cli(t, "", "run", "--mount", filepath.Join(host, "src")+":/mnt/src", "-c", "echo live > /mnt/src/live.txt")
	require.Equal(t, 0, st, errOut)
	b, _ = os.ReadFile(filepath.Join(host, "src", "live.txt"))
	assert.Equal(t, "live\n", string(b))
	_, errOut, st = cli(t, "", "run", "--mount", filepath.Join(host, "src")+":/mnt/src:ro", "-c", "echo no > /mnt/src/ro.txt")
	assert.Equal(t, 1, st)
	assert.Contains(t, errOut, "Read-only file system")

	// --save / --load persist the VFS between CLI processes.
	state := filepath.Join(t.TempDir(), "state")
	_, errOut, st = cli(t, "", "run", "--save", state, "-c", "echo 41 > /home/user/n")
	require.Equal(t, 0, st, errOut)
	out, errOut, st = cli(t, "", "run", "--load", state, "--save", state, "-c", "read -r n < n; echo $((n+1)) > n; echo $((n+1))")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "42\n", out)
	out, _, _ = cli(t, "", "run", "--load", state, "-c", "read -r n < n; echo $n")
	assert.Equal(t, "42\n", out)

	// a run that changes nothing leaves the saved state as it was (not rewritten);
	// one that changes anything saves
	fi, err := os.Stat(filepath.Join(state, "vfs.state"))
	require.NoError(t, err)
	out, _, _ = cli(t, "", "run", "--load", state, "--save", state, "-c", "read -r n < n; echo $n; echo * >/dev/null")
	assert.Equal(t, "42\n", out)
	fi2, err := os.Stat(filepath.Join(state, "vfs.state"))
	require.NoError(t, err)
	assert.True(t, os.SameFile(fi, fi2) && fi.ModTime().Equal(fi2.ModTime()), "an unchanged tree is not saved again")
	for _, script := range []string{"echo 7 > m", "echo 8 > m"} {
		_, errOut, st = cli(t, "", "run", "--load", state, "--save", state, "-c", script)
		require.Equal(t, 0, st, errOut)
		fi3, err := os.Stat(filepath.Join(state, "vfs.state"))
		require.NoError(t, err)
		assert.False(t, os.SameFile(fi2, fi3), "%s: saved", script)
		fi2 = fi3
	}
	out, _, _ = cli(t, "", "run", "--load", state, "-c", "read -r m < m; echo $m")
	assert.Equal(t, "8\n", out)
}

// TestHostMountAttacks is a guest with a read-write mount trying, with real
// coreutils, what would raise a local user's rights on the host (SECURITY.md,
// "Host mounts"); platform/hostdir/guard_test.go has the finer cases.
func TestHostMountAttacks(t *testing.T) {
	host := t.TempDir()
	script := `cp /bin/cat /mnt/h/prog
chmod 4755 /mnt/h/prog; chmod 6777 /mnt/h/prog; chmod u+s,g+s,+t /mnt/h/prog
mkdir /mnt/h/d; chmod 3777 /mnt/h/d
chown 0:0 /mnt/h/prog
ln -s /etc/shadow /mnt/h/shadow
ln -s ../../../etc /mnt/h/d/up
mkfifo /mnt/h/fifo
ln -s d /mnt/h/ok && echo made-ok
stat -c %a /mnt/h/prog /mnt/h/d`
	out, errOut, _ := cli(t, "", "run", "--assets", builtAssets(t), "--mount", host+":/mnt/h", "-c", script)
	assert.Contains(t, out, "made-ok")
	for _, want := range []string{"chown", "shadow", "up"} {
		assert.Regexp(t, want+".*Operation not permitted", errOut)
	}
	assert.Regexp(t, "fifo.*Operation not permitted", errOut) // (mkfifo reaches the guard: wasmsand.mknod)
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	for _, name := range []string{"prog", "d"} {
		fi, err := os.Lstat(filepath.Join(host, name))
		require.NoError(t, err)
		assert.Zero(t, fi.Mode()&(os.ModeSetuid|os.ModeSetgid|os.ModeSticky), "%s: %v", name, fi.Mode())
		assert.Zero(t, fi.Mode().Perm()&os.FileMode(umask), "%s: the host's umask %03o applies: %v", name, umask, fi.Mode())
	}
	for _, name := range []string{"shadow", "d/up", "fifo"} {
		_, err := os.Lstat(filepath.Join(host, name))
		assert.True(t, os.IsNotExist(err), name)
	}
	fi, err := os.Stat(filepath.Join(host, "prog"))
	require.NoError(t, err)
	assert.Equal(t, os.Getuid(), int(fi.Sys().(*syscall.Stat_t).Uid), "the owner is the host process's")
}

func TestShellSubcommand(t *testing.T) {
	out, _, st := cli(t, "cd /tmp\nX=5\nf() {\n  echo \"f $X $PWD\"\n}\nf\nexit 4\necho never\n", "shell")
	assert.Equal(t, "f 5 /tmp\n", out)
	assert.Equal(t, 4, st)
}
