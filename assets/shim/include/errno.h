/* wasmsand compat: wasi-libc's <errno.h> plus Linux errno names WASI lacks (values above
 * WASI's range, so they never collide with what the host returns). */
#include_next <errno.h>
#ifndef ENODATA
#define ENODATA 120
#endif
#ifndef ENOATTR
#define ENOATTR ENODATA
#endif
#ifndef ESRCH
#define ESRCH 71
#endif
#ifndef ENOTBLK
#define ENOTBLK 121
#endif
#ifndef EUSERS
#define EUSERS 122
#endif
#ifndef ESHUTDOWN
#define ESHUTDOWN 123
#endif
#ifndef ETOOMANYREFS
#define ETOOMANYREFS 124
#endif
#ifndef EHOSTDOWN
#define EHOSTDOWN 125
#endif
#ifndef EREMOTEIO
#define EREMOTEIO 126
#endif
#ifndef ENOMEDIUM
#define ENOMEDIUM 127
#endif
#ifndef EMEDIUMTYPE
#define EMEDIUMTYPE 128
#endif
