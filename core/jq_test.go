package core_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
)

// TestJqPreinit: jq resumed from its pre-initialized image (the builtins
// library parsed once, assets/jq/preinit.c) behaves as jq started cold
// (a deterministic sandbox never resumes) — programs, libraries from
// ~/.jq, the environment, arguments, files, the working directory, errors.
func TestJqPreinit(t *testing.T) {
	tools := pythonTools(t) // (the built assets, jq among them)
	ctx := context.Background()
	setup := `echo 'def twice: . * 2;' > ~/.jq; mkdir -p /tmp/d; echo '{"a":[3,1,2],"s":"x,y"}' > /tmp/d/in.json`
	warm := newPythonSandbox(t, tools, core.Options{})
	cold := newPythonSandbox(t, tools, core.Options{Deterministic: &core.Deterministic{}})
	for _, sb := range []*core.Sandbox{warm, cold} {
		_, err := sb.Run(ctx, setup, core.RunOptions{})
		require.NoError(t, err)
	}
	for _, cmd := range []string{
		`jq -n 1`,
		`jq -c '.a | sort | map(twice)' /tmp/d/in.json`,
		`cd /tmp/d && jq -r '.s | split(",")[]' in.json`,
		`FOO=bar jq -n '$ENV.FOO, env.HOME'`,
		`jq -n --arg x 1 --argjson y '{"z":2}' '[$x, $y.z, $__prog_args?]' -c`,
		`jq -n '[builtins | length, (builtins | map(select(startswith("to"))) | sort)]' -c`,
		`echo '"ab"' | jq 'test("b"), ascii_upcase, @base64, (. as $s | [range(3)] | map($s))' -c`,
		`jq -n 'undefined_fn'`,
		`jq . /nope`,
		`jq -n '"\(1+1)" | tonumber + 0.5, (now | type), ([limit(3; repeat(1))])' -c`,
		`printf '1 2 3' | jq -s add`,
		`jq --seq -n '[1]'; jq -e -n 'false'; echo $?`,
	} {
		w, err := warm.Run(ctx, cmd, core.RunOptions{})
		require.NoError(t, err)
		c, err := cold.Run(ctx, cmd, core.RunOptions{})
		require.NoError(t, err)
		assert.Equal(t, string(c.Stdout), string(w.Stdout), "%s: stdout", cmd)
		assert.Equal(t, string(c.Stderr), string(w.Stderr), "%s: stderr", cmd)
		assert.Equal(t, c.ExitCode, w.ExitCode, "%s: exit", cmd)
	}
}
