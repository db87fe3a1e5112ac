/* config.h — GNU make 4.3 for wasm32-wasi (wasi-libc + assets/shim), written by hand:
 * Debian's make-dfsg source ships no configure script (Debian runs autoreconf), and
 * autotools are not part of this build. The values are what configure finds for
 * musl on Linux, less what WASI lacks (fork, dlopen, guile, NLS), plus posix_spawn
 * from spawn.c beside this file. */

#define _GNU_SOURCE 1
#define _ALL_SOURCE 1

#define PACKAGE "make"
#define PACKAGE_BUGREPORT "bug-make@gnu.org"
#define PACKAGE_NAME "GNU make"
#define PACKAGE_STRING "GNU make 4.3"
#define PACKAGE_TARNAME "make"
#define PACKAGE_URL "http://www.gnu.org/software/make/"
#define PACKAGE_VERSION "4.3"
#define VERSION "4.3"
#define MAKE_HOST "wasm32-unknown-wasi"

#define STDC_HEADERS 1
#define HAVE_ALLOCA 1
#define HAVE_ALLOCA_H 1
#define HAVE_ATEXIT 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_DECL_BSD_SIGNAL 1
#define HAVE_DECL_DLERROR 0
#define HAVE_DECL_DLOPEN 0
#define HAVE_DECL_DLSYM 0
#define HAVE_DECL_GETDTABLESIZE 1
#define HAVE_DECL_PROGRAM_INVOCATION_NAME 0
#define HAVE_DECL_PROGRAM_INVOCATION_SHORT_NAME 0
#define HAVE_DECL_STRERROR_R 1
#define HAVE_DECL_SYS_SIGLIST 0
#define HAVE_DECL__SYS_SIGLIST 0
#define HAVE_DECL___SYS_SIGLIST 0
#define HAVE_DECL___ARGV 0
#define HAVE_DIRENT_H 1
#define HAVE_DUP 1
#define HAVE_DUP2 1
#define HAVE_FCNTL 1
#define HAVE_FCNTL_H 1
#define HAVE_FDOPEN 1
#define HAVE_GETCWD 1
#define HAVE_GETDTABLESIZE 1
#define HAVE_GETGROUPS 1
#define HAVE_GETRLIMIT 1
#define HAVE_SETRLIMIT 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_INTTYPES_H 1
#define HAVE_ISATTY 1
#define HAVE_LIMITS_H 1
#define HAVE_LOCALE_H 1
#define HAVE_LONG_LONG_INT 1
#define HAVE_UNSIGNED_LONG_LONG_INT 1
#define HAVE_LSTAT 1
#define HAVE_MEMORY_H 1
#define HAVE_MEMRCHR 1
#define HAVE_MKSTEMP 1
#define HAVE_MKTEMP 1
#define HAVE_PIPE 1
#define HAVE_READLINK 1
#define HAVE_REALPATH 1
#define HAVE_SA_RESTART 1
#define HAVE_SETEGID 1
#define HAVE_SETEUID 1
#define HAVE_SETREGID 1
#define HAVE_SETREUID 1
#define HAVE_SETLINEBUF 1
#define HAVE_SETVBUF 1
#define HAVE_SIGACTION 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STPCPY 1
#define HAVE_STRCASECMP 1
#define HAVE_STRCOLL 1
#define HAVE_STRDUP 1
#define HAVE_STRERROR_R 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_STRNCASECMP 1
#define HAVE_STRNDUP 1
#define HAVE_STRSIGNAL 1
#define HAVE_STRUCT_DIRENT_D_TYPE 1
#define HAVE_SYMLINK 1
#define HAVE_SYS_FILE_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_SYS_SELECT_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_SYS_WAIT_H 1
#define HAVE_TTYNAME 1
#define HAVE_UINTMAX_T 1
#define HAVE_UMASK 1
#define HAVE_UNISTD_H 1
#define HAVE_WAITPID 1
#define HAVE_WCHAR_H 1
#define HAVE__BOOL 1

/* No fork in WASI: recipes run through posix_spawn (spawn.c). */
#define HAVE_SPAWN_H 1
#define HAVE_POSIX_SPAWN 1
#define HAVE_POSIX_SPAWNATTR_SETSIGMASK 1
#define USE_POSIX_SPAWN 1
/* No jobserver: without SIGCHLD nothing would wake a make waiting for a token while
   one of its own children ends. `make -j N` runs N jobs in this make; a sub-make
   started with -j runs its own N (MAKEFLAGS carries -jN, not --jobserver-auth). */
/* #undef MAKE_JOBSERVER */
/* No dlopen: no `load` directive. */
/* #undef MAKE_LOAD */
#define MAKE_SYMLINKS 1

#define FILE_TIMESTAMP_HI_RES 1
#define ST_MTIM_NSEC st_mtim.tv_nsec
#define PATH_SEPARATOR_CHAR ':'
#define RETSIGTYPE void
#define SCCS_GET "get"
#define TIME_WITH_SYS_TIME 1
#define _FILE_OFFSET_BITS 64
/* No eaccess(): access() (the shim answers from the mode bits). */
#define eaccess access

/* gnulib's inline-function scaffolding (m4/extern-inline.m4), for lib/. */
#define _GL_INLINE inline
#define _GL_EXTERN_INLINE extern inline
#define _GL_INLINE_HEADER_BEGIN
#define _GL_INLINE_HEADER_END
#define _GL_ATTRIBUTE_PURE __attribute__ ((__pure__))
#define _GL_ATTRIBUTE_CONST __attribute__ ((__const__))
#define _GL_ATTRIBUTE_MALLOC __attribute__ ((__malloc__))
#define _GL_ATTRIBUTE_FORMAT(spec) __attribute__ ((__format__ spec))
#define _GL_ATTRIBUTE_FORMAT_PRINTF(a, b) __attribute__ ((__format__ (__printf__, a, b)))
#define _GL_UNUSED __attribute__ ((__unused__))
#define _GL_ARG_NONNULL(params) __attribute__ ((__nonnull__ params))
#define _GL_ASYNC_SAFE
