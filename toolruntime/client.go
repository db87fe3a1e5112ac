package toolruntime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
)

// Client invokes tools (the design's SamRemoteExecutor): a request with a correlation
// id, its status updates and its response on subjects of their own, the time limit
// plus 10 s, and one retry of TOOL_NOT_AVAILABLE after a second.
type Client struct {
	Conn      *nats.Conn
	Namespace string
	Agent     string  // the clientId and the response subjects' agent token; default "wasmsand"
	Signer    *Signer // signs requests, for workers that require it, and checks their answers
	// User is the identity the bus authenticated this connection as
	// (Credentials.User): invocations go out on its own subjects, as it,
	// and its answers come back on them (bus.go).
	User string
	// Durable publishes to the tools' JetStream work queue (workers started with
	// Durable): a request waits there for a worker, so no one serving the tool is
	// not an error until the time limit.
	Durable bool
}

// InvokeOptions are an invocation's parameters besides the tool and its arguments.
type InvokeOptions struct {
	UserID, SessionID string
	ToolConfig        map[string]any
	// Preload sends these files in the request itself (small inputs).
	Preload map[string][]byte
	// References name stored artifacts by parameter name.
	References     map[string]ArtifactRef
	TimeoutSeconds float64 // default DefaultTimeout
	SandboxProfile string
	OnStatus       func(text string)
}

// UnverifiedWait is how long a client that checks signatures waits, after an
// answer it cannot verify, for one it can.
var UnverifiedWait = 2 * time.Second

// RetryDelay is how long the client waits before its one retry.
var RetryDelay = time.Second

// Invoke calls tool with args and waits for its result; a failed invocation's error
// is an *ErrorObject (ErrNoWorker when no worker serves the tool).
func (c *Client) Invoke(ctx context.Context, tool string, args any, opt InvokeOptions) (*Result, error) {
	res, err := c.invoke(ctx, tool, args, opt)
	var eo *ErrorObject
	if errors.As(err, &eo) && eo.Retryable() {
		select {
		case <-time.After(RetryDelay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		res, err = c.invoke(ctx, tool, args, opt)
	}
	return res, err
}

func (c *Client) invoke(ctx context.Context, tool string, args any, opt InvokeOptions) (*Result, error) {
	agent := c.Agent
	if agent == "" {
		agent = "wasmsand"
	}
	if c.User != "" {
		if opt.UserID != "" && opt.UserID != c.User {
			return nil, fmt.Errorf("toolruntime: user %q: this connection is %q on the bus", opt.UserID, c.User)
		}
		agent, opt.UserID = c.User, c.User
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("toolruntime: args: %w", err)
	}
	if args == nil {
		raw = json.RawMessage("{}")
	}
	limit := opt.TimeoutSeconds
	if limit <= 0 {
		limit = DefaultTimeout
	}
	id := nuid.Next()
	p := RequestParams{TaskID: id, ToolName: tool, Args: raw, ToolConfig: opt.ToolConfig, AppName: agent,
		UserID: opt.UserID, SessionID: opt.SessionID, ArtifactReferences: opt.References,
		TimeoutSeconds: limit, SandboxProfile: opt.SandboxProfile}
	if len(opt.Preload) > 0 {
		p.PreloadedArtifacts = map[string]Preloaded{}
		for name, data := range opt.Preload {
			p.PreloadedArtifacts[name] = Preloaded{Filename: name, Content: base64.StdEncoding.EncodeToString(data)}
		}
	}
	body, err := json.Marshal(Request{JSONRPC: "2.0", ID: id, Method: MethodInvoke, Params: p})
	if err != nil {
		return nil, err
	}
	subj := Subjects{c.Namespace}
	respTo, statusTo := subj.Response(agent, id), subj.Status(agent, id)
	replies := make(chan *nats.Msg, 4)
	rsub, err := c.Conn.ChanSubscribe(respTo, replies)
	if err != nil {
		return nil, err
	}
	defer rsub.Unsubscribe()
	// Status notes come on a channel too, read in the same loop as the
	// response: the connection fills both in the order they arrived, so
	// the notes sent before the response are all seen before it returns.
	var statuses chan *nats.Msg
	status := func(m *nats.Msg) {
		if c.Signer != nil && c.Signer.Verify(m) != nil {
			return
		}
		var n StatusNote
		if json.Unmarshal(m.Data, &n) == nil {
			opt.OnStatus(n.Params.StatusText)
		}
	}
	if opt.OnStatus != nil {
		statuses = make(chan *nats.Msg, 64)
		ssub, err := c.Conn.ChanSubscribe(statusTo, statuses)
		if err != nil {
			return nil, err
		}
		defer ssub.Unsubscribe()
	}
	msg := nats.NewMsg(subj.Invoke(tool))
	if c.User != "" {
		msg.Subject = subj.InvokeAs(tool, c.User)
	}
	if c.Durable {
		msg.Subject = subj.Queue(tool)
		if c.User != "" {
			msg.Subject += "." + token(c.User)
		}
	} else {
		// the reply subject too: with no subscriber NATS answers at once with status 503
		msg.Reply = respTo
	}
	msg.Data = body
	msg.Header.Set(HeaderReplyTo, respTo)
	msg.Header.Set(HeaderStatusTo, statusTo)
	msg.Header.Set(HeaderClientID, agent)
	if opt.UserID != "" {
		msg.Header.Set(HeaderUserID, opt.UserID)
	}
	if c.Signer != nil {
		c.Signer.Sign(msg)
	}
	if c.Durable {
		js, err := jetstream.New(c.Conn)
		if err != nil {
			return nil, err
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err = js.PublishMsg(pctx, msg, jetstream.WithMsgID(id))
		cancel()
		if err != nil {
			return nil, fmt.Errorf("toolruntime: durable queue: %w", err)
		}
	} else if err := c.Conn.PublishMsg(msg); err != nil {
		return nil, err
	}
	timer := time.NewTimer(time.Duration(limit*float64(time.Second)) + 10*time.Second)
	defer timer.Stop()
	var unverified <-chan time.Time
	for {
		select {
		case <-unverified:
			return nil, errorf(ErrUnauthorized, "an answer came for %s that is not signed with this client's key (the worker's key differs, or the answer was forged)", tool)
		case m := <-statuses:
			status(m)
		case m := <-replies:
			for drained := false; !drained; {
				select {
				case s := <-statuses:
					status(s)
				default:
					drained = true
				}
			}
			if len(m.Data) == 0 && m.Header.Get("Status") == "503" {
				return nil, errorf(ErrNoWorker, "no worker serves tool %s", tool)
			}
			if c.Signer != nil {
				if err := c.Signer.Verify(m); err != nil {
					// not the worker's (a forged answer is no answer), or the
					// worker's under another key: wait a little for one
					// that verifies, then say so
					if unverified == nil {
						unverified = time.After(UnverifiedWait)
					}
					continue
				}
			}
			var r Response
			if err := json.Unmarshal(m.Data, &r); err != nil {
				return nil, fmt.Errorf("toolruntime: bad response: %w", err)
			}
			if r.ID != id && r.ID != "" { // ("": a request the worker could not read)
				continue
			}
			if r.Error != nil {
				return nil, r.Error
			}
			if r.Result == nil {
				return nil, errors.New("toolruntime: a response with neither result nor error")
			}
			return r.Result, nil
		case <-timer.C:
			return nil, &ErrorObject{Code: ErrSandboxTimeout, Message: fmt.Sprintf("no response to %s within %v", tool, time.Duration(limit*float64(time.Second))+10*time.Second),
				Data: map[string]any{"timed_out": true}}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
