package interp

import "testing"

// Syntax errors: bash's wording, the "bash: -c: line N:" prefix, the echo
// of the offending line, status 2 (1 for an unclosed array assignment),
// and that nothing from the bad command on runs (earlier lines do).
func TestSyntaxErrors(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "trailing-backslash-in-eval", src: "eval 'if \\'; eval 'if'", err: "bash: eval: line 3: syntax error: unexpected end of file\nbash: eval: line 2: syntax error: unexpected end of file\n", status: 2},
		{name: "sourced-file-names-itself", files: map[string]string{"bad.sh": "echo a\nif\n"}, src: "source bad.sh", out: "a\n", err: "bad.sh: line 3: syntax error: unexpected end of file\n", status: 2},
		{name: "sourced-file-in-eval-names-itself", files: map[string]string{"bad.sh": "echo a\nif\n"}, src: "eval 'source bad.sh'", out: "a\n", err: "bad.sh: line 3: syntax error: unexpected end of file\n", status: 2},
		{name: "comsub-lines", src: "x=$(\n\nfoo1)", err: "bash: line 3: foo1: command not found\n", status: 127},
		{name: "unterminated-double-quote", src: `echo "unterminated`, err: "bash: -c: line 1: unexpected EOF while looking for matching `\"'\n", status: 2},
		{name: "unterminated-single-quote", src: "echo ok\necho 'x", out: "ok\n", err: "bash: -c: line 2: unexpected EOF while looking for matching `''\n", status: 2},
		{name: "missing-fi", src: `if true; then echo x`, err: "bash: -c: line 2: syntax error: unexpected end of file\n", status: 2},
		{name: "missing-done", src: "for i in 1; do\necho $i", err: "bash: -c: line 3: syntax error: unexpected end of file\n", status: 2},
		{name: "unexpected-token", src: `for i in 1; echo`, err: "bash: -c: line 1: syntax error near unexpected token `echo'\nbash: -c: line 1: `for i in 1; echo'\n", status: 2},
		{name: "unexpected-paren", src: `echo a; )`, err: "bash: -c: line 1: syntax error near unexpected token `)'\nbash: -c: line 1: `echo a; )'\n", status: 2},
		{name: "later-line", src: "echo first\necho second\nfi", out: "first\nsecond\n", err: "bash: -c: line 3: syntax error near unexpected token `fi'\nbash: -c: line 3: `fi'\n", status: 2},
		{name: "dangling-and", src: `echo a &&`, err: "bash: -c: line 2: syntax error: unexpected end of file\n", status: 2},
		{name: "unclosed-case", src: `case x in`, err: "bash: -c: line 2: syntax error: unexpected end of file\n", status: 2},
		{name: "unclosed-array", src: `x=(1 2`, err: "bash: -c: line 1: unexpected EOF while looking for matching `)'\n", status: 1},
		{name: "double-semicolon-outside-case", src: `echo a;; echo b`, err: "bash: -c: line 1: syntax error near unexpected token `;;'\nbash: -c: line 1: `echo a;; echo b'\n", status: 2},
		{name: "empty-function-body", src: `f() { }`, err: "bash: -c: line 1: syntax error near unexpected token `}'\nbash: -c: line 1: `f() { }'\n", status: 2},
		{name: "unclosed-subst", src: `echo $(echo a`, err: "bash: -c: line 2: unexpected EOF while looking for matching `)'\n", status: 2},
		{name: "redirect-without-target", src: `echo a >`, err: "bash: -c: line 1: syntax error near unexpected token `newline'\nbash: -c: line 1: `echo a >'\n", status: 2},
	})
}

