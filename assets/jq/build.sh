#!/usr/bin/env bash
# Builds jq.wasm: Debian's jq 1.6 (with its security patches) + oniguruma 6.9.8 for
# regular expressions, compiled directly (both upstream trees need autoreconf; the
# lists below are their Makefile.am's). Env from scripts/assets: SRC OUT CC JOBS.
set -euo pipefail
CFLAGS="-O2 -D_GNU_SOURCE -D_ALL_SOURCE -Wno-macro-redefined"
CFLAGS="$CFLAGS -Wno-unused-but-set-variable -Wno-deprecated-non-prototype"
obj="$PWD/obj"
mkdir -p "$obj/onig" "$obj/jq"

# --- oniguruma -------------------------------------------------------------------
O="$SRC/onig/src"
cat > "$O/config.h" <<'H'
#define HAVE_ALLOCA 1
#define HAVE_ALLOCA_H 1
#define HAVE_STDINT_H 1
#define HAVE_SYS_TIMES_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_INTTYPES_H 1
#define PACKAGE "onig"
#define PACKAGE_VERSION "6.9.8"
#define VERSION "6.9.8"
#define SIZEOF_INT 4
#define SIZEOF_LONG 4
#define SIZEOF_LONG_LONG 8
#define SIZEOF_VOIDP 4
H
onig_src="regparse.c regcomp.c regexec.c regenc.c regerror.c regext.c regsyntax.c
  regtrav.c regversion.c st.c unicode.c unicode_unfold_key.c unicode_fold1_key.c
  unicode_fold2_key.c unicode_fold3_key.c ascii.c utf8.c utf16_be.c utf16_le.c
  utf32_be.c utf32_le.c euc_jp.c euc_jp_prop.c sjis.c sjis_prop.c iso8859_1.c
  iso8859_2.c iso8859_3.c iso8859_4.c iso8859_5.c iso8859_6.c iso8859_7.c
  iso8859_8.c iso8859_9.c iso8859_10.c iso8859_11.c iso8859_13.c iso8859_14.c
  iso8859_15.c iso8859_16.c euc_tw.c euc_kr.c big5.c gb18030.c koi8_r.c cp1251.c
  onig_init.c"
for f in $onig_src; do echo "$f"; done |
  xargs -P "$JOBS" -I{} sh -c "$CC $CFLAGS -I$O -c $O/{} -o $obj/onig/{}.o"

# --- jq --------------------------------------------------------------------------
J="$SRC/jq/src"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$J/builtin.jq" > "$J/builtin.inc"
echo '#define JQ_VERSION "1.6"' > "$J/version.h"

# HAVE_<F> for every libc/libm function jq probes for that wasi-libc defines.
defs="-DHAVE_LIBONIG=1 -DHAVE_ALLOCA=1 -DHAVE_ALLOCA_H=1 -DHAVE_ISATTY=1 -DIEEE_8087=1"
defs="$defs -DHAVE_TM_TM_GMT_OFF=1 -DHAVE_ATEXIT=1"
syms=/usr/share/wasm32-wasi/defined-symbols.txt
for f in $(grep -o 'HAVE_[A-Z0-9_]*' "$J/libm.h" | sed 's/HAVE_//' | sort -u) \
         MEMMEM MKSTEMP TIMEGM GMTIME_R GMTIME LOCALTIME_R STRFTIME STRPTIME GETTIMEOFDAY \
         FREXP MODF LGAMMA_R; do
  name=$(echo "$f" | tr A-Z a-z)
  if grep -qx "$name" "$syms" || [ "$name" = mkstemp ]; then defs="$defs -DHAVE_$f=1"; fi
done

jq_src="builtin.c bytecode.c compile.c execute.c jq_test.c jv.c jv_alloc.c jv_aux.c
  jv_dtoa.c jv_file.c jv_parse.c jv_print.c jv_unicode.c linker.c locfile.c util.c
  lexer.c parser.c main.c"
for f in $jq_src; do echo "$f"; done |
  xargs -P "$JOBS" -I{} sh -c "$CC $CFLAGS $defs -I$SRC/jq -I$J -I$O -c $J/{} -o $obj/jq/{}.o"

# preinit.c: the start the engine pre-initializes (wasmsand_preinit/wasmsand_resume).
here=${ASSET_DIR:-$(cd "$(dirname "$0")" && pwd)}
$CC $CFLAGS $defs -I$SRC/jq -I$J -I$O -c "$here/preinit.c" -o "$obj/jq/preinit.o"
$CC -o "$OUT/jq.wasm" "$obj"/jq/*.o "$obj"/onig/*.o -lm -Wl,--gc-sections
{
  echo "jq (Debian jq 1.6) — COPYING:"; echo
  cat "$SRC/jq/COPYING"
  echo; echo "-----"; echo "oniguruma (Debian libonig 6.9.8) — COPYING:"; echo
  cat "$SRC/onig/COPYING"
} > "$OUT/LICENSE"
echo jq > "$OUT/commands.txt"
