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
		{"node_modules/@xterm/xterm/lib/xterm.mjs", "vendor/xterm.mjs"},
		{"node_modules/@xterm/xterm/css/xterm.css", "vendor/xterm.css"},
		{"node_modules/@xterm/addon-fit/lib/addon-fit.mjs", "vendor/addon-fit.mjs"},
		{"node_modules/@xterm/xterm/LICENSE", "vendor/LICENSE.xterm"},
		{"build/npm/web", "web"},
		{"build/npm/wasmsand.wasm", "wasmsand.wasm"},
		{"build/npm/assets", "assets"},
		{"build/npm/pyodide", "pyodide"},
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
