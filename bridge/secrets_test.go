package bridge_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/policy"
)

const secretValue = "s3cr3t-VALUE/with+odd=chars"

// echoServer answers with what it was sent (the Authorization header, an
// X-Key header, the body, the URL's query), transformed as ?mode= says,
// one byte at a time; gzip=1 compresses whatever it was asked for. Only
// on 127.0.0.1.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got := r.Header.Get("Authorization") + "|" + r.Header.Get("X-Key") + "|" + string(body) + "|" + r.URL.Query().Get("k")
		var out string
		switch r.URL.Query().Get("mode") {
		case "base64":
			out = base64.StdEncoding.EncodeToString([]byte(got))
		case "base64url":
			out = base64.URLEncoding.EncodeToString([]byte(got))
		case "shifted": // the value at another alignment inside base64
			out = base64.StdEncoding.EncodeToString([]byte("x" + got))
		case "hex":
			out = hex.EncodeToString([]byte(got))
		case "HEX":
			out = strings.ToUpper(hex.EncodeToString([]byte(got)))
		case "percent":
			out = url.QueryEscape(got)
		case "basic": // the basic-auth pair decoded
			b, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(r.Header.Get("Authorization"), "Basic "))
			out = string(b)
		default:
			out = got
		}
		w.Header().Set("X-Accept-Encoding", r.Header.Get("Accept-Encoding"))
		w.Header().Set("X-Echo", out)
		if r.URL.Query().Get("gzip") == "1" {
			w.Header().Set("Content-Encoding", "gzip")
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			zw.Write([]byte(out))
			zw.Close()
			out = buf.String()
		}
		if r.URL.Query().Get("enc") != "" {
			w.Header().Set("Content-Encoding", r.URL.Query().Get("enc"))
		}
		for i := 0; i < len(out); i++ {
			w.Write([]byte{out[i]})
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// leaks says whether any common decoding of the text holds the secret.
func leaks(text string) bool {
	cands := []string{text}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for i := 0; i < 4 && i < len(text); i++ {
			if b, err := enc.DecodeString(text[i:]); err == nil {
				cands = append(cands, string(b))
			}
		}
	}
	if b, err := hex.DecodeString(text); err == nil {
		cands = append(cands, string(b))
	}
	if s, err := url.QueryUnescape(text); err == nil {
		cands = append(cands, s)
	}
	for _, c := range cands {
		if strings.Contains(c, secretValue) || strings.Contains(c, "VALUE/with") {
			return true
		}
	}
	return false
}

func TestSecretEchoes(t *testing.T) {
	srv := echoServer(t)
	host := "127.0.0.1"
	newClient := func(in []string, inject bool) *bridge.Client {
		s := bridge.Secret{Secret: policy.Secret{Name: "K", Hosts: []string{host}, In: in}, Value: secretValue}
		if inject {
			s.Inject = &policy.Inject{Header: "Authorization", Value: "Bearer {secret}"}
		}
		c, err := bridge.New(policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/", Methods: []string{"GET", "POST"}}}}, bridge.Budget{}, s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	do := func(c *bridge.Client, r bridge.Request) (string, http.Header, error) {
		res, err := c.Do(context.Background(), r)
		if err != nil {
			return "", nil, err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return string(b), http.Header(res.Header), err
	}

	// Injected, and named in a header: every common echo comes back redacted.
	inj := newClient(nil, true)
	for _, mode := range []string{"raw", "base64", "base64url", "shifted", "hex", "HEX", "percent"} {
		for _, gz := range []string{"0", "1"} {
			body, h, err := do(inj, bridge.Request{URL: srv.URL + "/?mode=" + mode + "&gzip=" + gz,
				Header: bridge.Header{"X-Key": {"{{secret:K}}"}, "Accept-Encoding": {"gzip"}}})
			if err != nil {
				t.Fatalf("%s gzip=%s: %v", mode, gz, err)
			}
			if leaks(body) || leaks(h.Get("X-Echo")) {
				t.Errorf("%s gzip=%s: the secret came back: %q", mode, gz, body)
			}
			if !strings.Contains(body, "[secret K]") {
				t.Errorf("%s gzip=%s: no redaction mark in %q", mode, gz, body)
			}
			if h.Get("X-Accept-Encoding") != "identity" {
				t.Errorf("a request with a secret asks for identity, not %q", h.Get("X-Accept-Encoding"))
			}
		}
	}
	_, _, err := do(inj, bridge.Request{URL: srv.URL + "/?enc=br", Header: bridge.Header{"X-Key": {"{{secret:K}}"}}})
	if err == nil || !strings.Contains(err.Error(), "cannot be checked for secrets") {
		t.Errorf("an encoding the bridge cannot read: %v", err)
	}

	// A placeholder in a basic-auth pair, the URL or the body: refused
	// unless the policy says the secret may stand there.
	plain := newClient(nil, false)
	for what, r := range map[string]bridge.Request{
		"basic-auth":   {URL: srv.URL + "/", User: "u", Password: "{{secret:K}}"},
		"url":          {URL: srv.URL + "/?k={{secret:K}}"},
		"url, escaped": {URL: srv.URL + "/?k=%7B%7Bsecret:K%7D%7D"},
		"body":         {Method: "POST", URL: srv.URL + "/", Body: []byte(`{"key": "{{secret:K}}"}`)},
	} {
		_, _, err := do(plain, r)
		var be *bridge.Error
		if !errors.As(err, &be) || !errors.Is(err, bridge.ErrDenied) || !strings.Contains(err.Error(), "may not stand in the") {
			t.Errorf("%s: %v, want a refusal", what, err)
		}
	}
	body, _, err := do(plain, bridge.Request{Method: "POST", URL: srv.URL + "/", Body: []byte(`{{secret:NOT_A_SECRET}}`)})
	if err != nil || !strings.Contains(body, "{{secret:NOT_A_SECRET}}") {
		t.Errorf("text that only looks like a placeholder goes as it is: %q %v", body, err)
	}

	allowed := newClient([]string{"basic_auth", "url", "body"}, false)
	for _, mode := range []string{"raw", "base64", "shifted", "hex", "percent", "basic"} {
		for what, r := range map[string]bridge.Request{
			"basic-auth": {URL: srv.URL + "/?gzip=1&mode=" + mode, User: "user", Password: "{{secret:K}}"},
			"url":        {URL: srv.URL + "/?mode=" + mode + "&k={{secret:K}}"},
			"body":       {Method: "POST", URL: srv.URL + "/?gzip=1&mode=" + mode, Body: []byte(`{"key": "{{secret:K}}"}`)},
		} {
			body, _, err := do(allowed, r)
			if err != nil {
				t.Fatalf("%s %s: %v", what, mode, err)
			}
			if leaks(body) {
				t.Errorf("%s %s: the secret came back: %q", what, mode, body)
			}
		}
	}
}
