package vfs

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func richFS(t testing.TB) *FS {
	f := NewDefault(Options{Now: (&fakeClock{}).Now}, []string{"ls", "cat", "sh"})
	require.NoError(t, f.MkdirAll("/home/user/proj/src", 0o750))
	mustWrite(t, f, "/home/user/proj/src/main.go", "package main\n")
	big := make([]byte, 3*chunkSize+17)
	rand.New(rand.NewSource(1)).Read(big)
	require.NoError(t, f.WriteFile("/home/user/big.bin", big, 0o600))
	fl, err := f.OpenFile("/home/user/sparse", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	_, err = fl.WriteAt([]byte("x"), 5*chunkSize)
	require.NoError(t, err)
	require.NoError(t, fl.Truncate(7*chunkSize))
	require.NoError(t, fl.Close())
	require.NoError(t, f.Link("/home/user/proj/src/main.go", "/home/user/hard"))
	require.NoError(t, f.Symlink("proj/src/main.go", "/home/user/rel"))
	require.NoError(t, f.Symlink("/etc/passwd", "/home/user/abs"))
	require.NoError(t, f.Mkfifo("/tmp/fifo", 0o600))
	require.NoError(t, f.Chown("/home/user/big.bin", 12, 34))
	require.NoError(t, f.Chmod("/home/user/proj", 0o700|fs.ModeSetgid))
	mustWrite(t, f, "/tmp/empty", "")
	return f
}

// dump renders the whole tree (paths, types, modes, owners, times, nlink,
// content, link targets, inode identity) for comparisons.
func dump(t testing.TB, f *FS) map[string]string {
	out := map[string]string{}
	inoNames := map[uint64]string{}
	var walk func(p string)
	walk = func(p string) {
		ents, err := f.ReadDir(p)
		require.NoError(t, err)
		for _, e := range ents {
			cp := p + "/" + e.Name()
			if p == "/" {
				cp = "/" + e.Name()
			}
			s := st(t, f, cp)
			first, seen := inoNames[s.Ino]
			if !seen {
				inoNames[s.Ino] = cp
				first = cp
			}
			desc := []any{s.Mode, s.Uid, s.Gid, s.Nlink, s.Size, s.Rdev, s.Atime.UnixNano(), s.Mtime.UnixNano(), s.Ctime.UnixNano(), "ino-of:" + first}
			switch {
			case s.Mode.IsRegular():
				b, err := f.ReadFile(cp)
				require.NoError(t, err)
				desc = append(desc, string(b))
			case s.Mode&fs.ModeSymlink != 0:
				tg, err := f.Readlink(cp)
				require.NoError(t, err)
				desc = append(desc, tg)
			}
			out[cp] = sprint(desc...)
			if s.Mode.IsDir() {
				walk(cp)
			}
		}
	}
	walk("/")
	return out
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	f := richFS(t)
	var buf bytes.Buffer
	require.NoError(t, f.Encode(&buf))
	g, err := Decode(bytes.NewReader(buf.Bytes()), Options{})
	require.NoError(t, err)
	require.Equal(t, dump(t, f), dump(t, g))
	fb, fn := f.Usage()
	gb, gn := g.Usage()
	require.Equal(t, fb, gb)
	require.Equal(t, fn, gn)
	require.Equal(t, st(t, f, "/home/user/hard").Ino, st(t, g, "/home/user/proj/src/main.go").Ino)
	require.Equal(t, st(t, f, "/").Nlink, st(t, g, "/").Nlink)

	// Deterministic: same tree, same bytes (also after a decode).
	var again, fromG bytes.Buffer
	require.NoError(t, f.Encode(&again))
	require.NoError(t, g.Encode(&fromG))
	require.Equal(t, buf.Bytes(), again.Bytes())
	require.Equal(t, buf.Bytes(), fromG.Bytes())

	// The decoded FS is fully usable.
	mustWrite(t, g, "/home/user/hard", "edited")
	require.Equal(t, "edited", mustRead(t, g, "/home/user/proj/src/main.go"))
	require.Equal(t, "package main\n", mustRead(t, f, "/home/user/proj/src/main.go"))
	mustWrite(t, g, "/tmp/newfile", "n")
	require.Greater(t, st(t, g, "/tmp/newfile").Ino, st(t, g, "/tmp/empty").Ino)
}

func TestEncodeSkipsOrphansAndMounts(t *testing.T) {
	f := NewDefault(Options{}, nil)
	mustWrite(t, f, "/tmp/o", "orphan")
	fl, err := f.Open("/tmp/o")
	require.NoError(t, err)
	require.NoError(t, f.Unlink("/tmp/o"))
	require.NoError(t, f.Mount("/mnt", newMem(t), false))
	var buf bytes.Buffer
	require.NoError(t, f.Encode(&buf))
	require.NoError(t, fl.Close())
	g, err := Decode(&buf, Options{})
	require.NoError(t, err)
	gb, gn := g.Usage()
	fb, fn := f.Usage() // the orphan is gone now that it is closed
	require.Equal(t, fb, gb)
	require.Equal(t, fn, gn)
	ents, err := g.ReadDir("/mnt")
	require.NoError(t, err)
	require.Empty(t, ents)
}

func TestDecodeCorrupt(t *testing.T) {
	f := richFS(t)
	var buf bytes.Buffer
	require.NoError(t, f.Encode(&buf))
	good := buf.Bytes()

	check := func(t *testing.T, data []byte) {
		t.Helper()
		_, err := Decode(bytes.NewReader(data), Options{})
		require.Error(t, err)
		require.True(t, errors.Is(err, ErrCorrupt), err)
	}
	t.Run("empty", func(t *testing.T) { check(t, nil) })
	t.Run("bad magic", func(t *testing.T) { check(t, append([]byte("XXXXXX"), good[6:]...)) })
	t.Run("future version", func(t *testing.T) {
		b := bytes.Clone(good)
		b[6] = 99
		check(t, b)
	})
	t.Run("every truncation", func(t *testing.T) {
		for n := 0; n < len(good); n += 1 + n/50 {
			check(t, good[:n])
		}
		check(t, good[:len(good)-1])
	})
	t.Run("bit flips", func(t *testing.T) {
		r := rand.New(rand.NewSource(2))
		for i := 0; i < 300; i++ {
			b := bytes.Clone(good)
			b[r.Intn(len(b))] ^= byte(1 << r.Intn(8))
			check(t, b)
		}
	})
	t.Run("trailing garbage", func(t *testing.T) { check(t, append(bytes.Clone(good), 0)) })
}

// Structurally invalid input with a valid checksum must fail cleanly, never
// panic: re-sign random mutations of the body.
func TestDecodeFuzzResigned(t *testing.T) {
	f := richFS(t)
	// Keep file data small so mutations land in the structure.
	require.NoError(t, f.Truncate("/home/user/big.bin", 100))
	require.NoError(t, f.Truncate("/home/user/sparse", 10))
	var buf bytes.Buffer
	require.NoError(t, f.Encode(&buf))
	good := buf.Bytes()
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		b := bytes.Clone(good[:len(good)-4])
		for k := 0; k < 1+r.Intn(4); k++ {
			pos := 8 + r.Intn(len(b)-8)
			b[pos] = byte(r.Intn(256))
		}
		if r.Intn(4) == 0 {
			b = b[:8+r.Intn(len(b)-8)]
		}
		b = resign(b)
		g, err := Decode(bytes.NewReader(b), Options{})
		if err == nil {
			// Whatever decoded must be a consistent tree.
			_ = dump(t, g)
		} else {
			require.True(t, errors.Is(err, ErrCorrupt), err)
		}
	}
}

func TestDecodeRejectsCycles(t *testing.T) {
	// Hand-build: root → a (dir) → b (dir) → a again.
	f := New(Options{})
	require.NoError(t, f.MkdirAll("/a/b", 0o755))
	a := st(t, f, "/a").Ino
	b := f.mut(st(t, f, "/a/b").Ino)
	f.mutDir(b).entries["loop"] = a
	var buf bytes.Buffer
	require.NoError(t, f.Encode(&buf))
	_, err := Decode(&buf, Options{})
	require.ErrorIs(t, err, ErrCorrupt)
}

func TestEncodeWriterError(t *testing.T) {
	f := richFS(t)
	err := f.Encode(&failWriter{n: 100})
	require.Error(t, err)
	require.ErrorIs(t, err, syscall.EIO)
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, syscall.EIO
	}
	w.n -= len(p)
	return len(p), nil
}
