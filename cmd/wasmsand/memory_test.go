package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newMemoryCgroup makes a cgroup (v1 memory or v2) with a memory limit
// beside this process's and returns its procs file, or skips the test.
func newMemoryCgroup(t *testing.T, limit int64) string {
	name := fmt.Sprintf("wasmsand-test-%d", os.Getpid())
	for _, c := range memoryCgroups() {
		if c.limitFile == "memory.max" && !fileExists("/sys/fs/cgroup/cgroup.controllers") {
			continue
		}
		dir := filepath.Join(c.dir, name)
		if os.Mkdir(dir, 0o755) != nil {
			continue
		}
		t.Cleanup(func() { os.Remove(dir) })
		if os.WriteFile(filepath.Join(dir, c.limitFile), []byte(fmt.Sprint(limit)), 0o644) != nil {
			continue
		}
		return filepath.Join(dir, "cgroup.procs")
	}
	t.Skip("no memory cgroup can be made here")
	return ""
}

// cgroupEvents says what the cgroup recorded of its limit (v1 failcnt and
// oom_control, or v2 memory.events).
func cgroupEvents(procs string) string {
	var out []string
	for _, f := range []string{"memory.failcnt", "memory.oom_control", "memory.events", "memory.max_usage_in_bytes"} {
		if b, err := os.ReadFile(filepath.Join(filepath.Dir(procs), f)); err == nil {
			out = append(out, f+": "+strings.Join(strings.Fields(string(b)), " "))
		}
	}
	return strings.Join(out, "; ")
}

// TestServerMemoryExhaustion: 20 sessions of one `serve` try to take its
// memory in every way a client can (variables, arrays, command
// substitutions, here-documents, pipes, files, snapshots, forks, uploads)
// while the server runs in a cgroup of 3 GB: it survives, answers, and
// another session's file is intact; past --max-memory new sessions, forks,
// snapshots and uploads get 507 resource_exhausted.
func TestServerMemoryExhaustion(t *testing.T) {
	bin, assets := builtCLI(t)
	procs := newMemoryCgroup(t, 3<<30)
	dir := t.TempDir()
	pol := filepath.Join(dir, "p.yaml")
	require.NoError(t, os.WriteFile(pol, []byte("resources: {memory_mb: 32, fs_mb: 16, max_processes: 8, timeout_sec: 20}\n"), 0o644))
	// (started inside the cgroup: the server reads its limit at start)
	srv := exec.Command("sh", "-c", `echo $$ > "$0" && exec "$@"`, procs, bin, "serve", "--listen", "127.0.0.1:0", "--policy", pol,
		"--max-sessions", "200", "--max-memory", "400", "--max-snapshots", "64")
	srv.Env = append(os.Environ(), "WASMSAND_ASSETS="+assets, "WASMSAND_DAEMON=0")
	stderr, err := srv.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, srv.Start())
	exited := make(chan string, 1)
	go func() { _ = srv.Wait(); exited <- srv.ProcessState.String() }()
	t.Cleanup(func() { _ = srv.Process.Kill(); <-exited })
	line, err := bufio.NewReader(stderr).ReadString('\n')
	require.NoError(t, err)
	m := regexp.MustCompile(`serving on (http://[0-9.:]+)`).FindStringSubmatch(line)
	require.NotNil(t, m, line)
	base := m[1]
	var srvErr bytes.Buffer
	var srvErrMu sync.Mutex
	go func() {
		b := make([]byte, 32<<10)
		for {
			n, err := stderr.Read(b)
			srvErrMu.Lock()
			if srvErr.Len() < 1<<20 {
				srvErr.Write(b[:n])
			}
			srvErrMu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		if t.Failed() {
			srvErrMu.Lock()
			t.Logf("server's stderr:\n%s", srvErr.String())
			srvErrMu.Unlock()
		}
	}()

	client := &http.Client{Timeout: 60 * time.Second}
	send := func(method, path, ct string, body []byte) (int, map[string]any) {
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		res, err := client.Do(req)
		if err != nil {
			return 0, map[string]any{"error": err.Error()}
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out
	}
	create := func() string {
		st, out := send("POST", "/v1/sessions", "application/json", []byte(`{}`))
		if st != 201 {
			return ""
		}
		return out["id"].(string)
	}
	victim := create()
	require.NotEmpty(t, victim)
	precious := []byte("precious " + strings.Repeat("data ", 1000))
	st, _ := send("PUT", "/v1/sessions/"+victim+"/files?path=precious.txt", "application/octet-stream", precious)
	require.Equal(t, 200, st)

	big := `s=xxxxxxxx; for i in {1..20}; do s=$s$s; done; `
	attacks := []string{
		big + `for i in {1..100}; do eval "v$i=\$s\$i"; done`,
		big + `for i in {1..100}; do a[i]=$s$i; done`,
		big + `declare -A h; for i in {1..100}; do h[$i]=$s$i; done`,
		`x=$(yes | head -c 200000000); y=$(yes | head -c 200000000); echo ${#x}`,
		big + "cat <<EOF >/dev/null\n$s$s$s$s$s$s$s$s$s$s\nEOF\n",
		`yes | head -c 300000000 | sleep 3`,
		`for i in {1..100}; do printf '%08000000d' 0 > f$i || break; done`,
	}
	var mu sync.Mutex
	codes := map[string]int{}
	var wg sync.WaitGroup
	for w := 0; w < 20; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			id := create()
			if id == "" {
				return
			}
			for i, a := range attacks {
				if (i+w)%2 == 0 {
					send("POST", "/v1/sessions/"+id+"/run", "application/json", []byte(fmt.Sprintf(`{"command": %q}`, a)))
				}
			}
			for i := 0; i < 10; i++ {
				st, out := send("POST", "/v1/sessions/"+id+"/snapshots", "", nil)
				send("POST", "/v1/sessions/"+id+"/run", "application/json", []byte(`{"command": "rm -f f*; printf '%08000000d' 0 > g$RANDOM"}`))
				st2, out2 := send("POST", "/v1/sessions/"+id+"/fork", "", nil)
				st3, out3 := send("PUT", "/v1/sessions/"+id+"/files?path=up"+fmt.Sprint(i), "application/octet-stream", make([]byte, 8<<20))
				mu.Lock()
				for _, r := range []struct {
					st  int
					out map[string]any
				}{{st, out}, {st2, out2}, {st3, out3}} {
					if c, ok := r.out["code"].(string); ok {
						codes[c]++
					} else {
						codes[fmt.Sprint(r.st)]++
					}
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	t.Logf("answers: %v; the cgroup: %s", codes, cgroupEvents(procs))
	assert.Positive(t, codes["resource_exhausted"], "--max-memory refused something: %v", codes)

	// the server is up, answers, and the victim's file is as it was
	select {
	case st := <-exited:
		exited <- st
		t.Fatalf("the server ended: %s (the cgroup's: %s)", st, cgroupEvents(procs))
	default:
	}
	res, err := client.Get(base + "/v1/sessions/" + victim + "/files?path=precious.txt")
	require.NoError(t, err)
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, precious, got)
	st, out := send("POST", "/v1/sessions/"+victim+"/run", "application/json", []byte(`{"command": "echo alive"}`))
	assert.Equal(t, 200, st)
	assert.Equal(t, "alive\n", out["stdout"])
}
