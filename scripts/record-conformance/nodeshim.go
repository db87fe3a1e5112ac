package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/evanw/esbuild/pkg/api"
)

// nodeShim is the node of a case that runs TypeScript (the reference is Node
// 20, which has no type stripping): the script's types are removed by
// esbuild into a hidden sibling file (.NAME.strip.js, .mjs or .cjs as the
// extension says), and Node runs that; any other invocation is Node's own.
func nodeShim(args []string) int {
	const real = "/usr/bin/node"
	out := append([]string{"node"}, args...)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-e" || a == "-p" || a == "--eval" || a == "--print" || a == "-" {
			break
		}
		if a == "-r" || a == "--require" || a == "--import" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		ext := filepath.Ext(a)
		if ext == ".ts" || ext == ".mts" || ext == ".cts" {
			stripped, err := stripFile(a, map[string]string{".ts": ".js", ".mts": ".mjs", ".cts": ".cjs"}[ext])
			if err != nil {
				fmt.Fprintln(os.Stderr, "node (record-conformance shim):", err)
				return 1
			}
			out[i+1] = stripped
		}
		break
	}
	err := syscall.Exec(real, out, os.Environ())
	fmt.Fprintln(os.Stderr, "node (record-conformance shim):", err)
	return 127
}

func stripFile(path, ext string) (string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	r := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderTS, Sourcefile: path, Target: api.ESNext})
	if len(r.Errors) > 0 {
		return "", fmt.Errorf("%s: %s", path, r.Errors[0].Text)
	}
	dest := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".strip"+ext)
	return dest, os.WriteFile(dest, r.Code, 0o644)
}
