//go:build js

package bridge

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"strconv"
	"syscall/js"
	"time"

	"github.com/wasmsand/wasmsand/policy"
)

// Under GOOS=js a guest's request cannot wait for the JS event loop (a run
// holds the thread), and net/http's fetch transport would. The platform
// provides globalThis.__wasmsandHTTP(op, arg), which answers synchronously:
// Node through a helper thread (node/worker.cjs), a browser's worker with a
// synchronous XMLHttpRequest (web/worker.js).
//
//	("lookup", host) → {addresses: [...]} | {error} | null (cannot resolve
//	  here: a browser, whose own DNS is out of reach)
//	("request", {method, url, headers: [[k, v]...], body, address,
//	  timeoutMs, maxBytes}) → {status, statusText, headers, body, url} |
//	  {error: {kind: "resolve"|"connect"|"timeout", message}}
//
// With an address the request connects there (Node pins it), so the
// address the policy judged is the one used.
func defaultTransport(b Budget) Transport { return jsTransport{b} }

type jsTransport struct{ budget Budget }

func (t jsTransport) RoundTrip(req *Hop, d *policy.Decision) (*HopResponse, error) {
	f := js.Global().Get("__wasmsandHTTP")
	if f.Type() != js.TypeFunction {
		return nil, errors.New("this platform has no network bridge")
	}
	host := req.URL.Hostname()
	address := ""
	if _, err := netip.ParseAddr(host); err != nil {
		r := f.Invoke("lookup", host)
		if err := jsError(r, host); err != nil {
			return nil, err
		}
		if r.Type() == js.TypeObject {
			addrs := r.Get("addresses")
			for i := 0; i < addrs.Length(); i++ {
				ip, err := netip.ParseAddr(addrs.Index(i).String())
				if err != nil {
					continue
				}
				// every address the name has must be allowed: the one
				// connected to is the first, pinned
				if err := d.CheckAddr(ip); err != nil {
					return nil, err
				}
				if address == "" {
					address = ip.String()
				}
			}
			if address == "" {
				return nil, &net.DNSError{Name: host, Err: "no address", IsNotFound: true}
			}
		}
	}
	var body js.Value = js.Null()
	if req.Body != nil {
		body = js.Global().Get("Uint8Array").New(len(req.Body))
		js.CopyBytesToJS(body, req.Body)
	}
	headers := []any{}
	for k, vs := range req.Header {
		for _, v := range vs {
			headers = append(headers, []any{k, v})
		}
	}
	timeout := t.budget.RequestTimeout
	if dl, ok := req.Ctx.Deadline(); ok {
		if left := time.Until(dl); left < timeout {
			timeout = left
		}
	}
	if timeout <= 0 {
		return nil, context.DeadlineExceeded
	}
	r := f.Invoke("request", map[string]any{
		"method": req.Method, "url": req.URL.String(), "headers": headers, "body": body,
		"address": address, "timeoutMs": timeout.Milliseconds(), "maxBytes": t.budget.MaxResponseBytes + 1,
	})
	if err := jsError(r, host); err != nil {
		return nil, err
	}
	if r.Type() != js.TypeObject {
		return nil, errors.New("the network bridge did not answer")
	}
	// (fetch and XMLHttpRequest hand over bodies already decoded)
	res := &HopResponse{StatusCode: r.Get("status").Int(), Proto: "HTTP/1.1", Header: Header{}, Decoded: true}
	text := r.Get("statusText")
	if text.Type() != js.TypeString || text.String() == "" {
		text = js.ValueOf(statusText(res.StatusCode))
	}
	res.Status = strconv.Itoa(res.StatusCode) + " " + text.String()
	hs := r.Get("headers")
	for i := 0; i < hs.Length(); i++ {
		res.Header.Add(hs.Index(i).Index(0).String(), hs.Index(i).Index(1).String())
	}
	b := make([]byte, r.Get("body").Get("length").Int())
	js.CopyBytesToGo(b, r.Get("body"))
	res.Body = io.NopCloser(bytes.NewReader(b))
	if u := r.Get("url"); u.Type() == js.TypeString && u.String() != "" && u.String() != req.URL.String() {
		if final, err := req.URL.Parse(u.String()); err == nil {
			res.URL = final
		}
	}
	return res, nil
}

// jsError turns the platform's {error: {kind, message}} into what
// classify expects of net/http.
func jsError(r js.Value, host string) error {
	if r.Type() != js.TypeObject || r.Get("error").Type() != js.TypeObject {
		return nil
	}
	e := r.Get("error")
	msg := e.Get("message").String()
	switch e.Get("kind").String() {
	case "resolve":
		return &net.DNSError{Name: host, Err: msg, IsNotFound: true}
	case "timeout":
		return context.DeadlineExceeded
	}
	return errors.New("connect: " + msg)
}
