package expand

import (
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell/pattern"
)

// A word expands into fields; each field is parts that remember how they
// were quoted, which decides splitting, globbing and pattern matching.
type Part struct {
	S     string
	Quote bool // quoted: taken literally
	Split bool // the result of an unquoted expansion: IFS splitting applies
	// IFS is the IFS of the expansion that made a Split part, when the
	// caller set one (Builder.IFS): bash splits each expansion with the IFS
	// it had then (${*}${IFS=}${*} splits only the first). Nil: Split's.
	IFS *IFS
}

type Field struct {
	Parts []Part
	Keep  bool // quoted (maybe empty) content: the field survives empty
	// ListBreak: another word of the same list expansion follows. bash
	// splits as if the words were joined by IFS's first character, so a
	// word ending in a non-whitespace delimiter leaves an empty field.
	ListBreak bool
	Brace     bool
}

// Builder collects fields while a word expands.
type Builder struct {
	Fields []Field
	// JoinAt: in the operand of an unquoted ${x-word} (AddList)
	JoinAt bool
	// SplitLits: literal text is split too (the operand of an unquoted
	// ${x:-word}, whose whole result is subject to splitting)
	SplitLits bool
	// OneString: the word becomes one string (assignments, case words,
	// [[ ]] operands), where an unquoted $* is joined by IFS as "$*" is
	OneString bool
	// IFS is the IFS to record with the split parts added now (Part.IFS)
	IFS *IFS
	// Size is the bytes added; past Limit (what one variable may hold)
	// the rest is dropped and the expansion fails (expandParts), so that
	// no word, here-document or argument grows the host's memory past it
	Size, Limit int
}

// Cur is the field being built (made when there is none).
func (b *Builder) Cur() *Field {
	if len(b.Fields) == 0 {
		b.Fields = append(b.Fields, Field{})
	}
	return &b.Fields[len(b.Fields)-1]
}

func (b *Builder) Add(s string, quote, split bool) {
	if b.Size += len(s); b.Limit > 0 && b.Size > b.Limit {
		return
	}
	f := b.Cur()
	if quote {
		f.Keep = true
	}
	if s == "" {
		// a quoted null is kept as an empty part where splitting may
		// come next to it: after a delimiter it makes a field of its own
		// ($v"" with v="a:b:" and IFS=: is a, b and an empty word)
		if n := len(f.Parts); quote && (n == 0 || f.Parts[n-1].Split) {
			f.Parts = append(f.Parts, Part{Quote: true})
		}
		return
	}
	var ifs *IFS
	if split {
		ifs = b.IFS
	}
	if n := len(f.Parts); n > 0 && f.Parts[n-1].Quote == quote && f.Parts[n-1].Split == split && f.Parts[n-1].IFS == ifs {
		f.Parts[n-1].S += s
		return
	}
	f.Parts = append(f.Parts, Part{S: s, Quote: quote, Split: split, IFS: ifs})
}

// AddWords adds the words of a list expansion ("$@", "${a[@]}"): the first
// joins the current field, each other starts a field of its own.
func (b *Builder) AddWords(words []string, quote, split bool) {
	for i, w := range words {
		if i > 0 {
			b.Cur().ListBreak = true
			b.Fields = append(b.Fields, Field{})
		}
		b.Add(w, quote, split)
	}
}

// IFS is IFS split into its whitespace and other characters.
type IFS struct {
	WS, Other  string
	Empty      bool
	FirstOther bool // its first character is not whitespace
}

// NewIFS is the set of an IFS value.
func NewIFS(v string) *IFS {
	s := &IFS{Empty: v == ""}
	if v != "" && v[0] != ' ' && v[0] != '\t' && v[0] != '\n' {
		s.FirstOther = true
	}
	for _, c := range v {
		if c == ' ' || c == '\t' || c == '\n' {
			if !strings.ContainsRune(s.WS, c) {
				s.WS += string(c)
			}
		} else if !strings.ContainsRune(s.Other, c) {
			s.Other += string(c)
		}
	}
	return s
}

// Split applies IFS splitting to the split parts of a field.
func Split(f Field, ifs *IFS) []Field {
	partIFS := func(p Part) *IFS {
		if p.IFS != nil {
			return p.IFS
		}
		return ifs
	}
	needs := false
	for _, p := range f.Parts {
		if p.Split && !partIFS(p).Empty {
			needs = true
			break
		}
	}
	if !needs {
		if f.ListBreak && !ifs.Empty && ifs.FirstOther && len(f.Parts) == 0 {
			return []Field{{Keep: true}} // (an empty word before the joining delimiter)
		}
		return []Field{f}
	}
	var out []Field
	cur := Field{Keep: f.Keep}
	// pending: an IFS whitespace run was seen since the field's last text
	started := false // the current field has content or a delimiter made it
	pendingWS := false
	afterOther := false // the last delimiter was not whitespace, and no text came since
	emit := func() {
		out = append(out, cur)
		cur = Field{}
		started = false
	}
	addText := func(s string, p Part) {
		afterOther = false
		if n := len(cur.Parts); n > 0 && cur.Parts[n-1].Quote == p.Quote && cur.Parts[n-1].Split == p.Split {
			cur.Parts[n-1].S += s
		} else {
			cur.Parts = append(cur.Parts, Part{S: s, Quote: p.Quote, Split: p.Split})
		}
	}
	last := ifs // the IFS of the last part split
	for _, p := range f.Parts {
		pi := partIFS(p)
		if !p.Split || pi.Empty {
			if pendingWS && started {
				emit()
			}
			pendingWS = false
			addText(p.S, p)
			started = true
			if p.Quote {
				cur.Keep = true
			}
			continue
		}
		last = pi
		s := p.S
		start := 0
		for i := 0; i < len(s); {
			rn, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case strings.ContainsRune(pi.WS, rn):
				if i > start {
					if pendingWS && started {
						emit()
					}
					addText(s[start:i], p)
					started = true
					pendingWS = false
				}
				pendingWS = true
				start = i + size
			case strings.ContainsRune(pi.Other, rn):
				if i > start {
					if pendingWS && started {
						emit()
					}
					addText(s[start:i], p)
					started = true
				}
				// a non-whitespace delimiter ends a field, even an empty one
				cur.Keep = true
				emit()
				pendingWS, afterOther = false, true
				start = i + size
			}
			i += size
		}
		if start < len(s) {
			if pendingWS && started {
				emit()
			}
			addText(s[start:], p)
			started = true
			pendingWS = false
		}
	}
	if started || len(cur.Parts) > 0 {
		out = append(out, cur)
	} else if len(out) == 0 && f.Keep {
		out = append(out, Field{Keep: true})
	} else if afterOther && f.ListBreak && last.FirstOther {
		out = append(out, Field{Keep: true}) // (the joining delimiter's field)
	}
	return out
}

// HasGlob reports unquoted glob characters in a field.
func HasGlob(f Field, extglob bool) bool {
	found := false
	for _, p := range f.Parts {
		if p.Quote {
			continue
		}
		if strings.ContainsAny(p.S, "*?[") || extglob && strings.Contains(p.S, "(") {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	return pattern.HasMeta(FieldPattern(f), extglob)
}

// FieldPattern renders a field as a pattern (quoted parts escaped).
func FieldPattern(f Field) string {
	var s strings.Builder
	for _, p := range f.Parts {
		if p.Quote {
			s.WriteString(pattern.QuoteMeta(p.S))
		} else {
			s.WriteString(p.S)
		}
	}
	return s.String()
}
