#!/usr/bin/env bash
# Builds xz.wasm (xz, unxz, xzcat, lzma, unlzma, lzcat: xz picks the mode from argv[0])
# from Debian's xz-utils 5.4.1 with its own configure, single-threaded, static.
set -euo pipefail
cd "$SRC/xz"
./configure --host=wasm32-unknown-wasi CC="$CC" CFLAGS="-O2" \
  --disable-threads --disable-shared --enable-static --disable-nls \
  --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-scripts \
  --disable-doc --disable-sandbox --disable-symbol-versions \
  >configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
make -j"$JOBS" -C src/liblzma >make.log 2>&1 && make -j"$JOBS" -C src/xz >>make.log 2>&1 ||
  { tail -30 make.log >&2; exit 1; }
cp src/xz/xz "$OUT/xz.wasm"
{
  cat COPYING
  echo; echo "----- COPYING.LGPLv2.1 (parts of liblzma's build support) and COPYING.GPLv2 (xz's"
  echo "getopt_long from gnulib, not used with wasi-libc's own) follow in Debian's source -----"
} > "$OUT/LICENSE"
printf 'xz\nunxz\nxzcat\nlzma\nunlzma\nlzcat\n' > "$OUT/commands.txt"
