// Package pattern matches bash patterns (globs): * ? [...] with classes,
// extglob's ?() *() +() @() !(), case folding, and the rules of pathname
// matching. A backslash quotes the next character; the shell escapes what
// was quoted in the source before compiling.
package pattern

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Flags change how a pattern matches.
type Flags uint8

const (
	ExtGlob  Flags = 1 << iota // ?(..) *(..) +(..) @(..) !(..)
	NoCase                     // letters match either case
	Pathname                   // wildcards never match '/'
	Period                     // a leading '.' must be matched by a literal '.'
)

type kind uint8

const (
	kLit kind = iota
	kAny
	kStar
	kClass
	kExt
)

type node struct {
	kind  kind
	lit   string
	class *class
	op    byte     // extglob operator: ? * + @ !
	alts  [][]node // extglob alternatives
}

type class struct {
	negate bool
	ranges []rng
	names  []string // [:alpha:] ...
}

type rng struct{ lo, hi rune }

// Pattern is a compiled pattern.
type Pattern struct {
	nodes   []node
	flags   Flags
	literal bool   // no wildcards: lit is the whole pattern
	lit     string // the unescaped text of a literal pattern
	hasExt  bool
}

var cache sync.Map // key{pat, flags} -> *Pattern
var cacheSize int64
var cacheMu sync.Mutex

type cacheKey struct {
	pat   string
	flags Flags
}

const maxCache = 4096

// Compile compiles a pattern (compiled patterns are cached).
func Compile(pat string, flags Flags) *Pattern {
	k := cacheKey{pat, flags}
	if p, ok := cache.Load(k); ok {
		return p.(*Pattern)
	}
	ps := &parser{pat: pat, flags: flags, work: maxParseWork, lastClose: strings.LastIndexByte(pat, ']')}
	nodes, _ := ps.parse(0, false)
	p := &Pattern{nodes: nodes, flags: flags}
	p.literal = true
	var b strings.Builder
	for _, n := range nodes {
		if n.kind != kLit {
			p.literal = false
		}
		if n.kind == kExt {
			p.hasExt = true
		}
		b.WriteString(n.lit)
	}
	if p.literal {
		p.lit = b.String()
	}
	if len(pat) < 256 {
		cacheMu.Lock()
		if cacheSize >= maxCache {
			cache.Range(func(k, _ any) bool { cache.Delete(k); return true })
			cacheSize = 0
		}
		cacheSize++
		cacheMu.Unlock()
		cache.Store(k, p)
	}
	return p
}

// parser is one Compile's reading of a pattern. A bracket or a group that
// does not close makes the parser look ahead to the end, from every '[' or
// '(' again: work bounds that look-ahead over the whole pattern (a script
// must not hang its sandbox in Go code); once spent, an unclosed-looking
// '[' or extglob group is literal.
type parser struct {
	pat       string
	flags     Flags
	work      int
	lastClose int // index of the last ']' (no bracket closes after it)
}

const maxParseWork = 4 << 20

// spend takes n from the look-ahead budget; false once it is spent.
func (ps *parser) spend(n int) bool {
	ps.work -= n
	return ps.work >= 0
}

// parse reads nodes up to the end, or up to a '|' or ')' when inside an
// extglob group (reported by end).
func (ps *parser) parse(i int, inGroup bool) (nodes []node, next int) {
	pat, flags := ps.pat, ps.flags
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			nodes = append(nodes, node{kind: kLit, lit: lit.String()})
			lit.Reset()
		}
	}
	for i < len(pat) {
		c := pat[i]
		switch {
		case inGroup && (c == '|' || c == ')'):
			flush()
			return nodes, i
		case c == '\\':
			if i+1 < len(pat) {
				_, size := utf8.DecodeRuneInString(pat[i+1:])
				lit.WriteString(pat[i+1 : i+1+size])
				i += 1 + size
			} else {
				lit.WriteByte('\\')
				i++
			}
			continue
		case flags&ExtGlob != 0 && strings.IndexByte("?*+@!", c) >= 0 && i+1 < len(pat) && pat[i+1] == '(':
			if alts, end, ok := ps.parseGroup(i + 2); ok {
				flush()
				nodes = append(nodes, node{kind: kExt, op: c, alts: alts})
				i = end + 1
				continue
			}
			lit.WriteByte(c)
		case c == '*':
			flush()
			if len(nodes) == 0 || nodes[len(nodes)-1].kind != kStar {
				nodes = append(nodes, node{kind: kStar})
			}
		case c == '?':
			flush()
			nodes = append(nodes, node{kind: kAny})
		case c == '[':
			if cl, end, ok := ps.parseClass(i + 1); ok {
				flush()
				nodes = append(nodes, node{kind: kClass, class: cl})
				i = end
				continue
			}
			lit.WriteByte('[')
		default:
			_, size := utf8.DecodeRuneInString(pat[i:])
			lit.WriteString(pat[i : i+size])
			i += size
			continue
		}
		i++
	}
	flush()
	return nodes, i
}

