package vfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func encodeBytes(t testing.TB, f *FS) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, f.Encode(&b))
	return b.Bytes()
}

// checkpoint writes a delta from base (the full state when nil).
func checkpoint(t testing.TB, f *FS, base *Snapshot) (*Snapshot, []byte) {
	t.Helper()
	var b bytes.Buffer
	s, err := f.EncodeDelta(&b, base)
	require.NoError(t, err)
	require.NotNil(t, s)
	return s, b.Bytes()
}

// sameTree: byte-identical full encodings, and the same dump (which also
// compares link counts, which the encodings leave out).
func sameTree(t testing.TB, want, got *FS, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, encodeBytes(t, want), encodeBytes(t, got), msgAndArgs...)
	require.Equal(t, dump(t, want), dump(t, got), msgAndArgs...)
}

// deltaOps drives a live FS with random operations and checkpoints, and
// replays every checkpoint into a replica.
type deltaOps struct {
	t       *testing.T
	r       *rand.Rand
	f       *FS // live
	replica *FS // full state + every delta so far
	base    *Snapshot
	snaps   []*Snapshot
	held    []*File // open, maybe unlinked (orphans)
	others  []*FS   // earlier lives after a Clone: changed as noise
	deltas  int
}

func (w *deltaOps) path() string {
	names := []string{"a", "b", "c", "d"}
	var parts []string
	for i := 0; i < 1+w.r.Intn(3); i++ {
		parts = append(parts, names[w.r.Intn(len(names))])
	}
	return "/" + strings.Join(parts, "/")
}

func (w *deltaOps) data(max int) []byte {
	n := w.r.Intn(40)
	if w.r.Intn(4) == 0 {
		n = w.r.Intn(max)
	}
	b := make([]byte, n)
	w.r.Read(b)
	return b
}

// op does one random operation on f; errors (ENOENT, EEXIST...) are
// expected and ignored: the replica is compared with f, not with a model.
func (w *deltaOps) op(f *FS) {
	r := w.r
	p := w.path()
	switch r.Intn(26) {
	case 0, 1:
		f.WriteFile(p, w.data(3*chunkSize+100), 0o644)
	case 2:
		f.applyOp(op{kind: "append", a: p, data: w.data(chunkSize)})
	case 3:
		size := int64(r.Intn(100))
		if r.Intn(2) == 0 {
			size = int64(r.Intn(4 * chunkSize)) // grows into holes or cuts chunks
		}
		f.Truncate(p, size)
	case 4, 5: // overwrite in the middle, or past the end (a hole)
		if fl, err := f.OpenFile(p, os.O_RDWR, 0); err == nil {
			st, _ := fl.Stat()
			off := int64(0)
			if st != nil && st.Size() > 0 {
				off = r.Int63n(st.Size())
			}
			if r.Intn(4) == 0 {
				off += int64(r.Intn(3 * chunkSize))
			}
			fl.WriteAt(w.data(chunkSize+10), off)
			fl.Close()
		}
	case 6, 7:
		f.Mkdir(p, 0o755)
	case 8:
		f.Rmdir(p)
	case 9:
		f.RemoveAll(p)
	case 10:
		f.Unlink(p)
	case 11, 12:
		f.Rename(p, w.path())
	case 13:
		f.Link(p, w.path())
	case 14:
		f.Symlink(fmt.Sprintf("../t%d", r.Intn(100)), p)
	case 15:
		f.Chmod(p, fs.FileMode(r.Intn(0o1000)))
	case 16:
		f.Chown(p, r.Intn(3), r.Intn(3))
	case 17:
		f.Chtimes(p, time.Unix(int64(r.Intn(1e9)), 0), time.Unix(int64(r.Intn(1e9)), 7), r.Intn(2) == 0)
	case 18: // made and removed between two checkpoints
		q := fmt.Sprintf("/tmp%d", r.Intn(1000))
		f.WriteFile(q, w.data(100), 0o600)
		f.Mkdir(q+"d", 0o700)
		f.Remove(q)
		f.Remove(q + "d")
	case 19:
		if r.Intn(2) == 0 { // outside the names other ops use: writing one would block
			q := fmt.Sprintf("/fifo%d", r.Intn(4))
			if f.Mkfifo(q, 0o600) != nil {
				f.Remove(q)
			}
		} else {
			f.Mknod(p, 0o666, DevNull)
		}
	case 20: // open, then maybe unlink while open: an orphan across checkpoints
		if f == w.f {
			if fl, err := f.OpenFile(p, os.O_RDWR, 0); err == nil {
				if fl.kind != fkRegular { // a held FIFO reader would block writers
					fl.Close()
					return
				}
				w.held = append(w.held, fl)
				if r.Intn(2) == 0 {
					f.Unlink(p)
				}
			}
		}
	case 21:
		if len(w.held) > 0 {
			i := r.Intn(len(w.held))
			fl := w.held[i]
			fl.WriteAt(w.data(100), int64(r.Intn(chunkSize))) // an orphan's change is not in the tree
			fl.Close()
			w.held = append(w.held[:i], w.held[i+1:]...)
		}
	case 22:
		f.WriteFile(p, bytes.Repeat([]byte{byte(r.Intn(256))}, 2*chunkSize+r.Intn(chunkSize)), 0o644)
	case 23:
		f.Lchown(p, r.Intn(3), r.Intn(3))
	case 24: // many inodes at once: inode numbers pass 1024, the trie grows a level
		d := fmt.Sprintf("/bulk%d", r.Intn(3))
		f.Mkdir(d, 0o755)
		for i := 0; i < 150; i++ {
			f.WriteFile(fmt.Sprintf("%s/f%d", d, r.Intn(300)), w.data(100), 0o644)
		}
	case 25:
		f.RemoveAll(fmt.Sprintf("/bulk%d", r.Intn(3)))
	}
}

