//go:build js && wasm

package pyodide

import (
	"reflect"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want invocation
		err  bool
	}{
		{[]string{"python3"}, invocation{mode: "stdin", argv: []string{""}}, false},
		{[]string{"python3", "-"}, invocation{mode: "stdin", argv: []string{"-"}}, false},
		{[]string{"python3", "-", "a"}, invocation{mode: "stdin", argv: []string{"-", "a"}}, false},
		{[]string{"python3", "-c", "print(1)", "x"}, invocation{mode: "c", arg: "print(1)", argv: []string{"-c", "x"}}, false},
		{[]string{"python3", "-uBcprint(2)"}, invocation{mode: "c", arg: "print(2)", argv: []string{"-c"}}, false},
		{[]string{"python3", "-W", "ignore", "-m", "json.tool", "f"}, invocation{mode: "module", arg: "json.tool", argv: []string{"-m", "f"}}, false},
		{[]string{"python3", "-X", "utf8", "s.py", "-c", "x"}, invocation{mode: "file", arg: "s.py", argv: []string{"s.py", "-c", "x"}}, false},
		{[]string{"python3", "--", "-s.py"}, invocation{mode: "file", arg: "-s.py", argv: []string{"-s.py"}}, false},
		{[]string{"python3", "-h"}, invocation{mode: "stdin", help: true}, false},
		{[]string{"python3", "-c"}, invocation{}, true},
		{[]string{"python3", "-Z"}, invocation{}, true},
		{[]string{"python3", "--nope"}, invocation{}, true},
	} {
		got, err := parseArgs(c.argv)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v", c.argv, err)
			continue
		}
		if !c.err && !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.argv, got, c.want)
		}
	}
}
