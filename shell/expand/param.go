package expand

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// The operators of parameter expansion on values the interpreter looked up
// (it holds the variables): trimming, replacing, case changes, slices,
// transformations, and how a value or a list of values becomes fields.

// Trim is ${x#p}, ${x##p}, ${x%p} and ${x%%p} of one value.
func Trim(p *pattern.Pattern, v string, op syntax.ParamOp) string {
	switch op {
	case syntax.OpTrimPrefix, syntax.OpTrimPrefixL:
		if n := p.MatchPrefix(v, op == syntax.OpTrimPrefixL); n >= 0 {
			return v[n:]
		}
	default:
		if i := p.MatchSuffix(v, op == syntax.OpTrimSuffixL); i >= 0 {
			return v[:i]
		}
	}
	return v
}

// CaseConv is ${x^p}, ${x^^p}, ${x,p}, ${x,,p}, ${x~p} and ${x~~p} of one
// value: the characters p matches (the first, or all) change case.
func CaseConv(p *pattern.Pattern, v string, op syntax.ParamOp) string {
	var b strings.Builder
	first := true
	all := op == syntax.OpUpperAll || op == syntax.OpLowerAll || op == syntax.OpToggleAll
	for _, c := range v {
		conv := (all || first) && p.Match(string(c))
		if conv {
			switch op {
			case syntax.OpUpperFirst, syntax.OpUpperAll:
				c = unicode.ToUpper(c)
			case syntax.OpLowerFirst, syntax.OpLowerAll:
				c = unicode.ToLower(c)
			default:
				if unicode.IsUpper(c) {
					c = unicode.ToLower(c)
				} else {
					c = unicode.ToUpper(c)
				}
			}
		}
		b.WriteRune(c)
		first = false
	}
	return b.String()
}

func runeSlice(s string, from, to int) string {
	if from >= to {
		return ""
	}
	i, start, end := 0, -1, len(s)
	for pos := range s {
		if i == from {
			start = pos
		}
		if i == to {
			end = pos
			break
		}
		i++
	}
	if start < 0 {
		return ""
	}
	return s[start:end]
}

// Join is the fields' text joined by sep.
func Join(fs []Field, sep string) string {
	if len(fs) == 1 {
		f := fs[0]
		if len(f.Parts) == 1 {
			return f.Parts[0].S
		}
	}
	var s strings.Builder
	for i, f := range fs {
		if i > 0 {
			s.WriteString(sep)
		}
		for _, p := range f.Parts {
			s.WriteString(p.S)
		}
	}
	return s.String()
}

// AddEscaped adds unquoted source text whose backslashes quote the
// character after them.
func AddEscaped(b *Builder, s string, inDq, split bool) {
	split = split && !inDq
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i > start {
			b.Add(s[start:i], inDq, split)
		}
		if i+1 < len(s) {
			_, size := utf8.DecodeRuneInString(s[i+1:])
			b.Add(s[i+1:i+1+size], true, false)
			i += size
		} else {
			b.Add("", true, false) // a lone backslash: removed, the word stays
		}
		start = i + 1
	}
	if start < len(s) {
		b.Add(s[start:], inDq, split)
	}
}

