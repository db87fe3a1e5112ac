// Package curl is curl, wget and the raw HTTP exchange python uses, for the sandbox: commands of the
// sandbox's command table that make their requests through the bridge
// (its network policy and budgets), with the flags agents use and the
// real tools' messages and exit statuses.
package curl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/shell"
	"github.com/wasmsand/wasmsand/vfs"
)

// Commands are curl, wget and wasmsand-http (see rawHTTP) over c, for
// core.Options.Commands.
func Commands(c *bridge.Client) []shell.Command {
	return []shell.Command{
		{Name: "wasmsand-http", Run: func(ctx context.Context, _ *shell.Session, req *shell.ExecRequest) int { return rawHTTP(ctx, c, req) }},
		{Name: "curl", Run: func(ctx context.Context, s *shell.Session, req *shell.ExecRequest) int { return curl(ctx, c, s, req) }},
		{Name: "wget", Run: func(ctx context.Context, s *shell.Session, req *shell.ExecRequest) int { return wget(ctx, c, s, req) }},
	}
}

// curl's exit statuses (curl(1) "EXIT CODES").
const (
	curlUnsupported = 1
	curlUsage       = 2
	curlBadURL      = 3
	curlResolve     = 6
	curlConnect     = 7
	curlHTTP        = 22
	curlWrite       = 23
	curlRead        = 26
	curlTimeout     = 28
	curlRedirects   = 47
	curlTooLarge    = 63
)

type curlOpts struct {
	silent, showErr, fail, follow, head, include, verbose, remoteName, get bool
	method, output, writeOut, user                                         string
	headers                                                                []string
	data                                                                   []string // already encoded pieces, joined by &
	dataBinary                                                             bool
	form                                                                   [][2]string
	maxTime                                                                time.Duration
	urls                                                                   []string
}

// curlArgs are the options that take an argument.
var curlArgs = map[string]string{
	"-X": "--request", "-H": "--header", "-d": "--data", "-o": "--output", "-u": "--user", "-w": "--write-out",
	"-m": "--max-time", "-A": "--user-agent", "-e": "--referer", "-F": "--form", "-T": "--upload-file",
	"-x": "--proxy", "-b": "--cookie", "-c": "--cookie-jar", "-r": "--range", "-K": "--config", "-E": "--cert",
}

var curlLongArgs = map[string]bool{
	"--request": true, "--header": true, "--data": true, "--data-raw": true, "--data-binary": true,
	"--data-urlencode": true, "--data-ascii": true, "--output": true, "--user": true, "--write-out": true,
	"--max-time": true, "--user-agent": true, "--referer": true, "--form": true, "--upload-file": true,
	"--proxy": true, "--cookie": true, "--cookie-jar": true, "--range": true, "--config": true, "--cert": true,
	"--connect-timeout": true, "--retry": true, "--retry-delay": true, "--retry-max-time": true, "--url": true,
	"--max-redirs": true, "--resolve": true, "--cacert": true, "--form-string": true,
}

