package curl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/shell"
)

// wasmsand-http is how a program that speaks HTTP itself (python's
// http.client, and so urllib and requests) reaches the bridge without a
// socket: it reads one HTTP/1.x request on stdin, makes it through the
// bridge toward ORIGIN (scheme://host[:port]; TLS is the bridge's), and
// writes the answer on stdout as HTTP/1.1 with "Connection: close".
// Redirects are the caller's to follow. A failure writes
// "wasmsand-http: KIND: message" on stderr and exits with KIND's status.
//
//	wasmsand-http [--timeout SECONDS] ORIGIN < request > response
const (
	rawUsage    = 2
	rawDenied   = 3
	rawBudget   = 4
	rawResolve  = 5
	rawConnect  = 6
	rawTimeout  = 7
	rawTooLarge = 8
)

// rawKinds names each failure for the caller (python maps them to OSError
// subclasses).
var rawKinds = []struct {
	err    error
	status int
	name   string
}{
	{bridge.ErrDenied, rawDenied, "denied"},
	{bridge.ErrBudget, rawBudget, "budget"},
	{bridge.ErrResolve, rawResolve, "resolve"},
	{bridge.ErrTimeout, rawTimeout, "timeout"},
	{bridge.ErrTooLarge, rawTooLarge, "too-large"},
}

// hopByHop are the request headers that describe the caller's connection,
// which the bridge makes its own.
var hopByHop = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Te", "Trailer", "Upgrade", "Content-Length", "Host"}

func rawHTTP(ctx context.Context, c *bridge.Client, req *shell.ExecRequest) int {
	fail := func(status int, kind, format string, a ...any) int {
		fmt.Fprintf(req.Stderr, "wasmsand-http: %s: %s\n", kind, fmt.Sprintf(format, a...))
		return status
	}
	args := req.Argv[1:]
	var timeout time.Duration
	if len(args) == 3 && args[0] == "--timeout" {
		sec, err := strconv.ParseFloat(args[1], 64)
		if err != nil || sec <= 0 {
			return fail(rawUsage, "usage", "bad --timeout %q", args[1])
		}
		timeout = time.Duration(sec * float64(time.Second))
		args = args[2:]
	}
	if len(args) != 1 {
		return fail(rawUsage, "usage", "wasmsand-http [--timeout SECONDS] SCHEME://HOST[:PORT] < request")
	}
	origin, err := url.Parse(args[0])
	if err != nil || (origin.Scheme != "http" && origin.Scheme != "https") || origin.Host == "" || (origin.Path != "" && origin.Path != "/") {
		return fail(rawUsage, "usage", "bad origin %q (want http[s]://host[:port])", args[0])
	}
	hr, err := readRequest(bufio.NewReader(req.Stdin))
	if err != nil {
		return fail(rawUsage, "request", "%v", err)
	}
	body, target := hr.body, hr.target
	if !strings.HasPrefix(target, "/") {
		return fail(rawUsage, "request", "the request target must be a path, not %q", target)
	}
	header := hr.header
	for _, k := range hopByHop {
		header.Del(k)
	}
	res, err := c.Do(ctx, bridge.Request{Method: hr.method, URL: origin.Scheme + "://" + origin.Host + target,
		Header: header, Body: body, Timeout: timeout})
	if err != nil {
		return rawFailure(err, fail)
	}
	defer res.Body.Close()
	w := bufio.NewWriter(req.Stdout)
	fmt.Fprintf(w, "HTTP/1.1 %s\r\n", res.StatusText)
	res.Header.Del("Transfer-Encoding") // (the body comes decoded, up to the close)
	res.Header.Set("Connection", "close")
	res.Header.Write(w)
	w.WriteString("\r\n")
	if hr.method != "HEAD" {
		if _, err := io.Copy(w, res.Body); err != nil {
			w.Flush()
			return rawFailure(err, fail)
		}
	}
	if err := w.Flush(); err != nil {
		return fail(rawConnect, "write", "%v", err)
	}
	return 0
}

func rawFailure(err error, fail func(int, string, string, ...any) int) int {
	for _, k := range rawKinds {
		if errors.Is(err, k.err) {
			return fail(k.status, k.name, "%v", err)
		}
	}
	return fail(rawConnect, "connect", "%v", err)
}
