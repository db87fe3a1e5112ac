package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	neturl "net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/policy"
	"github.com/wasmsand/wasmsand/toolruntime"
)

const workerUsage = `usage:
  wasmsand worker --manifest FILE [--nats URL | --nats-listen ADDR [--nats-store DIR]] [--tools DIR]
                  [--namespace NS] [--artifacts DIR] [--concurrency N] [--sign-key FILE]
                  [--rate N] [--max-payload BYTES] [--audit FILE] [--policy FILE] [--assets DIR]
                  [--durable [--ack-wait DURATION]] [--artifact-store nats] [--index URL]
                  [--nats-users FILE] [--nats-creds FILE]
      serve the manifest's tools over NATS, each invocation in a fresh sandbox; without
      --nats an embedded NATS server listens on --nats-listen (default 127.0.0.1:4222),
      taking only this worker, the operator (credentials written to
      ~/.config/wasmsand/operator-HOST-PORT.creds, 0600) and the agents of --nats-users
      (user:password lines), each of which invokes only as itself and reads only its
      own answers;
      --durable takes them from a JetStream work queue (a job outlives its worker);
      --artifact-store nats keeps artifacts in a JetStream object store (else --artifacts
      DIR, else memory); invoke then sends its --artifact files by reference; the
      tools' python packages are installed at start-up from --index (PEP 503)
  wasmsand invoke [--nats URL] [--namespace NS] TOOL [--args JSON] [--artifact NAME=PATH]...
                  [--user ID] [--session ID] [--timeout SECONDS] [--sign-key FILE] [--durable]
                  [--artifact-store nats] [--nats-creds FILE]
      call a tool: its result on stdout (exit 0), or its error on stderr (exit 1);
      --nats-creds (default ~/.config/wasmsand/operator-HOST-PORT.creds of --nats): the user
      the bus knows this client as; with --sign-key, only answers the worker signed count
`

