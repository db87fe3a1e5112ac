package native

// Test guests: C programs under testdata/guests and Go programs under testdata/goguests,
// built (and cached) by internal/testguest.

import (
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/internal/testguest"
)

// cGuest returns the wasm of testdata/guests/<name>.c.
func cGuest(t testing.TB, name string) []byte {
	t.Helper()
	return testguest.C(t, filepath.Join("..", "enginetest", "testdata", "guests", name+".c"))
}

// goGuest returns the wasm of the Go program in testdata/goguests/<name>.
func goGuest(t testing.TB, name string) []byte {
	t.Helper()
	return testguest.Go(t, filepath.Join("testdata", "goguests", name))
}
