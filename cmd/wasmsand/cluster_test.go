package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/internal/natstest"
)

// serveNode is one `wasmsand serve --nats` process of a test cluster.
type serveNode struct {
	t      *testing.T
	bin    string
	args   []string
	env    []string
	name   string
	cmd    *exec.Cmd
	base   string
	exited chan struct{}
	log    *bytes.Buffer
	logMu  *sync.Mutex
}

func (n *serveNode) start() {
	t := n.t
	n.cmd = exec.Command(n.bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--node", n.name}, n.args...)...)
	n.cmd.Env = n.env
	stderr, err := n.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, n.cmd.Start())
	n.exited = make(chan struct{})
	go func() { _ = n.cmd.Wait(); close(n.exited) }()
	rd := bufio.NewReader(stderr)
	re := regexp.MustCompile(`serving on (http://[0-9.:]+)`)
	for {
		line, err := rd.ReadString('\n')
		n.logMu.Lock()
		n.log.WriteString(line)
		n.logMu.Unlock()
		require.NoError(t, err, "node %s did not start: %s", n.name, n.log.String())
		if m := re.FindStringSubmatch(line); m != nil {
			n.base = m[1]
			break
		}
	}
	go func() {
		b := make([]byte, 16<<10)
		for {
			k, err := rd.Read(b)
			n.logMu.Lock()
			if n.log.Len() < 1<<20 {
				n.log.Write(b[:k])
			}
			n.logMu.Unlock()
			if err != nil {
				return
			}
		}
	}()
}

func (n *serveNode) signal(sig syscall.Signal) {
	_ = n.cmd.Process.Signal(sig)
	select {
	case <-n.exited:
	case <-time.After(2 * time.Minute):
		n.t.Fatalf("node %s did not exit after %v", n.name, sig)
	}
}

// clusterClient sends requests to any live node, as a load balancer would:
// a node that refuses the connection (stopped) is skipped.
type clusterClient struct {
	t     *testing.T
	mu    sync.Mutex
	nodes []*serveNode
	http  *http.Client
	token string
}

var errNoNode = errors.New("no node took the connection")

