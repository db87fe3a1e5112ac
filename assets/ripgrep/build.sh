#!/usr/bin/env bash
# Builds rg.wasm: Debian's ripgrep 13.0.0 with Debian's Rust (1.63) for
# wasm32-wasi, offline, against the crates of recipe.json (Debian's
# librust-*-dev packages), with the pcre2 feature (-P) on Debian's PCRE2
# 10.42, cross-built here as for grep -P (static, 8-bit, no JIT).
# Env from scripts/assets: SRC CRATES OUT SHIM CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
. "$ROOT/assets/rust/cargo-wasm.sh"

gnu_pcre2

export PCRE2_SYS_LIB_DIR="$SRC/pcre2/.libs" # (assets/ripgrep/patches/pcre2-sys-lib-dir.patch)
cargo_wasm_build ripgrep --bin rg --features pcre2
cp target/wasm32-wasi/release/rg.wasm "$OUT/rg.wasm"
rust_licenses ripgrep
{ echo; echo "----- PCRE2 10.42 (rg -P), from Debian's pcre2 source: LICENCE -----"; echo
  cat "$SRC/pcre2/LICENCE"; } >> "$OUT/LICENSE"
echo rg > "$OUT/commands.txt"
