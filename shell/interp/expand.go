package interp

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

// A word expands into fields; each field is parts that remember how they
// were quoted, which decides splitting, globbing and pattern matching.
type fpart struct {
	s     string
	quote bool // quoted: taken literally
	split bool // the result of an unquoted expansion: IFS splitting applies
}

type field struct {
	parts []fpart
	keep  bool // quoted (maybe empty) content: the field survives empty
	brace bool
}

// fieldBuilder collects fields while a word expands.
type fieldBuilder struct {
	fields []field
	// splitLits: literal text is split too (the operand of an unquoted
	// ${x:-word}, whose whole result is subject to splitting)
	splitLits bool
	// oneString: the word becomes one string (assignments, case words,
	// [[ ]] operands), where an unquoted $* is joined by IFS as "$*" is
	oneString bool
	// size is the bytes added; past limit (what one variable may hold)
	// the rest is dropped and the expansion fails (expandParts), so that
	// no word, here-document or argument grows the host's memory past it
	size, limit int
}

func (b *fieldBuilder) cur() *field {
	if len(b.fields) == 0 {
		b.fields = append(b.fields, field{})
	}
	return &b.fields[len(b.fields)-1]
}

func (b *fieldBuilder) add(s string, quote, split bool) {
	if b.size += len(s); b.limit > 0 && b.size > b.limit {
		return
	}
	f := b.cur()
	if quote {
		f.keep = true
	}
	if s == "" {
		return
	}
	if n := len(f.parts); n > 0 && f.parts[n-1].quote == quote && f.parts[n-1].split == split {
		f.parts[n-1].s += s
		return
	}
	f.parts = append(f.parts, fpart{s: s, quote: quote, split: split})
}

// addWords adds the words of a list expansion ("$@", "${a[@]}"): the first
// joins the current field, each other starts a field of its own.
func (b *fieldBuilder) addWords(words []string, quote, split bool) {
	for i, w := range words {
		if i > 0 {
			b.fields = append(b.fields, field{})
		}
		b.add(w, quote, split)
	}
}

// wordCtx says what a word is expanded for.
type wordCtx uint8

const (
	ctxArgs      wordCtx = iota // command words: everything
	ctxAssign                   // assignment values: tilde after = and :, no splitting or globbing
	ctxNoSplit                  // one string (case word, [[ ]] operands, redirection targets)
	ctxAssignArg                // a command word that looks like an assignment: split, but tildes after = and :
)

// assignmentLike: the word starts NAME= in unquoted text.
func assignmentLike(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	i := strings.IndexByte(l.Val, '=')
	if i <= 0 {
		return false
	}
	return syntax.ValidName(strings.TrimSuffix(l.Val[:i], "+"))
}

// expandArgs expands command words into arguments.
func (r *Runner) expandArgs(ctx context.Context, words []*syntax.Word) ([]string, error) {
	out := make([]string, 0, len(words))
	for _, w := range words {
		if s, ok := simpleWord(w); ok {
			out = append(out, s)
			continue
		}
		ws, err := r.expandWordFields(ctx, w)
		if err != nil {
			return nil, err
		}
		out = append(out, ws...)
	}
	return out, nil
}

// simpleWord is the text of a word with nothing to expand.
func simpleWord(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || l.Escapes {
		return "", false
	}
	s := l.Val
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '{', '~', '@', '+', '!':
			return "", false
		}
	}
	return s, true
}

