package procps

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/wasmsand/wasmsand/procfs"
	"github.com/wasmsand/wasmsand/shell"
)

func testTable() *procfs.Table {
	boot := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := boot.Add(90 * time.Second)
	t := procfs.NewTable(func() time.Time { return now }, func() procfs.System {
		return procfs.System{Boot: boot, MemoryLimit: 64 << 20, Users: map[int]string{1000: "user"}}
	})
	t.Set(procfs.Process{Pid: 1, Argv: []string{"bash"}, Cwd: "/home/user", Uid: 1000, Gid: 1000, Start: boot})
	t.Set(procfs.Process{Pid: 7, PPid: 1, Argv: []string{"/usr/bin/sleep", "30"}, Env: []string{"A=1", "B=2"},
		Cwd: "/tmp", Exe: "/usr/bin/sleep", Uid: 1000, Gid: 1000, Start: boot.Add(60 * time.Second)})
	return t
}

func runCmd(t *testing.T, tab *procfs.Table, argv ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	for _, c := range Commands(tab, nil) {
		if c.Name == argv[0] {
			st := c.Run(nil, nil, &shell.ExecRequest{Argv: argv, Stdout: &out, Stderr: &errb})
			return out.String(), errb.String(), st
		}
	}
	t.Fatalf("no command %s", argv[0])
	return "", "", 0
}

func TestPs(t *testing.T) {
	tab := testTable()
	out, _, st := runCmd(t, tab, "ps", "-ef")
	assert.Equal(t, 0, st)
	assert.Equal(t, "UID          PID    PPID  C STIME TTY          TIME CMD\n"+
		"user           1       0  0 03:04 ?        00:00:00 bash\n"+
		"user           7       1  0 03:05 ?        00:00:00 /usr/bin/sleep 30\n", out)

	out, _, _ = runCmd(t, tab, "ps", "-o", "pid,etime,comm", "-p", "7")
	assert.Equal(t, "    PID     ELAPSED COMMAND\n      7       00:30 sleep\n", out)

	out, _, _ = runCmd(t, tab, "ps", "-o", "comm=", "-C", "sleep")
	assert.Equal(t, "sleep\n", out)

	out, _, st = runCmd(t, tab, "ps", "-p", "99")
	assert.Equal(t, 1, st)
	assert.Equal(t, "    PID TTY          TIME CMD\n", out)

	_, errs, st := runCmd(t, tab, "ps", "-o", "bogus")
	assert.Equal(t, 1, st)
	assert.Contains(t, errs, `unknown user-defined format specifier "bogus"`)
}

func TestPgrepPkill(t *testing.T) {
	tab := testTable()
	var got []int
	tab.Update(7, func(p *procfs.Process) { p.Kill = func(sig int) { got = append(got, sig) } })

	out, _, st := runCmd(t, tab, "pgrep", "-l", "sle")
	assert.Equal(t, 0, st)
	assert.Equal(t, "7 sleep\n", out)
	out, _, _ = runCmd(t, tab, "pgrep", "-a", "-x", "sleep")
	assert.Equal(t, "7 /usr/bin/sleep 30\n", out)
	out, _, st = runCmd(t, tab, "pgrep", "-x", "sle")
	assert.Equal(t, 1, st)
	assert.Empty(t, out)
	_, errs, st := runCmd(t, tab, "pgrep")
	assert.Equal(t, 2, st)
	assert.Contains(t, errs, "no matching criteria")

	_, _, st = runCmd(t, tab, "pkill", "-KILL", "sleep")
	assert.Equal(t, 0, st)
	assert.Equal(t, []int{9}, got)
	_, errs, st = runCmd(t, tab, "pkill", "bash")
	assert.Equal(t, 0, st)
	assert.Contains(t, errs, "killing pid 1 failed", "the session shell cannot be signalled")
}
