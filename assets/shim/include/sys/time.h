/* wasmsand compat: wasi-libc's <sys/time.h> plus settimeofday (EPERM) and itimers (ENOSYS). */
#include_next <sys/time.h>
#ifndef WASMSAND_SYS_TIME_H
#define WASMSAND_SYS_TIME_H
#ifdef __cplusplus
extern "C" {
#endif
#ifndef ITIMER_REAL
#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2
struct itimerval { struct timeval it_interval, it_value; };
int getitimer(int, struct itimerval *);
int setitimer(int, const struct itimerval *__restrict, struct itimerval *__restrict);
#endif
int settimeofday(const struct timeval *, const struct timezone *);
int adjtime(const struct timeval *, struct timeval *);
int futimes(int, const struct timeval[2]);
int lutimes(const char *, const struct timeval[2]);
#ifdef __cplusplus
}
#endif
#endif
