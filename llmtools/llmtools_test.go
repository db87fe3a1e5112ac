package llmtools_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/llmtools"
)

func TestDefinitions(t *testing.T) {
	for _, f := range []string{"openai", "anthropic", "vercel"} {
		d, err := llmtools.Definitions(f)
		require.NoError(t, err)
		b, _ := json.Marshal(d)
		for _, name := range []string{"bash", "readFile", "writeFile"} {
			assert.Contains(t, string(b), `"`+name+`"`, f)
		}
	}
	d, _ := llmtools.Definitions("openai")
	b, _ := json.Marshal(d.([]map[string]any)[0])
	assert.JSONEq(t, `{"type":"function","function":{"name":"bash","strict":true,"description":"`+llmtools.Tools[0].Description+`",
		"parameters":{"type":"object","properties":{"command":{"type":"string","description":"the bash script to run"}},"required":["command"],"additionalProperties":false}}}`, string(b))
	d, _ = llmtools.Definitions("anthropic")
	assert.Contains(t, d.([]map[string]any)[2], "input_schema")
	_, err := llmtools.Definitions("nope")
	assert.Error(t, err)
}

func TestDispatch(t *testing.T) {
	sb, err := core.New(context.Background(), core.Options{})
	require.NoError(t, err)
	defer sb.Close()
	call := func(name, args string) llmtools.Result {
		r, err := llmtools.Dispatch(context.Background(), sb, name, json.RawMessage(args), 100)
		require.NoError(t, err)
		return r
	}
	assert.Equal(t, llmtools.Result{Stdout: "hi\n", Stderr: "e\n", ExitCode: 3}, call("bash", `{"command": "echo hi; echo e >&2; exit 3"}`))
	assert.Equal(t, llmtools.Result{Content: "wrote 5 bytes to d/f.txt"}, call("writeFile", `{"path": "d/f.txt", "content": "x\ny\nz"}`))
	assert.Equal(t, llmtools.Result{Content: "x\ny\nz"}, call("readFile", `{"path": "/home/user/d/f.txt"}`))
	r := call("bash", `{"command": "for i in {1..100}; do echo line $i; done"}`)
	assert.Equal(t, "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n[... 694 bytes left out of 792 ...]\nline 95\nline 96\nline 97\nline 98\nline 99\nline 100\n", r.Stdout)
	assert.Equal(t, "ReadFile nope: no such file or directory", call("readFile", `{"path": "nope"}`).Error)
	assert.Equal(t, "command is required", call("bash", `{}`).Error)
	assert.Contains(t, call("bash", `[1]`).Error, "not a JSON object")
	assert.Contains(t, call("rm", `{}`).Error, `no tool "rm"`)
}

func TestTrim(t *testing.T) {
	s, cut := llmtools.Trim([]byte("short"), 10)
	assert.Equal(t, "short", s)
	assert.False(t, cut)
	s, cut = llmtools.Trim([]byte(strings.Repeat("é", 100)), 21) // (never splits a character)
	assert.True(t, cut)
	assert.True(t, strings.HasPrefix(s, strings.Repeat("é", 5)+"[... ") && strings.HasSuffix(s, " ...]\n"+strings.Repeat("é", 5)), s)
}
