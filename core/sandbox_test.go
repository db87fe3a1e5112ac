package core

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testSandbox(t *testing.T, opt Options) *Sandbox {
	t.Helper()
	sb, err := New(context.Background(), opt)
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	return sb
}

func mustRun(t *testing.T, sb *Sandbox, script string) *Result {
	t.Helper()
	res, err := sb.Run(context.Background(), script, RunOptions{})
	require.NoError(t, err)
	return res
}

func TestRunBasics(t *testing.T) {
	sb := testSandbox(t, Options{})
	res := mustRun(t, sb, "echo hi; echo err >&2; exit 3")
	assert.Equal(t, "hi\n", string(res.Stdout))
	assert.Equal(t, "err\n", string(res.Stderr))
	assert.Equal(t, 3, res.ExitCode)
	assert.True(t, res.Exited)
	assert.False(t, res.Truncated)

	res = mustRun(t, sb, "nosuch")
	assert.Equal(t, 127, res.ExitCode)
	assert.Equal(t, "bash: nosuch: command not found\n", string(res.Stderr))
}

func TestRunOptions(t *testing.T) {
	sb := testSandbox(t, Options{Env: map[string]string{"GREETING": "hello"}})
	var streamed bytes.Buffer
	res, err := sb.Run(context.Background(), `read -r line; echo "$GREETING $line $EXTRA $PWD"`, RunOptions{
		Stdin:  strings.NewReader("world\n"),
		Env:    map[string]string{"EXTRA": "x"},
		Cwd:    "/tmp",
		Stdout: &streamed,
	})
	require.NoError(t, err)
	assert.Equal(t, "hello world x /tmp\n", string(res.Stdout))
	assert.Equal(t, "hello world x /tmp\n", streamed.String())
	assert.Equal(t, "/home/user", sb.Cwd(), "Cwd applies to that run only")
}

func TestSessionState(t *testing.T) {
	sb := testSandbox(t, Options{})
	mustRun(t, sb, "cd /tmp; N=41; inc() { N=$((N+1)); }")
	res := mustRun(t, sb, "inc; echo $N $PWD")
	assert.Equal(t, "42 /tmp\n", string(res.Stdout))

	res, err := sb.Run(context.Background(), "cd /; N=0", RunOptions{Stateless: true})
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "42 /tmp\n", string(mustRun(t, sb, "echo $N $PWD").Stdout))
}

func TestFileAPI(t *testing.T) {
	sb := testSandbox(t, Options{})
	require.NoError(t, sb.WriteFile("/home/user/a/b.txt", []byte("data"), 0))
	res := mustRun(t, sb, "read -r x < a/b.txt; echo $x; echo new > a/c.txt")
	assert.Equal(t, "data\n", string(res.Stdout))
	b, err := sb.ReadFile("a/c.txt")
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(b))

	ents, err := sb.ListDir("/home/user/a")
	require.NoError(t, err)
	require.Len(t, ents, 2)
	assert.Equal(t, "b.txt", ents[0].Name)

	_, err = sb.ReadFile("/nope")
	assert.Equal(t, CodeNotFound, ErrorCode(err))
	assert.Equal(t, CodeIsDir, ErrorCode(func() error { _, e := sb.ReadFile("/home/user/a"); return e }()))
	assert.Equal(t, CodeNotEmpty, ErrorCode(sb.Remove("/home/user/a", false)))
	require.NoError(t, sb.Remove("/home/user/a", true))
	_, err = sb.Stat("/home/user/a")
	assert.Equal(t, CodeNotFound, ErrorCode(err))
	require.NoError(t, sb.Mkdir("/x/y", 0))
	fi, err := sb.Stat("/x/y")
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
}

func TestSnapshotRestoreFork(t *testing.T) {
	sb := testSandbox(t, Options{})
	mustRun(t, sb, "echo v1 > f; V=one; cd /tmp")
	snap := sb.Snapshot()
	mustRun(t, sb, "echo v2 > /home/user/f")

	child, err := sb.Fork(context.Background())
	require.NoError(t, err)
	defer child.Close()
	mustRun(t, child, "echo child > /home/user/f; echo only-child > /home/user/g")
	res := mustRun(t, child, "echo $V $PWD")
	assert.Equal(t, "one /tmp\n", string(res.Stdout), "a fork keeps variables and cwd")

	b, _ := sb.ReadFile("/home/user/f")
	assert.Equal(t, "v2\n", string(b), "the parent does not see the child's writes")
	_, err = sb.ReadFile("/home/user/g")
	assert.Equal(t, CodeNotFound, ErrorCode(err))

	require.NoError(t, sb.Restore(snap))
	b, _ = sb.ReadFile("/home/user/f")
	assert.Equal(t, "v1\n", string(b))
	b, _ = child.ReadFile("/home/user/f")
	assert.Equal(t, "child\n", string(b), "restoring the parent leaves the fork alone")
}

func TestClosed(t *testing.T) {
	sb, err := New(context.Background(), Options{})
	require.NoError(t, err)
	require.NoError(t, sb.Close())
	_, err = sb.Run(context.Background(), "echo", RunOptions{})
	assert.Equal(t, CodeClosed, ErrorCode(err))
}

func TestShellTimeoutKills(t *testing.T) {
	sb := testSandbox(t, Options{Timeout: 300 * time.Millisecond})
	start := time.Now()
	res := mustRun(t, sb, "while :; do :; done")
	elapsed := time.Since(start)
	assert.True(t, res.TimedOut)
	assert.Equal(t, 124, res.ExitCode)
	assert.Contains(t, string(res.Stderr), "timed out")
	assert.Less(t, elapsed, 5*time.Second)
	// The sandbox is still usable.
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
}

func TestOutputFloodTruncated(t *testing.T) {
	sb := testSandbox(t, Options{OutputLimit: 64 << 10, Timeout: 10 * time.Second})
	res := mustRun(t, sb, "while :; do echo 0123456789abcdef; done")
	assert.True(t, res.Truncated)
	assert.LessOrEqual(t, len(res.Stdout), 64<<10+100)
	assert.Contains(t, string(res.Stdout), "[wasmsand: output truncated")
	assert.Equal(t, "ok\n", string(mustRun(t, sb, "echo ok").Stdout))
}

func TestFSQuota(t *testing.T) {
	sb := testSandbox(t, Options{FSLimitMB: 1})
	res := mustRun(t, sb, `s=0123456789abcdef; for i in 1 2 3 4 5 6; do s=$s$s$s$s; done
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo "$s" >> big || { echo "failed at $i"; break; }; done`)
	assert.Contains(t, string(res.Stdout), "failed at")
	assert.Contains(t, string(res.Stderr), "No space left on device")
	fi, err := sb.Stat("/home/user/big")
	require.NoError(t, err)
	assert.LessOrEqual(t, fi.Size(), int64(1<<20))
	assert.Equal(t, int64(0), fi.Size()%int64(65537), fmt.Sprintf("only whole writes land (size %d)", fi.Size()))
}
