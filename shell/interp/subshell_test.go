package interp

import "testing"

// Subshells: what a ( ) child inherits (variables, functions, options,
// directory) and what does not come back; $BASH_SUBSHELL; pipelines'
// stages; process substitution; background jobs and wait.
func TestSubshells(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "inherits-and-isolates", src: `x=1; f() { echo "f sees $x"; }; (f; x=2; g() { :; }); echo $x; type -t g || echo no-g`, out: "f sees 1\n1\nno-g\n"},
		{name: "options-inherited", src: `set -u; (echo ${nosuch}; echo no); echo "st=$?"`, out: "st=1\n", err: "bash: line 1: nosuch: unbound variable\n"},
		{name: "options-do-not-come-back", src: `(set -u); echo "[$nosuch]"`, out: "[]\n"},
		{name: "limits-do-not-come-back", src: `ulimit -c 0; (ulimit -n 10; ulimit -c 1); ulimit -n; ulimit -c`, out: "1024\n0\n"},
		{name: "bash-subshell", src: `echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL; (echo $BASH_SUBSHELL)); echo $(echo $BASH_SUBSHELL)`, out: "0\n1\n2\n1\n"},
		{name: "exit-ends-only-subshell", src: `(exit 3; echo no); echo "st=$?"`, out: "st=3\n"},
		{name: "pipeline-stages-are-subshells", src: `x=0; echo 5 | read x; echo $x; echo 5 | { read x; echo "in: $x"; }`, out: "0\nin: 5\n"},
		{name: "output-of-subshell-redirected", src: `(echo a; echo b) > f; (read -r l; echo "got $l") < f`, out: "got a\n", wantFiles: map[string]string{"f": "a\nb\n"}},
		{name: "process-substitution-input", src: `while read -r l; do echo "<$l>"; done < <(echo one; echo two)`, out: "<one>\n<two>\n"},
		{name: "process-substitution-vars-persist", src: `n=0; while read -r l; do ((n++)); done < <(printf 'a\nb\nc\n'); echo $n`, out: "3\n"},
		{name: "process-substitution-as-file", src: `read -r l < <(echo via-psub); echo $l; mapfile -t a < <(echo x; echo y); echo ${#a[@]}`, out: "via-psub\n2\n"},
		{name: "process-substitution-output", src: `echo data > >(read -r l; echo "got $l" > f); wait $!; echo "$(<f)"`, out: "got data\n"},
		{name: "background-and-wait", src: `(echo bg; exit 5) & wait $!; echo "st=$?"`, out: "bg\nst=5\n"},
		{name: "wait-all", src: `for i in 1 2 3; do (exit $i) & done; wait; echo "st=$?"`, out: "st=0\n"},
		{name: "bang-is-last-job", src: `true & p=$!; wait $p; [[ $p =~ ^[0-9]+$ ]] && echo numeric`, out: "numeric\n"},
		{name: "command-substitution-subshell", src: `x=1; y=$(x=2; echo $x; exit 0); echo "$x $y"`, out: "1 2\n"},
		{name: "subshell-lists-parent-traps", src: `trap 'echo parent-err' ERR; (trap -p ERR; echo listed)`, out: "trap -- 'echo parent-err' ERR\nlisted\n"},
		{name: "nested-command-substitution-quotes", src: `echo "$(echo "$(echo 'in "quotes"')")"`, out: "in \"quotes\"\n"},
		{name: "coproc", src: `coproc C { read -r l; echo "co:$l"; }; echo hi >&${C[1]}; read -r r <&${C[0]}; echo "$r"; wait`, out: "co:hi\n"},
	})
}
