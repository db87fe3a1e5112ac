#!/usr/bin/env bash
# Builds python3.wasm (CPython 3.11 from Debian's source, cross-built for
# wasm32-wasi) and its standard library zip. Called by scripts/assets with:
# SRC (patched sources: python, zlib, sqlite3), OUT, CC (wasm32-wasi wrapper),
# AR, RANLIB, HOSTCC, JOBS, ASSET_DIR (this directory), run in the asset's
# build directory (build/assets-work/build/python).
#
# Three stages, each cached under build/assets-work/cache/python by the hash
# of its own inputs, so that editing a Python-only file (lib/, a lib-*.patch)
# rebuilds only the zip (seconds), not the interpreter (minutes):
#   deps.sh    zlib + SQLite for wasm32-wasi        key: deps inputs + compiler
#   interp.sh  configure + make python.wasm         key: deps key + C inputs
#   mkzip.py   Lib/ + lib/ compiled to .pyc, zipped (always; ~10 s)
# The build Python is Debian's python3.11 (same 3.11.2 bytecode; scripts/deps.sh
# installs it), which saves building a native CPython first (~7 min).
set -euo pipefail
here=${ASSET_DIR:-$(cd "$(dirname "$0")" && pwd)}
cache=${PYTHON_CACHE:-$(cd ../.. && pwd)/cache/python}
mkdir -p "$cache"
log() { echo "python: $*" >&2; }
hash() { sha256sum | cut -c1-16; }

# Build Python: the same minor version as the source.
src_ver=$(sed -n 's/^#define PY_VERSION[ \t]*"\([0-9]*\.[0-9]*\).*"/\1/p' "$SRC/python/Include/patchlevel.h")
build_python=
for p in ${BUILD_PYTHON:-} "/usr/bin/python$src_ver" "$(command -v "python$src_ver" || true)"; do
  if [ -x "$p" ] && [ "$("$p" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$src_ver" ]; then
    build_python=$p
    break
  fi
done
if [ -z "$build_python" ]; then
  echo "python: cross-building CPython $src_ver needs python$src_ver on the build machine (scripts/deps.sh installs Debian's)" >&2
  exit 1
fi

# A toolchain change (compiler, wasi-libc, shim) changes the wrapper's path.
tc=$( (cat "$CC"; "$CC" --version) | hash)
export WASM_OPT=${WASM_OPT:-/usr/bin/wasm-opt} # scripts/deps.sh installs binaryen
[ -x "$WASM_OPT" ] || { echo "python: needs binaryen's wasm-opt (scripts/deps.sh installs it)" >&2; exit 1; }

# Cache entries are built aside (name.tmp.PID) and renamed into place, so two
# builds at once (two checkouts sharing build/) never see half an entry.
# (the recipe without its lib-*.patch lines, which only the zip depends on)
recipe=$(grep -v '"patches/lib-' "$here/recipe.json")
deps_key=$( (echo "$tc"; cat "$here/deps.sh" "$here/sqlite_wasi.c"; echo "$recipe") | hash)
deps=$cache/deps-$deps_key
if [ ! -f "$deps/ok" ]; then
  log "building zlib + sqlite3 ($deps_key)"
  t0=$SECONDS
  bash "$here/deps.sh" "$SRC" "$deps.tmp.$$"
  touch "$deps.tmp.$$/ok"
  mv -T "$deps.tmp.$$" "$deps" 2>/dev/null || rm -rf "$deps.tmp.$$"
  log "deps built in $((SECONDS - t0))s"
fi

# C-side inputs of the interpreter. lib-*.patch may only touch modules that
# are not frozen into the binary (checked below).
interp_key=$( (echo "$deps_key $tc"; "$WASM_OPT" --version; cat "$here/interp.sh" "$here/config.site" "$here/_wasmsandmodule.c" \
  "$here/preinit.c" "$ROOT/assets/gnulib/fastmem.c" "$here"/patches/c-*.patch; echo "$recipe") | hash)
