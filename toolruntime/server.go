package toolruntime

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// startServer starts a server with opts and waits until it takes
// connections.
func startServer(opts *server.Options, addr string) (*server.Server, error) {
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("toolruntime: nats server: %w", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("toolruntime: nats server on %s did not start", addr)
	}
	return s, nil
}
