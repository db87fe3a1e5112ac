package interp

import "testing"

// "$@" and "$*" and their unquoted forms, under the default IFS, a custom
// IFS, an empty IFS and an unset IFS.
func TestPositionalExpansionWithIFS(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "each-expansion-splits-with-its-ifs", src: `set -f -- a 'b c' d; unset -v IFS; printf '<%s> ' ${*}${IFS=}${*}${IFS:=-}"${*}"; echo`, out: "<a> <b> <c> <da> <b c> <d-a-b c-d> \n"},
		{name: "star-substring-loses-del-when-ifs-null", src: `IFS=; set -- $'\177'; v=${*:1}; a=($'\177'); w=${a[*]:0}; printf '%q ' "$v" "$w" "${*:1}"; echo`, out: "'' '' $'\\177' \n"},
		{name: "list-words-split-as-if-joined-by-ifs", src: `arr=("'a'" "'b'" "" c); IFS="'"; printf '<%s>' ${arr[@]}; echo; IFS=:; set -- "" b "a:" "" d; printf '<%s>' $* / $@x; echo`,
			out: "<><a><><><b><><><c>\n<><b><a><><><d></><><b><a><><><dx>\n"},
		{name: "star-in-pattern-joins-by-ifs", src: `set -- a b; IFS=; x=abc; echo "${x#$*}" ${x#$*}; IFS=?; set a c; y=abcd; echo "${y#$*}" "${y#"$*"}"`, out: "c c\nd abcd\n"},
		{name: "scalar-at-substring", src: `f=abcd; echo ${f[@]:0:1} "${f[*]:1:2}" ${f[@]: -1}`, out: "a bc d\n"},
		{name: "empty-comsub-beside-empty-at", src: `n() { echo $#; }; n "$(true)$@"; n "$(true)""$@"; n "${@:+x}"; a=(); n "${a[@]:+x}" "${a[@]-}"; set -- ""; n "${@:+x}"`, out: "0\n1\n0\n1\n1\n"},
		{name: "quoted-null-next-to-a-delimiter-is-a-field", src: `f() { printf '<%s>' "$@"; echo; }; v="a b "; f $v""; v=" a b"; f ""$v; v="a:b:"; IFS=:; f $v""; f $v; v=":"; f ""$v; f $v""`, out: "<a><b><>\n<><a><b>\n<a><b><>\n<a><b>\n<>\n<><>\n"},
		{name: "quoted-empty-expansions-with-empty-at-make-no-word", src: `f() { echo $#; }; set --; a=(); f "$xxx${@}"; f "${@}${xxx}"; f "$xxx${a[@]}"; f "$xxx""$@"; f x"$@"; set -- ""; f "$xxx$@"`, out: "0\n0\n0\n1\n1\n1\n"},
		{name: "quoted-at", src: `set -- 'a b' c ''; printf '<%s>' "$@"; echo`, out: "<a b><c><>\n"},
		{name: "quoted-star-default-ifs", src: `set -- 'a b' c; printf '<%s>' "$*"; echo`, out: "<a b c>\n"},
		{name: "quoted-star-custom-ifs", src: `set -- a b c; IFS=,:; printf '<%s>' "$*"; echo`, out: "<a,b,c>\n"},
		{name: "quoted-star-empty-ifs", src: `set -- a b c; IFS=; printf '<%s>' "$*"; echo`, out: "<abc>\n"},
		{name: "quoted-star-unset-ifs", src: `set -- a b c; unset IFS; printf '<%s>' "$*"; echo`, out: "<a b c>\n"},
		{name: "unquoted-at-splits", src: `set -- 'a b' c; printf '<%s>' $@; echo`, out: "<a><b><c>\n"},
		{name: "unquoted-star-empty-ifs-keeps-params", src: `set -- 'a b' c; IFS=; printf '<%s>' $*; echo`, out: "<a b><c>\n"},
		{name: "no-params", src: `set --; n() { echo $#; }; n "$@"; n "$*"; n $*`, out: "0\n1\n0\n"},
		{name: "at-with-prefix-suffix", src: `set -- a b; printf '<%s>' "x$@y"; echo`, out: "<xa><by>\n"},
		{name: "empty-params-dropped-unquoted", src: `set -- '' a ''; printf '<%s>' $@; echo " $#"`, out: "<a> 3\n"},
		{name: "at-in-assignment-joins", src: `set -- a b c; x=$@; echo "$x"; IFS=-; y="$*"; echo "$y"`, out: "a b c\na-b-c\n"},
		{name: "star-joined-in-assignment-not-split", src: `set -- a b; IFS=:; x="$*"; y=$*; z=$@; echo "$x|$y|$z"`, out: "a:b|a:b|a b\n"},
		{name: "default-on-empty-params", src: `set -- ''; printf '<%s>' "${@:-d}" "${@-e}"; set --; printf '<%s>' "${@:-d}"; echo`, out: "<d><><d>\n"},
		{name: "star-slice-joined-by-ifs", src: `set -- a b c; IFS=-; echo "${*:2}" "${@:2}"`, out: "b-c b c\n"},
		{name: "for-default-is-at", src: `set -- 'a b' c; for w; do echo "<$w>"; done`, out: "<a b>\n<c>\n"},
	})
}