func (w *deltaOps) step() {
	r := w.r
	switch x := r.Intn(100); {
	case x < 20:
		w.checkpoint()
	case x < 23:
		w.snaps = append(w.snaps, w.f.Snapshot())
	case x < 26 && len(w.snaps) > 0:
		w.f.Restore(w.snaps[r.Intn(len(w.snaps))])
	case x < 28:
		// The live FS moves on as a clone; the old one keeps changing,
		// which must not show in the clone's deltas.
		w.others = append(w.others, w.f)
		w.f = w.f.Clone()
	case x < 31 && len(w.others) > 0:
		w.op(w.others[r.Intn(len(w.others))])
	default:
		w.op(w.f)
	}
}

func (w *deltaOps) checkpoint() {
	t := w.t
	s, raw := checkpoint(t, w.f, w.base)
	require.NoError(t, CheckDelta(raw))
	require.NoError(t, w.replica.ApplyDelta(bytes.Clone(raw)), "delta %d", w.deltas)
	w.deltas++
	w.base = s
	if w.r.Intn(3) == 0 {
		w.snaps = append(w.snaps, s) // restoring a checkpoint later is fine too
	}
	sameTree(t, w.f, w.replica, "after delta %d", w.deltas)
	if len(w.held) == 0 {
		fb, fn := w.f.Usage()
		rb, rn := w.replica.Usage()
		require.Equal(t, [2]int64{fb, fn}, [2]int64{rb, rn})
	}
}

// failover: the replica becomes the live FS, checkpointing from a snapshot
// taken after its last ApplyDelta; the old live FS becomes the replica.
func (w *deltaOps) failover() {
	for _, fl := range w.held {
		fl.Close()
	}
	w.held = nil
	w.checkpoint()
	w.base = w.replica.Snapshot()
	w.f, w.replica = w.replica, w.f
	w.snaps, w.others = nil, nil
}

func TestDeltaRoundTrip(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			clock := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
			w := &deltaOps{t: t, r: rand.New(rand.NewSource(seed)), f: New(Options{Now: clock.Now})}
			require.NoError(t, w.f.MkdirAll("/a/b", 0o755))
			base, full := checkpoint(t, w.f, nil)
			require.NoError(t, CheckState(full))
			require.Error(t, CheckDelta(full))
			var err error
			w.replica, err = DecodeBytes(bytes.Clone(full), Options{Now: clock.Now})
			require.NoError(t, err)
			w.base = base
			sameTree(t, w.f, w.replica)
			for i := 0; i < 400; i++ {
				w.step()
				if i == 200 {
					w.failover()
				}
			}
			for _, fl := range w.held {
				fl.Close()
			}
			w.held = nil
			w.checkpoint()
			require.Greater(t, w.deltas, 60)
		})
	}
}