// parseGroup reads the alternatives of an extglob group starting at i
// (after the open paren); end is the index of its ')'.
func (ps *parser) parseGroup(i int) (alts [][]node, end int, ok bool) {
	pat := ps.pat
	if !ps.closes(i) {
		return nil, 0, false
	}
	for {
		nodes, j := ps.parse(i, true)
		alts = append(alts, nodes)
		if j >= len(pat) {
			return nil, 0, false
		}
		if pat[j] == ')' {
			return alts, j, true
		}
		i = j + 1
	}
}

// closes reports whether the group opened before i has its ')'.
func (ps *parser) closes(i int) bool {
	pat := ps.pat
	depth := 0
	for ; i < len(pat); i++ {
		if !ps.spend(1) {
			return false
		}
		switch pat[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return true
			}
			depth--
		case '[':
			// a bracket left open inside the group leaves it open too
			// (bash's scan for the ')' stops there): *(a|b[) is no group
			_, end, ok := ps.parseClass(i + 1)
			if !ok {
				return false
			}
			i = end - 1
		}
	}
	return false
}

var classNames = map[string]bool{"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true,
	"digit": true, "graph": true, "lower": true, "print": true, "punct": true, "space": true,
	"upper": true, "word": true, "xdigit": true}

// parseClass reads a bracket expression after its '['; end is the index
// after its ']'. ok is false when it does not close (the '[' is literal).
func (ps *parser) parseClass(i int) (*class, int, bool) {
	pat := ps.pat
	if i > ps.lastClose || ps.work < 0 {
		return nil, 0, false
	}
	cl := &class{}
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		cl.negate = true
		i++
	}
	first := true
	for i < len(pat) {
		if !ps.spend(1) {
			return nil, 0, false
		}
		c := pat[i]
		if c == ']' && !first {
			return cl, i + 1, true
		}
		first = false
		var lo rune
		switch {
		case c == '[' && i+1 < len(pat) && (pat[i+1] == ':' || pat[i+1] == '=' || pat[i+1] == '.'):
			delim := pat[i+1]
			end := strings.Index(pat[i+2:], string(delim)+"]")
			scanned := end
			if end < 0 {
				scanned = len(pat) - i - 2
			}
			if !ps.spend(scanned) {
				return nil, 0, false
			}
			if end < 0 {
				lo = '['
				i++
				break
			}
			name := pat[i+2 : i+2+end]
			i += 2 + end + 2
			if delim == ':' {
				if !classNames[name] {
					cl.names = append(cl.names, "") // matches nothing
				} else {
					cl.names = append(cl.names, name)
				}
				continue
			}
			r, size := utf8.DecodeRuneInString(name)
			if size != len(name) {
				if c, ok := collatingNames[name]; ok {
					r = c
				} else {
					// an unknown collating element matches nothing, and
					// cannot start or end a range
					r = -1
				}
			}
			lo = r
		case c == '\\' && i+1 < len(pat):
			r, size := utf8.DecodeRuneInString(pat[i+1:])
			lo = r
			i += 1 + size
		default:
			r, size := utf8.DecodeRuneInString(pat[i:])
			lo = r
			i += size
		}
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			j := i + 1
			if pat[j] == '\\' && j+1 < len(pat) {
				j++
			}
			r, size := utf8.DecodeRuneInString(pat[j:])
			if pat[j] == '[' && j+1 < len(pat) && (pat[j+1] == '.' || pat[j+1] == '=') {
				if end := strings.Index(pat[j+2:], string(pat[j+1])+"]"); end >= 0 {
					name := pat[j+2 : j+2+end]
					size = 2 + end + 2
					var n int
					r, n = utf8.DecodeRuneInString(name)
					if n != len(name) {
						if c, ok := collatingNames[name]; ok {
							r = c
						} else {
							r = -1
						}
					}
				}
			}
			hi = r
			i = j + size
			if lo < 0 || hi < 0 {
				continue // a range with an invalid end matches nothing
			}
		}
		if lo < 0 {
			continue
		}
		cl.ranges = append(cl.ranges, rng{lo, hi})
	}
	return nil, 0, false
}

