// Package expand is bash's expansions that need no shell state: brace
// expansion of a parsed word, quoting for output (${x@Q}, printf %q, set -x,
// declare -p), field splitting on IFS, tilde prefixes, and pathname
// expansion over a file system. shell/interp drives them in bash's order,
// with the variables, options and substitutions only it holds (as mvdan/sh
// splits its expand from its interp).
package expand

import (
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/shell/syntax"
)

// Brace expansion works on the word before any other expansion: braces
// and commas count only in unquoted literal text; every other part of the
// word is carried along whole.

type btok struct {
	c    byte
	esc  bool        // a backslash-quoted character (or a byte of one)
	gen  bool        // a backslash made by a sequence: removed like a quote
	part syntax.Part // an opaque part (quotes, expansions)
}

// HasBraces says whether a word has an unquoted { before an unquoted },
// the cheap test before Braces.
func HasBraces(w *syntax.Word) bool {
	open := false
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			if strings.IndexByte(l.Val, '{') >= 0 {
				open = true
			}
			if open && strings.IndexByte(l.Val, '}') >= 0 {
				return true
			}
		}
	}
	return false
}

func toTokens(parts []syntax.Part) []btok {
	var out []btok
	for _, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			out = append(out, btok{part: p})
			continue
		}
		s := l.Val
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && l.Escapes && i+1 < len(s) {
				out = append(out, btok{c: s[i+1], esc: true})
				i++
				continue
			}
			out = append(out, btok{c: s[i]})
		}
	}
	return out
}

func fromTokens(toks []btok) []syntax.Part {
	var parts []syntax.Part
	var b strings.Builder
	esc := false
	flush := func() {
		if b.Len() > 0 {
			parts = append(parts, &syntax.Lit{Val: b.String(), Escapes: esc})
			b.Reset()
			esc = false
		}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.part != nil {
			flush()
			// Braces expand on the text before anything else: in $var{x,y}
			// the name goes on into what they left ($varx, $vary).
			if pe, ok := t.part.(*syntax.ParamExp); ok && pe.Short && syntax.ValidName(pe.Name) {
				name := pe.Name
				for i+1 < len(toks) && toks[i+1].part == nil && !toks[i+1].esc && !toks[i+1].gen && isNameByte(toks[i+1].c) {
					name += string(toks[i+1].c)
					i++
				}
				if name != pe.Name {
					parts = append(parts, &syntax.ParamExp{Short: true, Name: name})
					continue
				}
			}
			parts = append(parts, t.part)
			continue
		}
		if t.gen {
			esc = true // a lone backslash: quote removal drops it
		}
		if t.esc {
			b.WriteByte('\\')
			esc = true
		}
		b.WriteByte(t.c)
	}
	flush()
	return parts
}

// Braces returns the words a word's braces expand to.
func Braces(parts []syntax.Part) [][]syntax.Part {
	toks := toTokens(parts)
	var out [][]syntax.Part
	for _, ts := range expandTokens(toks, 0) {
		out = append(out, fromTokens(ts))
	}
	return out
}

// maxBraceWords bounds the words one brace expansion makes (bash would
// try to make them all and run out of memory).
const maxBraceWords = 1 << 20

func expandTokens(toks []btok, depth int) [][]btok {
	if depth > 64 {
		return [][]btok{toks}
	}
	for start := 0; start < len(toks); start++ {
		t := toks[start]
		if t.part != nil || t.esc || t.c != '{' {
			continue
		}
		if start > 0 && toks[start-1].part == nil && !toks[start-1].esc && toks[start-1].c == '$' {
			continue // ${ is not a brace expansion
		}
		end, commas := matchBrace(toks, start)
		if end < 0 {
			continue
		}
		pre, inner, post := toks[:start], toks[start+1:end], toks[end+1:]
		var alts [][]btok
		if len(commas) > 0 {
			prev := 0
			for _, c := range commas {
				alts = append(alts, inner[prev:c])
				prev = c + 1
			}
			alts = append(alts, inner[prev:])
		} else if seq := sequence(inner); seq != nil {
			alts = seq
		} else {
			continue
		}
		var out [][]btok
		posts := expandTokens(post, depth+1)
		for _, a := range alts {
			for _, ea := range expandTokens(a, depth+1) {
				for _, p := range posts {
					w := make([]btok, 0, len(pre)+len(ea)+len(p))
					w = append(w, pre...)
					w = append(w, ea...)
					w = append(w, p...)
					out = append(out, w)
					if len(out) >= maxBraceWords {
						return out
					}
				}
			}
		}
		return out
	}
	return [][]btok{toks}
}

// matchBrace finds the '}' closing the '{' at start and the positions
// (relative to start+1) of the commas at its top level.
func matchBrace(toks []btok, start int) (int, []int) {
	depth := 0
	var commas []int
	for i := start + 1; i < len(toks); i++ {
		t := toks[i]
		if t.part != nil || t.esc {
			continue
		}
		switch t.c {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i, commas
			}
			depth--
		case ',':
			if depth == 0 {
				commas = append(commas, i-start-1)
			}
		}
	}
	return -1, nil
}

// sequence expands {x..y[..step]} (numbers or single letters).
func sequence(inner []btok) [][]btok {
	var b strings.Builder
	for _, t := range inner {
		if t.part != nil || t.esc {
			return nil
		}
		b.WriteByte(t.c)
	}
	f := strings.Split(b.String(), "..")
	if len(f) != 2 && len(f) != 3 {
		return nil
	}
	step := int64(1)
	if len(f) == 3 {
		s, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return nil
		}
		if s < 0 {
			s = -s
		}
		if s == 0 {
			s = 1
		}
		step = s
	}
	var words []string
	if a, err1 := strconv.ParseInt(f[0], 10, 64); err1 == nil {
		z, err2 := strconv.ParseInt(f[1], 10, 64)
		if err2 != nil {
			return nil
		}
		width := 0
		if isPadded(f[0]) || isPadded(f[1]) {
			width = max(len(f[0]), len(f[1]))
		}
		for i := a; ; {
			s := strconv.FormatInt(i, 10)
			if width > 0 {
				neg := strings.HasPrefix(s, "-")
				s = strings.TrimPrefix(s, "-")
				w := width
				if neg {
					w--
				}
				for len(s) < w {
					s = "0" + s
				}
				if neg {
					s = "-" + s
				}
			}
			words = append(words, s)
			if len(words) >= maxBraceWords {
				break
			}
			if a <= z {
				if i > z-step {
					break
				}
				i += step
			} else {
				if i < z+step {
					break
				}
				i -= step
			}
		}
	} else if len(f[0]) == 1 && len(f[1]) == 1 && isLetter(f[0][0]) && isLetter(f[1][0]) {
		a, z := int64(f[0][0]), int64(f[1][0])
		for i := a; ; {
			words = append(words, string(rune(i)))
			if a <= z {
				if i > z-step {
					break
				}
				i += step
			} else {
				if i < z+step {
					break
				}
				i -= step
			}
		}
	} else {
		return nil
	}
	out := make([][]btok, len(words))
	for i, w := range words {
		ts := make([]btok, len(w))
		for j := 0; j < len(w); j++ {
			// a generated backslash quotes nothing and goes in quote removal
			ts[j] = btok{c: w[j], gen: w[j] == '\\'}
		}
		out[i] = ts
	}
	return out
}

func isPadded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
