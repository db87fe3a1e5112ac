#!/usr/bin/env bash
# Builds fd.wasm: Debian's fd-find 8.6.0 with Debian's Rust (1.63) for
# wasm32-wasi, offline, against the crates of recipe.json (Debian's
# librust-*-dev packages). Installed as fd, and as fdfind (Debian's name).
# Env from scripts/assets: SRC CRATES OUT SHIM CC JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/rust/cargo-wasm.sh"
cargo_wasm_build fd --bin fd
cp target/wasm32-wasi/release/fd.wasm "$OUT/fd.wasm"
rust_licenses fd
printf 'fd\nfdfind\n' > "$OUT/commands.txt"
