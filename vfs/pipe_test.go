package vfs

import (
	"bytes"
	"io"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPipeBasic(t *testing.T) {
	r, w := Pipe(16)
	n, err := w.Write([]byte("hello"))
	require.NoError(t, err)
	require.Equal(t, 5, n)
	require.Equal(t, 5, r.Buffered())
	buf := make([]byte, 3)
	n, err = r.Read(buf)
	require.NoError(t, err)
	require.Equal(t, "hel", string(buf[:n]))
	require.NoError(t, w.Close())
	require.NoError(t, w.Close()) // idempotent
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Equal(t, "lo", string(got))
	n, err = r.Read(buf)
	require.Equal(t, io.EOF, err)
	require.Equal(t, 0, n)
}

func TestPipeNonBlocking(t *testing.T) {
	r, w := Pipe(8)
	_, err := r.TryRead(make([]byte, 4))
	require.Equal(t, syscall.EAGAIN, err)
	n, err := w.TryWrite([]byte("0123456789"))
	require.NoError(t, err)
	require.Equal(t, 8, n, "short write: what fits")
	_, err = w.TryWrite([]byte("x"))
	require.Equal(t, syscall.EAGAIN, err)
	buf := make([]byte, 5)
	n, err = r.TryRead(buf)
	require.NoError(t, err)
	require.Equal(t, "01234", string(buf[:n]))
	n, err = w.TryWrite([]byte("abcdef")) // wraps around the ring
	require.NoError(t, err)
	require.Equal(t, 5, n)
	all := make([]byte, 20)
	n, err = r.TryRead(all)
	require.NoError(t, err)
	require.Equal(t, "567abcde", string(all[:n]))
	w.Close()
	_, err = r.TryRead(all)
	require.Equal(t, io.EOF, err)
}

func TestPipeEPIPE(t *testing.T) {
	r, w := Pipe(4)
	done := make(chan error)
	go func() {
		_, err := w.Write([]byte("more than four bytes")) // blocks when full
		done <- err
	}()
	buf := make([]byte, 2)
	_, err := r.Read(buf)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	require.Equal(t, syscall.EPIPE, <-done)
	_, err = w.TryWrite([]byte("x"))
	require.Equal(t, syscall.EPIPE, err)
}

func TestPipeStream(t *testing.T) {
	r, w := Pipe(0)
	data := bytes.Repeat([]byte("0123456789abcdef"), 50000) // 800 KB through 64 KiB
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < len(data); i += 777 {
			end := min(i+777, len(data))
			if _, err := w.Write(data[i:end]); err != nil {
				t.Error(err)
				return
			}
		}
		w.Close()
	}()
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	wg.Wait()
	require.Equal(t, data, got)
	require.LessOrEqual(t, len(r.p.buf), DefaultPipeSize)
}
