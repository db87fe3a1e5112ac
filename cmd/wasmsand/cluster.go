package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/toolruntime"
)

// clusterOptions are the flags that make serve and mcp nodes of a cluster.
type clusterOptions struct {
	nats       string        // URL(s) of the NATS servers (comma-separated)
	natsListen string        // or an embedded server, here (loopback)
	natsStore  string        // the embedded server's JetStream directory
	natsRoute  string        // the embedded server's cluster port (loopback), for
	natsRoutes string        // the other embedded servers' (nats://HOST:PORT,...)
	natsCreds  string        // credentials: a NATS .creds file, or user:password
	node       string        // this node's name
	prefix     string        // buckets' and subjects' prefix
	replicas   int           // JetStream replicas
	leaseTTL   time.Duration // how long a silent node keeps its sessions
	idleEvict  time.Duration // evict idle sessions to the store
}

func (c *clusterOptions) flags(fl *flag.FlagSet) {
	fl.StringVar(&c.nats, "nats", "", "")
	fl.StringVar(&c.natsListen, "nats-listen", "", "")
	fl.StringVar(&c.natsStore, "nats-store", "", "")
	fl.StringVar(&c.natsRoute, "nats-cluster", "", "")
	fl.StringVar(&c.natsRoutes, "nats-routes", "", "")
	fl.StringVar(&c.natsCreds, "nats-creds", "", "")
	fl.StringVar(&c.node, "node", "", "")
	fl.StringVar(&c.prefix, "cluster-prefix", "wasmsand", "")
	fl.IntVar(&c.replicas, "nats-replicas", 1, "")
	fl.DurationVar(&c.leaseTTL, "lease-ttl", 10*time.Second, "")
	fl.DurationVar(&c.idleEvict, "idle-evict", 0, "")
}

// on tells whether the flags ask for a cluster.
func (c *clusterOptions) on() bool { return c.nats != "" || c.natsListen != "" }

// localNATS tells whether every NATS server named is on this machine.
func (c *clusterOptions) localNATS() bool {
	if c.natsListen != "" {
		return true
	}
	for _, u := range strings.Split(c.nats, ",") {
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil {
			return false
		}
		if !loopbackHost(p.Hostname()) {
			return false
		}
	}
	return true
}

// join connects (or starts the embedded server) and joins the cluster; the
// returned function leaves it.
func (c *clusterOptions) join(who string, stderr io.Writer) (*cluster.Node, func(), error) {
	if c.nats != "" && c.natsListen != "" {
		return nil, nil, errors.New("--nats or --nats-listen, not both")
	}
	var closers []func()
	done := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	urls := c.nats
	if c.natsListen != "" {
		host, _, err := net.SplitHostPort(c.natsListen)
		if err != nil {
			return nil, nil, fmt.Errorf("--nats-listen %s: %v", c.natsListen, err)
		}
		if !loopbackHost(host) {
			return nil, nil, fmt.Errorf("--nats-listen %s: the embedded server takes this machine's connections only (a cluster across machines uses --nats with its own NATS servers)", c.natsListen)
		}
		dir := c.natsStore
		if dir == "" {
			base, err := os.UserCacheDir()
			if err != nil {
				base = os.TempDir()
			}
			dir = filepath.Join(base, "wasmsand", "nats-"+c.prefix+"-"+strings.ReplaceAll(c.natsListen, ":", "-"))
		}
		s, err := c.embedded(dir)
		if err != nil {
			return nil, nil, err
		}
		closers = append(closers, s.Shutdown)
		urls = s.ClientURL()
	}
	opts := []nats.Option{nats.Name("wasmsand-" + who), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true)}
	if c.natsCreds != "" {
		b, err := os.ReadFile(c.natsCreds)
		if err != nil {
			done()
			return nil, nil, fmt.Errorf("--nats-creds: %v", err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts = append(opts, nats.UserCredentials(c.natsCreds))
		} else {
			cr, err := toolruntime.ReadCredentials(c.natsCreds)
			if err != nil {
				done()
				return nil, nil, fmt.Errorf("--nats-creds: %v", err)
			}
			opts = append(opts, nats.UserInfo(cr.User, cr.Password))
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	nc, err := nats.Connect(urls, opts...)
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("nats %s: %v", urls, err)
	}
	closers = append(closers, nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := cluster.Join(ctx, cluster.Options{Conn: nc, Name: c.node, Prefix: c.prefix, Replicas: c.replicas,
		LeaseTTL: c.leaseTTL, Log: log})
	if err != nil {
		done()
		return nil, nil, err
	}
	closers = append(closers, n.Close)
	return n, done, nil
}

// embedded starts the NATS server of --nats-listen: alone, or with
// --nats-cluster and --nats-routes one of a cluster of such servers (each
// node's own), all on this machine.
func (c *clusterOptions) embedded(dir string) (*server.Server, error) {
	if c.natsRoute == "" {
		if c.natsRoutes != "" {
			return nil, errors.New("--nats-routes needs --nats-cluster (this server's own cluster address)")
		}
		return toolruntime.EmbeddedServer(c.natsListen, dir, nil)
	}
	if c.node == "" {
		return nil, errors.New("--nats-cluster needs --node NAME (the server's name in the cluster)")
	}
	host, port, err := hostPort(c.natsListen)
	if err != nil {
		return nil, fmt.Errorf("--nats-listen %s: %v", c.natsListen, err)
	}
	chost, cport, err := hostPort(c.natsRoute)
	if err != nil {
		return nil, fmt.Errorf("--nats-cluster %s: %v", c.natsRoute, err)
	}
	if !loopbackHost(chost) {
		return nil, fmt.Errorf("--nats-cluster %s: an embedded cluster stays on this machine (across machines, run NATS servers and give --nats)", c.natsRoute)
	}
	opts := &server.Options{ServerName: c.node, Host: host, Port: port, NoSigs: true, NoLog: true, MaxPayload: 8 << 20,
		JetStream: true, StoreDir: dir, Cluster: server.ClusterOpts{Name: c.prefix, Host: chost, Port: cport}}
	for _, r := range strings.Split(c.natsRoutes, ",") {
		if r = strings.TrimSpace(r); r == "" {
			continue
		}
		u, err := url.Parse(r)
		if err != nil || u.Scheme != "nats" || !loopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("--nats-routes: %q: nats://HOST:PORT on this machine", r)
		}
		opts.Routes = append(opts.Routes, u)
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	go s.Start()
	if !s.ReadyForConnections(30 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("the embedded NATS server on %s did not start", c.natsListen)
	}
	return s, nil
}

func hostPort(addr string) (string, int, error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	var port int
	if _, err := fmt.Sscan(p, &port); err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port %q", p)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return h, port, nil
}

func loopbackHost(h string) bool {
	ip := net.ParseIP(h)
	return h == "localhost" || (ip != nil && ip.IsLoopback())
}
