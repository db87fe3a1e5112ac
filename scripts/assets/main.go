// Command assets builds the guest WebAssembly programs (toybox, jq, awk, sqlite3...)
// from Debian source packages with the project's recipes under assets/, and writes
// build/assets/manifest.json. It is `make assets`.
//
// For each assets/<name>/recipe.json: fetch the pinned Debian source packages with
// `apt-get source` through a private deb-src list (work/apt; /etc/apt is only read),
// unpack them (and the packaged Rust crates it lists), apply our patches, run assets/<name>/build.sh with a wasm32-wasi
// compiler wrapper (private wasi-libc sysroot + assets/shim), strip the result and
// record it. An asset whose inputs (recipe dir, shim, toolchain, this tool) hash to
// the stamp of the last build is not rebuilt.
//
// Usage: go run ./scripts/assets [-only a,b] [-force] [-out build/assets] [-work build/assets-work]
//
// With -source PKG=VERSION -dest DIR it only fetches and unpacks one source
// package (Debian's patches applied) into DIR, for the test suites of the
// programs we stand in for (bash's tests/).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wasmsand/wasmsand/assets"
	"github.com/wasmsand/wasmsand/assets/sbom"
)

// toolVersion is part of every stamp: bump it when a change here changes outputs.
const toolVersion = 1

// The manifest format is the engine's (assets/manifest.go).
type (
	Manifest  = assets.Manifest
	Asset     = assets.Asset
	AssetFile = assets.AssetFile
)

// stampFile is work/stamps/<name>.json: the inputs' hash and the entry built from them.
type stampFile struct {
	Stamp string `json:"stamp"`
	Asset Asset  `json:"asset"`
}

type options struct {
	root, out, work string
	only            map[string]bool
	force           bool
	jobs            int // make -j inside one build
	parallel        int // builds at once
}

