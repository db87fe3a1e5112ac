package service_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/service"
)

func newServer(t *testing.T, opt service.Options) (*service.Server, *httptest.Server) {
	t.Helper()
	opt.NewSandbox = func(ctx context.Context, req service.CreateRequest, onEvent func(core.Event)) (*core.Sandbox, error) {
		o := core.Options{Timeout: 10 * time.Second, Env: req.Env, OnEvent: onEvent}
		if req.TimeoutMs > 0 {
			o.Timeout = time.Duration(req.TimeoutMs) * time.Millisecond
		}
		return core.New(ctx, o)
	}
	svc := service.New(opt)
	hs := httptest.NewServer(svc.Handler())
	t.Cleanup(func() { hs.Close(); svc.Close() })
	return svc, hs
}

type client struct {
	t     *testing.T
	base  string
	token string
}

// do sends a request; body is JSON-encoded unless it is a string or []byte.
func (c client) do(method, path string, body any) (int, []byte, http.Header) {
	c.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		r = strings.NewReader(string(b))
	case string:
		r = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		r = strings.NewReader(string(j))
	}
	req, err := http.NewRequest(method, c.base+path, r)
	require.NoError(c.t, err)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(c.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(c.t, err)
	return res.StatusCode, b, res.Header
}

func (c client) json(method, path string, body any, wantStatus int) map[string]any {
	c.t.Helper()
	st, b, _ := c.do(method, path, body)
	require.Equal(c.t, wantStatus, st, "%s %s: %s", method, path, b)
	if len(b) == 0 {
		return nil
	}
	var out map[string]any
	require.NoError(c.t, json.Unmarshal(b, &out), string(b))
	return out
}