// Field splitting: IFS whitespace vs non-whitespace delimiters, empty
// fields, leading/trailing separators, and quoting that suppresses it.
func TestFieldSplitting(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "whitespace-collapses", src: `x='  a   b	c  '; printf '<%s>' $x; echo`, out: "<a><b><c>\n"},
		{name: "non-whitespace-delimits-empty", src: `x='a,,b,'; IFS=,; printf '<%s>' $x; echo`, out: "<a><><b>\n"},
		{name: "leading-delimiter-empty-field", src: `x=',a'; IFS=,; printf '<%s>' $x; echo`, out: "<><a>\n"},
		{name: "mixed-whitespace-and-delimiter", src: `x='a , b ,c'; IFS=' ,'; printf '<%s>' $x; echo`, out: "<a><b><c>\n"},
		{name: "repeated-non-whitespace-delimiter", src: `IFS=x; v=axbxxc; set -- $v; printf '<%s>' "$@"; echo`, out: "<a><b><><c>\n"},
		{name: "whitespace-around-delimiters-trailing", src: `IFS=' :'; x=' a : b : '; set -- $x; echo $#; printf '<%s>' "$@"; echo`, out: "2\n<a><b>\n"},
		{name: "newline-ifs", src: `IFS=$'\n'; x=$'a b\nc d'; set -- $x; echo $# "$2"`, out: "2 c d\n"},
		{name: "backslash-and-quotes-from-expansion-are-literal", src: `x='a\ b'; set -- $x; echo $# "$1"; x="'a b'"; set -- $x; echo $# "$1"`, out: "2 a\\\n2 'a\n"},
		{name: "quoted-not-split", src: `x='a  b'; printf '<%s>' "$x"; echo`, out: "<a  b>\n"},
		{name: "empty-ifs-no-split", src: `x='a b'; IFS=; printf '<%s>' $x; echo`, out: "<a b>\n"},
		{name: "unquoted-empty-removed", src: `e=; printf '<%s>' a $e b "$e"; echo`, out: "<a><b><>\n"},
		{name: "literal-text-not-split", src: `IFS=,; printf '<%s>' a,b; echo`, out: "<a,b>\n"},
		{name: "command-subst-split", src: `printf '<%s>' $(echo 'a  b'); echo; printf '<%s>' "$(echo 'a  b')"; echo`, out: "<a><b>\n<a  b>\n"},
		{name: "ifs-local-to-function", src: `f() { local IFS=:; x='a:b'; printf '<%s>' $x; echo; }; f; x='a:b'; printf '<%s>' $x; echo`, out: "<a><b>\n<a:b>\n"},
		{name: "ifs-prefix-assignment-to-read", src: `IFS=: read -r a b <<< 'x:y z'; echo "$a|$b"`, out: "x|y z\n"},
		{name: "set-f-disables-glob-not-split", src: `set -f; x='* b'; printf '<%s>' $x; echo`, out: "<*><b>\n"},
	})
}

