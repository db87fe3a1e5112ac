package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/platform/hostdir"
	"github.com/wasmsand/wasmsand/vfs"
)

// TestDaemon: run through the daemon behaves as run itself: streams, exit
// status, stdin, the caller's directory; a request while it is busy is
// declined at once (its client runs it itself); the daemon ends once idle.
func TestDaemon(t *testing.T) {
	// The daemon sets this process's environment per request, and here its
	// clients share the process: put the environment back for later tests.
	saved := os.Environ()
	t.Cleanup(func() {
		os.Clearenv()
		for _, kv := range saved {
			if k, v, ok := cutEnv(kv); ok {
				os.Setenv(k, v)
			}
		}
	})
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700)) // (a socket's directory is its user's alone)
	t.Setenv("WASMSAND_DAEMON_SOCKET", filepath.Join(dir, "d.sock"))
	t.Setenv("WASMSAND_DAEMON_IDLE", "1s")
	t.Setenv("WASMSAND_DAEMONS", "1") // (a pool of one: this test process cannot start others)
	cwd, err := os.Getwd()
	require.NoError(t, err)
	done := make(chan int)
	go func() { done <- serveDaemon(os.Stderr) }()
	sock, err := daemonSocket(0)
	require.NoError(t, err)
	waitForFile(sock)
	script := filepath.Join(dir, "s.sh")
	require.NoError(t, os.WriteFile(script, []byte("read -r l; echo \"got $l\"; echo err >&2; exit 4\n"), 0o644))
	call := func(stdin string, args ...string) (string, string, int) {
		// (retried while busy: a run whose client went away may still be ending)
		for i := 0; ; i++ {
			var out, errb bytes.Buffer
			code, ok := runViaDaemon(args, strings.NewReader(stdin), &out, &errb)
			if ok {
				return out.String(), errb.String(), code
			}
			require.Less(t, i, 200, "the daemon stayed busy")
			time.Sleep(20 * time.Millisecond)
		}
	}
	out, errOut, code := call("line\n", "run", script)
	assert.Equal(t, []any{"got line\n", "err\n", 4}, []any{out, errOut, code})
	out, _, code = call("", "run", "--cwd", "/tmp", "-c", "echo $PWD; x=1; echo ${x}")
	assert.Equal(t, []any{"/tmp\n1\n", 0}, []any{out, code})
	// --load/--save: the daemon starts from the tree it saved, unless the file changed
	st := filepath.Join(dir, "state")
	_, errOut, code = call("", "run", "--save", st, "-c", "echo 1 > /home/user/n")
	require.Equal(t, 0, code, errOut)
	out, errOut, code = call("", "run", "--load", st, "--save", st, "-c", "read -r n < n; echo $((n+1)) > n; echo $((n+1))")
	assert.Equal(t, []any{"2\n", 0}, []any{out, code}, errOut)
	other := vfs.New(vfs.Options{})
	require.NoError(t, other.MkdirAll("/home/user", 0o755))
	require.NoError(t, other.WriteFile("/home/user/n", []byte("10\n"), 0o644))
	require.NoError(t, hostdir.SaveDir(st, other))
	out, errOut, code = call("", "run", "--load", st, "-c", "read -r n < n; echo $n")
	assert.Equal(t, []any{"10\n", 0}, []any{out, code}, errOut)

	_, errOut, code = call("", "run", "--bogus")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "flag provided but not defined")

	// a client that goes away takes its run with it (else the next request
	// would wait an hour behind it)
	conn, err := net.Dial("unix", sock)
	require.NoError(t, err)
	h := encodeHeader(daemonHeader{Args: []string{"run", "--timeout", "1h", "-c", "while :; do :; done"}, Cwd: cwd, Env: os.Environ()})
	require.NoError(t, writeFrame(conn, 'h', h))
	time.Sleep(100 * time.Millisecond)
	conn.Close()
	out, _, code = call("", "run", "-c", "echo next")
	assert.Equal(t, []any{"next\n", 0}, []any{out, code})

	// busy: a second request is declined at once, without its stdin read
	long := make(chan string)
	pr, pw := io.Pipe()
	go func() {
		var out bytes.Buffer
		// (retried while the run the client above abandoned is still
		// ending: a declined request leaves its stdin, and the write to it
		// below, unread)
		for i := 0; i < 200; i++ {
			if _, ok := runViaDaemon([]string{"run", "-c", "read -r l; echo long $l"}, pr, &out, io.Discard); ok {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		long <- out.String()
	}()
	time.Sleep(300 * time.Millisecond) // (taken, and waiting for its stdin)
	stdin := strings.NewReader("unread")
	t0 := time.Now()
	_, ok := runViaDaemon([]string{"run", "-c", "cat"}, stdin, io.Discard, io.Discard)
	assert.False(t, ok, "a busy daemon took a second request")
	assert.Less(t, time.Since(t0), 700*time.Millisecond, "the busy answer waited for the run")
	assert.Equal(t, 6, stdin.Len(), "stdin was read by a request that was declined")
	_, _ = pw.Write([]byte("run\n"))
	pw.Close()
	assert.Equal(t, "long run\n", <-long)
	select {
	case code := <-done:
		assert.Equal(t, 0, code)
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not end once idle")
	}
	after, _ := os.Getwd()
	assert.Equal(t, cwd, after)
}

// TestFastClient: with cgo, the binary's C client (fastclient_linux.go) hands
// a run to a listening daemon before Go starts (GODEBUG=inittrace=1 would
// print Go's package inits otherwise): streams, stdin, status, the
// directory and arguments that are not UTF-8 all arrive.
func TestFastClient(t *testing.T) {
	if !fastClient {
		t.Skip("built without cgo: no C client")
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700)) // (a socket's directory is its user's alone)
	bin, assets := builtCLI(t)
	sock := filepath.Join(dir, "d.sock")
	env := append(os.Environ(), "WASMSAND_DAEMON_SOCKET="+sock, "WASMSAND_DAEMON_IDLE=20s", "WASMSAND_ASSETS="+assets)
	startTestDaemon(t, bin, env, socketOf(t, bin, sock, 0))
	work := filepath.Join(dir, "work")
	require.NoError(t, os.Mkdir(work, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(work, "in.txt"), []byte("from host\n"), 0o644))
	c := exec.Command(bin, "run", "--import", "in.txt:/tmp/in.txt", "--env", "X=\xff\xfe", "-c",
		`read -r l; echo "got $l"; cat /tmp/in.txt; printf %s "$X" | od -An -tx1; echo err >&2; exit 5`)
	c.Dir = work
	c.Env = append(env, "WASMSAND_DAEMON=1", "GODEBUG=inittrace=1")
	c.Stdin = strings.NewReader("line\n")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	assert.Equal(t, 5, exit.ExitCode())
	assert.Equal(t, "got line\nfrom host\n ff fe\n", out.String())
	assert.Equal(t, "err\n", errb.String(), "Go did not start (no init trace)")
}

