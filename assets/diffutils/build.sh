#!/usr/bin/env bash
# Builds diffutils.wasm (diff, cmp, diff3, sdiff: argv[0] picks the program) from
# Debian's diffutils 3.8 with its own configure (assets/gnulib). Without fork, diff3
# and sdiff run diff (/usr/bin/diff) through popen. Env from scripts/assets:
# SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/diffutils"
gnu_prepare
gnu_configure
gnu_make
# One module: each program's main renamed, a dispatcher on argv[0].
for p in diff cmp diff3 sdiff; do gnu_rename_main src "$p.o" "$p"; done
gnu_multicall multicall.c diff diff cmp diff3 sdiff
objs=$(sed -n 's/^am_diff_OBJECTS = //; T; :a; /\\$/{N; s/\\\n//; ba}; s/\$(OBJEXT)/o/g; p' src/Makefile)
(cd src && "$CC" $GNU_CFLAGS -o ../diffutils.wasm ../multicall.c cmp.o diff3.o sdiff.o $objs libver.a ../lib/libdiffutils.a $GNU_LIBS) \
  >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
cp diffutils.wasm "$OUT/diffutils.wasm"
cp COPYING "$OUT/LICENSE"
printf 'diff\ncmp\ndiff3\nsdiff\n' >"$OUT/commands.txt"
