#!/usr/bin/env bash
# Builds make.wasm from Debian's GNU make 4.3 (make-dfsg). Debian's source ships no
# configure script (Debian runs autoreconf) and autotools are not part of this build:
# config.h here is written by hand for wasm32-wasi, and the sources are compiled as
# make's own Basic.mk lists them (make_SOURCES, the POSIX and remote-stub parts), with
# the gnulib modules of lib/ that they use (fnmatch, glob, findprog-in...).
# No fork in WASI: USE_POSIX_SPAWN, with posix_spawn from spawn.c over wasmsand.spawn
# (include/spawn.h) and patches/0001 (reap_children waits for whichever child ends
# first). No jobserver (see config.h), no `load` (no dlopen), no Guile.
# Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT ASSET_DIR.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/make"
gnu_prepare
cp "$ASSET_DIR/config.h" src/config.h
cp lib/glob.in.h lib/glob.h
cp lib/fnmatch.in.h lib/fnmatch.h
CFLAGS=(-O2 -DHAVE_CONFIG_H -I"$ASSET_DIR/include" -Isrc -Ilib)
DEFS=(-DLIBDIR='"/usr/lib"' -DINCLUDEDIR='"/usr/include"' -DLOCALEDIR='"/usr/share/locale"')
srcs=$(sed -n 's/^make_SOURCES = //p; s/^posix_SOURCES = //p; s/^remote_SOURCES = //p' Basic.mk | sed 's/\$(src)/src\//g')
mkdir -p wasmsand-obj
objs=()
for f in $srcs; do
  o=wasmsand-obj/$(basename "$f" .c).o
  extra=()
  # wasi-libc calls main(argc, argv); make's main takes envp too (main-wasi.c).
  [ "$f" = src/main.c ] && extra=(-Dmain=make_main)
  "$CC" "${CFLAGS[@]}" "${DEFS[@]}" "${extra[@]}" -c "$f" -o "$o" >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
  objs+=("$o")
done
for f in fnmatch glob findprog-in concat-filename xconcat-filename xmalloc xalloc-die exitfail; do
  "$CC" "${CFLAGS[@]}" -c "lib/$f.c" -o "wasmsand-obj/lib-$f.o" >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
done
"$AR" rc wasmsand-obj/libgnu.a wasmsand-obj/lib-*.o
"$RANLIB" wasmsand-obj/libgnu.a
"$CC" -O2 -I"$ASSET_DIR/include" -c "$ASSET_DIR/spawn.c" -o wasmsand-obj/spawn.o
"$CC" -O2 -c "$ASSET_DIR/main-wasi.c" -o wasmsand-obj/main-wasi.o
"$CC" -O2 -msimd128 -mbulk-memory -fno-builtin -c "$ROOT/assets/gnulib/fastmem.c" -o wasmsand-obj/fastmem.o
"$CC" -O2 -o make.wasm "${objs[@]}" wasmsand-obj/spawn.o wasmsand-obj/main-wasi.o wasmsand-obj/libgnu.a \
  wasmsand-obj/fastmem.o >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
cp make.wasm "$OUT/make.wasm"
cp COPYING "$OUT/LICENSE"
echo make >"$OUT/commands.txt"