interp=$cache/interp-$interp_key
if [ ! -f "$interp/ok" ]; then
  log "building the interpreter ($interp_key)"
  t0=$SECONDS
  b=$cache/interp-build.$$
  bash "$here/interp.sh" "$SRC/python" "$b" "$deps" "$build_python"
  t=$interp.tmp.$$
  mkdir -p "$t"
  cp "$b/python.wasm" "$b/modules-state.txt" "$t/"
  # (Debian's sysconfig patches put it beside, not inside, pybuilddir)
  cp "$(find "$b/build" -name '*_sysconfigdata_*.py' | head -1)" "$t/sysconfigdata.py"
  awk '/^FROZEN_FILES_IN/,/End FROZEN_FILES_IN/' "$b/Makefile" | grep -o 'Lib/[^ ]*\.py' | sort -u > "$t/frozen.txt"
  touch "$t/ok"
  mv -T "$t" "$interp" 2>/dev/null || rm -rf "$t"
  rm -rf "$b"
  log "interpreter built in $((SECONDS - t0))s"
fi
# Keep only the entries in use (and what another build may be working on).
for old in "$cache"/interp-* "$cache"/deps-*; do
  case "$old" in "$interp" | "$deps" | *.tmp.* | *-build.*) ;; *) rm -rf "$old" ;; esac
done
find "$cache" -maxdepth 1 \( -name '*.tmp.*' -o -name '*-build.*' \) -mmin +720 -exec rm -rf {} + 2>/dev/null || true

# Lib patches must not change a frozen module: those are in the binary.
for p in "$here"/patches/lib-*.patch; do
  for f in $(sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$p"); do
    if grep -qx "$f" "$interp/frozen.txt"; then
      echo "python: $(basename "$p") changes $f, which is frozen into the interpreter: name the patch c-*.patch" >&2
      exit 1
    fi
  done
done

# Every stdlib C module that can build for WASI must be in. Left out, and why:
#   _ssl _hashlib: OpenSSL (hashlib has its own md5/sha1/sha2/sha3/blake2)
#   _uuid _ctypes _curses* _dbm _gdbm _tkinter: no wasm32 build of their
#   libraries here (libffi has no wasm32-wasi port);
#   xxlimited*: examples; n/a (CPython's WASI list) and disabled (test modules).
missing=$(awk '$2 == "missing" {print $1}' "$interp/modules-state.txt" |
  grep -vxE '_ssl|_hashlib|_uuid|_ctypes|_tkinter|xxlimited|xxlimited_35' || true)
if [ -n "$missing" ]; then
  echo "python: stdlib C modules missing from the build: $missing" >&2
  exit 1
fi
for m in zlib _bz2 _lzma _sqlite3 _json _csv _decimal _datetime math _struct unicodedata _md5 _sha1 _sha256 _sha512 _sha3 _blake2 select _socket pyexpat _elementtree _pickle; do
  grep -qx "$m yes" "$interp/modules-state.txt" || { echo "python: module $m is not built in" >&2; exit 1; }
done

cp "$interp/python.wasm" "$OUT/python3.wasm"
log "zipping the standard library"
"$build_python" "$here/mkzip.py" "$OUT/python311.zip" "$SRC/python/Lib" "$here/lib" "$interp/sysconfigdata.py" \
  "$OUT/python311-src.zip" >&2

cat "$SRC/python/LICENSE" > "$OUT/LICENSE"
for f in zlib/LICENSE bzip2/LICENSE xz/COPYING; do
  if [ -f "$SRC/$f" ]; then printf '\n\n---- %s ----\n\n' "${f%%/*}"; cat "$SRC/$f"; fi >> "$OUT/LICENSE"
done
printf '\n\n---- SQLite ----\n\nThe author disclaims copyright to this source code: SQLite is in the public domain.\n' >> "$OUT/LICENSE"
printf '%s\n' python3 python python3.11 pip pip3 > "$OUT/commands.txt"

# The user site (where pip installs) on sys.path: see lib/_wasmsand_site.py.
echo 'import _wasmsand_site; _wasmsand_site.enable()' > "$OUT/python-site.pth"

# Data files and environment for the manifest (scripts/assets: asset.json).
cat > "$OUT/asset.json" <<'EOF'
{
  "env": {"PYTHONHOME": "/usr/lib/wasmsand/python"},
  "files": [{"path": "lib/python311.zip", "file": "python311.zip"},
            {"path": "lib/python311-src.zip", "file": "python311-src.zip"},
            {"path": "lib/python3/dist-packages/wasmsand.pth", "file": "python-site.pth"}]
}
EOF
