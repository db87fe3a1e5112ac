package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Debian bookworm's WebAssembly toolchain (scripts/deps.sh installs it).
const (
	clangBin   = "clang-19"
	arBin      = "llvm-ar-19"
	ranlibBin  = "llvm-ranlib-19"
	stripBin   = "llvm-strip-19"
	wasiInc    = "/usr/include/wasm32-wasi"
	wasiLib    = "/usr/lib/wasm32-wasi"
	targetFlag = "--target=wasm32-wasi"
)

// Symbols every C guest gets through -Wl,--wrap (assets/shim/wrap.c).
var wrapped = []string{"stat", "lstat", "fstat", "fstatat", "open", "openat", "close", "write", "writev", "signal", "raise", "mkdir", "mkdirat", "fcntl", "access", "faccessat", "uname", "setlocale", "futimens", "utimensat", "linkat", "fopen", "fdopen", "fclose", "chdir", "getcwd", "__wasilibc_find_relpath", "__wasilibc_find_relpath_alloc"}

// toolchain is a private sysroot (wasi-libc only: no fallback to the host's glibc
// headers, which Debian's clang would otherwise search after wasi-libc's), the
// compiled shim and a compiler wrapper that adds both.
type toolchain struct {
	Dir    string // work/toolchain-<hash>
	Hash   string
	CC     string // the wrapper
	AR     string
	RANLIB string
}

func checkTools() error {
	var missing []string
	for _, t := range []string{clangBin, "wasm-ld-19", arBin, ranlibBin, stripBin, "apt-get", "dpkg-source", "patch", "make", "tar", "xz", "tclsh", "gcc"} {
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
		}
	}
	for _, p := range []string{wasiInc + "/stdio.h", wasiLib + "/libc.a", "/usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a"} {
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing %s: run `make deps` (scripts/deps.sh)", strings.Join(missing, ", "))
	}
	return nil
}

func output(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		return "error: " + err.Error()
	}
	return string(out)
}

