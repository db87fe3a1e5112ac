package shell

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/vfs"
)

// stateSession is a session for the state tests: a fixed clock and random
// stream, and an Exec that records what it is asked to run (a state that
// ran something would show there).
type stateSession struct {
	*Session
	fs    *vfs.FS
	execs *[]string
}

func newStateSession(t testing.TB, fsys *vfs.FS, maxVarBytes int64) stateSession {
	t.Helper()
	if fsys == nil {
		fsys = vfs.NewDefault(vfs.Options{}, append(NewCommands(ShellCommands()).Names(), "ls"))
	}
	var execs []string
	var n uint64
	s, err := New(Config{
		FS:          fsys,
		Env:         DefaultEnv(),
		Pid:         1,
		MaxVarBytes: maxVarBytes,
		Now:         func() time.Time { return time.Unix(1700000000, 0) },
		Rand:        func() uint64 { n++; return n * 0x9e3779b97f4a7c15 },
		Exec: func(ctx context.Context, req *ExecRequest) int {
			execs = append(execs, strings.Join(req.Argv, " "))
			fmt.Fprintf(req.Stdout, "ran %s\n", strings.Join(req.Argv, " "))
			return 0
		},
	})
	require.NoError(t, err)
	return stateSession{s, fsys, &execs}
}

func (s stateSession) run(t *testing.T, script string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := s.Run(ctx, script, Stdio{Stdout: &out, Stderr: &errb}, RunOptions{})
	require.NoError(t, err)
	return out.String(), errb.String(), st
}

// stateProbe shows what a session carries from one run to the next.
const stateProbe = `echo "status $?"; declare -p; declare -f; declare -F; alias -p; shopt -p; set +o; echo "flags $-"; trap -p; pwd; dirs -l -v; umask; enable -n; ulimit -n; ulimit -c; echo "$# $*"; printf '<%s>' "$@"; echo; echo $?`

// volatileVars differ between two sessions in their own right: values
// the shell computes from its clock and random generator, whose state a
// saved state does not carry.
var volatileVars = []string{"RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME"}

