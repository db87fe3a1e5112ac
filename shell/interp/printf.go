package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell/expand"
)

// bashPrintf formats like bash's printf builtin: the format is reused while
// arguments remain; %b expands escapes in its argument and \c in it ends all
// output; numbers accept C constants (0x1f, 017) and 'c for a character's
// code. Bad numbers are reported (problems) and count as 0, as in bash.
func bashPrintf(format string, args []string, env *printfEnv) (out string, problems, notes []string) {
	var b strings.Builder
	p := printfState{args: args, clock: env}
	for {
		stop := p.pass(&b, format)
		if stop || p.used == 0 || p.next >= len(args) {
			break
		}
		p.used = 0
	}
	return b.String(), p.problems, p.notes
}

// printfEnv is what printf needs of the shell: for %(fmt)T the times (now,
// the shell's start for -2) and the formatting in the sandbox's zone; for
// %n a variable to set.
type printfEnv struct {
	now, start time.Time
	format     func(layout string, t time.Time) string
	setCount   func(name string, n int) error
}

type printfState struct {
	clock    *printfEnv // (nil: no %(fmt)T or %n)
	notes    []string   // messages that leave the status alone (warnings)
	args     []string
	next     int
	used     int // arguments consumed in this pass of the format
	problems []string
}

func (p *printfState) arg() (string, bool) {
	if p.next >= len(p.args) {
		return "", false
	}
	a := p.args[p.next]
	p.next++
	p.used++
	return a, true
}

