package bridge

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
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

// withSecrets fills a hop's headers: placeholders replaced, injections
// added, for this host only.
func (c *Client) withSecrets(header Header, host string) (Header, error) {
	out := Header{}
	for k, vs := range header {
		for _, v := range vs {
			var err error
			v = placeholder().ReplaceAllStringFunc(v, func(m string) string {
				name := placeholder().FindStringSubmatch(m)[1]
				s := c.secret(name)
				switch {
				case s == nil:
					err = fmt.Errorf("no secret %s in this sandbox", name)
				case !allows(s, host):
					err = fmt.Errorf("secret %s may not be sent to %s", name, host)
				default:
					return s.Value
				}
				return m
			})
			if err != nil {
				return nil, &Error{Kind: ErrDenied, Msg: err.Error()}
			}
			out.Add(k, v)
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
	}
	return out, nil
}

func (c *Client) secret(name string) *Secret {
	for i := range c.secrets {
		if c.secrets[i].Name == name {
			return &c.secrets[i]
		}
	}
	return nil
}

// redact replaces the secrets' values in a text.
func (c *Client) redact(s string) string {
	for _, sec := range c.secrets {
		if sec.Value != "" {
			s = strings.ReplaceAll(s, sec.Value, "[secret "+sec.Name+"]")
		}
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
	for _, s := range c.secrets {
		longest = max(longest, len(s.Value))
	}
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
