// Package testguest builds the small guest programs tests run: C files with
// Debian's clang-19 for wasm32-wasi (with wasmsand's guest shim and header),
// and Go packages with GOOS=wasip1. Each build is cached by a hash of its
// inputs in the user cache directory, so only the first test run pays.
package testguest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	built = map[string][]byte{}
)

// root is the repository root, found from this file's location.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func cacheDir(t testing.TB) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "wasmsand-test", "guests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("guest cache: %v", err)
	}
	return dir
}

func hashOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// C returns the wasm of a C source file (a path relative to the test's
// package directory), linked with assets/shim (cwd from $PWD) and compiled
// with wasi/include on the include path.
func C(t testing.TB, src string) []byte {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	abs, _ := filepath.Abs(src)
	if b, ok := built[abs]; ok {
		return b
	}
	clang, err := exec.LookPath("clang-19")
	if err != nil {
		t.Fatalf("clang-19 is not installed (%v): run `make deps` to install the wasm toolchain", err)
	}
	code, err := os.ReadFile(abs)
	if err != nil {
		t.Fatalf("guest %s: %v", src, err)
	}
	inc := filepath.Join(root(), "wasi", "include")
	shim := filepath.Join(root(), "assets", "shim", "cwd.c")
	hdr, _ := os.ReadFile(filepath.Join(inc, "wasmsand.h"))
	shimSrc, _ := os.ReadFile(shim)
	args := []string{"--target=wasm32-wasi", "-O2", "-I", inc}
	name := strings.TrimSuffix(filepath.Base(abs), ".c")
	out := filepath.Join(cacheDir(t), name+"-"+hashOf(code, hdr, shimSrc, []byte(strings.Join(args, " ")))+".wasm")
	if b, err := os.ReadFile(out); err == nil {
		built[abs] = b
		return b
	}
	tmp := out + ".tmp" + hashOf([]byte(t.Name()))
	cmd := exec.Command(clang, append(args, "-o", tmp, abs, shim)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building guest %s: %v\n%s\n(missing wasi-libc or libclang-rt-19-dev-wasm32? run `make deps`)", src, err, msg)
	}
	return finish(t, abs, tmp, out)
}

// Go returns the wasm of a Go main package (a directory relative to the
// test's package directory) built for GOOS=wasip1.
func Go(t testing.TB, dir string) []byte {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	abs, _ := filepath.Abs(dir)
	if b, ok := built[abs]; ok {
		return b
	}
	var srcs [][]byte
	files, _ := filepath.Glob(filepath.Join(abs, "*.go"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		srcs = append(srcs, b)
	}
	srcs = append(srcs, []byte(runtime.Version()))
	out := filepath.Join(cacheDir(t), "go-"+filepath.Base(abs)+"-"+hashOf(srcs...)+".wasm")
	if b, err := os.ReadFile(out); err == nil {
		built[abs] = b
		return b
	}
	tmp := out + ".tmp" + hashOf([]byte(t.Name()))
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", tmp, ".")
	cmd.Dir = abs
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		t.Fatalf("building go guest %s: %v\n%s", dir, err, msg.String())
	}
	return finish(t, abs, tmp, out)
}

func finish(t testing.TB, key, tmp, out string) []byte {
	if err := os.Rename(tmp, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	built[key] = b
	return b
}