// pass writes the format once; it reports whether output must stop (\c).
func (p *printfState) pass(b *strings.Builder, f string) bool {
	for i := 0; i < len(f); {
		c := f[i]
		switch {
		case c == '\\':
			p.checkHex(f[i:])
			n, stop := writeEscape(b, f[i:], false)
			if stop {
				return true
			}
			i += n
		case c == '%' && i+1 < len(f) && f[i+1] == '%':
			b.WriteByte('%')
			i += 2
		case c == '%':
			n, stop := p.directive(b, f[i:])
			if stop {
				return true
			}
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return false
}

// directive formats one %... conversion at the start of f.
func (p *printfState) directive(b *strings.Builder, f string) (int, bool) {
	i := 1
	flags := ""
	for i < len(f) && strings.IndexByte("-+ #0'", f[i]) >= 0 {
		if f[i] != '\'' {
			flags += string(f[i])
		}
		i++
	}
	width, prec := "", ""
	readNum := func() string {
		if i < len(f) && f[i] == '*' {
			i++
			a, _ := p.arg()
			return strconv.FormatInt(p.integer(a), 10)
		}
		start := i
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		return f[start:i]
	}
	width = readNum()
	if strings.HasPrefix(width, "-") {
		flags, width = flags+"-", width[1:]
	}
	hasPrec := false
	if i < len(f) && f[i] == '.' {
		i++
		hasPrec = true
		prec = readNum()
		if prec == "" {
			prec = "0"
		}
	}
	// Length modifiers mean nothing here.
	for i < len(f) && strings.IndexByte("hjlLtz", f[i]) >= 0 {
		i++
	}
	if i >= len(f) {
		p.problems = append(p.problems, "`"+f+"': missing format character")
		return len(f), true
	}
	verb := f[i]
	i++
	spec := "%" + flags + width
	if hasPrec {
		spec += "." + prec
	}
	if verb == '(' && p.clock != nil {
		end := closeParen(f[i:])
		if end >= 0 && i+end+1 < len(f) && f[i+end+1] != 'T' {
			// bash prints such a directive as it is, with a warning
			c := f[i+end+1]
			p.notes = append(p.notes, "warning: `"+string(c)+"': invalid time format specification")
			b.WriteString(f[:i+end+2])
			return i + end + 2, false
		}
		if end >= 0 && i+end+1 < len(f) && f[i+end+1] == 'T' {
			layout := f[i : i+end]
			i += end + 2
			t := p.clock.now
			if a, ok := p.arg(); ok {
				switch n := p.integer(a); n {
				case -1:
				case -2:
					t = p.clock.start
				default:
					t = time.Unix(n, 0)
				}
			}
			if layout == "" {
				layout = "%X"
			}
			b.WriteString(cpad(cprec(p.clock.format(layout, t), hasPrec, prec), flags, width))
			return i, false
		}
	}
	switch verb {
	case 'd', 'i':
		a, _ := p.arg()
		fmt.Fprintf(b, spec+"d", p.integer(a))
	case 'u', 'o', 'x', 'X':
		a, _ := p.arg()
		v := "d"
		if verb != 'u' {
			v = string(verb)
		}
		// (C has no sign for unsigned conversions: + and space do nothing)
		spec = strings.NewReplacer("+", "", " ", "").Replace(spec)
		fmt.Fprintf(b, spec+v, p.unsigned(a))
	case 'n':
		// the number of bytes printed so far goes to the variable named
		if a, ok := p.arg(); ok && p.clock != nil && p.clock.setCount != nil {
			if err := p.clock.setCount(a, b.Len()); err != nil {
				p.problems = append(p.problems, err.Error())
			}
		}
	case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
		a, _ := p.arg()
		v := string(verb)
		switch verb {
		case 'F':
			v = "f"
		case 'a':
			v = "x"
		case 'A':
			v = "X"
		}
		f := p.float(a)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			// C's words for them, in the conversion's case
			word := "inf"
			switch {
			case math.IsNaN(f):
				word = "nan"
			case f < 0:
				word = "-inf"
			case strings.Contains(flags, "+"):
				word = "+inf"
			}
			if verb >= 'A' && verb <= 'Z' {
				word = strings.ToUpper(word)
			}
			b.WriteString(cpad(word, strings.ReplaceAll(flags, "0", ""), width))
			break
		}
		fmt.Fprintf(b, spec+v, f)
	case 'c':
		a, _ := p.arg()
		if a != "" {
			_, size := utf8.DecodeRuneInString(a)
			a = a[:size]
		} else {
			a = "\x00" // C's %c of an empty string's terminating NUL
		}
		b.WriteString(cpad(a, flags, width))
	case 's':
		a, _ := p.arg()
		b.WriteString(cpad(cprec(a, hasPrec, prec), flags, width))
	case 'b':
		a, _ := p.arg()
		var eb strings.Builder
		stop := false
		for j := 0; j < len(a); {
			if a[j] == '\\' {
				p.checkHex(a[j:])
				n, st := writeEscape(&eb, a[j:], true)
				if st {
					stop = true
					break
				}
				j += n
				continue
			}
			eb.WriteByte(a[j])
			j++
		}
		b.WriteString(cpad(cprec(eb.String(), hasPrec, prec), flags, width))
		if stop {
			return i, true
		}
	case 'q':
		a, _ := p.arg()
		b.WriteString(cpad(expand.QuoteBackslash(a), flags, width))
	case 'Q':
		// bash 5.2: the precision cuts the argument before it is quoted
		a, _ := p.arg()
		if hasPrec {
			if n, err := strconv.Atoi(prec); err == nil && n < len(a) {
				a = a[:n]
			}
		}
		b.WriteString(cpad(expand.QuoteBackslash(a), flags, width))
	default:
		p.problems = append(p.problems, fmt.Sprintf("`%c': invalid format character", verb))
		return len(f), true
	}
	return i, false
}

// closeParen finds the ) that closes %( in s (which follows it), counting
// the parentheses of the time format inside: "%x (foo) %X)T".
func closeParen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

// cpad pads s to width as C's printf does: counting bytes, with spaces
// (a 0 flag means nothing for strings), on the right with -.
func cpad(s, flags, width string) string {
	w, _ := strconv.Atoi(width)
	if len(s) >= w {
		return s
	}
	pad := strings.Repeat(" ", w-len(s))
	if strings.Contains(flags, "-") {
		return s + pad
	}
	return pad + s
}

// cprec cuts s to a precision of bytes, as C's %.Ns.
func cprec(s string, has bool, prec string) string {
	if !has {
		return s
	}
	if n, err := strconv.Atoi(prec); err == nil && n < len(s) {
		return s[:n]
	}
	return s
}

// checkHex notes bash's complaint about \x without a hex digit.
func (p *printfState) checkHex(s string) {
	if len(s) >= 2 && s[1] == 'x' && (len(s) < 3 || !isHex(s[2])) {
		p.notes = append(p.notes, `missing hex digit for \x`)
	}
}

// unsigned parses an argument of %u %o %x %X as strtoumax does: negative
// numbers wrap, larger ones are clamped with a warning.
func (p *printfState) unsigned(a string) uint64 {
	s := strings.TrimSpace(a)
	if s == "" || s[0] == '\'' || s[0] == '"' {
		return uint64(p.integer(a))
	}
	neg := false
	t := s
	if t[0] == '-' || t[0] == '+' {
		neg, t = t[0] == '-', t[1:]
	}
	u, err := strconv.ParseUint(t, 0, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			p.notes = append(p.notes, "warning: "+a+": Numerical result out of range")
			return math.MaxUint64
		}
		return uint64(p.integer(a))
	}
	if neg {
		return -u
	}
	return u
}

