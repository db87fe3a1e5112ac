// Package mcpserver gives agents wasmsand sandboxes over the Model Context
// Protocol (the official Go SDK, github.com/modelcontextprotocol/go-sdk):
// the tools run, read_file, write_file, list_dir, snapshot, restore and
// fork, over the public core API only. It is a thin transport: `wasmsand
// mcp` serves it on stdio or streamable HTTP.
//
// Each MCP session gets its own sandbox, made on its first tool call and
// closed when the session ends. fork makes another (a copy-on-write copy)
// and returns its id, which later calls name in their "session" argument.
// With Options.Shared, a call may also name a session of its own choosing
// ("build", say): every MCP session that names it shares that sandbox.
package mcpserver

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wasmsand/wasmsand/cluster"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/sessions"
	"github.com/wasmsand/wasmsand/llmtools"
)

// Options configure a Server.
type Options struct {
	// NewSandbox makes the sandbox of a new session (the CLI's flags and
	// policy apply to it).
	NewSandbox func(ctx context.Context) (*core.Sandbox, error)
	// Shared lets a call name a session that is not its MCP session's own:
	// named sessions are made on first use and shared by every client.
	Shared bool
	// MaxOutput bounds the bytes of stdout and of stderr a run returns
	// (default 30000); longer output is cut in the middle, with a marker
	// that says how much was left out, so that a model never gets megabytes.
	MaxOutput int
	// Limits describes the sandbox's limits and network to models, for the
	// tools' descriptions ("30 s per run, 256 MB per program, no network").
	Limits string
	// Version is the server's version, as MCP clients see it.
	Version string
	// MaxSessions bounds the sessions open at once, forks and named ones
	// included (default 16); MaxSnapshots the snapshots a session keeps
	// (default 32). Past either, the call fails with quota_exceeded.
	MaxSessions, MaxSnapshots int
	// MaxMemory bounds what all sessions together keep in memory (bytes,
	// Sandbox.MemoryHeld; 0: no bound): past it, new sessions, forks,
	// snapshots and file writes fail with resource_exhausted.
	MaxMemory int64
	// Cluster, when set, makes this server one node of a cluster (package
	// cluster; streamable HTTP only): see cluster.go.
	Cluster *cluster.Node
	// Token is the bearer token clients give (bound to their sessions in a
	// cluster).
	Token string
}

// Server holds the sessions of every MCP session it serves.
type Server struct {
	opt Options
	mcp *mcp.Server

	// sessions are owned by their MCP session (*mcp.ServerSession); named
	// ones are shared (no owner)
	sessions *sessions.Registry
	mu       sync.Mutex
	mine     map[*mcp.ServerSession]string // an MCP session's own session
	wmu      sync.Mutex                    // (not mu: get calls watch holding it)
	watched  map[*mcp.ServerSession]bool
	cl       clusterState
}

// New makes a server and its MCP half (MCP).
func New(opt Options) *Server {
	if opt.MaxOutput <= 0 {
		opt.MaxOutput = 30000
	}
	if opt.Version == "" {
		opt.Version = "dev"
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 16
	}
	if opt.MaxSnapshots <= 0 {
		opt.MaxSnapshots = 32
	}
	s := &Server{opt: opt, mine: map[*mcp.ServerSession]string{}, watched: map[*mcp.ServerSession]bool{}, sessions: sessions.New(sessions.Options{
		MaxSessions: opt.MaxSessions, MaxSnapshots: opt.MaxSnapshots, MaxMemory: opt.MaxMemory, Limit: "--max-memory"})}
	so := &mcp.ServerOptions{Instructions: s.instructions()}
	if n := opt.Cluster; n != nil {
		so.GetSessionID = s.sessionID
		n.OnLost(func(id string) { s.sessions.Drop(id) })
		_ = n.OnRelease(s.release)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "wasmsand", Title: "wasmsand sandbox", Version: opt.Version}, so)
	s.addTools()
	return s
}

// MCP is the SDK's server, for a transport: mcp.StdioTransport, or
// mcp.NewStreamableHTTPHandler.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close closes every sandbox.
func (s *Server) Close() {
	s.sessions.Close()
	s.mu.Lock()
	s.mine = map[*mcp.ServerSession]string{}
	s.mu.Unlock()
}