// Replace is ${x/p/rep}, ${x//p/rep}, ${x/#p/rep} and ${x/%p/rep} of one
// value; empty says p came from an empty pattern (no match but the
// anchored forms'). With amp (shopt patsub_replacement), an & in rep
// stands for the match and \& for a literal &.
func Replace(p *pattern.Pattern, empty bool, v string, op syntax.ParamOp, rep string, amp bool) string {
	subst := func(match string) string {
		if !amp || !strings.ContainsAny(rep, `&\`) {
			return rep
		}
		var s strings.Builder
		for i := 0; i < len(rep); i++ {
			switch c := rep[i]; {
			case c == '\\' && i+1 < len(rep) && (rep[i+1] == '&' || rep[i+1] == '\\'):
				i++
				s.WriteByte(rep[i])
			case c == '&':
				s.WriteString(match)
			default:
				s.WriteByte(c)
			}
		}
		return s.String()
	}
	switch op {
	case syntax.OpReplacePre:
		if n := p.MatchPrefix(v, true); n >= 0 {
			v = subst(v[:n]) + v[n:]
		}
		return v
	case syntax.OpReplaceSuf:
		if j := p.MatchSuffix(v, true); j >= 0 {
			v = v[:j] + subst(v[j:])
		}
		return v
	}
	if empty {
		return v
	}
	if v == "" {
		if p.Match("") {
			return subst("") // ${v/*/x} of an empty v is x
		}
		return v
	}
	var s strings.Builder
	pos := 0
	changed := false
	for pos <= len(v) {
		st, en, ok := p.Find(v, pos)
		if !ok {
			break
		}
		if en == st {
			// an empty match: keep one character and go on
			if st >= len(v) {
				break
			}
			_, size := utf8.DecodeRuneInString(v[st:])
			s.WriteString(v[pos : st+size])
			pos = st + size
			continue
		}
		s.WriteString(v[pos:st])
		s.WriteString(subst(v[st:en]))
		pos = en
		changed = true
		if op != syntax.OpReplaceAll {
			break
		}
	}
	if !changed {
		return v
	}
	s.WriteString(v[pos:])
	return s.String()
}

// ErrNegativeLength is a slice's "substring expression < 0".
var ErrNegativeLength = errors.New("substring expression < 0")

// A Length evaluates a slice's length expression; nil: no length. Bash
// evaluates it only once the offset is in range.
type Length func() (int64, error)

// Substring is ${x:off:len} of a string, in characters: a negative offset
// counts from the end, a negative length ends that many from the end.
func Substring(s string, off int64, length Length) (string, error) {
	runes := int64(utf8.RuneCountInString(s))
	if off < 0 {
		off += runes
		if off < 0 {
			return "", nil
		}
	}
	if off > runes {
		return "", nil
	}
	end := runes
	if length != nil {
		n, err := length()
		if err != nil {
			return "", err
		}
		if n < 0 {
			end = runes + n
			if end < off {
				return "", ErrNegativeLength
			}
		} else if off+n < end {
			end = off + n
		}
	}
	return runeSlice(s, int(off), int(end)), nil
}

// SlicePositional is ${@:off:len}: vals are $0 and the positional
// parameters; a negative offset counts from the end but never reaches $0.
func SlicePositional(vals []string, off int64, length Length) ([]string, error) {
	return sliceFrom(vals, off, length, 1)
}

// SliceList is ${x[*]:off:len} of a dense list of values.
func SliceList(vals []string, off int64, length Length) ([]string, error) {
	return sliceFrom(vals, off, length, 0)
}

// sliceFrom slices vals from off, a negative offset counting from the end
// down to first at the lowest.
func sliceFrom(vals []string, off int64, length Length, first int64) ([]string, error) {
	if off < 0 {
		if off += int64(len(vals)); off < first {
			return nil, nil
		}
	}
	if off > int64(len(vals)) {
		return nil, nil
	}
	return take(vals[off:], length, 0)
}

// take is the first length (at least least) of vals; all without a length.
func take(vals []string, length Length, least int64) ([]string, error) {
	if length == nil {
		return vals, nil
	}
	n, err := length()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, ErrNegativeLength
	}
	return vals[:min(max(n, least), int64(len(vals)))], nil
}

// SliceSparse is ${a[@]:off:len} of an indexed array whose set indexes are
// keys (ascending): the offset is an index, not a position; a negative one
// counts from the highest index.
func SliceSparse(keys []int64, vals []string, off int64, length Length) ([]string, error) {
	if off < 0 {
		top := int64(-1)
		if len(keys) > 0 {
			top = keys[len(keys)-1]
		}
		off += top + 1
		if off < 0 {
			return nil, nil
		}
	}
	for i, k := range keys {
		if k >= off {
			return take(vals[i:], length, 0)
		}
	}
	return take(nil, length, 0)
}

// SliceAssoc is ${m[@]:off:len} as bash computes it for associative
// arrays: positive offsets count from 1 (0 is 1 too), negative ones from
// the end, and a length of 0 still takes one element.
func SliceAssoc(vals []string, off int64, length Length) ([]string, error) {
	n := int64(len(vals))
	start := off
	switch {
	case off == 0:
		start = 1
	case off < 0:
		start = max(n+off+1, 1)
	}
	if start > n {
		return nil, nil
	}
	return take(vals[start-1:], length, 1)
}

// Transform is the ${x@OP} operators that need only the value: Q (quoted
// for reuse), E (backslash escapes decoded), U, L and u (case).
func Transform(op byte, v string) string {
	switch op {
	case 'Q':
		return QuoteSingle(v)
	case 'E':
		s, _ := syntax.DecodeEscapes(v, syntax.EscAnsiC)
		return s
	case 'U':
		return strings.ToUpper(v)
	case 'L':
		return strings.ToLower(v)
	case 'u':
		if r, size := utf8.DecodeRuneInString(v); size > 0 {
			return string(unicode.ToUpper(r)) + v[size:]
		}
	}
	return v
}

// AddList adds a list of words: "$@"-like words in quotes, "$*"-like
// joined by joiner (IFS's first character), split fields unquoted.
func AddList(b *Builder, vals []string, star, inDq bool, joiner string) {
	if !inDq && !star && b.JoinAt && joiner != "" {
		// an unquoted $@ in an unquoted ${x-word}: bash joins it with
		// spaces and splits that (one word when IFS has no space)
		b.Add(strings.Join(vals, " "), false, true)
		return
	}
	if inDq || (star && b.OneString) {
		if star {
			// (unquoted, as in a pattern, the joined text still matches)
			b.Add(strings.Join(vals, joiner), inDq, false)
			return
		}
		b.AddWords(vals, true, false)
		return
	}
	b.AddWords(vals, false, true)
}
