// Command wasmsand runs bash scripts in a WebAssembly sandbox.
//
//	wasmsand run [--import HOST:GUEST]... [--mount HOST:GUEST[:ro|:rw]]... [--cwd DIR]
//	             [--env K=V]... [--timeout 30s] [--memory MB] [--save DIR] [--load DIR]
//	             (-c SCRIPT | FILE | -)
//	wasmsand shell [same options]
//
// The exit status of `run` is the script's. Nothing of the host is visible
// inside the sandbox except what --import copies in and --mount exposes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/vfs"
)

const usage = `usage:
  wasmsand run [options] (-c SCRIPT | FILE | -)
  wasmsand shell [options]
  wasmsand run-wasm [options] MODULE [ARGS...]   (a WASI preview1 plugin, under --policy)
  wasmsand serve [options] [--listen ADDR] [--token TOKEN]... [--max-sessions N] [--max-snapshots N]
                 [--max-memory MB]
                 [--idle-ttl DURATION] [--max-body MB] [--client-policy]
                 [--allow-host NAME]... [--allow-origin ORIGIN]...
                               the HTTP service: JSON sessions (create, run with
                               server-sent events, files, snapshots, fork), its OpenAPI
                               document at /v1/openapi.json; tokens (also $WASMSAND_TOKENS,
                               comma-separated) are required off loopback;
                               --client-policy lets a create request give its own policy
                               (network, limits up to these, capabilities; never host
                               mounts, host variables, secrets or audit files);
                               without a token, only this user's processes are answered;
                               Host must be a loopback name, the listen address or an
                               --allow-host name; a browser page's requests (Origin) are
                               refused unless --allow-origin names it (also for mcp);
                               --max-memory: past what all sessions keep together (files,
                               snapshots, shell variables), new sessions, forks, snapshots
                               and uploads get 507 resource_exhausted
                 [--nats URL[,URL...] | --nats-listen ADDR [--nats-cluster ADDR --nats-routes URLS]]
                 [--nats-creds FILE] [--node NAME] [--nats-replicas N] [--idle-evict DURATION]
                 [--lease-ttl DURATION] [--cluster-prefix NAME] [--nats-store DIR]
                               a node of a cluster over NATS JetStream: any node takes any
                               session's requests and forwards them to the node that holds
                               it; every change is checkpointed (only what changed) and a
                               node that is gone leaves its sessions to the next node asked;
                               --nats-listen: an embedded server (this machine only; with
                               --nats-cluster/--nats-routes, one of several routed together);
                               --nats-creds: a NATS .creds file or one user:password line;
                               --idle-evict: sessions idle that long leave memory for the
                               store, restored on their next request; SIGTERM drains (finishes
                               runs, hands the sessions over) for a rolling restart
  wasmsand version [--sbom] [--assets DIR|URL]
                               the version; --sbom: the software bill of materials (CycloneDX
                               JSON) of this program's Go modules and of the guest programs
                               (Debian source packages, their files' and patches' sha256)
  wasmsand daemon               keep modules warm for run and run-wasm, which hand their
                               work to it when their streams are not terminals (started on
                               first use, a few at once for requests at once; each ends
                               after $WASMSAND_DAEMON_IDLE, default 10m, without work);
                               WASMSAND_DAEMON=0 never uses one, =1 always
  wasmsand worker --manifest FILE [--nats URL | --nats-listen ADDR] [--tools DIR] [--namespace NS]
                 [--artifacts DIR] [--concurrency N] [--sign-key FILE] [--rate N]
                 [--max-payload BYTES] [--audit FILE] [--policy FILE] [--durable]
                               serve a manifest's tools to agents over NATS (JSON-RPC,
                               seed 000): each invocation in a fresh sandbox; without
                               --nats an embedded server listens (default 127.0.0.1:4222);
                               --durable: through a JetStream work queue
  wasmsand invoke [--nats URL] TOOL [--args JSON] [--artifact NAME=PATH]... [--user ID]
                 [--session ID] [--timeout SECONDS] [--sign-key FILE] [--durable]
                               call a tool: its result on stdout, or its error on
                               stderr (exit 1); status updates on stderr
  wasmsand mcp [options] [--listen ADDR [--token TOKEN]] [--shared] [--max-sessions N] [--max-snapshots N]
               [--max-memory MB]
               [--allow-host NAME]... [--allow-origin ORIGIN]...
                               serve sandboxes to agents over MCP: on stdin/stdout, or
                               streamable HTTP at http://ADDR/mcp (a token is required
                               off loopback; also $WASMSAND_MCP_TOKEN); each MCP session
                               gets its own sandbox; --shared lets calls name sessions
                               that clients share
               [--nats URL[,URL...] | --nats-listen ADDR ...]   (the cluster flags of serve)
                               with --listen, a node of a cluster: an MCP session's requests
                               go to the node that holds it; when that node is gone the
                               next one asked takes the session over under the same id,
                               and its sandboxes from their last checkpoints

options:
  --import HOST:GUEST          copy a host file or tree into the sandbox (the host is never written)
  --mount HOST:GUEST[:ro|:rw]  mount a host directory live (default rw)
  --cwd DIR                    working directory inside the sandbox (default /home/user)
  --env K=V                    set an environment variable (repeatable)
  --timeout DURATION           per-run timeout (default 30s)
  --memory MB                  memory limit per guest program (default 256)
  --save DIR                   save the sandbox's files to DIR when done
  --load DIR                   start from files saved in DIR
  --assets DIR|URL             where the guest programs are (default: $WASMSAND_ASSETS,
                               else the assets directory beside the executable)
  --allow-net URL_PREFIX       let curl and wget GET and HEAD under this prefix
                               (scheme://host[:port][/path]; host may be *.name;
                               repeatable; without it the network is off)
  --policy FILE                a YAML policy: limits, environment, host mounts, network
                               rules and budget (policy/policy.go; flags given win)
  --profile NAME               restrictive, standard or permissive limits
  --secret NAME                a secret the policy declares, from the host's variable
                               NAME: sent only to its hosts, as {{secret:NAME}} in a
                               header or injected; never seen inside (NAME=VALUE works
                               but warns: other users see command lines)
  --secret-file NAME=PATH      the same, its value read from a file
  --events FILE                write what happens as JSON lines: runs, processes,
                               network requests (allowed or not, and why)
  -c SCRIPT                    run SCRIPT
`