// Quoting: single quotes, double quotes with \ $ ` " escapes, $'...' ANSI-C
// strings, $"..." and backslash-newline.
func TestQuoting(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "single-quotes-literal", src: `x=1; echo '$x \n "q"'`, out: "$x \\n \"q\"\n"},
		{name: "double-quote-escapes", src: `x=1; echo "\$x=$x \"q\" \\ \a \` + "`" + `"`, out: "$x=1 \"q\" \\ \\a `\n"},
		{name: "ansi-c", src: `echo $'a\tb\nc\x41\101\u00e9\'\\'`, out: "a\tb\ncAAé'\\\n"},
		{name: "ansi-c-control", src: `printf '%s' $'\cA' | { IFS= read -r c; printf '%d\n' "'$c"; }`, out: "1\n"},
		{name: "ansi-c-nul-truncates", src: `x=$'ab\0cd'; echo ${#x} $x`, out: "2 ab\n"},
		{name: "ansi-c-hex-braces", src: `printf '<%s>' $'ab\x{41}cd' $'\x{01234567}X' $'ab\x{}cd' $'\x{41'; echo`, out: "<abAcd><gX><ab><A>\n"},
		{name: "locale-string", src: `echo $"hello"`, out: "hello\n"},
		{name: "backslash-newline-joins", src: "echo ab\\\ncd", out: "abcd\n"},
		{name: "backslash-in-unquoted", src: `echo \a\ b \$x \\`, out: "a b $x \\\n"},
		{name: "adjacent-quotes-concatenate", src: `echo 'a'"b"c$'d'`, out: "abcd\n"},
		{name: "empty-quotes-are-an-argument", src: `printf '<%s>' '' ""; echo`, out: "<><>\n"},
		{name: "quoted-glob-chars-literal", src: `echo "*" '?' \[`, out: "* ? [\n"},
		{name: "double-quotes-inside-subst", src: `x="$(echo "a  b")"; echo "$x"`, out: "a  b\n"},
		{name: "nested-quotes-in-param", src: `unset x; echo "${x:-"a  b"}" "${x:-'q'}"`, out: "a  b 'q'\n"},
		{name: "single-quote-in-double", src: `echo "it's"`, out: "it's\n"},
		{name: "tilde-not-expanded-quoted", src: `echo "~" '~'`, out: "~ ~\n"},
	})
}

// Command substitution: $(...) and backquotes, trailing newlines removed,
// nesting, status, and $(<file).
func TestCommandSubstitution(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "multiline-body-numbered-from-its-last-line", src: "echo $(echo $LINENO\necho $LINENO)\necho `echo $LINENO\necho $LINENO`\nx=$(echo $LINENO); echo $x", out: "2 3\n4 5\n5\n"},
		{name: "backquote-joins-lines-inside-quotes", src: "echo `echo 'foo\\\nbar'`; echo $(echo 'foo\\\nbar')", out: "foobar\nfoo\\ bar\n"},
		{name: "trailing-newlines-stripped", src: `x=$(printf 'a\n\n\n'); echo "[$x]"`, out: "[a]\n"},
		{name: "inner-newlines-kept", src: `x=$(printf 'a\n\nb\n'); echo "$x"`, out: "a\n\nb\n"},
		{name: "nested", src: `echo $(echo a $(echo b $(echo c)))`, out: "a b c\n"},
		{name: "backquotes", src: "echo `echo a` \"`echo b`\"", out: "a b\n"},
		{name: "backquote-escapes", src: "echo `echo \\$HOME`", out: "/home/user\n"},
		{name: "status-of-assignment", src: `x=$(exit 3); echo $?; x=$(true); echo $?`, out: "3\n0\n"},
		{name: "variables-do-not-leak", src: `x=1; y=$(x=2; echo $x); echo $x $y`, out: "1 2\n"},
		{name: "read-file", src: `echo "$(<f)"`, files: map[string]string{"f": "line1\nline2\n"}, out: "line1\nline2\n"},
		{name: "stderr-not-captured", src: `x=$(echo out; echo err >&2); echo "[$x]"`, out: "[out]\n", err: "err\n"},
		{name: "case-in-subst", src: `x=$(case a in a) echo yes;; esac); echo $x`, out: "yes\n"},
		{name: "nul-bytes-dropped", src: `x=$(printf 'a\0b'); echo "$x"`, out: "ab\n", err: "bash: line 1: warning: command substitution: ignored null byte in input\n"},
		{name: "exit-in-subst-does-not-exit", src: `x=$(exit 5; echo no); echo "st=$? [$x]"`, out: "st=5 []\n"},
	})
}
