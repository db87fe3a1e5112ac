package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A WebAssembly child writing into its parent's pipe: the parent reads to EOF
// once the child has exited (the child's fd table releases its reference to
// the write end; before, it kept it and the reader waited forever).
func TestSpawnedChildReleasesPipe(t *testing.T) {
	sb := testSandbox(t, Options{})
	installGuests(t, sb, "popen", "cat")
	mustRun(t, sb, "printf 'abc\\n' > f")
	for i := 0; i < 3; i++ {
		res := mustRun(t, sb, "popen cat f")
		assert.Equal(t, "read 4 bytes, child status 0\n", string(res.Stdout), string(res.Stderr))
	}
	res := mustRun(t, sb, "popen cat nosuch; echo st=$?")
	assert.Equal(t, "read 0 bytes, child status 1\nst=0\n", string(res.Stdout))
}
