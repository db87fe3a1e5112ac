#!/usr/bin/env bash
# Builds patch.wasm from Debian's patch 2.7.6 (with its CVE fixes) with its own configure
# (assets/gnulib). Without fork, ed-style patches (which run ed) fail: "Can't fork".
# Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/patch"
gnu_prepare
gnu_configure
gnu_make
cp src/patch "$OUT/patch.wasm"
cp COPYING "$OUT/LICENSE"
echo patch >"$OUT/commands.txt"
