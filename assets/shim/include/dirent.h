/* wasmsand compat: wasi-libc's <dirent.h> with
 * - DT_SOCK and DT_WHT, which wasi-libc leaves out (fts, ls). WASI has one file type for
 *   FIFOs and sockets (DT_FIFO); DT_SOCK gets the datagram-socket type, so the two differ;
 * - wasi-libc's own opendirat(int, const char *) out of the way: gnulib (grep, sed,
 *   findutils, diffutils, coreutils) has an opendirat(int, const char *, int, int *) of
 *   its own, which would clash with it in declarations and at link time. A program's
 *   opendirat is __wasmsand_opendirat (wasi-libc's is reachable only as opendir). */
#define opendirat __wasilibc_opendirat_hidden
#include_next <dirent.h>
#undef opendirat
#define opendirat __wasmsand_opendirat
#if !defined(DT_SOCK) && defined(__WASI_FILETYPE_SOCKET_DGRAM)
#define DT_SOCK __WASI_FILETYPE_SOCKET_DGRAM
#endif
#ifndef DT_WHT
#define DT_WHT 14
#endif
