//go:build !js

package enginetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wasmsand/wasmsand/internal/testguest"
)

// TestExportGuests writes the built guests to $WASMSAND_EXPORT_GUESTS (for
// the GOOS=js run of the suite, which cannot build them).
func TestExportGuests(t *testing.T) {
	dir := os.Getenv("WASMSAND_EXPORT_GUESTS")
	if dir == "" {
		t.Skip("WASMSAND_EXPORT_GUESTS not set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, g := range Guests {
		wasm := testguest.C(t, filepath.Join("testdata", "guests", g+".c"))
		if err := os.WriteFile(filepath.Join(dir, g+".wasm"), wasm, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
