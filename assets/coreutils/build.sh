#!/usr/bin/env bash
# Builds coreutils.wasm from Debian's coreutils 9.1 as ONE multicall module
# (--enable-single-binary: argv[0] picks the program) with its own configure
# (assets/gnulib). Env from scripts/assets: SRC OUT CC AR RANLIB JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/coreutils"
gnu_prepare
# Left out: who, users, pinky, uptime (no utmp), stty (no terminal), chroot, mknod
# (need root), stdbuf (needs LD_PRELOAD), chcon, runcon (SELinux); timeout forks and
# signals its child, which WASI cannot do: toybox's (patched to spawn) stays.
gnu_configure --without-selinux --disable-acl --disable-xattr --disable-libcap \
  --disable-libsmack --without-openssl --without-libgmp \
  --enable-single-binary=symlinks \
  --enable-no-install-program=who,users,pinky,uptime,stty,chroot,mknod,stdbuf,chcon,runcon,timeout,arch,hostname,coreutils
gnu_built_sources
gnu_make src/coreutils
cp src/coreutils "$OUT/coreutils.wasm"
cp COPYING "$OUT/LICENSE"
# The programs in the module, by the names they answer to (ginstall is "install").
sed -n 's/^single_binary_progs = //p' Makefile | tr ' ' '\n' | grep . |
  sed 's/^ginstall$/install/' >"$OUT/commands.txt"
# argv[0] picks the program; --coreutils-prog= does when argv[0] is another name.
printf '{"program_option": "--coreutils-prog="}\n' >"$OUT/asset.json"
