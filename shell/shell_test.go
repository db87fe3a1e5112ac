package shell

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/vfs"
)

// newTestSession makes a session over a default VFS. Its Exec records the
// programs it is asked to run (there is no engine in these tests) and
// answers like a program that printed its argv.
func newTestSession(t *testing.T) (*Session, *vfs.FS, *[]ExecRequest) {
	t.Helper()
	fsys := vfs.NewDefault(vfs.Options{}, append(NewCommands(ShellCommands()).Names(), "fakecmd"))
	var calls []ExecRequest
	s, err := New(Config{
		FS:  fsys,
		Env: DefaultEnv(),
		Pid: 1,
		Exec: func(ctx context.Context, req *ExecRequest) int {
			calls = append(calls, *req)
			fmt.Fprintf(req.Stdout, "ran %s\n", strings.Join(req.Argv, " "))
			return 0
		},
	})
	require.NoError(t, err)
	return s, fsys, &calls
}

func run(t *testing.T, s *Session, script string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := s.Run(ctx, script, Stdio{Stdout: &out, Stderr: &errb}, RunOptions{})
	require.NoError(t, err)
	return out.String(), errb.String(), st
}

func TestBasics(t *testing.T) {
	tests := []struct {
		name, script, out string
		status            int
	}{
		{"echo", "echo hi", "hi\n", 0},
		{"vars", "a=1; b=$((a+41)); echo $b", "42\n", 0},
		{"for loop", "for ((i=0;i<3;i++)); do printf '%d ' $i; done; echo", "0 1 2 \n", 0},
		{"while", "i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i", "3\n", 0},
		{"function", "f() { echo \"arg=$1\"; return 3; }; f x; echo $?", "arg=x\n3\n", 0},
		{"heredoc", "cat_() { while IFS= read -r l; do echo \"<$l>\"; done; }; cat_ <<EOF\na b\n  c\nEOF", "<a b>\n<  c>\n", 0},
		{"herestring", "read -r a b <<< 'x y'; echo $b$a", "yx\n", 0},
		{"exit status", "false", "", 1},
		{"set -e", "set -e; false; echo no", "", 1},
		{"pipefail", "set -o pipefail; false | true; echo $?", "1\n", 0},
		{"pipestatus", "true | false | true; echo ${PIPESTATUS[@]}", "0 1 0\n", 0},
		{"background and wait", "f() { echo bg; }; f & wait; echo done", "bg\ndone\n", 0},
		{"subshell", "(cd /tmp; pwd); pwd", "/tmp\n/home/user\n", 0},
		{"env", "echo $HOME $USER $PATH $LANG $TZ $SHELL", "/home/user user /usr/local/bin:/usr/bin:/bin C.UTF-8 UTC /bin/bash\n", 0},
		{"pid", "echo $$ $PPID", "1 0\n", 0},
		{"pid in arith", "echo $(( $$ + 1 ))", "2\n", 0},
		{"trap exit on exit", "trap 'echo bye' EXIT; echo hi; exit 3", "hi\nbye\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _ := newTestSession(t)
			out, errOut, st := run(t, s, tt.script)
			assert.Equal(t, tt.out, out, "stderr: %s", errOut)
			assert.Equal(t, tt.status, st)
		})
	}
}

func TestSessionKeepsState(t *testing.T) {
	s, _, _ := newTestSession(t)
	run(t, s, "cd /tmp; X=5; f() { echo f$X; }")
	out, _, _ := run(t, s, "pwd; f")
	assert.Equal(t, "/tmp\nf5\n", out)

	var buf bytes.Buffer
	_, err := s.Run(context.Background(), "cd /; Y=1", Stdio{Stdout: &buf}, RunOptions{Stateless: true})
	require.NoError(t, err)
	out, _, _ = run(t, s, "pwd; echo \"[$Y]\"")
	assert.Equal(t, "/tmp\n[]\n", out, "a stateless run changes nothing")
}

func TestSyntaxError(t *testing.T) {
	s, _, _ := newTestSession(t)
	_, errOut, st := run(t, s, "echo (")
	assert.Equal(t, 2, st)
	assert.Equal(t, "bash: syntax error near unexpected token `newline'\n", errOut)
}

