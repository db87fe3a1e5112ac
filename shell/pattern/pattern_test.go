package pattern

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Recorded from bash 5.2: [[ $s == PATTERN ]] with extglob on.
func TestMatchLikeBash(t *testing.T) {
	cases := []struct {
		s, pat string
		want   bool
	}{
		{"abc", "a*", true},
		{"abc", "*c", true},
		{"abc", "a?c", true},
		{"abc", "a??c", false},
		{"abc", "[ab]bc", true},
		{"abc", "[!a]bc", false},
		{"abc", "[^a]bc", false},
		{"abc", "*", true},
		{"", "*", true},
		{"", "?", false},
		{"abc", "a\\*c", false},
		{"a*c", "a\\*c", true},
		{"]", "[]]", true},
		{"a-b", "a[-]b", true},
		{"a]b", "a[]]b", true},
		{"b", "[a-c]", true},
		{"d", "[a-c]", false},
		{"x", "[[:alpha:]]", true},
		{"5", "[[:alpha:]]", false},
		{"5", "[[:digit:][:alpha:]]", true},
		{"é", "?", true},
		{"é", "[[:alpha:]]", true},
		{"aXb", "a[[:upper:]]b", true},
		{"a", "[", false},
		{"[", "[", true},
		{"[a", "[a", true},
		{"ab", "@(ab|cd)", true},
		{"cd", "@(ab|cd)", true},
		{"ef", "@(ab|cd)", false},
		{"", "?(ab)", true},
		{"ab", "?(ab)", true},
		{"abab", "?(ab)", false},
		{"abab", "*(ab)", true},
		{"", "*(ab)", true},
		{"abab", "+(ab)", true},
		{"", "+(ab)", false},
		{"x", "!(ab)", true},
		{"ab", "!(ab)", false},
		{"abc", "!(ab)", true},
		{"abc", "@(a|ab)c", true},
		{"foo.c", "*.@(c|h)", true},
		{"foo.o", "*.@(c|h)", false},
		{"foo.o", "!(*.c|*.h)", true},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "*a*a*a*a*a*a*b", true},
		{"a/b", "a*b", true},
		{"abc", "a[b-]c", true},
		{"a-c", "a[b-]c", true},
		{"ABC", "abc", false},
		{".x", "*x", true},
		{"x.y", "*.*", true},
		{"\\", "\\\\", true},
		{"a", "[\\a]", true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Compile(tc.pat, ExtGlob).Match(tc.s), "%q == %q", tc.s, tc.pat)
	}
}

func TestPrefixSuffix(t *testing.T) {
	p := Compile("*/", 0)
	assert.Equal(t, 2, p.MatchPrefix("a/b/c", false))
	assert.Equal(t, 4, p.MatchPrefix("a/b/c", true))
	q := Compile(".*", 0)
	assert.Equal(t, 3, q.MatchSuffix("a.b.c", false))
	assert.Equal(t, 1, q.MatchSuffix("a.b.c", true))
	s, e, ok := Compile("b*", 0).Find("abcabc", 0)
	assert.True(t, ok)
	assert.Equal(t, [2]int{1, 6}, [2]int{s, e})
}

func TestPathnameRules(t *testing.T) {
	assert.False(t, Compile("*", Pathname|Period).Match(".hidden"))
	assert.True(t, Compile(".*", Pathname|Period).Match(".hidden"))
	assert.False(t, Compile("a*b", Pathname).Match("a/b"))
	assert.True(t, Compile("ABC", NoCase).Match("abc"))
	assert.True(t, Compile("[a-c]x", NoCase).Match("Bx"))
}

func TestHasMeta(t *testing.T) {
	assert.True(t, HasMeta("a*", false))
	assert.False(t, HasMeta(`a\*`, false))
	assert.False(t, HasMeta("[", false))
	assert.True(t, HasMeta("[a]", false))
	assert.True(t, HasMeta("@(a)", true))
	assert.False(t, HasMeta("@(a)", false))
}

func TestPathologicalEnds(t *testing.T) {
	s := ""
	for i := 0; i < 40; i++ {
		s += "a"
	}
	Compile("*(a|aa)*(a|aa)*(a|aa)b", ExtGlob).Match(s) // must return
}

// Brackets and groups that never close are literal, and finding that out
// stays linear-ish: each '[' used to scan to the end again (and each "[:"
// inside it too), so a few thousand of them took seconds (found by FuzzMatch).
func TestUnclosedIsLiteralAndBounded(t *testing.T) {
	for _, pat := range []string{
		strings.Repeat("[[:", 20000),
		strings.Repeat("[", 50000),
		strings.Repeat("[\\]", 20000) + "x",
		strings.Repeat("@(", 20000),
	} {
		p := Compile(pat, ExtGlob)
		if !p.Match(pat) && !strings.Contains(pat, "\\") {
			t.Errorf("%.12q...: an unclosed pattern should match itself", pat)
		}
		p.MatchPrefix(pat, true)
		p.Find(pat, 0)
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("a*b", "aXb")
	f.Add("@(a|b)*", "ab")
	f.Add("[[:alpha:]-z]", "q")
	f.Fuzz(func(t *testing.T, pat, s string) {
		p := Compile(pat, ExtGlob)
		p.Match(s)
		p.MatchPrefix(s, true)
		p.Find(s, 0)
	})
}