func dropVolatile(s string) string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		keep := true
		for _, v := range volatileVars {
			if strings.Contains(l, " "+v+"=") {
				keep = false
			}
		}
		if keep {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// stateScripts cover what a state carries; each runs in a session that is
// then saved and loaded into a fresh one.
var stateScripts = []string{
	// a bit of everything
	`cd /tmp; pushd /etc; x=1; declare -ri n=5; declare -a a=(1 "two words" $'\n'); declare -A m=([k]=v [a b]=c); declare -n ref=x; export E=1; declare -l low=ABC; f() { echo "$1"; }; declare -fx f; alias ll='ls -l'; set -o pipefail; shopt -s extglob nullglob; trap 'echo bye' EXIT; umask 027; set -- a 'b c'; false`,
	// values with quotes, newlines, escapes, non-UTF-8 bytes
	`q="it's \"quoted\" \\ \$x ` + "\\`b\\`" + ` !"; nl=$'a\nb\n'; bin=$'\xff\x01\x7f\xc3(\xe2\x82'; tab=$'\t\r\e'; emptyv=''; utf=héllo→; sq="'"; dq='"'; bs='\'; glob='*?[a]'; tilde='~/x'; hash='#x'; eq='a=b'`,
	// arrays: empty, sparse, unset but declared, readonly, integer, keys that need quoting
	`declare -a e=(); declare -a sp; sp[3]=x; sp[100]=$'y\n'; sp[7]=; declare -A ea=(); declare -a da; declare -A dA; declare -ra ra=(1 "2 3"); declare -rA rA=([x]=1 ["y z"]=2); declare -ai ia=(1 2); declare -A k=(["*"]=1 ["@"]=2 ["a]b"]=3 [$'\n']=4 ['$(x)']=5 [" "]=6 ["]"]=7)`,
	// unset and declared-unset variables, exported or not
	`export EX; declare -x EX2; export GONE=1; unset GONE; unset HOME; unset IFS; declare dv; declare -i di; declare -r rdv; declare -n dn`,
	// attributes
	`declare -i i=3+4; i+=1; y=abc; declare -i y; declare -u up=abc; declare -c cap=abc; declare -l lo; lo=XyZ; declare -t tv=1; declare -x -i xi=7; readonly R=1; declare -n r1=sp[1]; declare -n r2; export -n PATH`,
	// special variables unset, turned ordinary, or given attributes
	`unset RANDOM; RANDOM=5; unset SECONDS; unset LINENO; declare -x SRANDOM; unset BASH_VERSION; DIRSTACK=mine; export SHELLOPTS`,
	// options that would disturb a restore that ran the state
	`set -e; set -u`,
	`set -x`,
	`set -o noclobber -o allexport -f -C -o posix -o errtrace -o functrace`,
	`set -n`,
	`set -v`,
	`shopt -s globstar dotglob nocasematch lastpipe expand_aliases xpg_echo failglob; shopt -u globskipdots sourcepath`,
	// traps
	`trap 'echo dbg' DEBUG; trap 'echo err' ERR; trap 'echo ret' RETURN`,
	`trap 'echo "it'"'"'s"; echo $'"'"'\n'"'"'' INT; trap '' TERM; trap 'echo hup' HUP; trap - HUP; trap 'echo usr' USR1 RTMIN+3`,
	// functions: named like builtins or oddly, with heredocs, extglob,
	// case, substitutions, redirections, subshell bodies, attributes
	`echo() { builtin echo "[$*]"; }; function my-func { :; }; a.b() { return 3; }; function ls { command ls "$@"; }; p() { coproc cat; coproc C { cat; }; }`,
	`shopt -s extglob; g() { cat <<EOF
$x "q" 'sq'
}
EOF
}; h() { [[ $1 == @(a|b) ]] && case $1 in a) echo A;; *) echo B;; esac; } > /dev/null 2>&1; k() ( cd /; pwd ); c() { local v=$(echo "$(echo deep)"); echo "${v//e/E} $((1+2)) $[3]" <<< "x"; }; declare -ft c; readonly -f k; export -f g h`,
	`f() { echo "$1"; }; declare -fr f; g() { :; }; declare -ft g; unset -f g`,
	// aliases
	`alias q="echo 'x'"; alias a.b='echo hi'; alias e=; alias nl=$'echo a\necho b'; alias -- -x='echo dash'`,
	// directories
	`pushd /tmp; pushd /etc; pushd /; pushd -n /nonexistent; pushd -n 'rel dir'; cd /usr`,
	`cd /; dirs -c`,
	// umask, positional parameters, status
	`umask 0777`,
	`umask 0; set -- '' $'\n' '*' "a b" -x '$(echo)'; (exit 42)`,
	`set --; true`,
	// builtins disabled, limits
	`enable -n echo kill; ulimit -n 64; ulimit -c unlimited`,
	// namerefs, IFS, PATH
	`declare -a arr=(a b c); declare -n nr=arr; IFS=:; PATH=/bin`,
	// nothing at all
	``,
}

func TestStateRoundTrip(t *testing.T) {
	for i, script := range stateScripts {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			a := newStateSession(t, nil, 0)
			a.run(t, script)
			state, err := a.SaveState()
			require.NoError(t, err)

			b := newStateSession(t, a.fs.Clone(), 0)
			b.run(t, `x=stale; f() { :; }; alias z=y; cd /tmp; trap 'echo stale' EXIT; set -e`) // (replaced by the load)
			require.NoError(t, b.LoadState(state))
			again, err := b.SaveState()
			require.NoError(t, err)
			assert.Equal(t, string(state), string(again), "saving the loaded state gives it back")

			outA, errA, stA := a.run(t, stateProbe)
			outB, errB, stB := b.run(t, stateProbe)
			assert.Equal(t, dropVolatile(outA), dropVolatile(outB))
			assert.Equal(t, errA, errB)
			assert.Equal(t, stA, stB)
			assert.Empty(t, *b.execs, "the load ran nothing")
		})
	}
}

