package vfs

import (
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestNewDefaultLayout(t *testing.T) {
	f := NewDefault(Options{}, []string{"ls", "cat", "bad/name", "ls", ""})
	for _, d := range []string{"/bin", "/usr/bin", "/usr/local/bin", "/home/user", "/tmp", "/mnt", "/etc", "/dev", "/dev/fd"} {
		fi, err := f.Stat(d)
		require.NoError(t, err, d)
		require.True(t, fi.IsDir(), d)
	}
	require.Equal(t, fs.ModeDir|fs.ModeSticky|0o777, st(t, f, "/tmp").Mode)
	require.Equal(t, uint32(1000), st(t, f, "/home/user").Uid)
	require.Equal(t, uint32(0), st(t, f, "/").Uid)
	require.Equal(t, uint32(0), st(t, f, "/etc/passwd").Uid)
	for _, p := range []string{"/bin/ls", "/usr/bin/ls", "/bin/cat", "/usr/bin/cat"} {
		require.Equal(t, fs.FileMode(0o755), st(t, f, p).Mode, p)
	}
	require.Equal(t, "#!wasmsand ls\n", mustRead(t, f, "/bin/ls"))
	require.NotEqual(t, st(t, f, "/bin/ls").Ino, st(t, f, "/usr/bin/ls").Ino)
	ents, err := f.ReadDir("/bin")
	require.NoError(t, err)
	require.Equal(t, []string{"cat", "ls"}, names(ents))
	require.Contains(t, mustRead(t, f, "/etc/passwd"), "user:x:1000:1000")
	require.Contains(t, mustRead(t, f, "/etc/group"), "user:x:1000:")
	require.Equal(t, "wasmsand\n", mustRead(t, f, "/etc/hostname"))
	for _, d := range []string{"null", "zero", "random", "urandom", "stdin", "stdout", "stderr"} {
		require.Equal(t, fs.ModeCharDevice, st(t, f, "/dev/"+d).Mode&fs.ModeCharDevice, d)
	}
}

func TestNewDefaultIndependent(t *testing.T) {
	cmds := []string{"ls", "cat"}
	a := NewDefault(Options{MaxBytes: 1 << 20}, cmds)
	b := NewDefault(Options{}, cmds)
	mustWrite(t, a, "/bin/ls", "hacked")
	require.NoError(t, a.RemoveAll("/etc"))
	require.Equal(t, "#!wasmsand ls\n", mustRead(t, b, "/bin/ls"))
	require.Equal(t, "wasmsand\n", mustRead(t, b, "/etc/hostname"))
	c := NewDefault(Options{}, cmds)
	require.Equal(t, "#!wasmsand ls\n", mustRead(t, c, "/bin/ls"))
	requireErrno(t, 28 /* ENOSPC */, a.WriteFile("/tmp/big", make([]byte, 2<<20), 0o644))

	// A caller clock is honoured (fresh build).
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	d := NewDefault(Options{Now: func() time.Time { return at }}, cmds)
	require.True(t, st(t, d, "/bin/ls").Mtime.Equal(at))
}

func manyCommands(n int) []string {
	cmds := make([]string, n)
	for i := range cmds {
		cmds[i] = fmt.Sprintf("cmd%03d", i)
	}
	return cmds
}
