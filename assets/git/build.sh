#!/usr/bin/env bash
# Builds git.wasm (one multicall binary: every builtin, dispatched on argv) from Debian's
# git 2.39.5 with our patch (spawn instead of fork, see patches/0001-wasi.patch) and
# Debian's zlib built static. No curl/openssl/expat/perl/python/gettext, no threads.
# The shell-script commands (bisect, submodule, mergetool, difftool's helper...) come
# along as data files in the exec path.
# Env from scripts/assets: SRC OUT CC AR RANLIB HOSTCC JOBS ASSET_DIR.
set -euo pipefail
work=$SRC/wasi-deps
rm -rf "$work"
mkdir -p "$work/zlib/lib" "$work/zlib/include" "$work/zlib/obj"

# zlib: the library sources alone (its configure probes the host).
objs=()
for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees trees uncompr zutil; do
  "$CC" -O2 -DHAVE_UNISTD_H -DHAVE_STDARG_H -w -c "$SRC/zlib/$f.c" -o "$work/zlib/obj/$f.o" &
  objs+=("$work/zlib/obj/$f.o")
  [ "$(jobs -r | wc -l)" -lt "$JOBS" ] || wait -n
done
wait
"$AR" rcs "$work/zlib/lib/libz.a" "${objs[@]}"
"$RANLIB" "$work/zlib/lib/libz.a"
cp "$SRC/zlib/zlib.h" "$SRC/zlib/zconf.h" "$work/zlib/include/"

cd "$SRC/git"
cp "$ASSET_DIR/config.mak" config.mak
cp "$ASSET_DIR"/compat/wasi.c "$ASSET_DIR"/compat/wasi.h "$ASSET_DIR"/compat/wasi-templates.h \
  "$ASSET_DIR"/compat/wasi-envsubst.c compat/
mk=(make -j"$JOBS" uname_S=WASI uname_M=wasm32 uname_O=WASI uname_R=0 uname_P=wasm32 uname_V=0
  CC="$CC" AR="$AR" RANLIB="$RANLIB" ZLIB_PATH="$work/zlib" V=1)
# the default templates, built in (git init)
"${mk[@]}" -C templates SHELL_PATH=/bin/sh PERL_PATH=/usr/bin/perl >make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
"$ASSET_DIR/mktemplates.sh" templates/blt >compat/wasi-templates.c
# git's shell-script commands and their libraries (no perl/python ones)
scripts=(git-bisect git-difftool--helper git-filter-branch git-merge-octopus git-merge-one-file
  git-merge-resolve git-mergetool git-quiltimport git-request-pull git-submodule git-web--browse
  git-mergetool--lib git-sh-i18n git-sh-setup)
"${mk[@]}" git "${scripts[@]}" SHELL_PATH=/bin/sh >>make.log 2>&1 ||
  { grep -E 'error|undefined' make.log | head -20 >&2; tail -20 make.log >&2; exit 1; }
cp git "$OUT/git.wasm"
# They are data files, shown read-only at /usr/lib/wasmsand/git/<path> (the exec path,
# gitexecdir in config.mak); git runs them with sh (patches/0001-wasi.patch).
files=()
for f in "${scripts[@]}"; do
  cp "$f" "$OUT/git-core.$f"
  files+=("{\"path\": \"$f\", \"file\": \"git-core.$f\"}")
done
for f in mergetools/*; do
  b=${f#mergetools/}
  cp "$f" "$OUT/git-core.mergetools.$b"
  files+=("{\"path\": \"mergetools/$b\", \"file\": \"git-core.mergetools.$b\"}")
done
{
  printf '{\n  "files": [\n'
  n=${#files[@]}
  for i in "${!files[@]}"; do
    printf '    %s' "${files[$i]}"
    [ "$i" -lt $((n - 1)) ] && printf ','
    printf '\n'
  done
  printf '  ]\n}\n'
} >"$OUT/asset.json"
{
  cat COPYING
  printf '\n\n---- zlib (Debian zlib 1.2.13, linked in) ----\n\n'
  cat "$SRC/zlib/LICENSE"
} >"$OUT/LICENSE"
printf 'git\n' >"$OUT/commands.txt"
