/* wasmsand compat: <sys/vfs.h> is <sys/statfs.h> on Linux (the shim's statfs). */
#include <sys/statfs.h>
