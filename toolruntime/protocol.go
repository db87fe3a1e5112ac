package toolruntime

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The wire protocol of the design's §5, on NATS: its topics become subjects (the '/'
// separators become '.'), its user properties become headers, and the messages are
// its JSON-RPC 2.0 documents unchanged.

// Method names.
const (
	MethodInvoke = "sam_remote_tool/invoke"
	MethodStatus = "sam_remote_tool/status"
)

// Headers of an invocation.
const (
	HeaderReplyTo  = "replyTo"
	HeaderStatusTo = "statusTo"
	HeaderClientID = "clientId"
	HeaderUserID   = "userId"
	// HeaderSignature is "sha256=<hex>", an HMAC-SHA256 (see Signer).
	HeaderSignature = "signature"
	// HeaderTimestamp is the signing time, Unix seconds.
	HeaderTimestamp = "timestamp"
)

// Error codes (the design's §5).
const (
	ErrSandboxTimeout   = "SANDBOX_TIMEOUT"
	ErrSandboxFailed    = "SANDBOX_FAILED"
	ErrToolNotAvailable = "TOOL_NOT_AVAILABLE" // retried once by the client
	ErrToolNotFound     = "TOOL_NOT_FOUND"
	ErrImport           = "IMPORT_ERROR"
	ErrExecution        = "EXECUTION_ERROR"
	ErrTool             = "TOOL_ERROR"
	ErrArtifact         = "ARTIFACT_ERROR"
	ErrInvalidRequest   = "INVALID_REQUEST"
	ErrInternal         = "INTERNAL_ERROR"
	// Beyond the design: the gaps of its §9.6, closed.
	ErrUnauthorized = "UNAUTHORIZED" // unsigned or badly signed request
	ErrRateLimited  = "RATE_LIMITED" // the user is over the worker's rate
	ErrNoWorker     = "NO_WORKER"    // client side: no worker serves the tool
)

// Subjects names the subjects of one namespace.
type Subjects struct{ Namespace string }

func (s Subjects) prefix() string {
	ns := strings.Trim(strings.ReplaceAll(s.Namespace, "/", "."), ".")
	if ns == "" {
		ns = "default"
	}
	return ns + ".a2a.v1.sam_remote_tool."
}

// Invoke is the subject a tool's invocations are published on.
func (s Subjects) Invoke(tool string) string { return s.prefix() + "invoke." + tool }

// InvokeAs is where an agent the bus authenticated publishes (bus.go): the
// subject says who it is.
func (s Subjects) InvokeAs(tool, user string) string { return s.Invoke(tool) + "." + token(user) }

// identity is the agent token of an invocation's subject (Invoke or Queue
// of tool, then the user), "" when it has none.
func (s Subjects) identity(tool, subject string) string {
	for _, base := range []string{s.Invoke(tool), s.Queue(tool)} {
		if u, ok := strings.CutPrefix(subject, base+"."); ok && !strings.Contains(u, ".") {
			return u
		}
	}
	return ""
}

// Response is where the answer to one request goes.
func (s Subjects) Response(agent, corrID string) string {
	return s.prefix() + "response." + token(agent) + "." + token(corrID)
}

// Status is where one request's status updates go.
func (s Subjects) Status(agent, corrID string) string {
	return s.prefix() + "status." + token(agent) + "." + token(corrID)
}

// token makes s one subject token: no separators, wildcards or spaces.
func token(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', '*', '>', ' ', '\t', '\r', '\n':
			return '_'
		}
		return r
	}, s)
}

// Request is an invocation (a JSON-RPC request).
type Request struct {
	JSONRPC string        `json:"jsonrpc"`
	ID      string        `json:"id"`
	Method  string        `json:"method"`
	Params  RequestParams `json:"params"`
}

// RequestParams are an invocation's parameters (the design's §5).
type RequestParams struct {
	TaskID             string                 `json:"task_id"`
	ToolName           string                 `json:"tool_name"`
	Args               json.RawMessage        `json:"args,omitempty"`
	ToolConfig         map[string]any         `json:"tool_config,omitempty"`
	AppName            string                 `json:"app_name,omitempty"`
	UserID             string                 `json:"user_id,omitempty"`
	SessionID          string                 `json:"session_id,omitempty"`
	PreloadedArtifacts map[string]Preloaded   `json:"preloaded_artifacts,omitempty"`
	ArtifactReferences map[string]ArtifactRef `json:"artifact_references,omitempty"`
	TimeoutSeconds     float64                `json:"timeout_seconds,omitempty"`
	SandboxProfile     string                 `json:"sandbox_profile,omitempty"`
}

// Preloaded is an artifact sent in the request itself, base64 (small inputs).
type Preloaded struct {
	Filename string `json:"filename,omitempty"`
	Content  string `json:"content"` // base64
	MimeType string `json:"mime_type,omitempty"`
}

// ArtifactRef names a stored artifact; Version nil means the latest.
type ArtifactRef struct {
	Filename string `json:"filename"`
	Version  *int   `json:"version,omitempty"`
}

// Response is the answer: Result or Error.
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      string          `json:"id"`
	Result  *Result         `json:"result,omitempty"`
	Error   *ErrorObject    `json:"error,omitempty"`
	Raw     json.RawMessage `json:"-"`
}

// Result is a successful invocation's outcome.
type Result struct {
	ToolResult       json.RawMessage   `json:"tool_result"`
	ExecutionTimeMs  int64             `json:"execution_time_ms"`
	TimedOut         bool              `json:"timed_out"`
	CreatedArtifacts []CreatedArtifact `json:"created_artifacts"`
}

// CreatedArtifact describes a file the tool left in output/, now stored.
type CreatedArtifact struct {
	Filename  string `json:"filename"`
	Version   int    `json:"version"`
	MimeType  string `json:"mime_type"`
	SizeBytes int64  `json:"size_bytes"`
	SHA256    string `json:"sha256,omitempty"`
}

// ErrorObject is a failed invocation's error; Code is one of the Err constants.
type ErrorObject struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *ErrorObject) Error() string { return e.Code + ": " + e.Message }

// Retryable: the client tries once more (the design: TOOL_NOT_AVAILABLE only).
func (e *ErrorObject) Retryable() bool { return e.Code == ErrToolNotAvailable }

// StatusNote is a status update (a JSON-RPC notification).
type StatusNote struct {
	JSONRPC string       `json:"jsonrpc"`
	Method  string       `json:"method"`
	Params  StatusParams `json:"params"`
}

// StatusParams are a status update's parameters.
type StatusParams struct {
	TaskID     string `json:"task_id"`
	StatusText string `json:"status_text"`
	Timestamp  string `json:"timestamp"`
}

func errorf(code, format string, args ...any) *ErrorObject {
	return &ErrorObject{Code: code, Message: fmt.Sprintf(format, args...)}
}
