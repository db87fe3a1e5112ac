package core

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/internal/testguest"
)

// TestDeterministic: the same script in two deterministic sandboxes gives
// the same bytes; another seed other random numbers; sleeps take no time.
func TestDeterministic(t *testing.T) {
	guest := testguest.C(t, "testdata/guests/clockrand.c")
	const script = `echo $RANDOM $RANDOM $SRANDOM; printf '%(%F %T)T\n' -1; echo x > f; [[ f -nt /etc ]] && echo newer || echo same-time`
	run := func(seed uint64) (string, string, time.Duration) {
		sb := testSandbox(t, Options{Deterministic: &Deterministic{Seed: seed}})
		res := mustRun(t, sb, script)
		start := time.Now()
		g, err := sb.RunWASI(context.Background(), guest, []string{"clockrand"}, RunOptions{})
		require.NoError(t, err)
		return string(res.Stdout) + string(res.Stderr), string(g.Stdout) + string(g.Stderr), time.Since(start)
	}
	a, ga, took := run(7)
	b, gb, _ := run(7)
	c, gc, _ := run(8)
	assert.Equal(t, a, b)
	assert.Equal(t, ga, gb)
	assert.NotEqual(t, a, c)
	assert.NotEqual(t, ga, gc)
	assert.Contains(t, a, "2000-01-01 00:00:00\nsame-time\n")
	assert.Regexp(t, `^946684800\.\d{9} slept 1 [0-9a-f]{16}\n$`, ga)
	assert.Less(t, took, 900*time.Millisecond, "the guest's sleep(1) took real time")
}