// toolWorker is `wasmsand worker`.
func toolWorker(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("wasmsand worker", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	manifest := fl.String("manifest", "", "")
	natsURL := fl.String("nats", "", "")
	listen := fl.String("nats-listen", "127.0.0.1:4222", "")
	tools := fl.String("tools", "", "")
	ns := fl.String("namespace", "default", "")
	artifacts := fl.String("artifacts", "", "")
	conc := fl.Int("concurrency", 0, "")
	keyFile := fl.String("sign-key", "", "")
	ratePerMin := fl.Int("rate", 0, "")
	maxPayload := fl.Int("max-payload", 1<<20, "")
	auditFile := fl.String("audit", "", "")
	policyFile := fl.String("policy", "", "")
	assets := fl.String("assets", "", "")
	durable := fl.Bool("durable", false, "")
	store := fl.String("nats-store", "", "")
	ackWait := fl.Duration("ack-wait", 30*time.Second, "")
	artifactStore := fl.String("artifact-store", "", "")
	index := fl.String("index", "", "")
	credsFile := fl.String("nats-creds", "", "")
	usersFile := fl.String("nats-users", "", "")
	if err := fl.Parse(args); err != nil || *manifest == "" || fl.NArg() > 0 {
		if err == nil {
			err = errors.New("--manifest FILE is required")
		}
		fmt.Fprintf(stderr, "wasmsand worker: %v\n%s", err, workerUsage)
		return exitUsage
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	opt := toolruntime.WorkerOptions{Manifest: *manifest, ToolsDir: *tools, Namespace: *ns, Concurrency: *conc,
		RatePerMinute: *ratePerMin, MaxPayload: *maxPayload, Log: log, Durable: *durable, AckWait: *ackWait, Index: *index}
	if *artifacts != "" {
		opt.Store = &toolruntime.DirStore{Base: *artifacts}
	}

	if *keyFile != "" {
		key, err := readKey(*keyFile)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: --sign-key: %v\n", err)
			return exitSetup
		}
		opt.Signer = &toolruntime.Signer{Key: key}
	}
	if *policyFile != "" {
		f, err := os.Open(*policyFile)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: --policy: %v\n", err)
			return exitSetup
		}
		p, err := policy.Parse(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: --policy %s: %v\n", *policyFile, err)
			return exitSetup
		}
		opt.Policy = p
	}
	if *auditFile != "" {
		f, err := os.OpenFile(*auditFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: --audit: %v\n", err)
			return exitSetup
		}
		defer f.Close()
		opt.Audit = f
	}
	src := *assets
	if src == "" {
		src = assetsrc.Default()
	}
	if src != "" {
		t, err := assetsrc.Open(context.Background(), src)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: %v\n", err)
			return exitSetup
		}
		opt.Assets = t
	}
	url := *natsURL
	var workerCreds *toolruntime.Credentials
	if url == "" {
		// JetStream (durable mode's queue, the nats artifact store) keeps its
		// data in --nats-store, by default in the user's cache directory
		dir := *store
		if dir == "" && (*durable || *artifactStore == "nats") {
			base, err := os.UserCacheDir()
			if err != nil {
				base = os.TempDir()
			}
			dir = filepath.Join(base, "wasmsand", "nats")
		}
		// The bus takes only this worker, the operator (whose credentials
		// are written, 0600, for invoke to find) and the agents of
		// --nats-users, each of which invokes only as itself.
		auth := &toolruntime.BusAuth{Namespace: *ns, Worker: toolruntime.NewCredentials("wasmsand-worker")}
		op := toolruntime.NewCredentials(toolruntime.OperatorUser)
		auth.Operator = &op
		if *usersFile != "" {
			users, err := toolruntime.ReadUsers(*usersFile)
			if err != nil {
				fmt.Fprintf(stderr, "wasmsand worker: --nats-users: %v\n", err)
				return exitSetup
			}
			auth.Agents = users
		}
		s, err := toolruntime.EmbeddedServer(*listen, dir, auth)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: %v\n", err)
			return exitSetup
		}
		defer s.Shutdown()
		url = s.ClientURL()
		p := defaultCredsPath(s.Addr().String())
		if err := op.Write(p); err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: operator credentials: %v\n", err)
			return exitSetup
		}
		defer os.Remove(p)
		log.Info("embedded NATS server", "url", url, "operator credentials", p)
		workerCreds = &auth.Worker
	} else if *credsFile != "" {
		c, err := toolruntime.ReadCredentials(*credsFile)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: --nats-creds: %v\n", err)
			return exitSetup
		}
		workerCreds = &c
	}
	natsOpts := []nats.Option{nats.Name("wasmsand-worker"), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond)}
	if workerCreds != nil {
		natsOpts = append(natsOpts, nats.UserInfo(workerCreds.User, workerCreds.Password))
	}
	nc, err := nats.Connect(url, append(natsOpts,
		nats.RetryOnFailedConnect(true),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { log.Warn("NATS connection lost", "err", err) }),
		nats.ReconnectHandler(func(c *nats.Conn) { log.Info("NATS reconnected", "url", c.ConnectedUrl()) }))...)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand worker: nats %s: %v\n", url, err)
		return exitSetup
	}
	defer nc.Close()
	opt.Conn = nc
	switch *artifactStore {
	case "", "memory":
	case "nats":
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		st, err := toolruntime.NewNATSStore(ctx, nc, toolruntime.ArtifactBucket(*ns), 1)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand worker: --artifact-store nats: %v\n", err)
			return exitSetup
		}
		opt.Store = st
	default:
		fmt.Fprintf(stderr, "wasmsand worker: --artifact-store %q: memory or nats (--artifacts DIR for a directory)\n", *artifactStore)
		return exitUsage
	}
	w, err := toolruntime.NewWorker(opt)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand worker: %v\n", err)
		return exitSetup
	}
	if err := w.Start(); err != nil {
		fmt.Fprintf(stderr, "wasmsand worker: %v\n", err)
		return exitSetup
	}
	log.Info("serving", "tools", len(w.Manifest().Tools), "namespace", *ns)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	log.Info("draining")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := w.Stop(ctx); err != nil {
		log.Error("drain", "err", err)
		return 1
	}
	return 0
}

// readKey reads a signing key: the file's bytes, without a final newline.
func readKey(p string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	b = []byte(strings.TrimRight(string(b), "\r\n"))
	if len(b) < 16 {
		return nil, errors.New("a key of at least 16 bytes is needed")
	}
	return b, nil
}

