package interp

import "testing"

// Brace expansion: lists, sequences with steps and padding, letters,
// nesting, preamble/postscript, what is not a brace expansion, and its
// place before parameter expansion.
func TestBraceExpansion(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "list", src: `echo a{b,c,d}e`, out: "abe ace ade\n"},
		{name: "empty-members", src: `echo x{,y}z x{a,}`, out: "xz xyz xa x\n"},
		{name: "sequence", src: `echo {1..5} {5..1}`, out: "1 2 3 4 5 5 4 3 2 1\n"},
		{name: "sequence-step", src: `echo {0..10..3} {10..0..-4} {1..10..0}`, out: "0 3 6 9 10 6 2 1 2 3 4 5 6 7 8 9 10\n"},
		{name: "sequence-negative", src: `echo {-2..2}`, out: "-2 -1 0 1 2\n"},
		{name: "zero-padding", src: `echo {01..10..3} {-05..5..5}`, out: "01 04 07 10 -05 000 005\n"},
		{name: "letters", src: `echo {a..e} {e..a..2} {X..b}`, out: "a b c d e e c a X Y Z [  ] ^ _ ` a b\n"},
		{name: "nested", src: `echo {a,b{1,2},c}`, out: "a b1 b2 c\n"},
		{name: "cartesian", src: `echo {a,b}{1,2}`, out: "a1 a2 b1 b2\n"},
		{name: "not-a-brace-expansion", src: `echo {a} {} {a,b {1..}`, out: "{a} {} {a,b {1..}\n"},
		{name: "quoted-braces-literal", src: `echo "{a,b}" '{1..3}' \{a,b\}`, out: "{a,b} {1..3} {a,b}\n"},
		{name: "before-parameter-expansion", src: `x=1; y=3; echo {$x..$y} {a,$x}`, out: "{1..3} a 1\n"},
		{name: "escaped-comma", src: `echo {a\,b,c}`, out: "a,b c\n"},
		{name: "in-assignment-not-expanded", src: `x={a,b}; echo $x`, out: "{a,b}\n"},
		{name: "set-B-off", src: `set +B; echo {a,b}; set -B; echo {a,b}`, out: "{a,b}\na b\n"},
		{name: "dollar-brace-untouched", src: `x=v; echo ${x}{1,2}`, out: "v1 v2\n"},
		{name: "mixed-letter-number-not-sequence", src: `echo {a..3}`, out: "{a..3}\n"},
	})
}

// Tilde expansion: ~, ~/path, ~+, ~-, ~user, in assignments after = and :,
// and where it does not happen.
func TestTildeExpansion(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "home", src: `echo ~ ~/x`, out: "/home/user /home/user/x\n"},
		{name: "home-variable-followed", src: `HOME=/elsewhere; echo ~`, out: "/elsewhere\n"},
		{name: "unset-home", src: `unset HOME; echo ~ | { read d; [[ $d == '~' ]] && echo literal || echo expanded; }`, out: "expanded\n"},
		{name: "plus-and-minus", src: `cd sub; echo ~+ ~-`, files: map[string]string{"sub/": ""}, out: "/home/user/sub /home/user\n"},
		{name: "unknown-user-literal", src: `echo ~nosuchuser123/x`, out: "~nosuchuser123/x\n"},
		{name: "in-assignment", src: `p=~/bin:~/lib; echo $p`, out: "/home/user/bin:/home/user/lib\n"},
		{name: "not-in-middle", src: `echo a~ a:~ x=~`, out: "a~ a:~ x=/home/user\n"}, // x=~ looks like an assignment
		{name: "quoted-not-expanded", src: `echo "~" ~"/x" ~/"x"`, out: "~ ~/x /home/user/x\n"},
		{name: "from-variable-not-expanded", src: `t='~'; echo $t`, out: "~\n"},
		{name: "in-default-word", src: `unset x; echo ${x:-~}`, out: "/home/user\n"},
		{name: "export-assignment", src: `export P=~/p; echo $P`, out: "/home/user/p\n"},
	})
}