// expandWordFields expands one word fully: braces, expansions, splitting,
// globbing.
func (r *Runner) expandWordFields(ctx context.Context, w *syntax.Word) ([]string, error) {
	var out []string
	alts := [][]syntax.Part{w.Parts}
	if r.opts.braceexpand && hasBrace(w) {
		alts = braceExpand(w.Parts)
	}
	c := ctxArgs
	if !r.opts.posix && assignmentLike(w) {
		c = ctxAssignArg // NAME=a:~ gets its tildes expanded, as bash does
	}
	for _, parts := range alts {
		b := &fieldBuilder{}
		if err := r.expandParts(ctx, parts, false, c, b); err != nil {
			return nil, err
		}
		fs, err := r.finishFields(b.fields)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// expandString expands a word into one string (no splitting or globbing).
func (r *Runner) expandString(ctx context.Context, w *syntax.Word, c wordCtx) (string, error) {
	if w == nil {
		return "", nil
	}
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !l.Escapes && !strings.HasPrefix(l.Val, "~") && (c != ctxAssign || !strings.Contains(l.Val, ":~")) {
			return l.Val, nil
		}
	}
	b := &fieldBuilder{oneString: true}
	if err := r.expandParts(ctx, w.Parts, false, c, b); err != nil {
		return "", err
	}
	return joinFields(b.fields, " "), nil
}

// expandQuoted expands parts as inside double quotes (here-documents,
// arithmetic, subscripts).
func (r *Runner) expandQuoted(ctx context.Context, w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			return l.Val, nil
		}
	}
	b := &fieldBuilder{}
	if err := r.expandParts(ctx, w.Parts, true, ctxNoSplit, b); err != nil {
		return "", err
	}
	return joinFields(b.fields, " "), nil
}

// expandPattern expands a word into a pattern: what was quoted is escaped.
func (r *Runner) expandPattern(ctx context.Context, w *syntax.Word, inDq bool) (string, error) {
	if w == nil {
		return "", nil
	}
	b := &fieldBuilder{}
	if err := r.expandParts(ctx, w.Parts, inDq, ctxNoSplit, b); err != nil {
		return "", err
	}
	var s strings.Builder
	for i, f := range b.fields {
		if i > 0 {
			s.WriteByte(' ')
		}
		for _, p := range f.parts {
			if p.quote {
				s.WriteString(pattern.QuoteMeta(p.s))
			} else {
				s.WriteString(p.s)
			}
		}
	}
	return s.String(), nil
}

func joinFields(fs []field, sep string) string {
	if len(fs) == 1 {
		f := fs[0]
		if len(f.parts) == 1 {
			return f.parts[0].s
		}
	}
	var s strings.Builder
	for i, f := range fs {
		if i > 0 {
			s.WriteString(sep)
		}
		for _, p := range f.parts {
			s.WriteString(p.s)
		}
	}
	return s.String()
}

// expandParts expands the parts of a word into b. inDq: inside double
// quotes (everything quoted).
func (r *Runner) expandParts(ctx context.Context, parts []syntax.Part, inDq bool, c wordCtx, b *fieldBuilder) (err error) {
	if b.limit == 0 {
		b.limit = r.oneVarLimit()
	}
	defer func() {
		if err == nil && b.size > b.limit {
			err = &fatalError{msg: "xrealloc: cannot allocate " + strconv.Itoa(b.size) + " bytes (an expansion; the sandbox's shell may hold " +
				strconv.Itoa(b.limit>>20) + " MiB in one)"}
		}
	}()
	for i, part := range parts {
		if b.size > b.limit {
			return nil // (the deferred check reports it)
		}
		switch p := part.(type) {
		case *syntax.Lit:
			s := p.Val
			if i == 0 && !inDq && strings.HasPrefix(s, "~") && (c == ctxArgs || c == ctxAssign || c == ctxNoSplit) {
				stops := "/"
				if c == ctxAssign {
					stops = "/:"
				}
				if t, rest, ok := r.tildeUntil(s, len(parts) == 1, stops); ok {
					b.add(t, true, false)
					s = rest
				}
			}
			if c == ctxAssign && !inDq && strings.Contains(s, ":~") {
				s = r.tildeAfterColons(s)
			}
			if c == ctxAssignArg && i == 0 && !inDq {
				if eq := strings.IndexByte(s, '='); eq > 0 && strings.Contains(s[eq:], "~") {
					val := s[eq+1:]
					if strings.HasPrefix(val, "~") {
						if t, rest, ok := r.tildeUntil(val, len(parts) == 1, "/:"); ok {
							val = t + rest
						}
					}
					s = s[:eq+1] + r.tildeAfterColons(val)
				}
			}
			if !p.Escapes {
				b.add(s, inDq, b.splitLits && !inDq)
				continue
			}
			addEscaped(b, s, inDq, b.splitLits)
		case *syntax.SglQuoted:
			b.add(p.Val, true, false)
		case *syntax.DblQuoted:
			if len(p.Parts) == 0 {
				b.cur().keep = true
			}
			if err := r.expandParts(ctx, p.Parts, true, c, b); err != nil {
				return err
			}
		case *syntax.ParamExp:
			if err := r.expandParam(ctx, p, inDq, b); err != nil {
				return err
			}
		case *syntax.CmdSubst:
			out, err := r.cmdSubst(ctx, p.Body)
			if err != nil {
				return err
			}
			b.add(out, inDq, !inDq)
		case *syntax.ArithExp:
			n, err := r.evalArith(ctx, p.X)
			if err != nil {
				return err
			}
			b.add(itoa64(n), inDq, !inDq)
		case *syntax.ProcSubst:
			path, err := r.procSubst(ctx, p)
			if err != nil {
				return err
			}
			b.add(path, inDq, false)
		}
	}
	return nil
}

