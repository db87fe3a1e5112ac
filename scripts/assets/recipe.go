package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Recipe is assets/<name>/recipe.json: what to fetch, which patches to apply; the
// build itself is assets/<name>/build.sh.
type Recipe struct {
	Name    string   `json:"name"`
	File    string   `json:"file"`    // output file name in build/assets
	License string   `json:"license"` // SPDX expression
	Sources []Source `json:"sources"`
	// Fallback: a command this asset shares with another asset goes to the other
	// (toybox: bzip2's bzcat, xz's xzcat... are the real thing).
	Fallback bool `json:"fallback,omitempty"`
	// Shared: directories under assets/ (no recipe of their own) whose files this
	// build uses too, e.g. "gnulib" (the config.site and helpers of the GNU tools).
	// They are part of the stamp; build.sh finds them at $ROOT/assets/<dir>.
	Shared []string `json:"shared,omitempty"`
	// Crates: Debian's packaged Rust crates the build compiles against
	// (offline; build.sh finds them unpacked in $CRATES/<crate>-<version>).
	Crates []Crate `json:"crates,omitempty"`

	Dir string `json:"-"` // assets/<name>, absolute
}

// Source is one Debian source package, pinned to a version so an unchanged recipe
// can be recognised without asking the network.
type Source struct {
	Package       string   `json:"package"`
	Version       string   `json:"version"`
	Dir           string   `json:"dir"`            // extracted to $SRC/<dir>
	DebianPatches bool     `json:"debian_patches"` // dpkg-source -x (Debian's patches) or the bare upstream tarball
	Patches       []string `json:"patches"`        // ours, relative to the recipe dir, applied with patch -p1
	// Suite takes the package from another Debian release (one of distros,
	// e.g. "trixie" for a program bookworm does not have); "" is bookworm.
	Suite string `json:"suite,omitempty"`
	// AcceptLag keeps this pin while Debian serves the newer Version, for
	// Reason (see checkVersions).
	AcceptLag *AcceptLag `json:"accept_lag,omitempty"`
}

// Crate is one librust-*-dev binary package, pinned like a source. It holds
// the crate's source under /usr/share/cargo/registry/<crate>-<version>,
// with Debian's patches applied and its .cargo-checksum.json.
type Crate struct {
	Package   string     `json:"package"`
	Version   string     `json:"version"`
	Patches   []string   `json:"patches,omitempty"` // ours, patch -p1 in the crate's directory
	AcceptLag *AcceptLag `json:"accept_lag,omitempty"`
}

var crateRE = regexp.MustCompile(`^librust-[a-z0-9.+-]+-dev$`)

// AcceptLag is a deliberate delay of one update.
type AcceptLag struct {
	Version string `json:"version"`
	Reason  string `json:"reason"`
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.+-]*$`)

func loadRecipes(assetsDir string) ([]*Recipe, error) {
	paths, err := filepath.Glob(filepath.Join(assetsDir, "*", "recipe.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []*Recipe
	seen := map[string]bool{}
	for _, p := range paths {
		r, err := loadRecipe(p)
		if err != nil {
			return nil, err
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("%s: duplicate asset name %q", p, r.Name)
		}
		seen[r.Name] = true
		out = append(out, r)
	}
	return out, nil
}

func loadRecipe(path string) (*Recipe, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Recipe
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Dir, err = filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	if err := r.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

func (r *Recipe) validate() error {
	if !nameRE.MatchString(r.Name) {
		return fmt.Errorf("bad name %q", r.Name)
	}
	if filepath.Base(r.Dir) != r.Name {
		return fmt.Errorf("name %q must match its directory %q", r.Name, filepath.Base(r.Dir))
	}
	if r.File == "" || r.File != filepath.Base(r.File) || !strings.HasSuffix(r.File, ".wasm") {
		return fmt.Errorf("file must be a plain *.wasm name, got %q", r.File)
	}
	if r.License == "" {
		return errors.New("license is required")
	}
	if len(r.Sources) == 0 {
		return errors.New("at least one source is required")
	}
	dirs := map[string]bool{}
	for _, s := range r.Sources {
		if !nameRE.MatchString(s.Package) || s.Version == "" || strings.ContainsAny(s.Version, " /") {
			return fmt.Errorf("bad source %q %q", s.Package, s.Version)
		}
		if !nameRE.MatchString(s.Dir) || dirs[s.Dir] {
			return fmt.Errorf("bad or duplicate source dir %q", s.Dir)
		}
		dirs[s.Dir] = true
		if _, ok := distros[s.Suite]; !ok {
			return fmt.Errorf("source %s: unknown suite %q", s.Package, s.Suite)
		}
		for _, p := range s.Patches {
			if _, err := os.Stat(filepath.Join(r.Dir, p)); err != nil {
				return fmt.Errorf("patch: %w", err)
			}
		}
	}
	for _, c := range r.Crates {
		if !crateRE.MatchString(c.Package) || c.Version == "" || strings.ContainsAny(c.Version, " /") {
			return fmt.Errorf("bad crate %q %q", c.Package, c.Version)
		}
		for _, p := range c.Patches {
			if _, err := os.Stat(filepath.Join(r.Dir, p)); err != nil {
				return fmt.Errorf("patch: %w", err)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "build.sh")); err != nil {
		return fmt.Errorf("build.sh: %w", err)
	}
	for _, d := range r.Shared {
		if !nameRE.MatchString(d) || d == r.Name {
			return fmt.Errorf("bad shared dir %q", d)
		}
		p := r.sharedDir(d)
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return fmt.Errorf("shared dir %q: not a directory beside %s", d, r.Name)
		}
		if _, err := os.Stat(filepath.Join(p, "recipe.json")); err == nil {
			return fmt.Errorf("shared dir %q is an asset of its own", d)
		}
	}
	return nil
}

// sharedDir: assets/<d>, beside the recipe's own directory.
func (r *Recipe) sharedDir(d string) string { return filepath.Join(filepath.Dir(r.Dir), d) }

// hashTree feeds every regular file under root (sorted, with its relative path) to h.
func hashTree(h io.Writer, root string) error {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "file %s %o %d\n", filepath.ToSlash(rel), st.Mode().Perm()&0o111, len(data))
		h.Write(data)
	}
	return nil
}

// stamp is the hash of everything an asset's output depends on: the tool's own
// version, the toolchain (compiler, wasi-libc, shim) and the recipe directory
// (recipe.json with its pinned source versions, build.sh, patches, lists) with its
// shared directories.
func (r *Recipe) stamp(toolchainHash string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "wasmsand-assets %d\ntoolchain %s\n", toolVersion, toolchainHash)
	if err := hashTree(h, r.Dir); err != nil {
		return "", err
	}
	for _, d := range r.Shared {
		fmt.Fprintf(h, "shared %s\n", d)
		if err := hashTree(h, r.sharedDir(d)); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
