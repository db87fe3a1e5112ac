package bridge_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/policy"
)

// TestHostileServers: what an allowed server can throw back — floods,
// absurd headers, silence, redirect loops, redirects inward — ends as a
// bridge error within the budgets, never as a hang or unbounded memory.
// Only servers started here, on 127.0.0.1.
func TestHostileServers(t *testing.T) {
	stop := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/flood", func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 40; i++ {
			w.Header().Add("X-Big", strings.Repeat("h", 64<<10))
		}
		io.WriteString(w, "ok")
	})
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/inward", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://[::ffff:169.254.169.254]/latest/", http.StatusFound)
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(stop)
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]

	c, err := bridge.New(policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/"}, {URL: "http://localhost" + port + "/"}}},
		bridge.Budget{MaxResponseBytes: 1 << 20, MaxBytes: 3 << 20, RequestTimeout: 500 * time.Millisecond, MaxRedirects: 5})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string, follow bool) error {
		res, err := c.Do(context.Background(), bridge.Request{URL: srv.URL + path, FollowRedirects: follow})
		if err != nil {
			return err
		}
		defer res.Body.Close()
		_, err = io.Copy(io.Discard, res.Body)
		return err
	}
	for _, k := range []struct {
		path   string
		follow bool
		want   error
		msg    string
	}{
		{"/flood", false, bridge.ErrTooLarge, "response larger than 1048576 bytes"},
		{"/headers", false, bridge.ErrConnect, "header"},
		{"/silent", false, bridge.ErrTimeout, "timed out"},
		{"/loop", true, bridge.ErrRedirect, "maximum (5) redirects"},
		{"/inward", true, bridge.ErrDenied, "no rule allows GET http://[::ffff:169.254.169.254]/latest/"},
	} {
		start := time.Now()
		err := get(k.path, k.follow)
		if !errors.Is(err, k.want) || !strings.Contains(err.Error(), k.msg) {
			t.Errorf("%s: got %v, want %v containing %q", k.path, err, k.want, k.msg)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", k.path, d)
		}
	}
	// a name the rules allow that resolves to loopback (as a rebinding
	// attacker's name would): refused at the address connected to
	_, err = c.Do(context.Background(), bridge.Request{URL: "http://localhost" + port + "/ok"})
	if !errors.Is(err, bridge.ErrDenied) || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("localhost: got %v", err)
	}
	// the floods spent the sandbox's bytes: later requests are refused
	for i := 0; i < 3; i++ {
		err = get("/flood", false)
	}
	if err = get("/ok", false); !errors.Is(err, bridge.ErrBudget) {
		t.Errorf("after the floods: got %v, want the byte budget spent", err)
	}
}
