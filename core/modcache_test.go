package core

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tinyModule is a WASI module whose _start returns at once; n makes its
// bytes (so its content key) its own.
func tinyModule(n int) []byte {
	return []byte{0, 'a', 's', 'm', 1, 0, 0, 0,
		1, 4, 1, 0x60, 0, 0, // type: () -> ()
		3, 2, 1, 0, // one function of that type
		5, 3, 1, 0, 1, // a memory of one page
		7, 19, 2, 6, '_', 's', 't', 'a', 'r', 't', 0, 0, 6, 'm', 'e', 'm', 'o', 'r', 'y', 2, 0,
		10, 4, 1, 2, 0, 0x0b, // its code: end
		0, 7, 1, 'n', byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24), 0}
}

// TestModuleCacheBounded: programs a sandbox brings do not stay compiled
// forever: past maxCachedModules the least recently used go (and a module
// that went compiles again when it runs again).
func TestModuleCacheBounded(t *testing.T) {
	sb := testSandbox(t, Options{})
	ctx := context.Background()
	for i := 0; i < maxCachedModules+20; i++ {
		res, err := sb.RunWASI(ctx, tinyModule(i), nil, RunOptions{})
		require.NoError(t, err)
		require.Equal(t, 0, res.ExitCode, "%s", res.Stderr)
	}
	sharedModules.mu.Lock()
	n := len(sharedModules.byKey)
	sharedModules.mu.Unlock()
	assert.LessOrEqual(t, n, maxCachedModules)
	res, err := sb.RunWASI(ctx, tinyModule(0), nil, RunOptions{}) // (evicted: compiled again)
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode, "%s", res.Stderr)
}
