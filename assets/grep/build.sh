#!/usr/bin/env bash
# Builds grep.wasm (grep, egrep, fgrep) from Debian's grep 3.8 with its own configure
# (assets/gnulib: config.site for the cross configure, helpers), and PCRE2 10.42 for
# grep -P. Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"

# PCRE2 (the mirror serves 10.42-1; bookworm-security's 10.42-1+deb12u2 is not on it)
gnu_pcre2

cd "$SRC/grep"
gnu_prepare
gnu_configure --enable-perl-regexp \
  PCRE_CFLAGS="-I$SRC/pcre2/src -DPCRE2_STATIC" PCRE_LIBS="$SRC/pcre2/.libs/libpcre2-8.a"
grep -q '^#define HAVE_LIBPCRE 1' config.h || { echo "grep: configure did not take PCRE2" >&2; exit 1; }
gnu_make
cp src/grep "$OUT/grep.wasm"
{
  cat COPYING
  echo; echo "----- PCRE2 10.42 (grep -P), from Debian's pcre2 source: LICENCE -----"; echo
  cat "$SRC/pcre2/LICENCE"
} >"$OUT/LICENSE"
printf 'grep\negrep\nfgrep\n' >"$OUT/commands.txt"
