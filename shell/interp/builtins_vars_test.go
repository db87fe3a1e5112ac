package interp

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// declare/typeset/local: attributes (-i -l -u -r -x -a -A -n -g), -p
// output, +attr removal, function-local vs -g globals, and the errors.
func TestDeclareBuiltin(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "set-k-assignments-anywhere", src: "f() { echo \"$c $d\"; }\nset -k\na=5 $U c=7 $U d=8 $U\necho $a $c $d\nf c=1 d=2\necho end d=$d\nset +k\necho z=1", out: "5 7 8\n1 2\nend\nz=1\n"},
		{name: "local-alone-lists-the-locals", src: "g=1; f() { local z=yy; local -a av=(1 2); local; }; f", out: "declare -a av=([0]=\"1\" [1]=\"2\")\ndeclare -- z=\"yy\"\n"},
		{name: "ignoreeof-sets-IGNOREEOF", src: "set -o ignoreeof; echo $IGNOREEOF; set +o ignoreeof; echo ${IGNOREEOF-unset}", out: "10\nunset\n"},
		{name: "prefix-assignment-adopted-by-export-readonly", src: `x=1 readonly x; declare -p x; y=1 declare -r y; declare -p y; z=1 declare z; declare -p z; v=1 export v=2; declare -p v; u=1 export -n u; declare -p u; foo="" export foo; declare -p foo`,
			out: "declare -rx x=\"1\"\ndeclare -rx y=\"1\"\ndeclare -x v=\"2\"\ndeclare -x foo=\"\"\n", err: "bash: line 1: declare: z: not found\nbash: line 1: declare: u: not found\n"},
		{name: "declare-f-p-missing", src: `declare -f nofn; echo $?; declare -fp nofn; echo $?`, out: "1\n1\n", err: "bash: line 1: declare: nofn: not found\n"},
		{name: "assoc-at-key-test", src: `declare -A A; A[x]=1; [ -v 'A[@]' ] && echo y || echo n; A[@]=2; [ -v 'A[@]' ] && echo y; a=(1); [[ -v a[@] ]] && echo ya`, out: "n\ny\nya\n"},
		{name: "enable-special", src: `enable -s | { c=0; while read -r l; do c=$((c+1)); done; echo $c; }`, out: "16\n"},
		{name: "export-a-and-quoted-compound", src: `export -a r=(6); declare -p r; export -A q; declare -p q; r=(1); export r="(5)"; declare -p r; export -a r="(7)"; declare -p r; readonly 'c=(3)'; declare -p c`, out: "declare -ax r=([0]=\"6\")\ndeclare -x q\ndeclare -ax r=([0]=\"(5)\")\ndeclare -ax r=([0]=\"7\")\ndeclare -r c=\"(3)\"\n"},
		{name: "readonly-errors-name-no-builtin", src: `readonly a=1; readonly a=2; export a=3; declare a=4; echo $?`, out: "1\n", err: "bash: line 1: a: readonly variable\nbash: line 1: a: readonly variable\nbash: line 1: declare: a: readonly variable\n"},
		{name: "local-of-a-prefix-assignment-keeps-it", src: `f() { local x; declare -p x; local -i y; y+=3; echo $y; }; x=5 y=5 f; g() { local x; echo "g[$x]"; }; h() { local x=7; g; }; x=5 h; h; k() { local -a x; declare -p x; }; x=5 k`, out: "declare -x x=\"5\"\n8\ng[7]\ng[]\ndeclare -ax x=()\n"},
		{name: "local-cannot-shadow-readonly", src: `readonly a=1; f() { local a=2; echo $? $a; }; f`, out: "1 1\n", err: "environment: line 1: local: a: readonly variable\n"},
		{name: "integer", src: `declare -i n=5+5; echo $n; n+=1; echo $n`, out: "10\n11\n"},
		{name: "lower-upper", src: `declare -l lo=MiXeD; declare -u up=MiXeD; echo $lo $up; lo=AGAIN; echo $lo`, out: "mixed MIXED\nagain\n"},
		{name: "print-scalar", src: `x='a "b" $c'; declare -p x`, out: "declare -- x=\"a \\\"b\\\" \\$c\"\n"},
		{name: "print-attributes", src: `declare -ir n=3; declare -x e=v; declare -p n e`, out: "declare -ir n=\"3\"\ndeclare -x e=\"v\"\n"},
		{name: "print-unset-declared", src: `declare x; declare -p x; declare -a a; declare -p a`, out: "declare -- x\ndeclare -a a\n"},
		{name: "print-missing", src: `declare -p nosuch; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: declare: nosuch: not found\n"},
		{name: "typeset-synonym", src: `typeset -i n=2*3; echo $n; typeset -p n`, out: "6\ndeclare -i n=\"6\"\n"},
		{name: "remove-attribute", src: `declare -i n=1; declare +i n; n=1+1; echo $n`, out: "1+1\n"},
		{name: "readonly", src: `declare -r r=1; r=2; echo "after $r"`, err: "bash: line 1: r: readonly variable\n", status: 1},
		{name: "readonly-in-list-continues", src: "readonly r=1\nr=2 || echo failed\necho next", out: "next\n", err: "bash: line 2: r: readonly variable\n"},
		{name: "readonly-unset", src: `readonly r=1; unset r; echo "st=$? $r"`, out: "st=1 1\n", err: "bash: line 1: unset: r: cannot unset: readonly variable\n"},
		{name: "local-in-function", src: `f() { declare x=in; echo $x; }; x=out; f; echo $x`, out: "in\nout\n"},
		{name: "global-flag", src: `f() { declare -g g=global; local l=local; }; f; echo "$g [$l]"`, out: "global []\n"},
		{name: "function-names", src: `f() { :; }; g() { :; }; declare -F`, out: "declare -f f\ndeclare -f g\n"},
		{name: "function-attributes-in-subshell-stay-there", src: `f() { :; }; g() { :; }; readonly -f g; (declare -ft f; declare -fr f; declare -F); declare -F`,
			out: "declare -frt f\ndeclare -fr g\ndeclare -f f\ndeclare -fr g\n"},
		{name: "invalid-identifier", src: `declare 1x=3; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: declare: `1x=3': not a valid identifier\n"},
		{name: "array-attribute-via-assignment", src: `declare -a a=(1 2) ; declare -A m=([k]=v); echo ${a[1]} ${m[k]}`, out: "2 v\n"},
		{name: "nameref", src: `declare -n ref=target; ref=hello; echo $target; declare -p ref`, out: "hello\ndeclare -n ref=\"target\"\n"},
		{name: "local-inherits-value-when-unset", src: `x=outer; f() { local x; x=${x:-none}; echo $x; }; f`, out: "none\n"},
		{name: "local-p-one", src: `x=1; f() { local x=2; local -p x; }; f`, out: "declare -- x=\"2\"\n"},
		{name: "local-p-lists-only-locals", src: `f() { local a=1 b; local -p; }; f`, out: "declare -- a=\"1\"\ndeclare -- b\n",
			skip: "local -p without names lists every variable of the shell, not just the function's locals"},
		{name: "integer-error-in-assignment-exits", src: "declare -i i; i=08; echo same-line\necho next-line", err: "bash: line 1: 08: value too great for base (error token is \"08\")\n", status: 1,
			skip: "an arithmetic error assigning to an integer variable abandons the line but the script goes on (prints next-line, status 0); bash exits with status 1"},
		{name: "integer-error-in-declare-exits", src: "declare -i i=08; echo same-line\necho next-line", err: "bash: line 1: declare: 08: value too great for base (error token is \"08\")\n", status: 1,
			skip: "an arithmetic error in declare -i's own assignment fails only declare (status 1) and the script goes on; bash exits as for a plain assignment"},
		{name: "local-dash", src: `f() { local -; set -u; }; f; [[ $- == *u* ]] && echo leaked || echo restored`, out: "restored\n"},
		{name: "declare-in-loop-keeps-value", src: `for i in 1 2; do declare v; echo "[$v]"; v=$i; done`, out: "[]\n[1]\n"},
	})
}

// export, unset and environment: exported values reach Environ(); unset of
// variables, functions and array elements; prefix assignments are
// temporary.
func TestExportAndUnset(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "export-p-shows-attribute", src: `export E=1; declare -p E; export -n E; declare -p E`, out: "declare -x E=\"1\"\ndeclare -- E=\"1\"\n"},
		{name: "export-without-value", src: `export X; declare -p X; X=later; declare -p X`, out: "declare -x X\ndeclare -x X=\"later\"\n"},
		{name: "prefix-assignment-temporary", src: `x=outer; x=inner declare -p x; echo $x`, out: "declare -x x=\"inner\"\nouter\n"},
		{name: "prefix-assignment-on-function", src: `f() { echo "in f: $v"; }; v=temp f; echo "after: [$v]"`, out: "in f: temp\nafter: []\n"},
		{name: "prefix-on-special-builtin-temporary", src: `v=kept :; echo "[$v]"`, out: "[]\n"},
		{name: "unset-variable", src: `x=1; unset x; echo "[${x-unset}]"`, out: "[unset]\n"},
		{name: "unset-prefers-variable", src: `f=var; f() { echo func; }; unset f; f; echo "[${f-}]"`, out: "func\n[]\n"},
		{name: "unset-v-and-f", src: `f() { echo func; }; f=var; unset -f f; echo $f; f; echo "st=$?"`, out: "var\nst=127\n", err: "bash: line 1: f: command not found\n"},
		{name: "unset-array-element", src: `a=(1 2 3); unset 'a[0]'; echo ${a[@]} ${!a[@]}`, out: "2 3 1 2\n"},
		{name: "unset-local-reveals-global", src: `x=g; f() { local x=l; unset x; echo "[$x]"; }; f`, out: "[]\n"},
		{name: "unset-invalid-falls-back-to-function", src: `unset 'a b'; echo "st=$?"`, out: "st=0\n"},
		{name: "unset-v-invalid", src: `unset -v 'a b'; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: unset: `a b': not a valid identifier\n"},
		{name: "allexport", src: `set -a; v=1; set +a; w=2; declare -p v w`, out: "declare -x v=\"1\"\ndeclare -- w=\"2\"\n"},
	})
}

// Exported variables and cd reach the Runner's Environ() and Dir(), which
// the host uses to run programs.
func TestRunnerStateAfterRun(t *testing.T) {
	r, out, errb := testRunner(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st := r.Run(ctx, "export GREETING='hello world'; LOCALONLY=1; cd /tmp; f() { :; }", RunOpts{})
	assert.Equal(t, 0, st, errb.String())
	assert.Equal(t, "", out.String())
	env := r.Environ()
	assert.Contains(t, env, "GREETING=hello world")
	assert.Contains(t, env, "HOME=/home/user")
	for _, kv := range env {
		assert.NotContains(t, kv, "LOCALONLY=", "unexported variable in the environment")
	}
	assert.Equal(t, "/tmp", r.Dir())
	assert.Contains(t, r.FuncNames(), "f")

	// A later Run sees the state the earlier one left.
	st = r.Run(ctx, `echo "$LOCALONLY $PWD $OLDPWD"; unset GREETING; exit 3`, RunOpts{})
	assert.Equal(t, 3, st)
	assert.Equal(t, "1 /tmp /home/user\n", out.String())
	assert.True(t, r.Exited())
	assert.NotContains(t, r.Environ(), "GREETING=hello world")
}
