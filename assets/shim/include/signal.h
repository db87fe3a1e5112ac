/* wasmsand compat: wasi-libc's emulated <signal.h> (signal(), raise()) plus sigaction,
 * signal sets, kill (the wasmsand import) and friends. Only signals a process raises
 * itself are delivered; kill() reaches children through the host. */
#include_next <signal.h>
#ifndef WASMSAND_SIGNAL_H
#define WASMSAND_SIGNAL_H
#include <sys/types.h>
#include <time.h>
#define __NEED_sigset_t
#include <bits/alltypes.h>
#ifdef __cplusplus
extern "C" {
#endif
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define SI_USER 0
#define SA_NOCLDSTOP 1
#define SA_NOCLDWAIT 2
#define SA_SIGINFO 4
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000
#define SA_RESTORER 0x04000000
#define SA_NOMASK SA_NODEFER
#define SA_ONESHOT SA_RESETHAND
#define SIGRTMIN 34
#define SIGRTMAX 64
union sigval { int sival_int; void *sival_ptr; };
typedef struct {
  int si_signo, si_errno, si_code;
  pid_t si_pid;
  uid_t si_uid;
  int si_status;
  void *si_addr;
  union sigval si_value;
} siginfo_t;
struct sigaction {
  union {
    void (*sa_handler)(int);
    void (*sa_sigaction)(int, siginfo_t *, void *);
  } __sa_handler;
  sigset_t sa_mask;
  int sa_flags;
  void (*sa_restorer)(void);
};
#define sa_handler __sa_handler.sa_handler
#define sa_sigaction __sa_handler.sa_sigaction
struct sigevent {
  union sigval sigev_value;
  int sigev_signo;
  int sigev_notify;
  void (*sigev_notify_function)(union sigval);
  void *sigev_notify_attributes;
};
#define SIGEV_SIGNAL 0
#define SIGEV_NONE 1
#define SIGEV_THREAD 2
typedef struct sigaltstack { void *ss_sp; int ss_flags; size_t ss_size; } stack_t;
int sigaction(int, const struct sigaction *__restrict, struct sigaction *__restrict);
int sigprocmask(int, const sigset_t *__restrict, sigset_t *__restrict);
int sigsuspend(const sigset_t *);
int sigpending(sigset_t *);
int sigwait(const sigset_t *__restrict, int *__restrict);
int sigemptyset(sigset_t *);
int sigfillset(sigset_t *);
int sigaddset(sigset_t *, int);
int sigdelset(sigset_t *, int);
int sigismember(const sigset_t *, int);
int kill(pid_t, int);
int killpg(pid_t, int);
int siginterrupt(int, int);
int sigaltstack(const stack_t *__restrict, stack_t *__restrict);
int pthread_sigmask(int, const sigset_t *__restrict, sigset_t *__restrict);
#ifdef __cplusplus
}
#endif
#endif
