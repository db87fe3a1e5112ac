#!/usr/bin/env bash
# Builds rg.wasm: Debian's ripgrep 13.0.0 with Debian's Rust (1.63) for
# wasm32-wasi, offline, against the crates of recipe.json (Debian's rust-*
# sources). No pcre2 feature (-P): PCRE2 would be a C library to cross-build.
# Env from scripts/assets: SRC OUT SHIM CC JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/rust/cargo-wasm.sh"
cargo_wasm_build ripgrep --bin rg
cp target/wasm32-wasi/release/rg.wasm "$OUT/rg.wasm"
rust_licenses ripgrep
echo rg > "$OUT/commands.txt"
