package core

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMemoryHeldIsBounded: what a sandbox keeps in the host's memory
// between runs (shell variables in all, files, what snapshots keep) stays
// under its limits however a script tries: one variable, many variables,
// arrays, a loop of snapshots; past them the script gets bash's error and
// the sandbox goes on.
func TestMemoryHeldIsBounded(t *testing.T) {
	const limit = 64 // MB, for programs and for the shell's variables
	sb := testSandbox(t, Options{MemoryLimitMB: limit, FSLimitMB: 32})
	big := `s=xxxxxxxx; for i in {1..20}; do s=$s$s; done; ` // 8 MiB
	for name, script := range map[string]string{
		"many variables": big + `for i in {1..40}; do eval "v$i=\$s\$i" || break; done`,
		"an array":       big + `for i in {1..40}; do a[i]=$s$i || break; done`,
		"an assoc array": big + `declare -A m; for i in {1..40}; do m[k$i]=$s$i || break; done`,
		"one variable":   big + `for i in {1..5}; do s=$s$s || break; done`,
		"locals":         big + `f() { local x=$s$1; f2 "$(($1+1))"; }; f2() { (( $1 > 40 )) || f "$1"; }; f 1`,
	} {
		res, err := sb.Run(context.Background(), script, RunOptions{})
		require.NoError(t, err, name)
		assert.Contains(t, string(res.Stderr), "xrealloc: cannot allocate", name)
		assert.LessOrEqual(t, sb.MemoryHeld(), int64(limit+16)<<20, name)
		res = mustRun(t, sb, "echo still here")
		assert.Equal(t, "still here\n", string(res.Stdout), name)
		mustRun(t, sb, "unset s a m $(compgen -v v); unset -f f f2")
	}

	// files and snapshots: a loop of write, snapshot, remove stops at the
	// quota (32 MB) rather than keeping every version
	var snaps []*Snapshot
	for i := 0; i < 20; i++ {
		res := mustRun(t, sb, "printf '%04000000d' 0 > /tmp/f || exit 1")
		if res.ExitCode != 0 {
			break
		}
		snaps = append(snaps, sb.Snapshot())
		mustRun(t, sb, "rm /tmp/f")
	}
	assert.Greater(t, len(snaps), 3)
	assert.Less(t, len(snaps), 10, "each snapshot keeps 4 MB of a 32 MB quota")
	assert.LessOrEqual(t, sb.FS().Held(), int64(32)<<20)
}