// TestNullStdin: a CLI whose stdin is /dev/null gives the run none, so the
// sandbox's stdin is /dev/null, the device (rg then searches the directory,
// not stdin), whether the run is the CLI's own, the Go client's or the C
// client's; a pipe stays a pipe.
func TestNullStdin(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	bin, assets := builtCLI(t)
	sock := filepath.Join(dir, "d.sock")
	env := []string{"PATH=" + os.Getenv("PATH"), "WASMSAND_DAEMON_SOCKET=" + sock, "WASMSAND_DAEMON_IDLE=20s",
		"WASMSAND_ASSETS=" + assets, "WASMSAND_DAEMONS=1"}
	startTestDaemon(t, bin, env, socketOf(t, bin, sock, 0))
	script := `[ -c /dev/stdin ] && echo device; [ -p /dev/stdin ] && echo pipe; cat`
	for _, daemon := range []string{"0", "1"} {
		c := exec.Command(bin, "run", "-c", script) // (nil Stdin: /dev/null)
		c.Env = append(env, "WASMSAND_DAEMON="+daemon)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Equal(t, "device\n", string(out), "daemon=%s", daemon)

		c = exec.Command(bin, "run", "-c", script)
		c.Env = append(env, "WASMSAND_DAEMON="+daemon)
		c.Stdin = strings.NewReader("piped\n")
		out, err = c.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Equal(t, "pipe\npiped\n", string(out), "daemon=%s", daemon)
	}
}

