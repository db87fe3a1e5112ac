#!/usr/bin/env bash
# Cross-builds the CPython interpreter (python.wasm) for wasm32-wasi, with every
# stdlib C module that builds for WASI linked in statically, zlib and sqlite3
# from $DEPS, and our _wasmsand module. Called by build.sh:
#   interp.sh SRCDIR BUILDDIR DEPS BUILD_PYTHON
# Needs CC (the wasm32-wasi wrapper from scripts/assets), AR, RANLIB, JOBS,
# WASM_OPT (binaryen's wasm-opt).
set -euo pipefail
src=$1 bdir=$2 deps=$3 build_python=$4
here=$(cd "$(dirname "$0")" && pwd)

cp "$here/_wasmsandmodule.c" "$src/Modules/_wasmsandmodule.c"
cp "$here/preinit.c" "$src/Modules/_wasmsandpreinit.c"
rm -rf "$bdir"
mkdir -p "$bdir/Modules"
cd "$bdir"
# Modules/Setup.local: our module (and the pre-initialized start, which
# exports wasmsand_preinit/wasmsand_resume), statically linked like the rest.
echo '_wasmsand _wasmsandmodule.c _wasmsandpreinit.c' > Modules/Setup.local

cat "$src/Tools/wasm/config.site-wasm32-wasi" "$here/config.site" > config.site

# The stack lives in linear memory (first, so an overflow traps instead of
# corrupting data). 8 MiB carries the default recursion limit of 1000 deep
# through the C eval loop; CPython's WASI default is 600 for wasmtime's
# smaller native stack.
export CONFIG_SITE=$bdir/config.site
# -mbulk-memory: memcpy/memset become memory.copy/fill, which the engines
# run as their own memmove, instead of wasi-libc's byte and word loops; and
# the SIMD memchr, strlen, memcmp... the GNU tools link (../gnulib/fastmem.c)
# are linked ahead of wasi-libc's (issue 40).
export CFLAGS="-DPy_DEFAULT_RECURSION_LIMIT=1000 -mbulk-memory -Wno-error=int-conversion -Wno-unused-command-line-argument"
"$CC" -O2 -msimd128 -mbulk-memory -fno-builtin -c "$ROOT/assets/gnulib/fastmem.c" -o "$bdir/fastmem.o"
# configure links -lwasi-emulated-getpid, but the shim defines getpid() over
# the wasmsand import: an empty archive found first keeps one definition.
mkdir -p nolib
"$AR" rcs nolib/libwasi-emulated-getpid.a
export LDFLAGS="-L$bdir/nolib"
export LIBS="$bdir/fastmem.o" # (LDFLAGS goes twice on CPython's link line)
export ZLIB_CFLAGS="-I$deps/include" ZLIB_LIBS="-L$deps/lib -lz"
export LIBSQLITE3_CFLAGS="-I$deps/include" LIBSQLITE3_LIBS="-L$deps/lib -lsqlite3"
export BZIP2_CFLAGS="-I$deps/include" BZIP2_LIBS="-L$deps/lib -lbz2"
export LIBLZMA_CFLAGS="-I$deps/include" LIBLZMA_LIBS="-L$deps/lib -llzma"
export PKG_CONFIG=false

# configure by a relative path: its srcdir becomes VPATH, which getpath.c
# keeps as a string, and an absolute one put the build machine's path in
# python3.wasm (a build in another checkout differed by it).
"$(realpath --relative-to="$bdir" "$src")/configure" -C \
  --host=wasm32-unknown-wasi --build="$(gcc -dumpmachine)" \
  --with-build-python="$build_python" \
  --prefix=/usr/lib/wasmsand/python \
  --with-pymalloc \
  --without-ensurepip --disable-test-modules \
  --with-suffix=.wasm \
  CC="$CC" AR="$AR" RANLIB="$RANLIB" >configure.log 2>&1 || { tail -40 configure.log; exit 1; }
# configure's WASI link flags put a 512 KiB stack in 10 MiB of initial memory;
# ours is bigger (see above), so the initial memory too.
sed -i 's/-z stack-size=524288/-z stack-size=8388608/; s/--initial-memory=10485760/--initial-memory=20971520/' Makefile

# Link-time optimisation: configure's --with-lto looks for "clang" in $CC's
# name, which our wrapper's lacks, so its flags go to make here. With it,
# binaryen's -O3 over the linked module: together ~5-10% off the pyperf set
# of `make bench` under wazero (issue 40), for ~0.4 MB more module.
make -j"$JOBS" CFLAGS_NODIST=-flto LDFLAGS_NODIST="-flto -Wl,--lto-O3" python.wasm pybuilddir.txt >make.log 2>&1 || { grep -E 'error:|\*\*\*' make.log | head -40; exit 1; }
"$WASM_OPT" -O3 python.wasm -o python.opt.wasm
mv python.opt.wasm python.wasm

# Which stdlib C modules got in (a missing one fails the build in build.sh).
sed -n 's/^MODULE_\([A-Z0-9_]*\)_STATE=\(.*\)$/\1 \2/p' Makefile | tr A-Z a-z | sort > modules-state.txt
