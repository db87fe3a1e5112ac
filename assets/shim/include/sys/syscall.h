/* wasmsand compat: <sys/syscall.h>; there are no raw syscalls: syscall() fails with ENOSYS. */
#include_next <sys/syscall.h>
#ifndef WASMSAND_SYS_SYSCALL_H
#define WASMSAND_SYS_SYSCALL_H
#ifdef __cplusplus
extern "C" {
#endif
long syscall(long, ...);
#define __NR_sched_getaffinity 204
#define __NR_sched_setaffinity 203
#define __NR_ioprio_get 31
#define __NR_ioprio_set 30
#define __NR_getrandom 278
#define __NR_gettid 178
#define SYS_gettid __NR_gettid
#ifdef __cplusplus
}
#endif
#endif
