//go:build js && wasm

package idbstate

// Runs in Node under make test-js, with npm's fake-indexeddb as IndexedDB
// (platform/js/testdata/go_js_exec.js installs it).

import (
	"bytes"
	"context"
	"syscall/js"
	"testing"

	"github.com/hack-pad/hackpadfs"
	"github.com/wasmsand/wasmsand/vfs"
)

func state(t *testing.T, content string) []byte {
	t.Helper()
	f := vfs.New(vfs.Options{})
	if err := f.WriteFile("/f", []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func open(t *testing.T, name string) *Store {
	t.Helper()
	if js.Global().Get("indexedDB").IsUndefined() {
		t.Skip("no IndexedDB here (make test-js provides fake-indexeddb)")
	}
	s, err := Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func load(t *testing.T, s *Store) []byte {
	t.Helper()
	b, err := s.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A torn save (a tab closed in the middle) never loses the state saved
// before it; the next save overwrites the torn slot, not the good one.
func TestSlots(t *testing.T) {
	ctx := context.Background()
	s := open(t, "slots")
	if b := load(t, s); b != nil {
		t.Fatalf("a new store has a state: %d bytes", len(b))
	}
	a, b, c := state(t, "a"), state(t, "b"), state(t, "c")
	for _, st := range [][]byte{a, b} {
		if err := s.Save(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	if got := load(t, open(t, "slots")); !bytes.Equal(got, b) {
		t.Fatal("a reopened store does not load the last save")
	}
	// tear the newest slot (b) as a closed tab would: truncated
	raw, err := hackpadfs.ReadFile(s.fs, slots[s.slot])
	if err != nil {
		t.Fatal(err)
	}
	if err := hackpadfs.WriteFullFile(s.fs, slots[s.slot], raw[:len(raw)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, "slots")
	if got := load(t, s2); !bytes.Equal(got, a) {
		t.Fatal("after a torn save, the state before it is not loaded")
	}
	if err := s2.Save(ctx, c); err != nil {
		t.Fatal(err)
	}
	s3 := open(t, "slots")
	if got := load(t, s3); !bytes.Equal(got, c) {
		t.Fatal("the save after a torn one is not loaded")
	}
	// the good old slot (a) was kept: tearing c falls back to it
	if err := hackpadfs.WriteFullFile(s3.fs, slots[s3.slot], []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := load(t, open(t, "slots")); !bytes.Equal(got, a) {
		t.Fatal("the save after a torn one overwrote the last good state")
	}
	if err := s.Save(ctx, []byte("not a state")); err == nil {
		t.Fatal("a malformed state was saved")
	}
	if err := s3.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if b := load(t, open(t, "slots")); b != nil {
		t.Fatal("Clear left a state")
	}
}
