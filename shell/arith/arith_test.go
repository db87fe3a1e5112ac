package arith

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

type mapEnv map[string]string

func (m mapEnv) Lookup(r *Ref) (string, error) {
	k := r.Name
	if r.HasIndex {
		k += "[" + r.Index + "]"
	}
	return m[k], nil
}

func (m mapEnv) Assign(r *Ref, v int64) error {
	k := r.Name
	if r.HasIndex {
		k += "[" + r.Index + "]"
	}
	m[k] = formatInt(v)
	return nil
}

func formatInt(v int64) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	var b []byte
	for u > 0 {
		b = append([]byte{byte('0' + u%10)}, b...)
		u /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

// Results and messages recorded from bash 5.2 (z="y+1", y=3, c=5).
func TestEvalLikeBash(t *testing.T) {
	cases := []struct{ expr, want string }{
		{"1/0", `1/0: division by 0 (error token is "0")`},
		{" 5 % 0 ", `5 % 0 : division by 0 (error token is "0 ")`},
		{"2**-1", `2**-1: exponent less than 0 (error token is "1")`},
		{"1 +", `1 +: syntax error: operand expected (error token is "+")`},
		{"08", `08: value too great for base (error token is "08")`},
		{"0x", "0"},
		{"1 2", `1 2: syntax error in expression (error token is "2")`},
		{"a b", `a b: syntax error in expression (error token is "b")`},
		{"09 + 1", `09: value too great for base (error token is "09")`},
		{"2#102", `2#102: value too great for base (error token is "2#102")`},
		{"65#1", `65#1: invalid arithmetic base (error token is "65#1")`},
		{"1#1", `1#1: invalid arithmetic base (error token is "1#1")`},
		{"64#@_", "4031"},
		{"36#zZ", "1295"},
		{"37#zZ", `37#zZ: value too great for base (error token is "37#zZ")`},
		{"x=", `x=: syntax error: operand expected (error token is "=")`},
		{"++5", "5"},
		{"5++", `5++: syntax error: operand expected (error token is "+")`},
		{"a++ +", `a++ +: syntax error: operand expected (error token is "+")`},
		{"1?2", "1?2: `:' expected for conditional expression (error token is \"2\")"},
		{"1?2:", `1?2:: expression expected (error token is ":")`},
		{"1,", `1,: syntax error: operand expected (error token is ",")`},
		{"x[", `x[: bad array subscript (error token is "x[")`},
		{"'1'+2", `'1'+2: syntax error: operand expected (error token is "'1'+2")`},
		{"1 = 2", `1 = 2: attempted assignment to non-variable (error token is "= 2")`},
		{"3 += 1", `3 += 1: attempted assignment to non-variable (error token is "+= 1")`},
		{"- -1", "1"},
		{"!5", "0"},
		{"~5", "-6"},
		{"-5 >> 1", "-3"},
		{"1<<64", "1"},
		{"2**63", "-9223372036854775808"},
		{"-9223372036854775808 / -1", "-9223372036854775808"},
		{"-9223372036854775808 % -1", "0"},
		{"9223372036854775807 + 1", "-9223372036854775808"},
		{"0x7fffffffffffffff", "9223372036854775807"},
		{"99999999999999999999", "7766279631452241919"},
		{"y=z", "4"},
		{"z", "4"},
		{"1 ? 2 : 3 = 4", `1 ? 2 : 3 = 4: attempted assignment to non-variable (error token is "= 4")`},
		{"b=c+1", "6"},
		{"10#", `10#: invalid integer constant (error token is "10#")`},
		{"16#g", `16#g: value too great for base (error token is "16#g")`},
		{"1.5", `1.5: syntax error: invalid arithmetic operator (error token is ".5")`},
		{"a.b", `a.b: syntax error: invalid arithmetic operator (error token is ".b")`},
		{"@", `@: syntax error: operand expected (error token is "@")`},
		{"0 && 1/0", "0"},
		{"1 || 1/0", "1"},
		{"0 ? 1/0 : 7", "7"},
		{"c++ + c", "11"},
		{"++c * 2", "12"},
		{"(1+2)*3", "9"},
		{"2**3**2", "512"},
		{"c=2, c*=3, c", "6"},
		{"", "0"},
		{"   ", "0"},
	}
	for _, tc := range cases {
		env := mapEnv{"z": "y+1", "y": "3", "c": "5"}
		v, err := Eval(tc.expr, env)
		got := formatInt(v)
		if err != nil {
			got = err.Error()
		}
		assert.Equal(t, tc.want, got, "expression %q", tc.expr)
	}
}

func TestRecursionBounded(t *testing.T) {
	env := mapEnv{"x": "x+1"}
	_, err := Eval("x", env)
	assert.ErrorContains(t, err, "expression recursion level exceeded")
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"1+2", "a[1]++", "x=y?1:2", "2#101 ** 3", "(((", "--x++", "a[b[c]]=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Eval(s, mapEnv{"x": "1", "y": "x+1"})
	})
}
