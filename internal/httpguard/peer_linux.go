package httpguard

import (
	"encoding/binary"
	"encoding/hex"
	"net"
	"os"
	"strconv"
	"strings"
)

// loopbackPeerUID finds the owner of the socket whose local address is
// remote and whose remote address is local (the peer's side of this
// connection) in /proc/net/tcp or tcp6.
func loopbackPeerUID(local, remote *net.TCPAddr) (int, bool) {
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		lines := strings.Split(string(b), "\n")
		for _, l := range lines[min(1, len(lines)):] {
			fs := strings.Fields(l)
			if len(fs) < 8 {
				continue
			}
			if !sameAddr(fs[1], remote) || !sameAddr(fs[2], local) {
				continue
			}
			if uid, err := strconv.Atoi(fs[7]); err == nil {
				return uid, true
			}
		}
	}
	return 0, false
}

// sameAddr compares /proc/net/tcp's "HEXIP:HEXPORT" (the address in 32-bit
// words of host order) with a.
func sameAddr(s string, a *net.TCPAddr) bool {
	h, p, ok := strings.Cut(s, ":")
	if !ok {
		return false
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil || int(port) != a.Port {
		return false
	}
	raw, err := hex.DecodeString(h)
	if err != nil || len(raw)%4 != 0 {
		return false
	}
	ip := make(net.IP, len(raw))
	for i := 0; i < len(raw); i += 4 {
		binary.BigEndian.PutUint32(ip[i:], binary.LittleEndian.Uint32(raw[i:]))
	}
	return ip.Equal(a.IP)
}
