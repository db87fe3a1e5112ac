package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// extras is the optional $OUT/asset.json a build.sh may leave: environment
// defaults for the asset's commands and data files (python: PYTHONHOME and
// the standard library zip). Only path and file are given; we fill in the rest.
type extras struct {
	Env           map[string]string `json:"env"`
	Files         []AssetFile       `json:"files"`
	ProgramOption string            `json:"program_option"`
}

// addExtras copies the data files named by $OUT/asset.json to the output
// directory and records them and the environment in the asset's entry.
func addExtras(outDir, out string, a *Asset) error {
	data, err := os.ReadFile(filepath.Join(outDir, "asset.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var x extras
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return fmt.Errorf("asset.json: %w", err)
	}
	a.Env = x.Env
	a.ProgramOption = x.ProgramOption
	for _, f := range x.Files {
		if f.File == "" || f.File != filepath.Base(f.File) || f.File == a.File ||
			f.Path == "" || path.IsAbs(f.Path) || path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "..") {
			return fmt.Errorf("asset.json: bad data file %q -> %q", f.File, f.Path)
		}
		dst := filepath.Join(out, f.File)
		if err := copyFile(filepath.Join(outDir, f.File), dst, 0o644); err != nil {
			return fmt.Errorf("asset.json: %w", err)
		}
		if f.SHA256, err = fileSHA256(dst); err != nil {
			return err
		}
		st, err := os.Stat(dst)
		if err != nil {
			return err
		}
		f.Size = st.Size()
		a.Files = append(a.Files, f)
	}
	return nil
}

// extrasUpToDate: every data file recorded for the asset is still there, unchanged.
func extrasUpToDate(out string, a Asset) bool {
	for _, f := range a.Files {
		if sum, err := fileSHA256(filepath.Join(out, f.File)); err != nil || sum != f.SHA256 {
			return false
		}
	}
	return true
}
