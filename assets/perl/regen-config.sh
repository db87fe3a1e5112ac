#!/usr/bin/env bash
# Developer tool, not run by builds: regenerates config.sh.in, the pinned
# answers of perl's Configure for wasm32-wasi, after a perl version bump.
#
# Configure compiles and runs ~130 probe programs (./try). Here they are
# compiled by the wasm32-wasi wrapper and run through `wasmsand run-wasm`
# by a binfmt_misc entry for the WebAssembly magic, so every answer is the
# real target's. Builds never probe: they use the committed config.sh.in,
# so that no two machines can configure perl differently.
#
# Usage (root, a built bin/wasmsand and toolchain; the perl source unpacked
# with Debian's patches and ours, e.g. by `go run ./scripts/assets -source
# perl=VERSION -dest DIR`):
#   assets/perl/regen-config.sh DIR/perl
# then review `git diff assets/perl/config.sh.in` by hand.
set -euo pipefail
src=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
cc=$(ls -td "$root"/build/assets-work/toolchain-*/bin/wasm32-wasi-cc | head -1)
toolchain=$(dirname "$(dirname "$cc")")
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -e /proc/sys/fs/binfmt_misc/wasmsand-perl ] && echo -1 > /proc/sys/fs/binfmt_misc/wasmsand-perl' EXIT

cat >"$work/run" <<EOF
#!/bin/sh
f=\$1; shift
exec "$root/bin/wasmsand" run-wasm --mount "\$PWD:\$PWD" --cwd "\$PWD" --env "PWD=\$PWD" "\$f" "\$@"
EOF
chmod +x "$work/run"
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
echo ":wasmsand-perl:M::\\x00asm::$work/run:" >/proc/sys/fs/binfmt_misc/register

cp -a "$src" "$work/perl"
cd "$work/perl"
# -U of a probe's answer keeps it (Configure's "whoa" keeps the given value):
# fork and vfork link (the shim has them) but cannot work; /proc/self/exe is absent.
sh Configure -des -Dcc="$cc" -Dar=/usr/bin/llvm-ar-19 -Dnm=/usr/bin/llvm-nm-19 -Uusenm \
  -Dranlib=/usr/bin/llvm-ranlib-19 -Dlibc=/usr/lib/wasm32-wasi/libc.a -Dlibpth=/usr/lib/wasm32-wasi \
  -Dosname=wasi -Dosvers=preview1 -Darchname=wasm32-wasi -Dprefix=/usr \
  -Dprivlib=/usr/lib/wasmsand/perl/lib -Darchlib=/usr/lib/wasmsand/perl/lib \
  -Dsitelib=/usr/local/lib/site_perl -Dsitearch=/usr/local/lib/site_perl -Dvendorprefix=/usr \
  -Dvendorlib=/usr/share/perl5 -Dvendorarch=/usr/share/perl5 -Uusedl -Uuseithreads -Uusethreads \
  -Dusemymalloc=n -Dinstallstyle=lib -Dinc_version_list=none -Dman1dir=none -Dman3dir=none \
  -Dcf_by=wasmsand -Dmyhostname=wasmsand -Dcf_email=none -Dperladmin=none -Uusedevel \
  -Dccflags="-D_GNU_SOURCE -I$root/assets/perl/sjlj" -Dldflags= -Doptimize=-O2 -Dlibswanted=m \
  -Duse64bitint -Ud_fork -Ud_vfork -Ud_procselfexe -Ud_pseudofork \
  -Dnoextensions='threads threads/shared PerlIO/mmap Devel/PPPort File/DosGlob Unicode/Collate' \
  >configure.log 2>&1

# The static extensions: what agents' scripts load, without the large CJK
# Encode tables (EBCDIC is in), Socket (no sockets in the sandbox; wasi-libc's sockaddr_un
# lacks sun_path) and Sys::Syslog.
static='B Compress/Raw/Bzip2 Compress/Raw/Zlib Cwd Data/Dumper Devel/Peek Digest/MD5 Digest/SHA Encode Encode/Byte Encode/EBCDIC Encode/Symbol Encode/Unicode Fcntl File/Glob Filter/Util/Call Hash/Util Hash/Util/FieldHash I18N/Langinfo IO List/Util MIME/Base64 Math/BigInt/FastCalc Opcode POSIX PerlIO/encoding PerlIO/scalar PerlIO/via SDBM_File Storable Sys/Hostname Time/HiRes Time/Piece Unicode/Normalize attributes mro re'
nonxs=$(sed -n "s/^nonxs_ext='\(.*\)'/\1/p" config.sh)
sed -e "s|$toolchain|@TOOLCHAIN@|g" -e "s|$root/assets/perl/sjlj|@SJLJ@|g" -e "s|$root/|@REPO@/|g" \
  -e "s| -pipe -fstack-protector-strong -I/usr/local/include||g" -e "s| -fstack-protector-strong -L/usr/local/lib||g" \
  -e "s|^cf_time=.*|cf_time='Thu Jan  1 00:00:00 UTC 1970'|" -e "s|^myuname=.*|myuname='wasi wasmsand'|" \
  -e "s|^# Target system.*|# Target system     : wasm32-wasi (wasmsand)|" -e "/^config_arg/d" \
  -e "s|^static_ext=.*|static_ext='$static'|" -e "s|^extensions=.*|extensions='$static $nonxs'|" \
  -e "s|^ar=.*|ar='@AR@'|" -e "s|^full_ar=.*|full_ar='@AR@'|" -e "s|^ranlib=.*|ranlib='@RANLIB@'|" \
  -e "s|^archobjs=.*|archobjs='wasmsand.o'|" -e "s|^libs=.*|libs='-lm -lc-printscan-long-double @SJLJOBJS@'|" -e "s|^perllibs=.*|perllibs='-lm -lc-printscan-long-double @SJLJOBJS@'|" \
  -e "s|^d_dirnamlen=.*|d_dirnamlen='undef'|" \
  -e "s|^d_gethostprotos=.*|d_gethostprotos='define'|" -e "s|^d_getnetprotos=.*|d_getnetprotos='define'|" \
  -e "s|^d_getprotoprotos=.*|d_getprotoprotos='define'|" -e "s|^d_getservprotos=.*|d_getservprotos='define'|" \
  -e "s|^netdb_host_type=.*|netdb_host_type='const void *'|" -e "s|^netdb_hlen_type=.*|netdb_hlen_type='socklen_t'|" \
  -e "s|^netdb_net_type=.*|netdb_net_type='uint32_t'|" \
  -e "s|^ccflags='|ccflags='-Wno-error=int-conversion -D__WASI_RIFLAGS_RECV_DATA_TRUNCATED=__WASI_ROFLAGS_RECV_DATA_TRUNCATED |" \
  config.sh >"$root/assets/perl/config.sh.in"
# Why the hand edits (-e lines above):
# - -lc-printscan-long-double: perl formats long doubles (POSIX); wasi-libc
#   aborts printf's %Lf without it;
# - d_dirnamlen: the probe passes, but wasi-libc's struct dirent has no d_namlen;
# - *protos, netdb_*: wasi-libc (with the shim's netdb.h) declares them so;
# - -Wno-error=int-conversion: wasi-libc's clockid_t is a pointer, Time::HiRes's
#   CLOCK_* constants are IVs;
# - __WASI_RIFLAGS_RECV_DATA_TRUNCATED: wasi-libc's MSG_TRUNC names a constant
#   its own api.h spells __WASI_ROFLAGS_RECV_DATA_TRUNCATED.
echo "wrote $root/assets/perl/config.sh.in"
