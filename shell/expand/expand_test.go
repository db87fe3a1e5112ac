package expand

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// word parses src, a command of two words, and returns the second.
func word(t *testing.T, src string) *syntax.Word {
	t.Helper()
	stmts, err := syntax.Parse(src)
	require.NoError(t, err)
	cmd := stmts[0].Pipes[0].Cmds[0].(*syntax.SimpleCmd)
	require.Len(t, cmd.Words, 2, src)
	return cmd.Words[1]
}

// render shows parts as text after quote removal: literals as they are,
// backslash escapes removed, other parts as <Type>.
func render(parts []syntax.Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if p.Escapes {
				for i := 0; i < len(p.Val); i++ {
					if p.Val[i] == '\\' {
						if i++; i == len(p.Val) {
							break // (a lone backslash: quote removal drops it)
						}
					}
					b.WriteByte(p.Val[i])
				}
			} else {
				b.WriteString(p.Val)
			}
		default:
			fmt.Fprintf(&b, "<%T>", p)
		}
	}
	return b.String()
}

// Brace expansion as bash 5.2 prints `echo WORD` (recorded here with bash).
func TestBraces(t *testing.T) {
	for _, tc := range []struct{ word, want string }{
		{"{a,b}{1..3}", "a1 a2 a3 b1 b2 b3"},
		{"a{,b}c", "ac abc"},
		{"{1..10..3}", "1 4 7 10"},
		{"{a..e..2}", "a c e"},
		{"{x,y{1,2},z}", "x y1 y2 z"},
		{"{05..10}", "05 06 07 08 09 10"},
		{"{a}", "{a}"},
		{`\{a,b}`, "{a,b}"},
		{`{a,b\}`, "{a,b}"},
		{"{3..1}", "3 2 1"},
		{"{-2..2}", "-2 -1 0 1 2"},
		{"{Z..b}", "Z [  ] ^ _ ` a b"}, // (the backslash a sequence makes goes with quote removal)
		{"{1..3}{a,}", "1a 1 2a 2 3a 3"},
		{"{a,b}$x", "a<*syntax.ParamExp> b<*syntax.ParamExp>"},
		{"{'a,b'}", "{<*syntax.SglQuoted>}"},
	} {
		w := word(t, "echo "+tc.word)
		var got []string
		if HasBraces(w) {
			for _, parts := range Braces(w.Parts) {
				got = append(got, render(parts))
			}
		} else {
			got = []string{render(w.Parts)}
		}
		assert.Equal(t, tc.want, strings.Join(got, " "), tc.word)
	}
}

// A brace expansion that would make more words than a shell can hold is
// bounded, not a host's memory exhausted.
func TestBracesBounded(t *testing.T) {
	w := word(t, "echo {1..1000}{1..1000}{1..1000}")
	assert.LessOrEqual(t, len(Braces(w.Parts)), maxBraceWords)
}

// Quoting as bash prints values back: printf %q, ${x@Q}, set -x, keys of
// declare -p (outputs recorded with bash 5.2).
func TestQuoting(t *testing.T) {
	for _, tc := range []struct{ in, q, at string }{
		{"a\tb", `$'a\tb'`, `$'a\tb'`},
		{"it's", `it\'s`, `'it'\''s'`},
		{"a b", `a\ b`, `'a b'`},
		{"", `''`, `''`},
		{"~x", `\~x`, `'~x'`},
		{"é", "é", "'é'"},
		{"\x01", `$'\001'`, `$'\001'`},
	} {
		assert.Equal(t, tc.q, QuoteBackslash(tc.in), "printf %%q %q", tc.in)
		assert.Equal(t, tc.at, QuoteSingle(tc.in), "${x@Q} of %q", tc.in)
	}
	assert.Equal(t, "'a b'", QuoteXtrace("a b"))
	assert.Equal(t, "plain", QuoteXtrace("plain"))
	assert.Equal(t, "'t\tx'", QuoteXtrace("t\tx"), "set -x: single quotes when the word has a shell metacharacter")
	assert.Equal(t, `"a b"`, QuoteKey("a b"))
	assert.Equal(t, "x", QuoteKey("x"))
	assert.Equal(t, `"q\""`, QuoteDouble(`q"`))
}