// A delta's records are only what changed; unchanged chunks and entries
// are references.
func TestDeltaWritesOnlyChanges(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/d", 0o755))
	big := make([]byte, 5*chunkSize+7)
	rand.New(rand.NewSource(1)).Read(big)
	require.NoError(t, f.WriteFile("/d/big", big, 0o644))
	mustWrite(t, f, "/d/small", "s")
	base, full := checkpoint(t, f, nil)
	g, err := DecodeBytes(full, Options{})
	require.NoError(t, err)

	step := func(name string, max int, change func()) {
		t.Helper()
		change()
		var raw []byte
		base, raw = checkpoint(t, f, base)
		t.Logf("%s: %d bytes", name, len(raw))
		require.LessOrEqual(t, len(raw), max, name)
		require.NoError(t, g.ApplyDelta(raw), name)
		sameTree(t, f, g, name)
	}
	step("nothing", 32, func() {})
	step("chmod of a 5-chunk file", 96, func() { require.NoError(t, f.Chmod("/d/big", 0o600)) })
	step("chmod of a directory", 96, func() { require.NoError(t, f.Chmod("/d", 0o700)) })
	step("one byte in chunk 2", chunkSize+100, func() {
		fl, err := f.OpenFile("/d/big", os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = fl.WriteAt([]byte("x"), 2*chunkSize+5)
		require.NoError(t, err)
		require.NoError(t, fl.Close())
	})
	step("append past a chunk boundary", 200, func() {
		fl, err := f.OpenFile("/d/big", os.O_WRONLY|os.O_APPEND, 0)
		require.NoError(t, err)
		_, err = fl.Write([]byte("tail"))
		require.NoError(t, err)
		require.NoError(t, fl.Close())
	})
	step("truncate to a chunk boundary", 96, func() { require.NoError(t, f.Truncate("/d/big", 3*chunkSize)) })
	step("grow with a hole", 96, func() { require.NoError(t, f.Truncate("/d/big", 9*chunkSize)) })
	step("new file", 200, func() { mustWrite(t, f, "/d/new", "hello") })
	step("rename", 200, func() { require.NoError(t, f.Rename("/d/new", "/new")) })
	step("remove", 96, func() { require.NoError(t, f.Remove("/new")) })
	step("rewrite the file", 6*chunkSize, func() { require.NoError(t, f.WriteFile("/d/big", big, 0o644)) })
}

// build10MB: 1,000 files of 10 KB in 10 directories and a 2 MB file.
func build10MB(t testing.TB) *FS {
	f := New(Options{})
	r := rand.New(rand.NewSource(1))
	buf := make([]byte, 10<<10)
	for d := 0; d < 10; d++ {
		dir := fmt.Sprintf("/home/user/d%d", d)
		require.NoError(t, f.MkdirAll(dir, 0o755))
		for i := 0; i < 100; i++ {
			r.Read(buf)
			require.NoError(t, f.WriteFile(fmt.Sprintf("%s/f%03d", dir, i), buf, 0o644))
		}
	}
	big := make([]byte, 2<<20)
	r.Read(big)
	require.NoError(t, f.WriteFile("/home/user/big.bin", big, 0o644))
	return f
}

func TestDeltaSize10MB(t *testing.T) {
	f := build10MB(t)
	base, full := checkpoint(t, f, nil)
	t.Logf("full state: %d bytes", len(full))
	require.Greater(t, len(full), 10<<20)
	g, err := DecodeBytes(full, Options{})
	require.NoError(t, err)

	// One 4 KB file rewritten.
	data := bytes.Repeat([]byte("0123456789abcdef"), 256)
	require.NoError(t, f.WriteFile("/home/user/d3/f042", data, 0o644))
	base, raw := checkpoint(t, f, base)
	t.Logf("delta after rewriting one 4 KB file: %d bytes", len(raw))
	require.LessOrEqual(t, len(raw), 100<<10)
	require.Less(t, len(raw), 4096+256) // the file's bytes and its record
	require.NoError(t, g.ApplyDelta(raw))
	sameTree(t, f, g)

	// One byte in the middle of the 2 MB file: about one chunk.
	fl, err := f.OpenFile("/home/user/big.bin", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte{'!'}, 1<<20+12345)
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	base, raw = checkpoint(t, f, base)
	t.Logf("delta after a 1-byte change in the 2 MB file: %d bytes", len(raw))
	require.GreaterOrEqual(t, len(raw), chunkSize)
	require.Less(t, len(raw), chunkSize+256)
	require.NoError(t, g.ApplyDelta(raw))
	sameTree(t, f, g)

	// A new file in a directory of 100 entries writes the directory whole.
	mustWrite(t, f, "/home/user/d5/new", "n")
	_, raw = checkpoint(t, f, base)
	t.Logf("delta after a new file in a directory of 100: %d bytes", len(raw))
	require.Less(t, len(raw), 2048)
	require.NoError(t, g.ApplyDelta(raw))
	sameTree(t, f, g)
}

// The delta's base must be the receiver's tree; one applied twice or out of
// order is refused when the counts show it.
func TestApplyDeltaWrongBase(t *testing.T) {
	f, _ := newTestFS(t)
	base, full := checkpoint(t, f, nil)
	g, err := DecodeBytes(full, Options{})
	require.NoError(t, err)
	mustWrite(t, f, "/one", "1")
	base, d1 := checkpoint(t, f, base)
	mustWrite(t, f, "/two", "22")
	_, d2 := checkpoint(t, f, base)
	before := encodeBytes(t, g)
	err = g.ApplyDelta(d2)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Contains(t, err.Error(), "another tree")
	require.Equal(t, before, encodeBytes(t, g))
	require.NoError(t, g.ApplyDelta(d1))
	require.ErrorIs(t, g.ApplyDelta(d1), ErrCorrupt)
	require.NoError(t, g.ApplyDelta(d2))
	sameTree(t, f, g)
}

// A FIFO removed by a delta loses its pipe on the receiver.
func TestApplyDeltaDropsRemovedFIFO(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkfifo("/p", 0o600))
	base, full := checkpoint(t, f, nil)
	g, err := DecodeBytes(full, Options{})
	require.NoError(t, err)
	r, err := g.OpenFile("/p", os.O_RDWR, 0)
	require.NoError(t, err)
	defer r.Close()
	require.NotEmpty(t, g.fifos)
	require.NoError(t, f.Remove("/p"))
	_, raw := checkpoint(t, f, base)
	require.NoError(t, g.ApplyDelta(raw))
	require.Empty(t, g.fifos)
}

