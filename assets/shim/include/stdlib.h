/* wasmsand compat: wasi-libc's <stdlib.h> plus the POSIX declarations it leaves out. */
#include_next <stdlib.h>
#include <wasmsand_compat.h>
