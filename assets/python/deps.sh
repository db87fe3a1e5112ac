#!/usr/bin/env bash
# Builds the static wasm32-wasi libraries CPython links: zlib, libbz2, liblzma
# and SQLite (its amalgamation is generated from Debian's source tree with the
# host compiler and tclsh). Called by build.sh:  deps.sh SRC PREFIX
# Needs CC (the wasm32-wasi wrapper), AR, RANLIB, HOSTCC, JOBS.
set -euo pipefail
src=$1 prefix=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$prefix.work
# -mbulk-memory: memcpy/memset become memory.copy/fill (the engine's own
# memmove), not wasi-libc's byte and word loops (see ../gnulib/fastmem.c)
OPT="-O2 -mbulk-memory"
rm -rf "$work" "$prefix"
mkdir -p "$work/zlib" "$work/bzip2" "$work/sqlite" "$prefix/lib" "$prefix/include"

# zlib: the library sources alone (its configure probes the host).
cd "$work/zlib"
objs=()
for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees trees uncompr zutil; do
  "$CC" $OPT -DHAVE_UNISTD_H -DHAVE_STDARG_H -w -c "$src/zlib/$f.c" -o "$f.o" &
  objs+=("$f.o")
  [ "$(jobs -r | wc -l)" -lt "$JOBS" ] || wait -n
done
wait
"$AR" rcs "$prefix/lib/libz.a" "${objs[@]}"
"$RANLIB" "$prefix/lib/libz.a"
cp "$src/zlib/zlib.h" "$src/zlib/zconf.h" "$prefix/include/"

# libbz2: the library half of bzip2's sources.
cd "$work/bzip2"
objs=()
for f in blocksort huffman crctable randtable compress decompress bzlib; do
  "$CC" $OPT -D_FILE_OFFSET_BITS=64 -w -c "$src/bzip2/$f.c" -o "$f.o" &
  objs+=("$f.o")
  [ "$(jobs -r | wc -l)" -lt "$JOBS" ] || wait -n
done
wait
"$AR" rcs "$prefix/lib/libbz2.a" "${objs[@]}"
"$RANLIB" "$prefix/lib/libbz2.a"
cp "$src/bzip2/bzlib.h" "$prefix/include/"

# liblzma: xz-utils' own configure, library only, single-threaded.
cp -a "$src/xz" "$work/xz"
cd "$work/xz"
./configure --host=wasm32-unknown-wasi CC="$CC" CFLAGS="$OPT" --prefix="$prefix" \
  --disable-threads --disable-shared --enable-static --disable-nls \
  --disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links \
  --disable-scripts --disable-doc --disable-sandbox --disable-symbol-versions \
  >configure.log 2>&1 || { tail -30 configure.log; exit 1; }
make -j"$JOBS" -C src/liblzma >make.log 2>&1 && make -C src/liblzma install >>make.log 2>&1 ||
  { tail -30 make.log; exit 1; }
rm -rf "$prefix/lib/pkgconfig" "$prefix/lib/liblzma.la"

# SQLite: generate sqlite3.c/sqlite3.h natively, then compile them for wasm.
# No threads, no extension loading (no dlopen), no WAL (needs shared memory);
# the default VFS takes no file locks (sqlite_wasi.c): WASI has none.
cd "$work/sqlite"
CC="$HOSTCC" "$src/sqlite3/configure" --disable-tcl --disable-readline >configure.log 2>&1 || { tail -30 configure.log; exit 1; }
make -j"$JOBS" sqlite3.c sqlite3.h >make.log 2>&1 || { tail -30 make.log; exit 1; }
sqlite_flags=(
  $OPT -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_OMIT_WAL
  -DSQLITE_MAX_MMAP_SIZE=0 -DSQLITE_TEMP_STORE=2
  -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_MATH_FUNCTIONS
  -DSQLITE_EXTRA_INIT=wasmsand_sqlite_init -DHAVE_USLEEP=1
)
"$CC" "${sqlite_flags[@]}" -c sqlite3.c -o sqlite3.o
"$CC" $OPT -I. -c "$here/sqlite_wasi.c" -o sqlite_wasi.o
"$AR" rcs "$prefix/lib/libsqlite3.a" sqlite3.o sqlite_wasi.o
"$RANLIB" "$prefix/lib/libsqlite3.a"
cp sqlite3.h sqlite3ext.h "$prefix/include/" 2>/dev/null || cp sqlite3.h "$prefix/include/"
cd /
rm -rf "$work"
