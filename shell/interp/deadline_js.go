//go:build js

package interp

import (
	"context"
	"time"
)

// pastDeadline: under GOOS=js no timer fires while Go code runs without
// blocking (a shell loop), so a context's deadline is also read off the
// clock.
func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}
