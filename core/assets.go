package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/wasmsand/wasmsand/assets"
	"github.com/wasmsand/wasmsand/vfs"
)

// Manifest, Asset and AssetFile are the manifest format of `make assets`.
type (
	Manifest  = assets.Manifest
	Asset     = assets.Asset
	AssetFile = assets.AssetFile
)

// Fetcher gets an asset file by its manifest name: from a directory
// natively, over HTTP, or with fetch() in a browser.
type Fetcher func(ctx context.Context, file string) ([]byte, error)

// AssetPrograms is the ProgramSource of a manifest: modules are fetched lazily, the
// first time one of their commands runs, and checked against their sha256.
type AssetPrograms struct {
	fetch   Fetcher
	byCmd   map[string]*assetEntry
	entries []*assetEntry
	data    map[string]*assetFS // asset name → its data files
	preinit sync.Map            // command → its preinitKey, made on first use
	names   []string            // byCmd's commands, sorted (each New lists them)
}

type assetEntry struct {
	Asset
	mu   sync.Mutex
	wasm []byte // kept once fetched and checked; a failed fetch is retried
}

// sum256 hashes assets and modules (SetSHA256).
var sum256 = sha256.Sum256

// SetSHA256 replaces the SHA-256 the core checks assets and keys modules
// with, for the whole process: compiled to GOOS=js, Go's own runs at about
// 3 MB/s (python3.wasm took over a second), where the host (Node's crypto)
// has a native one. f must compute SHA-256.
func SetSHA256(f func([]byte) [32]byte) { sum256 = f }

// ErrAsset marks a missing or corrupt asset.
var ErrAsset = errors.New("asset unavailable")

// errCorruptAsset marks an asset whose bytes don't match the manifest (126,
// like a file that cannot be executed; a missing one gives 127).
var errCorruptAsset = errors.New("corrupt")

// NewAssetPrograms reads a manifest. A command provided by two assets goes to
// the first.
func NewAssetPrograms(manifest []byte, fetch Fetcher) (*AssetPrograms, error) {
	var m Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return nil, fmt.Errorf("asset manifest: %w", err)
	}
	return AssetProgramsOf(m, fetch)
}

// AssetProgramsOf is NewAssetPrograms for a manifest read already.
func AssetProgramsOf(m Manifest, fetch Fetcher) (*AssetPrograms, error) {
	t := &AssetPrograms{fetch: fetch, byCmd: map[string]*assetEntry{}, data: map[string]*assetFS{}}
	for _, a := range m.Assets {
		if a.File == "" || len(a.SHA256) != 64 {
			return nil, fmt.Errorf("asset manifest: asset %q needs a file and a sha256", a.Name)
		}
		for _, f := range a.Files {
			if f.File == "" || len(f.SHA256) != 64 || a.Name == "" || strings.Contains(a.Name, "/") {
				return nil, fmt.Errorf("asset manifest: data file %q of asset %q needs a file, a sha256 and a plain asset name", f.Path, a.Name)
			}
		}
		if len(a.Files) > 0 {
			t.data[a.Name] = newAssetFS(a.Files, fetch)
		}
		e := &assetEntry{Asset: a}
		t.entries = append(t.entries, e)
		for _, c := range a.Commands {
			if _, dup := t.byCmd[c]; !dup {
				t.byCmd[c] = e
				t.names = append(t.names, c)
			}
		}
	}
	sort.Strings(t.names)
	return t, nil
}

// Commands lists every command of the manifest, sorted.
func (t *AssetPrograms) Commands() []string { return slices.Clone(t.names) }

// Prepare builds ahead what each New with these tools, the default engine
// and the default filesystem starts from (the engine, the filesystem's
// template), so that the first New does not: the JS core does it in its
// init, which its recorded start includes (jsapi/coreinit.js).
func (t *AssetPrograms) Prepare(ctx context.Context) error {
	if _, err := defaultEngine(ctx); err != nil {
		return newErr(CodeInternal, "Prepare", "", err)
	}
	vfs.NewDefault(vfs.Options{}, commandTable(Options{Programs: t}, nil).Names())
	return nil
}