func (cl *class) matches(r rune, nocase bool) bool {
	m := cl.has(r)
	if !m && nocase {
		if l := unicode.ToLower(r); l != r {
			m = cl.has(l)
		} else if u := unicode.ToUpper(r); u != r {
			m = cl.has(u)
		}
	}
	return m != cl.negate
}

func (cl *class) has(r rune) bool {
	for _, g := range cl.ranges {
		if r >= g.lo && r <= g.hi {
			return true
		}
	}
	for _, n := range cl.names {
		if inClass(n, r) {
			return true
		}
	}
	return false
}

func inClass(name string, r rune) bool {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "alpha":
		return unicode.IsLetter(r)
	case "ascii":
		return r < 128
	case "blank":
		return r == ' ' || r == '\t'
	case "cntrl":
		return unicode.IsControl(r)
	case "digit":
		return r >= '0' && r <= '9'
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r)
	case "lower":
		return unicode.IsLower(r)
	case "print":
		return unicode.IsPrint(r)
	case "punct":
		return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r)
	case "space":
		return unicode.IsSpace(r)
	case "upper":
		return unicode.IsUpper(r)
	case "word":
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
	case "xdigit":
		return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
	}
	return false
}

// IsLiteral reports whether the pattern has no wildcards; Literal is then
// its text.
func (p *Pattern) IsLiteral() bool { return p.literal }

// Literal is the text of a pattern without wildcards.
func (p *Pattern) Literal() string { return p.lit }

// maxSteps bounds the work of one match: extglob patterns can backtrack
// exponentially, and a script must not hang its sandbox in Go code.
const maxSteps = 20_000_000

type matcher struct {
	flags Flags
	steps int
}

// Match reports whether the whole of s matches.
func (p *Pattern) Match(s string) bool {
	if p.literal && p.flags&NoCase == 0 {
		return s == p.lit
	}
	m := &matcher{flags: p.flags}
	return m.match(p.nodes, s, true)
}

// MatchPrefix returns the length of the shortest (or longest) prefix of s
// that matches, or -1.
func (p *Pattern) MatchPrefix(s string, longest bool) int {
	if p.literal && p.flags&NoCase == 0 {
		if strings.HasPrefix(s, p.lit) {
			return len(p.lit)
		}
		return -1
	}
	m := &matcher{flags: p.flags}
	if longest {
		for i := len(s); i >= 0; i-- {
			if i < len(s) && !utf8.RuneStart(s[i]) {
				continue
			}
			if m.match(p.nodes, s[:i], true) {
				return i
			}
		}
		return -1
	}
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !utf8.RuneStart(s[i]) {
			continue
		}
		if m.match(p.nodes, s[:i], true) {
			return i
		}
	}
	return -1
}

// MatchSuffix returns the start of the shortest (or longest) suffix of s
// that matches, or -1.
func (p *Pattern) MatchSuffix(s string, longest bool) int {
	if p.literal && p.flags&NoCase == 0 {
		if strings.HasSuffix(s, p.lit) {
			return len(s) - len(p.lit)
		}
		return -1
	}
	m := &matcher{flags: p.flags}
	if longest {
		for i := 0; i <= len(s); i++ {
			if i < len(s) && !utf8.RuneStart(s[i]) {
				continue
			}
			if m.match(p.nodes, s[i:], true) {
				return i
			}
		}
		return -1
	}
	for i := len(s); i >= 0; i-- {
		if i < len(s) && !utf8.RuneStart(s[i]) {
			continue
		}
		if m.match(p.nodes, s[i:], true) {
			return i
		}
	}
	return -1
}

