#!/usr/bin/env bash
# Builds quickjs.wasm: Debian's QuickJS (2025-04-26, from trixie) with wasmsand's
# Node.js layer: node.c (the start, the native calls), hash.c, zlib for node:zlib, and lib/ (the Node API in
# JavaScript, bundled and compiled to bytecode by the host's qjsc). Commands:
# node, npm, npx. Env from scripts/assets: SRC OUT CC JOBS ASSET_DIR.
set -euo pipefail
here=${ASSET_DIR:-$(cd "$(dirname "$0")" && pwd)}
Q="$SRC/quickjs"
obj="$PWD/obj"
mkdir -p "$obj" host

# host tools: qjs (runs the bundler) and qjsc (compiles the bundle to bytecode)
make -C "$Q" -j"$JOBS" qjs qjsc CONFIG_LTO= >host/make.log 2>&1 || { tail -30 host/make.log; exit 1; }
"$Q/qjs" -m "$here/bundle.js" "$here/lib" "$obj/node:internal"
(cd "$obj" && "$Q/qjsc" -c -N node_lib -o node_lib.c node:internal) # the name stack traces show

CFLAGS=(-O2 -D_GNU_SOURCE '-DCONFIG_VERSION="2025-04-26"' -fwrapv -Wno-everything -I"$Q")
for f in quickjs dtoa libregexp libunicode cutils quickjs-libc; do
  $CC "${CFLAGS[@]}" -c "$Q/$f.c" -o "$obj/$f.o" &
done
Z="$SRC/zlib"
for f in adler32 crc32 deflate inffast inflate inftrees trees zutil; do
  $CC -O2 -DHAVE_UNISTD_H -DHAVE_STDARG_H -w -c "$Z/$f.c" -o "$obj/z_$f.o" &
done
$CC "${CFLAGS[@]}" -I"$Z" -c "$here/node.c" -o "$obj/node.o" &
$CC "${CFLAGS[@]}" -c "$here/hash.c" -o "$obj/hash.o" &
$CC "${CFLAGS[@]}" -c "$obj/node_lib.c" -o "$obj/node_lib.o" &
wait
$CC -O2 -o "$OUT/quickjs.wasm" "$obj"/*.o -lm -Wl,--gc-sections

{
  echo "QuickJS (Debian quickjs 2025.04.26) — LICENSE:"; echo
  cat "$Q/LICENSE"
  echo; echo "-----"; echo "zlib (Debian zlib 1.2.13):"; echo
  sed -n '/Copyright (C)/,/madler@alumni.caltech.edu/p' "$Z/zlib.h"
  echo; echo "-----"; echo "wasmsand's Node.js layer (assets/quickjs/node.c, lib/): the project's licence."
} > "$OUT/LICENSE"
printf 'node\nnpm\nnpx\n' > "$OUT/commands.txt"
