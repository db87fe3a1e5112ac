package text

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wasmsand/wasmsand/shell"
)

// column is column(1) as Debian's bsdextrautils has it, for the uses
// agents make of it: -t tables (split on -s characters, runs of them merged,
// joined by -o, two spaces by default) and the default fill of a terminal
// width (-c, else $COLUMNS, else 80) column by column (-x: row by row).
func column(ctx context.Context, s *shell.Session, req *shell.ExecRequest) int {
	table, across := false, false
	seps, outSep := "", "  " // no -s: runs of whitespace separate
	width := 80
	if c, err := strconv.Atoi(shell.Getenv(req.Env, "COLUMNS")); err == nil && c > 0 {
		width = c
	}
	var files []string
	args := req.Argv[1:]
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			files = append(files, args...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		for i := 1; i < len(a); i++ {
			opt := a[i]
			takesValue := opt == 's' || opt == 'o' || opt == 'c'
			val := ""
			if takesValue {
				switch {
				case i+1 < len(a):
					val = a[i+1:]
				case len(args) > 0:
					val, args = args[0], args[1:]
				default:
					fmt.Fprintf(req.Stderr, "column: option requires an argument -- '%c'\n", opt)
					return 1
				}
			}
			switch opt {
			case 't':
				table = true
			case 'x':
				across = true
			case 'n', 'e':
				// accepted for compatibility; no effect here
			case 's':
				seps = val
			case 'o':
				outSep = val
			case 'c':
				n, err := strconv.Atoi(val)
				if err != nil || n <= 0 {
					fmt.Fprintf(req.Stderr, "column: invalid columns argument: '%s'\n", val)
					return 1
				}
				width = n
			default:
				fmt.Fprintf(req.Stderr, "column: invalid option -- '%c'\n", opt)
				return 1
			}
			if takesValue {
				break
			}
		}
	}
	lines, st := readLines(s, req, files, "column")
	var out bytes.Buffer
	if table {
		columnTable(&out, lines, seps, outSep)
	} else {
		columnFill(&out, lines, width, across)
	}
	if _, err := req.Stdout.Write(out.Bytes()); err != nil {
		return 1
	}
	return st
}

// readLines reads files (or stdin) as lines without their newlines, skipping
// empty ones as column does.
func readLines(s *shell.Session, req *shell.ExecRequest, files []string, prog string) ([]string, int) {
	var lines []string
	st := s.EachInput(req, files, prog+": ", func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			if l := sc.Text(); l != "" {
				lines = append(lines, l)
			}
		}
		return nil
	})
	return lines, st
}

func columnTable(out *bytes.Buffer, lines []string, seps, outSep string) {
	rows := make([][]string, len(lines))
	var widths []int
	for i, l := range lines {
		if seps == "" {
			rows[i] = strings.Fields(l)
		} else {
			// With -s every separator counts: ",," holds an empty field.
			rows[i] = splitAny(l, seps)
		}
		for j, f := range rows[i] {
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(f))
		}
	}
	for _, row := range rows {
		for j, f := range row {
			out.WriteString(f)
			if j < len(row)-1 {
				out.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(f)))
				out.WriteString(outSep)
			}
		}
		out.WriteByte('\n')
	}
}

func columnFill(out *bytes.Buffer, entries []string, width int, across bool) {
	if len(entries) == 0 {
		return
	}
	maxLen := 0
	for _, e := range entries {
		maxLen = max(maxLen, utf8.RuneCountInString(e))
	}
	colWidth := (maxLen + 8) &^ 7 // the next tab stop
	cols := max(width/colWidth, 1)
	if maxLen >= width {
		for _, e := range entries {
			out.WriteString(e + "\n")
		}
		return
	}
	rows := (len(entries) + cols - 1) / cols
	for r := 0; r < rows; r++ {
		col := 0
		for c := 0; c < cols; c++ {
			i := c*rows + r
			if across {
				i = r*cols + c
			}
			if i >= len(entries) {
				break
			}
			// Tabs up to this column's start, then the entry.
			for col < c*colWidth {
				out.WriteByte('\t')
				col = (col + 8) &^ 7
			}
			out.WriteString(entries[i])
			col += utf8.RuneCountInString(entries[i])
		}
		out.WriteByte('\n')
	}
}

// splitAny splits s at every rune of seps.
func splitAny(s, seps string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if strings.ContainsRune(seps, r) {
			out = append(out, s[start:i])
			start = i + utf8.RuneLen(r)
		}
	}
	return append(out, s[start:])
}