// TestStateBehaves: the loaded session works as the saved one does.
func TestStateBehaves(t *testing.T) {
	a := newStateSession(t, nil, 0)
	a.run(t, stateScripts[0])
	a.run(t, `printf 'lib() { echo "${BASH_SOURCE[0]}"; }\n' > /tmp/lib.sh; source /tmp/lib.sh`)
	a.run(t, `shopt -s expand_aliases; declare -A big; for i in {1..3000}; do big[k$i]=$i; done; declare -A mid; for i in {500..1..7}; do mid[$i$i]=$i; done`)
	state, err := a.SaveState()
	require.NoError(t, err)
	b := newStateSession(t, a.fs.Clone(), 0)
	require.NoError(t, b.LoadState(state))
	for _, c := range []struct{ cmd, want string }{
		{`f hello; echo $?`, "hello\n0\n"},
		{"ll /x", "ran ls -l /x\n"},
		{`echo ${a[1]} ${m[a b]} $ref $low $n; low=XYZ; echo $low; n=6; echo $?`, "two words c 1 abc 5\nxyz\n"},
		{`echo "${!big[@]}"; echo "${!mid[@]}"`, ""}, // (the order bash lists keys in)
		{`bash -c 'f exported'`, "exported\n"},       // (an exported function reaches a child)
		{"lib", "/tmp/lib.sh\n"},                     // (a function knows the file it came from)
		{`cd -; pwd; popd; dirs`, ""},
		{`exit 3`, "bye\n"}, // the EXIT trap runs
	} {
		outA, errA, stA := a.run(t, c.cmd)
		outB, errB, stB := b.run(t, c.cmd)
		assert.Equal(t, outA, outB, c.cmd)
		assert.Equal(t, errA, errB, c.cmd)
		assert.Equal(t, stA, stB, c.cmd)
		if c.want != "" {
			assert.Equal(t, c.want, outB, c.cmd)
		}
	}
	out, _, st := b.run(t, "true") // (after exit, as a terminal's next line)
	assert.Equal(t, "", out)
	assert.Equal(t, 0, st)
}

// TestStateRemovedDir: the working directory need not exist (it was
// removed, or the files come later).
func TestStateRemovedDir(t *testing.T) {
	a := newStateSession(t, nil, 0)
	require.NoError(t, a.fs.MkdirAll("/tmp/gone", 0o755))
	a.run(t, "cd /tmp/gone; pushd -n /tmp/gone2")
	require.NoError(t, a.fs.RemoveAll("/tmp/gone"))
	state, err := a.SaveState()
	require.NoError(t, err)
	b := newStateSession(t, nil, 0) // (no /tmp/gone there either)
	require.NoError(t, b.LoadState(state))
	out, _, _ := b.run(t, "echo $PWD; dirs")
	assert.Equal(t, "/tmp/gone\n/tmp/gone /tmp/gone2\n", out)
}

// The envelope of a state (interp's stateMagic and stateEnd).
const (
	stateMagic = "# wasmsand shell state v1"
	stateEnd   = "# end of wasmsand shell state"
)

