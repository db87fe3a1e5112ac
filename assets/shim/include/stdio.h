/* wasmsand compat: wasi-libc's <stdio.h> plus the POSIX declarations it leaves out. */
#include_next <stdio.h>
#include <wasmsand_compat.h>