// do sends a request to node i (or the next that answers), returns the
// status and body; connection errors to a node that is down go to the next.
func (c *clusterClient) do(i int, method, path string, body []byte) (int, []byte, error) {
	c.mu.Lock()
	var bases []string
	for _, n := range c.nodes {
		bases = append(bases, n.base)
	}
	c.mu.Unlock()
	for k := range len(bases) {
		req, _ := http.NewRequest(method, bases[(i+k)%len(bases)]+path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+c.token)
		if body != nil && method != "PUT" {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := c.http.Do(req)
		if err != nil {
			var ne *net.OpError
			if errors.As(err, &ne) && ne.Op == "dial" {
				continue // (stopped: the balancer tries another)
			}
			return 0, nil, err
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, b, err
	}
	return 0, nil, errNoNode
}

// create makes n sessions, spread over the nodes.
func (c *clusterClient) create(n int) []string {
	ids := make([]string, n)
	for i := range n {
		st, b, err := c.do(i, "POST", "/v1/sessions", []byte(`{}`))
		require.NoError(c.t, err)
		require.Equal(c.t, 201, st, string(b))
		var s struct{ ID string }
		require.NoError(c.t, json.Unmarshal(b, &s))
		ids[i] = s.ID
	}
	return ids
}

func startServeCluster(t *testing.T, size int, extra ...string) (*clusterClient, []*serveNode) {
	bin, assets := builtCLI(t)
	urls := natstest.Cluster(t, 3)
	var nodes []*serveNode
	for i := range size {
		n := &serveNode{t: t, bin: bin, name: fmt.Sprintf("node%d", i), log: &bytes.Buffer{}, logMu: &sync.Mutex{},
			args: append([]string{"--nats", urls, "--nats-replicas", "3", "--lease-ttl", "3s", "--token", "T0k3n",
				"--max-sessions", "1000"}, extra...),
			env: append(os.Environ(), "WASMSAND_ASSETS="+assets, "WASMSAND_DAEMON=0")}
		n.start()
		nodes = append(nodes, n)
		t.Cleanup(func() { _ = n.cmd.Process.Kill(); <-n.exited })
	}
	t.Cleanup(func() {
		if t.Failed() || os.Getenv("WASMSAND_TEST_NODE_LOGS") != "" {
			for _, n := range nodes {
				n.logMu.Lock()
				t.Logf("node %s's stderr:\n%s", n.name, n.log.String())
				n.logMu.Unlock()
			}
		}
	})
	// (no kept connections: a draining node closes its idle ones, and a POST
	// on one just closed fails where a balancer would pick another node)
	return &clusterClient{t: t, nodes: nodes, token: "T0k3n", http: &http.Client{Timeout: 2 * time.Minute,
		Transport: &http.Transport{DisableKeepAlives: true}}}, nodes
}

// TestClusterNodeKilled: 300 sessions over 3 nodes, each writing a file
// per run through any node; one node is killed with SIGKILL mid-run.
// Every run that completed has its file afterwards, on another node; the
// runs in flight there failed with node_lost (or their connection broke);
// and the clients' next requests succeed.
func TestClusterNodeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster of processes")
	}
	c, nodes := startServeCluster(t, 3)
	const sessions, runs = 300, 4
	ids := c.create(sessions)
	var (
		mu        sync.Mutex
		completed = map[string][]int{} // session → runs answered 200
		lost      atomic.Int64
		failed    []string
	)
	killAt := sessions * runs / 3
	var sent atomic.Int64
	killed := make(chan struct{})
	work := make(chan [2]int)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := range work {
				i, r := w[0], w[1]
				if sent.Add(1) == int64(killAt) {
					go func() { nodes[0].signal(syscall.SIGKILL); close(killed) }()
				}
				body, _ := json.Marshal(map[string]any{"command": fmt.Sprintf("sleep 0.0%d; echo %d-%d > /tmp/run%d; R=%d", rand.IntN(5), i, r, r, r)})
				st, b, err := c.do(rand.IntN(3), "POST", "/v1/sessions/"+ids[i]+"/run", body)
				mu.Lock()
				switch {
				case err == nil && st == 200:
					completed[ids[i]] = append(completed[ids[i]], r)
				case err == nil && st == 502 && strings.Contains(string(b), `"node_lost"`):
					lost.Add(1)
				case err != nil && !errors.Is(err, errNoNode):
					lost.Add(1) // (a connection to the killed node broke mid-request)
				default:
					failed = append(failed, fmt.Sprintf("%s run %d: %d %s %v", ids[i], r, st, b, err))
				}
				mu.Unlock()
			}
		}()
	}
	for r := range runs {
		for i := range sessions {
			work <- [2]int{i, r}
		}
	}
	close(work)
	wg.Wait()
	<-killed
	t.Logf("runs: %d completed in %d sessions, %d lost in flight", func() (n int) {
		for _, v := range completed {
			n += len(v)
		}
		return
	}(), len(completed), lost.Load())
	assert.Empty(t, failed)
	// every completed run's file is there, read through the live nodes
	c.mu.Lock()
	c.nodes = nodes[1:]
	c.mu.Unlock()
	for i, id := range ids {
		for _, r := range completed[id] {
			st, b, err := c.do(i, "GET", fmt.Sprintf("/v1/sessions/%s/files?path=/tmp/run%d", id, r), nil)
			require.NoError(t, err)
			require.Equal(t, 200, st, "%s run %d: %s", id, r, b)
			assert.Equal(t, fmt.Sprintf("%d-%d\n", i, r), string(b))
		}
		// and the session takes new runs
		st, b, err := c.do(i, "POST", "/v1/sessions/"+id+"/run", []byte(`{"command":"echo ok"}`))
		require.NoError(t, err)
		require.Equal(t, 200, st, string(b))
	}
}

// TestClusterRollingRestart: all three nodes restarted in turn (SIGTERM:
// drain, hand the sessions over; then started again) while clients run
// commands. No request fails but those sent to a node while it drains (its
// listener closing under a connection: a balancer's health check would
// have taken it out), and every run answered 200 took effect.
func TestClusterRollingRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster of processes")
	}
	c, nodes := startServeCluster(t, 3)
	const sessions = 30
	ids := c.create(sessions)
	stop := make(chan struct{})
	var (
		mu       sync.Mutex
		next     = make([]int, sessions)   // the next run's number, per session
		answered = make([][]int, sessions) // the runs answered 200
		draining = map[string]bool{}       // nodes (their bases) between SIGTERM and exit
		inDrain  int                       // requests that failed on a draining node
		failed   []string
		wg       sync.WaitGroup
	)
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				i := (w*sessions/6 + k%(sessions/6)) % sessions
				mu.Lock()
				next[i]++
				r := next[i]
				mu.Unlock()
				// each run appends its number: the file tells which runs took effect
				body, _ := json.Marshal(map[string]any{"command": fmt.Sprintf("echo %d >> /tmp/log", r)})
				c.mu.Lock()
				target := c.nodes[(k+w)%3].base
				wasDraining := draining[target]
				c.mu.Unlock()
				st, b, err := c.do((k+w)%3, "POST", "/v1/sessions/"+ids[i]+"/run", body)
				c.mu.Lock()
				wasDraining = wasDraining || draining[target]
				c.mu.Unlock()
				mu.Lock()
				switch {
				case err == nil && st == 200:
					answered[i] = append(answered[i], r)
				case err != nil && wasDraining:
					inDrain++
				default:
					failed = append(failed, fmt.Sprintf("%s run %d: %d %s %v", ids[i], r, st, b, err))
				}
				mu.Unlock()
			}
		}()
	}
	for i, n := range nodes {
		time.Sleep(time.Second)
		c.mu.Lock()
		draining[n.base] = true
		c.mu.Unlock()
		t0 := time.Now()
		n.signal(syscall.SIGTERM)
		t1 := time.Now()
		// (started again as a new process: its address changes, the client follows)
		m := &serveNode{t: t, bin: n.bin, name: n.name, args: n.args, env: n.env, log: n.log, logMu: n.logMu}
		m.start()
		t.Logf("%s: stopped in %v, started in %v", n.name, t1.Sub(t0), time.Since(t1))
		t.Cleanup(func() { _ = m.cmd.Process.Kill(); <-m.exited })
		c.mu.Lock()
		c.nodes[i] = m
		c.mu.Unlock()
	}
	time.Sleep(time.Second)
	close(stop)
	wg.Wait()
	assert.Empty(t, failed)
	total := 0
	for i, id := range ids {
		st, b, err := c.do(i, "GET", "/v1/sessions/"+id+"/files?path=/tmp/log", nil)
		require.NoError(t, err)
		require.Equal(t, 200, st, string(b))
		// every answered run is there, in order (a run whose request broke
		// may or may not be)
		var got []int
		for _, f := range strings.Fields(string(b)) {
			var v int
			fmt.Sscan(f, &v)
			got = append(got, v)
		}
		k := 0
		for _, v := range got {
			if k < len(answered[i]) && v == answered[i][k] {
				k++
			}
		}
		assert.Equal(t, len(answered[i]), k, "%s: answered %v, file %v", id, answered[i], got)
		total += len(answered[i])
	}
	t.Logf("%d runs answered over 3 restarts; %d requests failed on a draining node", total, inDrain)
}