func (s *Server) instructions() string {
	return "A sandboxed Linux-like machine for running commands: bash 5.2 (our own, bash-compatible) with " +
		"GNU coreutils, grep, sed, gawk-compatible mawk, find, xargs, diff, patch, tar, gzip, bzip2, xz, zip, jq, " +
		"sqlite3, tree, curl and wget (network only where the operator's policy allows), and python3 (CPython 3.11, " +
		"standard library; pip installs pure-Python wheels when the network allows the index). Files persist between " +
		"calls in the session; home is /home/user (the working directory). Nothing of the host is visible. " +
		"Limits: " + s.limits() + ". Use snapshot/restore to undo, fork to try something on a copy."
}

func (s *Server) limits() string {
	if s.opt.Limits != "" {
		return s.opt.Limits
	}
	return "a timeout per run, memory per program, a quota on files"
}

// get finds the session a call names ("" is the caller's own), making the
// caller's own, or a named shared one, on first use.
func (s *Server) get(ctx context.Context, ss *mcp.ServerSession, id string) (*sessions.Session, error) {
	if s.opt.Cluster != nil {
		return s.getClustered(ctx, ss, id)
	}
	if id == "" {
		s.mu.Lock()
		id = s.mine[ss]
		s.mu.Unlock()
	}
	if id != "" {
		if x, ok := s.sessions.Get(ss, id); ok {
			return x, nil
		}
	}
	named := id != ""
	if named && (!s.opt.Shared || strings.HasPrefix(id, "s")) {
		if !s.opt.Shared {
			return nil, fmt.Errorf("no session %q (named sessions are off; fork returns the ids of new ones)", id)
		}
		// (one message whether another client's or none: ids say nothing)
		return nil, fmt.Errorf("no session %q in this MCP session (names starting with \"s\" are the server's)", id)
	}
	var owner any = ss
	if named {
		owner = nil
	}
	if err := s.sessions.Reserve(owner); err != nil {
		return nil, err
	}
	sb, err := s.opt.NewSandbox(ctx)
	if err != nil {
		return nil, toolErr(err)
	}
	if named {
		x, made, err := s.sessions.Add(nil, id, sb, nil)
		if !made {
			sb.Close() // (made meanwhile, or no room)
		}
		return x, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if own, ok := s.sessions.Get(ss, s.mine[ss]); ok { // (made meanwhile)
		sb.Close()
		return own, nil
	}
	x, _, err := s.sessions.Add(ss, "", sb, nil)
	if err != nil {
		sb.Close()
		return nil, err
	}
	s.mine[ss] = x.ID
	s.watch(ss)
	return x, nil
}

// watch closes an MCP session's sandboxes when it ends (named ones stay).
func (s *Server) watch(ss *mcp.ServerSession) {
	if ss == nil {
		return
	}
	s.wmu.Lock()
	seen := s.watched[ss]
	s.watched[ss] = true
	s.wmu.Unlock()
	if seen {
		return
	}
	go func() {
		defer func() { _ = recover() }()
		_ = ss.Wait()
		s.ended(ss)
		s.sessions.RemoveOwner(ss)
		s.mu.Lock()
		delete(s.mine, ss)
		s.mu.Unlock()
		s.wmu.Lock()
		delete(s.watched, ss)
		s.wmu.Unlock()
	}()
}

// toolErr says a sandbox's error with its stable code first
// ("not_found: ReadFile /x: no such file or directory"), for models and
// for programs that match on it.
func toolErr(err error) error {
	var ce *core.Error
	if errors.As(err, &ce) {
		msg := strings.TrimPrefix(ce.Error(), "wasmsand: ")
		return fmt.Errorf("%s: %s", ce.Code, msg)
	}
	return err
}

type RunIn struct {
	Command   string `json:"command" jsonschema:"the bash script to run (several lines are fine)"`
	Stdin     string `json:"stdin,omitempty" jsonschema:"text given to the script on its standard input (left out: /dev/null)"`
	Cwd       string `json:"cwd,omitempty" jsonschema:"working directory for this run (default: where the last run left it; /home/user at first)"`
	TimeoutMs int    `json:"timeout_ms,omitempty" jsonschema:"timeout for this run in milliseconds (default and most: the server's)"`
	Session   string `json:"session,omitempty" jsonschema:"the session to run in (default: this client's own; fork returns others)"`
}

type RunOut struct {
	ExitCode        int    `json:"exit_code"`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	ExecutionTimeMs int64  `json:"execution_time_ms"`
	Truncated       bool   `json:"truncated" jsonschema:"output was cut (in the middle, with a marker)"`
	TimedOut        bool   `json:"timed_out"`
}

type PathIn struct {
	Path    string `json:"path" jsonschema:"a path in the sandbox (relative paths are from the session's working directory)"`
	Session string `json:"session,omitempty" jsonschema:"the session (default: this client's own)"`
}

type ReadOut struct {
	Content  string `json:"content"`
	Encoding string `json:"encoding" jsonschema:"text, or base64 for a file that is not UTF-8"`
	Size     int    `json:"size"`
}

type WriteIn struct {
	Path     string `json:"path" jsonschema:"where to write (parent directories are made)"`
	Content  string `json:"content"`
	Encoding string `json:"encoding,omitempty" jsonschema:"text (default) or base64"`
	Session  string `json:"session,omitempty" jsonschema:"the session (default: this client's own)"`
}

type WriteOut struct {
	BytesWritten int `json:"bytes_written"`
}

type Entry struct {
	Name string `json:"name"`
	Type string `json:"type" jsonschema:"file, directory, symlink, fifo or other"`
	Size int64  `json:"size"`
	Mode string `json:"mode"`
}

type ListOut struct {
	Entries []Entry `json:"entries"`
}

type SessionIn struct {
	Session string `json:"session,omitempty" jsonschema:"the session (default: this client's own)"`
}

type SnapshotOut struct {
	SnapshotID string `json:"snapshot_id"`
}

type RestoreIn struct {
	SnapshotID string `json:"snapshot_id"`
	Session    string `json:"session,omitempty" jsonschema:"the session the snapshot was taken in (default: this client's own)"`
}

type ForkOut struct {
	Session string `json:"session" jsonschema:"the new session's id: name it in later calls"`
}

type Empty struct{}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func (s *Server) addTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "run", Title: "Run a bash script",
		Description: "Runs a bash script in the sandbox and returns its exit code, stdout, stderr and time. " +
			"State persists: files, the working directory, variables and functions carry over to the next run. " +
			"Output longer than " + strconv.Itoa(s.opt.MaxOutput) + " bytes per stream is cut in the middle. Limits: " + s.limits() + ".",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: yes(), OpenWorldHint: no()},
	}, s.run)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "read_file", Title: "Read a file",
		Description: "Reads a file of the sandbox: as text, or as base64 when it is not UTF-8.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: no()},
	}, s.readFile)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "write_file", Title: "Write a file",
		Description: "Creates or replaces a file of the sandbox (parent directories are made), from text or base64.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: yes(), IdempotentHint: true, OpenWorldHint: no()},
	}, s.writeFile)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_dir", Title: "List a directory",
		Description: "Lists a directory of the sandbox: names, types, sizes and modes, sorted by name.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: no()},
	}, s.listDir)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "snapshot", Title: "Snapshot the files",
		Description: "Records the sandbox's files (instantly, copy-on-write) and returns an id that restore takes back to.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: no()},
	}, s.snapshot)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "restore", Title: "Restore a snapshot",
		Description: "Puts the sandbox's files back as they were at a snapshot (later changes are lost).",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: yes(), IdempotentHint: true, OpenWorldHint: no()},
	}, s.restore)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "fork", Title: "Fork the session",
		Description: "Makes a new session that starts as a copy of this one (files, working directory, variables), " +
			"and returns its id: pass it as \"session\" to run there. The original is unchanged.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: no(), OpenWorldHint: no()},
	}, s.fork)
}

