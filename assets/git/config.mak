# wasmsand: git's build knobs for wasm32-wasi (wasi-libc + assets/shim); build.sh copies
# this to the source tree and gives uname_*, CC, AR, ZLIB_PATH on make's command line.
NO_PTHREADS = YesPlease
NO_OPENSSL = YesPlease
NO_CURL = YesPlease
NO_EXPAT = YesPlease
NO_PERL = YesPlease
NO_PYTHON = YesPlease
NO_TCLTK = YesPlease
NO_GETTEXT = YesPlease
# git's own mmap emulation (reads the file): no shared mappings in WASI
NO_MMAP = YesPlease
NO_UNIX_SOCKETS = YesPlease
NO_IPV6 = YesPlease
# compat/regex (glibc's), as Debian's git gets from glibc: REG_STARTEND, same syntax
NO_REGEX = YesPlease
NO_GETPAGESIZE = YesPlease
NO_INSTALL_HARDLINKS = YesPlease
SKIP_DASHED_BUILT_INS = YesPlease
HAVE_CLOCK_GETTIME = YesPlease
HAVE_CLOCK_MONOTONIC = YesPlease
HAVE_GETDELIM = YesPlease
HAVE_ALLOCA_H = YesPlease
HAVE_PATHS_H = YesPlease
HAVE_DEV_TTY = YesPlease
# the exec path holds the shell-script commands (git-bisect...), which the sandbox shows
# read-only at /usr/lib/wasmsand/git (asset.json); templates are built in
prefix = /usr
gitexecdir = /usr/lib/wasmsand/git
template_dir = /usr/share/git-core/templates
sysconfdir = /etc
CFLAGS = -O2 -Wno-error
CC_LD_DYNPATH = -L
COMPAT_OBJS += compat/wasi.o compat/wasi-templates.o compat/wasi-envsubst.o
BASIC_CFLAGS += -include compat/wasi.h
