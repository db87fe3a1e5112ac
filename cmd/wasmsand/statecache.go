package main

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/wasmsand/wasmsand/platform/hostdir"
	"github.com/wasmsand/wasmsand/vfs"
)

// The daemon keeps the last state it loaded or saved, as a tree: an agent calling
// `run --load S --save S` once per tool call then starts each run from memory (a
// copy-on-write clone, O(1)) instead of reading and checking the file again (~60 ms
// for 10 MB here). The tree is used only while the file is the one it came from (same
// device, inode, size and modification time; saves replace the file, so any save
// changes the inode).
var lastState struct {
	mu   sync.Mutex
	key  stateKey
	tree *vfs.FS
}

type stateKey struct {
	path       string
	dev, ino   uint64
	size, mtim int64
}

func stateKeyOf(dir string) (stateKey, bool) {
	p, err := filepath.Abs(filepath.Join(dir, hostdir.StateFile))
	if err != nil {
		return stateKey{}, false
	}
	fi, err := os.Stat(p)
	if err != nil {
		return stateKey{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return stateKey{}, false
	}
	return stateKey{p, uint64(st.Dev), uint64(st.Ino), fi.Size(), fi.ModTime().UnixNano()}, true
}

// cachedState is a clone of the tree saved in dir, if the daemon has it, with opt.
func cachedState(dir string, opt vfs.Options) *vfs.FS {
	k, ok := stateKeyOf(dir)
	if !ok {
		return nil
	}
	lastState.mu.Lock()
	defer lastState.mu.Unlock()
	if lastState.tree == nil || lastState.key != k {
		return nil
	}
	t := lastState.tree.Clone()
	t.SetOptions(opt)
	return t
}

// keepState remembers tree as what dir now holds.
func keepState(dir string, tree *vfs.FS) {
	k, ok := stateKeyOf(dir)
	lastState.mu.Lock()
	defer lastState.mu.Unlock()
	if !ok {
		lastState.tree = nil
		return
	}
	lastState.key, lastState.tree = k, tree.CloneTree()
}
