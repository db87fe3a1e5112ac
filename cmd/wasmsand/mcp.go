package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/httpguard"
	"github.com/wasmsand/wasmsand/mcpserver"
)

// mcpOptions are `wasmsand mcp`'s own flags.
type mcpOptions struct {
	listen, token string
	shared        bool
	front         httpFront
	maxSessions   int
	maxSnapshots  int
	maxMemoryMB   int64
	cluster       clusterOptions
}

// serveMCP serves the MCP tools (mcpserver) on stdin/stdout, or on
// streamable HTTP at --listen, each MCP session with its own sandbox made
// from the CLI's options (and policy).
func serveMCP(o *cliOptions, m *mcpOptions, stdin io.Reader, stdout, stderr io.Writer) int {
	softMemoryLimit()
	if m.token == "" {
		m.token = os.Getenv("WASMSAND_MCP_TOKEN")
	}
	if _, err := o.assetPrograms(context.Background()); err != nil { // (once, for every session)
		fmt.Fprintln(stderr, err)
		return exitSetup
	}
	var node *cluster.Node
	var leaveCluster func()
	if m.cluster.on() {
		if m.listen == "" {
			fmt.Fprintln(stderr, "wasmsand mcp: a cluster (--nats, --nats-listen) serves streamable HTTP: give --listen")
			return exitUsage
		}
		if !m.cluster.localNATS() && m.token == "" {
			fmt.Fprintf(stderr, "wasmsand mcp: --nats %s is on other machines: give a bearer token (--token, or $WASMSAND_MCP_TOKEN)\n", m.cluster.nats)
			return exitUsage
		}
		n, leave, err := m.cluster.join("mcp", stderr)
		if err != nil {
			fmt.Fprintln(stderr, "wasmsand mcp:", err)
			return exitSetup
		}
		leaveCluster = leave
		node = n
	}
	srv := mcpserver.New(mcpserver.Options{
		NewSandbox:  func(ctx context.Context) (*core.Sandbox, error) { return setup(ctx, o.clone()) },
		Shared:      m.shared,
		Limits:      describeLimits(o),
		Version:     version,
		MaxSessions: m.maxSessions, MaxSnapshots: m.maxSnapshots, MaxMemory: m.maxMemoryMB << 20,
		Cluster: node, Token: m.token,
	})
	// (the node leaves first: it stops taking forwarded requests and
	// answers those in progress, then the sessions close)
	defer func() {
		if leaveCluster != nil {
			leaveCluster()
		}
		srv.Close()
	}()
	ctx := context.Background()
	if m.listen == "" {
		t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{stdout}}
		if err := srv.MCP().Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "wasmsand mcp:", err)
			return 1
		}
		return 0
	}
	if local, err := loopback(m.listen); err != nil {
		fmt.Fprintf(stderr, "wasmsand mcp: --listen %s: %v\n", m.listen, err)
		return exitUsage
	} else if !local && m.token == "" {
		fmt.Fprintf(stderr, "wasmsand mcp: --listen %s is reachable from other machines: give a bearer token (--token, or $WASMSAND_MCP_TOKEN)\n", m.listen)
		return exitUsage
	}
	l, err := net.Listen("tcp", m.listen)
	if err != nil {
		fmt.Fprintln(stderr, "wasmsand mcp:", err)
		return exitSetup
	}
	if node != nil {
		if err := node.Serve(mcpHandler(srv, m.token)); err != nil {
			fmt.Fprintln(stderr, "wasmsand mcp:", err)
			return exitSetup
		}
		fmt.Fprintf(stderr, "wasmsand mcp: node %s of the cluster\n", node.Name())
	}
	fmt.Fprintf(stderr, "wasmsand mcp: serving on http://%s/mcp\n", l.Addr())
	hs := &http.Server{Handler: m.front.guard(m.listen, nil, m.token == "", mcpHandler(srv, m.token)), ConnContext: httpguard.ConnContext, ReadHeaderTimeout: 10 * time.Second}
	return serveUntilStopped("mcp", hs, l, srv.Drain, stderr)
}

// mcpHandler is streamable HTTP at /mcp (and /), behind the bearer token
// when there is one; serveMCP puts it behind the servers' front door.
func mcpHandler(srv *mcpserver.Server, token string) http.Handler {
	// (the SDK's own Host check knows loopback names only: httpguard, in
	// front of this, does it with the operator's --allow-host names too)
	h := srv.Affinity(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.MCP() },
		&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="wasmsand"`)
				http.Error(w, `{"code": "unauthorized", "message": "a bearer token is required"}`, http.StatusUnauthorized)
				return
			}
		}
		if r.URL.Path != "/" && r.URL.Path != "/mcp" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// loopback tells whether a listen address is reachable from this machine
// only (the servers need a token otherwise).
func loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	return loopbackHost(host), nil
}

// describeLimits tells models what the sandbox allows.
func describeLimits(o *cliOptions) string {
	net := "no network"
	if len(o.allowNet) > 0 {
		net = "network only to " + strings.Join(o.allowNet, ", ")
	} else if o.policyFile != "" {
		net = "network as the operator's policy allows"
	}
	return fmt.Sprintf("%v per run, %d MB of memory per program, %s", o.timeout, o.memory, net)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
