package curl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/shell"
)

// wget's exit statuses (wget(1) "EXIT STATUS").
const (
	wgetGeneric = 1
	wgetUsage   = 2
	wgetIO      = 3
	wgetNetwork = 4
	wgetServer  = 8
)

var wgetArgs = map[string]string{"-O": "--output-document", "-o": "--output-file", "-T": "--timeout", "-U": "--user-agent", "-P": "--directory-prefix", "-t": "--tries"}

var wgetLongArgs = map[string]bool{
	"--output-document": true, "--output-file": true, "--timeout": true, "--user-agent": true, "--header": true,
	"--post-data": true, "--post-file": true, "--method": true, "--body-data": true, "--user": true, "--password": true,
	"--max-redirect": true, "--directory-prefix": true, "--tries": true,
}

func wget(ctx context.Context, c *bridge.Client, s *shell.Session, req *shell.ExecRequest) int {
	quiet, spider, showHeaders := false, false, false
	var out, dir, method, user, pass string
	var body []byte
	var timeout time.Duration
	header := bridge.Header{"User-Agent": {"Wget/1.21 (wasmsand)"}, "Accept": {"*/*"}}
	var urls []string
	args := expandShort(req.Argv[1:], wgetArgs)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			urls = append(urls, a)
			continue
		}
		name, val, hasVal := a, "", false
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			name, val, hasVal = k, v, true
		}
		if long, ok := wgetArgs[name]; ok {
			name = long
		}
		if wgetLongArgs[name] && !hasVal {
			if i+1 >= len(args) {
				fmt.Fprintf(req.Stderr, "wget: option requires an argument -- '%s'\nUsage: wget [OPTION]... [URL]...\n", strings.TrimLeft(a, "-"))
				return wgetUsage
			}
			i++
			val = args[i]
		}
		switch name {
		case "-q", "--quiet":
			quiet = true
		case "-nv", "--no-verbose", "-c", "--continue", "--no-check-certificate", "-N", "--timestamping", "--tries":
		case "-S", "--server-response":
			showHeaders = true
		case "--spider":
			spider = true
		case "--output-document":
			out = val
		case "--output-file":
			// (messages go to stderr)
		case "--directory-prefix":
			dir = val
		case "--timeout":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil {
				fmt.Fprintf(req.Stderr, "wget: --timeout: Invalid time period ‘%s’\n", val)
				return wgetUsage
			}
			timeout = time.Duration(f * float64(time.Second))
		case "--user-agent":
			header.Set("User-Agent", val)
		case "--header":
			if k, v, ok := strings.Cut(val, ":"); ok {
				header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
			}
		case "--post-data", "--body-data":
			body = []byte(val)
			if method == "" {
				method = "POST"
			}
		case "--post-file":
			b, err := s.FS().ReadFile(absPath(req.Dir, val))
			if err != nil {
				fmt.Fprintf(req.Stderr, "wget: %s: No such file or directory\n", val)
				return wgetIO
			}
			body = b
			if method == "" {
				method = "POST"
			}
		case "--method":
			method = strings.ToUpper(val)
		case "--user":
			user = val
		case "--password":
			pass = val
		case "--max-redirect":
		case "-h", "--help":
			fmt.Fprint(req.Stdout, "Usage: wget [OPTION]... [URL]...\n  -q, --quiet         quiet (no output)\n  -O, --output-document=FILE  write documents to FILE\n  -S, --server-response       print server response\n      --header=STRING         insert STRING among the headers\n      --post-data=STRING      use the POST method; send STRING as the data\n  -T, --timeout=SECONDS       set all timeout values to SECONDS\n(wasmsand: requests go through the sandbox's network policy)\n")
			return 0
		case "-V", "--version":
			fmt.Fprintln(req.Stdout, "GNU Wget 1.21 (wasmsand bridge)")
			return 0
		default:
			fmt.Fprintf(req.Stderr, "wget: unrecognized option '%s'\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n", a)
			return wgetUsage
		}
	}
	if len(urls) == 0 {
		fmt.Fprint(req.Stderr, "wget: missing URL\nUsage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n")
		return wgetGeneric
	}
	if method == "" {
		method = "GET"
		if spider {
			method = "HEAD"
		}
	}
	if body != nil {
		header.Set("Content-Type", "application/x-www-form-urlencoded")
	}

	say := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(req.Stderr, format, a...)
		}
	}
	st := 0
	var outFile io.WriteCloser
	for _, raw := range urls {
		if !strings.Contains(raw, "://") {
			raw = "http://" + raw
		}
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			fmt.Fprintf(req.Stderr, "%s: Invalid URL %s: Unsupported scheme\n", raw, raw)
			st = wgetGeneric
			continue
		}
		say("--%s--  %s\n", time.Now().Format("2006-01-02 15:04:05"), bridge.Redact(raw))
		res, err := c.Do(ctx, bridge.Request{Method: method, URL: raw, Header: header, Body: body, FollowRedirects: true, Timeout: timeout, User: user, Password: pass})
		if err != nil {
			var be *bridge.Error
			errors.As(err, &be)
			host := u.Hostname()
			switch {
			case be != nil && errors.Is(be, bridge.ErrResolve):
				say("wget: unable to resolve host address ‘%s’\n", host)
			case be != nil && errors.Is(be, bridge.ErrDenied):
				// (said even with -q: real wget never meets a policy, and an
				// agent needs to know why)
				fmt.Fprintf(req.Stderr, "wget: blocked by the sandbox's network policy: %s\n", be.Msg)
			default:
				say("Connecting to %s... failed: %v.\n", u.Host, err)
			}
			st = wgetNetwork
			continue
		}
		say("HTTP request sent, awaiting response... %s\n", res.StatusText)
		if showHeaders {
			for _, k := range res.Header.Keys() {
				fmt.Fprintf(req.Stderr, "  %s: %s\n", k, strings.Join(res.Header[k], ", "))
			}
		}
		if res.Status >= 400 {
			res.Body.Close()
			code, text, _ := strings.Cut(res.StatusText, " ")
			say("%s ERROR %s: %s.\n\n", time.Now().Format("2006-01-02 15:04:05"), code, text)
			st = wgetServer
			continue
		}
		if spider {
			res.Body.Close()
			say("Remote file exists.\n\n")
			continue
		}
		name := out
		if name == "" {
			name = path.Base(u.Path)
			if name == "/" || name == "." || name == "" {
				name = "index.html"
			}
			if dir != "" {
				name = path.Join(dir, name)
			}
		}
		var w io.Writer = req.Stdout
		if name != "-" {
			if outFile == nil || out == "" {
				f, err := createOutput(s, req, name)
				if errors.Is(err, fs.ErrPermission) {
					res.Body.Close()
					fmt.Fprintf(req.Stderr, "%s: Permission denied\n", name)
					return wgetIO
				}
				if err != nil {
					res.Body.Close()
					fmt.Fprintf(req.Stderr, "%s: %v\n", name, err)
					return wgetIO
				}
				outFile = f
				defer f.Close()
			}
			w = outFile
			say("Saving to: ‘%s’\n\n", name)
		}
		n, err := io.Copy(w, res.Body)
		res.Body.Close()
		if err != nil {
			say("wget: read error at byte %d (%v).\n", n, err)
			st = wgetNetwork
			continue
		}
		if name != "-" {
			say("%s - ‘%s’ saved [%d]\n\n", time.Now().Format("2006-01-02 15:04:05"), name, n)
		}
	}
	return st
}
