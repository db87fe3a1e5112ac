// Package interrupt lets a run be stopped from outside where no goroutine or
// timer can cancel a context while the run holds the thread: under GOOS=js a
// guest or a shell loop runs without yielding to the JS event loop, so an
// abort (a JS AbortSignal, seen through a SharedArrayBuffer) has to be
// polled at the places that already look at the clock. For the same reason
// a context's deadline is read off the clock there (PastDeadline, Ended).
package interrupt

import (
	"context"
	"time"
)

type key struct{}

// With returns a context that is canceled once poll, called by Polled at a
// checkpoint, reports true.
func With(ctx context.Context, poll func() bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	check := func() bool {
		if poll() {
			cancel()
			return true
		}
		return false
	}
	return context.WithValue(ctx, key{}, check), cancel
}

// Polled asks ctx's poll function (if any) and reports whether the run was
// interrupted; the context is canceled from then on.
func Polled(ctx context.Context) bool {
	if f, ok := ctx.Value(key{}).(func() bool); ok {
		return f()
	}
	return false
}

// PastDeadline reads ctx's deadline off the clock: under GOOS=js no timer
// fires while a run holds the thread, so ctx.Err() can stay nil past it.
func PastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// Ended reports that ctx's run is over: canceled, past its deadline, or
// interrupted (Polled).
func Ended(ctx context.Context) bool { return Err(ctx) != nil }

// Err is ctx.Err() with the clock read too: context.DeadlineExceeded past the
// deadline, context.Canceled once interrupted (Polled), nil while the run goes on.
func Err(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if PastDeadline(ctx) {
		return context.DeadlineExceeded
	}
	if Polled(ctx) {
		return context.Canceled
	}
	return nil
}