// TestReadmeCluster runs the README's three-node cluster (its ports moved
// to free ones) and uses it: a session made on one node runs on the others.
func TestReadmeCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("a cluster of processes")
	}
	bin, assets := builtCLI(t)
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	block := regexp.MustCompile(`(?m)^for i in 0 1 2; do bin/wasmsand serve .*\n.*& done$`).Find(readme)
	require.NotNil(t, block, "README's cluster sample")
	// three free port triples: HTTP, NATS clients, NATS routes
	var pre [3]int
	for k := range pre {
	retry:
		pre[k] = 2000 + rand.IntN(4000)
		for i := range 3 {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d%d", pre[k], i))
			if err != nil {
				goto retry
			}
			l.Close()
		}
	}
	script := strings.NewReplacer("bin/wasmsand", bin, "808$i", fmt.Sprint(pre[0])+"$i", "422$i", fmt.Sprint(pre[1])+"$i",
		"622$i", fmt.Sprint(pre[2])+"$i", ":6220", fmt.Sprintf(":%d0", pre[2]), ":6221", fmt.Sprintf(":%d1", pre[2]),
		":6222", fmt.Sprintf(":%d2", pre[2])).Replace(string(block))
	sh := exec.Command("sh", "-c", script+"\nwait")
	sh.Env = append(os.Environ(), "TOKEN=readme-token", "WASMSAND_ASSETS="+assets, "WASMSAND_DAEMON=0", "XDG_CACHE_HOME="+t.TempDir())
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	sh.Stderr = &out
	require.NoError(t, sh.Start())
	t.Cleanup(func() {
		_ = syscall.Kill(-sh.Process.Pid, syscall.SIGKILL)
		_ = sh.Wait()
		if t.Failed() {
			t.Logf("the nodes' stderr:\n%s", out.String())
		}
	})
	c := &clusterClient{t: t, http: &http.Client{Timeout: time.Minute}}
	for i := range 3 {
		c.nodes = append(c.nodes, &serveNode{base: fmt.Sprintf("http://127.0.0.1:%d%d", pre[0], i)})
	}
	c.token = "readme-token"
	deadline := time.Now().Add(2 * time.Minute)
	for i := range 3 {
		for {
			res, err := http.Get(c.nodes[i].base + "/v1/openapi.json")
			if err == nil {
				res.Body.Close()
				break
			}
			require.True(t, time.Now().Before(deadline), "node %d did not start: %v", i, err)
			time.Sleep(200 * time.Millisecond)
		}
	}
	st, b, err := c.do(0, "POST", "/v1/sessions", []byte(`{}`))
	require.NoError(t, err)
	require.Equal(t, 201, st, string(b))
	var s struct{ ID string }
	require.NoError(t, json.Unmarshal(b, &s))
	st, b, err = c.do(0, "POST", "/v1/sessions/"+s.ID+"/run", []byte(`{"command":"cd /tmp; echo hello > f; N=3"}`))
	require.NoError(t, err)
	require.Equal(t, 200, st, string(b))
	for i := 1; i < 3; i++ {
		st, b, err = c.do(i, "POST", "/v1/sessions/"+s.ID+"/run", []byte(`{"command":"echo $N; cat f"}`))
		require.NoError(t, err)
		require.Equal(t, 200, st, string(b))
		assert.Contains(t, string(b), `"stdout":"3\nhello\n"`)
	}
}
