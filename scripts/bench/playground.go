package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"
)

// playgroundBench: the playground's load in headless Chromium (playground/test/bench.mjs):
// the prompt with empty and warm caches, the first ls, the bytes before the first
// command, beside just-bash's browser bundle (its size, and its first `ls /` in a page).
func playgroundBench(context.Context) {
	fmt.Println()
	if _, err := os.Stat("build/playground/index.html"); err != nil {
		fmt.Println("playground: skipped: no build/playground (make playground)")
		return
	}
	args := []string{"playground/test/bench.mjs", "build/playground"}
	if dir, err := justBashPage(); err != nil {
		fmt.Println("playground: just-bash's page: skipped:", err)
	} else {
		args = append(args, dir)
	}
	cmd := exec.Command("node", args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Println("playground: failed:", err)
	}
}

// justBashPage bundles just-bash's browser build as an application would (its bare
// imports resolved by esbuild) into build/bench-just-bash/, with a stand-in for the
// node:zlib it imports (used by its gzip commands only), and returns the directory.
func justBashPage() (string, error) {
	entry := "node_modules/just-bash/dist/bundle/browser.js"
	if _, err := os.Stat(entry); err != nil {
		return "", err
	}
	dir := filepath.Join("build", "bench-just-bash")
	r := api.Build(api.BuildOptions{
		EntryPoints: []string{entry}, Bundle: true, Write: true, Outfile: filepath.Join(dir, "just-bash.js"),
		Platform: api.PlatformBrowser, Format: api.FormatESModule,
		MinifyWhitespace: true, MinifySyntax: true, MinifyIdentifiers: true,
		External: []string{"node:zlib"},
	})
	if len(r.Errors) > 0 {
		return "", fmt.Errorf("esbuild: %s", r.Errors[0].Text)
	}
	stub := "const no = () => { throw new Error(\"no zlib in this page\"); };\nexport const constants = {};\nexport const gunzipSync = no, gzipSync = no;\n"
	return dir, os.WriteFile(filepath.Join(dir, "zlib-stub.js"), []byte(stub), 0o644)
}
