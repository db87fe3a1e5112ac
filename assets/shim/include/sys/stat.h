/* wasmsand compat: wasi-libc's <sys/stat.h> with Linux st_mode type values (wasi-libc
 * gives S_IFIFO the value of S_IFSOCK) and chmod & co, which posix.c implements through
 * the wasmsand stat_ext/chmod imports. stat() and friends are wrapped (-Wl,--wrap) so
 * st_mode, st_uid, st_gid, st_nlink and st_rdev come from the sandbox. */
#include_next <sys/stat.h>
#undef S_IFIFO
#define S_IFIFO 0x1000
#include <wasmsand_compat.h>