// --- hostile deltas ---------------------------------------------------

// db builds delta bodies by hand.
type db []byte

func (b db) u(vs ...uint64) db {
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

func (b db) s(v string) db { return append(b.u(uint64(len(v))), v...) }

// head: ino, mode, uid, gid and three times.
func (b db) head(ino uint64, mode fs.FileMode) db {
	b = b.u(ino, uint64(mode), 1000, 1000)
	for i := 0; i < 3; i++ {
		b = binary.AppendVarint(b, 5)
	}
	return b
}

func (b db) dir(ino uint64, ents ...any) db {
	b = b.head(ino, fs.ModeDir|0o755).u(uint64(len(ents)/2) + 1)
	for i := 0; i < len(ents); i += 2 {
		b = b.s(ents[i].(string)).u(uint64(ents[i+1].(int)))
	}
	return b
}

func seal(b db) []byte {
	return resign(append([]byte(deltaMagic+"\x01\x00"), b...))
}

type hostile struct {
	g    *FS
	full []byte
	ino  map[string]uint64
	bi   uint64 // base counts
	bb   uint64
	next uint64
}

// newHostile: / (1), /a, /a/b, /a/f (3 chunks), /s, /a/g, /a/sp (holes).
func newHostile(t testing.TB) *hostile {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b", 0o755))
	big := bytes.Repeat([]byte("f"), 2*chunkSize+100)
	require.NoError(t, f.WriteFile("/a/f", big, 0o644))
	require.NoError(t, f.Symlink("a/f", "/s"))
	mustWrite(t, f, "/a/g", "gg")
	fl, err := f.OpenFile("/a/sp", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte("x"), 2*chunkSize)
	require.NoError(t, err)
	require.NoError(t, fl.Close())
	_, full := checkpoint(t, f, nil)
	h := &hostile{full: full, ino: map[string]uint64{}}
	for _, p := range []string{"/a", "/a/b", "/a/f", "/s", "/a/g", "/a/sp"} {
		h.ino[p] = st(t, f, p).Ino
	}
	b, n := f.Usage()
	h.bi, h.bb = uint64(n), uint64(b)
	h.next = f.nextIno
	h.g = h.fresh(t)
	return h
}

func (h *hostile) fresh(t testing.TB) *FS {
	g, err := DecodeBytes(bytes.Clone(h.full), Options{})
	require.NoError(t, err)
	return g
}

// hdr: base counts, nextIno, result counts (unchanged by default).
func (h *hostile) hdr() db { return db{}.u(h.bi, h.bb, h.next, h.bi, h.bb) }

// hdrNew: the same, with room for one new inode (numbered h.next).
func (h *hostile) hdrNew() db { return db{}.u(h.bi, h.bb, h.next+1, h.bi+1, h.bb) }

// reject applies raw, which must fail with ErrCorrupt (and want in the
// message) and leave the FS as it was.
func (h *hostile) reject(t *testing.T, raw []byte, want string) {
	t.Helper()
	before := encodeBytes(t, h.g)
	beforeDump := dump(t, h.g)
	err := h.g.ApplyDelta(raw)
	require.Error(t, err)
	require.True(t, errors.Is(err, ErrCorrupt), err)
	if want != "" {
		require.Contains(t, err.Error(), want)
	}
	require.Equal(t, before, encodeBytes(t, h.g))
	require.Equal(t, beforeDump, dump(t, h.g))
}

func TestApplyDeltaHostile(t *testing.T) {
	h := newHostile(t)
	a, b, ff, s, g, sp := h.ino["/a"], h.ino["/a/b"], h.ino["/a/f"], h.ino["/s"], h.ino["/a/g"], h.ino["/a/sp"]
	i := func(x uint64) int { return int(x) }
	// A valid delta to corrupt: /a/g rewritten, /a/h new.
	src := mustDecode(t, h.full)
	base := src.Snapshot()
	mustWrite(t, src, "/a/g", "GG")
	mustWrite(t, src, "/a/h", "hhh")
	_, valid := checkpoint(t, src, base)
	{
		g2 := h.fresh(t)
		require.NoError(t, g2.ApplyDelta(bytes.Clone(valid)))
		sameTree(t, src, g2)
	}

	t.Run("random bytes", func(t *testing.T) {
		r := rand.New(rand.NewSource(1))
		for n := 0; n < 300; n++ {
			raw := make([]byte, r.Intn(200))
			r.Read(raw)
			h.reject(t, raw, "")
			if len(raw) > 12 {
				copy(raw, deltaMagic+"\x01\x00")
				h.reject(t, resign(raw[:len(raw)-4]), "")
			}
		}
	})
	t.Run("every truncation", func(t *testing.T) {
		for n := 0; n < len(valid); n++ {
			h.reject(t, valid[:n], "")
		}
	})
	t.Run("bit flips", func(t *testing.T) {
		r := rand.New(rand.NewSource(2))
		for n := 0; n < 500; n++ {
			raw := bytes.Clone(valid)
			raw[r.Intn(len(raw))] ^= byte(1 << r.Intn(8))
			h.reject(t, raw, "")
		}
	})
	t.Run("a full state", func(t *testing.T) { h.reject(t, bytes.Clone(h.full), "not a wasmsand VFS delta") })
	t.Run("future version", func(t *testing.T) {
		raw := bytes.Clone(valid[:len(valid)-4])
		raw[len(deltaMagic)] = 2
		h.reject(t, resign(raw), "version")
	})
	t.Run("trailing data", func(t *testing.T) {
		h.reject(t, resign(append(bytes.Clone(valid[:len(valid)-4]), 0)), "trailing")
	})

	// Re-sealed: the checksum is right, the structure is not.
	cases := []struct {
		name, want string
		body       db
	}{
		{"cycle", "unreachable",
			// / no longer names a; a/b names a: a → b → a, cut off.
			h.hdr().u(0, 2).dir(1, "s", i(s)).dir(b, "x", i(a))},
		{"entry to a missing inode", "not a tree",
			h.hdr().u(0, 1).dir(b, "m", 100)},
		{"entry to an inode past nextIno", "not a tree",
			h.hdr().u(0, 1).dir(b, "m", i(h.next))},
		{"directory linked twice", "not a tree",
			h.hdr().u(0, 1).dir(1, "a", i(a), "a2", i(a), "s", i(s))},
		{"unreferenced inode", "not a tree",
			h.hdr().u(0, 1).dir(1, "a", i(a))},
		{"entry to the root", "bad directory entry",
			h.hdr().u(0, 1).dir(b, "r", 1)},
		{"duplicated entries", "bad directory entry",
			h.hdr().u(0, 1).dir(b, "x", i(g), "x", i(g))},
		{"unsorted entries", "bad directory entry",
			h.hdr().u(0, 1).dir(1, "s", i(s), "a", i(a))},
		{"bad entry name", "bad directory entry",
			h.hdr().u(0, 1).dir(b, "x/y", i(g))},
		{"record at nextIno", "out of range",
			h.hdr().u(0, 1).head(h.next, 0o644).u(0, 0)},
		{"record 0", "out of range",
			h.hdr().u(0, 1).head(0, 0o644).u(0, 0)},
		{"duplicated records", "out of order",
			h.hdr().u(0, 2).head(g, 0o644).u(2, 1, 3, 'x', 'y').head(g, 0o644).u(2, 1, 3, 'x', 'y')},
		{"unsorted records", "out of order",
			h.hdr().u(0, 2).head(g, 0o644).u(2, 1, 3, 'x', 'y').head(ff, 0o644).u(0, 0)},
		{"removed root", "removes the root",
			h.hdr().u(1, 1, 0)},
		{"removed missing inode", "missing inode",
			h.hdr().u(1, 42, 0)},
		{"removed past nextIno", "missing inode",
			h.hdr().u(1, h.next+5, 0)},
		{"unsorted removed", "out of order",
			h.hdr().u(2, g, s, 0)},
		{"duplicated removed", "out of order",
			h.hdr().u(2, g, g, 0)},
		{"removed and changed", "both removed and changed",
			h.hdr().u(1, g, 1).head(g, 0o644).u(2, 1, 3, 'x', 'y')},
		{"removed but still named", "not a tree",
			h.hdr().u(1, g, 0)},
		{"unchanged chunks past the file's", "unchanged chunks past",
			h.hdr().u(0, 1).head(ff, 0o644).u(5*chunkSize, 5, 0, 5)},
		{"unchanged chunks past the count", "unchanged chunks past",
			h.hdr().u(0, 1).head(ff, 0o644).u(2*chunkSize+100, 3, 0, 4)},
		{"unchanged run of 0", "unchanged chunks past",
			h.hdr().u(0, 1).head(ff, 0o644).u(2*chunkSize+100, 3, 0, 0)},
		{"unchanged chunk of a new file", "unchanged chunks past",
			h.hdrNew().u(0, 1).head(h.next, 0o644).u(10, 1, 0, 1)},
		{"unchanged chunk of a directory", "unchanged chunks past",
			h.hdr().u(0, 1).head(b, 0o644).u(10, 1, 0, 1)},
		{"unchanged chunk is a hole", "hole",
			h.hdr().u(0, 1).head(sp, 0o644).u(2*chunkSize+1, 3, 0, 3)},
		{"unchanged chunk past the new size", "past end of file",
			h.hdr().u(0, 1).head(ff, 0o644).u(100, 1, 0, 1)},
		{"literal past the size", "past end of file",
			append(h.hdr().u(0, 1).head(g, 0o644).u(3, 1, 11), "0123456789"...)},
		{"literal too long", "length out of range",
			append(h.hdr().u(0, 1).head(g, 0o644).u(3*chunkSize, 3, chunkSize+2), make([]byte, chunkSize+1)...)},
		{"more chunks than the size has", "bad file size",
			h.hdr().u(0, 1).head(g, 0o644).u(3, 2, 1, 1)},
		{"huge chunk count", "bad file size",
			h.hdr().u(0, 1).head(g, 0o644).u(maxFileSize, maxFileSize/chunkSize, 1)},
		{"file past the size limit", "bad file size",
			h.hdr().u(0, 1).head(g, 0o644).u(maxFileSize+1, 0)},
		{"unchanged entries of a file", "unchanged entries",
			h.hdr().u(0, 1).head(g, fs.ModeDir|0o755).u(0)},
		{"unchanged entries of a new directory", "unchanged entries",
			h.hdrNew().u(0, 2).dir(b, "n", i(h.next)).head(h.next, fs.ModeDir|0o755).u(0)},
		{"new inode named nowhere", "not a tree",
			h.hdrNew().u(0, 1).head(h.next, 0o644).u(0, 0)},
		{"root made a file", "missing root",
			h.hdr().u(0, 1).head(1, 0o644).u(0, 0)},
		{"unknown type", "unknown file type",
			h.hdr().u(0, 1).head(s, fs.ModeSocket|0o644)},
		{"empty symlink", "empty symlink",
			h.hdr().u(0, 1).head(s, fs.ModeSymlink|0o777).s("")},
		{"bad device", "bad device",
			h.hdr().u(0, 1).head(s, fs.ModeDevice|fs.ModeCharDevice|0o666).u(99)},
		{"bad mode", "bad mode",
			h.hdr().u(0, 1).u(g, 1<<33, 0, 0, 0, 0, 0)},
		{"wrong base counts", "another tree",
			db{}.u(h.bi+1, h.bb, h.next, h.bi+1, h.bb, 0, 0)},
		{"wrong base bytes", "another tree",
			db{}.u(h.bi, h.bb-1, h.next, h.bi, h.bb, 0, 0)},
		{"wrong result counts", "its writer had",
			db{}.u(h.bi, h.bb, h.next, h.bi, h.bb+1, 0, 0)},
		{"implausible nextIno", "inode counter",
			db{}.u(h.bi, h.bb, 1<<41, h.bi, h.bb, 0, 0)},
		{"nextIno 0", "inode counter",
			db{}.u(h.bi, h.bb, 0, h.bi, h.bb, 0, 0)},
		{"huge removed count", "removed count",
			h.hdr().u(1 << 40)},
		{"huge record count", "record count",
			h.hdr().u(0, 1<<40)},
		{"huge entry count", "entry count",
			h.hdr().u(0, 1).head(b, fs.ModeDir|0o755).u(1 << 40)},
		{"records missing", "",
			h.hdr().u(0, 2).dir(b)},
		{"bad varint", "bad varint",
			append(h.hdr().u(0, 1), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.reject(t, seal(c.body), c.want)
		})
	}

	// Sanity for the hand builder: a well-formed hand-made delta applies.
	t.Run("hand-made valid", func(t *testing.T) {
		g2 := h.fresh(t)
		body := db{}.u(h.bi, h.bb, h.next+1, h.bi, h.bb, 0, 2).
			head(g, 0o600).u(2, 1, 0, 1). // chmod-like: the one chunk unchanged
			head(sp, 0o644).u(2*chunkSize+1, 3, 1, 1, 0, 1)
		require.NoError(t, g2.ApplyDelta(seal(body)))
		require.Equal(t, "gg", mustRead(t, g2, "/a/g"))
		require.Equal(t, fs.FileMode(0o600), st(t, g2, "/a/g").Mode)
		require.Equal(t, h.next+1, g2.nextIno)
	})
}

func mustDecode(t testing.TB, raw []byte) *FS {
	g, err := DecodeBytes(bytes.Clone(raw), Options{})
	require.NoError(t, err)
	return g
}

// Random mutations of valid deltas, re-sealed: an error wrapping ErrCorrupt
// with the FS unchanged, or a consistent tree.
func TestApplyDeltaResigned(t *testing.T) {
	full, deltas := fuzzSeeds(t)
	r := rand.New(rand.NewSource(3))
	for n := 0; n < 3000; n++ {
		raw := bytes.Clone(deltas[r.Intn(len(deltas))])
		body := raw[:len(raw)-4]
		for k := 0; k < 1+r.Intn(3); k++ {
			pos := 8 + r.Intn(len(body)-8)
			body[pos] = byte(r.Intn(256))
		}
		if r.Intn(4) == 0 {
			body = body[:8+r.Intn(len(body)-8)]
		}
		checkApply(t, full, resign(body))
	}
}

// checkApply applies raw to the tree full decodes to: failure must wrap
// ErrCorrupt and change nothing; success must leave a tree that encodes and
// decodes again.
func checkApply(t *testing.T, full, raw []byte) {
	g, err := DecodeBytes(bytes.Clone(full), Options{})
	require.NoError(t, err)
	before := encodeBytes(t, g)
	err = g.ApplyDelta(raw)
	if err != nil {
		require.True(t, errors.Is(err, ErrCorrupt), err)
		require.Equal(t, before, encodeBytes(t, g))
		return
	}
	after := encodeBytes(t, g)
	g2, err := DecodeBytes(after, Options{})
	require.NoError(t, err)
	require.Equal(t, dump(t, g), dump(t, g2))
}

// fuzzSeeds: a small tree's full state, and deltas from it.
func fuzzSeeds(t testing.TB) ([]byte, [][]byte) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/a/b", 0o755))
	mustWrite(t, f, "/a/f", "file")
	require.NoError(t, f.WriteFile("/a/big", bytes.Repeat([]byte("x"), chunkSize+10), 0o644))
	require.NoError(t, f.Symlink("f", "/a/l"))
	require.NoError(t, f.Link("/a/f", "/a/b/hard"))
	require.NoError(t, f.Mkfifo("/p", 0o600))
	base, full := checkpoint(t, f, nil)
	var deltas [][]byte
	for i, change := range []func(g *FS){
		func(g *FS) { mustWrite(t, g, "/a/f", "changed") },
		func(g *FS) { require.NoError(t, g.RemoveAll("/a/b")) },
		func(g *FS) { require.NoError(t, g.Rename("/a/b", "/c")) },
		func(g *FS) { require.NoError(t, g.Chmod("/a/big", 0o600)) },
		func(g *FS) {
			fl, err := g.OpenFile("/a/big", os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = fl.WriteAt([]byte("y"), chunkSize+3)
			require.NoError(t, err)
			require.NoError(t, fl.Close())
		},
		func(g *FS) {
			require.NoError(t, g.MkdirAll("/n/m", 0o700))
			require.NoError(t, g.Symlink("/x", "/n/m/s"))
			require.NoError(t, g.Remove("/p"))
			require.NoError(t, g.Truncate("/a/big", 3*chunkSize))
		},
	} {
		g := f.Clone()
		change(g)
		_, raw := checkpoint(t, g, base)
		deltas = append(deltas, raw)
		checkApplyOK(t, full, raw, g, i)
	}
	return full, deltas
}

func checkApplyOK(t testing.TB, full, raw []byte, want *FS, i int) {
	g, err := DecodeBytes(bytes.Clone(full), Options{})
	require.NoError(t, err)
	require.NoError(t, g.ApplyDelta(bytes.Clone(raw)), "seed %d", i)
	sameTree(t, want, g, "seed %d", i)
}

func FuzzApplyDelta(f *testing.F) {
	full, deltas := fuzzSeeds(f)
	for _, d := range deltas {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkApply(t, full, bytes.Clone(raw))
		if len(raw) > 4 { // the same bytes with a right checksum: the structure's checks
			checkApply(t, full, resign(bytes.Clone(raw[:len(raw)-4])))
		}
	})
}

