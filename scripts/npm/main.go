// Command npm builds the npm package `wasmsand` into build/npm (make npm):
// the GOOS=js core (wasmsand.wasm), Go's wasm_exec.js, the engine's JS half
// bundled into the worker with esbuild's Go API, the Node entry points (CJS
// and ESM), their .d.ts, and the guest assets of build/assets as separate
// files. The root package.json gives name, version and the rest.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/wasmsand/wasmsand/llmtools"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/wasmsand/wasmsand/assets"
	"github.com/wasmsand/wasmsand/assets/sbom"
	"github.com/wasmsand/wasmsand/platform/instrument"
)

func main() {
	out := flag("-out", "build/npm")
	assets := flag("-assets", "build/assets")
	check(os.RemoveAll(out))
	check(os.MkdirAll(out, 0o755))

	// the core
	core := filepath.Join(out, "wasmsand.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", core, "./cmd/wasmsand-js/")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	check(cmd.Run())
	// its globals exported, so that its state after start-up can be put back
	// into a new instance (jsapi/coreinit.js)
	raw, err := os.ReadFile(core)
	check(err)
	raw, err = instrument.ExportGlobals(raw)
	check(err)
	check(os.WriteFile(core, raw, 0o644))
	copyFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), filepath.Join(out, "wasm_exec.js"))

	// the JS, bundled with the shared API (jsapi/) and host.js: Node's
	// entry and worker thread (CJS; wasm_exec.js stays a file of its own,
	// Go's, loaded by path), the browser's entry and Web Worker (ESM, Go's
	// glue bundled in)
	wasmExec := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	sum := sha256.Sum256(raw)
	coreHash := map[string]string{"__WASMSAND_CORE_SHA256__": strconv.Quote(hex.EncodeToString(sum[:]))}
	// the LLM tools' definitions, the Go package llmtools' (jsapi/tools.js)
	defs := map[string]any{}
	for _, f := range []string{"openai", "anthropic", "vercel"} {
		d, err := llmtools.Definitions(f)
		check(err)
		defs[f] = d
	}
	toolsJSON, err := json.Marshal(defs)
	check(err)
	withTools := map[string]string{"__WASMSAND_TOOLS__": string(toolsJSON)}
	bundle("node/worker.cjs", filepath.Join(out, "worker.cjs"), api.PlatformNode, api.FormatCommonJS, nil, coreHash)
	bundle("node/index.cjs", filepath.Join(out, "index.cjs"), api.PlatformNode, api.FormatCommonJS, nil, withTools)
	bundle("node/net.cjs", filepath.Join(out, "net.cjs"), api.PlatformNode, api.FormatCommonJS, nil, nil)
	bundle("node/pyhelper.cjs", filepath.Join(out, "pyhelper.cjs"), api.PlatformNode, api.FormatCommonJS, nil, nil)
	// Pyodide first: the web worker keeps its large files by their sha256
	copyPyodide("node_modules/pyodide", filepath.Join(out, "pyodide"))
	type pyFile struct {
		SHA256 string `json:"sha256"`
		Size   int    `json:"size"`
	}
	pyFiles := map[string]pyFile{}
	for _, f := range []string{"pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", "snapshot.bin"} {
		b, err := os.ReadFile(filepath.Join(out, "pyodide", f))
		check(err)
		s := sha256.Sum256(b)
		pyFiles[f] = pyFile{hex.EncodeToString(s[:]), len(b)}
	}
	pyJSON, err := json.Marshal(pyFiles)
	check(err)
	bundle("web/worker.js", filepath.Join(out, "web", "worker.js"), api.PlatformBrowser, api.FormatESModule,
		map[string]string{"wasm_exec": wasmExec}, map[string]string{"__WASMSAND_PYODIDE_FILES__": string(pyJSON),
			// (Pyodide's loader looks for CommonJS's free `module`: a bundler
			// that meets one takes the worker for a CommonJS module)
			"module": "undefined"}, nodeOnly)
	programs := copyAssets(assets, filepath.Join(out, "assets"))
	// the page keeps the core in the Cache API under its hash (web/cache.js);
	// web/files.js becomes the literal URL of each file a page may load
	files := [][2]string{{"wasmsand.wasm", "wasmsand.wasm"}, {"wasmsand.browser.init", "wasmsand.browser.init"}}
	for _, f := range programs {
		files = append(files, [2]string{"assets/" + f, "assets/" + f})
	}
	// (pyodide.mjs is bundled into the worker; its module script is the
	// browser's copy, which no dev server takes for its own to transform)
	for _, f := range []string{"pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "snapshot.bin"} {
		files = append(files, [2]string{"pyodide/" + f, "pyodide/" + f})
	}
	files = append(files, [2]string{"pyodide/pyodide.asm.mjs", "pyodide/" + browserAsm})
	bundle("web/index.js", filepath.Join(out, "web", "index.js"), api.PlatformBrowser, api.FormatESModule, nil,
		map[string]string{"__WASMSAND_CORE_SHA256__": strconv.Quote(hex.EncodeToString(sum[:])), "__WASMSAND_CORE_SIZE__": strconv.Itoa(len(raw)),
			"__WASMSAND_TOOLS__": string(toolsJSON)}, filesModule(files))
	copyFile("node/index.mjs", filepath.Join(out, "index.mjs"))
	copyFile("node/cli.mjs", filepath.Join(out, "cli.mjs")) // npx wasmsand
	writeTypes(out)
	writePackageJSON(filepath.Join(out, "package.json"))
	copyFile("README.md", filepath.Join(out, "README.md"))
	copyFile("LICENSE", filepath.Join(out, "LICENSE")) // (the guest programs' are in assets/licenses, listed in assets/sbom.cdx.json)
	// the core's state once it has started, which a Node worker puts back
	// instead of starting it (jsapi/coreinit.js)
	cmd = exec.Command("node", "scripts/npm/core-init.mjs", out)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	check(cmd.Run())
	// and the one a browser's worker has, which a page's first visit puts back
	// (web/index.js); recorded in headless Chromium (make deps installs it)
	cmd = exec.Command("node", "scripts/npm/browser-init.mjs", out)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	check(cmd.Run())

	fmt.Printf("npm: %s written; core %.2f MB, %.2f MB gzip, %.2f MB brotli\n", out,
		mb(len(raw)), mb(gzipSize(raw)), mb(brotliSize(raw)))
}