// hostileStates are states a node must refuse, or load as data without
// running anything.
func hostileStates(valid string) map[string]bool {
	head := stateMagic + "\n"
	tail := stateEnd + "\n"
	fn := func(text string) string { return fmt.Sprintf("# function %d\n%s", len(text), text) }
	deep := "f () \n{ \n" + strings.Repeat("(", 100000) + "\n}\n"
	states := map[string]bool{ // state: loads (as data)
		"":                                   false,
		"garbage":                            false,
		head:                                 false,
		head + "declare -- x=1\n":            false,
		"# wasmsand shell state v9\n" + tail: false,
		head + "rm -rf /\n" + tail:           false,
		head + "touch /pwned\n" + tail:       false,
		head + "x=1\n" + tail:                false,
		head + "x=1 declare -- y=2\n" + tail: false,
		head + "declare -- x=\"$(touch /pwned)\"\n" + tail:                  false,
		head + "declare -- x=`touch /pwned`\n" + tail:                       false,
		head + "declare -- x=${y:=$(touch /pwned)}\n" + tail:                false,
		head + "declare -- $(touch /pwned)=1\n" + tail:                      false,
		head + "declare -- x=<(touch /pwned)\n" + tail:                      false,
		head + "declare -- x=1 >/pwned\n" + tail:                            false,
		head + "declare -- x=1; touch /pwned\n" + tail:                      false,
		head + "declare -- x=1 && touch /pwned\n" + tail:                    false,
		head + "declare -- x=1 | touch /pwned\n" + tail:                     false,
		head + "declare -- x=1 &\n" + tail:                                  false,
		head + "declare -- x=~root\n" + tail:                                false,
		head + "declare -- x=*\n" + tail:                                    false,
		head + "declare -- x={a,b}\n" + tail:                                false,
		head + "declare -- x=$\"t\"\n" + tail:                               false,
		head + "declare -- x=\"\x00\"\n" + tail:                             false,
		head + "declare -a a=([$(touch /pwned)]=1)\n" + tail:                false,
		head + "declare -a a=([1+1]=1)\n" + tail:                            false,
		head + "declare -a a=(1 2)\n" + tail:                                false,
		head + "declare -A a=([k]=$(touch /pwned))\n" + tail:                false,
		head + "declare -a a=\"x\"\n" + tail:                                false,
		head + "declare -aA a\n" + tail:                                     false,
		head + "declare -q a\n" + tail:                                      false,
		head + "declare -- a[1]=x\n" + tail:                                 false,
		head + "declare -- a+=x\n" + tail:                                   false,
		head + "declare -- UID=0\n" + tail:                                  false,
		head + "declare -- BASHPID=1\n" + tail:                              false,
		head + "declare -- RANDOM=1\n" + tail:                               false,
		head + "unset -v UID\n" + tail:                                      false,
		head + "unset -v 'a b'\n" + tail:                                    false,
		head + "cd -- \"$(touch /pwned)\"\n" + tail:                         false,
		head + "cd -- relative\n" + tail:                                    false,
		head + "cd /tmp\n" + tail:                                           false,
		head + "alias -- \"x=$(touch /pwned)\"\n" + tail:                    false,
		head + "alias -- 'a b=x'\n" + tail:                                  false,
		head + "trap -- \"$(touch /pwned)\" EXIT\n" + tail:                  false,
		head + "trap -- x NOSUCH\n" + tail:                                  false,
		head + "set -o nosuch\n" + tail:                                     false,
		head + "shopt -s nosuch\n" + tail:                                   false,
		head + "set -e\n" + tail:                                            false,
		head + "enable -n nosuch\n" + tail:                                  false,
		head + "umask 999\n" + tail:                                         false,
		head + "return 256\n" + tail:                                        false,
		head + "ulimit -n lots\n" + tail:                                    false,
		head + "eval 'touch /pwned'\n" + tail:                               false,
		head + "source /etc/profile\n" + tail:                               false,
		head + "exec touch /pwned\n" + tail:                                 false,
		head + "declare -fx -- nosuch\n" + tail:                             false,
		head + "f () { :; }\n" + tail:                                       false,
		head + fn("touch /pwned\n") + tail:                                  false,
		head + fn("f () { :; }\nf\n") + tail:                                false,
		head + fn("f () { :; }; touch /pwned\n") + tail:                     false,
		head + fn("f () { :; }\n") + "f\n" + tail:                           false,
		head + "# function 99999\nf () { :; }\n" + tail:                     false,
		head + "# function -1\n" + tail:                                     false,
		head + "# function 12 \"$(touch /pwned)\"\nf () { :; }\n" + tail:    false,
		head + fn(deep) + tail:                                              false,
		head + fn("f () \n{ \n"+strings.Repeat("x", 17<<20)+"\n}\n") + tail: false,
		// data that loads, and does not run
		head + fn("f () \n{ \n    touch /pwned; $(touch /pwned)\n}\n") + tail:                   true,
		head + "trap -- 'touch /pwned' DEBUG\ntrap -- 'touch /pwned' RETURN\n" + tail:           true,
		head + "declare -i n=\"\\$(touch /pwned)\"\ndeclare -n r='a[$(touch /pwned)]'\n" + tail: true,
		head + "declare -a a=([1]=\"$\" [2]='`')\nalias -- 'x=$(touch /pwned)'\n" + tail:        true,
		head + "# a comment\n\ncd -- /\nset -o errexit\nset -o noexec\n" + tail:                 true,
		head + "shopt -u nosuch\nset +o nosuch\n" + tail:                                        true, // (an option of another version, off)
		head + tail: true,
		valid:       true,
	}
	return states
}

