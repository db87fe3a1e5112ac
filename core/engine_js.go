//go:build js

package core

import (
	"context"
	"errors"

	"github.com/wasmsand/wasmsand/platform"
)

// defaultEngine: under GOOS=js the engine (the JS WebAssembly API) is given by
// the web/ or node/ entry point through Options.Engine.
func defaultEngine(ctx context.Context) (platform.Engine, error) {
	return nil, errors.New("no default engine under GOOS=js: set Options.Engine")
}
