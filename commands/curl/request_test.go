package curl

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

var requestSeeds = []string{
	"GET /a?b=c HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n",
	"POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello",
	"PUT /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
	"GET / HTTP/1.0\r\n\r\n",
	"GET /\r\n\r\n",
	"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort",
	"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
	"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
	"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
	"G(T / HTTP/1.1\r\n\r\n",
}

func TestReadRequest(t *testing.T) {
	for i, want := range []struct {
		method, target, body string
		err                  bool
	}{
		{"GET", "/a?b=c", "", false},
		{"POST", "/p", "hello", false},
		{"PUT", "/c", "hello world", false},
		{"GET", "/", "", false},
		{err: true}, {err: true}, {err: true}, {err: true}, {err: true}, {err: true},
	} {
		r, err := readRequest(bufio.NewReader(strings.NewReader(requestSeeds[i])))
		if (err != nil) != want.err {
			t.Fatalf("case %d: err %v", i, err)
		}
		if err != nil {
			continue
		}
		if r.method != want.method || r.target != want.target || string(r.body) != want.body {
			t.Errorf("case %d: got %q %q %q", i, r.method, r.target, r.body)
		}
	}
	r, _ := readRequest(bufio.NewReader(strings.NewReader(requestSeeds[1])))
	if r.header.Get("content-type") != "text/plain" {
		t.Errorf("header: %v", r.header)
	}
}

// FuzzReadRequest: no input panics, and whatever both this reader and
// net/http's accept reads the same.
func FuzzReadRequest(f *testing.F) {
	for _, s := range requestSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := readRequest(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return
		}
		h, herr := http.ReadRequest(bufio.NewReader(bytes.NewReader(data)))
		if herr != nil {
			return
		}
		body, berr := io.ReadAll(h.Body)
		if berr != nil {
			return
		}
		if r.method != h.Method || r.target != h.RequestURI || !bytes.Equal(r.body, body) {
			t.Fatalf("differs from net/http: %q %q %q vs %q %q %q", r.method, r.target, r.body, h.Method, h.RequestURI, body)
		}
	})
}
