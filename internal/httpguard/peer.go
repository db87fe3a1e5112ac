package httpguard

import (
	"context"
	"net"
	"net/http"
	"os"
)

// On loopback without a token, a server is reachable by every local user of
// the machine, not only its operator: with SameUser the front door answers
// only connections whose other end is a process of the server's own user
// (or root), as Linux tells in /proc/net/tcp{,6}; elsewhere it cannot tell
// and lets them in.

type peerKey struct{}

// ConnContext is http.Server.ConnContext for SameUser: it notes the uid of
// the process at the other end of a loopback connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	l, ok1 := c.LocalAddr().(*net.TCPAddr)
	r, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 || !r.IP.IsLoopback() {
		return ctx
	}
	if uid, ok := loopbackPeerUID(l, r); ok {
		return context.WithValue(ctx, peerKey{}, uid)
	}
	return ctx
}

// sameUser: the request came from this user's (or root's) process, or
// from a peer this platform cannot tell.
func sameUser(r *http.Request) bool {
	uid, ok := r.Context().Value(peerKey{}).(int)
	return !ok || uid == os.Getuid() || uid == 0
}
