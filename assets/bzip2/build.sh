#!/usr/bin/env bash
# Builds bzip2.wasm (bzip2, bunzip2, bzcat: bzip2 picks the mode from argv[0]) from
# Debian's bzip2 1.0.8, compiled directly (Debian's Makefile links a shared libbz2).
set -euo pipefail
cd "$SRC/bzip2"
srcs="blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c bzip2.c"
for f in $srcs; do echo "$f"; done |
  xargs -P "$JOBS" -I{} sh -c "$CC -O2 -Wall -D_FILE_OFFSET_BITS=64 -c {} -o {}.o"
$CC -o "$OUT/bzip2.wasm" *.c.o -Wl,--gc-sections
cp LICENSE "$OUT/LICENSE"
printf 'bzip2\nbunzip2\nbzcat\n' > "$OUT/commands.txt"