func TestStateHostile(t *testing.T) {
	a := newStateSession(t, nil, 0)
	a.run(t, stateScripts[0])
	valid, err := a.SaveState()
	require.NoError(t, err)
	for state, loads := range hostileStates(string(valid)) {
		b := newStateSession(t, nil, 1<<20)
		b.run(t, "before=1")
		err := b.LoadState([]byte(state))
		name := state
		if len(name) > 200 {
			name = name[:200]
		}
		if loads {
			assert.NoError(t, err, name)
		} else {
			assert.Error(t, err, name)
			out, _, _ := b.run(t, "echo $before")
			assert.Equal(t, "1\n", out, "a refused state leaves the session as it was: %q", name)
		}
		_, err = b.fs.Stat("/pwned")
		assert.Error(t, err, "nothing ran: %q", name)
		assert.Empty(t, *b.execs, name)
	}
}

// TestStateFunctionStaysCode: a substitution in a function's body is part
// of the function, not run when the state loads.
func TestStateFunctionStaysCode(t *testing.T) {
	text := "f () \n{ \n    echo \"$(touch /pwned)\" `touch /pwned`\n}\n"
	state := fmt.Sprintf("%s\n# function %d\n%s%s\n", stateMagic, len(text), text, stateEnd)
	b := newStateSession(t, nil, 0)
	require.NoError(t, b.LoadState([]byte(state)))
	out, _, _ := b.run(t, "declare -f f")
	assert.Equal(t, text, out)
	assert.Empty(t, *b.execs)
	_, err := b.fs.Stat("/pwned")
	assert.Error(t, err)
}

// TestStateTruncated: every prefix of a state is refused.
func TestStateTruncated(t *testing.T) {
	a := newStateSession(t, nil, 0)
	a.run(t, stateScripts[0]+"; "+stateScripts[15])
	state, err := a.SaveState()
	require.NoError(t, err)
	b := newStateSession(t, nil, 0)
	for n := 0; n < len(state); n++ {
		require.Error(t, b.LoadState(state[:n]), "prefix of %d bytes", n)
	}
	// a line cut short, the rest kept: refused or loaded as data, never run
	lines := strings.SplitAfter(string(state), "\n")
	for i, l := range lines {
		for _, cut := range []int{len(l) / 3, len(l) / 2, len(l) - 2} {
			if cut <= 0 || cut >= len(l) {
				continue
			}
			mut := strings.Join(lines[:i], "") + l[:cut] + "\n" + strings.Join(lines[i+1:], "")
			_ = b.LoadState([]byte(mut))
		}
	}
	assert.Empty(t, *b.execs)
	_, err = b.fs.Stat("/pwned")
	assert.Error(t, err)
}

