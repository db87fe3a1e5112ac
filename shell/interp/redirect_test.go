package interp

import (
	"strings"
	"testing"
)

// Redirections to and from VFS files: > >> < 2> &> >& n>&m n<&m, closing
// with >&-, noclobber and >|, order of duplication, exec redirections that
// stay open, <> and the errors of a bad redirection.
func TestRedirections(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "close-by-name-of-an-fd-not-open-is-silent", src: `fd=10; exec {fd}>&-; echo "s=$?"; fd=99999; exec {fd}>&-; echo "s=$?"; fd=abc; exec {fd}<&-; echo "s=$?"`, out: "s=0\ns=0\ns=0\n"},
		{name: "varredir-close-closes-name-fds-after-the-command", src: `: {fd}</dev/null; [ -e /dev/fd/$fd ] && echo open; exec {fd}<&-; shopt -s varredir_close; : {fd}</dev/null; [ -e /dev/fd/$fd ] || echo closed; echo x >&$fd; echo "status $?"`, out: "open\nclosed\nstatus 1\n", err: "bash: line 1: $fd: Bad file descriptor\n"},
		{name: "fd-number-past-int-max-is-a-word", src: `2147483648>/dev/null echo hi; 2000>&- echo z`, out: "z\n", err: "bash: line 1: 2147483648: command not found\n"},
		{name: "truncate-and-append", src: `echo one > f; echo two >> f; echo three >> f; echo new > g`, wantFiles: map[string]string{"f": "one\ntwo\nthree\n", "g": "new\n"}},
		{name: "input", src: `read -r line < f; echo "[$line]"`, files: map[string]string{"f": "first\nsecond\n"}, out: "[first]\n"},
		{name: "stderr-to-file", src: `{ echo out; echo err >&2; } 2> e`, out: "out\n", wantFiles: map[string]string{"e": "err\n"}},
		{name: "both-to-file", src: `{ echo out; echo err >&2; } &> all; { echo o2; echo e2 >&2; } >> all 2>&1`, wantFiles: map[string]string{"all": "out\nerr\no2\ne2\n"}},
		{name: "dup-order-matters", src: `{ echo out; echo err >&2; } 2>&1 > f`, out: "err\n", wantFiles: map[string]string{"f": "out\n"}},
		{name: "stdout-to-stderr", src: `echo to-err >&2; echo to-err-too 1>&2`, err: "to-err\nto-err-too\n"},
		{name: "close-stdout", src: `echo x >&-; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: echo: write error: Bad file descriptor\n"},
		{name: "noclobber", src: `echo a > f; set -C; echo b > f; echo "st=$?"; echo c >| f`, out: "st=1\n", err: "bash: line 1: f: cannot overwrite existing file\n", wantFiles: map[string]string{"f": "c\n"}},
		{name: "exec-opens-fd", src: `exec 3> f; echo one >&3; echo two >&3; exec 3>&-; echo "$(<f)"`, out: "one\ntwo\n", wantFiles: map[string]string{"f": "one\ntwo\n"}},
		{name: "exec-read-fd", src: `exec 4< f; read -r a <&4; read -r b <&4; exec 4<&-; echo "$a $b"`, files: map[string]string{"f": "1\n2\n3\n"}, out: "1 2\n"},
		{name: "exec-redirects-shell-stdout", src: `exec > f; echo into-file; echo also`, wantFiles: map[string]string{"f": "into-file\nalso\n"}},
		{name: "read-write", src: `exec 5<> f; read -r x <&5; echo NEW >&5; exec 5>&-; echo "$x"`, files: map[string]string{"f": "old\nrest\n"}, out: "old\n", wantFiles: map[string]string{"f": "old\nNEW\n\n"}},
		{name: "missing-input-file", src: `read x < nope; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: nope: No such file or directory\n"},
		{name: "directory-as-output", src: `echo x > dir; echo "st=$?"`, files: map[string]string{"dir/": ""}, out: "st=1\n", err: "bash: line 1: dir: Is a directory\n"},
		{name: "missing-directory", src: `echo x > no/such/f; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: no/such/f: No such file or directory\n"},
		{name: "target-is-expanded", src: `n=out; echo x > "$n.txt"; echo y > ${n}2`, wantFiles: map[string]string{"out.txt": "x\n", "out2": "y\n"}},
		{name: "dup-of-closed-fd-names-the-word", src: `a=42; echo foo >&$a; echo $?`, out: "1\n", err: "bash: line 1: $a: Bad file descriptor\n"},
		{name: "heredoc-backslash-newline-joins-before-the-delimiter", src: "c() { while IFS= read -r l; do echo \"$l\"; done; }\nc << EOF\nhi\nEO\\\nF\necho after\nc <<EOF\na\\\nb\\\\\nc\nEOF", out: "hi\nafter\nab\\\nc\n"},
		{name: "heredoc-in-comsub-ended-by-delimiter-and-paren", src: "c() { while IFS= read -r l; do echo \"$l\"; done; }\nt=$(c <<EOF\nhere\nEOF)\necho \"= $t =\"", out: "= here =\n", err: "bash: line 4: warning: here-document at line 2 delimited by end-of-file (wanted `EOF')\n"},
		{name: "heredoc-strip-tabs-delimiter-with-tabs", src: "c() { while IFS= read -r l; do echo \"$l\"; done; }\nc <<-'\tEND'\n\thello\n\tEND\necho end", out: "hello\nend\n"},
		{name: "varfd-move-gets-a-new-fd", src: `exec {fd0}<&0; exec {fd1}>&1; exec {a}<&$fd0-; exec {b}>&$fd1-; echo $((a - fd0)) $((b - fd0))`, out: "2 0\n"},
		{name: "varfd-readonly-name-and-close-of-unset", src: "readonly v=42; exec {v}>vf1; echo $?; [ -e vf1 ] && echo made\nw=abc; exec {w}>&-; echo $?; unset w; exec {w}>&-; echo $?", out: "1\nmade\n0\n1\n", err: "bash: line 1: v: readonly variable\nbash: line 1: v: cannot assign fd to variable\nbash: line 2: w: ambiguous redirect\n"},
		{name: "background-job-keeps-a-redirected-stdin", src: "for x in 1 2; do { read l; echo \"$l\"; } & wait; done <<EOF\nab\ncd\nEOF\n{ read l; echo \"[$l]\"; } & wait\necho x | { { read l; echo \"[$l]\"; } & wait; }", out: "ab\ncd\n[]\n[x]\n"},
		{name: "redirect-error-goes-to-the-redirected-stderr", src: `a=42; { echo foo 2>&1 >&$a; } | { read -r l; echo "got: $l"; }; echo x 2>/dev/null > /nonexistent/f; echo $?`, out: "got: bash: line 1: $a: Bad file descriptor\n1\n"},
		{name: "posix-script-no-glob-in-redirect", src: `: > r1.x; true < r1.*; echo $?; set -o posix; true < r1.*; echo $?`, out: "0\n1\n", err: "bash: line 1: r1.*: No such file or directory\n"},
		{name: "ambiguous-redirect", src: `f='a b'; echo x > $f; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: $f: ambiguous redirect\n"},
		{name: "redirect-before-command", src: `> f echo first; < f read -r l; echo $l`, out: "first\n"},
		{name: "dev-null", src: `echo gone > /dev/null; read x < /dev/null; echo "st=$?"`, out: "st=1\n"},
		{name: "bad-fd", src: `echo x >&7; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: 7: Bad file descriptor\n"},
		{name: "move-fd", src: `exec 3> f; exec 4>&3-; echo via4 >&4; echo via3 >&3; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: 3: Bad file descriptor\n", wantFiles: map[string]string{"f": "via4\n"}},
		{name: "named-fd-variable", src: `exec {fd}> f; echo "n>=10: $((fd >= 10))"; echo data >&$fd; exec {fd}>&-`, out: "n>=10: 1\n", wantFiles: map[string]string{"f": "data\n"}},
		{name: "redirect-on-compound", src: `if true; then echo a; fi > f; while read -r l; do echo "<$l>"; done < f`, out: "<a>\n"},
		{name: "redirection-applies-only-to-command", src: `echo a > f; echo b`, out: "b\n", wantFiles: map[string]string{"f": "a\n"}},
		{name: "created-even-if-command-missing", src: `nosuchcmd > f; echo "st=$?"`, out: "st=127\n", err: "bash: line 1: nosuchcmd: command not found\n", wantFiles: map[string]string{"f": ""}},
		{name: "noexec-creates-nothing", src: `set -n; echo x > f`, wantFiles: map[string]string{"f": absent}},
		{name: "failed-expansion-creates-nothing", src: "echo ${x!} > f\necho next", out: "next\n", err: "bash: line 1: ${x!}: bad substitution\n", wantFiles: map[string]string{"f": absent}},
		{name: "empty-redirection-creates", src: `> empty`, wantFiles: map[string]string{"empty": ""}},
	})
}

// Here-documents and here-strings: expansion in unquoted bodies, none in
// quoted ones, <<- tab stripping, several here-docs on one command, and
// the newline a here-string adds.
func TestHereDocs(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "at-most-16-per-line", src: ":" + strings.Repeat(" <<E", 16) + "\n" + strings.Repeat("E\n", 16) + "echo ok; eval ':" + strings.Repeat(" <<E", 17) + "'; echo not reached",
			out: "ok\n", err: "bash: eval: line 18: maximum here-document count exceeded\n", status: 1},
		{name: "body-left-open-by-comsub", src: "c() { read -r l; echo $l; }; echo $(c <<A; c <<B)\na\nA\nb\nB\necho after", out: "a b\nafter\n", err: "bash: line 1: warning: command substitution: 2 unterminated here-documents\n"},
		{name: "comsub-that-does-not-parse", src: "read x <<EOF\nab $(seq 10\nEOF\necho \"$? [$x]\"", out: "1 []\n", err: "bash: command substitution: line 3: unexpected EOF while looking for matching `)'\n"},
		{name: "delimiter-before-paren-in-comsub", src: "x=$(read -r l <<EOF; echo $l\nhi\nEOF )\necho \"[$x]\"", out: "[hi]\n", err: "bash: line 3: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\n"},
		{name: "end-of-file-lines", src: ":\nread -r l <<EOF; echo $l\nx\\\ny\\\n", out: "xy\n", err: "bash: line 5: warning: here-document at line 2 delimited by end-of-file (wanted `EOF')\n"},
		{name: "end-of-file-lines-in-eval", src: ":\neval 'read -r l <<EOF; echo $l\nx\ny'", out: "x\n", err: "bash: line 6: warning: here-document at line 4 delimited by end-of-file (wanted `EOF')\n"},
		{name: "expands", src: "x=world\nwhile IFS= read -r l; do echo \"[$l]\"; done <<EOF\nhello $x\n$(echo sub) $((1+2))\n  indented\nEOF", out: "[hello world]\n[sub 3]\n[  indented]\n"},
		{name: "quoted-delimiter-literal", src: "x=world\nwhile IFS= read -r l; do echo \"[$l]\"; done <<'EOF'\nhello $x \\n `x`\nEOF", out: "[hello $x \\n `x`]\n"},
		{name: "partly-quoted-delimiter", src: "while IFS= read -r l; do echo \"$l\"; done <<\"E\"OF\n$HOME\nEOF", out: "$HOME\n"},
		{name: "backslashes-in-unquoted", src: "while IFS= read -r l; do echo \"$l\"; done <<EOF\na\\$ b\\\\ c\\d\nEOF", out: "a$ b\\ c\\d\n"},
		{name: "line-continuation", src: "while IFS= read -r l; do echo \"$l\"; done <<EOF\nab\\\ncd\nEOF", out: "abcd\n"},
		{name: "tab-stripping", src: "while IFS= read -r l; do echo \"[$l]\"; done <<-EOF\n\t\tone\n\ttwo\n  three\n\tEOF", out: "[one]\n[two]\n[  three]\n"},
		{name: "to-file", src: "{ read -r a; read -r b; } <<EOF > /dev/null\n1\n2\nEOF\necho $a$b; while read -r l; do echo $l; done > out <<EOF\nx\nEOF", out: "12\n", wantFiles: map[string]string{"out": "x\n"}},
		{name: "two-heredocs", src: "read -r a <<A; read -r b <<B\nfirst\nA\nsecond\nB\necho $a $b", out: "first second\n"},
		{name: "heredoc-on-fd", src: "read -r x 3<<EOF <&3\nvia3\nEOF\necho $x", out: "via3\n"},
		{name: "heredoc-fd-order-matters", src: "read -r x <&3 3<<EOF\nvia3\nEOF\necho \"[$x]\"", out: "[]\n", err: "bash: line 1: 3: Bad file descriptor\n"},
		{name: "empty-heredoc", src: "read -r x <<EOF\nEOF\necho \"st=$? [$x]\"", out: "st=1 []\n"},
		{name: "in-function", src: "f() {\n  while read -r l; do echo \"f:$l\"; done <<EOF\n$1\nEOF\n}\nf arg", out: "f:arg\n"},
		{name: "missing-delimiter", src: "while read -r l; do echo \"<$l>\"; done <<EOF\nbody\necho x", out: "<body>\n<echo x>\n", err: "bash: line 3: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\n"},
		{name: "here-string", src: `read -r a b <<< "one two"; echo "$b $a"`, out: "two one\n"},
		{name: "here-string-adds-newline", src: `x=$(while IFS= read -r l; do printf '[%s]' "$l"; done <<< ''); echo "$x"`, out: "[]\n"},
		{name: "here-string-expansions", src: `x='a  b'; read -r l <<< $x; echo "$l"; read -r l <<< ~; echo "$l"`, out: "a  b\n/home/user\n"},
		{name: "here-string-multiline", src: `mapfile -t lines <<< $'l1\nl2\nl3'; echo ${#lines[@]} ${lines[2]}`, out: "3 l3\n"},
		{name: "heredoc-to-loop-body-vars-persist", src: "while read -r l; do last=$l; done <<EOF\na\nb\nEOF\necho $last", out: "b\n"},
	})
}
