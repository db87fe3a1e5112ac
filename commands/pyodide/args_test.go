//go:build js && wasm

package pyodide

import (
	"reflect"
	"testing"

	"github.com/wasmsand/wasmsand/vfs"
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

func TestNeeds(t *testing.T) {
	fsys := vfs.NewDefault(vfs.Options{}, nil)
	if err := fsys.WriteFile("/home/user/job.sh", []byte("#!/bin/sh\npython3 -c 'import numpy as np, os.path'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fsys.WriteFile("/home/user/a.py", []byte("from pandas.io import x\nimport json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd      string
		python   bool
		imports  []string
		packages []string
	}{
		{"echo hi | wc -l", false, nil, nil},
		{"python3 -c 'print(1)'", true, nil, nil},
		{"python3 a.py", true, []string{"pandas", "json"}, nil},
		{"sh ./job.sh", true, []string{"numpy", "os"}, nil},
		{"pip install 'pandas>=2' -r req.txt six[extra] -q && python -m pip install --upgrade attrs; pip3 list", true, nil, []string{"pandas", "six", "attrs"}},
		{"echo 'import requests' > b.py", false, []string{"requests"}, nil},
	} {
		python, imports, packages := Needs(fsys, "/home/user", c.cmd)
		if python != c.python || !reflect.DeepEqual(imports, c.imports) || !reflect.DeepEqual(packages, c.packages) {
			t.Errorf("%q: got %v %q %q, want %v %q %q", c.cmd, python, imports, packages, c.python, c.imports, c.packages)
		}
	}
}
