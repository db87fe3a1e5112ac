package toolruntime

import (
	"encoding/json"
	"testing"
)

// FuzzFromMarshal: what a tool's sandbox writes as its result is untrusted; decoding
// it gives JSON or an error, never a panic or a hang.
func FuzzFromMarshal(f *testing.F) {
	for _, doc := range []string{`null`, `[1, "x", {"a": [true, 2147483648, -1e10]}]`, `{"k": "v"}`} {
		m, err := toMarshal([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(m)
	}
	f.Add([]byte("\xdb\x02\x00\x00\x00\xda\x01a\xda\x01a"))
	f.Add([]byte("r\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := fromMarshal(b)
		if err == nil && !json.Valid(out) {
			t.Fatalf("invalid JSON %q from %q", out, b)
		}
	})
}
