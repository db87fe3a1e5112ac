// Package natstest starts NATS servers with JetStream inside a test: one,
// or a cluster of several with routes between them, on loopback ports.
package natstest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Cluster starts n servers (n ≥ 1) routed to each other as one JetStream
// cluster, and returns their client URLs joined by commas (what
// nats.Connect takes). They stop when the test ends.
func Cluster(t testing.TB, n int) string {
	t.Helper()
	urls, stop, err := Start(n, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return urls
}

// Start is Cluster outside a test (a benchmark): JetStream keeps its
// files under dir; stop shuts the servers down.
func Start(n int, dir string) (urls string, stop func(), err error) {
	clusterPorts := make([]int, n)
	for i := range clusterPorts {
		if clusterPorts[i], err = freePort(); err != nil {
			return "", nil, err
		}
	}
	var routes []*url.URL
	for _, p := range clusterPorts {
		routes = append(routes, &url.URL{Scheme: "nats", Host: fmt.Sprintf("127.0.0.1:%d", p)})
	}
	var list []string
	var servers []*server.Server
	stop = func() {
		for _, s := range servers {
			s.Shutdown()
		}
	}
	for i := range n {
		opts := &server.Options{ServerName: fmt.Sprintf("n%d", i), Host: "127.0.0.1", Port: server.RANDOM_PORT,
			NoSigs: true, NoLog: true, JetStream: true, StoreDir: filepath.Join(dir, fmt.Sprintf("n%d", i)), MaxPayload: 8 << 20}
		if n > 1 {
			opts.Cluster = server.ClusterOpts{Name: "wasmsand-test", Host: "127.0.0.1", Port: clusterPorts[i]}
			opts.Routes = routes
		}
		s, err := server.NewServer(opts)
		if err != nil {
			stop()
			return "", nil, err
		}
		go s.Start()
		servers = append(servers, s)
	}
	for _, s := range servers {
		if !s.ReadyForConnections(20 * time.Second) {
			stop()
			return "", nil, errors.New("natstest: a server did not start")
		}
		list = append(list, s.ClientURL())
	}
	if n > 1 {
		// (JetStream answers once the cluster has a meta leader)
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if servers[0].JetStreamIsClustered() && servers[0].JetStreamIsCurrent() {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return strings.Join(list, ","), stop, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