func main() {
	var o options
	var only string
	flag.StringVar(&o.out, "out", "build/assets", "output directory (modules, licences, manifest.json)")
	flag.StringVar(&o.work, "work", "build/assets-work", "work directory (apt lists, downloads, build trees, stamps)")
	flag.StringVar(&only, "only", "", "comma-separated asset names to build (others keep their last build)")
	flag.BoolVar(&o.force, "force", false, "rebuild even when the stamp matches")
	flag.IntVar(&o.jobs, "j", runtime.NumCPU(), "parallel compile jobs inside a build")
	flag.IntVar(&o.parallel, "p", runtime.NumCPU(), "assets built at once")
	source := flag.String("source", "", "only fetch and unpack this source package (PKG=VERSION) into -dest")
	dest := flag.String("dest", "", "where -source unpacks")
	check := flag.Bool("check-versions", false, "fail when a pinned source is older than what Debian serves (nothing is built)")
	flag.Parse()
	if *source != "" {
		if err := fetchSource(o.work, *source, *dest); err != nil {
			fmt.Fprintln(os.Stderr, "assets:", err)
			os.Exit(1)
		}
		return
	}
	if *check {
		var err error
		if o.root, err = os.Getwd(); err == nil {
			o.work, err = filepath.Abs(o.work)
		}
		if err == nil {
			err = checkVersions(o)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "assets:", err)
			os.Exit(1)
		}
		return
	}
	if only != "" {
		o.only = map[string]bool{}
		for _, n := range strings.Split(only, ",") {
			o.only[strings.TrimSpace(n)] = true
		}
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "assets:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	var err error
	if o.root, err = os.Getwd(); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(o.root, "assets", "shim")); err != nil {
		return errors.New("run from the repository root (assets/shim not found)")
	}
	for _, p := range []*string{&o.out, &o.work} {
		if *p, err = filepath.Abs(*p); err != nil {
			return err
		}
		if err := os.MkdirAll(*p, 0o755); err != nil {
			return err
		}
	}
	recipes, err := loadRecipes(filepath.Join(o.root, "assets"))
	if err != nil {
		return err
	}
	for n := range o.only {
		found := false
		for _, r := range recipes {
			found = found || r.Name == n
		}
		if !found {
			return fmt.Errorf("-only: no asset %q", n)
		}
	}
	if err := checkTools(); err != nil {
		return err
	}
	tc, err := setupToolchain(o.root, o.work)
	if err != nil {
		return err
	}
	a := &apt{dir: filepath.Join(o.work, "apt"), log: os.Stderr}

	var man Manifest
	var failed []string
	start := time.Now()
	cache := cacheDir()
	stamps := map[string]string{}
	// current: the asset's output is from its current stamp (not a last
	// build kept under -only), so the cache may keep it under that stamp.
	current := map[string]bool{}
	var queue []*Recipe // to build
	for _, r := range recipes {
		st, err := r.stamp(tc.Hash)
		if err != nil {
			return err
		}
		stamps[r.Name] = st
		prev, _ := readStamp(stampPath(o.work, r.Name))
		wanted := o.only == nil || o.only[r.Name]
		if prev != nil && (!wanted || (!o.force && prev.Stamp == st)) && upToDate(o.out, prev.Asset) {
			fmt.Fprintf(os.Stderr, "assets: %s up to date (%s, %d bytes)\n", r.Name, r.File, prev.Asset.Size)
			man.Assets = append(man.Assets, prev.Asset)
			current[r.Name] = prev.Stamp == st
			continue
		}
		if !wanted {
			continue
		}
		var c *Asset
		if !o.force {
			c = fromCache(cache, o.out, r.Name, st)
		}
		if c != nil {
			fmt.Fprintf(os.Stderr, "assets: %s from the cache (%s, %d bytes, checked)\n", r.Name, c.File, c.Size)
			man.Assets = append(man.Assets, *c)
			current[r.Name] = true
			// (provenance kept: this clone fetched no sources to read it from)
			if err := writeJSON(stampPath(o.work, r.Name), stampFile{Stamp: st, Asset: *c}); err != nil {
				return err
			}
			continue
		}
		queue = append(queue, r)
	}
	built, buildFailed := buildAll(o, queue, tc, a, stamps)
	failed = append(failed, buildFailed...)
	for _, r := range queue {
		if asset := built[r.Name]; asset != nil {
			man.Assets = append(man.Assets, *asset)
			current[r.Name] = true
		}
	}
	// The manifest keeps recipe order whatever order the builds ended in
	// (resolveCommands gives a shared command to the first asset).
	order := map[string]int{}
	for i, r := range recipes {
		order[r.Name] = i
	}
	sort.SliceStable(man.Assets, func(i, j int) bool { return order[man.Assets[i].Name] < order[man.Assets[j].Name] })
	man = resolveCommands(man, recipes)
	for i := range man.Assets {
		if man.Assets[i].Provenance != nil {
			continue // (from the cache, whose entry has it: this clone fetched no sources)
		}
		for _, r := range recipes {
			if r.Name != man.Assets[i].Name {
				continue
			}
			if man.Assets[i].Provenance, err = provenance(r, o.root, downloadsDir(o.work), filepath.Join(o.work, "downloads")); err != nil {
				return err
			}
		}
	}
	for _, a := range man.Assets {
		if !current[a.Name] {
			continue // (a stale build kept under -only is not what its stamp stands for)
		}
		if err := toCache(cache, o.out, a, stamps[a.Name]); err != nil {
			fmt.Fprintf(os.Stderr, "assets: %s not kept in the cache: %v\n", a.Name, err)
		}
	}
	if err := writeJSON(filepath.Join(o.out, "manifest.json"), man); err != nil {
		return err
	}
	bom, err := sbom.CycloneDX(man, sbom.Top{Name: "wasmsand-assets"})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.out, sbom.FileName), bom, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "assets: %d assets in %s/manifest.json (%.1fs)\n", len(man.Assets), o.out, time.Since(start).Seconds())
	if len(failed) > 0 {
		return fmt.Errorf("failed: %s", strings.Join(failed, ", "))
	}
	return nil
}

// stampPath is work/stamps/<name>.json; buildDir is the asset's build tree,
// which prepare makes and compile builds in.
func stampPath(work, name string) string { return filepath.Join(work, "stamps", name+".json") }
func buildDir(work, name string) string  { return filepath.Join(work, "build", name) }

