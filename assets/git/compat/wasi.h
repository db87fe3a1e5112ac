/* wasmsand: declarations git needs that wasi-libc leaves out (force-included). */
#ifndef GIT_WASI_H
#define GIT_WASI_H
#ifdef __wasi__
struct in_addr;
char *git_wasi_inet_ntoa(struct in_addr in);
#define inet_ntoa git_wasi_inet_ntoa
/* wasi-libc's utime(path, NULL) sets the times to 0 (git freshens objects so,
   and gc then prunes them as old): go through utimensat, which the shim fixes */
struct utimbuf;
int git_wasi_utime(const char *path, const struct utimbuf *times);
#define utime git_wasi_utime
#endif
#endif
