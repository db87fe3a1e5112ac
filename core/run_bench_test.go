package core

import (
	"context"
	"testing"
)

// BenchmarkRunEcho is a warm Run of a builtin: the cost of a tool call
// that starts no program (make bench reports it against its target).
func BenchmarkRunEcho(b *testing.B) {
	ctx := context.Background()
	sb, err := New(ctx, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sb.Run(ctx, "echo hi", RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
