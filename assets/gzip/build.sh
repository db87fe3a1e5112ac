#!/usr/bin/env bash
# Builds gzip.wasm (gzip, gunzip, zcat: argv[0] picks the program) from Debian's gzip 1.12
# with its own configure (assets/gnulib). gunzip and zcat are shell scripts in gzip
# (`exec gzip -d "$@"`, `exec gzip -cd "$@"`, with their own --help and --version): the
# multicall main (multicall.c here) does the same in one module, with the texts taken from
# the scripts' sources. Not built: gzexe, zcmp, zdiff, zgrep, zless, zmore, znew, zforce
# (shell scripts around other tools). Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/gzip"
gnu_prepare
gnu_configure
gnu_make
gnu_rename_main . gzip.o gzip
version=$(sed -n 's/^VERSION = //p' Makefile)
# wasmsand-texts.h: the scripts' version= and usage= strings as C strings ($0 -> %s).
for s in gunzip zcat; do
  for v in version usage; do
    printf 'static const char %s_%s[] =\n' "$s" "$v"
    awk -v v="$v" -v ver="$version" '
      !on && index($0, v "=\"") == 1 { on = 1; $0 = substr($0, length(v) + 3) }
      on {
        end = sub(/"$/, "")
        gsub(/@VERSION@/, ver); gsub(/\\/, "\\\\"); gsub(/%/, "%%"); gsub(/"/, "\\\"")
        gsub(/\$0/, "%s")
        printf "  \"%s\\n\"\n", $0
        if (end) exit
      }' "$s.in"
    echo ';'
  done
done >wasmsand-texts.h
"$CC" $GNU_CFLAGS -I. -c "$ASSET_DIR/multicall.c" -o multicall.o
"$CC" $GNU_CFLAGS -o gzip.wasm multicall.o bits.o deflate.o gzip.o inflate.o trees.o \
  unlzh.o unlzw.o unpack.o unzip.o util.o zip.o libver.a lib/libgzip.a $GNU_LIBS >>make.log 2>&1 ||
  { tail -20 make.log >&2; exit 1; }
cp gzip.wasm "$OUT/gzip.wasm"
cp COPYING "$OUT/LICENSE"
printf 'gzip\ngunzip\nzcat\n' >"$OUT/commands.txt"
