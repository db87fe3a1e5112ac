package interp

import (
	"context"
	"strconv"
	"strings"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/pattern"
	"github.com/wasmsand/wasmsand/shell/syntax"
)

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
	return r.expandWordFieldsGlob(ctx, w, true)
}

// expandWordFieldsGlob is expandWordFields, with pathname expansion or without.
func (r *Runner) expandWordFieldsGlob(ctx context.Context, w *syntax.Word, glob bool) ([]string, error) {
	var out []string
	alts := [][]syntax.Part{w.Parts}
	if r.opts.braceexpand && expand.HasBraces(w) {
		alts = expand.Braces(w.Parts)
	}
	c := ctxArgs
	if !r.opts.posix && assignmentLike(w) {
		c = ctxAssignArg // NAME=a:~ gets its tildes expanded, as bash does
	}
	for _, parts := range alts {
		b := &expand.Builder{}
		if err := r.expandParts(ctx, parts, false, c, b); err != nil {
			return nil, err
		}
		fs, err := r.finishFieldsGlob(b.Fields, glob)
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
	b := &expand.Builder{OneString: true}
	if err := r.expandParts(ctx, w.Parts, false, c, b); err != nil {
		return "", err
	}
	return expand.Join(b.Fields, " "), nil
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
	b := &expand.Builder{}
	if err := r.expandParts(ctx, w.Parts, true, ctxNoSplit, b); err != nil {
		return "", err
	}
	return expand.Join(b.Fields, " "), nil
}

// expandPattern expands a word into a pattern: what was quoted is escaped.
func (r *Runner) expandPattern(ctx context.Context, w *syntax.Word, inDq bool) (string, error) {
	if w == nil {
		return "", nil
	}
	b := &expand.Builder{OneString: true} // (an unquoted $* joins by IFS here too)
	if err := r.expandParts(ctx, w.Parts, inDq, ctxNoSplit, b); err != nil {
		return "", err
	}
	var s strings.Builder
	for i, f := range b.Fields {
		if i > 0 {
			s.WriteByte(' ')
		}
		for _, p := range f.Parts {
			if p.Quote {
				s.WriteString(pattern.QuoteMeta(p.S))
			} else {
				s.WriteString(p.S)
			}
		}
	}
	return s.String(), nil
}

// expandParts expands the parts of a word into b. inDq: inside double
// quotes (everything quoted).
func (r *Runner) expandParts(ctx context.Context, parts []syntax.Part, inDq bool, c wordCtx, b *expand.Builder) (err error) {
	if b.Limit == 0 {
		b.Limit = r.oneVarLimit()
	}
	defer func() {
		if err == nil && b.Size > b.Limit {
			err = &fatalError{msg: "xrealloc: cannot allocate " + strconv.Itoa(b.Size) + " bytes (an expansion; the sandbox's shell may hold " +
				strconv.Itoa(b.Limit>>20) + " MiB in one)"}
		}
	}()
	for i, part := range parts {
		if b.Size > b.Limit {
			return nil // (the deferred check reports it)
		}
		b.IFS = r.ifs() // (each expansion splits with the IFS it had)
		switch p := part.(type) {
		case *syntax.Lit:
			s := p.Val
			if i == 0 && !inDq && strings.HasPrefix(s, "~") && (c == ctxArgs || c == ctxAssign || c == ctxNoSplit) {
				stops := "/"
				if c == ctxAssign {
					stops = "/:"
				}
				if t, rest, ok := expand.Tilde(tildeEnv{r}, s, len(parts) == 1, stops); ok {
					b.Add(t, true, false)
					s = rest
				}
			}
			if c == ctxAssign && !inDq && strings.Contains(s, ":~") {
				s = expand.TildeAfterColons(tildeEnv{r}, s)
			}
			if c == ctxAssignArg && i == 0 && !inDq {
				if eq := strings.IndexByte(s, '='); eq > 0 && strings.Contains(s[eq:], "~") {
					val := s[eq+1:]
					if strings.HasPrefix(val, "~") {
						if t, rest, ok := expand.Tilde(tildeEnv{r}, val, len(parts) == 1, "/:"); ok {
							val = t + rest
						}
					}
					s = s[:eq+1] + expand.TildeAfterColons(tildeEnv{r}, val)
				}
			}
			if !p.Escapes {
				b.Add(s, inDq, b.SplitLits && !inDq)
				continue
			}
			expand.AddEscaped(b, s, inDq, b.SplitLits)
		case *syntax.SglQuoted:
			b.Add(p.Val, true, false)
		case *syntax.DblQuoted:
			if len(p.Parts) == 0 {
				b.Add("", true, false)
			}
			nf, size, keep, nparts := len(b.Fields), b.Size, false, 0
			if nf > 0 {
				keep, nparts = b.Cur().Keep, len(b.Cur().Parts)
			}
			if err := r.expandParts(ctx, p.Parts, true, c, b); err != nil {
				return err
			}
			if b.Size == size && len(b.Fields) == max(nf, 1) && r.emptyAtOnly(p.Parts) {
				// "$x$@" with no parameters and x empty is no word, as
				// "$@" alone is (a quoted null comes only from text)
				f := b.Cur()
				f.Keep, f.Parts = keep, f.Parts[:nparts]
			}
		case *syntax.ParamExp:
			if err := r.expandParam(ctx, p, inDq, b); err != nil {
				return err
			}
		case *syntax.CmdSubst:
			if p.Err != nil {
				return r.comsubSyntaxError(p.Err)
			}
			out, err := r.cmdSubst(ctx, p.Body)
			if err != nil {
				return err
			}
			b.Add(out, inDq, !inDq)
		case *syntax.ArithExp:
			n, err := r.evalArith(ctx, p.X)
			if err != nil {
				return err
			}
			b.Add(itoa64(n), inDq, !inDq)
		case *syntax.ProcSubst:
			path, err := r.procSubst(ctx, p)
			if err != nil {
				return err
			}
			b.Add(path, inDq, false)
		}
	}
	return nil
}

// emptyAtOnly: parts are plain parameter expansions (and command
// substitutions, which the caller knows printed nothing), one of them a
// list ($@, ${a[@]}) with no elements.
func (r *Runner) emptyAtOnly(parts []syntax.Part) bool {
	at := false
	for _, part := range parts {
		if _, ok := part.(*syntax.CmdSubst); ok {
			continue // (one that printed nothing is as an empty $x)
		}
		pe, ok := part.(*syntax.ParamExp)
		if !ok || pe.Op != syntax.OpNone || pe.Length || pe.Indirect || pe.Bad != "" {
			return false
		}
		switch {
		case pe.Name == "@" && pe.Index == nil:
			at = at || len(r.params) == 0
			if len(r.params) > 0 {
				return false
			}
		case pe.Index != nil && pe.Index.Src == "@":
			if n := len(r.values(r.lookup(pe.Name))); n > 0 {
				return false
			}
			at = true
		}
	}
	return at
}

// tildeEnv is the shell state tilde expansion reads.
type tildeEnv struct{ r *Runner }

func (e tildeEnv) Get(name string) (string, bool) { return e.r.getVar(name) }
func (e tildeEnv) DirStack(prefix string) string  { return e.r.dirStackEntry(prefix) }
func (e tildeEnv) Home(user string) string        { return expand.HomeOf(e.r.cfg.FS, user) }

// ifs is $IFS as expand.Split takes it (cached until IFS changes).
func (r *Runner) ifs() *expand.IFS {
	if r.ifsCache == nil {
		v, ok := r.getVar("IFS")
		if !ok {
			v = " \t\n"
		}
		r.ifsCache = expand.NewIFS(v)
	}
	return r.ifsCache
}

// finishFields splits the fields on IFS, expands globs and removes quotes.
func (r *Runner) finishFields(fields []expand.Field) ([]string, error) {
	return r.finishFieldsGlob(fields, true)
}

func (r *Runner) finishFieldsGlob(fields []expand.Field, glob bool) ([]string, error) {
	var out []string
	for _, f := range fields {
		for _, sf := range expand.Split(f, r.ifs()) {
			if len(sf.Parts) == 0 && !sf.Keep {
				continue
			}
			if glob && !r.opts.noglob && expand.HasGlob(sf, r.shopt.extglob) {
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
			for _, p := range sf.Parts {
				s.WriteString(p.S)
			}
			out = append(out, s.String())
		}
	}
	return out, nil
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
