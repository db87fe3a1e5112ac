package interp

import "testing"

// Indexed arrays: assignment forms, sparse indices, negative subscripts,
// appending, slicing, unset of elements, and "${a[@]}" vs "${a[*]}".
func TestIndexedArrays(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "ansi-c-quoted-subscripts", src: "declare -A a=([$'x\\ty']=1); declare -A c; c[$'p\\nq']=2; declare -p a c; b=([$'1']=v); declare -p b", out: "declare -A a=([$'x\\ty']=\"1\" )\ndeclare -A c=([$'p\\nq']=\"2\" )\ndeclare -a b=([1]=\"v\")\n"},
		{name: "literal-and-count", src: `a=(one two three); echo ${a[0]} ${a[2]} ${#a[@]} ${#a[1]}`, out: "one three 3 3\n"},
		{name: "bare-name-is-element-zero", src: `a=(x y); echo $a; a=z; echo ${a[@]}`, out: "x\nz y\n"},
		{name: "sparse", src: `a=([3]=c [1]=a); a[10]=j; echo ${#a[@]} ${!a[@]} ${a[@]}`, out: "3 1 3 10 a c j\n"},
		{name: "implicit-indices-continue", src: `a=([5]=five six); echo ${!a[@]}`, out: "5 6\n"},
		{name: "negative-subscript", src: `a=(a b c d); echo ${a[-1]} ${a[-2]}; a[-1]=D; echo ${a[@]}`, out: "d c\na b c D\n"},
		{name: "negative-subscript-out-of-range", src: `a=(a b); a[-5]=x; echo after`, err: "bash: line 1: a[-5]: bad array subscript\n", status: 1},
		{name: "append", src: `a=(a); a+=(b c); a[0]+=x; echo ${a[@]} ${#a[@]}`, out: "ax b c 3\n"},
		{name: "arithmetic-subscript", src: `a=(10 20 30); i=1; echo ${a[i+1]} ${a[$i]} ${a[i-1]}`, out: "30 20 10\n"},
		{name: "unset-element-keeps-indices", src: `a=(a b c); unset 'a[1]'; echo ${#a[@]} ${!a[@]}; a+=(d); echo ${!a[@]}`, out: "2 0 2\n0 2 3\n"},
		{name: "unset-whole", src: `a=(a b); unset a; echo "${#a[@]} [${a[@]}]"`, out: "0 []\n"},
		{name: "quoted-at-vs-star", src: `a=('x y' z); IFS=-; printf '<%s>' "${a[@]}"; echo; printf '<%s>' "${a[*]}"; echo`, out: "<x y><z>\n<x y-z>\n"},
		{name: "unquoted-at-splits", src: `a=('x y' z); printf '<%s>' ${a[@]}; echo`, out: "<x><y><z>\n"},
		{name: "slice", src: `a=(a b c d e); echo ${a[@]:1:2} / ${a[@]: -2} / ${a[@]:3}`, out: "b c / d e / d e\n"},
		{name: "slice-sparse-counts-elements", src: `a=([0]=a [5]=b [9]=c); echo ${a[@]:1} / ${a[@]:6}`, out: "b c / c\n"},
		{name: "element-ops", src: `a=(apple banana cherry); echo ${a[@]#?} ${a[@]%a*} ${a[1]/an/AN} ${#a[2]}`, out: "pple anana herry banan cherry bANana 6\n"},
		{name: "empty-element-preserved", src: `a=('' x ''); printf '[%s]' "${a[@]}"; echo " ${#a[@]}"`, out: "[][x][] 3\n"},
		{name: "copy", src: `a=(1 '2 3'); b=("${a[@]}"); echo ${#b[@]} "${b[1]}"`, out: "2 2 3\n"},
		{name: "declare-p", src: `a=(x 'y z'); a[5]=w; declare -p a`, out: "declare -a a=([0]=\"x\" [1]=\"y z\" [5]=\"w\")\n"},
		{name: "read-a", src: `read -ra parts <<< "a b  c"; echo ${#parts[@]} ${parts[2]}`, out: "3 c\n"},
		{name: "array-from-glob-and-brace", src: `a=({1..3}x); echo ${a[@]}`, out: "1x 2x 3x\n"},
		{name: "in-arithmetic", src: `a=(1 2 3); (( a[1] += 5 )); echo $(( a[0] + a[1] )) ${a[1]}`, out: "8 7\n"},
		{name: "bad-subscript", src: `a=(1); echo ${a[@@]}; echo after`, err: "bash: line 1: @@: syntax error: operand expected (error token is \"@@\")\n", status: 1},
	})
}

// Associative arrays: declare -A, keys with spaces, iteration over keys,
// += on elements, unset, -v tests and declare -p's layout.
func TestAssocArrays(t *testing.T) {
	runBashCases(t, []bashCase{
		{name: "basic", src: `declare -A m; m[one]=1; m[two]=2; echo ${m[one]} ${m[two]} ${#m[@]}`, out: "1 2 2\n"},
		{name: "literal", src: `declare -A m=([a]=x [b c]=y); echo "${m[b c]}" ${#m[@]}`, out: "y 2\n"},
		{name: "key-from-variable", src: `declare -A m; k='a key'; m[$k]=v; echo "${m[$k]}" "${m[a key]}"`, out: "v v\n"},
		{name: "iteration-order-is-bash-hash-order", src: `declare -A m=([z]=1 [a]=2 [m]=3 [b]=4); echo "${!m[@]}"; echo "${m[@]}"`, out: "z m b a\n1 3 4 2\n"},
		{name: "key-count-and-sum", src: `declare -A m=([x]=1 [y]=2 [z]=3); s=0; for k in "${!m[@]}"; do (( s += m[$k] )); done; echo $s ${#m[@]}`, out: "6 3\n"},
		{name: "append-element", src: `declare -A m=([k]=a); m[k]+=b; m[new]+=c; echo ${m[k]} ${m[new]}`, out: "ab c\n"},
		{name: "unset-key", src: `declare -A m=([a]=1 [b]=2); unset 'm[a]'; echo ${#m[@]} ${!m[@]}`, out: "1 b\n"},
		{name: "test-v", src: `declare -A m=([a]=1); [[ -v m[a] ]] && echo has-a; [[ -v m[b] ]] || echo no-b`, out: "has-a\nno-b\n"},
		{name: "missing-key-empty", src: `declare -A m; echo "[${m[nope]}] [${m[nope]:-dflt}]"`, out: "[] [dflt]\n"},
		{name: "numeric-looking-keys-are-strings", src: `declare -A m; m[1+1]=a; m[2]=b; echo ${m[1+1]} ${m[2]} ${#m[@]}`, out: "a b 2\n"},
		{name: "declare-p-one-key", src: `declare -A m=([k]='v w'); declare -p m`, out: "declare -A m=([k]=\"v w\" )\n"},
		{name: "assign-without-declare-is-indexed", src: `m[foo]=1; m[bar]=2; echo ${#m[@]} ${m[0]}`, out: "1 2\n"},
		{name: "local-assoc-in-function", src: `f() { local -A m=([a]=1); echo ${m[a]}; }; f; echo "[${m[a]}]"`, out: "1\n[]\n"},
		{name: "convert-indexed-fails", src: `a=(1); declare -A a; echo $?`, out: "1\n", err: "bash: line 1: declare: a: cannot convert indexed to associative array\n"},
	})
}
