//go:build js

package core

import (
	"context"
	"sync"

	"github.com/wasmsand/wasmsand/platform"
	jsengine "github.com/wasmsand/wasmsand/platform/js"
)

var (
	jsOnce sync.Once
	jsEng  *jsengine.Engine
	jsErr  error
)

// defaultEngine is the JS engine of this page or process (platform/js): its
// JS half, host.js, must have been installed before the core started.
func defaultEngine(ctx context.Context) (platform.Engine, error) {
	jsOnce.Do(func() { jsEng, jsErr = jsengine.New(jsengine.Options{}) })
	return jsEng, jsErr
}
