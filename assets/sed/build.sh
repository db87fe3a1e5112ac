#!/usr/bin/env bash
# Builds sed.wasm from Debian's sed 4.9 with its own configure (assets/gnulib).
# Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/sed"
gnu_prepare
gnu_configure --disable-acl --without-selinux
gnu_make
cp sed/sed "$OUT/sed.wasm"
cp COPYING "$OUT/LICENSE"
echo sed >"$OUT/commands.txt"
