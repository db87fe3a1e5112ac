/* wasmsand compat: getrandom() over WASI random_get (posix.c). */
#include_next <sys/random.h>
#ifndef GRND_NONBLOCK
#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM 0x0002
#define GRND_INSECURE 0x0004
#endif
#include <wasmsand_compat.h>
