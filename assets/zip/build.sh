#!/usr/bin/env bash
# Builds zip.wasm from Info-ZIP zip 3.0 (Debian's zip 3.0-13 upstream tarball: the
# mirror here lacks its .debian.tar.xz; Debian's patches are build/manpage fixes),
# compiled directly with the flags unix/configure picks on Linux.
set -euo pipefail
cd "$SRC/zip"
defs="-DUNIX -DNO_ASM -DHAVE_DIRENT_H -DHAVE_TERMIOS_H -DLARGE_FILE_SUPPORT -DZIP64_SUPPORT
  -DUNICODE_SUPPORT -DHAVE_WCHAR_SUPPORT -DUIDGID_NOT_16BIT -DNO_BZIP2_SUPPORT -D_GNU_SOURCE"
defs=$(echo $defs)  # one line for sh -c
srcs="zip.c zipfile.c zipup.c fileio.c util.c globals.c crypt.c ttyio.c unix/unix.c crc32.c
  zbz2err.c deflate.c trees.c"
for f in $srcs; do echo "$f"; done |
  xargs -P "$JOBS" -I{} sh -c "$CC -O2 -I. -Iunix $defs -Wno-comment -Wno-dangling-else \
    -Wno-deprecated-non-prototype -Wno-format -c {} -o \$(echo {} | tr / _).o"
$CC -o "$OUT/zip.wasm" *.o -Wl,--gc-sections
cp LICENSE "$OUT/LICENSE"
echo zip > "$OUT/commands.txt"