// toolInvoke is `wasmsand invoke`.
func toolInvoke(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("wasmsand invoke", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	natsURL := fl.String("nats", "nats://127.0.0.1:4222", "")
	ns := fl.String("namespace", "default", "")
	argsJSON := fl.String("args", "{}", "")
	user := fl.String("user", "", "")
	session := fl.String("session", "", "")
	timeout := fl.Float64("timeout", toolruntime.DefaultTimeout, "")
	keyFile := fl.String("sign-key", "", "")
	durableInvoke := fl.Bool("durable", false, "")
	byRef := fl.String("artifact-store", "", "")
	credsFile := fl.String("nats-creds", "", "")
	var artifacts multiFlag
	fl.Var(&artifacts, "artifact", "")
	// flags may come after the tool's name
	var tool string
	rest := args
	for {
		if err := fl.Parse(rest); err != nil {
			fmt.Fprintf(stderr, "wasmsand invoke: %v\n%s", err, workerUsage)
			return exitUsage
		}
		if fl.NArg() == 0 {
			break
		}
		if tool != "" {
			fmt.Fprintf(stderr, "wasmsand invoke: one tool, not %q and %q\n%s", tool, fl.Arg(0), workerUsage)
			return exitUsage
		}
		tool, rest = fl.Arg(0), fl.Args()[1:]
	}
	if tool == "" {
		fmt.Fprintf(stderr, "wasmsand invoke: which tool?\n%s", workerUsage)
		return exitUsage
	}
	var a any
	if err := json.Unmarshal([]byte(*argsJSON), &a); err != nil {
		fmt.Fprintf(stderr, "wasmsand invoke: --args: %v\n", err)
		return exitUsage
	}
	opt := toolruntime.InvokeOptions{UserID: *user, SessionID: *session, TimeoutSeconds: *timeout,
		OnStatus: func(s string) { fmt.Fprintln(stderr, "status:", s) }}
	for _, spec := range artifacts {
		name, p, ok := strings.Cut(spec, "=")
		if !ok || name == "" || p == "" {
			fmt.Fprintf(stderr, "wasmsand invoke: --artifact %q: NAME=PATH\n", spec)
			return exitUsage
		}
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand invoke: --artifact: %v\n", err)
			return exitSetup
		}
		if opt.Preload == nil {
			opt.Preload = map[string][]byte{}
		}
		opt.Preload[filepath.Base(name)] = b
	}
	c := &toolruntime.Client{Namespace: *ns, Durable: *durableInvoke}
	if *byRef != "" && *byRef != "nats" {
		fmt.Fprintf(stderr, "wasmsand invoke: --artifact-store %q: nats (else artifacts go in the request)\n", *byRef)
		return exitUsage
	}
	if *keyFile != "" {
		key, err := readKey(*keyFile)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand invoke: --sign-key: %v\n", err)
			return exitSetup
		}
		c.Signer = &toolruntime.Signer{Key: key}
	}
	natsOpts := []nats.Option{nats.Name("wasmsand-invoke"), nats.Timeout(5 * time.Second)}
	cp := *credsFile
	if cp == "" {
		if u, err := neturl.Parse(*natsURL); err == nil {
			if p := defaultCredsPath(u.Host); fileExists(p) {
				cp = p // (a local worker's)
			}
		}
	}
	if cp != "" {
		creds, err := toolruntime.ReadCredentials(cp)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand invoke: --nats-creds: %v\n", err)
			return exitSetup
		}
		natsOpts = append(natsOpts, creds.Options()...)
		if creds.User != toolruntime.OperatorUser { // (an agent: it invokes as itself)
			if *user != "" && *user != creds.User {
				fmt.Fprintf(stderr, "wasmsand invoke: --user %s: the bus knows this client as %s\n", *user, creds.User)
				return exitUsage
			}
			c.User = creds.User
		}
	}
	nc, err := nats.Connect(*natsURL, natsOpts...)
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand invoke: nats %s: %v\n", *natsURL, err)
		return exitSetup
	}
	defer nc.Close()
	c.Conn = nc
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *byRef == "nats" && len(opt.Preload) > 0 {
		// stored in the namespace's object store, sent by reference
		st, err := toolruntime.NewNATSStore(ctx, nc, toolruntime.ArtifactBucket(*ns), 1)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand invoke: --artifact-store nats: %v\n", err)
			return exitSetup
		}
		opt.References = map[string]toolruntime.ArtifactRef{}
		for name, data := range opt.Preload {
			m, err := st.Save(ctx, toolruntime.ScopeFor(*ns, *user, *session), name, data, "")
			if err != nil {
				fmt.Fprintf(stderr, "wasmsand invoke: --artifact %s: %v\n", name, err)
				return exitSetup
			}
			v := m.Version
			opt.References[name] = toolruntime.ArtifactRef{Filename: name, Version: &v}
		}
		opt.Preload = nil
	}
	res, err := c.Invoke(ctx, tool, a, opt)
	if err != nil {
		var eo *toolruntime.ErrorObject
		if errors.As(err, &eo) {
			b, _ := json.Marshal(eo)
			fmt.Fprintf(stderr, "wasmsand invoke: %s: %s\n%s\n", eo.Code, eo.Message, b)
			return 1
		}
		fmt.Fprintf(stderr, "wasmsand invoke: %v\n", err)
		return 1
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

// defaultCredsPath is where a worker with an embedded bus at addr
// (host:port) writes the operator's credentials (0600), and invoke looks
// for them.
func defaultCredsPath(addr string) string {
	base, err := os.UserConfigDir()
	if err != nil {
		base = os.TempDir()
	}
	if h, p, err := net.SplitHostPort(addr); err == nil && h == "localhost" {
		addr = net.JoinHostPort("127.0.0.1", p) // (as the server reports its address)
	}
	return filepath.Join(base, "wasmsand", "operator-"+strings.NewReplacer(":", "-", "[", "", "]", "").Replace(addr)+".creds")
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }
