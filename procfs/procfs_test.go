package procfs

import (
	"io"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testTable() *Table {
	boot := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := boot.Add(90 * time.Second)
	t := NewTable(func() time.Time { return now }, func() System {
		return System{Boot: boot, MemoryLimit: 64 << 20, Users: map[int]string{1000: "user"}}
	})
	t.Set(Process{Pid: 1, Argv: []string{"bash"}, Cwd: "/home/user", Uid: 1000, Gid: 1000, Start: boot})
	t.Set(Process{Pid: 7, PPid: 1, Argv: []string{"/usr/bin/sleep", "30"}, Env: []string{"A=1", "B=2"},
		Cwd: "/tmp", Exe: "/usr/bin/sleep", Uid: 1000, Gid: 1000, Start: boot.Add(60 * time.Second)})
	return t
}

func readAll(t *testing.T, f *FS, name string) string {
	t.Helper()
	file, err := f.Open(name)
	require.NoError(t, err)
	defer file.Close()
	b, err := io.ReadAll(file)
	require.NoError(t, err)
	return string(b)
}

func TestFS(t *testing.T) {
	f := NewFS(testTable())
	assert.Equal(t, "/usr/bin/sleep\x0030\x00", readAll(t, f, "7/cmdline"))
	assert.Equal(t, "A=1\x00B=2\x00", readAll(t, f, "7/environ"))
	assert.Equal(t, "sleep\n", readAll(t, f, "7/comm"))
	assert.Contains(t, readAll(t, f, "7/status"), "Name:\tsleep\n")
	assert.Contains(t, readAll(t, f, "7/status"), "PPid:\t1\n")
	assert.True(t, strings.HasPrefix(readAll(t, f, "7/stat"), "7 (sleep) S 1 "))
	assert.Len(t, strings.Fields(readAll(t, f, "7/stat")), 52)
	assert.Equal(t, "MemTotal:          65536 kB\n", strings.SplitAfter(readAll(t, f, "meminfo"), "\n")[0])
	assert.Equal(t, "90.00 90.00\n", readAll(t, f, "uptime"))
	assert.Equal(t, "bash\n", readAll(t, f, "self/comm"), "self is the session shell")

	for name, want := range map[string]string{"self": "1", "7/cwd": "/tmp", "7/exe": "/usr/bin/sleep", "7/fd/1": "pipe:[1]"} {
		got, err := f.Readlink(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	_, err := f.Readlink("meminfo")
	assert.ErrorIs(t, err, syscall.EINVAL)

	fi, err := f.Stat("self")
	require.NoError(t, err)
	assert.True(t, fi.IsDir(), "stat follows self to its pid")
	fi, err = f.Lstat("self")
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, fi.Mode().Type())

	_, err = f.Open("8/status")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	_, err = f.Open("1/nosuch")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	dir, err := f.Open(".")
	require.NoError(t, err)
	entries, err := dir.(fs.ReadDirFile).ReadDir(-1)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Contains(t, names, "1")
	assert.Contains(t, names, "7")
	assert.Contains(t, names, "meminfo")
}

// Any name a guest can send: no panic, and only fs errors.
func FuzzFS(f *testing.F) {
	for _, s := range []string{".", "self", "self/fd/1", "7/cwd", "7/fd", "1/stat", "sys/kernel/pid_max",
		"999999999/status", "7/fd/99999999999", "self/self", "../7", "7/status/x", ""} {
		f.Add(s)
	}
	fsys := NewFS(testTable())
	f.Fuzz(func(t *testing.T, name string) {
		if file, err := fsys.Open(name); err == nil {
			if d, ok := file.(fs.ReadDirFile); ok {
				_, _ = d.ReadDir(-1)
			}
			_, _ = io.ReadAll(file)
			file.Close()
		}
		_, _ = fsys.Stat(name)
		_, _ = fsys.Lstat(name)
		_, _ = fsys.Readlink(name)
	})
}