// exit statuses of the CLI's own failures
const (
	exitUsage = 2   // bad flags or arguments, like bash
	exitSetup = 125 // the sandbox could not be set up (missing host path, bad state dir)
)

func main() {
	args := os.Args[1:]
	if daemonWanted(args) {
		if code, ok := runViaDaemon(args, os.Stdin, os.Stdout, os.Stderr); ok {
			os.Exit(code)
		}
	}
	os.Exit(run(args, os.Stdin, ttyMarked(os.Stdout), ttyMarked(os.Stderr)))
}

// ttyWriter is an output that is a terminal: programs in the sandbox writing
// to it directly see a tty (core.RunOptions.Terminal).
type ttyWriter struct{ *os.File }

func (ttyWriter) IsTerminal() bool { return true }

func ttyMarked(f *os.File) io.Writer {
	if term.IsTerminal(int(f.Fd())) {
		return ttyWriter{f}
	}
	return f
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// version is what `wasmsand mcp` tells clients.
var version = "0.1.0"

type cliOptions struct {
	imports, mounts, envs multiFlag
	allowNet, secrets     multiFlag
	secretFiles           multiFlag // NAME=PATH
	policyFile, profile   string
	set                   map[string]bool // flags given explicitly
	events                string
	closers               []io.Closer   // closed when the CLI is done
	asLoaded              *vfs.Snapshot // the tree as --load gave it, when --save is the same directory
	cwd, command          string
	hasCommand            bool
	timeout               time.Duration
	memory                int
	save, load            string
	assets                string
	onEvent               func(core.Event)    // (serve: the session's listener)
	policyText            string              // (serve --client-policy: a client's policy document)
	programs              *core.AssetPrograms // (opened once: see assetPrograms)
}

// clone copies the options for another sandbox (setup adds the policy's
// mounts to its copy).
func (o *cliOptions) clone() *cliOptions {
	c := *o
	c.imports = append(multiFlag(nil), o.imports...)
	c.mounts = append(multiFlag(nil), o.mounts...)
	c.envs = append(multiFlag(nil), o.envs...)
	c.allowNet = append(multiFlag(nil), o.allowNet...)
	c.secrets = append(multiFlag(nil), o.secrets...)
	return &c
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run, ended early when ctx is (the daemon's client went away).
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	sub := args[0]
	if sub == "-h" || sub == "--help" || sub == "help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	switch sub {
	case "daemon":
		return serveDaemon(stderr)
	case "version", "--version":
		return versionCmd(args[1:], stdout, stderr)
	case "worker":
		return toolWorker(args[1:], stdout, stderr)
	case "invoke":
		return toolInvoke(args[1:], stdout, stderr)
	}
	if sub != "run" && sub != "shell" && sub != "run-wasm" && sub != "mcp" && sub != "serve" {
		fmt.Fprintf(stderr, "wasmsand: unknown command %q\n%s", sub, usage)
		return exitUsage
	}
	var o cliOptions
	fl := flag.NewFlagSet("wasmsand "+sub, flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.Var(&o.imports, "import", "")
	fl.Var(&o.mounts, "mount", "")
	fl.Var(&o.envs, "env", "")
	fl.Var(&o.allowNet, "allow-net", "")
	fl.StringVar(&o.policyFile, "policy", "", "")
	fl.Var(&o.secrets, "secret", "")
	fl.Var(&o.secretFiles, "secret-file", "")
	fl.StringVar(&o.events, "events", "", "")
	fl.StringVar(&o.profile, "profile", "", "")
	fl.StringVar(&o.cwd, "cwd", "", "")
	fl.Func("c", "", func(s string) error { o.command, o.hasCommand = s, true; return nil })
	fl.DurationVar(&o.timeout, "timeout", 30*time.Second, "")
	fl.IntVar(&o.memory, "memory", 256, "")
	fl.StringVar(&o.save, "save", "", "")
	fl.StringVar(&o.load, "load", "", "")
	fl.StringVar(&o.assets, "assets", "", "")
	var m mcpOptions
	var so serveOptions
	if sub == "serve" {
		fl.StringVar(&so.listen, "listen", "127.0.0.1:8080", "")
		fl.Var(&so.tokens, "token", "")
		fl.IntVar(&so.maxSessions, "max-sessions", 16, "")
		fl.IntVar(&so.maxSnapshots, "max-snapshots", 32, "")
		fl.Int64Var(&so.maxMemoryMB, "max-memory", 0, "")
		fl.DurationVar(&so.idleTTL, "idle-ttl", 30*time.Minute, "")
		fl.Int64Var(&so.maxBodyMB, "max-body", 64, "")
		fl.BoolVar(&so.clientPolicy, "client-policy", false, "")
		fl.Var(&so.front.allowHosts, "allow-host", "")
		fl.Var(&so.front.allowOrigins, "allow-origin", "")
		so.cluster.flags(fl)
	}
	if sub == "mcp" {
		fl.StringVar(&m.listen, "listen", "", "")
		fl.StringVar(&m.token, "token", "", "")
		fl.BoolVar(&m.shared, "shared", false, "")
		fl.IntVar(&m.maxSessions, "max-sessions", 16, "")
		fl.IntVar(&m.maxSnapshots, "max-snapshots", 32, "")
		fl.Int64Var(&m.maxMemoryMB, "max-memory", 0, "")
		fl.Var(&m.front.allowHosts, "allow-host", "")
		fl.Var(&m.front.allowOrigins, "allow-origin", "")
		m.cluster.flags(fl)
	}
	if err := fl.Parse(args[1:]); err != nil {
		fmt.Fprintf(stderr, "wasmsand %s: %v\n%s", sub, err, usage)
		return exitUsage
	}
	o.set = map[string]bool{}
	fl.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	for _, v := range o.secrets {
		if name, _, ok := strings.Cut(v, "="); ok {
			fmt.Fprintf(stderr, "wasmsand: warning: --secret %s=VALUE puts the value where other users of this machine see it (ps, /proc); use --secret %s (from the environment) or --secret-file %s=PATH\n", name, name, name)
		}
	}
	if o.memory <= 0 || o.timeout <= 0 {
		fmt.Fprintf(stderr, "wasmsand %s: --memory and --timeout must be positive\n", sub)
		return exitUsage
	}
	rest := fl.Args()

	defer func() {
		for _, c := range o.closers {
			c.Close()
		}
	}()
	if sub == "serve" {
		if len(rest) > 0 || o.hasCommand || o.save != "" {
			fmt.Fprintf(stderr, "wasmsand serve: unexpected arguments\n%s", usage)
			return exitUsage
		}
		return serveHTTP(&o, &so, stderr)
	}
	if sub == "mcp" {
		if len(rest) > 0 || o.hasCommand || o.save != "" {
			fmt.Fprintf(stderr, "wasmsand mcp: unexpected arguments (scripts come from the client; --save has no one sandbox to save)\n%s", usage)
			return exitUsage
		}
		return serveMCP(&o, &m, stdin, stdout, stderr)
	}
	sb, err := setup(ctx, &o)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitSetup
	}
	defer sb.Close()

	var status int
	if sub == "shell" {
		if len(rest) > 0 || o.hasCommand {
			fmt.Fprintf(stderr, "wasmsand shell: unexpected arguments\n%s", usage)
			return exitUsage
		}
		status = interactive(ctx, sb, &o, stdin, stdout, stderr)
	} else if sub == "run-wasm" {
		status = runPlugin(ctx, sb, &o, rest, stdin, stdout, stderr)
	} else {
		status = runScript(ctx, sb, &o, rest, stdin, stdout, stderr)
	}
	if o.save != "" && (o.asLoaded == nil || !sb.FS().Unchanged(o.asLoaded)) {
		if err := saveState(sb, o.save); err != nil {
			fmt.Fprintln(stderr, err)
			if status == 0 {
				status = 1
			}
		}
	}
	return status
}

// nullStdin is a stdin that is the null device (`</dev/null`, or what a
// daemon's client had): the sandbox is given none, so guests see /dev/null
// as a character device, not an empty pipe (rg searches a pipe, not the
// working directory).
type nullStdin struct{}

func (nullStdin) Read([]byte) (int, error) { return 0, io.EOF }

func isNullStdin(r io.Reader) bool {
	switch v := r.(type) {
	case nullStdin:
		return true
	case *os.File:
		st, err := v.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0 && !term.IsTerminal(int(v.Fd())) && sameFile(st, "/dev/null")
	}
	return false
}

func sameFile(st os.FileInfo, path string) bool {
	o, err := os.Stat(path)
	return err == nil && os.SameFile(st, o)
}

// sandboxStdin is what a run of the sandbox reads: nil for the null device.
func sandboxStdin(r io.Reader) io.Reader {
	if isNullStdin(r) {
		return nil
	}
	return r
}

func runScript(ctx context.Context, sb *core.Sandbox, o *cliOptions, rest []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var script, name string
	runStdin := sandboxStdin(stdin)
	switch {
	case o.hasCommand:
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "wasmsand run: unexpected arguments after -c: %q\n", rest)
			return exitUsage
		}
		script = o.command
	case len(rest) == 1 && rest[0] == "-":
		data, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand run: reading script from stdin: %v\n", err)
			return exitSetup
		}
		script, runStdin = string(data), strings.NewReader("")
	case len(rest) == 1:
		data, err := os.ReadFile(rest[0])
		if err != nil {
			fmt.Fprintf(stderr, "wasmsand run: %v\n", err)
			return exitSetup
		}
		if isWasm(data) {
			return runModule(ctx, sb, o, []string{rest[0]}, data, stdin, stdout, stderr)
		}
		script, name = string(data), rest[0]
	default:
		fmt.Fprintf(stderr, "wasmsand run: need exactly one of -c SCRIPT, FILE or -\n%s", usage)
		return exitUsage
	}
	res, err := sb.Run(ctx, script, core.RunOptions{
		Stdin: runStdin, Stdout: stdout, Stderr: stderr, Timeout: o.timeout, Script: true, Name: name,
	})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return res.ExitCode
}

