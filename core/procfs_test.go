package core

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/procfs"
)

// /proc shows the sandbox's own processes and limits, nothing of the host.
func TestProcIsolation(t *testing.T) {
	t.Setenv("WASMSAND_HOST_SECRET", "do-not-leak")
	sb := testSandbox(t, Options{MemoryLimitMB: 96})
	res := mustRun(t, sb, `
cd /proc
for d in [0-9]*; do echo "pid $d"; done
read -r first < /proc/meminfo; echo "$first"
while IFS= read -r -d '' kv; do echo "env $kv"; done < /proc/1/environ
echo "host $(< /proc/sys/kernel/hostname)"
`)
	require.Equal(t, 0, res.ExitCode, string(res.Stderr))
	out := string(res.Stdout)
	assert.Contains(t, out, "pid 1\n")
	assert.NotContains(t, out, "pid "+strconv.Itoa(os.Getpid())+"\n", "a host pid")
	assert.Contains(t, out, "MemTotal:          98304 kB", "the sandbox's memory limit")
	assert.Contains(t, out, "env HOME=/home/user")
	assert.NotContains(t, out, "do-not-leak")
	assert.Contains(t, out, "host wasmsand")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if n, ok := strings.CutPrefix(l, "pid "); ok {
			pid, err := strconv.Atoi(n)
			require.NoError(t, err)
			assert.Less(t, pid, 100, "only the sandbox's small pids")
		}
	}
	// Writes are refused.
	res = mustRun(t, sb, `echo x > /proc/meminfo; echo $?; mkdir /proc/x; echo $?`)
	assert.Contains(t, string(res.Stdout), "1\n")
}

// A fork has its own /proc: its processes, not its parent's.
func TestProcFork(t *testing.T) {
	sb := testSandbox(t, Options{})
	mustRun(t, sb, "true")
	sb.procs.table.Set(procfs.Process{Pid: 500, PPid: 1, Argv: []string{"marker"}})
	fork, err := sb.Fork(context.Background())
	require.NoError(t, err)
	defer fork.Close()
	res := mustRun(t, fork, `ps -e -o comm=; [ -e /proc/500 ] || echo no 500`)
	assert.Equal(t, "bash\nps\nno 500\n", string(res.Stdout))
	res = mustRun(t, sb, `ps -e -o comm=`)
	assert.Equal(t, "bash\nps\nmarker\n", string(res.Stdout))
}

// kill and pkill reach any process of the sandbox, not only the shell's jobs.
func TestProcKillTable(t *testing.T) {
	sb := testSandbox(t, Options{})
	res := mustRun(t, sb, `
echo $(ps -o pid= -p $$)
kill -0 1 && echo shell alive
kill 4242; echo "status $?"
pgrep -x bash >/dev/null && echo pgrep finds the shell
pgrep -x pgrep; echo "not itself $?"
`)
	assert.Equal(t, "1\nshell alive\nstatus 1\npgrep finds the shell\nnot itself 1\n", string(res.Stdout))
	assert.Equal(t, "bash: kill: (4242) - No such process\n", string(res.Stderr))
}
