package interp

import (
	"strconv"
	"strings"
	"time"
)

// localTime is t in the sandbox's time zone: TZ (when exported, as bash
// passes it to the C library) as its own /usr/share/zoneinfo describes it,
// else read as a POSIX TZ string (EST5EDT, CET-1CEST,M3.5.0,M10.5.0/3),
// else UTC. The host's zone never shows.
func (r *Runner) localTime(t time.Time) time.Time {
	tz := ""
	if v := r.lookup("TZ"); v != nil && v.attrs&attrExport != 0 {
		tz = v.str
	}
	file := strings.HasPrefix(tz, ":")
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" || tz == "UTC" || tz == "UTC0" || strings.Contains(tz, "..") {
		return t.UTC()
	}
	if r.zoneName == tz && r.zone != nil {
		return t.In(r.zone)
	}
	name := tz
	if !strings.HasPrefix(name, "/") {
		name = "/usr/share/zoneinfo/" + name
	}
	var loc *time.Location
	if data, err := r.cfg.FS.ReadFile(name); err == nil {
		loc, _ = time.LoadLocationFromTZData(tz, data)
	}
	if loc == nil && !file {
		loc = posixZone(tz)
	}
	if loc == nil {
		return t.UTC()
	}
	r.zoneName, r.zone = tz, loc
	return t.In(loc)
}

