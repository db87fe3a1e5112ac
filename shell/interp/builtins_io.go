package interp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell/expand"
	"github.com/wasmsand/wasmsand/shell/syntax"
	"github.com/wasmsand/wasmsand/vfs"
)

// readUntil reads up to and including delim (-1: none), at most max
// characters (-1: no limit), through the file's look-ahead buffer: what is
// read past the end stays for the next reader of the same descriptor.
func (f *openFile) readUntil(delim int, max int) (data []byte, hitDelim bool, err error) {
	return f.readUntilDeadline(delim, max, time.Time{})
}

// timedReader reads giving up after a while (a pipe or FIFO: vfs).
type timedReader interface {
	ReadTimeout(p []byte, d time.Duration) (int, error)
}

// readUntilDeadline is readUntil giving up at deadline (zero: never) with
// os.ErrDeadlineExceeded and what it read; a stream that cannot time out
// is read as it is.
func (f *openFile) readUntilDeadline(delim int, max int, deadline time.Time) (data []byte, hitDelim bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.r == nil {
		return nil, false, errBadFd
	}
	if f.vf != nil {
		// A file's offset is left just past what read consumed, as bash
		// leaves it (by seeking back), so that a write or another program
		// on the same description goes on from there.
		defer func() {
			if len(f.buf) > 0 {
				if _, err := f.vf.Seek(int64(-len(f.buf)), io.SeekCurrent); err == nil {
					f.buf = nil
				}
			}
		}()
	}
	chars := 0
	for {
		// consume from the buffer
		i := 0
		for i < len(f.buf) {
			c := f.buf[i]
			if max >= 0 && chars >= max {
				break
			}
			if int(c) == delim {
				data = append(data, f.buf[:i+1]...)
				f.buf = f.buf[i+1:]
				return data, true, nil
			}
			if c < utf8.RuneSelf || utf8.RuneStart(c) {
				chars++
			}
			i++
			// a multibyte character counts once: take its continuation bytes
			for i < len(f.buf) && !utf8.RuneStart(f.buf[i]) {
				i++
			}
		}
		data = append(data, f.buf[:i]...)
		f.buf = f.buf[i:]
		if max >= 0 && chars >= max && !partialRune(data) {
			return data, false, nil
		}
		if max >= 0 && chars >= max && len(f.buf) > 0 {
			// the last character's remaining bytes
			for len(f.buf) > 0 && !utf8.RuneStart(f.buf[0]) && partialRune(data) {
				data = append(data, f.buf[0])
				f.buf = f.buf[1:]
			}
			if !partialRune(data) || len(f.buf) > 0 {
				return data, false, nil
			}
		}
		chunk := make([]byte, 4096)
		if max >= 0 && max-chars < 4096 && f.vf == nil {
			// Do not take more from a pipe than asked (another reader may want it).
			chunk = chunk[:max-chars]
			if len(chunk) == 0 {
				chunk = chunk[:1]
			}
		}
		if vfs.ReadsInPlace(f.r) {
			// input as it comes (someone typing): a byte at a time, as bash
			// reads a terminal, so that what follows the line stays in the
			// stream for whoever reads next, in this run or after it
			chunk = chunk[:1]
		}
		var n int
		var rerr error
		if tr, ok := f.r.(timedReader); ok && !deadline.IsZero() {
			d := time.Until(deadline)
			if d <= 0 {
				return data, false, os.ErrDeadlineExceeded
			}
			n, rerr = tr.ReadTimeout(chunk, d)
		} else {
			n, rerr = f.r.Read(chunk)
		}
		if n > 0 {
			f.buf = append(f.buf[:0:0], chunk[:n]...)
			continue
		}
		if rerr == nil {
			continue
		}
		if rerr == io.EOF {
			return data, false, io.EOF
		}
		return data, false, rerr
	}
}

type badFdError struct{}

func (badFdError) Error() string { return "bad file descriptor" }

var errBadFd = badFdError{}