func TestFilesGoToVFS(t *testing.T) {
	s, fsys, _ := newTestSession(t)
	out, errOut, st := run(t, s, "echo hello > f.txt; echo more >> f.txt; while read -r l; do echo \"got $l\"; done < f.txt")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "got hello\ngot more\n", out)
	data, err := fsys.ReadFile("/home/user/f.txt")
	require.NoError(t, err)
	assert.Equal(t, "hello\nmore\n", string(data))

	_, errOut, st = run(t, s, "read x < /nonexistent")
	assert.Equal(t, 1, st)
	assert.Equal(t, "bash: /nonexistent: No such file or directory\n", errOut)

	out, _, _ = run(t, s, "cd /tmp && touch_() { : > \"$1\"; }; touch_ a.c; touch_ b.c; echo *.c; [ -f a.c ] && echo yes")
	assert.Equal(t, "a.c b.c\nyes\n", out)
}

func TestCommandResolution(t *testing.T) {
	s, fsys, calls := newTestSession(t)
	out, errOut, st := run(t, s, "fakecmd a b")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "ran fakecmd a b\n", out)
	require.Len(t, *calls, 1)
	assert.Equal(t, "/usr/bin/fakecmd", (*calls)[0].Path)
	assert.Equal(t, "fakecmd", (*calls)[0].Program)
	assert.Contains(t, (*calls)[0].Env, "HOME=/home/user")

	_, errOut, st = run(t, s, "nosuchcmd")
	assert.Equal(t, 127, st)
	assert.Equal(t, "bash: nosuchcmd: command not found\n", errOut)

	out, _, st = run(t, s, "which bash fakecmd; which nosuch; echo $?")
	assert.Equal(t, "/usr/bin/bash\n/usr/bin/fakecmd\n1\n", out)
	assert.Equal(t, 0, st)

	out, _, _ = run(t, s, "command -v fakecmd cd; type -t fakecmd; type cd; f() { :; }; type -t f; command -v nosuch || echo missing")
	assert.Equal(t, "/usr/bin/fakecmd\ncd\nfile\ncd is a shell builtin\nfunction\nmissing\n", out)

	// Scripts: #! with chmod +x, without #!, bash f.sh, sh -c.
	require.NoError(t, fsys.WriteFile("/home/user/s.sh", []byte("#!/bin/bash\necho \"script $0 $1 pid $$\"\n"), 0o644))
	_, errOut, st = run(t, s, "./s.sh x")
	assert.Equal(t, 126, st)
	assert.Equal(t, "bash: ./s.sh: Permission denied\n", errOut)
	out, errOut, st = run(t, s, "chmod_() { :; }; bash s.sh y; sh -c 'echo c $0 $1' n1 a1; bash -c 'exit 7'; echo $?")
	require.Equal(t, 0, st, errOut)
	assert.Regexp(t, `^script s.sh y pid \d+\nc n1 a1\n7\n$`, out)

	require.NoError(t, fsys.Chmod("/home/user/s.sh", 0o755))
	out, errOut, _ = run(t, s, "./s.sh z")
	assert.Regexp(t, `^script \./s.sh z pid \d+\n$`, out, errOut)

	require.NoError(t, fsys.WriteFile("/home/user/plain", []byte("echo plain $1\n"), 0o755))
	out, _, _ = run(t, s, "./plain q")
	assert.Equal(t, "plain q\n", out)

	require.NoError(t, fsys.WriteFile("/home/user/bad", []byte("#!/no/interp\n"), 0o755))
	_, errOut, st = run(t, s, "./bad")
	assert.Equal(t, 127, st)
	assert.Equal(t, "bash: ./bad: cannot execute: required file not found\n", errOut)
}

func TestProcessSubstitutionOnVFS(t *testing.T) {
	s, fsys, _ := newTestSession(t)
	out, errOut, st := run(t, s, "while read -r l; do echo \"[$l]\"; done < <(echo one; echo two)")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "[one]\n[two]\n", out)
	ents, err := fsys.ReadDir("/tmp")
	require.NoError(t, err)
	assert.Empty(t, ents, "temporary files of <(...) are removed after the run")

	out, errOut, st = run(t, s, "echo x > >(while read -r l; do echo \"got $l\"; done); echo after")
	assert.Equal(t, 0, st, errOut)
	assert.Equal(t, "got x\nafter\n", out)
}