func readStamp(path string) (*stampFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s stampFile
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// upToDate: the recorded output is still there, unchanged.
func upToDate(out string, a Asset) bool {
	sum, err := fileSHA256(filepath.Join(out, a.File))
	if err != nil || sum != a.SHA256 {
		return false
	}
	_, err = os.Stat(filepath.Join(out, a.LicenseFile))
	return err == nil && extrasUpToDate(out, a)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// buildAll builds the queue, o.parallel assets at a time. Sources are fetched
// and unpacked one after another (apt, the network) while the builds run;
// a free builder takes the prepared asset with the largest sources: most of
// a build is one package's ./configure and make, often single-threaded, so
// two at once fill two cores, and starting the long ones (python, perl)
// early keeps the tail short. A build's stamp is written as soon as it is done.
func buildAll(o options, queue []*Recipe, tc *toolchain, a *apt, stamps map[string]string) (built map[string]*Asset, failed []string) {
	type job struct {
		r      *Recipe
		asset  *Asset
		weight int64
	}
	var (
		mu        sync.Mutex // everything below
		ready     = sync.NewCond(&mu)
		pending   []*job
		preparing = true
	)
	built = map[string]*Asset{}
	fail := func(name string, err error) {
		fmt.Fprintf(os.Stderr, "assets: %s FAILED: %v\n", name, err)
		failed = append(failed, name)
	}
	var wg sync.WaitGroup
	for w := 0; w < max(1, o.parallel); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				for len(pending) == 0 && preparing {
					ready.Wait()
				}
				if len(pending) == 0 {
					mu.Unlock()
					return
				}
				top := 0
				for i, j := range pending {
					if j.weight > pending[top].weight {
						top = i
					}
				}
				j := pending[top]
				pending = append(pending[:top], pending[top+1:]...)
				mu.Unlock()

				t0 := time.Now()
				err := compile(o, j.r, tc, j.asset)
				if err == nil {
					err = writeJSON(stampPath(o.work, j.r.Name), stampFile{Stamp: stamps[j.r.Name], Asset: *j.asset})
				}
				mu.Lock()
				if err != nil {
					fail(j.r.Name, err)
				} else {
					fmt.Fprintf(os.Stderr, "assets: %s built in %.1fs (%s, %d bytes, %d commands)\n",
						j.r.Name, time.Since(t0).Seconds(), j.asset.File, j.asset.Size, len(j.asset.Commands))
					built[j.r.Name] = j.asset
				}
				mu.Unlock()
			}
		}()
	}
	for _, r := range queue {
		asset, weight, err := prepare(o, r, a)
		mu.Lock()
		if err != nil {
			fail(r.Name, err)
		} else {
			pending = append(pending, &job{r: r, asset: asset, weight: weight})
			ready.Signal()
		}
		mu.Unlock()
	}
	mu.Lock()
	preparing = false
	ready.Broadcast()
	mu.Unlock()
	wg.Wait()
	sort.Strings(failed)
	return built, failed
}

// prepare fetches, unpacks and patches r's sources (and crates) into a fresh
// build tree; weight is the bytes fetched, the scheduler's guess at how long
// the build takes.
func prepare(o options, r *Recipe, a *apt) (asset *Asset, weight int64, err error) {
	bdir := buildDir(o.work, r.Name)
	if err := os.RemoveAll(bdir); err != nil {
		return nil, 0, err
	}
	srcDir, outDir := filepath.Join(bdir, "src"), filepath.Join(bdir, "out")
	for _, d := range []string{srcDir, outDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, 0, err
		}
	}
	asset = &Asset{Name: r.Name, File: r.File, License: r.License, LicenseFile: "licenses/" + r.Name + ".txt"}
	for _, s := range r.Sources {
		dsc, files, err := a.forSuite(s.Suite).fetch(s, downloadsDir(o.work))
		if err != nil {
			return nil, 0, err
		}
		for _, f := range files {
			weight += fileSize(filepath.Join(downloadsDir(o.work), f.Name))
		}
		dest := filepath.Join(srcDir, s.Dir)
		if err := extract(s, dsc, files, dest); err != nil {
			return nil, 0, err
		}
		if err := applyOurs(r, asset, dest, s.Package, s.Version, s.Patches); err != nil {
			return nil, 0, err
		}
	}

	cratesDir := filepath.Join(bdir, "crates")
	if err := os.MkdirAll(cratesDir, 0o755); err != nil {
		return nil, 0, err
	}
	for _, c := range r.Crates {
		deb, err := a.fetchDeb(c, downloadsDir(o.work))
		if err != nil {
			return nil, 0, err
		}
		weight += fileSize(deb)
		dest, err := unpackCrate(deb, cratesDir)
		if err != nil {
			return nil, 0, err
		}
		if err := applyOurs(r, asset, dest, c.Package, c.Version, c.Patches); err != nil {
			return nil, 0, err
		}
	}

	return asset, weight, nil
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// compile runs r's build.sh in the tree prepare made and records its outputs in asset.
func compile(o options, r *Recipe, tc *toolchain, asset *Asset) error {
	bdir := buildDir(o.work, r.Name)
	srcDir, outDir, cratesDir := filepath.Join(bdir, "src"), filepath.Join(bdir, "out"), filepath.Join(bdir, "crates")
	logPath := filepath.Join(bdir, "build.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return err
	}
	cmd := exec.Command("bash", filepath.Join(r.Dir, "build.sh"))
	cmd.Dir = bdir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(),
		"SRC="+srcDir, "CRATES="+cratesDir, "OUT="+outDir, "ASSET_DIR="+r.Dir, "ROOT="+o.root,
		"CC="+tc.CC, "AR="+tc.AR, "RANLIB="+tc.RANLIB, "HOSTCC=gcc",
		"JOBS="+strconv.Itoa(o.jobs), "SHIM="+filepath.Join(o.root, "assets", "shim"),
		"LC_ALL=C", "SOURCE_DATE_EPOCH=1700000000",
	)
	err = cmd.Run()
	logf.Close()
	if err != nil {
		data, _ := os.ReadFile(logPath)
		return fmt.Errorf("build.sh: %v (log: %s)\n%s", err, logPath, tail(data, 25))
	}

	// Outputs build.sh must leave: the module, its licence text, its command list.
	mod := filepath.Join(outDir, r.File)
	stripped := filepath.Join(outDir, "stripped.wasm")
	if out, err := exec.Command(stripBin, "--strip-all", mod, "-o", stripped).CombinedOutput(); err != nil {
		return fmt.Errorf("strip: %v\n%s", err, out)
	}
	if err := checkModule(stripped); err != nil {
		return err
	}
	cmds, err := readLines(filepath.Join(outDir, "commands.txt"))
	if err != nil {
		return fmt.Errorf("build.sh left no commands.txt: %w", err)
	}
	sort.Strings(cmds)
	asset.Commands = cmds
	if err := copyFile(filepath.Join(outDir, "LICENSE"), filepath.Join(o.out, asset.LicenseFile), 0o644); err != nil {
		return fmt.Errorf("build.sh left no LICENSE: %w", err)
	}
	// 0755: `wasmsand run --import build/assets/x.wasm:/usr/bin/x` then runs as is.
	if err := copyFile(stripped, filepath.Join(o.out, r.File), 0o755); err != nil {
		return err
	}
	if asset.SHA256, err = fileSHA256(filepath.Join(o.out, r.File)); err != nil {
		return err
	}
	st, err := os.Stat(filepath.Join(o.out, r.File))
	if err != nil {
		return err
	}
	asset.Size = st.Size()
	if err := addExtras(outDir, o.out, asset); err != nil {
		return err
	}
	return nil
}

