//go:build !js

package core

import (
	"context"

	"github.com/wasmsand/wasmsand/platform"
	"github.com/wasmsand/wasmsand/platform/native"
)

// defaultEngine is the process-wide wazero engine: compiled modules are shared
// by every sandbox of the process and cached on disk for the next process.
func defaultEngine(ctx context.Context) (platform.Engine, error) {
	return native.Default(ctx)
}
