/* wasmsand: small functions git uses that wasi-libc lacks. */
#include <stdio.h>
#include <stdint.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <utime.h>
#include "wasi.h"

char *git_wasi_inet_ntoa(struct in_addr in)
{
	static char buf[16];
	const unsigned char *b = (const unsigned char *)&in.s_addr;
	snprintf(buf, sizeof(buf), "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return buf;
}

int git_wasi_utime(const char *path, const struct utimbuf *times)
{
	struct timespec ts[2];

	if (!times)
		return utimensat(AT_FDCWD, path, NULL, 0);
	ts[0].tv_sec = times->actime;
	ts[0].tv_nsec = 0;
	ts[1].tv_sec = times->modtime;
	ts[1].tv_nsec = 0;
	return utimensat(AT_FDCWD, path, ts, 0);
}
