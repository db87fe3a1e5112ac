// Package httpguard is the one front door of wasmsand's HTTP servers (serve
// and mcp --listen): it refuses what a web page the operator visits could
// send them. A page can make a browser send requests to 127.0.0.1, and with
// DNS rebinding read the answers under its own name, so on loopback without
// a token the servers would otherwise be the page's to drive, host mounts
// included (SECURITY.md, "Servers").
//
//   - Host must name this server: a loopback name or address, the listen
//     host, or a name the operator allows (--allow-host). A rebinding page's
//     requests carry its own name.
//   - A request with an Origin (every cross-origin fetch and POST from a
//     browser) is refused unless the operator allows that origin
//     (--allow-origin), which also answers CORS preflights for it; so is one
//     a browser marks cross-site (Sec-Fetch-Site) without an Origin.
//   - A body the server reads as JSON must say application/json: a browser
//     sends text/plain or a form type cross-origin without a preflight.
//
// Refusals are JSON errors with stable codes: host_not_allowed (421),
// origin_not_allowed (403), unsupported_media_type (415), forbidden_user
// (403: with SameUser, another local user's process).
package httpguard

import (
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"slices"
	"strings"
)

// Options say what the server accepts.
type Options struct {
	// Listen is the server's listen address (host:port).
	Listen string
	// AllowHosts are further names Host may give ("*": any).
	AllowHosts []string
	// AllowOrigins are origins (scheme://host[:port]) whose pages may call
	// the server ("*": any page).
	AllowOrigins []string
	// RawBody tells which requests carry bytes rather than JSON (a file
	// upload); nil: every body is JSON.
	RawBody func(*http.Request) bool
	// SameUser answers only this user's (and root's) processes: a server on
	// loopback without a token (peer.go; the http.Server needs ConnContext).
	SameUser bool
}

// Handler wraps next with the checks.
func Handler(opt Options, next http.Handler) http.Handler {
	listenHost, _, _ := net.SplitHostPort(opt.Listen)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if opt.SameUser && !sameUser(r) {
			refuse(w, http.StatusForbidden, "forbidden_user",
				"this server answers its own user's processes only (give it tokens, --token, to serve other users)")
			return
		}
		if !hostAllowed(r.Host, listenHost, opt.AllowHosts) {
			refuse(w, http.StatusMisdirectedRequest, "host_not_allowed",
				"Host "+quote(r.Host)+" does not name this server (wasmsand --allow-host NAME allows another name)")
			return
		}
		origin := r.Header.Get("Origin")
		if origin != "" {
			if !originAllowed(origin, opt.AllowOrigins) {
				refuse(w, http.StatusForbidden, "origin_not_allowed",
					"requests from the page "+quote(origin)+" are refused (wasmsand --allow-origin ORIGIN allows a page)")
				return
			}
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate")
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
				if rh := r.Header.Get("Access-Control-Request-Headers"); rh != "" {
					h.Set("Access-Control-Allow-Headers", rh)
				}
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		} else if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			refuse(w, http.StatusForbidden, "origin_not_allowed", "a request a browser marks "+site+" is refused")
			return
		}
		if hasBody(r) && (opt.RawBody == nil || !opt.RawBody(r)) && !isJSON(r.Header.Get("Content-Type")) {
			refuse(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
				"the body must be JSON, sent with Content-Type: application/json (got "+quote(r.Header.Get("Content-Type"))+")")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed: loopback names and addresses, the listen host, the allowed
// names; where the server listens on every address, any IP literal (a
// rebinding page cannot make a browser send one as its Host).
func hostAllowed(host, listenHost string, allow []string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.ToLower(strings.TrimSuffix(strings.Trim(name, "[]"), "."))
	if name == "" {
		return false // HTTP/1.0 without Host: nothing says it is meant for us
	}
	if name == "localhost" || slices.ContainsFunc(allow, func(a string) bool { return a == "*" || strings.EqualFold(a, name) }) {
		return true
	}
	ip := net.ParseIP(name)
	if ip != nil && ip.IsLoopback() {
		return true
	}
	if l := strings.ToLower(strings.Trim(listenHost, "[]")); l != "" && l == name {
		return true
	}
	lip := net.ParseIP(strings.Trim(listenHost, "[]"))
	return ip != nil && (listenHost == "" || (lip != nil && lip.IsUnspecified()))
}

func originAllowed(origin string, allow []string) bool {
	o := strings.TrimSuffix(strings.ToLower(origin), "/")
	return slices.ContainsFunc(allow, func(a string) bool {
		return a == "*" || strings.TrimSuffix(strings.ToLower(a), "/") == o
	})
}

func hasBody(r *http.Request) bool {
	return r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody)
}

func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

func quote(s string) string {
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func refuse(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
}
