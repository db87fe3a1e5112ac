package syntax

import (
	"strings"
	"unicode/utf8"
)

// EscMode selects which backslash escapes DecodeEscapes knows.
type EscMode uint8

const (
	// EscAnsiC is $'...': \cX control characters, \' \" \?, octal \nnn.
	EscAnsiC EscMode = iota
	// EscEcho is echo -e and printf %b: \c ends the output, octal is \0nnn.
	EscEcho
)

// DecodeEscapes expands backslash escapes; stop reports a \c (EscEcho),
// after which nothing more is output.
func DecodeEscapes(s string, mode EscMode) (out string, stop bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		c = s[i]
		switch c {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '\\':
			b.WriteByte('\\')
		case '\'', '"', '?':
			if mode == EscAnsiC {
				b.WriteByte(c)
			} else {
				b.WriteByte('\\')
				b.WriteByte(c)
			}
		case 'c':
			if mode == EscEcho {
				return b.String(), true
			}
			if i+1 < len(s) {
				i++
				d := s[i]
				if d == '\\' && i+1 < len(s) && s[i+1] == '\\' {
					i++
				}
				if d >= 'a' && d <= 'z' {
					d -= 'a' - 'A'
				}
				if d == '?' {
					b.WriteByte(0x7f)
				} else {
					b.WriteByte(d & 0x1f)
				}
			} else {
				b.WriteString(`\c`)
			}
		case 'x':
			if mode == EscAnsiC && i+1 < len(s) && s[i+1] == '{' {
				// $'\x{HHH}': every hex digit up to the brace, the low byte
				// of their value (bash's ksh93 form; \x{} is a NUL)
				j := i + 2
				v := 0
				for ; j < len(s) && isHexDigit(s[j]); j++ {
					v = v*16 + hexVal(s[j:j+1])
				}
				if j < len(s) && s[j] == '}' {
					j++
				}
				b.WriteByte(byte(v & 0xff))
				i = j - 1
				continue
			}
			j := i + 1
			for j < len(s) && j < i+3 && isHexDigit(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(hexVal(s[i+1 : j])))
			i = j - 1
		case 'u', 'U':
			max := 4
			if c == 'U' {
				max = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+max && isHexDigit(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			v := hexVal(s[i+1 : j])
			if v > utf8.MaxRune {
				v = utf8.RuneError
			}
			b.WriteRune(rune(v))
			i = j - 1
		default:
			if c >= '0' && c <= '7' {
				start := i
				if mode == EscEcho {
					if c != '0' {
						b.WriteByte('\\')
						b.WriteByte(c)
						continue
					}
					start = i + 1
				}
				j := start
				for j < len(s) && j < start+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v := 0
				for _, d := range s[start:j] {
					v = v*8 + int(d-'0')
				}
				b.WriteByte(byte(v))
				i = j - 1
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + int(c-'a'+10)
		default:
			v = v*16 + int(c-'A'+10)
		}
	}
	return v
}