// applyOurs applies our patches to a package unpacked at dest and records
// the package and the patches in the asset.
func applyOurs(r *Recipe, asset *Asset, dest, pkg, version string, patches []string) error {
	for _, p := range patches {
		if err := applyPatch(dest, filepath.Join(r.Dir, p)); err != nil {
			return err
		}
		asset.Patches = append(asset.Patches, filepath.ToSlash(filepath.Join("assets", r.Name, p)))
	}
	asset.Sources = append(asset.Sources, "debian:"+pkg+"="+version)
	return nil
}

// checkModule: a WebAssembly binary whose imports are all ours (WASI preview1 or
// the wasmsand module) — anything else would fail at instantiation in the engine.
func checkModule(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	imports, err := wasmImports(data)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	for _, im := range imports {
		if im.module != "wasi_snapshot_preview1" && im.module != "wasmsand" {
			return fmt.Errorf("%s imports %s.%s, which the engine does not provide", filepath.Base(path), im.module, im.name)
		}
	}
	return nil
}

func copyFile(from, to string, mode os.FileMode) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	tmp := to + ".tmp"
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return err
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, to)
}

// resolveCommands gives every command to exactly one asset: a fallback asset
// (toybox) loses the commands another asset provides. Two non-fallback assets
// sharing a command keep recipe order (the engine takes the first).
func resolveCommands(m Manifest, recipes []*Recipe) Manifest {
	fallback := map[string]bool{}
	for _, r := range recipes {
		fallback[r.Name] = r.Fallback
	}
	primary := map[string]bool{}
	for _, a := range m.Assets {
		if !fallback[a.Name] {
			for _, c := range a.Commands {
				primary[c] = true
			}
		}
	}
	out := Manifest{Assets: make([]Asset, 0, len(m.Assets))}
	for _, a := range m.Assets {
		if fallback[a.Name] {
			kept := make([]string, 0, len(a.Commands))
			for _, c := range a.Commands {
				if !primary[c] {
					kept = append(kept, c)
				}
			}
			a.Commands = kept
		}
		out.Assets = append(out.Assets, a)
	}
	return out
}

// fetchSource unpacks one source package into dest, unless it is there.
func fetchSource(work, spec, dest string) error {
	pkg, ver, ok := strings.Cut(spec, "=")
	if !ok || dest == "" {
		return errors.New("-source wants PKG=VERSION and -dest DIR")
	}
	if _, err := os.Stat(dest); err == nil {
		return nil
	}
	work, err := filepath.Abs(work)
	if err != nil {
		return err
	}
	if dest, err = filepath.Abs(dest); err != nil {
		return err
	}
	a := &apt{dir: filepath.Join(work, "apt"), log: os.Stderr}
	src := Source{Package: pkg, Version: ver, DebianPatches: true}
	dsc, files, err := a.fetch(src, downloadsDir(work))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	return extract(src, dsc, files, dest)
}
