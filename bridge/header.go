package bridge

import (
	"io"
	"net/textproto"
	"sort"
	"strings"
)

// Header is an HTTP header, its keys in canonical form. It is net/http's
// Header without net/http: importing that package links TLS, x509 and
// their elliptic curves into the JS build (about a megabyte of code) even
// where, as there, the platform makes the connections.
type Header map[string][]string

func (h Header) Add(k, v string) {
	k = textproto.CanonicalMIMEHeaderKey(k)
	h[k] = append(h[k], v)
}

func (h Header) Set(k, v string) { h[textproto.CanonicalMIMEHeaderKey(k)] = []string{v} }

// Get is the first value of k, or "".
func (h Header) Get(k string) string {
	if vs := h[textproto.CanonicalMIMEHeaderKey(k)]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

func (h Header) Values(k string) []string { return h[textproto.CanonicalMIMEHeaderKey(k)] }

func (h Header) Del(k string) { delete(h, textproto.CanonicalMIMEHeaderKey(k)) }

// Clone copies h (nil stays nil).
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	c := make(Header, len(h))
	for k, vs := range h {
		c[k] = append([]string(nil), vs...)
	}
	return c
}

// Keys are h's keys in order.
func (h Header) Keys() []string {
	ks := make([]string, 0, len(h))
	for k := range h {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// headerNewlines turns line breaks into spaces, so that a value cannot
// start a header of its own.
var headerNewlines = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

// Write writes h in wire format ("Key: value\r\n" lines, keys sorted).
func (h Header) Write(w io.Writer) error {
	for _, k := range h.Keys() {
		for _, v := range h[k] {
			if _, err := io.WriteString(w, k+": "+strings.TrimSpace(headerNewlines.Replace(v))+"\r\n"); err != nil {
				return err
			}
		}
	}
	return nil
}
