package curl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/bridge"
)

// rawRequest is an HTTP/1.x request as a program wrote it on stdin.
type rawRequest struct {
	method, target string
	header         bridge.Header
	body           []byte // nil when it has none
}

// maxRawBody bounds a request body read from a guest (what the bridge
// would send anyway is bounded by the guest's own memory).
const maxRawBody = 1 << 30

// readRequest reads one request: its line, its header and a body framed
// by Content-Length or chunked transfer coding (as python's http.client
// writes them). It stands in for net/http's ReadRequest, which the JS
// build does not link (see bridge.Header).
func readRequest(r *bufio.Reader) (*rawRequest, error) {
	tp := textproto.NewReader(r)
	line, err := tp.ReadLine()
	if err != nil {
		return nil, fmt.Errorf("reading the request line: %w", unexpected(err))
	}
	method, rest, ok1 := strings.Cut(line, " ")
	target, proto, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || method == "" || target == "" || !strings.HasPrefix(proto, "HTTP/1.") || len(proto) != 8 {
		return nil, fmt.Errorf("malformed request line %q", line)
	}
	for _, c := range method {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", c) {
			return nil, fmt.Errorf("bad method %q", method)
		}
	}
	mh, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, fmt.Errorf("reading the header: %w", unexpected(err))
	}
	req := &rawRequest{method: method, target: target, header: bridge.Header(mh)}
	te := strings.ToLower(strings.TrimSpace(req.header.Get("Transfer-Encoding")))
	if proto == "HTTP/1.0" {
		te = "" // (HTTP/1.0 has no transfer codings: net/http ignores them too)
	}
	switch {
	case te == "chunked":
		req.body, err = readChunked(tp)
	case te != "" && te != "identity":
		return nil, fmt.Errorf("unsupported transfer coding %q", te)
	case len(req.header.Values("Content-Length")) > 0:
		n, perr := strconv.ParseInt(strings.TrimSpace(req.header.Get("Content-Length")), 10, 64)
		if perr != nil || n < 0 || n > maxRawBody {
			return nil, fmt.Errorf("bad Content-Length %q", req.header.Get("Content-Length"))
		}
		if n > 0 {
			req.body, err = readN(r, n)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", unexpected(err))
	}
	return req, nil
}

// readChunked decodes a chunked body, trailers dropped.
func readChunked(tp *textproto.Reader) ([]byte, error) {
	body := []byte{}
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(line, ";")
		n, err := strconv.ParseInt(strings.TrimSpace(size), 16, 64)
		if err != nil || n < 0 || int64(len(body))+n > maxRawBody {
			return nil, fmt.Errorf("bad chunk size %q", line)
		}
		if n == 0 {
			_, err := tp.ReadMIMEHeader() // (the trailers, up to the blank line)
			return body, err
		}
		chunk, err := readN(tp.R, n)
		if err != nil {
			return nil, err
		}
		body = append(body, chunk...)
		if crlf, err := tp.ReadLine(); err != nil || crlf != "" {
			return nil, errors.New("a chunk does not end with CRLF")
		}
	}
}

// readN reads exactly n bytes, allocating as they arrive rather than what
// a header claims (a request may say a gigabyte and bring ten bytes).
func readN(r io.Reader, n int64) ([]byte, error) {
	var b bytes.Buffer
	got, err := io.Copy(&b, io.LimitReader(r, n))
	if err == nil && got < n {
		err = io.ErrUnexpectedEOF
	}
	return b.Bytes(), err
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
