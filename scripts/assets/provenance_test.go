package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/assets"
)

// TestProvenance: a recipe's provenance comes from what fetch left in
// downloads: the .dsc (hashed), the files of it the build uses (with the
// .dsc's hashes), debian/patches/series from the debian tarball (comments
// and patch options left out) and the project's patches (hashed).
func TestProvenance(t *testing.T) {
	if _, err := exec.LookPath("xz"); err != nil {
		t.Skip("no xz")
	}
	dl, root := t.TempDir(), t.TempDir()
	deb := filepath.Join(t.TempDir(), "debian", "patches")
	require.NoError(t, os.MkdirAll(deb, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(deb, "series"), []byte("# ours\na.patch\n\nb.patch -p1\n"), 0o644))
	out, err := exec.Command("tar", "-cJf", filepath.Join(dl, "x_1.0-1.debian.tar.xz"), "-C", filepath.Dir(filepath.Dir(deb)), "debian").CombinedOutput()
	require.NoError(t, err, "%s", out)
	dsc := "Format: 3.0 (quilt)\nSource: x\nChecksums-Sha256:\n 1111 10 x_1.0.orig.tar.gz\n 2222 20 x_1.0-1.debian.tar.xz\n"
	require.NoError(t, os.WriteFile(filepath.Join(dl, "x_1.0-1.dsc"), []byte(dsc), 0o644))
	dir := filepath.Join(root, "assets", "x")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "patches"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "patches", "p.patch"), []byte("one"), 0o644))
	r := &Recipe{Name: "x", Dir: dir, Sources: []Source{{Package: "x", Version: "1.0-1", DebianPatches: true, Patches: []string{"patches/p.patch"}}}}

	got, err := provenance(r, root, dl)
	require.NoError(t, err)
	dscSum, err := fileSHA256(filepath.Join(dl, "x_1.0-1.dsc"))
	require.NoError(t, err)
	assert.Equal(t, []assets.SourcePackage{{
		Package: "x", Version: "1.0-1",
		Files: []assets.SourceFile{{Name: "x_1.0-1.dsc", SHA256: dscSum, Size: int64(len(dsc))},
			{Name: "x_1.0.orig.tar.gz", SHA256: "1111", Size: 10}, {Name: "x_1.0-1.debian.tar.xz", SHA256: "2222", Size: 20}},
		DebianPatches: []string{"a.patch", "b.patch"},
		Patches: []assets.SourceFile{{Name: "assets/x/patches/p.patch",
			SHA256: "7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed", Size: 3}},
	}}, got)

	r.Sources[0].Version = "2.0-1"
	_, err = provenance(r, root, dl)
	assert.ErrorContains(t, err, "x_2.0-1.dsc", "a source never fetched is an error")
}

// TestCrates: a packaged Rust crate (librust-*-dev) is unpacked to
// <crate>-<version> beside the others, and its provenance is the .deb
// (hashed) with its architecture and source package.
func TestCrates(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("no dpkg-deb")
	}
	pkg := t.TempDir()
	crate := filepath.Join(pkg, "usr", "share", "cargo", "registry", "foo-1.2.3")
	require.NoError(t, os.MkdirAll(filepath.Join(pkg, "DEBIAN"), 0o755))
	require.NoError(t, os.MkdirAll(crate, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(crate, "Cargo.toml"), []byte("[package]\nname = \"foo\"\n"), 0o644))
	control := "Package: librust-foo-dev\nVersion: 1.2.3-1\nArchitecture: amd64\nSource: rust-foo\nMaintainer: x <x@example.org>\nDescription: foo\n"
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "DEBIAN", "control"), []byte(control), 0o644))
	dl := t.TempDir()
	deb := filepath.Join(dl, "librust-foo-dev_1.2.3-1_amd64.deb")
	out, err := exec.Command("dpkg-deb", "--root-owner-group", "-b", pkg, deb).CombinedOutput()
	require.NoError(t, err, "%s", out)

	crates := t.TempDir()
	dir, err := unpackCrate(deb, crates)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(crates, "foo-1.2.3"), dir)
	assert.FileExists(t, filepath.Join(dir, "Cargo.toml"))
	_, err = unpackCrate(deb, crates)
	assert.ErrorContains(t, err, "twice", "two packages with one crate")

	root := t.TempDir()
	r := &Recipe{Name: "x", Dir: filepath.Join(root, "assets", "x"), Crates: []Crate{{Package: "librust-foo-dev", Version: "1.2.3-1"}}}
	got, err := provenance(r, root, dl)
	require.NoError(t, err)
	sum, err := fileSHA256(deb)
	require.NoError(t, err)
	st, err := os.Stat(deb)
	require.NoError(t, err)
	assert.Equal(t, []assets.SourcePackage{{Package: "librust-foo-dev", Version: "1.2.3-1", Arch: "amd64", Source: "rust-foo",
		Files: []assets.SourceFile{{Name: filepath.Base(deb), SHA256: sum, Size: st.Size()}}}}, got)

	r.Crates[0].Version = "9-1"
	_, err = provenance(r, root, dl)
	assert.ErrorContains(t, err, "no .deb", "a crate never fetched is an error")
}