// integer parses a printf numeric argument like bash.
func (p *printfState) integer(a string) int64 {
	s := strings.TrimSpace(a)
	if s == "" {
		return 0
	}
	if s[0] == '\'' || s[0] == '"' {
		if len(s) == 1 {
			return 0
		}
		r, _ := utf8.DecodeRuneInString(s[1:])
		return int64(r)
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		// strtoimax: clamped, with a warning (the status stays 0)
		p.notes = append(p.notes, "warning: "+a+": Numerical result out of range")
		if strings.HasPrefix(s, "-") {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	if err != nil {
		// bash uses the leading digits and complains.
		p.problems = append(p.problems, a+": invalid number")
		j := 0
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, _ = strconv.ParseInt(s[:j], 10, 64)
	}
	return n
}

func (p *printfState) float(a string) float64 {
	s := strings.TrimSpace(a)
	if s == "" {
		return 0
	}
	if s[0] == '\'' || s[0] == '"' {
		return float64(p.integer(s))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if n, ierr := strconv.ParseInt(s, 0, 64); ierr == nil {
			return float64(n)
		}
		p.problems = append(p.problems, a+": invalid number")
		return 0
	}
	return f
}

// writeEscape writes the backslash escape at the start of s and returns its
// length; stop is true for \c. In %b arguments (inB) octal escapes are \0NNN.
func writeEscape(b *strings.Builder, s string, inB bool) (n int, stop bool) {
	if len(s) < 2 {
		b.WriteByte('\\')
		return 1, false
	}
	simple := map[byte]byte{'a': 7, 'b': 8, 'e': 27, 'E': 27, 'f': 12, 'n': '\n', 'r': '\r', 't': '\t', 'v': 11, '\\': '\\', '"': '"', '\'': '\'', '?': '?'}
	c := s[1]
	if v, ok := simple[c]; ok && !(inB && (c == '"' || c == '\'' || c == '?')) {
		b.WriteByte(v)
		return 2, false
	}
	switch {
	case c == 'c' && inB:
		return 2, true
	case c >= '0' && c <= '7':
		start, max := 1, 3
		if inB && c == '0' {
			start, max = 2, 3
		}
		j := start
		for j < len(s) && j < start+max && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(s[start:j], 8, 16)
		if j == start {
			v = 0
		}
		b.WriteByte(byte(v))
		return j, false
	case c == 'x':
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			b.WriteString(`\x`)
			return 2, false
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 8)
		b.WriteByte(byte(v))
		return j, false
	case c == 'u' || c == 'U':
		max := 4
		if c == 'U' {
			max = 8
		}
		j := 2
		for j < len(s) && j < 2+max && isHex(s[j]) {
			j++
		}
		if j == 2 {
			b.WriteString(s[:2])
			return 2, false
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 32)
		if v > math.MaxInt32 {
			v = utf8.RuneError
		}
		b.WriteRune(rune(v))
		return j, false
	}
	b.WriteString(s[:2])
	return 2, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