func curl(ctx context.Context, c *bridge.Client, s *shell.Session, req *shell.ExecRequest) int {
	o := curlOpts{}
	errf := func(code int, format string, a ...any) int {
		if !o.silent || o.showErr {
			fmt.Fprintf(req.Stderr, "curl: (%d) %s\n", code, fmt.Sprintf(format, a...))
		}
		return code
	}
	args := expandShort(req.Argv[1:], curlArgs)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.urls = append(o.urls, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.urls = append(o.urls, a)
			continue
		}
		name, val, hasVal := a, "", false
		if strings.HasPrefix(a, "--") {
			if k, v, ok := strings.Cut(a, "="); ok && curlLongArgs[k] {
				name, val, hasVal = k, v, true
			}
		}
		if long, ok := curlArgs[name]; ok {
			name = long
		}
		if curlLongArgs[name] && !hasVal {
			if i+1 >= len(args) {
				fmt.Fprintf(req.Stderr, "curl: option %s: requires parameter\ncurl: try 'curl --help' for more information\n", a)
				return curlUsage
			}
			i++
			val = args[i]
		}
		switch name {
		case "-s", "--silent":
			o.silent = true
		case "-S", "--show-error":
			o.showErr = true
		case "-f", "--fail", "--fail-with-body":
			o.fail = true
		case "-L", "--location":
			o.follow = true
		case "-I", "--head":
			o.head = true
		case "-i", "--include":
			o.include = true
		case "-v", "--verbose":
			o.verbose = true
		case "-O", "--remote-name":
			o.remoteName = true
		case "-G", "--get":
			o.get = true
		case "-k", "--insecure", "--compressed", "-#", "--progress-bar", "--no-progress-meter", "-N", "--no-buffer", "--http1.1", "--http2", "-4", "-6", "--ipv4", "--ipv6":
			// (no effect here)
		case "--request":
			o.method = val
		case "--header":
			o.headers = append(o.headers, val)
		case "--user-agent":
			o.headers = append(o.headers, "User-Agent: "+val)
		case "--referer":
			o.headers = append(o.headers, "Referer: "+val)
		case "--cookie":
			o.headers = append(o.headers, "Cookie: "+val)
		case "--data", "--data-ascii", "--data-raw", "--data-binary", "--data-urlencode":
			d, err := curlData(s, req, name, val)
			if err != nil {
				fmt.Fprintf(req.Stderr, "Warning: %v\n", err)
			}
			o.data = append(o.data, d)
			o.dataBinary = o.dataBinary || name == "--data-binary"
		case "--form", "--form-string":
			k, v, _ := strings.Cut(val, "=")
			o.form = append(o.form, [2]string{k, v})
		case "--output":
			o.output = val
		case "--user":
			o.user = val
		case "--write-out":
			o.writeOut = val
		case "--max-time":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || f < 0 {
				fmt.Fprintf(req.Stderr, "curl: option %s: expected a proper numerical parameter\n", a)
				return curlUsage
			}
			o.maxTime = time.Duration(f * float64(time.Second))
		case "--url":
			o.urls = append(o.urls, val)
		case "--proxy":
			return errf(curlUnsupported, "proxies are not available in this sandbox: its network policy decides where requests go")
		case "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time", "--max-redirs", "--cacert", "--range", "--cookie-jar":
			// (accepted, no effect here)
		case "--upload-file", "--config", "--resolve", "--cert":
			return errf(curlUnsupported, "option %s is not supported in this sandbox", name)
		case "-h", "--help":
			fmt.Fprint(req.Stdout, "Usage: curl [options...] <url>\n -d, --data <data>   HTTP POST data\n -f, --fail          Fail fast with no output on HTTP errors\n -H, --header <header/@file> Pass custom header(s) to server\n -i, --include       Include protocol response headers in the output\n -I, --head          Show document info only\n -L, --location      Follow redirects\n -o, --output <file> Write to file instead of stdout\n -O, --remote-name   Write output to a file named as the remote file\n -s, --silent        Silent mode\n -S, --show-error    Show error even when -s is used\n -u, --user <user:password> Server user and password\n -v, --verbose       Make the operation more talkative\n -w, --write-out <format> Use output FORMAT after completion\n -X, --request <method> Specify request method to use\n(wasmsand: requests go through the sandbox's network policy)\n")
			return 0
		case "-V", "--version":
			fmt.Fprintln(req.Stdout, "curl 8.0 (wasmsand) bridge\nProtocols: http https\nFeatures: the sandbox's network policy decides what is reachable")
			return 0
		default:
			fmt.Fprintf(req.Stderr, "curl: option %s: is unknown\ncurl: try 'curl --help' for more information\n", a)
			return curlUsage
		}
	}
	if len(o.urls) == 0 {
		fmt.Fprint(req.Stderr, "curl: no URL specified\ncurl: try 'curl --help' for more information\n")
		return curlUsage
	}
	st := 0
	for _, u := range o.urls {
		if code := curlOne(ctx, c, s, req, &o, u, errf); code != 0 {
			st = code
		}
	}
	return st
}

// expandShort splits grouped short options ("-sSL" → -s -S -L); in a
// group, an option that takes an argument takes the rest of the group
// ("-XPOST", "-sXPOST") or the next word.
func expandShort(args []string, takesArg map[string]string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) <= 2 || a[0] != '-' || a[1] == '-' {
			out = append(out, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			f := "-" + string(a[j])
			out = append(out, f)
			if _, ok := takesArg[f]; ok {
				if rest := a[j+1:]; rest != "" {
					out = append(out, rest)
				}
				break
			}
		}
	}
	return out
}

// curlData reads a -d style argument: @file (stdin for @-), and for
// --data-urlencode the name=content forms.
func curlData(s *shell.Session, req *shell.ExecRequest, name, val string) (string, error) {
	read := func(f string) (string, error) {
		if f == "-" {
			b, err := io.ReadAll(req.Stdin)
			return string(b), err
		}
		b, err := s.FS().ReadFile(absPath(req.Dir, f))
		if err != nil {
			return "", fmt.Errorf("Couldn't read data from file \"%s\", this makes an empty POST.", f)
		}
		return string(b), nil
	}
	if name == "--data-urlencode" {
		k, v, hasEq := strings.Cut(val, "=")
		switch {
		case strings.HasPrefix(val, "@"):
			d, err := read(val[1:])
			return url.QueryEscape(d), err
		case hasEq && strings.HasPrefix(v, "@") && k != "":
			d, err := read(v[1:])
			return k + "=" + url.QueryEscape(d), err
		case hasEq && k != "":
			return k + "=" + url.QueryEscape(v), nil
		case hasEq:
			return url.QueryEscape(v), nil
		}
		return url.QueryEscape(val), nil
	}
	if name != "--data-raw" && strings.HasPrefix(val, "@") {
		d, err := read(val[1:])
		if name != "--data-binary" {
			d = strings.NewReplacer("\r", "", "\n", "").Replace(d)
		}
		return d, err
	}
	return val, nil
}

