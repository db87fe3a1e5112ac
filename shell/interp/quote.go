package interp

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quoting as bash prints values back (declare -p, ${x@Q}, printf %q,
// set -x): single quotes, double quotes or $'...' for unprintable text.

// quoteSingle is bash's sh_single_quote ('...' with '\” for quotes), or
// $'...' when the text has unprintable characters (${x@Q}).
func quoteSingle(s string) string {
	if needsAnsiC(s) {
		return ansiCQuote(s)
	}
	return shSingleQuote(s)
}

// shSingleQuote is sh_single_quote itself, whatever the text holds.
func shSingleQuote(s string) string {
	if s == "'" {
		return `\'`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteDouble is bash's sh_double_quote: "..." with \ before \ ` $ ".
func quoteDouble(s string) string {
	if needsAnsiC(s) {
		return ansiCQuote(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '`', '$', '"':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return b.String()
}

// quoteKey quotes an associative array key for declare -p.
func quoteKey(k string) string {
	switch {
	case needsAnsiC(k):
		return ansiCQuote(k)
	case hasShellMeta(k), k == "@", k == "*":
		return quoteDouble(k)
	}
	return k
}

func hasShellMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return true
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#':
			if i == 0 {
				return true
			}
		}
	}
	return false
}

// needsAnsiC reports unprintable characters (bash's ansic_shouldquote).
func needsAnsiC(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

// ansiCQuote is bash's ansic_quote: $'...' with C escapes and octal.
func ansiCQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case 27:
			b.WriteString(`\E`)
		case 7:
			b.WriteString(`\a`)
		case 11:
			b.WriteString(`\v`)
		case 8:
			b.WriteString(`\b`)
		case 12:
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < utf8.RuneSelf {
				if c < 0x20 || c == 0x7f {
					octal(&b, c)
				} else {
					b.WriteByte(c)
				}
				break
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 || !unicode.IsPrint(r) {
				for j := 0; j < size; j++ {
					octal(&b, s[i+j])
				}
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		i++
	}
	b.WriteByte('\'')
	return b.String()
}

func octal(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	b.WriteByte('0' + (c>>6)&7)
	b.WriteByte('0' + (c>>3)&7)
	b.WriteByte('0' + c&7)
}

// quoteBackslash is printf %q: backslashes before special characters,
// $'...' for unprintable text, ” for the empty string.
func quoteBackslash(s string) string {
	if s == "" {
		return "''"
	}
	if needsAnsiC(s) {
		return ansiCQuote(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '!', '"', '$', '&', '\'', '(', ')', '*', ',', ';', '<', '>', '?', '[', '\\', ']', '^', '`', '{', '|', '}':
			b.WriteByte('\\')
		case '#':
			if i == 0 {
				b.WriteByte('\\')
			}
		case '~':
			if i == 0 {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// xtraceQuote quotes a word for set -x output: as bash, single quotes when
// the word has characters special to the shell.
func xtraceQuote(s string) string {
	if s == "" {
		return "''"
	}
	// as bash: shell metacharacters mean single quotes (control
	// characters and all), else unprintable ones mean $'...'
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return shSingleQuote(s)
		case '~', '#':
			if i == 0 {
				return shSingleQuote(s)
			}
		}
	}
	if needsAnsiC(s) {
		return ansiCQuote(s)
	}
	return s
}

// attrFlags is the letters declare -p shows for a variable.
func attrFlags(v *Var) string {
	var b strings.Builder
	if v.isArray() {
		b.WriteByte('a')
	}
	if v.isAssoc() {
		b.WriteByte('A')
	}
	if v.attrs&attrInteger != 0 {
		b.WriteByte('i')
	}
	if v.attrs&attrNameref != 0 {
		b.WriteByte('n')
	}
	if v.attrs&attrReadonly != 0 {
		b.WriteByte('r')
	}
	if v.attrs&attrTrace != 0 {
		b.WriteByte('t')
	}
	if v.attrs&attrExport != 0 {
		b.WriteByte('x')
	}
	if v.attrs&attrCapital != 0 {
		b.WriteByte('c')
	}
	if v.attrs&attrLower != 0 {
		b.WriteByte('l')
	}
	if v.attrs&attrUpper != 0 {
		b.WriteByte('u')
	}
	return b.String()
}

// declareLine is one line of declare -p (without the newline).
func (r *Runner) declareLine(name string, v *Var) string {
	flags := attrFlags(v)
	if flags == "" {
		flags = "-"
	}
	head := "declare -" + flags + " " + name
	switch {
	case (v.isArray() || v.isAssoc()) && !v.set && v.dyn == dynNone:
		return head
	case v.isAssoc():
		var b strings.Builder
		b.WriteString(head + "=(")
		v.assoc.each(func(k, val string) {
			b.WriteString("[" + quoteKey(k) + "]=" + quoteDouble(val) + " ")
		})
		b.WriteString(")")
		return b.String()
	case v.isArray():
		keys := r.keys(v)
		vals := r.values(v)
		var b strings.Builder
		b.WriteString(head + "=(")
		for i := range keys {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + keys[i] + "]=" + quoteDouble(vals[i]))
		}
		b.WriteString(")")
		return b.String()
	}
	s, ok := r.scalar(v)
	if !ok {
		return head
	}
	return head + "=" + quoteDouble(s)
}

func itoa(n int) string { return strconv.Itoa(n) }
