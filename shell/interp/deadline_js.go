//go:build js

package interp

import (
	"context"

	"github.com/wasmsand/wasmsand/internal/interrupt"
)

// deadlineChecks counts pastDeadline's calls: reading the clock is a call
// into JS (the top cost of a shell loop in Node when done every
// statement), so it is read on one call in 64.
var deadlineChecks uint32

// pastDeadline: under GOOS=js no timer fires while Go code runs without
// blocking (a shell loop), so a context's deadline is also read off the
// clock, and an outside abort polled.
func pastDeadline(ctx context.Context) bool {
	deadlineChecks++
	if deadlineChecks&63 != 0 {
		return false
	}
	return interrupt.PastDeadline(ctx) || interrupt.Polled(ctx)
}
