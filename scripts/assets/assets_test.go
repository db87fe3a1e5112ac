package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The recipes in the repository load and validate (no network, no toolchain).
func TestRepositoryRecipes(t *testing.T) {
	recipes, err := loadRecipes(filepath.Join("..", "..", "assets"))
	require.NoError(t, err)
	require.NotEmpty(t, recipes)
	files := map[string]bool{}
	for _, r := range recipes {
		assert.False(t, files[r.File], "two assets write %s", r.File)
		files[r.File] = true
		st1, err := r.stamp("tc")
		require.NoError(t, err)
		st2, err := r.stamp("tc")
		require.NoError(t, err)
		assert.Equal(t, st1, st2, "stamp must be deterministic")
		st3, err := r.stamp("other toolchain")
		require.NoError(t, err)
		assert.NotEqual(t, st1, st3, "stamp must cover the toolchain")
	}
}

func TestRecipeValidation(t *testing.T) {
	dir := t.TempDir()
	write := func(name, recipe string) string {
		d := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "build.sh"), []byte("true\n"), 0o755))
		p := filepath.Join(d, "recipe.json")
		require.NoError(t, os.WriteFile(p, []byte(recipe), 0o644))
		return p
	}
	ok := `{"name":"x","file":"x.wasm","license":"MIT","sources":[{"package":"x","version":"1-1","dir":"x"}]}`
	_, err := loadRecipe(write("x", ok))
	require.NoError(t, err)

	for name, tc := range map[string]struct{ dir, recipe, want string }{
		"dir mismatch":      {"y", ok, "must match its directory"},
		"unknown field":     {"x", `{"name":"x","bogus":1}`, "unknown field"},
		"no license":        {"x", `{"name":"x","file":"x.wasm","sources":[{"package":"x","version":"1","dir":"x"}]}`, "license"},
		"bad file":          {"x", `{"name":"x","file":"../x.wasm","license":"MIT","sources":[{"package":"x","version":"1","dir":"x"}]}`, "plain *.wasm"},
		"no sources":        {"x", `{"name":"x","file":"x.wasm","license":"MIT"}`, "source"},
		"missing patch":     {"x", `{"name":"x","file":"x.wasm","license":"MIT","sources":[{"package":"x","version":"1","dir":"x","patches":["nope.patch"]}]}`, "patch"},
		"shared missing":    {"x", `{"name":"x","file":"x.wasm","license":"MIT","shared":["nope"],"sources":[{"package":"x","version":"1","dir":"x"}]}`, "shared dir"},
		"shared bad":        {"x", `{"name":"x","file":"x.wasm","license":"MIT","shared":["../x"],"sources":[{"package":"x","version":"1","dir":"x"}]}`, "bad shared"},
		"dup dir":           {"x", `{"name":"x","file":"x.wasm","license":"MIT","sources":[{"package":"x","version":"1","dir":"x"},{"package":"y","version":"1","dir":"x"}]}`, "duplicate"},
		"crate not librust": {"x", `{"name":"x","file":"x.wasm","license":"MIT","sources":[{"package":"x","version":"1","dir":"x"}],"crates":[{"package":"rust-foo","version":"1"}]}`, "bad crate"},
		"crate no version":  {"x", `{"name":"x","file":"x.wasm","license":"MIT","sources":[{"package":"x","version":"1","dir":"x"}],"crates":[{"package":"librust-foo-dev"}]}`, "bad crate"},
		"crate patch":       {"x", `{"name":"x","file":"x.wasm","license":"MIT","sources":[{"package":"x","version":"1","dir":"x"}],"crates":[{"package":"librust-foo-dev","version":"1","patches":["nope.patch"]}]}`, "patch"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := loadRecipe(write(tc.dir, tc.recipe))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestStampCoversRecipeDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "patches"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "build.sh"), []byte("true\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "patches", "a.patch"), []byte("one"), 0o644))
	r := &Recipe{Name: "x", Dir: dir}
	s1, err := r.stamp("tc")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "patches", "a.patch"), []byte("two"), 0o644))
	s2, err := r.stamp("tc")
	require.NoError(t, err)
	assert.NotEqual(t, s1, s2)
	require.NoError(t, os.Chmod(filepath.Join(dir, "build.sh"), 0o644))
	s3, err := r.stamp("tc")
	require.NoError(t, err)
	assert.NotEqual(t, s2, s3, "the executable bit is an input too")
}

const dsc = `-----BEGIN PGP SIGNED MESSAGE-----
Hash: SHA512

Format: 3.0 (quilt)
Source: toybox
Version: 0.8.9+dfsg-1
Checksums-Sha1:
 b02866040de54e14e16713a9ef731713acc703d4 3260736 toybox_0.8.9+dfsg.orig.tar.xz
 d0bb20a7bdf245ad89171cb8a7c1ccbeb05fa808 8144 toybox_0.8.9+dfsg-1.debian.tar.xz
Checksums-Sha256:
 16fb5967531e88ca33b8c9142376987617ebe52e34e2b3f3a779603674b7d07c 3260736 toybox_0.8.9+dfsg.orig.tar.xz
 ad9e9e36614fc77cb718a322e5bc3acd7d233630154e913dee7b0397a4c3f637 8144 toybox_0.8.9+dfsg-1.debian.tar.xz
Files:
 3c95c20413f715d57e9d7dc2a3704af4 3260736 toybox_0.8.9+dfsg.orig.tar.xz
 50c9864782bc9ac1c60317f9db0cbec5 8144 toybox_0.8.9+dfsg-1.debian.tar.xz

-----BEGIN PGP SIGNATURE-----
 ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff 1 evil.tar.xz
`