func bundle(entry, outfile string, platform api.Platform, format api.Format, alias, define map[string]string, plugins ...api.Plugin) {
	res := api.Build(api.BuildOptions{
		Plugins:     plugins,
		EntryPoints: []string{entry},
		Outfile:     outfile,
		Alias:       alias,
		Define:      define,
		Bundle:      true,
		Platform:    platform,
		Format:      format,
		Target:      api.ES2020,
		External:    []string{"./wasm_exec.js"},
		Write:       true,
		LogLevel:    api.LogLevelWarning,
	})
	if len(res.Errors) > 0 {
		fail("esbuild %s: %v", entry, res.Errors[0].Text)
	}
}

// writeTypes writes the declarations of each entry from node/index.d.ts:
// index.d.mts for import (with its default export), index.d.cts for
// require (module.exports has no default), and web/index.d.ts. (web/worker.js
// is not an entry: web/index.js starts it, or CreateOptions.workerUrl names it.)
func writeTypes(out string) {
	b, err := os.ReadFile("node/index.d.ts")
	check(err)
	check(os.WriteFile(filepath.Join(out, "index.d.mts"), b, 0o644))
	cjs := regexp.MustCompile(`(?m)^declare const _default: .*\nexport default _default;\n`).ReplaceAll(b, nil)
	if bytes.Equal(cjs, b) {
		fail("node/index.d.ts: no default export to leave out of index.d.cts")
	}
	check(os.WriteFile(filepath.Join(out, "index.d.cts"), cjs, 0o644))
	copyFile("web/index.d.ts", filepath.Join(out, "web", "index.d.ts"))
	// web/'s .js files are ES modules, as Node and type checkers must read them
	check(os.WriteFile(filepath.Join(out, "web", "package.json"), []byte(`{"type": "module"}`+"\n"), 0o644))
}

