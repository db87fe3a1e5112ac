// Package llmtools gives a sandbox to an LLM as function-calling tools: bash,
// readFile and writeFile (the shape bash-tool users know), their JSON
// schemas in the forms OpenAI, Anthropic and the Vercel AI SDK take, and a
// dispatcher that runs a model's call and returns a result sized for a
// model (long outputs cut in the middle, with a marker saying how much).
// The npm package's createSandboxTools uses the same definitions
// (scripts/npm bundles them into jsapi/tools.js as __WASMSAND_TOOLS__).
package llmtools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/core"
)

// MaxOutput is the default bound of a result's stdout and of its stderr.
const MaxOutput = 30000

// Tool is one tool: its name, description and JSON Schema of its input.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

func object(props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// Tools are the three tools.
var Tools = []Tool{
	{Name: "bash", Description: "Run a bash script in a sandboxed Linux-like machine (bash 5.2 with GNU coreutils, " +
		"grep, sed, awk, find, jq, sqlite3, tar, curl and python3; no network unless the operator allows it). Files, " +
		"the working directory and variables persist between calls; home is /home/user. Returns stdout, stderr and " +
		"the exit code; long output is cut in the middle.",
		Parameters: object(map[string]any{"command": str("the bash script to run")}, "command")},
	{Name: "readFile", Description: "Read a text file of the sandbox.",
		Parameters: object(map[string]any{"path": str("the file's path (relative paths are from the working directory)")}, "path")},
	{Name: "writeFile", Description: "Create or replace a text file of the sandbox (parent directories are made).",
		Parameters: object(map[string]any{"path": str("the file's path"), "content": str("the file's new content")}, "path", "content")},
}

// Definitions are the tools in a framework's form: "openai" (Chat
// Completions' {"type": "function", "function": {...}}), "anthropic"
// ({"name", "description", "input_schema"}) or "vercel" ({name:
// {"description", "inputSchema"}}, for the AI SDK's jsonSchema()).
func Definitions(format string) (any, error) {
	switch format {
	case "openai":
		var out []map[string]any
		for _, t := range Tools {
			out = append(out, map[string]any{"type": "function", "function": map[string]any{
				"name": t.Name, "description": t.Description, "parameters": t.Parameters, "strict": true}})
		}
		return out, nil
	case "anthropic":
		var out []map[string]any
		for _, t := range Tools {
			out = append(out, map[string]any{"name": t.Name, "description": t.Description, "input_schema": t.Parameters})
		}
		return out, nil
	case "vercel":
		out := map[string]any{}
		for _, t := range Tools {
			out[t.Name] = map[string]any{"description": t.Description, "inputSchema": t.Parameters}
		}
		return out, nil
	}
	return nil, fmt.Errorf("tools: no format %q (openai, anthropic or vercel)", format)
}

// Result is what a call returns to the model.
type Result struct {
	Stdout   string `json:"stdout,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	ExitCode int    `json:"exitCode"`
	Content  string `json:"content,omitempty"` // readFile
	Error    string `json:"error,omitempty"`   // a call that could not be made (bad arguments, no such file)
}

// Dispatch runs a model's call of a tool on sb; args is the call's JSON.
// A failure the model should see (a missing file, bad arguments) is in
// Result.Error, not err; err is for a sandbox that cannot run at all.
func Dispatch(ctx context.Context, sb *core.Sandbox, name string, args json.RawMessage, maxOutput int) (Result, error) {
	if maxOutput <= 0 {
		maxOutput = MaxOutput
	}
	var in struct {
		Command string  `json:"command"`
		Path    string  `json:"path"`
		Content *string `json:"content"`
	}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return Result{ExitCode: 2, Error: "the arguments are not a JSON object: " + err.Error()}, nil
		}
	}
	switch name {
	case "bash":
		if strings.TrimSpace(in.Command) == "" {
			return Result{ExitCode: 2, Error: "command is required"}, nil
		}
		res, err := sb.Run(ctx, in.Command, core.RunOptions{})
		if err != nil {
			return Result{}, err
		}
		out, _ := Trim(res.Stdout, maxOutput)
		errOut, _ := Trim(res.Stderr, maxOutput)
		return Result{Stdout: out, Stderr: errOut, ExitCode: res.ExitCode}, nil
	case "readFile":
		if in.Path == "" {
			return Result{ExitCode: 2, Error: "path is required"}, nil
		}
		b, err := sb.ReadFile(in.Path)
		if err != nil {
			return Result{ExitCode: 1, Error: strings.TrimPrefix(err.Error(), "wasmsand: ")}, nil
		}
		content, _ := Trim(b, maxOutput)
		return Result{Content: content}, nil
	case "writeFile":
		if in.Path == "" || in.Content == nil {
			return Result{ExitCode: 2, Error: "path and content are required"}, nil
		}
		if err := sb.WriteFile(in.Path, []byte(*in.Content), 0); err != nil {
			return Result{ExitCode: 1, Error: strings.TrimPrefix(err.Error(), "wasmsand: ")}, nil
		}
		return Result{Content: fmt.Sprintf("wrote %d bytes to %s", len(*in.Content), in.Path)}, nil
	}
	return Result{ExitCode: 2, Error: fmt.Sprintf("no tool %q (bash, readFile, writeFile)", name)}, nil
}

// Trim cuts b to about max bytes by leaving out its middle, with a marker
// that says how many bytes were left out; it reports whether it cut. The
// cut falls at line ends where one is near, never inside a character.
func Trim(b []byte, max int) (string, bool) {
	if len(b) <= max {
		return string(b), false
	}
	head, tail := max/2, max-max/2
	if i := bytes.LastIndexByte(b[:head], '\n'); i >= head/2 {
		head = i + 1
	}
	for head > 0 && !utf8.RuneStart(b[head]) {
		head--
	}
	t := len(b) - tail
	if i := bytes.IndexByte(b[t:], '\n'); i >= 0 && i < tail/2 {
		t += i + 1
	}
	for t < len(b) && !utf8.RuneStart(b[t]) {
		t++
	}
	return fmt.Sprintf("%s[... %d bytes left out of %d ...]\n%s", b[:head], t-head, len(b), b[t:]), true
}
