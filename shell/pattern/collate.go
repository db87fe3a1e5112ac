package pattern

// collatingNames are POSIX names for [.name.] collating symbols (the portable character set).
var collatingNames = map[string]rune{
	"NUL": 0, "SOH": 1, "STX": 2, "ETX": 3,
	"EOT": 4, "ENQ": 5, "ACK": 6, "alert": 7,
	"BS": 8, "backspace": 8, "HT": 9, "tab": 9,
	"LF": 10, "newline": 10, "VT": 11, "vertical-tab": 11,
	"FF": 12, "form-feed": 12, "CR": 13, "carriage-return": 13,
	"SO": 14, "SI": 15, "DLE": 16, "DC1": 17,
	"DC2": 18, "DC3": 19, "DC4": 20, "NAK": 21,
	"SYN": 22, "ETB": 23, "CAN": 24, "EM": 25,
	"SUB": 26, "ESC": 27, "FS": 28, "IS4": 28,
	"GS": 29, "IS3": 29, "IS2": 30, "RS": 30,
	"IS1": 31, "US": 31, "space": 32, "exclamation-mark": 33,
	"quotation-mark": 34, "number-sign": 35, "dollar-sign": 36, "percent-sign": 37,
	"ampersand": 38, "apostrophe": 39, "left-parenthesis": 40, "right-parenthesis": 41,
	"asterisk": 42, "plus-sign": 43, "comma": 44, "dash": 45,
	"hyphen": 45, "hyphen-minus": 45, "minus": 45, "full-stop": 46,
	"period": 46, "slash": 47, "solidus": 47, "zero": 48,
	"one": 49, "two": 50, "three": 51, "four": 52,
	"five": 53, "six": 54, "seven": 55, "eight": 56,
	"nine": 57, "colon": 58, "semicolon": 59, "less-than-sign": 60,
	"equals-sign": 61, "greater-than-sign": 62, "question-mark": 63, "commercial-at": 64,
	"left-square-bracket": 91, "backslash": 92, "reverse-solidus": 92, "right-square-bracket": 93,
	"circumflex": 94, "circumflex-accent": 94, "underscore": 95, "grave-accent": 96,
	"left-brace": 123, "left-curly-bracket": 123, "vertical-line": 124, "right-brace": 125,
	"right-curly-bracket": 125, "tilde": 126, "DEL": 127,
}