func TestSessions(t *testing.T) {
	_, hs := newServer(t, service.Options{Tokens: []string{"alice", "bob"}})
	a := client{t, hs.URL, "alice"}
	bob := client{t, hs.URL, "bob"}

	out := client{t, hs.URL, ""}.json("POST", "/v1/sessions", nil, 401)
	assert.Equal(t, "unauthorized", out["code"])
	out = client{t, hs.URL, "mallory"}.json("GET", "/v1/sessions", nil, 401)
	assert.Equal(t, "unauthorized", out["code"])

	s := a.json("POST", "/v1/sessions", map[string]any{"env": map[string]string{"GREETING": "hi"}}, 201)
	id := s["id"].(string)
	assert.Equal(t, "/home/user", s["cwd"])
	// another token cannot see it
	assert.Equal(t, "not_found", bob.json("GET", "/v1/sessions/"+id, nil, 404)["code"])
	assert.Equal(t, "not_found", bob.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "true"}, 404)["code"])
	assert.Len(t, bob.json("GET", "/v1/sessions", nil, 200)["sessions"], 0)
	assert.Len(t, a.json("GET", "/v1/sessions", nil, 200)["sessions"], 1)

	run := a.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "echo $GREETING; echo err >&2; cd /tmp; X=1; exit 4"}, 200)
	assert.Equal(t, 4.0, run["exit_code"])
	assert.Equal(t, "hi\n", run["stdout"])
	assert.Equal(t, "err\n", run["stderr"])
	run = a.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "echo $PWD $X; read -r l; echo \"$l\"", "stdin": "from stdin\n"}, 200)
	assert.Equal(t, "/tmp 1\nfrom stdin\n", run["stdout"], "the session keeps its state")
	run = a.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "[ -c /dev/stdin ] && echo device; [ -p /dev/stdin ] && echo pipe; cat"}, 200)
	assert.Equal(t, "device\n", run["stdout"], "no stdin given: /dev/null (rg then searches the directory, not stdin)")
	run = a.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "while :; do :; done", "timeout_ms": 100}, 200)
	assert.Equal(t, []any{124.0, true}, []any{run["exit_code"], run["timed_out"]})
	assert.Equal(t, "invalid_argument", a.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": " "}, 400)["code"])
	assert.Equal(t, "invalid_argument", a.json("POST", "/v1/sessions/"+id+"/run", `{"comand": "x"}`, 400)["code"])

	// files, binary safe
	bin := []byte{0, 1, 0xff, 0xfe, '\n'}
	w := a.json("PUT", "/v1/sessions/"+id+"/files?path=/home/user/d/b.bin&mode=600", bin, 200)
	assert.Equal(t, 5.0, w["bytes_written"])
	st, got, h := a.do("GET", "/v1/sessions/"+id+"/files?path=/home/user/d/b.bin", nil)
	assert.Equal(t, 200, st)
	assert.Equal(t, bin, got)
	assert.Equal(t, "application/octet-stream", h.Get("Content-Type"))
	ls := a.json("GET", "/v1/sessions/"+id+"/files?path=/home/user/d", nil, 200)
	e := ls["entries"].([]any)[0].(map[string]any)
	assert.Equal(t, []any{"b.bin", "file", 5.0, "-rw-------"}, []any{e["name"], e["type"], e["size"], e["mode"]})
	assert.Equal(t, "not_found", a.json("GET", "/v1/sessions/"+id+"/files?path=/nope", nil, 404)["code"])
	assert.Equal(t, "invalid_argument", a.json("GET", "/v1/sessions/"+id+"/files", nil, 400)["code"])
	assert.Equal(t, "not_empty", a.json("DELETE", "/v1/sessions/"+id+"/files?path=/home/user/d", nil, 409)["code"])

	// snapshot, change, restore
	snap := a.json("POST", "/v1/sessions/"+id+"/snapshots", nil, 201)["snapshot_id"]
	a.json("DELETE", "/v1/sessions/"+id+"/files?path=/home/user/d&recursive=true", nil, 204)
	assert.Equal(t, "not_found", a.json("GET", "/v1/sessions/"+id+"/files?path=/home/user/d/b.bin", nil, 404)["code"])
	a.json("POST", "/v1/sessions/"+id+"/restore", map[string]any{"snapshot_id": snap}, 204)
	st, got, _ = a.do("GET", "/v1/sessions/"+id+"/files?path=/home/user/d/b.bin", nil)
	assert.Equal(t, []any{200, bin}, []any{st, got})
	assert.Equal(t, "not_found", a.json("POST", "/v1/sessions/"+id+"/restore", map[string]any{"snapshot_id": "x"}, 404)["code"])

	// fork: a copy, independent
	f := a.json("POST", "/v1/sessions/"+id+"/fork", nil, 201)["id"].(string)
	a.json("POST", "/v1/sessions/"+f+"/run", map[string]any{"command": "echo fork > /home/user/only"}, 200)
	run = a.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "[[ -e /home/user/only ]] || echo absent; echo $PWD"}, 200)
	assert.Equal(t, "absent\n/tmp\n", run["stdout"])

	a.json("DELETE", "/v1/sessions/"+f, nil, 204)
	assert.Equal(t, "not_found", a.json("GET", "/v1/sessions/"+f, nil, 404)["code"])
	assert.Equal(t, "not_found", a.json("GET", "/v2/nothing", nil, 404)["code"])
}

// TestRunStream: a run as server-sent events, output as it is written.
func TestRunStream(t *testing.T) {
	_, hs := newServer(t, service.Options{})
	c := client{t, hs.URL, ""}
	id := c.json("POST", "/v1/sessions", nil, 201)["id"].(string)
	req, _ := http.NewRequest("POST", hs.URL+"/v1/sessions/"+id+"/run", strings.NewReader(`{"command": "echo one; echo two >&2; printf '\\377'; exit 3"}`))
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	assert.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	var events []string
	sc := bufio.NewScanner(res.Body)
	var ev string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data := strings.TrimPrefix(line, "data: ")
			if ev == "event" {
				var e map[string]any
				require.NoError(t, json.Unmarshal([]byte(data), &e))
				data = fmt.Sprint(e["kind"])
			}
			events = append(events, ev+" "+data)
		}
	}
	assert.Equal(t, []string{
		"event run_start", `stdout {"text":"one\n"}`, `stderr {"text":"two\n"}`, `stdout {"base64":"/w=="}`, "event run_end",
		`result {"exit_code":3,"stdout":"","stderr":"","execution_time_ms":0,"truncated":false,"timed_out":false}`,
	}, normalizeTime(events))
}

