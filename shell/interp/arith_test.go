package interp

import "testing"

// Shell arithmetic in $(( )), (( )), let and array subscripts: operators
// and precedence, 64-bit wrapping, bases, assignment operators, variables
// holding expressions, and the errors bash reports.
func TestArithmetic(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "operators", src: `echo $((7+3)) $((7-3)) $((7*3)) $((7/3)) $((7%3)) $((2**10)) $((-7/2)) $((-7%2))`, out: "10 4 21 2 1 1024 -3 -1\n"},
		{name: "precedence", src: `echo $((2+3*4)) $(((2+3)*4)) $((2**3**2)) $((-2**2)) $((10-4-3))`, out: "14 20 512 4 3\n"},
		{name: "bitwise", src: `echo $((5&3)) $((5|3)) $((5^3)) $((~5)) $((1<<4)) $((-16>>2))`, out: "1 7 6 -6 16 -4\n"},
		{name: "logical-and-comparison", src: `echo $((1&&0)) $((0||2)) $((!5)) $((3>2)) $((2<=1)) $((4==4)) $((4!=4))`, out: "0 1 0 1 0 1 0\n"},
		{name: "short-circuit", src: `x=0; echo $((0 && (x=1))) $((1 || (x=2))) $x`, out: "0 1 0\n"},
		{name: "ternary", src: `x=5; echo $((x>3 ? 10 : 20)) $((x<3 ? 1 : x>4 ? 2 : 3))`, out: "10 2\n"},
		{name: "assignment-operators", src: `x=10; ((x+=5, x*=2, x-=1, x/=3, x%=4, x<<=2, x|=1)); echo $x`, out: "5\n"},
		{name: "increments", src: `i=5; echo $((i++)) $i $((++i)) $((i--)) $((--i)) $i`, out: "5 6 7 7 5 5\n"},
		{name: "comma", src: `echo $((a=1, b=2, a+b)) $a $b`, out: "3 1 2\n"},
		{name: "bases", src: `echo $((0x1F)) $((017)) $((2#1010)) $((16#ff)) $((36#zz)) $((64#_))`, out: "31 15 10 255 1295 63\n"},
		{name: "wraps-at-64-bits", src: `echo $((9223372036854775807 + 1)) $((2**63)) $((2**64))`, out: "-9223372036854775808 -9223372036854775808 0\n"},
		{name: "variables-recursive", src: `x=3; y=x; z='y+1'; echo $((z*2)) $((u+1)); e=''; echo $((e+2))`, out: "8 1\n2\n"},
		{name: "dollar-vs-name-expression", src: `x='1+2'; echo $((x*3)) $(($x*3))`, out: "9 7\n"},
		{name: "double-paren-status", src: `((0)); echo $?; ((5)); echo $?; ((x=0)); echo $?`, out: "1\n0\n1\n"},
		{name: "let", src: `let 'a = 2 + 3' b=a*2; echo $a $b; let c=0; echo $?`, out: "5 10\n1\n"},
		{name: "integer-attribute", src: `declare -i n; n='2*3'; n+=4; echo $n; n=abc; echo $n`, out: "10\n0\n"},
		{name: "array-subscripts", src: `a=(1 2 3); i=1; echo $((a[i]+a[i+1])) $((a[-1]))`, out: "5 3\n"},
		{name: "spaces-and-newlines", src: "echo $((  1 +\n 2  ))", out: "3\n"},
		{name: "negative-modulo-and-division", src: `echo $((-7/-2)) $((7/-2)) $((-7%-3))`, out: "3 -3 -1\n"},
		{name: "arith-for", src: `for ((i=0, s=0; i<5; i++)); do ((s+=i)); done; echo $s $i`, out: "10 5\n"},
	})
}

// Arithmetic errors: the message, the status and whether the shell goes on.
func TestArithmeticErrors(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "division-by-zero", src: "echo $((1/0))\necho next", out: "next\n", err: "bash: line 1: 1/0: division by 0 (error token is \"0\")\n"},
		{name: "modulo-zero-in-command", src: `(( x = 5 % 0 )); echo "st=$?"`, out: "st=1\n", err: "bash: line 1: ((: x = 5 % 0 : division by 0 (error token is \"0 \")\n"},
		{name: "bad-digit", src: "echo $((2#102))\necho next", out: "next\n", err: "bash: line 1: 2#102: value too great for base (error token is \"2#102\")\n"},
		{name: "bad-octal", src: "echo $((08))\necho next", out: "next\n", err: "bash: line 1: 08: value too great for base (error token is \"08\")\n"},
		{name: "operand-expected", src: "echo $((1+))\necho next", out: "next\n", err: "bash: line 1: 1+: syntax error: operand expected (error token is \"+\")\n"},
		{name: "negative-exponent", src: `echo $((2**-1)); echo next`, err: "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", status: 1},
		{name: "recursion", src: `a=b; b=a; echo $((a)); echo next`, err: "bash: line 1: b: expression recursion level exceeded (error token is \"b\")\n", status: 1},
		{name: "let-error", src: `let 'x=1/0'; echo "st=$?"`, out: "st=1\n", err: "bash: line 1: let: x=1/0: division by 0 (error token is \"0\")\n"},
		{name: "assign-to-non-variable", src: "echo $((1=2))\necho next", out: "next\n", err: "bash: line 1: 1=2: attempted assignment to non-variable (error token is \"=2\")\n"},
		{name: "invalid-base", src: "echo $((65#1))\necho next", out: "next\n", err: "bash: line 1: 65#1: invalid arithmetic base (error token is \"65#1\")\n"},
	})
}
