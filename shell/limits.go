package shell

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// The interpreter keeps variables and command substitutions' output in the
// host process's memory, where a runaway script (`x=$x$x` in a loop,
// `x=$(cat /dev/zero)`) would grow until Go's allocator kills the whole
// process, every sandbox in it. Both are bounded here; guests' own memory is
// bounded by the engine.

// MaxVarBytes bounds one variable's size (varBytes) and the output one
// command substitution captures.
const MaxVarBytes = 64 << 20

// varCheckCmd follows assignment statements (confine.go): it stops the run
// when a variable it names has grown past MaxVarBytes, and otherwise keeps $?.
const varCheckCmd = "__wasmsand_vchk"

// varBytes is a variable's size in memory: its strings, plus the 16-byte
// header of each array element and ~64 bytes per associative entry (an
// array of a million empty strings is still 16 MB). Arrays past sampleAbove
// elements are estimated from a sample, so that appending to a big array in
// a loop stays linear (the check follows every assignment).
func varBytes(vr expand.Variable) int {
	n := len(vr.Str)
	if l := len(vr.List); l > 0 {
		n += 16 * l
		if l <= sampleAbove {
			for _, s := range vr.List {
				n += len(s)
			}
		} else {
			sum := 0
			for i := 0; i < sampleSize; i++ { // spread evenly, the last (newest) included
				sum += len(vr.List[l-1-i*(l-1)/(sampleSize-1)])
			}
			n += sum * (l / sampleSize)
		}
	}
	if l := len(vr.Map); l > 0 {
		limit := l
		if l > sampleAbove {
			limit = sampleSize
		}
		sum, seen := 0, 0
		for k, v := range vr.Map { // map order is random: a fair sample
			sum += 64 + len(k) + len(v)
			if seen++; seen == limit {
				break
			}
		}
		n += sum * (l / seen)
	}
	return n
}

const (
	sampleAbove = 4096
	sampleSize  = 256
)

// checkVars is varCheckCmd's call-handler half: a fatal error when too big.
func checkVars(hc interp.HandlerContext, names []string) error {
	for _, name := range names {
		if n := varBytes(hc.Env.Get(name)); n > MaxVarBytes {
			fmt.Fprintf(hc.Stderr, "bash: %s: value too large for the sandbox (%d MiB; the limit is %d MiB)\n",
				name, n>>20, MaxVarBytes>>20)
			return interp.NewExitStatus(1)
		}
	}
	return nil
}

// captureLimit bounds what a command writes into a command substitution
// (the interpreter's *strings.Builder): past MaxVarBytes writes fail with
// EFBIG, as on a file at its size limit.
func captureLimit(w io.Writer) io.Writer {
	if sb, ok := w.(*strings.Builder); ok {
		return &boundedCapture{sb: sb}
	}
	return w
}

type boundedCapture struct{ sb *strings.Builder }

func (b *boundedCapture) Write(p []byte) (int, error) {
	if b.sb.Len()+len(p) > MaxVarBytes {
		return 0, syscall.EFBIG
	}
	return b.sb.Write(p)
}

// internalPrefix starts the names of the commands and variables the shell
// adds to scripts (confine.go).
const internalPrefix = "__wasmsand_"

// traceFilter is the runner's stderr: it drops the `set -x` lines of what
// the shell added to the script (its commands, its assignments, PIPESTATUS),
// which bash would not print. The tracer writes one line per Write.
type traceFilter struct{ io.Writer }

func (t traceFilter) Write(p []byte) (int, error) {
	if bytes.HasPrefix(p, []byte("+ "+internalPrefix)) || bytes.HasPrefix(p, []byte("+ PIPESTATUS=(")) {
		return len(p), nil
	}
	return t.Writer.Write(p)
}

// Unwrap gives the stream under the filter (the sandbox recognises its
// terminal by identity).
func (t traceFilter) Unwrap() io.Writer { return t.Writer }
