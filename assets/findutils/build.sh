#!/usr/bin/env bash
# Builds findutils.wasm (find, xargs: argv[0] picks the program) from Debian's findutils
# 4.9.0 with its own configure (assets/gnulib) and our patch (spawn instead of fork).
# No locate/updatedb (no database, no cron). Env from scripts/assets:
# SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/findutils"
gnu_prepare
gnu_configure --without-selinux
gnu_make -C gl && gnu_make -C lib && gnu_make -C find && gnu_make -C xargs
gnu_rename_main find ftsfind.o find
gnu_rename_main xargs xargs.o xargs
gnu_multicall multicall.c find find xargs
"$CC" $GNU_CFLAGS -o findutils.wasm multicall.c find/ftsfind.o xargs/xargs.o \
  find/libfindtools.a lib/libfind.a gl/lib/libgnulib.a -lm $GNU_LIBS >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
cp findutils.wasm "$OUT/findutils.wasm"
cp COPYING "$OUT/LICENSE"
printf 'find\nxargs\n' >"$OUT/commands.txt"