// addEscaped adds unquoted source text whose backslashes quote the
// character after them.
func addEscaped(b *fieldBuilder, s string, inDq, split bool) {
	split = split && !inDq
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i > start {
			b.add(s[start:i], inDq, split)
		}
		if i+1 < len(s) {
			_, size := utf8.DecodeRuneInString(s[i+1:])
			b.add(s[i+1:i+1+size], true, false)
			i += size
		} else {
			b.add("", true, false) // a lone backslash: removed, the word stays
		}
		start = i + 1
	}
	if start < len(s) {
		b.add(s[start:], inDq, split)
	}
}

// tilde expands a leading ~, ~user, ~+ or ~- in s; rest is what follows
// the prefix. whole says s is the entire word.
func (r *Runner) tilde(s string, whole bool) (string, string, bool) {
	return r.tildeUntil(s, whole, "/")
}

// tildeUntil is tilde with the characters that end the prefix ("/", and
// ":" in assignments).
func (r *Runner) tildeUntil(s string, whole bool, stops string) (string, string, bool) {
	end := strings.IndexAny(s, stops)
	if end < 0 {
		if !whole {
			return "", s, false
		}
		end = len(s)
	}
	prefix := s[1:end]
	if strings.ContainsAny(prefix, `\'"$`+"`") {
		return "", s, false
	}
	switch prefix {
	case "":
		home, ok := r.getVar("HOME")
		if !ok {
			home = r.homeOf("user")
		}
		return home, s[end:], true
	case "+":
		v, _ := r.getVar("PWD")
		return v, s[end:], true
	case "-":
		v, ok := r.getVar("OLDPWD")
		if !ok {
			return "", s, false
		}
		return v, s[end:], true
	}
	if d := r.dirStackEntry(prefix); d != "" {
		return d, s[end:], true
	}
	if h := r.homeOf(prefix); h != "" {
		return h, s[end:], true
	}
	return "", s, false
}

// tildeAfterColons expands ~ after each ':' of an assignment value.
func (r *Runner) tildeAfterColons(s string) string {
	parts := strings.Split(s, ":")
	for i := 1; i < len(parts); i++ {
		if strings.HasPrefix(parts[i], "~") {
			if t, rest, ok := r.tildeUntil(parts[i], true, "/:"); ok {
				parts[i] = t + rest
			}
		}
	}
	return strings.Join(parts, ":")
}

// homeOf looks a user's home up in the VFS /etc/passwd.
func (r *Runner) homeOf(user string) string {
	data, err := r.cfg.FS.ReadFile("/etc/passwd")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, ":")
		if len(f) >= 6 && f[0] == user {
			return f[5]
		}
	}
	return ""
}