func TestSource(t *testing.T) {
	s, fsys, _ := newTestSession(t)
	require.NoError(t, fsys.WriteFile("/home/user/lib.sh", []byte("LIBVAR=$$\nlibf() { echo \"lib $1\"; }\n"), 0o644))
	out, errOut, st := run(t, s, "source lib.sh; libf a; . ./lib.sh; echo $LIBVAR; eval 'echo e$$'")
	require.Equal(t, 0, st, errOut)
	assert.Equal(t, "lib a\n1\ne1\n", out)
}

// TestNoHostAccess proves the shell sees nothing of the host: files, the
// environment, process ids, the temp dir, PATH lookups.
func TestNoHostAccess(t *testing.T) {
	hostDir := t.TempDir()
	secret := filepath.Join(hostDir, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("host secret\n"), 0o644))
	t.Setenv("WASMSAND_HOST_SECRET", "leaked")
	hostTmpBefore, _ := filepath.Glob(filepath.Join(os.TempDir(), "sh-interp-*"))

	s, _, calls := newTestSession(t)
	script := strings.Join([]string{
		"read -r x < " + secret + " && echo READ:$x",
		"[ -e " + secret + " ] && echo EXISTS",
		"cd " + hostDir + " 2>/dev/null && echo CD",
		"echo glob: " + hostDir + "/*",
		"echo env:$WASMSAND_HOST_SECRET",
		"export -p | grep -c WASMSAND_HOST_SECRET || true",
		"echo pid:$$ ppid:$PPID uid:$UID home:$HOME",
		"eval 'echo evalpid:$$'",
		"command -v go gcc ls || echo nohostcmd",
		"type -P sh",
		"echo data > /tmp/sh-interp-1; read -r y < /tmp/sh-interp-1; echo tmp:$y",
		"fakecmd <(echo psub)",
		"pwd -P",
		"echo tmpdir:$TMPDIR",
	}, "\n")
	out, _, _ := run(t, s, script)
	assert.NotContains(t, out, "READ:")
	assert.NotContains(t, out, "EXISTS")
	assert.NotContains(t, out, "CD")
	assert.Contains(t, out, "glob: "+hostDir+"/*\n", "host globs match nothing")
	assert.Contains(t, out, "env:\n")
	assert.NotContains(t, out, "leaked")
	assert.Contains(t, out, "pid:1 ppid:0 uid:1000 home:/home/user\n")
	assert.NotContains(t, out, strconv.Itoa(os.Getpid()))
	assert.Contains(t, out, "evalpid:1\n")
	assert.Contains(t, out, "nohostcmd\n")
	assert.Contains(t, out, "/usr/bin/sh\n")
	assert.Contains(t, out, "tmp:data\n")
	assert.Contains(t, out, "/home/user\n")
	assert.Contains(t, out, "tmpdir:\n")

	// The only program run went through Exec: no host process.
	require.Len(t, *calls, 1)
	assert.Equal(t, "fakecmd", (*calls)[0].Argv[0])
	assert.Contains(t, out, "ran fakecmd /dev/fd/63")
	assert.NotNil(t, (*calls)[0].Files[63], "the process substitution is the program's fd 63")
	hostTmpAfter, _ := filepath.Glob(filepath.Join(os.TempDir(), "sh-interp-*"))
	assert.Equal(t, hostTmpBefore, hostTmpAfter, "no FIFO or file made in the host temp dir")
	_, err := os.Stat(filepath.Join(os.TempDir(), "sh-interp-1"))
	assert.True(t, os.IsNotExist(err), "redirections to /tmp/sh-interp-* stay in the VFS")
}

func TestPipeStatus(t *testing.T) {
	s, _, _ := newTestSession(t)
	out, _, _ := run(t, s, `for i in 1 2; do true | (exit $i) | false; echo "${PIPESTATUS[@]} $?"; done; (exit 4) | true; echo "${PIPESTATUS[0]}"`)
	assert.Equal(t, "0 1 1 1\n0 2 1 1\n4\n", out)
}

func TestPipeStatusOnCopies(t *testing.T) {
	s, _, _ := newTestSession(t)
	var out bytes.Buffer
	_, err := s.Run(context.Background(), "true | false | true\necho \"${PIPESTATUS[@]}\"; ! true | false; echo $? ${PIPESTATUS[@]}",
		Stdio{Stdout: &out}, RunOptions{Script: true, Env: []string{"A=1"}, Stateless: true})
	require.NoError(t, err)
	assert.Equal(t, "0 1 0\n0 0 1\n", out.String())

	o, _, st := run(t, s, "set -e; if false | false; then echo no; else echo else; fi; false | true && echo and; false | false; echo unreachable")
	assert.Equal(t, "else\nand\n", o)
	assert.Equal(t, 1, st)
}

