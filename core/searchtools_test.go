package core_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
)

// TestSearchToolsTerminal: rg and fd (Rust, assets/ripgrep and assets/fd)
// colour their output and rg groups matches under a heading when stdout is
// a terminal, as natively, and not when it is a pipe or a file. (The
// conformance groups rg and fd cover the rest: their runs have no terminal.)
func TestSearchToolsTerminal(t *testing.T) {
	tools := pythonTools(t) // (the built assets, rg and fd among them)
	sb := newPythonSandbox(t, tools, core.Options{})
	ctx := context.Background()
	_, err := sb.Run(ctx, `mkdir -p /tmp/s/d && cd /tmp/s && printf 'one needle\n' > d/a.txt && printf 'x\n' > b.txt`, core.RunOptions{})
	require.NoError(t, err)

	var tty ttyBuffer
	res, err := sb.Run(ctx, `cd /tmp/s && rg needle && fd a.txt`, core.RunOptions{Stdout: &tty})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, string(res.Stderr))
	out := tty.String()
	assert.Contains(t, out, "\x1b[", "colour on a terminal")
	assert.Contains(t, out, "d/a.txt\x1b[0m\n", "rg's heading: the file name on its own line")
	assert.Contains(t, out, "needle", out)

	res, err = sb.Run(ctx, `cd /tmp/s && rg needle && fd a.txt`, core.RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "d/a.txt:one needle\nd/a.txt\n", string(res.Stdout), "no colour, no heading into a pipe")

	// Given input, rg searches it rather than the directory, as natively.
	res, err = sb.Run(ctx, `cd /tmp/s && rg needle; echo "status $?"`, core.RunOptions{Stdin: strings.NewReader("a needle in stdin\n")})
	require.NoError(t, err)
	assert.Equal(t, "a needle in stdin\nstatus 0\n", string(res.Stdout))
}
