package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The asset cache keeps what a build made outside the clone, under the
// build's stamp, so that a fresh clone on a machine that built before
// copies instead of compiling (a CI run: ~13 min of builds): WASMSAND_CACHE,
// else ${XDG_CACHE_HOME:-~/.cache}/wasmsand, then assets/<name>-<stamp>/
// with the asset's files and its manifest entry. An entry is used only when
// every file checks against the entry's sha256; a fresh machine has none
// and builds from source. WASMSAND_CACHE=off turns it off.

// cacheDir is the cache's assets directory, "" when there is none.
func cacheDir() string {
	base := os.Getenv("WASMSAND_CACHE")
	switch base {
	case "off":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		base = filepath.Join(d, "wasmsand")
	}
	return filepath.Join(base, "assets")
}

// assetFiles are the files of out an asset consists of.
func assetFiles(a Asset) []string {
	files := []string{a.File, a.LicenseFile}
	for _, f := range a.Files {
		files = append(files, f.File)
	}
	return files
}

// fromCache puts the cached build of (name, stamp) into out, checked
// against its sha256s, and returns its entry (provenance included); nil
// when there is none or it does not check.
func fromCache(cache, out, name, stamp string) *Asset {
	if cache == "" {
		return nil
	}
	dir := filepath.Join(cache, name+"-"+stamp)
	b, err := os.ReadFile(filepath.Join(dir, "asset.json"))
	if err != nil {
		return nil
	}
	var a Asset
	if json.Unmarshal(b, &a) != nil || a.Name != name {
		return nil
	}
	for _, f := range assetFiles(a) {
		if !filepath.IsLocal(f) || copyKept(filepath.Join(dir, f), filepath.Join(out, f)) != nil {
			return nil
		}
	}
	if !upToDate(out, a) {
		return nil
	}
	return &a
}

// toCache keeps an asset's files and entry under its stamp (made aside and
// renamed into place), and drops that asset's older entries but one.
func toCache(cache, out string, a Asset, stamp string) error {
	if cache == "" {
		return nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	final := filepath.Join(cache, a.Name+"-"+stamp)
	if _, err := os.Stat(filepath.Join(final, "asset.json")); err == nil {
		return nil
	}
	tmp, err := os.MkdirTemp(cache, ".tmp-"+a.Name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, f := range assetFiles(a) {
		if err := copyKept(filepath.Join(out, f), filepath.Join(tmp, f)); err != nil {
			return err
		}
	}
	if err := writeJSON(filepath.Join(tmp, "asset.json"), a); err != nil {
		return err
	}
	os.RemoveAll(final)
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	// (keep the newest two of this asset: another clone may be a version behind)
	old, _ := filepath.Glob(filepath.Join(cache, a.Name+"-*"))
	var entries []os.FileInfo
	for _, p := range old {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() && !strings.Contains(strings.TrimPrefix(filepath.Base(p), a.Name+"-"), "-") {
			entries = append(entries, fi)
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].ModTime().After(entries[j].ModTime()) })
	for _, fi := range entries[min(2, len(entries)):] {
		os.RemoveAll(filepath.Join(cache, fi.Name()))
	}
	return nil
}

// copyKept copies a file keeping its mode.
func copyKept(from, to string) error {
	fi, err := os.Stat(from)
	if err != nil {
		return err
	}
	return copyFile(from, to, fi.Mode().Perm())
}

// downloadsDir is where Debian's source packages are kept: beside the
// asset cache, so that the test suites' sources (bash's, CPython's, GNU's)
// are not fetched again by every clone; each file is checked against its
// .dsc's sha256 before use (apt.fetch).
func downloadsDir(work string) string {
	if c := cacheDir(); c != "" {
		return filepath.Join(filepath.Dir(c), "downloads")
	}
	return filepath.Join(work, "downloads")
}
