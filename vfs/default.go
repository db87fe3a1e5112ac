package vfs

import (
	"io/fs"
	"slices"
	"sync"
)

// The default layout is built once per distinct command list and cloned:
// a clone is O(1), so a new sandbox pays microseconds, not a rebuild.
var (
	tmplMu   sync.Mutex
	tmplCmds []string
	tmpl     *FS
)

// NewDefault returns the default sandbox layout (see docs/contracts.md):
// /bin and /usr/bin with one "#!wasmsand <name>" stub per command, /usr/local/bin,
// /home/user (1000:1000), /tmp (1777), /mnt, /etc/{passwd,group,hostname} and
// /dev/{null,zero,random,urandom,stdin,stdout,stderr,fd}. System directories
// and files belong to root (0:0). Invalid or duplicate command names are skipped.
func NewDefault(opt Options, commands []string) *FS {
	if opt.Now != nil {
		// A caller-controlled clock wants its own timestamps: build afresh.
		return buildDefault(opt, commands)
	}
	tmplMu.Lock()
	if tmpl == nil || !slices.Equal(commands, tmplCmds) {
		tmpl = buildDefault(Options{}, commands)
		tmplCmds = slices.Clone(commands)
	}
	t := tmpl
	tmplMu.Unlock()
	c := t.Clone()
	c.opt = opt
	return c
}

func buildDefault(opt Options, commands []string) *FS {
	f := New(Options{Now: opt.Now})
	now := f.nowNs()
	root := f.node(rootIno)
	root.uid, root.gid = 0, 0
	dir := func(parent uint64, name string, perm fs.FileMode, uid uint32) uint64 {
		n, _ := f.newInode(fs.ModeDir|perm, now)
		n.uid, n.gid = uid, uid
		f.link(f.node(parent), name, n, now)
		return n.ino
	}
	file := func(parent uint64, name string, perm fs.FileMode, content string) {
		n, _ := f.newInode(perm, now)
		n.uid, n.gid = 0, 0
		f.writeAt(n, []byte(content), 0, now)
		f.link(f.node(parent), name, n, now)
	}
	dev := func(parent uint64, name string, d Device, perm fs.FileMode) {
		n, _ := f.newInode(fs.ModeDevice|fs.ModeCharDevice|perm, now)
		n.uid, n.gid, n.dev = 0, 0, d
		f.link(f.node(parent), name, n, now)
	}
	bin := dir(rootIno, "bin", 0o755, 0)
	usr := dir(rootIno, "usr", 0o755, 0)
	usrBin := dir(usr, "bin", 0o755, 0)
	// /usr/local belongs to the sandbox user, so installing a tool there
	// works as it would with sudo on a workstation.
	local := dir(usr, "local", 0o755, defaultUID)
	dir(local, "bin", 0o755, defaultUID)
	home := dir(rootIno, "home", 0o755, 0)
	dir(home, "user", 0o755, defaultUID)
	dir(rootIno, "tmp", fs.ModeSticky|0o777, 0)
	dir(rootIno, "mnt", 0o755, 0)
	etc := dir(rootIno, "etc", 0o755, 0)
	file(etc, "passwd", 0o644, "root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/home/user:/bin/sh\n")
	file(etc, "group", 0o644, "root:x:0:\nuser:x:1000:\n")
	file(etc, "hostname", 0o644, "wasmsand\n")
	d := dir(rootIno, "dev", 0o755, 0)
	dev(d, "null", DevNull, 0o666)
	dev(d, "zero", DevZero, 0o666)
	dev(d, "random", DevRandom, 0o666)
	dev(d, "urandom", DevRandom, 0o666)
	dev(d, "stdin", DevStdin, 0o620)
	dev(d, "stdout", DevStdout, 0o620)
	dev(d, "stderr", DevStderr, 0o620)
	dev(d, "tty", DevTTY, 0o666)
	dir(d, "fd", 0o555, 0)
	for _, c := range commands {
		if !validName(c) {
			continue
		}
		if _, dup := f.node(bin).dir.entries[c]; dup {
			continue
		}
		stub := "#!wasmsand " + c + "\n"
		file(bin, c, 0o755, stub)
		file(usrBin, c, 0o755, stub)
	}
	f.opt = opt
	return f
}
