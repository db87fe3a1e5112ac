// Package assets holds the guest programs' build recipes (the directories
// beside this file, run by scripts/assets through `make assets`) and the
// manifest format they produce, which the engine reads (core.AssetTools).
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
	// Files are data files the asset needs, shown read-only at
	// /usr/lib/wasmsand/<name>/<path> and fetched on first open.
	Files []AssetFile `json:"files,omitempty"`
}

// AssetFile is one data file of an asset.
type AssetFile struct {
	Path   string `json:"path"` // relative to /usr/lib/wasmsand/<asset name>
	File   string `json:"file"` // name to fetch, beside the manifest
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}
