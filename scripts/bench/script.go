package main

import (
	"fmt"
	"strings"
)

// mixedScript is a 1,000-line script of the builtins and expansions agents'
// scripts are made of (no external programs: it measures the shell): each
// block of 20 lines assigns, tests, loops, cases, calls a function, formats
// with printf -v, slices strings and arrays, and does arithmetic.
func mixedScript() string {
	var b strings.Builder
	b.WriteString("declare -A seen=()\nlist=()\ntotal=0\n")
	b.WriteString("add() { local n=$1; total=$(( total + n )); list+=(\"item$n\"); }\n")
	lines := 4
	for i := 0; lines < 1000; i++ {
		block := []string{
			fmt.Sprintf("name=file_%d.txt", i),
			`base=${name%.txt}; ext=${name##*.}`,
			`upper=${base^^}; len=${#name}`,
			fmt.Sprintf("if [[ $name == *_%d.txt && $len -gt 5 ]]; then seen[$base]=$len; fi", i),
			fmt.Sprintf("add %d", i%17),
			`case $ext in txt) kind=text ;; md) kind=doc ;; *) kind=other ;; esac`,
			`printf -v line '%s:%05d:%s' "$kind" "$len" "$upper"`,
			`parts=(${line//:/ }); n=${#parts[@]}`,
			fmt.Sprintf("for j in 1 2 3; do (( total += j * %d )); done", i%5),
			`[ -n "$line" ] && [ "$n" = 3 ] || echo "unexpected $line"`,
			`str="${line:2:6}-${parts[1]}"`,
			`set -- $str; first=$1`,
			fmt.Sprintf("x=$(( (%d * 7 + total) %% 97 ))", i),
			`while (( x > 10 )); do x=$(( x / 2 )); done`,
			`words="alpha beta gamma"; w=${words#* }; w=${w% *}`,
			`[[ $w =~ ^b(et)a$ ]] && m=${BASH_REMATCH[1]}`,
			fmt.Sprintf("key=k%d; seen[$key]=${seen[$key]:-0}", i%13),
			`list[0]=${list[0]:-start}; last=${list[-1]}`,
			`out="${out:0:40}${first:0:1}"`,
			`: "${total} ${#list[@]} ${#seen[@]} $x $m $last"`,
		}
		for _, l := range block {
			if lines == 1000 {
				break
			}
			b.WriteString(l + "\n")
			lines++
		}
	}
	return b.String()
}
