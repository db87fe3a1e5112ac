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

// TestNesting: text nested past maxNest is a syntax error, not a stack
// that outgrows its goroutine's (which ends the process).
func TestNesting(t *testing.T) {
	for _, open := range []string{"(", "{ ", "$(", "\"$(", "${x:-", "<(", "((", "[[ ! ", "if :; then ", "while :; do ", "case x in x) ", "\"${x:-\""} {
		n := 20000
		if open == "{ " || open == "$(" {
			n = 1000000 // (this deep, the stack would overflow)
		}
		_, err := Parse("f() { " + strings.Repeat(open, n) + "\n")
		if e, ok := err.(*Error); assert.True(t, ok, "%q: %v", open, err) {
			assert.NotContains(t, e.Msg, "parser failure", open)
		}
	}
	_, err := Parse(strings.Repeat("{ ", 900) + ":" + strings.Repeat("; }", 900))
	assert.NoError(t, err, "deep, but not too deep")
}

// TestFuncSource: a coproc of a simple command, which bash lists with a
// name its parser then takes for the command, keeps its command.
func TestFuncSource(t *testing.T) {
	stmts, err := Parse("f() { coproc cat; coproc X { cat; }; }")
	assert.NoError(t, err)
	fd := stmts[0].Pipes[0].Cmds[0].(*FuncDef)
	assert.Contains(t, FuncString(fd.Name, fd.Body), "coproc COPROC cat;")
	src := FuncSource(fd.Name, fd.Body)
	assert.Contains(t, src, "coproc cat;")
	again, err := Parse(src)
	assert.NoError(t, err)
	fd2 := again[0].Pipes[0].Cmds[0].(*FuncDef)
	assert.Equal(t, FuncString(fd.Name, fd.Body), FuncString(fd2.Name, fd2.Body))
}

// TestMaxNest: with MaxNest, nesting and the look-ahead scans are bounded
// (a line of many `[` would otherwise be scanned once per `[`).
func TestMaxNest(t *testing.T) {
	parse := func(src string, n int) error {
		p := NewParser(src, 1)
		p.MaxNest = n
		_, err := p.Next()
		return err
	}
	assert.NoError(t, parse(`declare -A m=(["a b"]="c" [k]=$'\n')`, 4))
	err := parse(`x=(`+strings.Repeat("x [x ", 200000), 4)
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), "too complex")
	}
	err = parse("f() { "+strings.Repeat("{ ", 20)+":"+strings.Repeat("; }", 20)+"; }", 10)
	if assert.Error(t, err) {
		assert.Contains(t, err.Error(), "nested too deeply")
	}
}
