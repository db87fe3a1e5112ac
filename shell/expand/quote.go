package expand

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quoting as bash prints values back (declare -p, ${x@Q}, printf %q,
// set -x): single quotes, double quotes or $'...' for unprintable text.

// QuoteSingle is bash's sh_single_quote ('...' with '\” for quotes), or
// $'...' when the text has unprintable characters (${x@Q}).
func QuoteSingle(s string) string {
	if NeedsANSIC(s) {
		return QuoteANSIC(s)
	}
	return ShSingleQuote(s)
}

// ShSingleQuote is sh_single_quote itself, whatever the text holds.
func ShSingleQuote(s string) string {
	if s == "'" {
		return `\'`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// QuoteDouble is bash's sh_double_quote: "..." with \ before \ ` $ ".
func QuoteDouble(s string) string {
	if NeedsANSIC(s) {
		return QuoteANSIC(s)
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

// QuoteKey quotes an associative array key for declare -p.
func QuoteKey(k string) string {
	switch {
	case NeedsANSIC(k):
		return QuoteANSIC(k)
	case HasShellMeta(k), k == "@", k == "*":
		return QuoteDouble(k)
	}
	return k
}

func HasShellMeta(s string) bool {
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

// NeedsANSIC reports unprintable characters (bash's ansic_shouldquote).
func NeedsANSIC(s string) bool {
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

// QuoteANSIC is bash's ansic_quote: $'...' with C escapes and octal.
func QuoteANSIC(s string) string {
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

// QuoteBackslash is printf %q: backslashes before special characters,
// $'...' for unprintable text, ” for the empty string.
func QuoteBackslash(s string) string {
	if s == "" {
		return "''"
	}
	if NeedsANSIC(s) {
		return QuoteANSIC(s)
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

// QuoteXtrace quotes a word for set -x output: as bash, single quotes when
// the word has characters special to the shell.
func QuoteXtrace(s string) string {
	if s == "" {
		return "''"
	}
	// as bash: shell metacharacters mean single quotes (control
	// characters and all), else unprintable ones mean $'...'
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return ShSingleQuote(s)
		case '~', '#':
			if i == 0 {
				return ShSingleQuote(s)
			}
		}
	}
	if NeedsANSIC(s) {
		return QuoteANSIC(s)
	}
	return s
}
