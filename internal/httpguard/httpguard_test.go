package httpguard

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostAllowed(t *testing.T) {
	for _, c := range []struct {
		host, listen string
		allow        []string
		ok           bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", nil, true},
		{"localhost:8080", "127.0.0.1:8080", nil, true},
		{"LOCALHOST.:8080", "127.0.0.1:8080", nil, true},
		{"[::1]:8080", "127.0.0.1:8080", nil, true},
		{"127.9.9.9", "127.0.0.1:8080", nil, true},
		{"evil.example:8080", "127.0.0.1:8080", nil, false}, // DNS rebinding: the page's own name
		{"localhost.evil.example", "127.0.0.1:8080", nil, false},
		{"127.0.0.1.nip.io", "127.0.0.1:8080", nil, false},
		{"0x7f000001", "127.0.0.1:8080", nil, false},
		{"", "127.0.0.1:8080", nil, false},
		{"sandbox.internal:8080", "127.0.0.1:8080", []string{"sandbox.internal"}, true},
		{"SANDBOX.internal", "127.0.0.1:8080", []string{"sandbox.internal"}, true},
		{"other.internal", "127.0.0.1:8080", []string{"sandbox.internal"}, false},
		{"anything", "127.0.0.1:8080", []string{"*"}, true},
		{"10.1.2.3:8080", "0.0.0.0:8080", nil, true}, // every address: an IP literal names it
		{"10.1.2.3:8080", ":8080", nil, true},
		{"box.example:8080", "0.0.0.0:8080", nil, false},
		{"10.1.2.3:8080", "10.1.2.3:8080", nil, true},
		{"10.1.2.4:8080", "10.1.2.3:8080", nil, false},
		{"myhost:8080", "myhost:8080", nil, true},
	} {
		h, _, _ := strings.Cut(c.listen, ":")
		if strings.HasPrefix(c.listen, ":") {
			h = ""
		}
		assert.Equal(t, c.ok, hostAllowed(c.host, h, c.allow), "Host %q, listen %q, allow %v", c.host, c.listen, c.allow)
	}
}

func TestHandler(t *testing.T) {
	var reached int
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++; w.WriteHeader(200) })
	h := Handler(Options{Listen: "127.0.0.1:8080", AllowOrigins: []string{"https://app.example"},
		RawBody: func(r *http.Request) bool { return r.Method == "PUT" }}, next)
	do := func(method, host, ct, body string, hdr map[string]string) (*httptest.ResponseRecorder, map[string]string) {
		r := httptest.NewRequest(method, "http://"+host+"/v1/sessions", strings.NewReader(body))
		if body == "" {
			r = httptest.NewRequest(method, "http://"+host+"/v1/sessions", nil)
		}
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var e map[string]string
		_ = json.Unmarshal(w.Body.Bytes(), &e)
		return w, e
	}
	w, e := do("POST", "evil.example:8080", "application/json", "{}", nil)
	assert.Equal(t, 421, w.Code)
	assert.Equal(t, "host_not_allowed", e["code"])
	w, e = do("POST", "127.0.0.1:8080", "application/json", "{}", map[string]string{"Origin": "https://evil.example"})
	assert.Equal(t, 403, w.Code)
	assert.Equal(t, "origin_not_allowed", e["code"])
	w, _ = do("GET", "127.0.0.1:8080", "", "", map[string]string{"Origin": "null"})
	assert.Equal(t, 403, w.Code, "a sandboxed frame or a file: page")
	w, _ = do("GET", "127.0.0.1:8080", "", "", map[string]string{"Sec-Fetch-Site": "cross-site"})
	assert.Equal(t, 403, w.Code)
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/jsonx"} {
		w, e = do("POST", "127.0.0.1:8080", ct, "{}", nil)
		assert.Equal(t, 415, w.Code, ct)
		assert.Equal(t, "unsupported_media_type", e["code"], ct)
	}
	assert.Zero(t, reached, "nothing refused reached the server")

	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "application/problem+json"} {
		w, _ = do("POST", "localhost:8080", ct, "{}", nil)
		assert.Equal(t, 200, w.Code, ct)
	}
	w, _ = do("POST", "localhost:8080", "", "", nil)
	assert.Equal(t, 200, w.Code, "no body, no type needed")
	w, _ = do("PUT", "localhost:8080", "application/octet-stream", "bytes", nil)
	assert.Equal(t, 200, w.Code, "a raw upload")

	// An allowed page: CORS answers, its preflight included.
	w, _ = do("POST", "127.0.0.1:8080", "application/json", "{}", map[string]string{"Origin": "https://app.example"})
	assert.Equal(t, 200, w.Code)
	assert.Equal(t, "https://app.example", w.Header().Get("Access-Control-Allow-Origin"))
	n := reached
	w, _ = do("OPTIONS", "127.0.0.1:8080", "", "", map[string]string{"Origin": "https://app.example",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"})
	assert.Equal(t, 204, w.Code)
	assert.Equal(t, "authorization, content-type", w.Header().Get("Access-Control-Allow-Headers"))
	require.Equal(t, n, reached, "a preflight is answered here")
}