// TestDaemonPool: the C client takes a request that finds slot 0's daemon
// busy to slot 1's, and with WASMSAND_DAEMON unset a run whose streams are
// pipes goes to a daemon too (Go never starts: no init trace).
func TestDaemonPool(t *testing.T) {
	if !fastClient {
		t.Skip("built without cgo: no C client")
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700)) // (a socket's directory is its user's alone)
	bin, assets := builtCLI(t)
	sock := filepath.Join(dir, "d.sock")
	env := []string{"PATH=" + os.Getenv("PATH"), "WASMSAND_DAEMON_SOCKET=" + sock, "WASMSAND_DAEMON_IDLE=20s",
		"WASMSAND_ASSETS=" + assets, "WASMSAND_DAEMONS=2"}
	for slot := range 2 {
		startTestDaemon(t, bin, append(env, fmt.Sprintf("WASMSAND_DAEMON_SLOT=%d", slot)), socketOf(t, bin, sock, slot))
	}
	run := func(script string) (string, string) {
		c := exec.Command(bin, "run", "-c", script)
		c.Env = append(env, "GODEBUG=inittrace=1")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		require.NoError(t, c.Run(), errb.String())
		return out.String(), errb.String()
	}
	first := make(chan [2]string)
	go func() {
		out, errOut := run("sleep 1; echo first")
		first <- [2]string{out, errOut}
	}()
	time.Sleep(300 * time.Millisecond)
	out, errOut := run("echo second")
	assert.Equal(t, "second\n", out)
	assert.Equal(t, "", errOut, "Go started: slot 1 did not take the request")
	assert.Equal(t, [2]string{"first\n", ""}, <-first)
}

// startTestDaemon starts `bin daemon` with env, ended with the test, and
// waits for its socket.
func startTestDaemon(t *testing.T, bin string, env []string, sock string) {
	t.Helper()
	d := exec.Command(bin, "daemon")
	d.Env = env
	require.NoError(t, d.Start())
	t.Cleanup(func() { _ = d.Process.Kill(); _ = d.Wait() })
	waitForFile(sock)
}

// socketOf is where the daemon of executable bin listens for a slot, given
// $WASMSAND_DAEMON_SOCKET.
func socketOf(t *testing.T, bin, env string, slot int) string {
	p, err := socketName(filepath.Dir(env), filepath.Base(env), bin, slot)
	require.NoError(t, err)
	return p
}

// waitForFile waits up to 10 s for path to exist (a daemon's socket).
func waitForFile(path string) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var built struct {
	once     sync.Once
	bin, err string
}

