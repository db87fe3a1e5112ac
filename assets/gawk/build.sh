#!/usr/bin/env bash
# Builds gawk.wasm (command gawk only: awk stays mawk) from Debian's gawk 5.2.1 with its
# own configure (assets/gnulib) and our patches: pipes and two-way pipes spawn `sh -c`
# (patches/0001), and the extensions gawk ships are linked in (patches/0002,
# wasmsand-ext.c: no dlopen in WASI). No MPFR (-M), no persistent memory (PMA), no
# readline (the debugger, -D, reads plain lines). Env from scripts/assets:
# SRC OUT CC AR RANLIB JOBS ROOT ASSET_DIR.
#
# Data files (asset.json), under /usr/lib/wasmsand/gawk/: awk/*.awk, the awk library
# Debian installs in /usr/share/awk (inplace.awk for `gawk -i inplace`, getopt.awk...;
# not group.awk/passwd.awk, which run helper programs), and lib/NAME.so, a placeholder
# for each built-in extension, found through AWKLIBPATH as the real .so would be.
# AWKPATH defaults to .:/usr/lib/wasmsand/gawk/awk, AWKLIBPATH to /usr/lib/wasmsand/gawk/lib.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/gawk"
gnu_prepare
# msg.c has a global err(), as has the shim (BSD err(3)): rename gawk's.
GNU_CFLAGS="-O2 -Derr=gawk_err"
gnu_configure --disable-pma --disable-mpfr --without-readline --disable-extensions
datadir=/usr/lib/wasmsand/gawk
gawk_vars=(CFLAGS="$GNU_CFLAGS -DDYNAMIC" DEFPATH="'\".:$datadir/awk\"'" DEFLIBPATH="\"\\\"$datadir/lib\\\"\"")
gawk_objs=$(make -s -f Makefile -f - print-objs <<<'print-objs: ; @echo $(gawk_OBJECTS)')
gnu_make -C support
gnu_make "${gawk_vars[@]}" $gawk_objs

# The extensions: their own configure (for their config.h), then each compiled with its
# dl_load and plugin_is_GPL_compatible renamed; stack.c's functions clash with gawk's.
exts="filefuncs fnmatch inplace intdiv ordchr readdir readfile revoutput revtwoway rwarray time"
build=$(gnu_config_guess)
(cd extension && gnu_configure --disable-mpfr --build="$build")
rename="-Dstack_empty=ext_stack_empty -Dstack_top=ext_stack_top -Dstack_pop=ext_stack_pop -Dstack_push=ext_stack_push"
objs=()
for n in $exts gawkfts stack; do
  "$CC" $GNU_CFLAGS -DHAVE_CONFIG_H -Iextension -I. $rename -Ddl_load="wasmsand_${n}_dl_load" \
    -Dplugin_is_GPL_compatible="wasmsand_${n}_gpl" -c "extension/$n.c" -o "extension/ext-$n.o" >>make.log 2>&1 ||
    { tail -20 make.log >&2; exit 1; }
  objs+=("extension/ext-$n.o")
done
"$CC" $GNU_CFLAGS -I. -DWASMSAND_EXTENSIONS'(X)'="$(for n in $exts; do printf 'X(%s) ' "$n"; done)" \
  -c "$ASSET_DIR/wasmsand-ext.c" -o wasmsand-ext.o
"$CC" $GNU_CFLAGS -o gawk.wasm $gawk_objs wasmsand-ext.o "${objs[@]}" support/libsupport.a $GNU_LIBS -lm \
  >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }

cp gawk.wasm "$OUT/gawk.wasm"
cp COPYING "$OUT/LICENSE"
echo gawk >"$OUT/commands.txt"
files=()
for f in awklib/eg/lib/*.awk; do
  b=$(basename "$f")
  cp "$f" "$OUT/gawk-$b"
  files+=("{\"path\": \"awk/$b\", \"file\": \"gawk-$b\"}")
done
for n in $exts; do
  printf 'The gawk extension "%s" is built into gawk.wasm (no dynamic loading in WASI): this\nfile stands for it in AWKLIBPATH, so that @load "%s" and -l %s find it.\n' "$n" "$n" "$n" \
    >"$OUT/gawk-$n.so"
  files+=("{\"path\": \"lib/$n.so\", \"file\": \"gawk-$n.so\"}")
done
{
  echo '{"files": ['
  (IFS=$'\n'; echo "${files[*]}") | sed '$!s/$/,/'
  echo ']}'
} >"$OUT/asset.json"