// Find returns the first match in s at or after from: the leftmost start,
// and there the longest match. ok is false when there is none.
func (p *Pattern) Find(s string, from int) (start, end int, ok bool) {
	if p.literal && p.flags&NoCase == 0 {
		if p.lit == "" {
			return from, from, true
		}
		i := strings.Index(s[from:], p.lit)
		if i < 0 {
			return 0, 0, false
		}
		return from + i, from + i + len(p.lit), true
	}
	m := &matcher{flags: p.flags}
	for i := from; i <= len(s); i++ {
		if i < len(s) && !utf8.RuneStart(s[i]) {
			continue
		}
		if n := m.prefixLongest(p.nodes, s[i:]); n >= 0 {
			return i, i + n, true
		}
		if m.steps > maxSteps {
			break
		}
	}
	return 0, 0, false
}

func (m *matcher) prefixLongest(nodes []node, s string) int {
	for j := len(s); j >= 0; j-- {
		if j < len(s) && !utf8.RuneStart(s[j]) {
			continue
		}
		if m.match(nodes, s[:j], false) {
			return j
		}
	}
	return -1
}

func (m *matcher) litPrefix(s, lit string) bool {
	if m.flags&NoCase != 0 {
		if len(s) < len(lit) {
			// case folding may change byte lengths; compare rune by rune
			return foldPrefix(s, lit) >= 0
		}
		return strings.EqualFold(s[:len(lit)], lit) || foldPrefix(s, lit) >= 0
	}
	return strings.HasPrefix(s, lit)
}

