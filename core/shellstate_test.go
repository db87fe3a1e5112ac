package core

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shellProbe shows what a shell carries from one run to the next.
const shellProbe = `echo "status $?"; declare -p; declare -f; alias -p; shopt -p; set +o; trap -p; pwd; dirs; umask; echo "$# $*"`

// probe runs shellProbe, without the variables that differ between two
// shells in their own right (the clock's, the random generators').
func probe(t *testing.T, sb *Sandbox) string {
	t.Helper()
	res := mustRun(t, sb, shellProbe)
	require.Empty(t, string(res.Stderr))
	var out []string
	for _, l := range strings.SplitAfter(string(res.Stdout), "\n") {
		drop := false
		for _, v := range []string{"RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME"} {
			drop = drop || strings.Contains(l, " "+v+"=")
		}
		if !drop {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

func TestShellStateRoundTrip(t *testing.T) {
	a := testSandbox(t, Options{})
	st, err := a.ShellState()
	require.NoError(t, err)
	assert.Nil(t, st, "never ran: nothing to save")

	mustRun(t, a, `cd /tmp; pushd /etc >/dev/null; declare -ri n=5; declare -a arr=(1 "two words" $'\n'); declare -A m=([k]=v [a b]=c); declare -n ref=n; export E=1; f() { echo "f:$1"; }; declare -fx f; alias ll='echo ll'; shopt -s expand_aliases extglob; set -o pipefail; trap 'echo bye' EXIT; umask 027; set -- a 'b c'; false`)
	st, err = a.ShellState()
	require.NoError(t, err)
	require.NotEmpty(t, st)

	b := testSandbox(t, Options{})
	mustRun(t, b, "x=stale; cd /")
	require.NoError(t, b.LoadShellState(st))
	assert.Equal(t, "/etc", b.Cwd())
	want := probe(t, a)
	assert.Equal(t, want, probe(t, b))
	assert.Contains(t, want, "declare -ir n=\"5\"")

	res := mustRun(t, b, "f x; ll; exit 4")
	assert.Equal(t, "f:x\nll\nbye\n", string(res.Stdout))
	assert.Equal(t, 4, res.ExitCode)

	// a sandbox made from another one before its shell started
	c := testSandbox(t, Options{})
	require.NoError(t, c.LoadShellState(st))
	assert.Equal(t, want, probe(t, c))
}

func TestShellStateErrors(t *testing.T) {
	a := testSandbox(t, Options{})
	mustRun(t, a, "x=1; f() { echo $x; }")
	st, err := a.ShellState()
	require.NoError(t, err)

	b := testSandbox(t, Options{})
	mustRun(t, b, "y=kept")
	for _, bad := range [][]byte{nil, []byte("garbage"), []byte("# wasmsand shell state v99\n")} {
		err := b.LoadShellState(bad)
		require.Error(t, err)
		assert.Equal(t, CodeInvalidArgument, ErrorCode(err), "%q", bad)
	}
	for _, bad := range [][]byte{
		st[:len(st)/2],
		[]byte(strings.Replace(string(st), "declare -- x=\"1\"", "touch /pwned", 1)),
		[]byte(strings.Replace(string(st), "declare -- x=\"1\"", "declare -- x=\"$(touch /pwned)\"", 1)),
	} {
		err := b.LoadShellState(bad)
		require.Error(t, err)
		assert.Equal(t, CodeCorruptState, ErrorCode(err))
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "LoadShellState", e.Op)
	}
	_, err = b.Stat("/pwned")
	assert.Error(t, err, "nothing ran")
	assert.Equal(t, "kept\n", string(mustRun(t, b, "echo $y").Stdout), "a refused state changes nothing")

	b.Close()
	_, err = b.ShellState()
	assert.Equal(t, CodeClosed, ErrorCode(err))
	assert.Equal(t, CodeClosed, ErrorCode(b.LoadShellState(st)))
}

// TestShellStateOfFork: a fork carries its parent's shell as it was when
// it forked, before its own shell starts and through forks of its own.
func TestShellStateOfFork(t *testing.T) {
	a := testSandbox(t, Options{})
	mustRun(t, a, "x=1")
	child, err := a.Fork(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { child.Close() })
	mustRun(t, a, "x=2")
	grandchild, err := child.Fork(context.Background())
	require.NoError(t, err)
	t.Cleanup(func() { grandchild.Close() })

	st, err := child.ShellState()
	require.NoError(t, err)
	assert.Contains(t, string(st), "declare -- x=\"1\"\n")
	assert.Equal(t, "1\n", string(mustRun(t, grandchild, "echo $x").Stdout))
	assert.Equal(t, "1\n", string(mustRun(t, child, "echo $x").Stdout))
}
