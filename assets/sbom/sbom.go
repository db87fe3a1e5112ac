// Package sbom writes the software bill of materials of the guest programs:
// a CycloneDX document (written with the CycloneDX library) made from the
// asset manifest alone, so `make assets` (build/assets/sbom.cdx.json, also in
// the npm package) and `wasmsand version --sbom` say the same. Each asset is a
// component with its module's SHA-256, its licence expression and its
// commands; its pedigree has the Debian source packages it was built from
// (purl, the .dsc and the tarballs used, each with its SHA-256) and the
// patches applied: Debian's (debian/patches/series) and the project's (with
// their SHA-256). Nothing in it depends on the time it was made.
package sbom

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	cdx "github.com/CycloneDX/cyclonedx-go"

	"github.com/wasmsand/wasmsand/assets"
)

// FileName is the SBOM's name beside manifest.json.
const FileName = "sbom.cdx.json"

// Module is a Go module linked into the program the SBOM describes.
type Module struct{ Path, Version, Sum string }

// Top is what the document describes: a program and the Go modules in it
// (none for the assets alone).
type Top struct {
	Name, Version string
	Modules       []Module
}

// CycloneDX returns the document (CycloneDX 1.5, JSON).
func CycloneDX(m assets.Manifest, top Top) ([]byte, error) {
	bom := cdx.NewBOM()
	bom.Metadata = &cdx.Metadata{Component: &cdx.Component{
		BOMRef: "top", Type: cdx.ComponentTypeApplication, Name: top.Name, Version: top.Version,
	}}
	var comps []cdx.Component
	for _, a := range m.Assets {
		comps = append(comps, assetComponent(a))
	}
	for _, mod := range top.Modules {
		c := cdx.Component{
			BOMRef: "go:" + mod.Path, Type: cdx.ComponentTypeLibrary, Name: mod.Path, Version: mod.Version,
			PackageURL: "pkg:golang/" + mod.Path + "@" + mod.Version,
		}
		if mod.Sum != "" {
			c.Properties = &[]cdx.Property{{Name: "go:sum", Value: mod.Sum}}
		}
		comps = append(comps, c)
	}
	bom.Components = &comps
	var buf bytes.Buffer
	enc := cdx.NewBOMEncoder(&buf, cdx.BOMFileFormatJSON)
	enc.SetPretty(true)
	if err := enc.EncodeVersion(bom, cdx.SpecVersion1_5); err != nil {
		return nil, fmt.Errorf("sbom: %w", err)
	}
	return buf.Bytes(), nil
}

func assetComponent(a assets.Asset) cdx.Component {
	c := cdx.Component{
		BOMRef: "asset:" + a.Name, Type: cdx.ComponentTypeApplication, Name: a.Name,
		Hashes: &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: a.SHA256}},
		Properties: &[]cdx.Property{
			{Name: "wasmsand:file", Value: a.File},
			{Name: "wasmsand:size", Value: fmt.Sprint(a.Size)},
			{Name: "wasmsand:commands", Value: strings.Join(a.Commands, " ")},
		},
	}
	if a.License != "" {
		c.Licenses = &cdx.Licenses{{Expression: a.License}}
	}
	if len(a.Provenance) > 0 {
		c.Version = a.Provenance[0].Version
	}
	var ancestors []cdx.Component
	var patches []cdx.Patch
	for _, sp := range a.Provenance {
		arch, src := "source", sp.Package
		if sp.Arch != "" { // a binary package that carries sources (a Rust crate)
			arch, src = sp.Arch, sp.Source
		}
		distro := sp.Distro
		if distro == "" {
			distro = "debian-12"
		}
		purl := "pkg:deb/debian/" + sp.Package + "@" + url.QueryEscape(sp.Version) + "?arch=" + arch + "&distro=" + distro
		anc := cdx.Component{
			BOMRef: "asset:" + a.Name + ":" + sp.Package, Type: cdx.ComponentTypeApplication,
			Name: sp.Package, Version: sp.Version, PackageURL: purl,
			ExternalReferences: &[]cdx.ExternalReference{{
				Type: cdx.ERTypeDistribution,
				URL:  "https://sources.debian.org/src/" + src + "/" + sp.Version + "/",
			}},
		}
		var files []cdx.Component
		for _, f := range sp.Files {
			files = append(files, cdx.Component{
				BOMRef: "asset:" + a.Name + ":" + sp.Package + ":" + f.Name, Type: cdx.ComponentTypeFile, Name: f.Name,
				Hashes:     &[]cdx.Hash{{Algorithm: cdx.HashAlgoSHA256, Value: f.SHA256}},
				Properties: &[]cdx.Property{{Name: "wasmsand:size", Value: fmt.Sprint(f.Size)}},
			})
		}
		if len(files) > 0 {
			anc.Components = &files
		}
		ancestors = append(ancestors, anc)
		for _, p := range sp.DebianPatches {
			patches = append(patches, cdx.Patch{Type: cdx.PatchTypeBackport,
				Diff: &cdx.Diff{URL: "https://sources.debian.org/src/" + sp.Package + "/" + sp.Version + "/debian/patches/" + p}})
		}
		for _, p := range sp.Patches {
			patches = append(patches, cdx.Patch{Type: cdx.PatchTypeUnofficial,
				Diff: &cdx.Diff{Text: &cdx.AttachedText{Content: p.Name + " sha256:" + p.SHA256}}})
		}
	}
	if len(ancestors) > 0 || len(patches) > 0 {
		c.Pedigree = &cdx.Pedigree{}
		if len(ancestors) > 0 {
			c.Pedigree.Ancestors = &ancestors
		}
		if len(patches) > 0 {
			c.Pedigree.Patches = &patches
		}
	}
	return c
}
