//go:build js && wasm

// Package idbstate keeps a sandbox's saved files (the vfs.Encode format of
// the native --save) in the browser's IndexedDB, through hackpadfs's
// indexeddb file system. Every call waits on IndexedDB's callbacks, so it
// must run on a goroutine while the JS event loop is free: between runs,
// never inside one (see DESIGN.md, "GOOS=js rules").
//
// A save must never destroy the last good state, even when the tab closes in
// the middle of it, and IndexedDB gives no atomic rename here. So a store has
// two slots, each holding a generation number and a whole state with its own
// checksum; a save overwrites the older slot and a load takes the newest
// slot that verifies.
package idbstate

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/indexeddb"
	"github.com/wasmsand/wasmsand/vfs"
)

const slotMagic = "WSGEN\x00"

var slots = [2]string{"state.0", "state.1"}

// Store is one named persisted state (one IndexedDB database).
type Store struct {
	fs   *indexeddb.FS
	gen  uint64 // generation of the newest intact slot (0: none)
	slot int    // index of that slot, or -1
}

// Open opens (creating if needed) the store called name.
func Open(ctx context.Context, name string) (*Store, error) {
	if name == "" || strings.ContainsAny(name, "\x00") {
		return nil, fmt.Errorf("idbstate: invalid store name %q", name)
	}
	f, err := indexeddb.NewFS(ctx, "wasmsand:"+name, indexeddb.Options{})
	if err != nil {
		return nil, fmt.Errorf("idbstate: open %q: %w", name, err)
	}
	return &Store{fs: f, slot: -1}, nil
}

// Load returns the newest intact state, or nil when none was ever saved. A
// slot that does not verify (torn by a closed tab) is skipped.
func (s *Store) Load(ctx context.Context) ([]byte, error) {
	var best []byte
	s.gen, s.slot = 0, -1
	for i, name := range slots {
		raw, err := hackpadfs.ReadFile(s.fs, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("idbstate: read %s: %w", name, err)
		}
		gen, state, ok := parseSlot(raw)
		if ok && gen > s.gen {
			s.gen, s.slot, best = gen, i, state
		}
	}
	return best, nil
}

// Save writes state into the slot that does not hold the newest good copy.
// Load must have been called first (it finds that slot).
func (s *Store) Save(ctx context.Context, state []byte) error {
	if err := vfs.CheckState(state); err != nil {
		return err
	}
	next := 0
	if s.slot == 0 {
		next = 1
	}
	buf := make([]byte, len(slotMagic)+8+len(state))
	copy(buf, slotMagic)
	binary.LittleEndian.PutUint64(buf[len(slotMagic):], s.gen+1)
	copy(buf[len(slotMagic)+8:], state)
	if err := hackpadfs.WriteFullFile(s.fs, slots[next], buf, 0o600); err != nil {
		return fmt.Errorf("idbstate: write %s: %w", slots[next], err)
	}
	s.gen, s.slot = s.gen+1, next
	return nil
}

// Clear forgets every saved state of this store.
func (s *Store) Clear(ctx context.Context) error {
	s.gen, s.slot = 0, -1
	return s.fs.Clear(ctx)
}

func parseSlot(raw []byte) (gen uint64, state []byte, ok bool) {
	if len(raw) < len(slotMagic)+8 || string(raw[:len(slotMagic)]) != slotMagic {
		return 0, nil, false
	}
	gen = binary.LittleEndian.Uint64(raw[len(slotMagic):])
	state = raw[len(slotMagic)+8:]
	if gen == 0 || vfs.CheckState(state) != nil {
		return 0, nil, false
	}
	return gen, state, true
}
