#!/usr/bin/env bash
# Builds mawk.wasm (awk) from Debian's mawk 1.3.4-20200120 with its own configure,
# cross-compiling for wasm32-wasi. Env from scripts/assets: SRC OUT CC JOBS.
set -euo pipefail
cd "$SRC/mawk"
./configure --host=wasm32-unknown-wasi CC="$CC" CFLAGS="-O2 -Wno-deprecated-non-prototype" \
  >configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
# makescan (generates the scanner's character table) runs on the build machine.
make -j"$JOBS" BUILD_CC="$HOSTCC" BUILD_CFLAGS= BUILD_LDFLAGS= mawk >make.log 2>&1 ||
  { tail -30 make.log >&2; exit 1; }
cp mawk "$OUT/mawk.wasm"
cp COPYING "$OUT/LICENSE"
printf 'awk\nmawk\n' > "$OUT/commands.txt"