// EncodeDelta to a failing writer returns the error and no snapshot.
func TestEncodeDeltaWriterError(t *testing.T) {
	f := richFS(t)
	base, _ := checkpoint(t, f, nil)
	mustWrite(t, f, "/home/user/big.bin", strings.Repeat("z", 100))
	s, err := f.EncodeDelta(&failWriter{n: 10}, base)
	require.ErrorIs(t, err, syscall.EIO)
	require.Nil(t, s)
	s, err = f.EncodeDelta(&failWriter{n: 10}, nil)
	require.Error(t, err)
	require.Nil(t, s)
}

// 10 MB tree, one 4 KB file rewritten per checkpoint: the EncodeDelta time
// (the rewrite is outside the timer) and the delta's size.
func BenchmarkEncodeDelta1File10MB(b *testing.B) {
	f := build10MB(b)
	base, err := f.EncodeDelta(io.Discard, nil)
	if err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat([]byte("0123456789abcdef"), 256)
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		data[i%len(data)]++
		if err := f.WriteFile("/home/user/d3/f042", data, 0o644); err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		b.StartTimer()
		if base, err = f.EncodeDelta(&buf, base); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "delta-bytes")
}

// The receiver's side of the same checkpoint.
func BenchmarkApplyDelta1File10MB(b *testing.B) {
	f := build10MB(b)
	data := bytes.Repeat([]byte("0123456789abcdef"), 256)
	if err := f.WriteFile("/home/user/d3/f042", data, 0o644); err != nil {
		b.Fatal(err)
	}
	base, full := checkpoint(b, f, nil)
	g, err := DecodeBytes(full, Options{})
	if err != nil {
		b.Fatal(err)
	}
	data[0]++ // same size: the delta applies again and again
	if err := f.WriteFile("/home/user/d3/f042", data, 0o644); err != nil {
		b.Fatal(err)
	}
	_, raw := checkpoint(b, f, base)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := g.ApplyDelta(raw); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(raw)), "delta-bytes")
}