func TestPrintf(t *testing.T) {
	s, _, _ := newTestSession(t)
	tests := []struct{ script, out string }{
		{`printf '%5.2f|%-4d|%04x|%e|%c|%s\n' 3.14159 7 255 1234.5 hello x`, " 3.14|7   |00ff|1.234500e+03|h|x\n"},
		{`printf '%b|%s\n' 'a\tb\0101' x`, "a\tbA|x\n"},
		{`printf '%d\n' 0x1f 017 "'A"`, "31\n15\n65\n"},
		{`printf 'a\n' x y; printf '%s-%s\n' 1 2 3`, "a\n1-2\n3-\n"},
		{`printf -v v '%03d' 7; echo "v=$v"; printf -- '--x\n'`, "v=007\n--x\n"},
		{`printf '%q ' 'a b' "it's" '#x' 'a,b' 'a=b'; echo`, `a\ b it\'s \#x a\,b a=b ` + "\n"},
		{`printf '[%5s][%-5s][%.2s][%*d]\n' ab cd efgh 4 7`, "[   ab][cd   ][ef][   7]\n"},
		{`printf 'x\cy %b z\n' 'p\cq'`, "x\\cy p"},
	}
	for _, tt := range tests {
		out, errOut, _ := run(t, s, tt.script)
		assert.Equal(t, tt.out, out, "%s\n%s", tt.script, errOut)
	}
	out, errOut, st := run(t, s, `printf '%d\n' abc`)
	assert.Equal(t, "0\n", out)
	assert.Equal(t, "bash: printf: abc: invalid number\n", errOut)
	assert.Equal(t, 1, st)
}

func TestJobs(t *testing.T) {
	s, _, _ := newTestSession(t)
	out, errOut, st := run(t, s, `while :; do :; done & echo "pid=$!"; jobs; kill %1; wait $!; echo "status=$?"
(exit 3) & wait $!; echo "st=$?"; kill 99999; echo "k=$?"; kill -0 $$ 2>/dev/null; f() { :; } & wait; jobs; echo end`)
	assert.Equal(t, 0, st, errOut)
	assert.Regexp(t, `^pid=\d+\n\[1\]\+  Running                 while :; do\n    :;\ndone &\nstatus=143\nst=3\nk=1\n(\[1\]\+  Done +f\(\) \{.*\n)?end\n$`, out)
	assert.Contains(t, errOut, "bash: kill: (99999) - No such process")
}

// Functions print as written, without the shell's rewrites of them
// (assignment checks, pipelines, jobs, $$).
func TestFunctionsPrintAsWritten(t *testing.T) {
	s, _, _ := newTestSession(t)
	def := "f() { x=1; local y=$$ z=$PPID; echo a | cat; sleep 1 & echo $!; ! true | false; for i in a b; do export v=$i; done; }"
	for _, script := range []string{def + "; type f", def + "; declare -f f", def + "; typeset -f"} {
		out, errOut, st := run(t, s, script)
		assert.Equal(t, 0, st, "%s: %s", script, errOut)
		assert.NotContains(t, out, "__wasmsand", script)
		for _, want := range []string{"x=1", "local y=$$ z=$PPID", "echo a | cat", "sleep 1 &", "echo $!", "! true | false", "for i in a b", "export v=$i"} {
			assert.Contains(t, out, want, script)
		}
	}
	out, _, st := run(t, s, "declare -f nope")
	assert.Equal(t, 1, st)
	assert.Empty(t, out)
}

// A forked session has every default a new one has (SRANDOM once
// dereferenced a nil random source after Fork).
func TestForkKeepsDefaults(t *testing.T) {
	s, _, _ := newTestSession(t)
	f, err := s.Fork(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, st := run(t, f, `[[ $SRANDOM =~ ^[0-9]+$ ]] && echo digits; echo $((RANDOM >= 0))`)
	if out != "digits\n1\n" || st != 0 {
		t.Errorf("forked session: %q %q %d", out, errOut, st)
	}
}