// TestStateRandomBytes: garbage in is an error, not a panic.
func TestStateRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	b := newStateSession(t, nil, 0)
	for i := 0; i < 2000; i++ {
		buf := make([]byte, rng.IntN(300))
		for j := range buf {
			buf[j] = byte(rng.IntN(256))
		}
		if i%2 == 0 {
			buf = append([]byte(stateMagic+"\n"), append(buf, []byte("\n"+stateEnd+"\n")...)...)
		}
		err := b.LoadState(buf)
		if err != nil {
			assert.NotContains(t, err.Error(), "internal error")
		}
	}
	assert.Empty(t, *b.execs)
}

// TestStateLimits: what a state may hold is bounded by the loading shell.
func TestStateLimits(t *testing.T) {
	big := strings.Repeat("x", 2<<20)
	a := newStateSession(t, nil, 0)
	a.run(t, "big="+big+"; big2=$big")
	state, err := a.SaveState()
	require.NoError(t, err)
	small := newStateSession(t, nil, 1<<20)
	err = small.LoadState(state)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "big")
	medium := newStateSession(t, nil, 3<<20) // each fits, both do not
	err = medium.LoadState(state)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hold")
	large := newStateSession(t, nil, 16<<20)
	require.NoError(t, large.LoadState(state))
	huge := append([]byte(stateMagic+"\n"), make([]byte, 40<<20)...)
	err = small.LoadState(huge)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than")
}

// FuzzLoadState: whatever the bytes, LoadState neither panics nor runs
// anything, and a state it loads saves and loads again to the same text.
// Plain `go test` runs the seeds only.
func FuzzLoadState(f *testing.F) {
	for _, script := range stateScripts {
		a := newStateSession(f, nil, 0)
		var out bytes.Buffer
		_, err := a.Run(context.Background(), script, Stdio{Stdout: &out, Stderr: &out}, RunOptions{})
		require.NoError(f, err)
		state, err := a.SaveState()
		require.NoError(f, err)
		f.Add(state)
	}
	for state := range hostileStates("") {
		if len(state) < 64<<10 {
			f.Add([]byte(state))
		}
	}
	f.Fuzz(func(t *testing.T, state []byte) {
		if len(state) > 1<<20 {
			return
		}
		b := newStateSession(t, nil, 4<<20)
		err := b.LoadState(state)
		require.Empty(t, *b.execs)
		_, serr := b.fs.Stat("/pwned")
		require.Error(t, serr)
		if err != nil {
			require.NotContains(t, err.Error(), "internal error")
			return
		}
		s1, err := b.SaveState()
		require.NoError(t, err)
		c := newStateSession(t, nil, 4<<20)
		require.NoError(t, c.LoadState(s1), "%s", s1)
		s2, err := c.SaveState()
		require.NoError(t, err)
		require.Equal(t, string(s1), string(s2))
	})
}

// TestStateConformanceCorpus: the bash scripts of the conformance suite,
// run in a session and as the body of a function, survive a save and a
// load.
func TestStateConformanceCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/conformance/cases/bash-*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, c := range strings.Split(string(data), "\n=== ")[1:] {
			name, script, _ := strings.Cut(c, "\n")
			name = filepath.Base(file) + "/" + name
			for _, script := range []string{script, "shopt -s extglob\nf() {\n" + script + "\n}"} {
				a := newStateSession(t, nil, 0)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				var out bytes.Buffer
				_, _ = a.Run(ctx, script, Stdio{Stdout: &out, Stderr: &out}, RunOptions{})
				cancel()
				state, err := a.SaveState()
				require.NoError(t, err, name)
				b := newStateSession(t, a.fs.Clone(), 0)
				require.NoError(t, b.LoadState(state), name)
				outA, errA, stA := a.run(t, stateProbe)
				outB, errB, stB := b.run(t, stateProbe)
				require.Equal(t, dropVolatile(outA), dropVolatile(outB), name)
				require.Equal(t, errA, errB, name)
				require.Equal(t, stA, stB, name)
				n++
			}
		}
	}
	t.Logf("%d scripts", n)
}
