//go:build !js

package bridge

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/wasmsand/wasmsand/policy"
)

func defaultTransport(b Budget) Transport { return dialed{b} }

// dialed is net/http with a dialer that checks the address it connects
// to (after DNS, so a name cannot rebind to a refused address), a new
// connection per request.
type dialed struct{ budget Budget }

func (t dialed) RoundTrip(h *Hop, d *policy.Decision) (*HopResponse, error) {
	var body io.Reader
	if h.Body != nil {
		body = bytes.NewReader(h.Body)
	}
	req, err := http.NewRequestWithContext(h.Ctx, h.Method, h.URL.String(), body)
	if err != nil {
		return nil, err
	}
	req.Header = http.Header(h.Header)
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: d.Control}
	tr := &http.Transport{
		Proxy:                  nil, // (the host's proxy settings stay the host's)
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  t.budget.RequestTimeout,
		MaxResponseHeaderBytes: 1 << 20,
		DisableCompression:     true,
		ForceAttemptHTTP2:      true,
	}
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		tr.CloseIdleConnections()
		return nil, err
	}
	return &HopResponse{
		StatusCode: res.StatusCode, Status: res.Status, Proto: res.Proto, Header: Header(res.Header),
		Body: &closer{ReadCloser: res.Body, close: tr.CloseIdleConnections},
	}, nil
}

type closer struct {
	io.ReadCloser
	close func()
}

func (c *closer) Close() error {
	err := c.ReadCloser.Close()
	c.close()
	return err
}
