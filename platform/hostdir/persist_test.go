//go:build !js

package hostdir

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wasmsand/wasmsand/vfs"
)

// failAfter passes n bytes through, then fails: a crash or full disk in the
// middle of a save.
type failAfter struct {
	w io.Writer
	n int
}

var errInjected = errors.New("injected write failure")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errInjected
	}
	f.n -= len(p)
	return f.w.Write(p)
}

func stateWith(t *testing.T, content string) *vfs.FS {
	f := vfs.NewDefault(vfs.Options{}, []string{"ls"})
	require.NoError(t, f.WriteFile("/home/user/doc.txt", []byte(content), 0o600))
	// Enough data that a save spans several writes.
	require.NoError(t, f.WriteFile("/home/user/big", bytes.Repeat([]byte(content), 100_000), 0o644))
	return f
}

func readDoc(t *testing.T, dir string) string {
	t.Helper()
	f, err := LoadDir(dir, vfs.Options{})
	require.NoError(t, err)
	b, err := f.ReadFile("/home/user/doc.txt")
	require.NoError(t, err)
	return string(b)
}

func TestSaveLoad(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, SaveDir(dir, stateWith(t, "A")))
	require.Equal(t, "A", readDoc(t, dir))
	require.NoError(t, SaveDir(dir, stateWith(t, "B")))
	require.Equal(t, "B", readDoc(t, dir))
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, ents, 1, "no temp files left behind")
	fi, err := os.Stat(filepath.Join(dir, StateFile))
	require.NoError(t, err)
	require.True(t, fi.Mode().IsRegular())
}

func TestSaveFailureKeepsPreviousSave(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, SaveDir(dir, stateWith(t, "A")))
	var enc bytes.Buffer
	require.NoError(t, stateWith(t, "B").Encode(&enc))
	size := enc.Len()
	// Fail everywhere from the first byte to the last byte of the checksum.
	for _, n := range []int{0, 1, 10, 1000, size / 2, size - 5, size - 1} {
		err := saveDir(dir, stateWith(t, "B"), func(w io.Writer) io.Writer { return &failAfter{w: w, n: n} })
		require.ErrorIs(t, err, errInjected, "n=%d", n)
		require.Equal(t, "A", readDoc(t, dir), "n=%d", n)
		ents, _ := os.ReadDir(dir)
		require.Len(t, ents, 1, "the failed temp file is removed")
	}
}

func TestCrashLeftoversIgnored(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, SaveDir(dir, stateWith(t, "A")))
	// A crash (kill -9, power loss) mid-save leaves a partial temp file that
	// nobody cleaned up: it must not affect loading.
	var full bytes.Buffer
	require.NoError(t, stateWith(t, "B").Encode(&full))
	partial := full.Bytes()[:full.Len()/2]
	require.NoError(t, os.WriteFile(filepath.Join(dir, tmpPrefix+"123"), partial, 0o600))
	require.Equal(t, "A", readDoc(t, dir))
	// The next successful save removes it.
	require.NoError(t, SaveDir(dir, stateWith(t, "C")))
	require.Equal(t, "C", readDoc(t, dir))
	ents, _ := os.ReadDir(dir)
	require.Len(t, ents, 1)
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadDir(dir, vfs.Options{})
	require.ErrorIs(t, err, fs.ErrNotExist)

	require.NoError(t, SaveDir(dir, stateWith(t, "A")))
	p := filepath.Join(dir, StateFile)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, b[:len(b)-100], 0o600))
	_, err = LoadDir(dir, vfs.Options{})
	require.ErrorIs(t, err, vfs.ErrCorrupt)
	require.True(t, strings.Contains(err.Error(), StateFile), err.Error())

	b[len(b)/2] ^= 0x40
	require.NoError(t, os.WriteFile(p, b, 0o600))
	_, err = LoadDir(dir, vfs.Options{})
	require.ErrorIs(t, err, vfs.ErrCorrupt)

	require.Error(t, SaveDir(filepath.Join(dir, "missing"), stateWith(t, "A")))
}

func TestSaveLoadPreservesTree(t *testing.T) {
	dir := t.TempDir()
	f := vfs.NewDefault(vfs.Options{}, []string{"ls", "cat"})
	require.NoError(t, f.Symlink("/bin/ls", "/home/user/ls"))
	require.NoError(t, f.Link("/bin/cat", "/home/user/cat"))
	require.NoError(t, f.Mkfifo("/tmp/p", 0o600))
	require.NoError(t, SaveDir(dir, f))
	g, err := LoadDir(dir, vfs.Options{MaxBytes: 1 << 20})
	require.NoError(t, err)
	var a, b bytes.Buffer
	require.NoError(t, f.Encode(&a))
	require.NoError(t, g.Encode(&b))
	require.Equal(t, a.Bytes(), b.Bytes())
	fi, err := g.Lstat("/home/user/cat")
	require.NoError(t, err)
	require.Equal(t, uint64(2), fi.Sys().(*vfs.Stat).Nlink)
}

// A mapped load gives the same tree as a read one; the tree can be written, and
// keeps its contents when the state file is truncated or rewritten under it.
func TestLoadDirMapped(t *testing.T) {
	dir := t.TempDir()
	src := vfs.New(vfs.Options{})
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16)
	require.NoError(t, src.WriteFile("/big", big, 0o644))
	require.NoError(t, src.WriteFile("/small", []byte("hi"), 0o600))
	require.NoError(t, SaveDir(dir, src))

	fsys, err := LoadDirMapped(dir, vfs.Options{})
	require.NoError(t, err)
	require.NoError(t, os.Truncate(filepath.Join(dir, StateFile), 0))
	got, err := fsys.ReadFile("/big")
	require.NoError(t, err)
	require.Equal(t, big, got)
	f, err := fsys.OpenFile("/big", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("XY"), 5)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	got, _ = fsys.ReadFile("/big")
	require.Equal(t, "01234XY789", string(got[:10]))

	_, err = LoadDirMapped(t.TempDir(), vfs.Options{})
	require.ErrorIs(t, err, fs.ErrNotExist)
}
