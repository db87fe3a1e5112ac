// Command agentloop is an agent loop over a wasmsand sandbox that runs
// without any model key: a scripted "model" stands where an LLM would,
// answering each turn with tool calls in the shape OpenAI and Anthropic
// use. It prints the definitions the model is given, then each call and
// each result (llmtools.Dispatch, outputs cut for a model).
//
//	go run ./examples/agentloop                 # shell builtins only
//	WASMSAND_ASSETS=build/assets go run ./examples/agentloop   # with coreutils and python3
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/llmtools"
)

// call is one tool call a model makes.
type call struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"arguments"`
}

// scriptedModel answers each turn from a script; a real loop sends the
// conversation to an LLM API instead and gets the calls back.
type scriptedModel struct{ turns [][]call }

func (m *scriptedModel) next(results []llmtools.Result) ([]call, bool) {
	if len(m.turns) == 0 {
		return nil, false
	}
	t := m.turns[0]
	m.turns = m.turns[1:]
	return t, true
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
}

// plain is v's JSON as a model gets it (no \u0026 for &).
func plain(v any) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	return strings.TrimSpace(b.String())
}

func run(ctx context.Context, w io.Writer) error {
	opt := core.Options{}
	if dir := assetsrc.Default(); dir != "" {
		t, err := assetsrc.Open(ctx, dir)
		if err != nil {
			return err
		}
		opt.Programs = t
	}
	sb, err := core.New(ctx, opt)
	if err != nil {
		return err
	}
	defer sb.Close()

	defs, _ := llmtools.Definitions("openai")
	b, _ := json.Marshal(defs)
	fmt.Fprintf(w, "tools given to the model (OpenAI form): %d bytes of JSON Schema\n", len(b))

	args := func(v any) json.RawMessage { return json.RawMessage(plain(v)) }
	model := &scriptedModel{turns: [][]call{
		{{"writeFile", args(map[string]string{"path": "data/scores.csv", "content": "name,score\nada,91\nbob,78\ncy,85\n"})}},
		{{"bash", args(map[string]string{"command": "total=0; n=0; while IFS=, read -r name score; do [[ $name == name ]] && continue; total=$((total + score)); n=$((n + 1)); done < data/scores.csv; echo \"mean: $((total / n))\" > data/summary.txt; echo \"$(<data/summary.txt)\""})}},
		{{"readFile", args(map[string]string{"path": "data/summary.txt"})}, {"bash", args(map[string]string{"command": "for i in {1..5000}; do echo \"row $i\"; done"})}},
		{{"readFile", args(map[string]string{"path": "missing.txt"})}},
	}}
	var results []llmtools.Result
	for turn := 1; ; turn++ {
		calls, more := model.next(results)
		if !more {
			fmt.Fprintln(w, "the model is done")
			return nil
		}
		results = results[:0]
		for _, c := range calls {
			fmt.Fprintf(w, "turn %d: %s %s\n", turn, c.Name, c.Args)
			r, err := llmtools.Dispatch(ctx, sb, c.Name, c.Args, 200)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "  -> %s\n", plain(r))
			results = append(results, r)
		}
	}
}