// createOutput creates (or empties) a file a tool writes to, as the
// sandbox user: the directory's permissions (fs.ErrPermission) and the
// process's umask apply.
func createOutput(s *shell.Session, req *shell.ExecRequest, name string) (*vfs.File, error) {
	p := absPath(req.Dir, name)
	// an existing file (/dev/null, say) needs write permission on itself;
	// a new one on its directory
	check := s.FS().CheckAccess(p, vfs.AccessWrite, shell.UserID, shell.UserID)
	if errors.Is(check, fs.ErrNotExist) {
		check = s.FS().CheckCreate(p, shell.UserID, shell.UserID)
	}
	if check != nil {
		return nil, check
	}
	return s.FS().OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fs.FileMode(0o666&^req.Umask))
}

func absPath(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

func curlOne(ctx context.Context, c *bridge.Client, s *shell.Session, req *shell.ExecRequest, o *curlOpts, raw string, errf func(int, string, ...any) int) int {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // (curl's guess for a bare host)
	}
	u, err := url.Parse(raw)
	if err == nil && u.Scheme != "http" && u.Scheme != "https" {
		return errf(curlUnsupported, "Protocol \"%s\" not supported or disabled in libcurl", u.Scheme)
	}
	if err != nil || u.Host == "" {
		return errf(curlBadURL, "URL using bad/illegal format or missing URL")
	}
	method := o.method
	var body []byte
	header := bridge.Header{}
	if len(o.data) > 0 {
		d := strings.Join(o.data, "&")
		if o.get {
			if u.RawQuery != "" {
				u.RawQuery += "&"
			}
			u.RawQuery += d
		} else {
			body = []byte(d)
			header.Set("Content-Type", "application/x-www-form-urlencoded")
			if method == "" {
				method = "POST"
			}
		}
	}
	if len(o.form) > 0 {
		b, ctype, err := multipartBody(s, req, o.form)
		if err != nil {
			return errf(curlRead, "%v", err)
		}
		body = b
		header.Set("Content-Type", ctype)
		if method == "" {
			method = "POST"
		}
	}
	if o.head && method == "" {
		method = "HEAD"
	}
	if method == "" {
		method = "GET"
	}
	if u.User != nil && o.user == "" {
		o.user = u.User.String()
		u.User = nil
	}
	var user, pass string
	if o.user != "" {
		user, pass, _ = strings.Cut(o.user, ":")
		user, pass = mustUnescape(user), mustUnescape(pass)
		header.Set("Authorization", "Basic [given by -u]")
	}
	header.Set("Accept", "*/*")
	header.Set("User-Agent", "curl/8.0 (wasmsand)")
	for _, h := range o.headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if v = strings.TrimSpace(v); v == "" {
			header.Del(k)
		} else {
			header.Set(k, v)
		}
	}
	if o.verbose {
		fmt.Fprintf(req.Stderr, "> %s %s HTTP/1.1\n> Host: %s\n", method, u.RequestURI(), u.Host)
		for _, k := range header.Keys() {
			if k == "Authorization" {
				fmt.Fprintf(req.Stderr, "> %s: [redacted]\n", k)
				continue
			}
			fmt.Fprintf(req.Stderr, "> %s: %s\n", k, header.Get(k))
		}
		fmt.Fprintln(req.Stderr, ">")
	}
	start := time.Now()
	if o.user != "" {
		header.Del("Authorization") // (the bridge encodes it, secrets filled in)
	}
	res, err := c.Do(ctx, bridge.Request{Method: method, URL: u.String(), Header: header, Body: body,
		FollowRedirects: o.follow, Timeout: o.maxTime, User: user, Password: pass})
	if err != nil {
		return curlFailure(err, u, method, o, time.Since(start), errf)
	}
	defer res.Body.Close()
	if o.verbose {
		fmt.Fprintf(req.Stderr, "< %s %s\n", res.Proto, res.StatusText)
		for _, k := range res.Header.Keys() {
			fmt.Fprintf(req.Stderr, "< %s: %s\n", k, strings.Join(res.Header[k], ", "))
		}
		fmt.Fprintln(req.Stderr, "<")
	}
	if o.fail && res.Status >= 400 {
		io.Copy(io.Discard, res.Body)
		return errf(curlHTTP, "The requested URL returned error: %d", res.Status)
	}
	var out io.Writer = req.Stdout
	name := o.output
	if o.remoteName && name == "" {
		name = path.Base(u.Path)
		if name == "/" || name == "." || name == "" {
			return errf(curlWrite, "Remote file name has no length")
		}
	}
	if name != "" && name != "-" {
		f, err := createOutput(s, req, name)
		if errors.Is(err, fs.ErrPermission) {
			return errf(curlWrite, "Failure writing output to destination, passed %d returned 0", 0)
		}
		if err != nil {
			fmt.Fprintf(req.Stderr, "Warning: Failed to open the file %s: %v\n", name, err)
			return errf(curlWrite, "Failure writing output to destination")
		}
		defer f.Close()
		out = f
	}
	if o.include || o.head {
		fmt.Fprintf(out, "%s %s\r\n", res.Proto, res.StatusText)
		for _, k := range res.Header.Keys() {
			for _, v := range res.Header[k] {
				fmt.Fprintf(out, "%s: %s\r\n", k, v) // (as HTTP/1.1 servers spell them, mostly)
			}
		}
		fmt.Fprint(out, "\r\n")
	}
	var n int64
	if method != "HEAD" {
		n, err = io.Copy(out, res.Body)
		if err != nil {
			var be *bridge.Error
			switch {
			case errors.As(err, &be) && errors.Is(be, bridge.ErrTooLarge):
				return errf(curlTooLarge, "Maximum file size exceeded")
			case errors.As(err, &be) && errors.Is(be, bridge.ErrTimeout):
				return errf(curlTimeout, "Operation timed out after %d milliseconds", time.Since(start).Milliseconds())
			case errors.As(err, &be):
				return errf(curlConnect, "%s", be.Msg)
			}
			return errf(curlWrite, "Failure writing output to destination")
		}
	}
	if o.writeOut != "" {
		fmt.Fprint(req.Stdout, writeOut(o.writeOut, res, n, time.Since(start)))
	}
	return 0
}

