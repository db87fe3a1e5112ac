#!/usr/bin/env bash
# Builds tar.wasm from Debian's GNU tar 1.34 (configured as Debian does: --lzma runs xz)
# with its own configure (assets/gnulib) and our patch (spawn the compressors instead
# of forking: patches/0001). No rmt (remote archives need rsh), no ACLs, xattrs or
# SELinux. Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/tar"
gnu_prepare
gnu_configure --with-lzma=xz --with-rmt=/usr/sbin/rmt --without-posix-acls --without-xattrs \
  --without-selinux --disable-acl
# src/Makefile links $(LIBS) twice (tar_LDADD has it too): once is enough for fastmem.o.
gnu_make -C gnu && gnu_make -C lib && gnu_make -C src tar_LDADD='$(LDADD) $(LIB_CLOCK_GETTIME) $(LIB_EACCESS) $(LIB_SELINUX)' tar
cp src/tar "$OUT/tar.wasm"
cp COPYING "$OUT/LICENSE"
echo tar >"$OUT/commands.txt"