func builtinRead(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	o, names, ok := r.getopt("read", args[1:], "a:d:ei:n:N:p:rst:u:", false)
	if !ok {
		return 2
	}
	fd := 0
	if s, ok := o.vals['u']; ok {
		n, ok := r.fdArg("read", s)
		if !ok {
			return 1
		}
		fd = n
	}
	delim := int('\n')
	if d, ok := o.vals['d']; ok {
		if d == "" {
			delim = 0
		} else {
			delim = int(d[0])
		}
	}
	max := -1
	exact := false
	if s, ok := o.vals['n']; ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			r.errmsg("read: " + s + ": invalid number")
			return 1
		}
		max = n
	}
	if s, ok := o.vals['N']; ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			r.errmsg("read: " + s + ": invalid number")
			return 1
		}
		max, exact = n, true
		delim = -1
	}
	arrayName, isArray := o.vals['a']
	if isArray && !syntax.ValidName(arrayName) {
		r.errmsg("read: `" + arrayName + "': not a valid identifier")
		return 1
	}
	for _, n := range names {
		if !validVarRef(n) {
			r.errmsg("read: `" + n + "': not a valid identifier")
			return 1
		}
	}
	var deadline time.Time
	if t, ok := o.vals['t']; ok {
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || v < 0 || strings.ContainsAny(t, "eEnNxX") {
			r.errmsg("read: " + t + ": invalid timeout specification")
			return 1
		}
		deadline = time.Now().Add(time.Duration(v * float64(time.Second)))
		if t == "0" || strings.Trim(t, "0.") == "" {
			f := r.fds.get(fd)
			if f != nil && (len(f.buf) > 0 || f.vf != nil) {
				return 0
			}
			return 1
		}
	}
	f := r.fds.get(fd)
	if f == nil || f.r == nil {
		r.errmsg("read: read error: " + strconv.Itoa(fd) + ": Bad file descriptor")
		return 1
	}
	if p, ok := o.vals['p']; ok && r.isTerminal(fd) {
		r.stderr(p)
	}
	raw := o.set['r']
	var line []byte
	eof := false
	timedOut := false
	for {
		data, hit, err := f.readUntilDeadline(delim, max, deadline)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// bash keeps what came before the time ran out, status 128+SIGALRM
			timedOut = true
			line = append(line, data...)
			break
		}
		if err != nil && err != io.EOF && len(data) == 0 {
			r.errmsg("read: read error: " + strconv.Itoa(fd) + ": " + Strerror(errnoOf(err)))
			return 1
		}
		if err == io.EOF {
			eof = true
		}
		if hit {
			data = data[:len(data)-1]
		}
		// a backslash-newline joins lines (without -r)
		if !raw && hit && delim == '\n' && countTrailingBackslashes(data)%2 == 1 {
			line = append(line, data[:len(data)-1]...)
			if max >= 0 {
				max -= utf8.RuneCount(data)
			}
			continue
		}
		line = append(line, data...)
		break
	}
	if bytes.IndexByte(line, 0) >= 0 {
		line = bytes.ReplaceAll(line, []byte{0}, nil)
	}
	s := string(line)
	st := 0
	if eof {
		st = 1
	}
	if timedOut {
		st = 128 + 14
	}
	ifs := r.ifs()
	if isArray {
		fields := splitRead(s, ifs, -1, raw)
		if err := r.setArray(arrayName, fields, 0); err != nil {
			r.errmsg("read: " + err.Error())
			return 1
		}
		return st
	}
	if len(names) == 0 {
		val := s
		if !raw {
			val = unescapeRead(s)
		}
		if err := r.setVar("REPLY", val, 0); err != nil {
			r.errmsg("read: " + err.Error())
			return 1
		}
		return st
	}
	var fields []string
	if exact {
		// read -N takes the characters as they are: no splitting, no
		// trimming; the first name gets them all
		v := s
		if !raw {
			v = unescapeRead(s)
		}
		fields = []string{v}
	} else {
		fields = splitRead(s, ifs, len(names), raw)
	}
	for i, n := range names {
		v := ""
		if i < len(fields) {
			v = fields[i]
		}
		if err := r.setVar(n, v, 0); err != nil {
			r.errmsg(err.Error()) // bash: "NAME: readonly variable", no "read:"
			return 1
		}
	}
	return st
}

func countTrailingBackslashes(b []byte) int {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\\'; i-- {
		n++
	}
	return n
}