// Assets lists the manifest's assets.
func (t *AssetPrograms) Assets() []Asset {
	out := make([]Asset, len(t.entries))
	for i, e := range t.entries {
		out[i] = e.Asset
	}
	return out
}

// preinitKey names what a pre-initialized image of command depends on: its
// module, its environment defaults and every asset's data files (all are in
// the pristine sandbox).
func (t *AssetPrograms) preinitKey(command string) (string, bool) {
	if k, ok := t.preinit.Load(command); ok {
		return k.(string), true
	}
	e, ok := t.byCmd[command]
	if !ok {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintln(h, e.SHA256)
	envKeys := make([]string, 0, len(e.Env))
	for k := range e.Env {
		envKeys = append(envKeys, k)
	}
	sort.Strings(envKeys)
	for _, k := range envKeys {
		fmt.Fprintf(h, "%q=%q\n", k, e.Env[k])
	}
	names := make([]string, 0, len(t.data))
	for name := range t.data {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, f := range t.data[name].sorted() {
			fmt.Fprintln(h, name, f.Path, f.SHA256)
		}
	}
	key := "preinit:" + hex.EncodeToString(h.Sum(nil))
	t.preinit.Store(command, key)
	return key, true
}

// dataMounts lists the directories where assets' data files appear.
func (t *AssetPrograms) dataMounts() map[string]*assetFS {
	out := make(map[string]*assetFS, len(t.data))
	for name, afs := range t.data {
		out[path.Join(AssetDataDir, name)] = afs
	}
	return out
}

// env is the environment an asset sets for one of its commands.
func (t *AssetPrograms) env(command string) map[string]string {
	if e, ok := t.byCmd[command]; ok {
		return e.Env
	}
	return nil
}

// programArgs gives a multicall module the command to run when argv[0]
// does not name it (`exec -a NAME ls`): the asset's program option with
// the command's name as argv[1], else argv as it is.
func (t *AssetPrograms) programArgs(command string, argv []string) []string {
	e, ok := t.byCmd[command]
	if !ok || e.ProgramOption == "" || len(argv) == 0 {
		return argv
	}
	if base := path.Base(argv[0]); base == command || base == "g"+command {
		return argv // (coreutils answers to ginstall too, its own name for install)
	}
	out := append([]string{argv[0], e.ProgramOption + command}, argv[1:]...)
	return out
}

// Module gives the content key of a command's module (known from the
// manifest, so a compiled module is found without fetching) and a loader
// that fetches and checks it once.
func (t *AssetPrograms) Module(ctx context.Context, command string) (string, func() ([]byte, error), error) {
	e, ok := t.byCmd[command]
	if !ok {
		return "", nil, fmt.Errorf("%w: no asset provides %q", ErrAsset, command)
	}
	return "sha256:" + e.SHA256, func() ([]byte, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.wasm == nil {
			b, err := e.load(ctx, t.fetch)
			if err != nil {
				return nil, err
			}
			e.wasm = b
		}
		return e.wasm, nil
	}, nil
}

func (e *assetEntry) load(ctx context.Context, fetch Fetcher) ([]byte, error) {
	if fetch == nil {
		return nil, fmt.Errorf("%w: %s: no asset source configured", ErrAsset, e.File)
	}
	b, err := fetch(ctx, e.File)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrAsset, e.File, err)
	}
	sum := sum256(b)
	if got := hex.EncodeToString(sum[:]); got != e.SHA256 {
		return nil, fmt.Errorf("%w: %s is %w: sha256 %s, manifest says %s", ErrAsset, e.File, errCorruptAsset, got[:12], e.SHA256[:12])
	}
	return b, nil
}