// Orphans are in the trie but not in the encoding. No operation changes
// whether an inode is an orphan without copying it (unlinking goes through
// mut), so the walk alone sees it; diffTrees does not rely on that.
func TestDiffTreesOrphanOverlay(t *testing.T) {
	f, _ := newTestFS(t)
	mustWrite(t, f, "/x", "1")
	ino := st(t, f, "/x").Ino
	s := f.Snapshot()
	orphaned, linked := s.t.clone(), s.t.clone()
	orphaned.orphans = map[uint64]struct{}{ino: {}}

	removed, changed := diffTrees(&orphaned, &linked)
	require.Empty(t, removed)
	require.Len(t, changed, 1)
	require.Equal(t, ino, changed[0].ino)

	removed, changed = diffTrees(&linked, &orphaned)
	require.Equal(t, []uint64{ino}, removed)
	require.Empty(t, changed)

	removed, changed = diffTrees(&orphaned, &orphaned)
	require.Empty(t, removed)
	require.Empty(t, changed)

	// The base never sent an orphan's chunks: they go as bytes, not as
	// references.
	var b bytes.Buffer
	_, err := f.EncodeDelta(&b, &Snapshot{t: orphaned})
	require.NoError(t, err)
	require.True(t, bytes.Contains(b.Bytes(), []byte{1, 1, 2, '1'}), "size 1, 1 chunk, 1 literal byte")
}