// object is a JSON object whose keys keep their order (export conditions
// are matched in order: encoding/json would sort them).
type object []field

type field struct {
	key   string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		var v bytes.Buffer
		enc := json.NewEncoder(&v)
		enc.SetEscapeHTML(false) // (">=18" as written)
		if err := enc.Encode(f.value); err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(bytes.TrimSpace(v.Bytes()))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writePackageJSON derives the package's manifest from the root one: its
// name, version, description and licence, without the development parts.
// Each export lists its types first and its fallback last (publint and
// arethetypeswrong check this in make test).
func writePackageJSON(dst string) {
	b, err := os.ReadFile("package.json")
	check(err)
	var root map[string]any
	check(json.Unmarshal(b, &root))
	entry := func(types, file string) object {
		return object{{"types", types}, {"default", file}}
	}
	pkg := object{
		{"name", root["name"]},
		{"version", root["version"]},
		{"description", root["description"]},
		{"license", root["license"]},
		{"keywords", root["keywords"]},
		{"type", "commonjs"},
		{"main", "./index.cjs"},
		{"module", "./index.mjs"},
		{"types", "./index.d.cts"},
		{"bin", object{{"wasmsand", "./cli.mjs"}}},
		{"exports", object{
			{".", object{
				{"browser", entry("./web/index.d.ts", "./web/index.js")},
				{"import", entry("./index.d.mts", "./index.mjs")},
				{"require", entry("./index.d.cts", "./index.cjs")},
			}},
			{"./web/index.js", entry("./web/index.d.ts", "./web/index.js")},
			{"./package.json", "./package.json"},
		}},
		{"engines", object{{"node", ">=18"}}},
		{"files", []string{"*.cjs", "*.mjs", "*.d.cts", "*.d.mts", "*.js", "web/", "wasmsand.wasm", "wasmsand.init", "wasmsand.browser.init", "assets/", "pyodide/", "README.md", "LICENSE"}},
	}
	if root["license"] == nil {
		pkg = slices.DeleteFunc(pkg, func(f field) bool { return f.key == "license" })
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	check(enc.Encode(pkg))
	check(os.WriteFile(dst, out.Bytes(), 0o644))
}

// copyPyodide copies what Pyodide needs at run time from its npm package
// (a dev dependency, pinned in package.json): python3 on the JS platforms
// when a sandbox asks for it (jsapi/python.js).
// pyodideFiles are the files of Pyodide's package that a worker loads.
var pyodideFiles = []string{"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}

// filesModule stands in for web/files.js: FILES with one literal
// new URL("../PATH", import.meta.url) per file, the form app bundlers
// follow (they emit the file and write its URL in); esbuild keeps it as it
// is, and the paths are relative to web/index.js, where it is bundled.
// files: [name, path in the package] pairs.
func filesModule(files [][2]string) api.Plugin {
	var b strings.Builder
	b.WriteString("export const FILES = {\n")
	for _, f := range files {
		fmt.Fprintf(&b, "  %s: new URL(%s, import.meta.url),\n", strconv.Quote(f[0]), strconv.Quote("../"+f[1]))
	}
	b.WriteString("};\n")
	src := b.String()
	return api.Plugin{Name: "wasmsand-files", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^\./files\.js$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "files.js", Namespace: "wasmsand-files"}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "wasmsand-files"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
	}}
}

// browserAsm is the browser's copy of pyodide.asm.mjs, which the web worker
// imports from a blob of its bytes: a name that is not a script's, so that
// a dev server (Vite's) serves the bytes as they are instead of rewriting
// the imports of what it takes for one of the app's modules (Node's
// `import("ws")` there failed the whole file).
const browserAsm = "pyodide.asm.mjs.bin"

// nodeOnly stands in for the modules Pyodide's loader imports only in Node
// (node:fs, ws...): empty in the browser's worker, where it is bundled,
// and no import a bundler or dev server must resolve.
var nodeOnly = api.Plugin{Name: "node-only", Setup: func(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: `^(node:.*|ws)$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
		return api.OnResolveResult{Path: a.Path, Namespace: "node-only"}, nil
	})
	pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "node-only"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
		empty := "export default {};"
		return api.OnLoadResult{Contents: &empty, Loader: api.LoaderJS}, nil
	})
}}

func copyPyodide(src, dst string) {
	check(os.MkdirAll(dst, 0o755))
	for _, f := range append(pyodideFiles, "README.md") {
		copyFile(filepath.Join(src, f), filepath.Join(dst, f))
	}
	copyFile(filepath.Join(src, "pyodide.asm.mjs"), filepath.Join(dst, browserAsm))
	// its name, version and licence only: a nested package.json's exports
	// mean nothing to Node and mislead bundlers
	var meta map[string]any
	b, err := os.ReadFile(filepath.Join(src, "package.json"))
	check(err)
	check(json.Unmarshal(b, &meta))
	b, err = json.MarshalIndent(object{{"name", meta["name"]}, {"version", meta["version"]}, {"license", meta["license"]}}, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(dst, "package.json"), append(b, '\n'), 0o644))
	// a started Pyodide's memory, to start from (~0.7 s instead of ~3 s)
	cmd := exec.Command("node", "scripts/npm/pyodide-snapshot.mjs", dst, filepath.Join(dst, "snapshot.bin"))
	mods, err := json.Marshal(assets.PyodideModules)
	check(err)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(mods), os.Stdout, os.Stderr
	check(cmd.Run())
}

// copyAssets copies the manifest, the SBOM and every file the manifest
// names; → the files a worker loads (the manifest, programs, data files).
func copyAssets(src, dst string) []string {
	b, err := os.ReadFile(filepath.Join(src, "manifest.json"))
	if err != nil {
		fail("no assets in %s (make assets): %v", src, err)
	}
	check(os.MkdirAll(dst, 0o755))
	check(os.WriteFile(filepath.Join(dst, "manifest.json"), b, 0o644))
	copyFile(filepath.Join(src, sbom.FileName), filepath.Join(dst, sbom.FileName))
	var m struct {
		Assets []struct {
			File        string `json:"file"`
			LicenseFile string `json:"license_file"`
			Files       []struct {
				File string `json:"file"`
			} `json:"files"`
		} `json:"assets"`
	}
	check(json.Unmarshal(b, &m))
	loads := []string{"manifest.json"}
	for _, a := range m.Assets {
		copyFile(filepath.Join(src, a.File), filepath.Join(dst, a.File))
		loads = append(loads, a.File)
		if a.LicenseFile != "" {
			copyFile(filepath.Join(src, a.LicenseFile), filepath.Join(dst, a.LicenseFile))
		}
		for _, d := range a.Files {
			copyFile(filepath.Join(src, d.File), filepath.Join(dst, d.File))
			loads = append(loads, d.File)
		}
	}
	return loads
}

func copyFile(src, dst string) {
	in, err := os.Open(src)
	check(err)
	defer in.Close()
	check(os.MkdirAll(filepath.Dir(dst), 0o755))
	out, err := os.Create(dst)
	check(err)
	_, err = io.Copy(out, in)
	check(err)
	check(out.Close())
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func brotliSize(b []byte) int {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, brotli.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func mb(n int) float64 { return float64(n) / (1 << 20) }

func flag(name, def string) string {
	for i, a := range os.Args[1:] {
		if a == name && i+2 < len(os.Args) {
			return os.Args[i+2]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return def
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "npm: "+format+"\n", a...)
	os.Exit(1)
}