func unescapeRead(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		if s[i] == '\\' && i == len(s)-1 {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// splitRead splits a line read by `read` into n fields (-1: all), the last
// taking the rest; without raw, backslashes protect characters.
func splitRead(s string, ifs *expand.IFS, n int, raw bool) []string {
	type ch struct {
		c   rune
		esc bool
	}
	var cs []ch
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !raw && r == '\\' && i+size < len(s) {
			r2, size2 := utf8.DecodeRuneInString(s[i+size:])
			cs = append(cs, ch{r2, true})
			i += size + size2
			continue
		}
		if !raw && r == '\\' {
			i += size
			continue
		}
		cs = append(cs, ch{r, false})
		i += size
	}
	isWS := func(c ch) bool { return !c.esc && !ifs.Empty && strings.ContainsRune(ifs.WS, c.c) }
	isOther := func(c ch) bool { return !c.esc && !ifs.Empty && strings.ContainsRune(ifs.Other, c.c) }
	str := func(cs []ch) string {
		var b strings.Builder
		for _, c := range cs {
			b.WriteRune(c.c)
		}
		return b.String()
	}
	i := 0
	for i < len(cs) && isWS(cs[i]) {
		i++
	}
	var out []string
	for i < len(cs) {
		if n >= 0 && len(out) == n-1 {
			// the last name takes the rest, minus trailing IFS whitespace;
			// when the rest is more than one word, bash strips escaped
			// whitespace there too (strip_trailing_ifs_whitespace)
			j := len(cs)
			for j > i && isWS(cs[j-1]) {
				j--
			}
			words := false
			for k := i; k < j; k++ {
				if isWS(cs[k]) || isOther(cs[k]) {
					words = true
					break
				}
			}
			for words && j > i && (isWS(cs[j-1]) || cs[j-1].esc && !ifs.Empty && strings.ContainsRune(ifs.WS, cs[j-1].c)) {
				j--
			}
			rest := cs[i:j]
			// a trailing non-whitespace delimiter is dropped too when it
			// ends a single field (POSIX: "a b:" keeps it, two fields)
			if len(rest) > 0 && isOther(rest[len(rest)-1]) {
				k := len(rest) - 1
				for k > 0 && isWS(rest[k-1]) {
					k--
				}
				onlyOne := true
				for _, c := range rest[:k] {
					if isOther(c) || isWS(c) {
						onlyOne = false
						break
					}
				}
				if onlyOne {
					rest = rest[:k]
				}
			}
			out = append(out, str(rest))
			return out
		}
		start := i
		for i < len(cs) && !isWS(cs[i]) && !isOther(cs[i]) {
			i++
		}
		out = append(out, str(cs[start:i]))
		// skip the delimiter: whitespace, at most one other, whitespace
		for i < len(cs) && isWS(cs[i]) {
			i++
		}
		if i < len(cs) && isOther(cs[i]) {
			i++
			for i < len(cs) && isWS(cs[i]) {
				i++
			}
		}
	}
	return out
}

func builtinMapfile(r *Runner, ctx context.Context, args []string, _ map[int]*declArg) int {
	name := args[0]
	o, rest, ok := r.getopt(name, args[1:], "d:n:O:s:tu:C:c:", false)
	if !ok {
		return 2
	}
	arr := "MAPFILE"
	if len(rest) > 0 {
		arr = rest[0]
	}
	if !syntax.ValidName(arr) {
		r.errmsg(name + ": `" + arr + "': not a valid identifier")
		return 1
	}
	delim := int('\n')
	if d, ok := o.vals['d']; ok {
		if d == "" {
			delim = 0
		} else {
			delim = int(d[0])
		}
	}
	count, origin, skip, quantum := 0, 0, 0, 5000
	for _, c := range o.order { // checked in the order given, as bash does
		s := o.vals[c]
		n, err := strconv.Atoi(s)
		bad := err != nil || n < 0
		var what string
		switch c {
		case 'n':
			count, what = n, "invalid line count"
		case 's':
			skip, what = n, "invalid line count"
		case 'O':
			origin, what = n, "invalid array origin"
		case 'c':
			quantum, what = n, "invalid callback quantum"
			bad = bad || n == 0
		default:
			continue
		}
		if bad {
			r.errmsg(name + ": " + s + ": " + what)
			return 1
		}
	}
	fd := 0
	if s, ok := o.vals['u']; ok {
		n, ok := r.fdArg(name, s)
		if !ok {
			return 1
		}
		fd = n
	}
	f := r.fds.get(fd)
	if f == nil {
		return 1
	}
	if _, has := o.vals['O']; !has {
		if err := r.setArray(arr, nil, 0); err != nil {
			r.errmsg(name + ": " + err.Error())
			return 1
		}
	} else if v := r.lookup(arr); v == nil || !v.isArray() {
		if err := r.setArray(arr, nil, setAppend); err != nil {
			r.errmsg(name + ": " + err.Error())
			return 1
		}
	}
	callback := o.vals['C']
	idx := origin
	read := 0
	for count == 0 || read < count {
		data, hit, err := f.readUntil(delim, -1)
		if len(data) == 0 && err != nil {
			break
		}
		if skip > 0 {
			skip--
			if err != nil {
				break
			}
			continue
		}
		if hit && o.set['t'] {
			data = data[:len(data)-1]
		}
		if bytes.IndexByte(data, 0) >= 0 {
			data = bytes.ReplaceAll(data, []byte{0}, nil) // shell strings hold no NUL
		}
		if callback != "" && (read+1)%quantum == 0 {
			r.runSource(ctx, callback+" "+strconv.Itoa(idx)+" "+expand.QuoteSingle(string(data)), r.line, true)
		}
		if err := r.setElement(arr, strconv.Itoa(idx), string(data), 0); err != nil {
			r.errmsg(name + ": " + err.Error())
			return 1
		}
		idx++
		read++
		if err != nil {
			break
		}
		if r.checkCtx(ctx) {
			return 1
		}
	}
	return 0
}

// fdArg checks a -u FD argument as bash does.
func (r *Runner) fdArg(name, s string) (int, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		r.errmsg(name + ": " + s + ": invalid file descriptor specification")
		return 0, false
	}
	if f := r.fds.get(n); f == nil || f.r == nil {
		r.errmsg(name + ": " + s + ": invalid file descriptor: Bad file descriptor")
		return 0, false
	}
	return n, true
}

// partialRune: data ends inside a multibyte character.
func partialRune(data []byte) bool {
	for k := 1; k <= utf8.UTFMax && k <= len(data); k++ {
		b := data[len(data)-k]
		if utf8.RuneStart(b) {
			return b >= utf8.RuneSelf && !utf8.FullRune(data[len(data)-k:])
		}
	}
	return false
}