// runPlugin is run-wasm: MODULE [ARGS...], any WASI preview1 program run
// directly under the sandbox's policy (its mounts are the plugin's
// directories, its environment the plugin's).
func runPlugin(ctx context.Context, sb *core.Sandbox, o *cliOptions, rest []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(rest) == 0 || o.hasCommand {
		fmt.Fprintf(stderr, "wasmsand run-wasm: need MODULE [ARGS...]\n%s", usage)
		return exitUsage
	}
	wasm, err := os.ReadFile(rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "wasmsand run-wasm: %v\n", err)
		return exitSetup
	}
	if !isWasm(wasm) {
		fmt.Fprintf(stderr, "wasmsand run-wasm: %s is not a WebAssembly module\n", rest[0])
		return 126
	}
	return runModule(ctx, sb, o, append([]string{filepath.Base(rest[0])}, rest[1:]...), wasm, stdin, stdout, stderr)
}

func isWasm(b []byte) bool { return len(b) >= 4 && string(b[:4]) == "\x00asm" }

// runModule runs a WASI module directly (no shell) with these arguments.
func runModule(ctx context.Context, sb *core.Sandbox, o *cliOptions, argv []string, wasm []byte, stdin io.Reader, stdout, stderr io.Writer) int {
	res, err := sb.RunWASI(ctx, wasm, argv, core.RunOptions{
		Stdin: sandboxStdin(stdin), Stdout: stdout, Stderr: stderr, Timeout: o.timeout,
	})
	if err != nil {
		fmt.Fprintln(stderr, err)
		if core.ErrorCode(err) == core.CodeInvalidModule {
			return 126
		}
		return 1
	}
	return res.ExitCode
}

func parseEnv(envs []string) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range envs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("wasmsand: --env %q: want K=V", kv)
		}
		m[k] = v
	}
	return m, nil
}

// splitHostGuest splits HOST:GUEST[:MODE]. The guest path is absolute, so the
// last ':' followed by '/' separates them (host paths may contain ':').
func splitHostGuest(flagName, v string, withMode bool) (host, guest, mode string, err error) {
	if withMode {
		for _, m := range []string{":ro", ":rw"} {
			if strings.HasSuffix(v, m) {
				v, mode = strings.TrimSuffix(v, m), m[1:]
				break
			}
		}
	}
	i := strings.LastIndex(v, ":/")
	if i <= 0 {
		return "", "", "", fmt.Errorf("wasmsand: --%s %q: want HOST:GUEST with an absolute GUEST path", flagName, v)
	}
	return v[:i], v[i+1:], mode, nil
}

var errNoState = errors.New("no saved state")
