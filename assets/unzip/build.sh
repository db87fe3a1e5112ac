#!/usr/bin/env bash
# Builds unzip.wasm (unzip; zipinfo by argv[0]) from Debian's unzip 6.0 with its
# security patches, compiled directly with Debian's defines (unix/Makefile's
# "generic" target runs test programs, which cannot run on the build machine).
# No bzip2-compressed entries (USE_BZIP2 needs libbz2 inside).
set -euo pipefail
cd "$SRC/unzip"
defs="-DUNIX -DLINUX -Dlinux -DACORN_FTYPE_NFS -DWILD_STOP_AT_DIR -DLARGE_FILE_SUPPORT -DUNICODE_SUPPORT
  -DUNICODE_WCHAR -DUTF8_MAYBE_NATIVE -DNO_LCHMOD -DDATE_FORMAT=DF_YMD -DIZ_HAVE_UXUIDGID
  -DNOMEMCPY -DNO_WORKING_ISPRINT -DHAVE_DIRENT_H -DHAVE_TERMIOS_H -D_GNU_SOURCE"
defs=$(echo $defs)  # one line for sh -c
srcs="unzip.c crc32.c crypt.c envargs.c explode.c extract.c fileio.c globals.c inflate.c
  list.c match.c process.c ttyio.c ubz2err.c unreduce.c unshrink.c zipinfo.c unix/unix.c"
for f in $srcs; do echo "$f"; done |
  xargs -P "$JOBS" -I{} sh -c "$CC -O2 -I. $defs -Wno-comment -Wno-dangling-else \
    -Wno-deprecated-non-prototype -c {} -o \$(echo {} | tr / _).o"
$CC -o "$OUT/unzip.wasm" *.o -Wl,--gc-sections
cp LICENSE "$OUT/LICENSE"
printf 'unzip\nzipinfo\n' > "$OUT/commands.txt"
