package core

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"syscall"
)

// capWriter collects one output stream of a run up to a limit, passing it on
// to an optional streaming writer as it comes. Past the limit it refuses
// writes with EPIPE, so a flooding program ends as it would on a closed
// pipe, and the run is marked truncated. Pipeline stages write concurrently.
type capWriter struct {
	mu        sync.Mutex
	limit     int
	n         int
	buf       bytes.Buffer
	stream    io.Writer
	truncated bool
	marker    bool // write a truncation marker once
	refused   int  // bytes refused past the limit
	// onFlood is called once when as much again as the limit was refused:
	// the shell's own builtins ignore EPIPE, so a shell loop printing
	// forever is only stopped by ending the run.
	onFlood func()
}

// NeverBlocks: a write returns at once (the batched scheduler lets a guest
// write here directly, so the caller sees its output as it comes).
func (w *capWriter) NeverBlocks() bool { return true }

func newCapWriter(limit int, stream io.Writer, onFlood func()) *capWriter {
	return &capWriter{limit: limit, stream: stream, onFlood: onFlood}
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := w.limit - w.n
	if room <= 0 {
		w.truncate()
		w.refused += len(p)
		if w.refused >= w.limit && w.onFlood != nil {
			w.onFlood()
			w.onFlood = nil
		}
		return 0, syscall.EPIPE
	}
	part := p
	if len(part) > room {
		part = part[:room]
	}
	w.n += len(part)
	w.buf.Write(part)
	if w.stream != nil {
		// A failing consumer must not fail the guest; it just stops getting data.
		if _, err := w.stream.Write(part); err != nil {
			w.stream = nil
		}
	}
	if len(part) < len(p) {
		w.truncate()
		return len(part), syscall.EPIPE
	}
	return len(p), nil
}

func (w *capWriter) truncate() {
	w.truncated = true
	if w.marker {
		return
	}
	w.marker = true
	m := fmt.Sprintf("\n[wasmsand: output truncated at %d bytes]\n", w.limit)
	w.buf.WriteString(m)
	if w.stream != nil {
		_, _ = io.WriteString(w.stream, m)
	}
}

func (w *capWriter) result() ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Clone(w.buf.Bytes()), w.truncated
}

// cancelableReader reads r on a goroutine and ends with EOF when ctx is done,
// even if r itself never returns.
func cancelableReader(ctx context.Context, r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err)
	}()
	go func() {
		<-ctx.Done()
		pw.Close()
	}()
	return pr
}
