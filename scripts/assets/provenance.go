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
		sp := assets.SourcePackage{Package: s.Package, Version: s.Version, Distro: distroOf(s.Suite),
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
		if sp.Patches, err = ourPatches(r, root, s.Patches); err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	for _, c := range r.Crates {
		var deb string
		for _, d := range dirs {
			if m, _ := filepath.Glob(filepath.Join(d, c.Package+"_"+stripEpoch(c.Version)+"_*.deb")); len(m) == 1 {
				deb = m[0]
				break
			}
		}
		if deb == "" {
			return nil, fmt.Errorf("%s: %s=%s: no .deb (fetched by a build)", r.Name, c.Package, c.Version)
		}
		sum, err := fileSHA256(deb)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(deb)
		if err != nil {
			return nil, err
		}
		fields, err := exec.Command("dpkg-deb", "-f", deb, "Architecture", "Source").Output()
		if err != nil {
			return nil, fmt.Errorf("dpkg-deb -f %s: %w", filepath.Base(deb), err)
		}
		sp := assets.SourcePackage{Package: c.Package, Version: c.Version, Source: c.Package,
			Files: []assets.SourceFile{{Name: filepath.Base(deb), SHA256: sum, Size: st.Size()}}}
		for _, l := range strings.Split(string(fields), "\n") {
			if v, ok := strings.CutPrefix(l, "Architecture: "); ok {
				sp.Arch = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(l, "Source: "); ok {
				sp.Source = strings.Fields(v)[0] // ("name (version)" when they differ)
			}
		}
		if sp.Patches, err = ourPatches(r, root, c.Patches); err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, nil
}

// ourPatches lists the project's patches by repository path and content.
func ourPatches(r *Recipe, root string, patches []string) ([]assets.SourceFile, error) {
	var out []assets.SourceFile
	for _, p := range patches {
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
		out = append(out, assets.SourceFile{Name: filepath.ToSlash(rel), SHA256: sum, Size: st.Size()})
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

// distroOf is a source's purl distro when it is not the machine's release.
func distroOf(suite string) string {
	if suite == "" {
		return ""
	}
	return distros[suite]
}
