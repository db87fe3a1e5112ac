package conformance

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// The network group (cases/network.txt) talks to one server: the same
// handler at the same address on every side — inside each case's network
// namespace when recording (scripts/record-conformance), on the host's
// loopback when a runner compares (the Go test, Node and Chromium, through
// conformance/netserver). Its cases run in a sandbox whose policy allows
// NetAllow; no other case has a network.
const (
	NetGroup = "network"
	NetAddr  = "127.0.0.1:18765"
)

// NetAllow are the URL prefixes the network group's sandbox may reach
// (the server, and a port nothing listens on), with these methods.
var (
	NetAllow   = []string{"http://" + NetAddr + "/", "http://127.0.0.1:1/"}
	NetMethods = []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"}
)

// NetHandler answers the same to the same request, whoever asks: no Date
// header, no random boundaries. Browsers reach it cross-origin, so it
// allows every origin.
func NetHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(NpmPrefix, registry.serve)
	mux.HandleFunc("/hello.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "hello\n")
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name": "wasmsand", "items": [1, 2, 3], "nested": {"ok": true}}`+"\n")
	})
	mux.HandleFunc("/data.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		io.WriteString(w, "name,n\nb,2\na,1\nc,3\n")
	})
	// /echo: the request as the server saw it
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "%s %s\n", r.Method, r.URL.RequestURI())
		for _, k := range []string{"Content-Type", "X-Test", "Accept"} {
			if v := r.Header.Get(k); v != "" {
				v, _, _ = strings.Cut(v, "; boundary=") // (a random one)
				fmt.Fprintf(w, "%s: %s\n", k, v)
			}
		}
		if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
			if err := r.ParseMultipartForm(1 << 20); err == nil {
				var keys []string
				for k := range r.MultipartForm.Value {
					keys = append(keys, k)
				}
				for k := range r.MultipartForm.File {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					if fs := r.MultipartForm.File[k]; len(fs) > 0 {
						f, _ := fs[0].Open()
						b, _ := io.ReadAll(f)
						fmt.Fprintf(w, "form %s: file %s %q\n", k, fs[0].Filename, b)
					} else {
						fmt.Fprintf(w, "form %s: %q\n", k, r.MultipartForm.Value[k][0])
					}
				}
			}
			return
		}
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "body: %q\n", b)
	})
	// /status/N answers N
	mux.HandleFunc("/status/", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/status/"))
		if err != nil || n < 200 || n > 599 {
			n = 400
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(n)
		fmt.Fprintf(w, "status %d\n", n)
	})
	// /redirect/N redirects N times, then to /hello.txt
	mux.HandleFunc("/redirect/", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/redirect/"))
		to := "/hello.txt"
		if n > 1 {
			to = "/redirect/" + strconv.Itoa(n-1)
		}
		w.Header().Set("Location", to)
		w.WriteHeader(http.StatusFound)
	})
	// /basic wants user "me", password "secret"
	mux.HandleFunc("/basic", func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if !ok || user != "me" || pass != "secret" {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, "who are you?\n")
			return
		}
		fmt.Fprintf(w, "hello %s\n", user)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Date"] = nil // (no header that changes from one request to the next)
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", strings.Join(NetMethods, ", "))
			h.Set("Access-Control-Allow-Headers", "*, Authorization")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", "*")
		mux.ServeHTTP(w, r)
	})
}
