#!/usr/bin/env bash
# Builds util-linux.wasm (hexdump, rev, colrm: argv[0] picks the program; Debian ships
# them in bsdextrautils) from Debian's util-linux 2.38.1 with its own configure and the
# GNU assets' helpers (assets/gnulib/gnu.sh). Only these programs and the libraries they
# need (libcommon, libtcolors) are built. column builds too, but the sandbox has its own
# (commands/text/column.go, a command written in Go). Env from scripts/assets: SRC OUT CC AR RANLIB
# JOBS ROOT.
set -euo pipefail
. "$ROOT/assets/gnulib/gnu.sh"
cd "$SRC/util-linux"
gnu_prepare
gnu_configure --disable-shared --enable-static --disable-libblkid --disable-libmount \
  --disable-libfdisk --disable-libuuid --disable-pylibmount --without-python \
  --without-systemd --without-udev --without-ncurses --without-ncursesw --without-tinfo \
  --without-readline --without-cap-ng --without-libz --without-selinux --without-audit \
  --without-utempter --disable-asciidoc --disable-bash-completion \
  --disable-makeinstall-chown --disable-makeinstall-setuid
gnu_make hexdump rev colrm
gnu_rename_main . text-utils/hexdump.o hexdump
gnu_rename_main . text-utils/rev.o rev
gnu_rename_main . text-utils/colrm.o colrm
gnu_multicall multicall.c hexdump hexdump rev colrm
"$CC" $GNU_CFLAGS -o util-linux.wasm multicall.c \
  text-utils/hexdump.o text-utils/hexdump-conv.o text-utils/hexdump-display.o text-utils/hexdump-parse.o \
  text-utils/rev.o text-utils/colrm.o .libs/libtcolors.a .libs/libcommon.a \
  $GNU_LIBS >>make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
cp util-linux.wasm "$OUT/util-linux.wasm"
{
  cat README.licensing
  for l in BSD-4-Clause-UC BSD-3-Clause LGPL-2.1-or-later GPL-2.0-or-later; do
    echo; echo "----- Documentation/licenses/COPYING.$l -----"; echo
    cat "Documentation/licenses/COPYING.$l"
  done
} >"$OUT/LICENSE"
printf 'hexdump\nrev\ncolrm\n' >"$OUT/commands.txt"
