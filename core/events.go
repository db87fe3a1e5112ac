package core

import (
	"context"
	"io"
	"time"

	"github.com/wasmsand/wasmsand/shell"
)

// Event is something that happened in a sandbox, for Options.OnEvent (the
// CLI writes them as JSON lines with --events). Which fields are set
// depends on Kind.
type Event struct {
	Time time.Time `json:"time"`
	// Kind: run_start, run_end, process_start, process_exit, output,
	// network, limit.
	Kind string `json:"kind"`
	Run  int64  `json:"run,omitempty"` // the run it belongs to (1, 2, ...)

	Script string   `json:"script,omitempty"` // run_start
	Pid    int      `json:"pid,omitempty"`    // process_*
	Argv   []string `json:"argv,omitempty"`   // process_start

	Status     *int    `json:"status,omitempty"`      // run_end, process_exit
	DurationMs float64 `json:"duration_ms,omitempty"` // run_end, process_exit, network
	TimedOut   bool    `json:"timed_out,omitempty"`   // run_end
	Truncated  bool    `json:"truncated,omitempty"`   // run_end: output past OutputLimit

	// output: a chunk a run wrote to its stdout or stderr, as it came
	Stream string `json:"stream,omitempty"`
	Data   []byte `json:"data,omitempty"` // (base64 in JSON)

	// network: the request (its URL without user information), whether the
	// policy allowed it and by which rule, or why not; the answer.
	Method     string `json:"method,omitempty"`
	URL        string `json:"url,omitempty"`
	Allowed    *bool  `json:"allowed,omitempty"`
	Rule       string `json:"rule,omitempty"`
	Reason     string `json:"reason,omitempty"`
	HTTPStatus int    `json:"http_status,omitempty"`
	Bytes      int64  `json:"bytes,omitempty"`

	// limit: which limit a run met: timeout, output (cut at OutputLimit),
	// output_flood (the run ended for it), memory (a process, Pid),
	// processes (a spawn refused at MaxProcesses)
	Limit string `json:"limit,omitempty"`
}

// emit hands an event to Options.OnEvent; a panicking handler is the
// embedder's bug, never the sandbox's end.
func (sb *Sandbox) emit(e Event) {
	h := sb.opt.OnEvent
	if h == nil {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	if e.Run == 0 {
		e.Run = sb.runID.Load()
	}
	defer func() { _ = recover() }()
	h(e)
}

func intp(v int) *int { return &v }

// outputEvents passes a run's output on to w (when set) and tells
// Options.OnEvent of each chunk.
type outputEvents struct {
	w      io.Writer
	sb     *Sandbox
	stream string
}

func (o outputEvents) Write(p []byte) (int, error) {
	o.sb.emit(Event{Kind: "output", Stream: o.stream, Data: append([]byte(nil), p...)})
	if o.w != nil {
		return o.w.Write(p)
	}
	return len(p), nil
}

// Unwrap gives the writer underneath (so a terminal is still seen as one).
func (o outputEvents) Unwrap() io.Writer { return o.w }

// observeOutput wraps a run's stdout and stderr when someone listens.
func (sb *Sandbox) observeOutput(stdout, stderr io.Writer) (io.Writer, io.Writer) {
	if sb.opt.OnEvent == nil {
		return stdout, stderr
	}
	return outputEvents{stdout, sb, "stdout"}, outputEvents{stderr, sb, "stderr"}
}

// observed wraps the commands that run in-process (Go code, a platform
// runtime) so that they too have process events; WebAssembly programs
// get theirs from execGuest.
func (sb *Sandbox) observed(c *shell.Commands) *shell.Commands {
	var list []shell.Command
	for _, name := range c.Names() {
		cmd, _ := c.Lookup(name)
		if run := cmd.Run; run != nil {
			cmd.Run = func(ctx context.Context, s *shell.Session, req *shell.ExecRequest) int {
				start := time.Now()
				sb.emit(Event{Kind: "process_start", Pid: req.Pid, Argv: req.Argv})
				st := run(ctx, s, req)
				sb.emit(Event{Kind: "process_exit", Pid: req.Pid, Status: intp(st), DurationMs: ms(time.Since(start))})
				return st
			}
		}
		list = append(list, cmd)
	}
	return shell.NewCommands(list)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