func (s *Server) run(ctx context.Context, req *mcp.CallToolRequest, in RunIn) (*mcp.CallToolResult, RunOut, error) {
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, RunOut{}, err
	}
	x.Lock()
	defer x.Unlock()
	opt := core.RunOptions{Cwd: in.Cwd, Stdin: core.StdinText(in.Stdin), Timeout: x.Sandbox.ShorterTimeout(in.TimeoutMs)}
	res, err := x.Sandbox.Run(ctx, in.Command, opt)
	if err == nil {
		err = s.checkpoint(ctx, x)
	}
	if err != nil {
		return nil, RunOut{}, toolErr(err)
	}
	out, t1 := llmtools.Trim(res.Stdout, s.opt.MaxOutput)
	errOut, t2 := llmtools.Trim(res.Stderr, s.opt.MaxOutput)
	return nil, RunOut{ExitCode: res.ExitCode, Stdout: out, Stderr: errOut, ExecutionTimeMs: res.Duration.Milliseconds(),
		Truncated: res.Truncated || t1 || t2, TimedOut: res.TimedOut}, nil
}

func (s *Server) readFile(ctx context.Context, req *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, ReadOut, error) {
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, ReadOut{}, err
	}
	b, err := x.Sandbox.ReadFile(in.Path)
	if err != nil {
		return nil, ReadOut{}, toolErr(err)
	}
	if utf8.Valid(b) {
		return nil, ReadOut{Content: string(b), Encoding: "text", Size: len(b)}, nil
	}
	return nil, ReadOut{Content: base64.StdEncoding.EncodeToString(b), Encoding: "base64", Size: len(b)}, nil
}

