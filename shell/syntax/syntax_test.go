package syntax

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Recorded from bash 5.2 (bash -c).
func TestErrorsLikeBash(t *testing.T) {
	for _, tc := range []struct{ src, msg, text string }{
		{"if then", "syntax error near unexpected token `then'", "if then"},
		{"echo a; fi", "syntax error near unexpected token `fi'", "echo a; fi"},
		{"echo a )", "syntax error near unexpected token `)'", "echo a )"},
		{"echo <", "syntax error near unexpected token `newline'", "echo <"},
		{"echo (", "syntax error near unexpected token `newline'", "echo ("},
		{"&& echo", "syntax error near unexpected token `&&'", "&& echo"},
		{"if true; then echo", "syntax error: unexpected end of file", ""},
		{"echo \"abc", "unexpected EOF while looking for matching `\"'", ""},
		{"echo $(ls", "unexpected EOF while looking for matching `)'", ""},
		{"echo ${x", "unexpected EOF while looking for matching `}'", ""},
	} {
		_, err := Parse(tc.src)
		e, ok := err.(*Error)
		if assert.True(t, ok, "%q: %v", tc.src, err) {
			assert.Equal(t, tc.msg, e.Msg, tc.src)
			assert.Equal(t, tc.text, e.Text, tc.src)
		}
	}
}

// declare -f output recorded from bash 5.2.
func TestFuncString(t *testing.T) {
	src := "f() { if a; then b; elif c; then d; else e; fi; for i in 1 2; do echo $i; done; x=(1 2) | wc -l && echo ok || echo no; cat <<EOF\nhi $x\nEOF\necho end &\n}"
	stmts, err := Parse(src)
	assert.NoError(t, err)
	fd := stmts[0].Pipes[0].Cmds[0].(*FuncDef)
	want := "f () \n{ \n    if a; then\n        b;\n    else\n        if c; then\n            d;\n        else\n            e;\n        fi;\n    fi;\n" +
		"    for i in 1 2;\n    do\n        echo $i;\n    done;\n    x=(1 2) | wc -l && echo ok || echo no;\n    cat <<EOF\nhi $x\nEOF\n\n    echo end &\n}"
	assert.Equal(t, want, FuncString(fd.Name, fd.Body))
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/conformance/cases/*.txt")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		for _, c := range strings.Split(string(data), "\n=== ") {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := NewParser(src, 1)
		p.ExtGlob = true
		p.Aliases = func(name string) (string, bool) { return "echo x; if", name == "al" }
		for i := 0; i < 10000; i++ {
			stmts, err := p.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				if e, ok := err.(*Error); !ok || strings.Contains(e.Msg, "parser failure") {
					t.Fatalf("%q: %v", src, err)
				}
				p.SkipLine()
				continue
			}
			for _, st := range stmts {
				_ = CommandString([]*Stmt{st})
			}
		}
	})
}