// posixZone is the zone a POSIX TZ string describes ("EST5EDT" with the
// US rules tzcode defaults to), or nil. Go reads such a string as the
// footer of a TZif file, so it is given one with no transitions.
func posixZone(tz string) *time.Location {
	std, rest := tzName(tz)
	off, rest, ok := tzOffset(rest)
	if std == "" || !ok || strings.ContainsAny(tz, "\n\x00") {
		return nil
	}
	if rest != "" {
		dst, more := tzName(rest)
		if dst == "" {
			return nil
		}
		if more != "" && more[0] != ',' {
			if _, more, ok = tzOffset(more); !ok {
				return nil
			}
		}
		if more != "" && more[0] != ',' {
			return nil
		}
	}
	be32 := func(b []byte, v int) []byte { return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	block := func(version byte) []byte {
		b := append([]byte("TZif"), version)
		b = append(b, make([]byte, 15)...)
		for _, n := range []int{0, 0, 0, 0, 1, len(std) + 1} { // isut, isstd, leap, time, type, char
			b = be32(b, n)
		}
		b = be32(b, off) // (the standard time's offset east; the footer rules)
		b = append(b, 0, 0)
		return append(append(b, std...), 0)
	}
	data := append(block('2'), block('2')...)
	data = append(data, '\n')
	data = append(append(data, tz...), '\n')
	loc, err := time.LoadLocationFromTZData(tz, data)
	if err != nil {
		return nil
	}
	return loc
}

// tzName reads a TZ string's zone name: three or more letters, or <...>.
func tzName(s string) (string, string) {
	if strings.HasPrefix(s, "<") {
		if i := strings.IndexByte(s, '>'); i > 1 {
			return s[1:i], s[i+1:]
		}
		return "", s
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i < 3 {
		return "", s
	}
	return s[:i], s[i:]
}

// tzOffset reads [+-]hh[:mm[:ss]] (west of Greenwich positive) as seconds
// east, as Go and ISO count them.
func tzOffset(s string) (int, string, bool) {
	sign := 1
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	secs := 0
	for part, mul := 0, 3600; part < 3; part, mul = part+1, mul/60 {
		i := 0
		for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			if part == 0 {
				return 0, s, false
			}
			break
		}
		n, _ := strconv.Atoi(s[:i])
		secs += n * mul
		s = s[i:]
		if part == 2 || s == "" || s[0] != ':' {
			break
		}
		s = s[1:]
	}
	if secs > 24*3600+59*60 {
		return 0, s, false
	}
	return -sign * secs, s, true
}

var (
	weekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	months   = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
)

// strftime formats t as the C library's strftime does in the C/POSIX
// locale, with glibc's flags (- _ 0 ^ #), field widths and the E and O
// modifiers (which change nothing in this locale).
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var flag byte
		for i < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0 {
			if format[i] == '^' || format[i] == '#' {
				if flag == 0 {
					flag = format[i]
				}
			} else {
				flag = format[i]
			}
			i++
		}
		upper, swap := false, false
		for _, f := range format[start+1 : i] {
			switch f {
			case '^':
				upper = true
			case '#':
				swap = true
			}
		}
		width := -1
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			if width < 0 {
				width = 0
			}
			width = width*10 + int(format[i]-'0')
			i++
		}
		if i < len(format) && (format[i] == 'E' || format[i] == 'O') {
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		conv := format[i]
		// numeric: value, default width, default pad
		num := func(v, w int, pad byte) string {
			if flag == '-' {
				return strconv.Itoa(v)
			}
			if flag == '_' {
				pad = ' '
			} else if flag == '0' {
				pad = '0'
			}
			if width > 0 {
				w = width
			}
			s := strconv.Itoa(v)
			neg := v < 0
			if neg {
				s = s[1:]
			}
			for len(s) < w-boolInt(neg) {
				s = string(pad) + s
			}
			if neg {
				s = "-" + s
			}
			return s
		}
		str := func(s string) string {
			if upper {
				s = strings.ToUpper(s)
			} else if swap {
				if strings.ToUpper(s) == s {
					s = strings.ToLower(s)
				} else {
					s = strings.ToUpper(s)
				}
			}
			pad := " "
			if flag == '0' {
				pad = "0"
			}
			for width > 0 && len(s) < width {
				s = pad + s
			}
			return s
		}
		hour12 := t.Hour() % 12
		if hour12 == 0 {
			hour12 = 12
		}
		isoYear, isoWeek := t.ISOWeek()
		var out string
		switch conv {
		case '%':
			out = str("%")
		case 'a':
			out = str(weekdays[t.Weekday()][:3])
		case 'A':
			out = str(weekdays[t.Weekday()])
		case 'b', 'h':
			out = str(months[t.Month()-1][:3])
		case 'B':
			out = str(months[t.Month()-1])
		case 'c':
			out = str(strftime("%a %b %e %H:%M:%S %Y", t))
		case 'C':
			out = num(t.Year()/100, 2, '0')
		case 'd':
			out = num(t.Day(), 2, '0')
		case 'D':
			out = str(strftime("%m/%d/%y", t))
		case 'e':
			out = num(t.Day(), 2, ' ')
		case 'F':
			out = str(strftime("%Y-%m-%d", t))
		case 'g':
			out = num(isoYear%100, 2, '0')
		case 'G':
			out = num(isoYear, 1, '0')
		case 'H':
			out = num(t.Hour(), 2, '0')
		case 'I':
			out = num(hour12, 2, '0')
		case 'j':
			out = num(t.YearDay(), 3, '0')
		case 'k':
			out = num(t.Hour(), 2, ' ')
		case 'l':
			out = num(hour12, 2, ' ')
		case 'm':
			out = num(int(t.Month()), 2, '0')
		case 'M':
			out = num(t.Minute(), 2, '0')
		case 'n':
			out = "\n"
		case 'p', 'P':
			ampm := "AM"
			if t.Hour() >= 12 {
				ampm = "PM"
			}
			if conv == 'P' {
				ampm = strings.ToLower(ampm)
			} else if swap {
				ampm = strings.ToLower(ampm)
				swap = false
			}
			out = str(ampm)
		case 'r':
			out = str(strftime("%I:%M:%S %p", t))
		case 'R':
			out = str(strftime("%H:%M", t))
		case 's':
			out = num(int(t.Unix()), 1, '0')
		case 'S':
			out = num(t.Second(), 2, '0')
		case 't':
			out = "\t"
		case 'T':
			out = str(strftime("%H:%M:%S", t))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			out = num(wd, 1, '0')
		case 'U':
			out = num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0')
		case 'V':
			out = num(isoWeek, 2, '0')
		case 'w':
			out = num(int(t.Weekday()), 1, '0')
		case 'W':
			out = num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0')
		case 'x':
			out = str(strftime("%m/%d/%y", t))
		case 'X':
			out = str(strftime("%H:%M:%S", t))
		case 'y':
			out = num(t.Year()%100, 2, '0')
		case 'Y':
			out = num(t.Year(), 1, '0')
		case 'z':
			_, off := t.Zone()
			sign := '+'
			if off < 0 {
				sign, off = '-', -off
			}
			out = string(sign) + num(off/3600*100+off%3600/60, 4, '0')
		case 'Z':
			name, _ := t.Zone()
			if swap {
				name = strings.ToLower(name)
				swap = false
			}
			out = str(name)
		default:
			out = format[start : i+1] // unknown: copied as written
		}
		b.WriteString(out)
	}
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
