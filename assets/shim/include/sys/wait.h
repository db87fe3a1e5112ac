/* wasmsand compat: <sys/wait.h> over the wasmsand wait import (posix.c). Statuses use
 * the Linux encoding; a child killed by a signal reports exit status 128+sig. */
#ifndef WASMSAND_SYS_WAIT_H
#define WASMSAND_SYS_WAIT_H
#include <sys/types.h>
#include <signal.h>
#include <sys/resource.h>
#ifdef __cplusplus
extern "C" {
#endif
#ifndef WNOHANG
#define WNOHANG 1
#define WUNTRACED 2
#define WSTOPPED 2
#define WEXITED 4
#define WCONTINUED 8
#define WNOWAIT 0x1000000
#define WEXITSTATUS(s) (((s) & 0xff00) >> 8)
#define WTERMSIG(s) ((s) & 0x7f)
#define WSTOPSIG(s) WEXITSTATUS(s)
#define WIFEXITED(s) (!WTERMSIG(s))
#define WIFSTOPPED(s) ((short)((((s)&0xffff)*0x10001)>>8) > 0x7f00)
#define WIFSIGNALED(s) (((s)&0xffff)-1U < 0xffu)
#define WCOREDUMP(s) ((s) & 0x80)
#define WIFCONTINUED(s) ((s) == 0xffff)
#endif
typedef enum { P_ALL = 0, P_PID = 1, P_PGID = 2 } idtype_t;
pid_t wait(int *);
pid_t waitpid(pid_t, int *, int);
pid_t wait3(int *, int, struct rusage *);
pid_t wait4(pid_t, int *, int, struct rusage *);
#ifdef __cplusplus
}
#endif
#endif
