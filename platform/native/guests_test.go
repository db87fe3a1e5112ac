package native

// Test guests: C programs under testdata/guests compiled with Debian's clang-19 for
// wasm32-wasi, and Go programs under testdata/goguests built with GOOS=wasip1. Each is
// built once per source hash into a cache directory, so only the first run pays.

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
	guestMu    sync.Mutex
	guestBuilt = map[string][]byte{}
)

func guestCacheDir(t testing.TB) string {
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

// wasiSysroot finds wasi-libc: Debian's multiarch layout (/usr/include/wasm32-wasi) or a
// classic sysroot.
func wasiSysroot() string {
	for _, d := range []string{"/usr/share/wasi-sysroot", "/opt/wasi-sdk/share/wasi-sysroot"} {
		if _, err := os.Stat(filepath.Join(d, "include")); err == nil {
			return d
		}
	}
	return "/usr"
}

func hashOf(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// guestExtras are sources linked into some guests, relative to wasi/include.
var guestExtras = map[string][]string{"pwd": {"wasmsand_cwd.c"}}

// cGuest returns the wasm of testdata/guests/<name>.c.
func cGuest(t testing.TB, name string) []byte {
	t.Helper()
	guestMu.Lock()
	defer guestMu.Unlock()
	if b, ok := guestBuilt["c/"+name]; ok {
		return b
	}
	clang, err := exec.LookPath("clang-19")
	if err != nil {
		t.Fatalf("clang-19 is not installed (%v): run `make deps` to install the wasm toolchain "+
			"(clang-19 lld-19 libclang-rt-19-dev-wasm32 wasi-libc)", err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "guests", name+".c"))
	if err != nil {
		t.Fatalf("guest %s: %v", name, err)
	}
	inc, _ := filepath.Abs(filepath.Join("..", "..", "wasi", "include"))
	hdr, _ := os.ReadFile(filepath.Join(inc, "wasmsand.h"))
	sysroot := wasiSysroot()
	args := []string{"--target=wasm32-wasi", "--sysroot=" + sysroot, "-O2", "-I", inc}
	parts := [][]byte{src, hdr, []byte(strings.Join(args, " "))}
	for _, x := range guestExtras[name] {
		b, err := os.ReadFile(filepath.Join(inc, x))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, b)
		args = append(args, filepath.Join(inc, x))
	}
	out := filepath.Join(guestCacheDir(t), name+"-"+hashOf(parts...)+".wasm")
	if b, err := os.ReadFile(out); err == nil {
		guestBuilt["c/"+name] = b
		return b
	}
	tmp := out + ".tmp" + hashOf([]byte(t.Name()))
	cmd := exec.Command(clang, append(args, "-o", tmp, filepath.Join("testdata", "guests", name+".c"))...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building guest %s: %v\n%s\n(missing wasi-libc or libclang-rt-19-dev-wasm32? run `make deps`)", name, err, msg)
	}
	if err := os.Rename(tmp, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	guestBuilt["c/"+name] = b
	return b
}

// goGuest returns the wasm of the Go program in testdata/goguests/<name>.
func goGuest(t testing.TB, name string) []byte {
	t.Helper()
	guestMu.Lock()
	defer guestMu.Unlock()
	if b, ok := guestBuilt["go/"+name]; ok {
		return b
	}
	dir := filepath.Join("testdata", "goguests", name)
	src, err := os.ReadFile(filepath.Join(dir, "main.go"))
	if err != nil {
		t.Fatalf("go guest %s: %v", name, err)
	}
	out := filepath.Join(guestCacheDir(t), "go-"+name+"-"+hashOf(src, []byte(runtime.Version()))+".wasm")
	if b, err := os.ReadFile(out); err == nil {
		guestBuilt["go/"+name] = b
		return b
	}
	tmp := out + ".tmp"
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(gobin, "build", "-o", tmp, "./"+filepath.ToSlash(dir))
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := cmd.Run(); err != nil {
		t.Fatalf("building go guest %s: %v\n%s", name, err, msg.String())
	}
	if err := os.Rename(tmp, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	guestBuilt["go/"+name] = b
	return b
}