// IFS splitting of a field's unquoted expansion results.
func TestSplit(t *testing.T) {
	split := func(ifs string, parts ...Part) []string {
		var out []string
		for _, f := range Split(Field{Parts: parts}, NewIFS(ifs)) {
			var b strings.Builder
			for _, p := range f.Parts {
				b.WriteString(p.S)
			}
			out = append(out, "<"+b.String()+">")
		}
		return out
	}
	exp := func(s string) Part { return Part{S: s, Split: true} }
	lit := func(s string) Part { return Part{S: s} }
	// x='  a  b  '; printf '<%s>' $x  →  <a><b>
	assert.Equal(t, []string{"<a>", "<b>"}, split(" \t\n", exp("  a  b  ")))
	// IFS=:; x='a::b:'; printf '<%s>' $x  →  <a><><b>
	assert.Equal(t, []string{"<a>", "<>", "<b>"}, split(":", exp("a::b:")))
	// IFS=' :'; x=' a : b '; printf '<%s>' $x  →  <a><b>
	assert.Equal(t, []string{"<a>", "<b>"}, split(" :", exp(" a : b ")))
	// x='a b'; printf '<%s>' pre$x"post"  →  <prea><bpost>
	assert.Equal(t, []string{"<prea>", "<bpost>"}, split(" \t\n", lit("pre"), exp("a b"), Part{S: "post", Quote: true}))
	// IFS=; x='a b'; printf '<%s>' $x  →  <a b>
	assert.Equal(t, []string{"<a b>"}, split("", exp("a b")))
	// a multibyte IFS character: IFS=é; x=aéb; printf '<%s>' $x  →  <a><b>
	assert.Equal(t, []string{"<a>", "<b>"}, split("é", exp("aéb")))

	assert.True(t, HasGlob(Field{Parts: []Part{{S: "*.go"}}}, false))
	assert.False(t, HasGlob(Field{Parts: []Part{{S: "*.go", Quote: true}}}, false), "a quoted * is literal")
	assert.Equal(t, `\*x*`, FieldPattern(Field{Parts: []Part{{S: "*", Quote: true}, {S: "x*"}}}))
}

// Pathname expansion over a VFS tree, with bash's options.
func TestGlob(t *testing.T) {
	fsys := vfs.New(vfs.Options{})
	for _, d := range []string{"/w/src/sub", "/w/.hid"} {
		require.NoError(t, fsys.MkdirAll(d, 0o755))
	}
	for _, f := range []string{"/w/a.go", "/w/b.go", "/w/.dot.go", "/w/src/c.go", "/w/src/sub/d.go", "/w/README"} {
		require.NoError(t, fsys.WriteFile(f, nil, 0o644))
	}
	require.NoError(t, fsys.Symlink("/w/src", "/w/link"))
	base := GlobOptions{Flags: pattern.Pathname | pattern.Period}
	for _, tc := range []struct {
		pat  string
		opt  GlobOptions
		want []string
	}{
		{"*.go", base, []string{"a.go", "b.go"}},
		{"*.go", GlobOptions{Flags: pattern.Pathname}, []string{".dot.go", "a.go", "b.go"}}, // dotglob
		{"*/*.go", base, []string{"link/c.go", "src/c.go"}},
		{"*/", base, []string{"link/", "src/"}},
		{"/w/src/*", base, []string{"/w/src/c.go", "/w/src/sub"}},
		{"**/*.go", GlobOptions{Flags: base.Flags, GlobStar: true}, []string{"a.go", "b.go", "link/c.go", "src/c.go", "src/sub/d.go"}},
		{"readme", GlobOptions{Flags: base.Flags | pattern.NoCase}, nil}, // (no meta: not a pattern)
		{"[r]eadme", GlobOptions{Flags: base.Flags | pattern.NoCase}, []string{"README"}},
		{"@(a|b).go", GlobOptions{Flags: base.Flags | pattern.ExtGlob}, []string{"a.go", "b.go"}},
		{"*.go", GlobOptions{Flags: pattern.Pathname, Ignore: []*pattern.Pattern{pattern.Compile("a*", pattern.Pathname)}}, []string{".dot.go", "b.go"}},
		{"*.nothing", base, nil},
	} {
		assert.Equal(t, tc.want, Glob(fsys, "/w", tc.pat, tc.opt), tc.pat)
	}
}

type fakeEnv map[string]string

func (e fakeEnv) Get(n string) (string, bool) { v, ok := e[n]; return v, ok }
func (e fakeEnv) DirStack(p string) string {
	if p == "1" {
		return "/stack/1"
	}
	return ""
}
func (e fakeEnv) Home(u string) string {
	if u == "root" {
		return "/root"
	}
	return ""
}

func TestTilde(t *testing.T) {
	env := fakeEnv{"HOME": "/home/user", "PWD": "/here", "OLDPWD": "/there"}
	for _, tc := range []struct {
		in, value, rest string
		ok              bool
	}{
		{"~", "/home/user", "", true},
		{"~/x", "/home/user", "/x", true},
		{"~root/x", "/root", "/x", true},
		{"~+", "/here", "", true},
		{"~-/y", "/there", "/y", true},
		{"~1", "/stack/1", "", true},
		{"~nobody/x", "", "~nobody/x", false},
		{`~\x`, "", `~\x`, false},
	} {
		v, rest, ok := Tilde(env, tc.in, true, "/")
		assert.Equal(t, []any{tc.value, tc.rest, tc.ok}, []any{v, rest, ok}, tc.in)
	}
	assert.Equal(t, "a:/home/user/b:/root", TildeAfterColons(env, "a:~/b:~root"))
	_, _, ok := Tilde(fakeEnv{}, "~-", true, "/")
	assert.False(t, ok, "~- without OLDPWD stays")
}

