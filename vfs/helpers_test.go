package vfs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock advances one second per call so time updates are observable.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func newTestFS(t testing.TB) (*FS, *fakeClock) {
	t.Helper()
	c := &fakeClock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	return New(Options{Now: c.Now}), c
}

func errnoOf(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}

// requireErrno checks the contract: *fs.PathError wrapping the errno.
func requireErrno(t testing.TB, want syscall.Errno, err error, msgAndArgs ...any) {
	t.Helper()
	require.Error(t, err, msgAndArgs...)
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe, msgAndArgs...)
	require.Equal(t, want, errnoOf(err), append([]any{"got %v"}, err))
}

func mustWrite(t testing.TB, f *FS, name, content string) {
	t.Helper()
	require.NoError(t, f.WriteFile(name, []byte(content), 0o644))
}

func mustRead(t testing.TB, f *FS, name string) string {
	t.Helper()
	b, err := f.ReadFile(name)
	require.NoError(t, err)
	return string(b)
}

func st(t testing.TB, f *FS, name string) *Stat {
	t.Helper()
	fi, err := f.Lstat(name)
	require.NoError(t, err)
	return fi.Sys().(*Stat)
}

type timeT = time.Time

func timeNow() time.Time { return time.Now() }

func sprint(a ...any) string { return fmt.Sprint(a...) }

// resign recomputes the CRC trailer of an encoded body.
func resign(body []byte) []byte {
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(body, crcTable))
	return append(body, sum[:]...)
}