// Expansion errors: bad substitution, unbound variables under set -u (in
// every form the manual exempts or not), ${x:?}; the "bash: line N:"
// prefix, and what is abandoned: the rest of the line, not the lines
// after it.
func TestExpansionErrors(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "lines-after-an-abandoned-loop", src: "for n in 1 2; do\n  echo ${x!y}\n\ndone\necho L=$LINENO", out: "L=3\n", err: "bash: line 2: ${x!y}: bad substitution\n"},
		{name: "readonly-prefix-assignment-runs-the-command", src: "readonly x=4; x=8 echo hi; echo $?", out: "hi\n0\n",
			err: "bash: line 1: x: readonly variable\n"},
		{name: "indirect-expansion-errors", src: "x=; echo \"[${!x-d}]\"", err: "bash: line 1: : invalid variable name\n", status: 1},
		{name: "indirect-unset-variable", src: "echo \"${!var:-d}\"", err: "bash: line 1: var: invalid indirect expansion\n", status: 1},
		{name: "indirect-unset-positional", src: "echo \"[${!1-d}]\"", out: "[d]\n"},
		{name: "builtin-usage-errors", src: "eval -i\n. -i\nunset -f -v v\nkill ''\necho done",
			out: "done\n", err: "bash: line 1: eval: -i: invalid option\neval: usage: eval [arg ...]\nbash: line 2: .: -i: invalid option\n.: usage: . filename [arguments]\nbash: line 3: unset: cannot simultaneously unset a function and a variable\nbash: line 4: kill: `': not a pid or valid job spec\n"},
		{name: "for-bad-name-goes-on", src: "for 1 in a; do :; done; echo n $?", out: "n 1\n", err: "bash: line 1: `1': not a valid identifier\n"},
		{name: "posix-mode-ends-the-shell", src: "set -o posix; (echo $((1/0)); echo in); echo $? next; echo ${x!y}; echo after",
			out: "1 next\n", err: "bash: line 1: 1/0: division by 0 (error token is \"0\")\nbash: line 1: ${x!y}: bad substitution\n", status: 127},
		{name: "bad-substitution", src: `echo ${x!}; echo next`, err: "bash: line 1: ${x!}: bad substitution\n", status: 1},
		{name: "bad-substitution-later-line", src: "echo one\necho ${#x[@]x}; echo same-line\necho two", out: "one\ntwo\n", err: "bash: line 2: ${#x[@]x}: bad substitution\n"},
		{name: "bad-substitution-in-condition", src: `if [[ ${x/} == y ]]; then :; fi; echo next`, out: "next\n"},
		{name: "unbound", src: `set -u; a=1 b=; echo ${a} ${b} ${c}`, err: "bash: line 1: c: unbound variable\n", status: 127},
		{name: "unbound-later-line", src: "set -u\necho ok\necho $missing\necho no", out: "ok\n", err: "bash: line 3: missing: unbound variable\n", status: 127},
		{name: "unbound-array-element", src: `set -u; a=(1); echo ${a[5]}`, err: "bash: line 1: a[5]: unbound variable\n", status: 127},
		{name: "unbound-assoc-element", src: `set -u; declare -A m; echo ${m[k]}`, err: "bash: line 1: m[k]: unbound variable\n", status: 127},
		{name: "unbound-positional", src: `set -u; echo "$@" "$*" $#; echo $1`, out: " 0\n", err: "bash: line 1: $1: unbound variable\n", status: 127},
		{name: "unbound-in-arithmetic", src: `set -u; echo $((x + 1))`, err: "bash: line 1: x: unbound variable\n", status: 127},
		{name: "unbound-exempt-forms", src: `set -u; echo ${x:-ok} ${x-ok2} ${x+alt}.; echo ${#x}`, out: "ok ok2 .\n", err: "bash: line 1: x: unbound variable\n", status: 127},
		{name: "unbound-in-function-names-environment", src: "set -u\nf() {\n  echo $y\n}\nf; echo next", err: "environment: line 3: y: unbound variable\n", status: 127},
		{name: "arith-error-in-function", src: `f() { echo $((1/0)); }; f`, err: "environment: line 1: 1/0: division by 0 (error token is \"0\")\n", status: 1},
		{name: "not-found-in-function", src: "f() {\n  nosuch\n}\nf", err: "environment: line 2: nosuch: command not found\n", status: 127},
		{name: "question-mark-error", src: "x=\necho ${x:?must be set}\necho no", err: "bash: line 2: x: must be set\n", status: 127},
		{name: "invalid-indirect", src: `echo ${!}x; r='1bad'; echo ${!r}`, out: "x\n", err: "bash: line 1: 1bad: invalid variable name\n", status: 1},
		{name: "error-in-subshell-only-ends-it", src: `(echo ${x!}; echo no); echo "st=$?"`, out: "st=1\n", err: "bash: line 1: ${x!}: bad substitution\n"},
		{name: "error-in-command-substitution", src: `y=$(echo ${x!}); echo "st=$? [$y]"`, out: "st=1 []\n", err: "bash: line 1: ${x!}: bad substitution\n"},
	})
}
