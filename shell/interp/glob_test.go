package interp

import "testing"

// globFiles is the tree the globbing tests run in (/home/user).
var globFiles = map[string]string{
	"a.txt":                  "",
	"b.txt":                  "",
	"c.log":                  "",
	".hidden":                "",
	".config/x.txt":          "",
	"dir/one.txt":            "",
	"dir/sub/two.txt":        "",
	"dir/sub/deep/three.txt": "",
	"file1":                  "",
	"file2":                  "",
	"file10":                 "",
}

// Pathname expansion: *, ?, [...], sorting, hidden files, directories
// with a trailing slash, no-match behaviour and the shopt options that
// change it (nullglob, failglob, dotglob, nocaseglob, globstar, extglob).
func TestGlobbing(t *testing.T) {
	cases := []bashCase{
		{name: "star", src: `echo *.txt`, out: "a.txt b.txt\n"},
		{name: "sorted", src: `echo file*`, out: "file1 file10 file2\n"},
		{name: "question", src: `echo file? ?.log`, out: "file1 file2 c.log\n"},
		{name: "bracket", src: `echo [ab].txt file[!1]* file[[:digit:]]`, out: "a.txt b.txt file2 file1 file2\n"},
		{name: "hidden-not-matched", src: `echo * | { read -a w; echo ${#w[@]}; }; echo .h*`, out: "7\n.hidden\n"},
		{name: "trailing-slash-dirs-only", src: `echo */`, out: "dir/\n"},
		{name: "in-subdirectory", src: `echo dir/*.txt */*.txt`, out: "dir/one.txt dir/one.txt\n"},
		{name: "no-match-kept", src: `echo *.none; echo "st=$?"`, out: "*.none\nst=0\n"},
		{name: "quoted-not-expanded", src: `echo "*.txt" '*'.txt \*.txt`, out: "*.txt *.txt *.txt\n"},
		{name: "from-variable", src: `p='*.log'; echo $p "$p"`, out: "c.log *.log\n"},
		{name: "nullglob", src: `shopt -s nullglob; printf '<%s>' *.none x; echo`, out: "<x>\n"},
		{name: "nullglob-empty-array", src: `shopt -s nullglob; a=(*.none); echo ${#a[@]}`, out: "0\n"},
		{name: "failglob", src: "shopt -s failglob\necho *.none; echo \"st=$?\"\necho next", out: "next\n", err: "bash: line 2: no match: *.none\n"},
		{name: "extglob-needs-option-at-parse-time", src: `shopt -s extglob; echo @(a).txt`, err: "bash: -c: line 1: syntax error near unexpected token `('\nbash: -c: line 1: `shopt -s extglob; echo @(a).txt'\n", status: 2},
		{name: "dotglob", src: `shopt -s dotglob; echo .h* *.txt; echo * | { read -a w; echo ${#w[@]}; }`, out: ".hidden a.txt b.txt\n9\n"},
		{name: "dot-dirs-never-matched", src: `shopt -s dotglob; echo .*`, out: ".config .hidden\n"},
		{name: "nocaseglob", src: `shopt -s nocaseglob; echo A.T?T F*1 A.TXT`, out: "a.txt file1 A.TXT\n"},
		{name: "globstar", src: `shopt -s globstar; echo **/*.txt`, out: "a.txt b.txt dir/one.txt dir/sub/deep/three.txt dir/sub/two.txt\n"},
		{name: "globstar-dirs", src: `shopt -s globstar; echo dir/**/`, out: "dir/ dir/sub/ dir/sub/deep/\n"},
		{name: "globstar-off-is-star", src: `echo **/*.txt`, out: "dir/one.txt\n"},
		{name: "extglob", src: "shopt -s extglob\necho !(*.txt|file*) file@(1|2) +([a-c]).txt", out: "c.log dir file1 file2 a.txt b.txt\n"},
		{name: "extglob-star-question", src: "shopt -s extglob\necho file*([0-9]) file?(1)", out: "file1 file10 file2 file1\n"},
		{name: "noglob", src: `set -f; echo *.txt; set +f; echo *.txt`, out: "*.txt\na.txt b.txt\n"},
		{name: "glob-in-for", src: `for f in dir/sub/*; do echo "[$f]"; done`, out: "[dir/sub/deep]\n[dir/sub/two.txt]\n"},
		{name: "glob-assignment-not-expanded", src: `x=*.txt; echo "$x"`, out: "*.txt\n"},
		{name: "globignore", src: `GLOBIGNORE='a*'; echo *.txt`, out: "b.txt\n"},
		{name: "slash-must-match-literally", src: `echo dir*one.txt`, out: "dir*one.txt\n"},
	}
	for i := range cases {
		cases[i].files = globFiles
	}
	runBashCases(t, cases)
}

// Pattern matching outside pathnames: case patterns, [[ == ]] and
// ${x#pattern} with classes, ranges, negation and extglob (always on in
// [[ ]] in bash 5.2).
func TestPatternMatching(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "skipdots-off-dots-match-explicit-dot", files: map[string]string{".a": "", "b": ""}, src: "shopt -s extglob\nshopt -u globskipdots; echo .* .?(a) *(.); shopt -s dotglob; echo * @(*); shopt -s globskipdots; echo .*",
			out: ". .. .a . .a . ..\n.a b .a b\n.a\n"},
		{name: "open-bracket-leaves-group-open", src: "shopt -s extglob\ncase '*(a|b[)' in *(a|b[)) echo yes;; *) echo no;; esac; [[ 'b[' == +(a|b[) ]] || echo no; [[ abcx == !([*)* ]] || echo no",
			out: "yes\nno\nno\n"},
		{name: "globignore-colons-in-brackets", files: map[string]string{";": "", "++": "", "a": ""}, src: "shopt -s extglob\nGLOBIGNORE='+([^[:alnum:]]):@([-.,:; _])'; echo *",
			out: "a\n"},
		{name: "case-alternatives", src: `for w in apple Berry 42 x; do case $w in a*|b*) echo "$w: ab";; [[:upper:]]*) echo "$w: upper";; *[0-9]) echo "$w: num";; *) echo "$w: other";; esac; done`,
			out: "apple: ab\nBerry: upper\n42: num\nx: other\n"},
		{name: "double-bracket-glob", src: `x=hello.c; [[ $x == *.c ]] && echo c; [[ $x == "*.c" ]] || echo literal-no`, out: "c\nliteral-no\n"},
		{name: "double-bracket-extglob", src: `[[ foo.tar.gz == *.@(gz|bz2) ]] && echo yes; [[ abc == !(a*) ]] || echo no`, out: "yes\nno\n"},
		{name: "bracket-negation-and-range", src: `for c in a m z 5; do [[ $c == [!a-l] ]] && printf '%s ' $c; done; echo`, out: "m z 5 \n"},
		{name: "escaped-metachar", src: `[[ 'a*' == a\* ]] && echo y1; [[ ab == a\* ]] || echo n2`, out: "y1\nn2\n"},
		{name: "nocasematch", src: `shopt -s nocasematch; [[ ABC == abc ]] && echo eq; case X in x) echo case;; esac`, out: "eq\ncase\n"},
		{name: "star-matches-slash-in-strings", src: `[[ a/b/c == a*c ]] && echo yes`, out: "yes\n"},
		{name: "character-classes", src: `for s in 'a b' a1 '_'; do [[ $s == *[[:space:]]* ]] && echo "space:$s"; [[ $s == *[[:alnum:]] ]] && echo "alnum:$s"; done`, out: "space:a b\nalnum:a b\nalnum:a1\n", status: 1},
	})
}
