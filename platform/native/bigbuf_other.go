//go:build !linux

package native

// Elsewhere big linear memories come from the Go heap like small ones (see bigbuf_linux.go).

func bigBuf(int) []byte { return nil }

func putBigBuf(int, []byte) bool { return false }

func prefault([]byte) {}