// foldPrefix returns the length in s of a case-folded match of lit, or -1.
func foldPrefix(s, lit string) int {
	i := 0
	for _, lr := range lit {
		if i >= len(s) {
			return -1
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.ToLower(r) != unicode.ToLower(lr) {
			return -1
		}
		i += size
	}
	return i
}

func (m *matcher) litLen(s, lit string) int {
	if m.flags&NoCase != 0 {
		return foldPrefix(s, lit)
	}
	return len(lit)
}

// single matches one character node (? or [...]) at the start of s,
// returning its size or -1. atStart tells whether s starts the string
// (for the leading-period rule).
func (m *matcher) single(n *node, s string, atStart bool) int {
	if s == "" {
		return -1
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == '/' && m.flags&Pathname != 0 {
		return -1
	}
	if r == '.' && atStart && m.flags&Period != 0 {
		return -1
	}
	if n.kind == kClass && !n.class.matches(r, m.flags&NoCase != 0) {
		return -1
	}
	return size
}

// match reports whether nodes match all of s. atStart: s begins the subject.
func (m *matcher) match(nodes []node, s string, atStart bool) bool {
	m.steps++
	if m.steps > maxSteps {
		return false
	}
	if !hasExt(nodes) {
		return m.matchSimple(nodes, s, atStart)
	}
	for i, n := range nodes {
		switch n.kind {
		case kLit:
			if !m.litPrefix(s, n.lit) {
				return false
			}
			s = s[m.litLen(s, n.lit):]
		case kAny, kClass:
			size := m.single(&nodes[i], s, atStart)
			if size < 0 {
				return false
			}
			s = s[size:]
		case kStar:
			rest := nodes[i+1:]
			if atStart && m.flags&Period != 0 && strings.HasPrefix(s, ".") {
				return false
			}
			for j := 0; j <= len(s); j++ {
				if j < len(s) && !utf8.RuneStart(s[j]) {
					continue
				}
				if m.match(rest, s[j:], false) {
					return true
				}
				if j < len(s) && s[j] == '/' && m.flags&Pathname != 0 {
					return false
				}
				if m.steps > maxSteps {
					return false
				}
			}
			return false
		case kExt:
			return m.matchExt(&nodes[i], nodes[i+1:], s, atStart)
		}
		atStart = false
	}
	return s == ""
}

func hasExt(nodes []node) bool {
	for _, n := range nodes {
		if n.kind == kExt {
			return true
		}
	}
	return false
}

// matchSimple matches nodes without extglob groups: one backtracking point
// (the last star) is enough, which keeps it linear in practice.
func (m *matcher) matchSimple(nodes []node, s string, atStart bool) bool {
	ni, si := 0, 0
	starNi, starSi := -1, 0
	for {
		m.steps++
		if m.steps > maxSteps {
			return false
		}
		if ni < len(nodes) {
			n := &nodes[ni]
			switch n.kind {
			case kLit:
				if m.litPrefix(s[si:], n.lit) {
					si += m.litLen(s[si:], n.lit)
					ni++
					continue
				}
			case kAny, kClass:
				if size := m.single(n, s[si:], atStart && si == 0); size >= 0 {
					si += size
					ni++
					continue
				}
			case kStar:
				if si == 0 && atStart && m.flags&Period != 0 && strings.HasPrefix(s, ".") {
					return false
				}
				starNi, starSi = ni, si
				ni++
				continue
			}
		} else if si == len(s) {
			return true
		}
		// Backtrack: the last star takes one more character.
		if starNi < 0 || starSi >= len(s) {
			return false
		}
		if s[starSi] == '/' && m.flags&Pathname != 0 {
			return false
		}
		_, size := utf8.DecodeRuneInString(s[starSi:])
		starSi += size
		si = starSi
		ni = starNi + 1
	}
}

func (m *matcher) matchAlt(alts [][]node, s string, atStart bool) bool {
	for _, a := range alts {
		if m.match(a, s, atStart) {
			return true
		}
	}
	return false
}

func (m *matcher) matchExt(n *node, rest []node, s string, atStart bool) bool {
	// each split point k: the group takes s[:k], rest takes s[k:]
	splits := func(fn func(k int) bool) bool {
		for k := 0; k <= len(s); k++ {
			if k < len(s) && !utf8.RuneStart(s[k]) {
				continue
			}
			if fn(k) {
				return true
			}
			if m.steps > maxSteps {
				return false
			}
		}
		return false
	}
	switch n.op {
	case '@':
		return splits(func(k int) bool {
			return m.matchAlt(n.alts, s[:k], atStart) && m.match(rest, s[k:], atStart && k == 0)
		})
	case '?':
		if m.match(rest, s, atStart) {
			return true
		}
		return splits(func(k int) bool {
			return m.matchAlt(n.alts, s[:k], atStart) && m.match(rest, s[k:], atStart && k == 0)
		})
	case '*', '+':
		if n.op == '*' && m.match(rest, s, atStart) {
			return true
		}
		star := node{kind: kExt, op: '*', alts: n.alts}
		return splits(func(k int) bool {
			if k == 0 {
				return false
			}
			if !m.matchAlt(n.alts, s[:k], atStart) {
				return false
			}
			return m.matchExt(&star, rest, s[k:], false)
		})
	case '!':
		if atStart && m.flags&Period != 0 && strings.HasPrefix(s, ".") {
			return false
		}
		return splits(func(k int) bool {
			return !m.matchAlt(n.alts, s[:k], atStart) && m.match(rest, s[k:], atStart && k == 0)
		})
	}
	return false
}

// SplitList splits a list of patterns (GLOBIGNORE) on sep, as bash does:
// not inside a bracket expression ([[:alnum:]] keeps its colons) and not
// after a backslash.
func SplitList(s string, sep byte) []string {
	ps := &parser{pat: s, work: maxParseWork, lastClose: strings.LastIndexByte(s, ']')}
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if _, end, ok := ps.parseClass(i + 1); ok {
				i = end - 1
			}
		case sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// HasMeta reports whether pat has unquoted wildcards (a '[' only counts
// when it is closed).
func HasMeta(pat string, extglob bool) bool {
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			// bash counts a '[' with a ']' after it, valid bracket or not
			if strings.IndexByte(pat[i+1:], ']') >= 0 {
				return true
			}
		case '+', '@', '!':
			if extglob && i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// QuoteMeta escapes s so that it matches only itself.
func QuoteMeta(s string) string {
	if !strings.ContainsAny(s, `*?[]\+@!()|`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]\+@!()|`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Unescape removes the backslashes of a pattern (its text if it is used
// literally).
func Unescape(pat string) string {
	if strings.IndexByte(pat, '\\') < 0 {
		return pat
	}
	var b strings.Builder
	for i := 0; i < len(pat); i++ {
		if pat[i] == '\\' && i+1 < len(pat) {
			i++
		}
		b.WriteByte(pat[i])
	}
	return b.String()
}