func normalizeTime(events []string) []string {
	for i, e := range events {
		if strings.HasPrefix(e, "result ") {
			var r map[string]any
			_ = json.Unmarshal([]byte(strings.TrimPrefix(e, "result ")), &r)
			r["execution_time_ms"] = 0
			b, _ := json.Marshal(service.RunResult{ExitCode: int(r["exit_code"].(float64)), Truncated: r["truncated"].(bool), TimedOut: r["timed_out"].(bool)})
			events[i] = "result " + string(b)
		}
	}
	return events
}

func TestLimits(t *testing.T) {
	svc, hs := newServer(t, service.Options{MaxSessions: 2, MaxBody: 1024, IdleTTL: 200 * time.Millisecond})
	c := client{t, hs.URL, ""}
	id := c.json("POST", "/v1/sessions", nil, 201)["id"].(string)
	c.json("POST", "/v1/sessions", nil, 201)
	assert.Equal(t, "quota_exceeded", c.json("POST", "/v1/sessions", nil, 429)["code"])
	assert.Equal(t, "payload_too_large", c.json("PUT", "/v1/sessions/"+id+"/files?path=big", strings.Repeat("x", 2000), 413)["code"])
	// idle sessions are closed
	deadline := time.Now().Add(10 * time.Second)
	for svc.Sessions() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	assert.Equal(t, 0, svc.Sessions())
	assert.Equal(t, "not_found", c.json("GET", "/v1/sessions/"+id, nil, 404)["code"])
}

// TestOpenAPI: every operation the document lists is served (not the
// catch-all's "no route"), and the document describes the bodies.
func TestOpenAPI(t *testing.T) {
	_, hs := newServer(t, service.Options{})
	c := client{t, hs.URL, ""}
	doc := c.json("GET", service.OpenAPIPath, nil, 200)
	assert.Equal(t, "3.1.0", doc["openapi"])
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	props := schemas["RunRequest"].(map[string]any)["properties"].(map[string]any)
	assert.Contains(t, props, "command")
	assert.Contains(t, schemas, "ErrorBody")
	n := 0
	for path, ops := range doc["paths"].(map[string]any) {
		for method := range ops.(map[string]any) {
			id := c.json("POST", "/v1/sessions", nil, 201)["id"].(string)
			p := strings.ReplaceAll(path, "{id}", id) + "?path=/tmp"
			_, b, _ := c.do(strings.ToUpper(method), p, nil)
			assert.NotContains(t, string(b), "no route", "%s %s", method, path)
			n++
		}
	}
	assert.Equal(t, 11, n, "operations in the document")
}

// TestNoLeak: 10,000 sessions created and deleted leave the heap as it was.
func TestNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 sessions")
	}
	svc, hs := newServer(t, service.Options{})
	c := client{t, hs.URL, ""}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for i := 0; i < 100; i++ { // (warm up pools and caches)
		id := c.json("POST", "/v1/sessions", nil, 201)["id"].(string)
		c.json("DELETE", "/v1/sessions/"+id, nil, 204)
	}
	before := heap()
	for i := 0; i < 10000; i++ {
		id := c.json("POST", "/v1/sessions", nil, 201)["id"].(string)
		if i%100 == 0 {
			c.json("POST", "/v1/sessions/"+id+"/run", map[string]any{"command": "x=$((1+1)); echo $x > f"}, 200)
		}
		c.json("DELETE", "/v1/sessions/"+id, nil, 204)
	}
	after := heap()
	assert.Equal(t, 0, svc.Sessions())
	t.Logf("heap: %d KB before, %d KB after 10,000 sessions", before>>10, after>>10)
	assert.Less(t, after, before+8<<20, "the heap grew by %d KB", (int64(after)-int64(before))>>10)
}
