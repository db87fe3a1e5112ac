package text

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/shell"
	"github.com/wasmsand/wasmsand/vfs"
)

// run runs script in a shell whose command table has this package's commands.
func run(t *testing.T, script string) (string, string, int) {
	t.Helper()
	cmds := shell.NewCommands(shell.ShellCommands(), Commands())
	s, err := shell.New(shell.Config{FS: vfs.NewDefault(vfs.Options{}, cmds.Names()), Env: shell.DefaultEnv(), Pid: 1, Commands: cmds,
		Exec: func(ctx context.Context, req *shell.ExecRequest) int { return 127 }})
	require.NoError(t, err)
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := s.Run(ctx, script, shell.Stdio{Stdout: &out, Stderr: &errb}, shell.RunOptions{})
	require.NoError(t, err)
	return out.String(), errb.String(), st
}

func TestColumn(t *testing.T) {
	out, errOut, _ := run(t, `printf 'a,b,,c\nlonger,x,y,z\n' | column -t -s,; printf 'a  b c\nddd e f\n' | column -t -o '|'; printf '%s\n' 1 2 3 4 5 6 7 | column -c 16; printf '%s\n' 1 2 3 | column -x -c 16`)
	assert.Equal(t, "a       b     c\nlonger  x  y  z\na  |b|c\nddd|e|f\n1\t5\n2\t6\n3\t7\n4\n1\t2\n3\n", out, errOut)
}

func TestLess(t *testing.T) {
	out, errOut, st := run(t, `printf 'a\nb\n' > /tmp/f; less -R /tmp/f; echo x | less; less /tmp/missing`)
	assert.Equal(t, "a\nb\nx\n", out)
	assert.Equal(t, "/tmp/missing: No such file or directory\n", errOut, "as less(1) says it")
	assert.Equal(t, 1, st)
}