// finishFields splits the fields on IFS, expands globs and removes quotes.
func (r *Runner) finishFields(fields []field) ([]string, error) {
	var out []string
	for _, f := range fields {
		for _, sf := range r.splitField(f) {
			if len(sf.parts) == 0 && !sf.keep {
				continue
			}
			if !r.opts.noglob && hasGlob(sf, r.shopt.extglob) {
				matches, err := r.glob(sf)
				if err != nil {
					return nil, err
				}
				if matches != nil {
					out = append(out, matches...)
					continue
				}
				if r.shopt.nullglob {
					continue
				}
			}
			var s strings.Builder
			for _, p := range sf.parts {
				s.WriteString(p.s)
			}
			out = append(out, s.String())
		}
	}
	return out, nil
}

// ifsSet is IFS split into its whitespace and other characters.
type ifsSet struct {
	ws, other string
	empty     bool
}

func (r *Runner) ifs() *ifsSet {
	if r.ifsCache != nil {
		return r.ifsCache
	}
	v, ok := r.getVar("IFS")
	if !ok {
		v = " \t\n"
	}
	s := &ifsSet{empty: v == ""}
	for _, c := range v {
		if c == ' ' || c == '\t' || c == '\n' {
			if !strings.ContainsRune(s.ws, c) {
				s.ws += string(c)
			}
		} else if !strings.ContainsRune(s.other, c) {
			s.other += string(c)
		}
	}
	r.ifsCache = s
	return s
}

// splitField applies IFS splitting to the split parts of a field.
func (r *Runner) splitField(f field) []field {
	needs := false
	for _, p := range f.parts {
		if p.split {
			needs = true
			break
		}
	}
	if !needs {
		return []field{f}
	}
	ifs := r.ifs()
	if ifs.empty {
		return []field{f}
	}
	var out []field
	cur := field{keep: f.keep}
	// pending: an IFS whitespace run was seen since the field's last text
	started := false // the current field has content or a delimiter made it
	pendingWS := false
	emit := func() {
		out = append(out, cur)
		cur = field{}
		started = false
	}
	addText := func(s string, p fpart) {
		if n := len(cur.parts); n > 0 && cur.parts[n-1].quote == p.quote && cur.parts[n-1].split == p.split {
			cur.parts[n-1].s += s
		} else {
			cur.parts = append(cur.parts, fpart{s: s, quote: p.quote, split: p.split})
		}
	}
	for _, p := range f.parts {
		if !p.split {
			if pendingWS && started {
				emit()
			}
			pendingWS = false
			addText(p.s, p)
			started = true
			if p.quote {
				cur.keep = true
			}
			continue
		}
		s := p.s
		start := 0
		for i := 0; i < len(s); {
			rn, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case strings.ContainsRune(ifs.ws, rn):
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
			case strings.ContainsRune(ifs.other, rn):
				if i > start {
					if pendingWS && started {
						emit()
					}
					addText(s[start:i], p)
					started = true
				}
				// a non-whitespace delimiter ends a field, even an empty one
				cur.keep = true
				emit()
				pendingWS = false
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
	if started || len(cur.parts) > 0 {
		out = append(out, cur)
	} else if len(out) == 0 && f.keep {
		out = append(out, field{keep: true})
	}
	return out
}

// hasGlob reports unquoted glob characters in a field.
func hasGlob(f field, extglob bool) bool {
	found := false
	for _, p := range f.parts {
		if p.quote {
			continue
		}
		if strings.ContainsAny(p.s, "*?[") || extglob && strings.Contains(p.s, "(") {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	return pattern.HasMeta(fieldPattern(f), extglob)
}

// fieldPattern renders a field as a pattern (quoted parts escaped).
func fieldPattern(f field) string {
	var s strings.Builder
	for _, p := range f.parts {
		if p.quote {
			s.WriteString(pattern.QuoteMeta(p.s))
		} else {
			s.WriteString(p.s)
		}
	}
	return s.String()
}

func itoa64(n int64) string {
	if n >= 0 && n < 10 {
		return string(rune('0' + n))
	}
	var b [24]byte
	i := len(b)
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	for u > 0 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
