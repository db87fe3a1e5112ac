#!/usr/bin/env bash
# Builds grep.wasm (grep, egrep, fgrep) from Debian's grep 3.8 with its own configure
# (assets/gnulib: config.site for the cross configure, helpers). Env from scripts/assets:
# SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/grep"
gnu_prepare
# No PCRE2 (grep -P): not built here.
gnu_configure --disable-perl-regexp
gnu_make
cp src/grep "$OUT/grep.wasm"
cp COPYING "$OUT/LICENSE"
printf 'grep\negrep\nfgrep\n' >"$OUT/commands.txt"
