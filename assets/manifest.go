// Package assets holds the guest programs' build recipes (the directories
// beside this file, run by scripts/assets through `make assets`) and the
// manifest format they produce, which the engine reads (core.AssetPrograms).
package assets

// Manifest is build/assets/manifest.json: which module provides which
// commands (contract: docs/contracts.md, "assets").
type Manifest struct {
	Assets []Asset `json:"assets"`
}

// Asset is one WebAssembly module of the manifest.
type Asset struct {
	Name        string   `json:"name"`
	File        string   `json:"file"`
	SHA256      string   `json:"sha256"`
	Size        int64    `json:"size"`
	License     string   `json:"license"`
	LicenseFile string   `json:"license_file,omitempty"` // relative to the manifest
	Commands    []string `json:"commands"`
	Sources     []string `json:"sources,omitempty"` // "debian:<package>=<version>"
	Patches     []string `json:"patches,omitempty"` // repository paths
	// Env is set for the asset's commands when the caller has not set it
	// (e.g. PYTHONHOME).
	Env map[string]string `json:"env,omitempty"`
	// ProgramOption, for a multicall module that picks its program by
	// argv[0], is an option naming the program instead ("--coreutils-prog="):
	// given with the command's name when argv[0] does not name it.
	ProgramOption string `json:"program_option,omitempty"`
	// Provenance is what the module was built from, for the SBOM
	// (assets/sbom): each source package's files and patches.
	Provenance []SourcePackage `json:"provenance,omitempty"`
	// Files are data files the asset needs, shown read-only at
	// /usr/lib/wasmsand/<name>/<path> and fetched on first open.
	Files []AssetFile `json:"files,omitempty"`
}

// SourcePackage is one Debian source package an asset was built from, or
// one binary package that carries sources (Arch set: Debian's packaged Rust
// crates, librust-*-dev, which hold a crate's source tree).
type SourcePackage struct {
	Package string `json:"package"`
	Version string `json:"version"`
	// Arch and Source, for a binary package: its architecture and the
	// source package it was built from.
	Arch   string `json:"arch,omitempty"`
	Source string `json:"source,omitempty"`
	// Distro is the purl distro of a package from another Debian release
	// than the rest ("debian-13"); empty means debian-12.
	Distro string `json:"distro,omitempty"`
	// Files are the .dsc and those of its files the build used, each as the
	// archive's signed index (for the .dsc) and the .dsc vouch for it.
	Files []SourceFile `json:"files"`
	// DebianPatches are the package's debian/patches/series, which
	// dpkg-source -x applied; none when the bare upstream tarball was used.
	DebianPatches []string `json:"debian_patches,omitempty"`
	// Patches are the project's own (repository paths), applied after them.
	Patches []SourceFile `json:"patches,omitempty"`
}

// SourceFile is a file by name and content.
type SourceFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// AssetFile is one data file of an asset.
type AssetFile struct {
	Path   string `json:"path"` // relative to /usr/lib/wasmsand/<asset name>
	File   string `json:"file"` // name to fetch, beside the manifest
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}
