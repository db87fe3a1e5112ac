package bridge

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/policy"
)

// Secret is a value the embedder holds for the sandbox, which never sees
// it: a request header may name it as {{secret:NAME}}, replaced on the way
// out and only toward the secret's hosts, and Inject adds it to every
// request to them. A response that carries the value back has it replaced
// by "[secret NAME]", and no message or error holds it.
type Secret struct {
	policy.Secret
	Value string
}

var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{secret:([A-Za-z_][A-Za-z0-9_]*)\}\}`) }) // (on first use: see policy's secretName)

// allows: the secret may go to this host (a name, "*.name", or an
// address as written in the rule).
func allows(s *Secret, host string) bool {
	for _, h := range s.Hosts {
		h = strings.ToLower(h)
		if h == host || (strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:])) {
			return true
		}
	}
	return false
}

// fill replaces the placeholders of declared secrets in text, each only
// toward its hosts and where its policy lets it stand; a header may not name
// an undeclared one either. escape encodes a value for its place (the URL's).
func (c *Client) fill(text []byte, where, host string, escape func(string) string, sent *bool) ([]byte, error) {
	if !bytes.Contains(text, []byte("{{secret:")) && !(where == policy.InURL && bytes.Contains(bytes.ToUpper(text), []byte("%7B%7BSECRET:"))) {
		return text, nil
	}
	re := placeholder()
	if where == policy.InURL {
		re = urlPlaceholder()
	}
	var err error
	out := re.ReplaceAllFunc(text, func(m []byte) []byte {
		name := string(re.FindSubmatch(m)[1])
		s := c.secret(name)
		switch {
		case s == nil && where == policy.InHeader:
			err = fmt.Errorf("no secret %s in this sandbox", name)
		case s == nil:
			return m // (text that happens to look like one)
		case !s.Allows(where):
			err = fmt.Errorf("secret %s may not stand in the %s (the policy's in: [%s] for it allows that)", name, strings.ReplaceAll(where, "_", "-"), where)
		case !allows(s, host):
			err = fmt.Errorf("secret %s may not be sent to %s", name, host)
		default:
			*sent = true
			if escape != nil {
				return []byte(escape(s.Value))
			}
			return []byte(s.Value)
		}
		return m
	})
	if err != nil {
		return nil, &Error{Kind: ErrDenied, Msg: err.Error()}
	}
	return out, nil
}

// escapeAll percent-encodes all but unreserved characters: a value reads
// back the same in a path and in a query ("+" is not a space there).
func escapeAll(v string) string {
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, "%%%02X", c)
		}
	}
	return sb.String()
}

var urlPlaceholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i:\{\{|%7B%7B)secret:([A-Za-z_][A-Za-z0-9_]*)(?i:\}\}|%7D%7D)`)
})

// withSecrets fills a hop: placeholders replaced (headers; a basic-auth
// pair, the URL or the body where the secret's policy allows it),
// injections added, for this host only; sent says whether any secret went.
func (c *Client) withSecrets(header Header, target string, body []byte, host string) (Header, string, []byte, bool, error) {
	sent := false
	out := Header{}
	for k, vs := range header {
		for _, v := range vs {
			where := policy.InHeader
			if k == basicAuthKey {
				where = policy.InBasicAuth
			}
			b, err := c.fill([]byte(v), where, host, nil, &sent)
			if err != nil {
				return nil, "", nil, false, err
			}
			if where == policy.InBasicAuth && string(b) != v {
				user, pass, _ := strings.Cut(string(b), "\x00")
				c.addForms(user + ":" + pass) // (what an echo of the header decodes to)
			}
			out.Add(k, string(b))
		}
	}
	t, err := c.fill([]byte(target), policy.InURL, host, escapeAll, &sent)
	if err != nil {
		return nil, "", nil, false, err
	}
	if body != nil {
		if body, err = c.fill(body, policy.InBody, host, nil, &sent); err != nil {
			return nil, "", nil, false, err
		}
	}
	for i := range c.secrets {
		s := &c.secrets[i]
		if s.Inject == nil || !allows(s, host) || out.Get(s.Inject.Header) != "" {
			continue
		}
		tmpl := s.Inject.Value
		if tmpl == "" {
			tmpl = "{secret}"
		}
		out.Set(s.Inject.Header, strings.ReplaceAll(tmpl, "{secret}", s.Value))
		sent = true
	}
	return out, string(t), body, sent, nil
}

func (c *Client) secret(name string) *Secret {
	for i := range c.secrets {
		if c.secrets[i].Name == name {
			return &c.secrets[i]
		}
	}
	return nil
}

// form is one spelling of a secret's value that redaction looks for.
type form struct{ text, name string }

