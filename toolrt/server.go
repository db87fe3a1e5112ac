package toolrt

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbeddedServer starts a NATS server inside this process, listening on addr
// (host:port; port 0 picks one); storeDir, when set, enables JetStream there.
func EmbeddedServer(addr, storeDir string) (*server.Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("toolrt: --nats-listen %s: %w", addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("toolrt: --nats-listen %s: bad port", addr)
	}
	if p == 0 {
		p = server.RANDOM_PORT
	}
	opts := &server.Options{Host: host, Port: p, NoSigs: true, NoLog: true, MaxPayload: 8 << 20}
	if storeDir != "" {
		opts.JetStream, opts.StoreDir = true, storeDir
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("toolrt: nats server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("toolrt: nats server on %s did not start", addr)
	}
	return s, nil
}
