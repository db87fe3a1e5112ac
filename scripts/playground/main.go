// Command playground writes build/playground: the playground's page (playground/),
// xterm.js from node_modules, and the browser build of the npm package (build/npm: its
// web entry, the core and the guest programs), as a directory any static server can
// serve (`make playground`).
package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	const out = "build/playground"
	if err := os.RemoveAll(out); err != nil {
		fail(err)
	}
	copies := []struct{ from, to string }{
		{"playground/index.html", "index.html"},
		{"playground/app.js", "app.js"},
		{"playground/boot.js", "boot.js"},
		{"playground/app.css", "app.css"},
		{"playground/sw.js", "sw.js"},
		{"playground/_headers", "_headers"},
		{"node_modules/@xterm/xterm/lib/xterm.mjs", "vendor/xterm.mjs"},
		{"node_modules/@xterm/xterm/css/xterm.css", "vendor/xterm.css"},
		{"node_modules/@xterm/addon-fit/lib/addon-fit.mjs", "vendor/addon-fit.mjs"},
		{"node_modules/@xterm/xterm/LICENSE", "vendor/LICENSE.xterm"},
		{"build/npm/web", "web"},
		{"build/npm/wasmsand.wasm", "wasmsand.wasm"},
		{"build/npm/wasmsand.browser.init", "wasmsand.browser.init"},
		{"build/npm/assets", "assets"},
		{"build/npm/pyodide", "pyodide"},
	}
	if err := checkInlineKeys(); err != nil {
		fail(err)
	}
	for _, c := range copies {
		if err := copyTree(c.from, filepath.Join(out, c.to)); err != nil {
			fail(err)
		}
	}
	var size int64
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	fmt.Printf("playground: %s (%.1f MB)\n", out, float64(size)/1e6)
}

// checkInlineKeys: index.html's inline script (a classic script, which cannot
// import them) repeats the Cache API's name, its key format and the
// localStorage key of web/cache.js and web/index.js; the build stops when they
// differ, so that the early core never looks in the wrong place.
func checkInlineKeys() error {
	read := func(p string) (string, error) {
		b, err := os.ReadFile(p)
		return string(b), err
	}
	page, err := read("playground/index.html")
	if err != nil {
		return err
	}
	cacheJS, err := read("web/cache.js")
	if err != nil {
		return err
	}
	indexJS, err := read("web/index.js")
	if err != nil {
		return err
	}
	constant := func(src, name string) string {
		m := regexp.MustCompile(`export const ` + name + ` = "([^"]*)";`).FindStringSubmatch(src)
		if m == nil {
			return ""
		}
		return m[1]
	}
	cache, kept := constant(cacheJS, "CACHE"), constant(indexJS, "KEPT_KEY")
	const key = `url + "?sha256=" + sha256`
	for _, c := range []struct{ in, want, what string }{
		{cacheJS, key, "web/cache.js's cacheKey"},
		{page, `caches.open("` + cache + `")`, "web/cache.js's CACHE " + strconv.Quote(cache)},
		{page, `localStorage.getItem("` + kept + `" + url)`, "web/index.js's KEPT_KEY " + strconv.Quote(kept)},
		{page, `c.match(` + key + `)`, "web/cache.js's key format"},
	} {
		if cache == "" || kept == "" || !strings.Contains(c.in, c.want) {
			return fmt.Errorf("playground/index.html's inline script no longer matches %s: update it (looked for %s)", c.what, c.want)
		}
	}
	return nil
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		o, err := os.Create(dst)
		if err != nil {
			return err
		}
		if _, err := io.Copy(o, in); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	})
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "playground:", err)
	os.Exit(1)
}
