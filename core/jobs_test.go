package core_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
)

// A background job that runs a program is in the process table under the
// program's name as soon as the shell goes on, as bash's exec'd child is
// (plain words and $x expanded ahead); ( a; b ) & is one shell process.
func TestBackgroundJobShowsItsProgram(t *testing.T) {
	sb, err := core.New(context.Background(), core.Options{Programs: pythonTools(t)}) // (every built asset)
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	res, err := sb.Run(context.Background(), `x=2; sleep 5 & a=$!; sleep $x & b=$!; (sleep 5; true) & c=$!
ps -o args= -p $a; ps -o args= -p $b; ps -o args= -p $c
kill $a $b $c; wait`, core.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, string(res.Stderr))
	assert.Equal(t, "sleep 5\nsleep 2\nbash\n", string(res.Stdout))

	// ( a; b ) & is one shell: the job's program's parent is the job itself
	res, err = sb.Run(context.Background(), `(sleep 5; true) & c=$!; until pgrep -P $c >/dev/null; do sleep 0.05; done
ps -o args= --ppid $c; kill %1 2>/dev/null; pkill -P $c; wait; echo done`, core.RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "sleep 5\ndone\n", string(res.Stdout), string(res.Stderr))
}
