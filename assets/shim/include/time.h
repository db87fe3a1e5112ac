/* wasmsand compat: wasi-libc's <time.h> plus the POSIX declarations it leaves out. */
#include_next <time.h>
#include <wasmsand_compat.h>