func TestParseDsc(t *testing.T) {
	format, files := parseDsc(dsc)
	assert.Equal(t, "3.0 (quilt)", format)
	require.Len(t, files, 2)
	assert.Equal(t, dscFile{"toybox_0.8.9+dfsg.orig.tar.xz", "16fb5967531e88ca33b8c9142376987617ebe52e34e2b3f3a779603674b7d07c", 3260736}, files[0])
	assert.Equal(t, []dscFile{files[0]}, neededFiles(files, false))
	assert.Equal(t, files, neededFiles(files, true))
	// a native package: its only tarball
	native := []dscFile{{Name: "x_1.tar.xz"}}
	assert.Equal(t, native, neededFiles(native, false))
	assert.Equal(t, "1.6-2.1", stripEpoch("1:1.6-2.1"))
}

func TestDebSrcLines(t *testing.T) {
	deb822 := `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://example.org/ignored
Suites: x
Components: main

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main contrib
Enabled: no
`
	assert.Equal(t, []string{
		"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main",
		"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-updates main",
	}, deb822ToSrc(deb822))
	assert.Equal(t, []string{"deb-src http://m/debian bookworm main"},
		oneLineToSrc("# c\ndeb http://m/debian bookworm main\ndeb-src http://m/debian bookworm main\n"))
}

// A source from another release reads that release's suites, with the
// machine's mirrors and keyring.
func TestRetarget(t *testing.T) {
	assert.Equal(t, []string{
		"deb-src [signed-by=/k.gpg] http://deb.debian.org/debian trixie main",
		"deb-src [signed-by=/k.gpg] http://deb.debian.org/debian trixie-updates main",
		"deb-src [arch=amd64 signed-by=/k.gpg] http://deb.debian.org/debian-security trixie-security main contrib",
		"deb-src http://m/debian trixie main",
	}, retarget([]string{
		"deb-src [signed-by=/k.gpg] http://deb.debian.org/debian bookworm main",
		"deb-src [signed-by=/k.gpg] http://deb.debian.org/debian bookworm-updates main",
		"deb-src [arch=amd64 signed-by=/k.gpg] http://deb.debian.org/debian-security bookworm-security main contrib",
		"deb-src http://m/debian bookworm main",
		"deb-src http://m/debian bookworm main",
	}, "trixie"))
}

func TestWasmImports(t *testing.T) {
	// (module (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
	//         (import "env" "memory" (memory 1)))
	mod := []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x09\x01\x60\x04\x7f\x7f\x7f\x7f\x01\x7f" + // type section
		"\x02\x2e\x02" +
		"\x16wasi_snapshot_preview1\x08fd_write\x00\x00" +
		"\x03env\x06memory\x02\x00\x01")
	im, err := wasmImports(mod)
	require.NoError(t, err)
	assert.Equal(t, []wasmImport{{"wasi_snapshot_preview1", "fd_write"}, {"env", "memory"}}, im)

	_, err = wasmImports([]byte("not wasm"))
	assert.Error(t, err)
	_, err = wasmImports(mod[:len(mod)-3])
	assert.Error(t, err)

	dir := t.TempDir()
	p := filepath.Join(dir, "m.wasm")
	require.NoError(t, os.WriteFile(p, mod, 0o644))
	err = checkModule(p)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "env.memory"), err.Error())
}

func TestShellJoin(t *testing.T) {
	assert.Equal(t, `a '-I/x y' 'it'\''s' -Wl,--wrap=stat`, shellJoin([]string{"a", "-I/x y", "it's", "-Wl,--wrap=stat"}))
}

func TestResolveCommands(t *testing.T) {
	recipes := []*Recipe{{Name: "bzip2"}, {Name: "toybox", Fallback: true}, {Name: "xz"}}
	m := Manifest{Assets: []Asset{
		{Name: "bzip2", Commands: []string{"bzcat", "bzip2"}},
		{Name: "toybox", Commands: []string{"bzcat", "cat", "xzcat"}},
		{Name: "xz", Commands: []string{"xz", "xzcat"}},
	}}
	got := resolveCommands(m, recipes)
	assert.Equal(t, []string{"cat"}, got.Assets[1].Commands)
	assert.Equal(t, []string{"xz", "xzcat"}, got.Assets[2].Commands)
	assert.Equal(t, []string{"bzcat", "cat", "xzcat"}, m.Assets[1].Commands, "input untouched")
}

func TestStampCoversSharedDir(t *testing.T) {
	root := t.TempDir()
	dir, shared := filepath.Join(root, "x"), filepath.Join(root, "common")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.MkdirAll(shared, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "build.sh"), []byte("true\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "recipe.json"),
		[]byte(`{"name":"x","file":"x.wasm","license":"MIT","shared":["common"],"sources":[{"package":"x","version":"1","dir":"x"}]}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(shared, "config.site"), []byte("a=1"), 0o644))
	r, err := loadRecipe(filepath.Join(dir, "recipe.json"))
	require.NoError(t, err)
	s1, err := r.stamp("tc")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(shared, "config.site"), []byte("a=2"), 0o644))
	s2, err := r.stamp("tc")
	require.NoError(t, err)
	assert.NotEqual(t, s1, s2, "a shared directory is an input too")

	// A directory with a recipe of its own cannot be shared.
	require.NoError(t, os.WriteFile(filepath.Join(shared, "recipe.json"), []byte("{}"), 0o644))
	_, err = loadRecipe(filepath.Join(dir, "recipe.json"))
	require.ErrorContains(t, err, "asset of its own")
}