// builtAssets is the built guest programs' directory (skipping the test
// without them).
func builtAssets(t *testing.T) string {
	t.Helper()
	assets, err := filepath.Abs(filepath.Join("..", "..", "build", "assets"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(assets, "manifest.json")); err != nil {
		t.Skip("no built assets (make assets)")
	}
	return assets
}

// builtCLI builds this command once for the tests that run it as a process, and
// finds the built assets (skipping the test without them).
func builtCLI(t *testing.T) (bin, assets string) {
	t.Helper()
	assets = builtAssets(t)
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "wasmsand-cli-test-")
		if err != nil {
			built.err = err.Error()
			return
		}
		built.bin = filepath.Join(dir, "wasmsand")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Sprintf("go build: %v\n%s", err, out)
		}
	})
	if built.err != "" {
		t.Fatal(built.err)
	}
	return built.bin, assets
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.bin != "" {
		os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// FuzzDecodeHeader: a request header from the daemon's socket decodes or is refused,
// never a panic; what decodes encodes back to the same bytes.
func FuzzDecodeHeader(f *testing.F) {
	f.Add(encodeHeader(daemonHeader{Args: []string{"run", "-c", "echo hi"}, Cwd: "/tmp", Env: []string{"A=\xff"}}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, ok := decodeHeader(b)
		if ok && !bytes.Equal(encodeHeader(h), b) {
			t.Fatalf("%q decoded to %+v, which encodes differently", b, h)
		}
	})
}

// TestDaemonPeerChecks: a caller confined more than the daemon (without a
// capability, under a lower hard limit, in another network namespace) gets
// no more than it has: the daemon declines and the client runs the request
// itself. Uses setpriv, prlimit and unshare where they work; as root, since
// only root has capabilities to drop.
func TestDaemonPeerChecks(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root: a caller without root's capabilities is the case")
	}
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	bin, assets := builtCLI(t)
	sock := filepath.Join(dir, "d.sock")
	env := append(os.Environ(), "WASMSAND_DAEMON_SOCKET="+sock, "WASMSAND_DAEMON_IDLE=30s", "WASMSAND_ASSETS="+assets, "WASMSAND_DAEMONS=1")
	startTestDaemon(t, bin, env, socketOf(t, bin, sock, 0))
	run := func(wrap []string, args ...string) (string, string, *os.ProcessState) {
		c := exec.Command(wrap[0], append(append(wrap[1:], bin), args...)...)
		c.Env = append(env, "WASMSAND_DAEMON=1")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		_ = c.Run()
		return out.String(), errb.String(), c.ProcessState
	}
	// a file only another user (or CAP_DAC_OVERRIDE) may read
	secret := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(secret, []byte("ONLY-UID-12345\n"), 0o600))
	require.NoError(t, os.Chown(secret, 12345, 12345))
	out, _, _ := run([]string{"env"}, "run", "--import", secret+":/tmp/s", "-c", "cat /tmp/s")
	require.Equal(t, "ONLY-UID-12345\n", out, "root reads it, through the daemon or not")

	if _, err := exec.LookPath("setpriv"); err == nil {
		out, errOut, st := run([]string{"setpriv", "--bounding-set=-dac_override,-dac_read_search"}, "run", "--import", secret+":/tmp/s", "-c", "cat /tmp/s")
		assert.NotContains(t, out, "ONLY-UID-12345", "the daemon read a file for a caller that cannot")
		assert.Contains(t, errOut, "permission denied")
		assert.NotZero(t, st.ExitCode())
	}
	if _, err := exec.LookPath("prlimit"); err == nil {
		_, _, st := run([]string{"prlimit", "--cpu=1:1", "--"}, "run", "--timeout", "60s", "-c", "while :; do :; done")
		ws, _ := st.Sys().(syscall.WaitStatus)
		assert.True(t, ws.Signaled(), "under ulimit -t the run is the caller's own, stopped by its CPU limit: %v", st)
	}
	if _, err := exec.LookPath("unshare"); err == nil && exec.Command("unshare", "-n", "true").Run() == nil {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "reached\n") }))
		defer srv.Close()
		out, _, _ := run([]string{"unshare", "-n", "--"}, "run", "--allow-net", srv.URL+"/", "-c", "curl -s "+srv.URL+"/")
		assert.NotContains(t, out, "reached", "a caller without network reached it through the daemon")
	}
}

// TestDaemonSocketDir: $WASMSAND_DAEMON_SOCKET gets the default path's
// checks: its directory is this user's alone, and the name carries this
// executable's identity.
func TestDaemonSocketDir(t *testing.T) {
	open := t.TempDir()
	require.NoError(t, os.Chmod(open, 0o755))
	t.Setenv("WASMSAND_DAEMON_SOCKET", filepath.Join(open, "d.sock"))
	_, err := daemonSocket(0)
	require.ErrorContains(t, err, "not a directory of this user's alone")
	require.NoError(t, os.Chmod(open, 0o700))
	p, err := daemonSocket(1)
	require.NoError(t, err)
	exe, _ := os.Executable()
	want, _ := socketName(open, "d.sock", exe, 1)
	assert.Equal(t, want, p)
	assert.Regexp(t, `/d\.sock-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+-1\.sock$`, p)
}
