#!/usr/bin/env bash
# Installs what building and testing wasmsand needs beyond Go, Node and gcc:
# Debian's clang-19 toolchain for WebAssembly (guest programs are C compiled
# to wasm32-wasi) and bash/coreutils references for the benchmarks.
# Idempotent: does nothing when everything is present.
set -euo pipefail
pkgs=(clang-19 lld-19 llvm-19 libclang-rt-19-dev-wasm32 wasi-libc wabt
  dpkg-dev patch make xz-utils bzip2 ca-certificates tcl # second line: scripts/assets (apt-get source, dpkg-source; tclsh makes sqlite3.c)
  python3.11 # assets/python: the build Python for cross-building CPython 3.11 (also the reference for tests)
  chromium # make test-browser: the npm package in headless Chromium (driven by npm playwright-core)
  binaryen # assets/perl: wasm-opt --asyncify (setjmp/longjmp); assets/python: -O3 after LTO; the compiler wrapper keeps clang from running it on other assets
  rustc cargo libstd-rust-dev-wasm32 # Debian's Rust 1.63: assets/ripgrep and assets/fd (scripts/assets unpacks their crates), and a WASI plugin in the cmd/wasmsand tests
  python3-requests # core tests: requests (and urllib3) in the sandbox reach the network through the bridge
  gawk) # make bench: the native reference of the gawk asset (userland)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
echo "deps: installing ${missing[*]}" >&2
# installing gawk makes it Debian's awk: the machine's choice (mawk) is put back,
# as the benchmarks' native references are Debian's defaults
awk_before=$(readlink -f /usr/bin/awk 2>/dev/null || true)
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
if [ -n "$awk_before" ] && [ "$(readlink -f /usr/bin/awk)" != "$awk_before" ]; then
  $SUDO update-alternatives --set awk "$awk_before" >/dev/null 2>&1 || true
fi
