/* wasmsand compat: wasi-libc's <unistd.h> plus the POSIX declarations it leaves out. */
#include_next <unistd.h>
#include <wasmsand_compat.h>
