// Package benchdata makes the deterministic inputs of the benchmarks, so that
// `make bench` and the Go benchmarks measure the same data.
package benchdata

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Log is a deterministic application log of about size bytes (~85 bytes a
// line: time, level, component, host, six words, user id).
func Log(size int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	levels := []string{"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}
	comps := []string{"db", "api", "auth", "cache", "queue", "web", "mail"}
	words := []string{"request", "served", "connection", "reset", "timeout", "user", "login", "failed", "retry", "ok", "slow", "query"}
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "2026-11-21T%02d:%02d:%02dZ %s %s host-%d", i/3600%24, i/60%60, i%60,
			levels[r.IntN(len(levels))], comps[r.IntN(len(comps))], r.IntN(8))
		for j := 0; j < 6; j++ {
			b.WriteString(" " + words[r.IntN(len(words))])
		}
		fmt.Fprintf(&b, " user=%d\n", r.IntN(500))
	}
	return b.Bytes()
}
