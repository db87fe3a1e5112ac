package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/wasmsand/wasmsand/assets"
)

// provenance says what a recipe's module is built from, for the manifest and
// the SBOM: every source package's .dsc and the files of it that a build
// uses (their SHA-256 from the .dsc, checked when they were fetched), the
// Debian patches dpkg-source applies (debian/patches/series, read from the
// package's debian tarball) and ours. It reads only what fetch left in
// downloads, so an asset that is up to date gets it without a rebuild.
func provenance(r *Recipe, root string, dirs ...string) ([]assets.SourcePackage, error) {
	var out []assets.SourcePackage
	for _, s := range r.Sources {
		downloads := dirs[0] // (the first that has the package: a build before the shared downloads kept them in its work directory)
		for _, d := range dirs {
			if _, err := os.Stat(filepath.Join(d, s.Package+"_"+stripEpoch(s.Version)+".dsc")); err == nil {
				downloads = d
				break
			}
		}
		dsc := filepath.Join(downloads, s.Package+"_"+stripEpoch(s.Version)+".dsc")
		data, err := os.ReadFile(dsc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w (fetched by a build)", r.Name, err)
		}
		dscSum, err := fileSHA256(dsc)
		if err != nil {
			return nil, err
		}
		_, all := parseDsc(string(data))
		sp := assets.SourcePackage{Package: s.Package, Version: s.Version,
			Files: []assets.SourceFile{{Name: filepath.Base(dsc), SHA256: dscSum, Size: int64(len(data))}}}
		for _, f := range neededFiles(all, s.DebianPatches) {
			sp.Files = append(sp.Files, assets.SourceFile{Name: f.Name, SHA256: f.SHA256, Size: f.Size})
		}
		if s.DebianPatches {
			for _, f := range all {
				if strings.Contains(f.Name, ".debian.tar.") {
					series, err := debianSeries(filepath.Join(downloads, f.Name))
					if err != nil {
						return nil, fmt.Errorf("%s: %s: %w", r.Name, f.Name, err)
					}
					sp.DebianPatches = series
				}
			}
		}
		for _, p := range s.Patches {
			path := filepath.Join(r.Dir, p)
			sum, err := fileSHA256(path)
			if err != nil {
				return nil, err
			}
			st, err := os.Stat(path)
			if err != nil {
				return nil, err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return nil, err
			}
			sp.Patches = append(sp.Patches, assets.SourceFile{Name: filepath.ToSlash(rel), SHA256: sum, Size: st.Size()})
		}
		out = append(out, sp)
	}
	return out, nil
}

// debianSeries lists debian/patches/series of a debian tarball (none: no
// patches).
func debianSeries(tarball string) ([]string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("tar", "-xaf", tarball, "-O", "debian/patches/series")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if strings.Contains(stderr.String(), "Not found in archive") {
			return nil, nil
		}
		return nil, fmt.Errorf("tar: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var series []string
	for _, l := range strings.Split(stdout.String(), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			series = append(series, strings.Fields(l)[0]) // (a line may carry patch options)
		}
	}
	return series, nil
}
