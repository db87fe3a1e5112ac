package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/internal/httpguard"
	"github.com/wasmsand/wasmsand/service"
)

// serveOptions are `wasmsand serve`'s own flags.
type serveOptions struct {
	listen       string
	tokens       multiFlag
	maxSessions  int
	maxSnapshots int
	maxMemoryMB  int64
	idleTTL      time.Duration
	maxBodyMB    int64
	clientPolicy bool
	front        httpFront
	cluster      clusterOptions
}

// httpFront is what serve and mcp --listen accept beyond loopback names
// and no page at all (internal/httpguard).
type httpFront struct {
	allowHosts, allowOrigins multiFlag
}

// guard puts h behind the servers' one front door; a server without a
// token answers only its own user's processes (sameUser).
func (f httpFront) guard(listen string, raw func(*http.Request) bool, sameUser bool, h http.Handler) http.Handler {
	split := func(m multiFlag) (out []string) {
		for _, v := range m {
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			}
		}
		return out
	}
	return httpguard.Handler(httpguard.Options{Listen: listen, AllowHosts: split(f.allowHosts),
		AllowOrigins: split(f.allowOrigins), RawBody: raw, SameUser: sameUser}, h)
}

// newService is the HTTP service over sandboxes made from the CLI's
// options: a create request may lower the limits and add variables.
func newService(o *cliOptions, so *serveOptions, node *cluster.Node) *service.Server {
	return service.New(service.Options{
		NewSandbox: func(ctx context.Context, req service.CreateRequest, onEvent func(core.Event)) (*core.Sandbox, error) {
			c := o.clone()
			if req.Policy != "" {
				if !so.clientPolicy {
					return nil, &core.Error{Code: core.CodePermission, Op: "create", Err: errors.New("policy: this service does not take a client's policy (wasmsand serve --client-policy)")}
				}
				// (the client's document replaces the operator's, whose
				// limits and network stay the most it may have)
				c.policyText, c.secrets = req.Policy, nil
			}
			if d := time.Duration(req.TimeoutMs) * time.Millisecond; d > 0 && d < c.timeout {
				c.timeout = d
			}
			if req.MemoryMB > 0 && req.MemoryMB < c.memory {
				c.memory = req.MemoryMB
			}
			for k, v := range req.Env {
				c.envs = append(c.envs, k+"="+v)
			}
			c.onEvent = onEvent
			return setup(ctx, c)
		},
		Tokens:       so.tokens,
		MaxSessions:  so.maxSessions,
		MaxSnapshots: so.maxSnapshots,
		MaxMemory:    so.maxMemoryMB << 20,
		IdleTTL:      so.idleTTL,
		MaxBody:      so.maxBodyMB << 20,
		Cluster:      node,
		IdleEvict:    so.cluster.idleEvict,
	})
}

// serveHandler is the service behind the servers' front door.
func serveHandler(so *serveOptions, svc *service.Server) http.Handler {
	return so.front.guard(so.listen, service.RawBody, len(so.tokens) == 0, svc.Handler())
}

func serveHTTP(o *cliOptions, so *serveOptions, stderr io.Writer) int {
	softMemoryLimit()
	if env := os.Getenv("WASMSAND_TOKENS"); env != "" {
		for _, t := range strings.Split(env, ",") {
			if t = strings.TrimSpace(t); t != "" {
				so.tokens = append(so.tokens, t)
			}
		}
	}
	if local, err := loopback(so.listen); err != nil {
		fmt.Fprintf(stderr, "wasmsand serve: --listen %s: %v\n", so.listen, err)
		return exitUsage
	} else if !local && len(so.tokens) == 0 {
		fmt.Fprintf(stderr, "wasmsand serve: --listen %s is reachable from other machines: give bearer tokens (--token, or $WASMSAND_TOKENS)\n", so.listen)
		return exitUsage
	} else if so.cluster.on() && !so.cluster.localNATS() && len(so.tokens) == 0 {
		// (the other nodes forward requests: a session's token is its key)
		fmt.Fprintf(stderr, "wasmsand serve: --nats %s is on other machines: give bearer tokens (--token, or $WASMSAND_TOKENS)\n", so.cluster.nats)
		return exitUsage
	}
	if _, err := o.assetPrograms(context.Background()); err != nil { // (once, for every session)
		fmt.Fprintln(stderr, err)
		return exitSetup
	}
	var node *cluster.Node
	var leaveCluster func()
	if so.cluster.on() {
		n, leave, err := so.cluster.join("serve", stderr)
		if err != nil {
			fmt.Fprintln(stderr, "wasmsand serve:", err)
			return exitSetup
		}
		leaveCluster = leave
		node = n
	}
	svc := newService(o, so, node)
	// (the node leaves first: it stops taking forwarded requests and
	// answers those in progress, then the sessions close)
	defer func() {
		if leaveCluster != nil {
			leaveCluster()
		}
		svc.Close()
	}()
	l, err := net.Listen("tcp", so.listen)
	if err != nil {
		fmt.Fprintln(stderr, "wasmsand serve:", err)
		return exitSetup
	}
	if node != nil {
		if err := node.Serve(svc.Handler()); err != nil {
			fmt.Fprintln(stderr, "wasmsand serve:", err)
			return exitSetup
		}
		fmt.Fprintf(stderr, "wasmsand serve: node %s of the cluster\n", node.Name())
	}
	fmt.Fprintf(stderr, "wasmsand serve: serving on http://%s (API: http://%s%s)\n", l.Addr(), l.Addr(), service.OpenAPIPath)
	hs := &http.Server{Handler: serveHandler(so, svc), ConnContext: httpguard.ConnContext, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}
	return serveUntilStopped("serve", hs, l, svc.Drain, stderr)
}

// serveUntilStopped serves l until it fails or a SIGTERM (or SIGINT) comes;
// then, for a rolling restart, it takes no more connections while drain
// hands the node's sessions to its cluster (each after its run in
// progress), and waits for both.
func serveUntilStopped(who string, hs *http.Server, l net.Listener, drain func(context.Context), stderr io.Writer) int {
	served := make(chan error, 1)
	go func() { served <- hs.Serve(l) }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sig)
	select {
	case err := <-served:
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "wasmsand %s: %v\n", who, err)
			return 1
		}
		return 0
	case <-sig:
	}
	fmt.Fprintf(stderr, "wasmsand %s: draining\n", who)
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	shut := make(chan struct{})
	// (concurrently: an MCP session's event stream ends only when drain
	// closes the session)
	go func() { _ = hs.Shutdown(ctx); close(shut) }()
	drain(ctx)
	t1 := time.Now()
	<-shut
	fmt.Fprintf(stderr, "wasmsand %s: drained in %v (connections closed after %v more)\n", who, t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
	return 0
}