// toolchainHash covers the compiler, wasi-libc, the shim sources, wasmsand.h and this
// tool's own code: any of them changing rebuilds every asset.
func toolchainHash(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "wasmsand-assets %d\n", toolVersion)
	fmt.Fprintln(h, output(clangBin, "--version"))
	fmt.Fprintln(h, output("dpkg-query", "-W", "-f=${Version}", "wasi-libc", "libclang-rt-19-dev-wasm32", "lld-19"))
	if err := hashTree(h, filepath.Join(root, "assets", "shim")); err != nil {
		return "", err
	}
	inc, err := os.ReadFile(filepath.Join(root, "wasi", "include", "wasmsand.h"))
	if err != nil {
		return "", err
	}
	h.Write(inc)
	// This tool's own sources: the wrapper's flags, the wrapped symbols, stripping.
	tool, _ := filepath.Glob(filepath.Join(root, "scripts", "assets", "*.go"))
	sort.Strings(tool)
	for _, p := range tool {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "tool %s %d\n", filepath.Base(p), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func setupToolchain(root, work string) (*toolchain, error) {
	hash, err := toolchainHash(root)
	if err != nil {
		return nil, err
	}
	tc := &toolchain{Dir: filepath.Join(work, "toolchain-"+hash[:12]), Hash: hash, AR: arBin, RANLIB: ranlibBin}
	tc.CC = filepath.Join(tc.Dir, "bin", "wasm32-wasi-cc")
	if _, err := os.Stat(tc.CC); err == nil {
		return tc, nil
	}
	// Built aside and renamed into place. Older toolchains stay (a build running
	// elsewhere may still use one; they are small): `make clean` removes them.
	tmp := tc.Dir + ".tmp"
	os.RemoveAll(tmp)
	for _, d := range []string{"bin", "sysroot/include", "sysroot/lib", "shim", "no-wasm-opt"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			return nil, err
		}
	}
	if err := os.Symlink(wasiInc, filepath.Join(tmp, "sysroot/include/wasm32-wasi")); err != nil {
		return nil, err
	}
	if err := os.Symlink(wasiLib, filepath.Join(tmp, "sysroot/lib/wasm32-wasi")); err != nil {
		return nil, err
	}
	shim := filepath.Join(root, "assets", "shim")
	final := tc.Dir
	cflags := []string{
		targetFlag, "--sysroot=" + filepath.Join(final, "sysroot"),
		"-isystem", filepath.Join(shim, "include"),
		"-I", filepath.Join(root, "wasi", "include"),
		"-D_WASI_EMULATED_SIGNAL", "-D_WASI_EMULATED_MMAN", "-D_WASI_EMULATED_PROCESS_CLOCKS",
		// declares getpid() without the "deprecated" attribute; the shim defines it
		// over wasmsand.getpid (libwasi-emulated-getpid is not linked)
		"-D_WASI_EMULATED_GETPID",
		// build paths out of __FILE__ and debug info: same bytes from any checkout
		"-ffile-prefix-map=" + filepath.Join(work, "build") + "/=/build/",
	}
	// Compile the shim against the sysroot being built (the final path is only
	// valid after the rename, so point at tmp for now).
	tmpFlags := append([]string{}, cflags...)
	tmpFlags[1] = "--sysroot=" + filepath.Join(tmp, "sysroot")
	var objs []string
	for _, f := range []string{"posix.c", "wrap.c", "cwd.c"} {
		obj := filepath.Join(tmp, "shim", strings.TrimSuffix(f, ".c")+".o")
		args := append(append([]string{}, tmpFlags...), "-Os", "-Wall", "-Werror", "-c", filepath.Join(shim, f), "-o", obj)
		if out, err := exec.Command(clangBin, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("shim %s: %v\n%s", f, err, out)
		}
		if f != "cwd.c" {
			objs = append(objs, obj)
		}
	}
	lib := filepath.Join(tmp, "shim", "libwasmsand-shim.a")
	if out, err := exec.Command(arBin, append([]string{"rcs", lib}, objs...)...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ar: %v\n%s", err, out)
	}
	// cwd.o goes in as an object: its constructor is referenced by nothing, so an
	// archive member would be dropped.
	link := []string{
		filepath.Join(final, "shim", "cwd.o"), filepath.Join(final, "shim", "libwasmsand-shim.a"),
	}
	for _, s := range wrapped {
		link = append(link, "-Wl,--wrap="+s)
	}
	link = append(link, "-lwasi-emulated-signal", "-lwasi-emulated-mman", "-lwasi-emulated-process-clocks")
	// A native main thread has an 8 MB stack; wasm-ld's default is 64 KB, on
	// which jq overflowed at 2,000 nested arrays (native: 10,000 and more).
	// Untouched stack pages cost nothing. --stack-first puts it below the
	// data, so an overflow traps (an address below 0) instead of writing
	// over the program's data, as it did above it.
	link = append(link, "-Wl,-z,stack-size=8388608", "-Wl,--stack-first")
	// clang-19 runs binaryen's wasm-opt on what it links whenever one is on
	// PATH (seen: sed, tar, xz 10-15% smaller), so the same stamp would give
	// other bytes on a machine with binaryen. Its --no-wasm-opt writes no
	// output at all (clang 19), so the wrapper puts a wasm-opt that leaves the
	// module as linked first on PATH.
	noOpt := `#!/bin/sh
# Generated by scripts/assets: stands in for binaryen's wasm-opt, which clang
# runs after linking when one is on PATH (as: -O<n> MODULE -o MODULE).
in= out=
while [ $# -gt 0 ]; do
  case "$1" in -o) out=$2; shift ;; -*) ;; *) in=$1 ;; esac
  shift
done
if [ -n "$in" ] && [ -n "$out" ] && [ "$in" != "$out" ]; then exec cp "$in" "$out"; fi
`
	if err := os.WriteFile(filepath.Join(tmp, "no-wasm-opt", "wasm-opt"), []byte(noOpt), 0o755); err != nil {
		return nil, err
	}
	script := fmt.Sprintf(`#!/bin/sh
# Generated by scripts/assets: clang-19 for wasm32-wasi with wasmsand's shim.
# Compiling: the private sysroot and the shim's headers. Linking: also the shim
# (cwd from $PWD, POSIX over the wasmsand imports) and wasi-libc's emulations,
# and no binaryen wasm-opt, installed or not.
PATH=%s:$PATH
export PATH
link=1
for a in "$@"; do
  case "$a" in -c|-E|-S|-M|-MM) link= ;; esac
done
if [ -n "$link" ]; then
  exec %s %s "$@" %s
fi
exec %s %s "$@"
`, shellJoin([]string{filepath.Join(final, "no-wasm-opt")}), clangBin, shellJoin(cflags), shellJoin(link), clangBin, shellJoin(cflags))
	if err := os.WriteFile(filepath.Join(tmp, "bin", "wasm32-wasi-cc"), []byte(script), 0o755); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, final); err != nil {
		return nil, err
	}
	return tc, nil
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
