/* sqlite_wasi.c — linked beside SQLite's amalgamation in python3.wasm.
 *
 * WASI has no advisory file locks (fcntl F_SETLK) and no shared memory: a
 * sandbox process owns its files, so make SQLite's lock-free "unix-none" VFS
 * the default (SQLITE_EXTRA_INIT runs once inside sqlite3_initialize). WAL
 * is compiled out (it needs mmap'd shared memory). */
#include "sqlite3.h"

int wasmsand_sqlite_init(const char *unused) {
  (void)unused;
  sqlite3_vfs *v = sqlite3_vfs_find("unix-none");
  return v ? sqlite3_vfs_register(v, 1) : SQLITE_OK;
}