// The operators of parameter expansion on values (outputs recorded with
// bash 5.2: x=hello.tar.gz; echo "${x#*.}|${x##*.}|..." and so on).
func TestParamOperators(t *testing.T) {
	glob := func(s string) *pattern.Pattern { return pattern.Compile(s, 0) }
	x := "hello.tar.gz"
	assert.Equal(t, "tar.gz|gz|hello.tar|hello", strings.Join([]string{
		Trim(glob("*."), x, syntax.OpTrimPrefix), Trim(glob("*."), x, syntax.OpTrimPrefixL),
		Trim(glob(".*"), x, syntax.OpTrimSuffix), Trim(glob(".*"), x, syntax.OpTrimSuffixL)}, "|"))

	y := "banana"
	assert.Equal(t, "bANana|bANANa|Xnana|banaX|b<a>n<a>n<a>|b&n&n&|banana", strings.Join([]string{
		Replace(glob("an"), false, y, syntax.OpReplace, "AN", true),
		Replace(glob("an"), false, y, syntax.OpReplaceAll, "AN", true),
		Replace(glob("ba"), false, y, syntax.OpReplacePre, "X", true),
		Replace(glob("na"), false, y, syntax.OpReplaceSuf, "X", true),
		Replace(glob("a"), false, y, syntax.OpReplaceAll, "<&>", true),
		Replace(glob("a"), false, y, syntax.OpReplaceAll, `\&`, true),
		Replace(glob(""), true, y, syntax.OpReplaceAll, "", true)}, "|"))
	assert.Equal(t, "b<&>n<&>n<&>", Replace(glob("a"), false, y, syntax.OpReplaceAll, "<&>", false), "shopt -u patsub_replacement")

	z := "héllo wörld"
	assert.Equal(t, "Héllo wörld|HÉLLO WÖRLD|héLLO wörLd|héllo wörld|HÉLLO WÖRLD", strings.Join([]string{
		CaseConv(glob("?"), z, syntax.OpUpperFirst), CaseConv(glob("?"), z, syntax.OpUpperAll),
		CaseConv(glob("[lo]"), z, syntax.OpUpperAll), CaseConv(glob("?"), z, syntax.OpLowerAll),
		CaseConv(glob("?"), z, syntax.OpToggleAll)}, "|"))
	assert.Equal(t, "heLLo|hello|HeLLo", strings.Join([]string{
		CaseConv(glob("?"), "HeLLo", syntax.OpLowerFirst), Transform('L', "HeLLo"), Transform('u', "heLLo")}, "|"))
	assert.Equal(t, "a\tb|'a\\tb'", Transform('E', `a\tb`)+"|"+Transform('Q', `a\tb`))
}

// Slices: x=héllo; ${x:1:3} ${x: -2} ${x:1:-1} ${x:2:-9}; a=(x y z);
// ${a[@]:1} ${a[*]: -1} ${a[@]:1:1} ${a[@]:5}; a=([2]=x [5]=y [9]=z);
// ${a[@]:3} ${a[@]: -5:1}; set -- a b c; ${@: -1} ${@:0:1}; an
// associative array's ${m[@]:0:0} (one element).
func TestSlices(t *testing.T) {
	n := func(v int64) Length { return func() (int64, error) { return v, nil } }
	never := Length(func() (int64, error) { return 0, errors.New("evaluated") })
	str := func(s string, off int64, l Length) string {
		v, err := Substring(s, off, l)
		require.NoError(t, err)
		return v
	}
	assert.Equal(t, "éll|lo|éll", str("héllo", 1, n(3))+"|"+str("héllo", -2, nil)+"|"+str("héllo", 1, n(-1)))
	_, err := Substring("héllo", 2, n(-9))
	assert.Equal(t, ErrNegativeLength, err)
	assert.Equal(t, "", str("abc", 5, never), "bash does not evaluate the length of an offset out of range")

	list := func(vals []string, err error) string {
		require.NoError(t, err)
		return strings.Join(vals, " ")
	}
	abc := []string{"x", "y", "z"}
	assert.Equal(t, "y z|z|y|", list(SliceList(abc, 1, nil))+"|"+list(SliceList(abc, -1, nil))+"|"+
		list(SliceList(abc, 1, n(1)))+"|"+list(SliceList(abc, 5, never)))
	keys, vals := []int64{2, 5, 9}, []string{"x", "y", "z"}
	assert.Equal(t, "y z|y", list(SliceSparse(keys, vals, 3, nil))+"|"+list(SliceSparse(keys, vals, -5, n(1))))
	pos := []string{"bash", "a", "b", "c"}
	assert.Equal(t, "c|bash", list(SlicePositional(pos, -1, nil))+"|"+list(SlicePositional(pos, 0, n(1))))
	assert.Equal(t, "v", list(SliceAssoc([]string{"v", "w"}, 0, n(0))))
	_, err = SliceList(abc, 0, n(-1))
	assert.Equal(t, ErrNegativeLength, err)
}
