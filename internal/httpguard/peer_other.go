//go:build !linux

package httpguard

import "net"

// loopbackPeerUID: only Linux tells (peer_linux.go).
func loopbackPeerUID(_, _ *net.TCPAddr) (int, bool) { return 0, false }