func (s *Server) writeFile(ctx context.Context, req *mcp.CallToolRequest, in WriteIn) (*mcp.CallToolResult, WriteOut, error) {
	data := []byte(in.Content)
	switch in.Encoding {
	case "", "text":
	case "base64":
		b, err := base64.StdEncoding.DecodeString(in.Content)
		if err != nil {
			return nil, WriteOut{}, fmt.Errorf("content: not base64: %v", err)
		}
		data = b
	default:
		return nil, WriteOut{}, fmt.Errorf("encoding: text or base64, not %q", in.Encoding)
	}
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, WriteOut{}, err
	}
	if err := s.sessions.Room(int64(len(data))); err != nil {
		return nil, WriteOut{}, err
	}
	if s.opt.Cluster != nil {
		x.Lock()
		defer x.Unlock()
	}
	if err := x.Sandbox.WriteFile(in.Path, data, 0); err != nil {
		return nil, WriteOut{}, toolErr(err)
	}
	if err := s.checkpoint(ctx, x); err != nil {
		return nil, WriteOut{}, err
	}
	return nil, WriteOut{BytesWritten: len(data)}, nil
}

func (s *Server) listDir(ctx context.Context, req *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, ListOut, error) {
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, ListOut{}, err
	}
	p := in.Path
	if p == "" {
		p = "."
	}
	ents, err := x.Sandbox.ListDir(p)
	if err != nil {
		return nil, ListOut{}, toolErr(err)
	}
	out := ListOut{Entries: []Entry{}}
	for _, e := range ents {
		out.Entries = append(out.Entries, Entry{Name: e.Name, Type: e.Type(), Size: e.Size, Mode: e.Mode.String()})
	}
	return nil, out, nil
}

func (s *Server) snapshot(ctx context.Context, req *mcp.CallToolRequest, in SessionIn) (*mcp.CallToolResult, SnapshotOut, error) {
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, SnapshotOut{}, err
	}
	x.Lock()
	defer x.Unlock()
	var id string
	if n := s.opt.Cluster; n != nil {
		id, err = n.SnapshotSession(context.WithoutCancel(ctx), s.sessions, x, s.opt.MaxSnapshots)
	} else {
		id, err = s.sessions.Snapshot(x)
	}
	if err != nil {
		return nil, SnapshotOut{}, err
	}
	return nil, SnapshotOut{SnapshotID: id}, nil
}

func (s *Server) restore(ctx context.Context, req *mcp.CallToolRequest, in RestoreIn) (*mcp.CallToolResult, Empty, error) {
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, Empty{}, err
	}
	x.Lock()
	defer x.Unlock()
	var snap *core.Snapshot
	if n := s.opt.Cluster; n != nil {
		snap, err = n.SnapshotOf(ctx, x, in.SnapshotID)
	} else {
		snap, err = x.SnapshotOf(in.SnapshotID)
	}
	if err != nil {
		return nil, Empty{}, err
	}
	if err := x.Sandbox.Restore(snap); err != nil {
		return nil, Empty{}, toolErr(err)
	}
	return nil, Empty{}, s.checkpoint(ctx, x)
}

func (s *Server) fork(ctx context.Context, req *mcp.CallToolRequest, in SessionIn) (*mcp.CallToolResult, ForkOut, error) {
	x, err := s.get(ctx, req.Session, in.Session)
	if err != nil {
		return nil, ForkOut{}, err
	}
	x.Lock()
	y, err := s.sessions.Fork(ctx, x, nil) // (a fork of a shared session is shared too)
	x.Unlock()
	if err != nil {
		return nil, ForkOut{}, toolErr(err)
	}
	if n := s.opt.Cluster; n != nil {
		owner, _ := y.Owner.(*mcp.ServerSession)
		y.Lock()
		err := n.Create(context.WithoutCancel(ctx), s.clientOf(owner), y.ID, nil, y.Sandbox, 0)
		y.Unlock()
		if err != nil {
			s.sessions.Drop(y.ID)
			return nil, ForkOut{}, toolErr(err)
		}
	}
	return nil, ForkOut{Session: y.ID}, nil
}
