package sbom

import (
	"bytes"
	"testing"

	cdx "github.com/CycloneDX/cyclonedx-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/assets"
)

// TestCycloneDX: every asset is a component with its module's hash, licence
// and commands; its pedigree names each source package (purl), the source
// files with their hashes, Debian's patches and the project's; the
// document decodes as CycloneDX and is the same bytes each time.
func TestCycloneDX(t *testing.T) {
	m := assets.Manifest{Assets: []assets.Asset{{
		Name: "jq", File: "jq.wasm", SHA256: "aa", Size: 10, License: "MIT AND BSD-2-Clause", Commands: []string{"jq"},
		Provenance: []assets.SourcePackage{{
			Package: "jq", Version: "1.6-2.1+deb12u2",
			Files:         []assets.SourceFile{{Name: "jq_1.6-2.1+deb12u2.dsc", SHA256: "bb", Size: 1}, {Name: "jq_1.6.orig.tar.gz", SHA256: "cc", Size: 2}},
			DebianPatches: []string{"CVE-2026-1.patch"},
			Patches:       []assets.SourceFile{{Name: "assets/jq/patches/p.patch", SHA256: "dd", Size: 3}},
		}, {Package: "libonig", Version: "6.9.8-1", Distro: "debian-13", Files: []assets.SourceFile{{Name: "libonig_6.9.8-1.dsc", SHA256: "ee"}}},
			{Package: "librust-regex-dev", Version: "1.7.1-1", Arch: "amd64", Source: "rust-regex", Files: []assets.SourceFile{{Name: "librust-regex-dev_1.7.1-1_amd64.deb", SHA256: "ff"}}}},
	}}}
	top := Top{Name: "wasmsand", Version: "0.1.0", Modules: []Module{{Path: "example.com/m", Version: "v1.2.3", Sum: "h1:x"}}}
	out, err := CycloneDX(m, top)
	require.NoError(t, err)
	again, err := CycloneDX(m, top)
	require.NoError(t, err)
	assert.Equal(t, out, again)

	var bom cdx.BOM
	require.NoError(t, cdx.NewBOMDecoder(bytes.NewReader(out), cdx.BOMFileFormatJSON).Decode(&bom))
	assert.Equal(t, cdx.SpecVersion1_5, bom.SpecVersion)
	assert.Equal(t, "wasmsand", bom.Metadata.Component.Name)
	require.NotNil(t, bom.Components)
	require.Len(t, *bom.Components, 2)
	jq := (*bom.Components)[0]
	assert.Equal(t, "jq", jq.Name)
	assert.Equal(t, "1.6-2.1+deb12u2", jq.Version)
	assert.Equal(t, []cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: "aa"}}, *jq.Hashes)
	assert.Equal(t, "MIT AND BSD-2-Clause", (*jq.Licenses)[0].Expression)
	anc := *jq.Pedigree.Ancestors
	require.Len(t, anc, 3)
	assert.Equal(t, "pkg:deb/debian/jq@1.6-2.1%2Bdeb12u2?arch=source&distro=debian-12", anc[0].PackageURL)
	// a source from another release (recipe "suite") names its distro
	assert.Equal(t, "pkg:deb/debian/libonig@6.9.8-1?arch=source&distro=debian-13", anc[1].PackageURL)
	// a packaged Rust crate: the binary package, its sources at its source package's page
	assert.Equal(t, "pkg:deb/debian/librust-regex-dev@1.7.1-1?arch=amd64&distro=debian-12", anc[2].PackageURL)
	assert.Equal(t, "https://sources.debian.org/src/rust-regex/1.7.1-1/", (*anc[2].ExternalReferences)[0].URL)
	files := *anc[0].Components
	assert.Equal(t, "jq_1.6.orig.tar.gz", files[1].Name)
	assert.Equal(t, "cc", (*files[1].Hashes)[0].Value)
	patches := *jq.Pedigree.Patches
	require.Len(t, patches, 2)
	assert.Contains(t, patches[0].Diff.URL, "/debian/patches/CVE-2026-1.patch")
	assert.Equal(t, "assets/jq/patches/p.patch sha256:dd", patches[1].Diff.Text.Content)
	mod := (*bom.Components)[1]
	assert.Equal(t, "pkg:golang/example.com/m@v1.2.3", mod.PackageURL)
}
