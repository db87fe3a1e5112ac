/* wasmsand compat: wasi-libc's <stdio.h> plus the POSIX declarations it leaves out. */
#include_next <stdio.h>
#include <wasmsand_compat.h>
#ifndef WASMSAND_STDIO_LOCKS
#define WASMSAND_STDIO_LOCKS
/* One thread: stdio locking is a no-op (posix.c). wasi-libc declares these only with
 * _REENTRANT and does not define them; gnulib's getopt calls them. */
void flockfile(FILE *);
int ftrylockfile(FILE *);
void funlockfile(FILE *);
#endif
