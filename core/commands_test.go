package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/wasmsand/wasmsand/shell"
)

// fakePrograms offers programs whose modules cannot be loaded.
type fakePrograms []string

func (f fakePrograms) Commands() []string { return f }
func (f fakePrograms) Module(context.Context, string) (string, func() ([]byte, error), error) {
	return "", nil, errors.New("no module here")
}

// upper is a Go command: stdin upper-cased to stdout, exit status argv[1].
func upper(_ context.Context, _ *shell.Session, req *shell.ExecRequest) int {
	b, _ := io.ReadAll(req.Stdin)
	fmt.Fprint(req.Stdout, strings.ToUpper(string(b)))
	if len(req.Argv) > 1 {
		var n int
		fmt.Sscan(req.Argv[1], &n)
		return n
	}
	return 0
}

func TestCommandsTable(t *testing.T) {
	sb := testSandbox(t, Options{
		Programs: fakePrograms{"prog", "other"},
		Commands: []Command{{Name: "prog", Run: upper}, {Name: "shout", Run: upper}},
	})
	// a runtime replaces the program of the same name and adds its own
	res := mustRun(t, sb, "echo hi | prog | { read -r l; echo $l; }; echo x | shout 3; echo $?")
	assert.Equal(t, "HI\nX\n3\n", string(res.Stdout), "stderr %q", res.Stderr)
	// /usr/bin, which and type all see the table
	res = mustRun(t, sb, "for f in /usr/bin/*; do case ${f##*/} in shout|prog|other|bash) echo $f; esac; done; which shout; type shout prog")
	assert.Equal(t, "/usr/bin/bash\n/usr/bin/other\n/usr/bin/prog\n/usr/bin/shout\n/usr/bin/shout\nshout is /usr/bin/shout\nprog is /usr/bin/prog\n", string(res.Stdout), "stderr %q", res.Stderr)
	// a program without a Run still goes to the engine
	res = mustRun(t, sb, "other")
	assert.Equal(t, 127, res.ExitCode)
	assert.Contains(t, string(res.Stderr), "no module here")
	// forks share the table
	f, err := sb.Fork(context.Background())
	if assert.NoError(t, err) {
		defer f.Close()
		res = mustRun(t, f, "echo fork | shout")
		assert.Equal(t, "FORK\n", string(res.Stdout))
	}
}
