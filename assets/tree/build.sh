#!/usr/bin/env bash
# Builds tree.wasm from Debian's tree 2.1.0 with its Makefile. Env: SRC OUT CC JOBS.
set -euo pipefail
cd "$SRC/tree"
make -j"$JOBS" CC="$CC" LDFLAGS="-Wl,--gc-sections" \
  CFLAGS="-O2 -std=c11 -Wall -D_GNU_SOURCE -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64" tree \
  >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
cp tree "$OUT/tree.wasm"
cp LICENSE "$OUT/LICENSE"
echo tree > "$OUT/commands.txt"
