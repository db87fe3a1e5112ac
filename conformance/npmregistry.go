package conformance

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// NpmPrefix is where the network group's server answers as an npm registry
// (packuments at NpmPrefix+NAME, tarballs below them), for the npm and npx
// cases: a handful of small pure-JavaScript packages, built the same bytes
// every time so that their integrity is the same on every side.
const NpmPrefix = "/npm/"

// a package version: its package.json fields and files (package/...)
type npmVersion struct {
	name, version string
	manifest      map[string]any
	files         map[string]string
	exec          map[string]bool
}

func npmPackages() []npmVersion {
	pad := func(v, body string) npmVersion {
		return npmVersion{name: "left-pad-lite", version: v,
			manifest: map[string]any{"main": "index.js", "license": "MIT", "description": "pads strings"},
			files:    map[string]string{"index.js": body, "README.md": "# left-pad-lite\n"}}
	}
	return []npmVersion{
		pad("1.0.0", "module.exports = (s, n, c = ' ') => String(s).padStart(n, c);\nmodule.exports.version = '1.0.0';\n"),
		pad("1.1.0", "module.exports = (s, n, c = ' ') => String(s).padStart(n, c);\nmodule.exports.version = '1.1.0';\n"),
		pad("2.0.0-beta.1", "module.exports = () => { throw new Error('beta') };\nmodule.exports.version = '2.0.0-beta.1';\n"),
		{name: "greeter-cli", version: "2.0.0",
			manifest: map[string]any{"main": "lib/greet.js", "license": "ISC", "bin": map[string]any{"greet": "bin/greet.js"},
				"dependencies": map[string]any{"left-pad-lite": "^1.0.0"}},
			files: map[string]string{
				"lib/greet.js": "const pad = require('left-pad-lite');\nexports.greet = (name) => `hello, ${pad(name, 8, '.')}`;\n",
				"bin/greet.js": "#!/usr/bin/env node\nconsole.log(require('../lib/greet.js').greet(process.argv[2] || 'world'));\n",
			},
			exec: map[string]bool{"bin/greet.js": true}},
		{name: "old-pad-user", version: "1.0.0",
			manifest: map[string]any{"main": "index.js", "license": "MIT", "dependencies": map[string]any{"left-pad-lite": "1.0.0"}},
			files:    map[string]string{"index.js": "module.exports = 'uses left-pad-lite ' + require('left-pad-lite').version;\n"}},
		{name: "esm-only", version: "1.0.0",
			manifest: map[string]any{"type": "module", "license": "MIT", "exports": map[string]any{".": "./index.js", "./util": "./util.js"}},
			files: map[string]string{
				"index.js": "export const answer = 42;\nexport default function hi() { return 'hi from esm-only'; }\n",
				"util.js":  "export const twice = (x) => x * 2;\n",
			}},
		// a peer dependency, which npm 7+ installs beside the package
		{name: "host-lib", version: "1.0.0",
			manifest: map[string]any{"main": "index.js", "license": "MIT"},
			files:    map[string]string{"index.js": "module.exports = { host: 'host-lib 1.0.0' };\n"}},
		{name: "plugin-x", version: "1.0.0",
			manifest: map[string]any{"main": "index.js", "license": "MIT", "peerDependencies": map[string]any{"host-lib": "^1.0.0"}},
			files:    map[string]string{"index.js": "module.exports = 'plugin on ' + require('host-lib').host;\n"}},
		// a hostile package: its tarball names paths outside package/
		{name: "evil-tar", version: "1.0.0",
			manifest: map[string]any{"main": "index.js", "license": "MIT"},
			files: map[string]string{
				"index.js":                "module.exports = 'evil-tar loaded';\n",
				"../../escaped.txt":       "written outside the package\n",
				"../../../../tmp/abs.txt": "written far outside\n",
			}},
		{name: "@demo/scoped", version: "0.3.1",
			manifest: map[string]any{"main": "index.js", "license": "MIT", "scripts": map[string]any{"postinstall": "node -e \"require('fs').writeFileSync('installed.txt', 'ok')\""}},
			files:    map[string]string{"index.js": "module.exports = { scoped: true };\n"}},
	}
}

type npmRegistry struct {
	once     sync.Once
	docs     map[string][]byte // packument JSON by name
	tarballs map[string][]byte // by path below NpmPrefix
	baseURL  string
}

var registry npmRegistry

func (r *npmRegistry) build() {
	r.docs = map[string][]byte{}
	r.tarballs = map[string][]byte{}
	r.baseURL = "http://" + NetAddr + NpmPrefix
	byName := map[string][]npmVersion{}
	var names []string
	for _, v := range npmPackages() {
		if _, ok := byName[v.name]; !ok {
			names = append(names, v.name)
		}
		byName[v.name] = append(byName[v.name], v)
	}
	for _, name := range names {
		versions := map[string]any{}
		times := map[string]any{"created": "2024-01-01T00:00:00.000Z", "modified": "2024-01-01T00:00:00.000Z"}
		latest := ""
		for _, v := range byName[name] {
			tgz := npmTarball(v)
			base := name[strings.LastIndex(name, "/")+1:]
			rel := strings.ReplaceAll(name, "/", "%2f") + "/-/" + base + "-" + v.version + ".tgz"
			r.tarballs[rel] = tgz
			sum512 := sha512.Sum512(tgz)
			sum1 := sha1.Sum(tgz)
			m := map[string]any{"name": name, "version": v.version, "_id": name + "@" + v.version,
				"dist": map[string]any{"tarball": r.baseURL + rel,
					"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
					"shasum":    hex.EncodeToString(sum1[:])}}
			for k, x := range v.manifest {
				m[k] = x
			}
			versions[v.version] = m
			times[v.version] = "2024-01-01T00:00:00.000Z"
			if !strings.Contains(v.version, "-") {
				latest = v.version
			}
		}
		doc := map[string]any{"name": name, "dist-tags": map[string]any{"latest": latest}, "versions": versions, "time": times}
		b, _ := json.Marshal(doc)
		r.docs[name] = b
	}
}

// npmTarball: package/package.json and the files, gzip'd tar with fixed times
func npmTarball(v npmVersion) []byte {
	manifest := map[string]any{"name": v.name, "version": v.version}
	for k, x := range v.manifest {
		manifest[k] = x
	}
	pj, _ := json.MarshalIndent(manifest, "", "  ")
	files := map[string]string{"package.json": string(pj) + "\n"}
	for k, x := range v.files {
		files[k] = x
	}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	mtime := time.Date(1985, 10, 26, 8, 15, 0, 0, time.UTC) // npm's fixed time
	for _, p := range paths {
		mode := int64(0o644)
		if v.exec[p] {
			mode = 0o755
		}
		_ = tw.WriteHeader(&tar.Header{Name: "package/" + p, Mode: mode, Size: int64(len(files[p])), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatUSTAR})
		_, _ = tw.Write([]byte(files[p]))
	}
	_ = tw.Close()
	var gb bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&gb, gzip.BestCompression)
	_, _ = gw.Write(tb.Bytes())
	_ = gw.Close()
	return gb.Bytes()
}

func (r *npmRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.once.Do(r.build)
	rel := strings.TrimPrefix(req.URL.EscapedPath(), NpmPrefix)
	if strings.Contains(rel, "/-/") {
		if b, ok := r.tarballs[rel]; ok {
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write(b)
			return
		}
		http.NotFound(w, req)
		return
	}
	name := strings.ReplaceAll(strings.ReplaceAll(rel, "%2f", "/"), "%2F", "/")
	if b, ok := r.docs[name]; ok {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(`{"error":"Not found"}`))
}
