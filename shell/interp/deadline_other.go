//go:build !js

package interp

import "context"

// pastDeadline: natively the context's timer ends it (see deadline_js.go).
func pastDeadline(context.Context) bool { return false }