// addForms adds the spellings of a text that carries a secret (such as a
// basic-auth pair), under the secret's name.
func (c *Client) addForms(text string) {
	name := ""
	for _, s := range c.secrets {
		if s.Value != "" && strings.Contains(text, s.Value) {
			name = s.Name
		}
	}
	if name == "" {
		return
	}
	c.formsMu.Lock()
	defer c.formsMu.Unlock()
	for _, f := range spellings(text) {
		if !slices.ContainsFunc(c.forms, func(g form) bool { return g.text == f }) {
			c.forms = append(c.forms, form{f, name})
		}
	}
	slices.SortStableFunc(c.forms, func(a, b form) int { return len(b.text) - len(a.text) })
}

// spellings are the forms in which a server commonly echoes a value: as it
// is, hex, percent-encoded, and base64 (standard and URL-safe) at each of
// the three alignments it can have inside a longer encoded text (only the
// characters the value alone decides).
func spellings(v string) []string {
	b := []byte(v)
	pct := func(hexDigits string) string {
		var sb strings.Builder
		for _, c := range b {
			sb.WriteByte('%')
			sb.WriteByte(hexDigits[c>>4])
			sb.WriteByte(hexDigits[c&15])
		}
		return sb.String()
	}
	out := []string{v, hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b)),
		url.QueryEscape(v), url.PathEscape(v), pct("0123456789ABCDEF"), pct("0123456789abcdef")}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString(b))
		for k, skip := range []int{0, 2, 3} {
			buf := append(make([]byte, k), b...)
			e, full := enc.EncodeToString(buf), len(buf)/3*4
			if full-skip >= 6 {
				out = append(out, e[skip:full])
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}

// redact replaces every spelling of the secrets' values in a text.
func (c *Client) redact(s string) string {
	c.formsMu.Lock()
	defer c.formsMu.Unlock()
	for _, f := range c.forms {
		s = strings.ReplaceAll(s, f.text, "[secret "+f.name+"]")
	}
	return s
}

// redactReader replaces the secrets' values in a stream, holding back
// what could be the start of one until it knows.
type redactReader struct {
	r       io.ReadCloser
	c       *Client
	keep    int // the longest value, less one
	pending []byte
	out     []byte
	eof     bool
}

func (c *Client) redactBody(r io.ReadCloser) io.ReadCloser {
	longest := 0
	c.formsMu.Lock()
	for _, f := range c.forms {
		longest = max(longest, len(f.text))
	}
	c.formsMu.Unlock()
	if longest == 0 {
		return r
	}
	return &redactReader{r: r, c: c, keep: longest - 1}
}

func (r *redactReader) Read(p []byte) (int, error) {
	for len(r.out) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		buf := make([]byte, 32<<10)
		n, err := r.r.Read(buf)
		r.pending = append(r.pending, buf[:n]...)
		if err != nil {
			if err != io.EOF {
				return 0, err
			}
			r.eof = true
		}
		text := []byte(r.c.redact(string(r.pending)))
		cut := len(text)
		if !r.eof {
			cut = max(0, len(text)-r.keep)
			// (never split a replacement: hold back from a "[secret" start)
			if i := bytes.LastIndex(text[:cut], []byte("[secret ")); i >= 0 && bytes.IndexByte(text[i:cut], ']') < 0 {
				cut = i
			}
		}
		r.out = append(r.out, text[:cut]...)
		r.pending = append([]byte(nil), text[cut:]...)
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}

func (r *redactReader) Close() error { return r.r.Close() }

// decodeBody undoes a response's Content-Encoding (gzip, deflate) for a
// request that carried a secret: it was asked for identity, and a server
// that compresses anyway must not hide an echo from redaction. Any other
// encoding is refused.
func decodeBody(res *HopResponse) error {
	ce := strings.TrimSpace(strings.ToLower(res.Header.Get("Content-Encoding")))
	if ce == "" || ce == "identity" {
		return nil
	}
	res.Header.Del("Content-Encoding")
	res.Header.Del("Content-Length")
	if res.Decoded {
		return nil
	}
	codings := strings.Split(ce, ",")
	if len(codings) > 2 {
		return fmt.Errorf("the response is encoded %d times (%s), which cannot be checked for secrets", len(codings), ce)
	}
	body := res.Body
	for i := len(codings) - 1; i >= 0; i-- {
		switch strings.TrimSpace(codings[i]) {
		case "gzip", "x-gzip":
			zr, err := gzip.NewReader(body)
			if err != nil {
				return fmt.Errorf("the response's gzip encoding is broken: %v", err)
			}
			body = readCloser{zr, res.Body}
		case "deflate":
			br := bufio.NewReader(body)
			if h, err := br.Peek(2); err == nil && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 && h[0]&0x0f == 8 {
				zr, err := zlib.NewReader(br)
				if err != nil {
					return fmt.Errorf("the response's deflate encoding is broken: %v", err)
				}
				body = readCloser{zr, res.Body}
			} else {
				body = readCloser{flate.NewReader(br), res.Body}
			}
		case "identity":
		default:
			return fmt.Errorf("the response is encoded as %q, which cannot be checked for secrets", codings[i])
		}
	}
	res.Body = body
	return nil
}

// readCloser reads a decoder and closes the body under it.
type readCloser struct {
	io.Reader
	body io.Closer
}

func (r readCloser) Close() error { return r.body.Close() }