// A small change is copied out of the delta (which may then be reused); a
// delta made mostly of file bytes is kept, as DecodeBytes keeps a state.
func TestApplyDeltaOwnership(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.Mkdir("/d", 0o755))
	base, full := checkpoint(t, f, nil)
	g, err := DecodeBytes(full, Options{})
	require.NoError(t, err)

	for i := 0; i < 40; i++ {
		mustWrite(t, f, fmt.Sprintf("/d/name-%02d", i), "")
	}
	mustWrite(t, f, "/d/small", "hello")
	base, raw := checkpoint(t, f, base)
	require.NoError(t, g.ApplyDelta(raw))
	clear(raw)
	require.Equal(t, "hello", mustRead(t, g, "/d/small"))

	big := bytes.Repeat([]byte("b"), 3*chunkSize)
	require.NoError(t, f.WriteFile("/d/big", big, 0o644))
	_, raw = checkpoint(t, f, base)
	require.NoError(t, g.ApplyDelta(raw))
	n := g.node(st(t, g, "/d/big").Ino)
	c := n.data.chunks[0].b
	require.True(t, &c[0] == &raw[bytes.Index(raw, c)], "the delta's own bytes")
	sameTree(t, f, g)
}

// Checkpoints taken while another goroutine writes: each delta is a
// consistent tree (go test -race).
func TestEncodeDeltaConcurrentWrites(t *testing.T) {
	f, _ := newTestFS(t)
	require.NoError(t, f.MkdirAll("/w", 0o755))
	base, full := checkpoint(t, f, nil)
	g, err := DecodeBytes(full, Options{})
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 300; i++ {
			p := fmt.Sprintf("/w/f%d", i%17)
			f.WriteFile(p, bytes.Repeat([]byte{byte(i)}, i*100), 0o644)
			if i%5 == 0 {
				f.Rename(p, fmt.Sprintf("/w/g%d", i%7))
			}
		}
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		var raw []byte
		base, raw = checkpoint(t, f, base)
		require.NoError(t, g.ApplyDelta(raw))
		// The replica is the snapshot the delta came with.
		want := New(Options{})
		want.Restore(base)
		want.nextIno = g.nextIno
		require.Equal(t, encodeBytes(t, want), encodeBytes(t, g))
	}
	sameTree(t, f, g)
}
