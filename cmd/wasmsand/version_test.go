package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cdx "github.com/CycloneDX/cyclonedx-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/assets"
)

// TestVersionSBOM: `wasmsand version --sbom` describes the built guest
// programs as their manifest does (hash, source packages, patches) and this
// program's Go modules.
func TestVersionSBOM(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"version"}, strings.NewReader(""), &out, &errb))
	assert.Equal(t, "wasmsand "+version+"\n", out.String())

	dir, err := filepath.Abs(filepath.Join("..", "..", "build", "assets"))
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Skip("no built assets (make assets)")
	}
	var m assets.Manifest
	require.NoError(t, json.Unmarshal(raw, &m))
	out.Reset()
	require.Equal(t, 0, run([]string{"version", "--sbom", "--assets", dir}, strings.NewReader(""), &out, &errb), errb.String())
	var bom cdx.BOM
	require.NoError(t, cdx.NewBOMDecoder(&out, cdx.BOMFileFormatJSON).Decode(&bom))
	byName := map[string]cdx.Component{}
	for _, c := range *bom.Components {
		byName[c.Name] = c
	}
	for _, a := range m.Assets {
		c, ok := byName[a.Name]
		require.True(t, ok, "no component for %s", a.Name)
		assert.Equal(t, a.SHA256, (*c.Hashes)[0].Value)
		if len(a.Provenance) > 0 {
			require.NotNil(t, c.Pedigree, a.Name)
			assert.Len(t, *c.Pedigree.Ancestors, len(a.Provenance))
		}
	}
	_, ok := byName["github.com/tetratelabs/wazero"]
	assert.True(t, ok, "the Go modules are listed")

	require.Equal(t, exitSetup, run([]string{"version", "--sbom", "--assets", t.TempDir()}, strings.NewReader(""), &out, &errb))
}