func curlFailure(err error, u *url.URL, method string, o *curlOpts, elapsed time.Duration, errf func(int, string, ...any) int) int {
	var be *bridge.Error
	if !errors.As(err, &be) {
		return errf(curlConnect, "%v", err)
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	switch {
	case errors.Is(be, bridge.ErrDenied):
		return errf(curlConnect, "Failed to connect to %s port %s: blocked by the sandbox's network policy (%s)", host, port, be.Msg)
	case errors.Is(be, bridge.ErrResolve):
		return errf(curlResolve, "Could not resolve host: %s", host)
	case errors.Is(be, bridge.ErrTimeout):
		return errf(curlTimeout, "Operation timed out: %s", be.Msg)
	case errors.Is(be, bridge.ErrRedirect):
		return errf(curlRedirects, "Maximum (%s) redirects followed", strings.Fields(be.Msg + " (10)")[1])
	case errors.Is(be, bridge.ErrBudget):
		return errf(curlConnect, "Failed to connect to %s port %s: %s", host, port, be.Msg)
	}
	if strings.Contains(strings.ToLower(be.Msg), "refused") {
		return errf(curlConnect, "Failed to connect to %s port %s after %d ms: Couldn't connect to server", host, port, elapsed.Milliseconds())
	}
	return errf(curlConnect, "Failed to connect to %s port %s: %s", host, port, strings.TrimPrefix(be.Msg, "failed to connect to "+host+" port "+port+": "))
}

// writeOut expands -w's variables and escapes.
func writeOut(f string, res *bridge.Response, n int64, d time.Duration) string {
	vars := map[string]string{
		"http_code": fmt.Sprintf("%03d", res.Status), "response_code": fmt.Sprintf("%03d", res.Status),
		"url_effective": res.URL, "size_download": strconv.FormatInt(n, 10),
		"content_type": res.Header.Get("Content-Type"), "time_total": fmt.Sprintf("%.6f", d.Seconds()),
		"num_redirects": strconv.Itoa(res.Redirects), "http_version": strings.TrimPrefix(res.Proto, "HTTP/"),
	}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		switch {
		case strings.HasPrefix(f[i:], "%{"):
			if j := strings.IndexByte(f[i:], '}'); j > 0 {
				b.WriteString(vars[f[i+2:i+j]])
				i += j
				continue
			}
			b.WriteByte(f[i])
		case f[i] == '\\' && i+1 < len(f):
			switch f[i+1] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(f[i+1])
			}
			i++
		default:
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

func mustUnescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}
