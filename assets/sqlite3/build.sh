#!/usr/bin/env bash
# Builds sqlite3.wasm (the sqlite3 shell + library) from Debian's sqlite3 3.40.1 source:
# a native configure + `make sqlite3.c shell.c` makes the amalgamation (needs tclsh),
# which is then compiled for wasm32-wasi. Env from scripts/assets: SRC OUT CC HOSTCC.
set -euo pipefail
mkdir -p "$SRC/sqlite/bld"
cd "$SRC/sqlite/bld"
../configure CC="$HOSTCC" --disable-tcl --disable-readline --disable-editline \
  >configure.log 2>&1 || { tail -30 configure.log >&2; exit 1; }
make -j"$JOBS" sqlite3.c shell.c >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }

# One process, no threads, no shared memory: no WAL (it needs a shared mmap of the
# -shm file), no mmap I/O, no extensions to dlopen. Locks always succeed (the shim's
# fcntl): two processes writing one database at once are not protected.
defs="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_OMIT_WAL
  -DSQLITE_MAX_MMAP_SIZE=0 -DSQLITE_OMIT_SHARED_CACHE -DSQLITE_OMIT_RANDOMNESS=0
  -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_RTREE -DSQLITE_ENABLE_MATH_FUNCTIONS
  -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_DEFAULT_FOREIGN_KEYS=0 -DHAVE_USLEEP=1
  -DHAVE_READLINE=0 -DHAVE_EDITLINE=0 -D_GNU_SOURCE"
$CC -O2 $defs -c sqlite3.c -o sqlite3.o &
$CC -O2 $defs -Wno-unused-but-set-variable -c shell.c -o shell.o
wait $!
$CC -o "$OUT/sqlite3.wasm" shell.o sqlite3.o -lm -Wl,--gc-sections
{
  echo "SQLite is in the public domain (https://sqlite.org/copyright.html)."
  echo "Debian's copyright file for the source package follows."
  echo
  cat ../debian/copyright
} > "$OUT/LICENSE"
echo sqlite3 > "$OUT/commands.txt"
