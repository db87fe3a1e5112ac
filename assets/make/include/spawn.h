/* spawn.h — posix_spawn for GNU make on wasmsand (wasi-libc has none): implemented
 * over the wasmsand.spawn import in ../spawn.c. Only what a spawn without fork can
 * honour: file actions on the child's stdin/stdout/stderr (dup2, close, open); the
 * attributes are accepted and ignored (no signal masks, ids or process groups here). */
#ifndef WASMSAND_SPAWN_H
#define WASMSAND_SPAWN_H

#include <sched.h>
#include <signal.h>
#include <sys/types.h>

#define POSIX_SPAWN_RESETIDS 0x01
#define POSIX_SPAWN_SETPGROUP 0x02
#define POSIX_SPAWN_SETSIGDEF 0x04
#define POSIX_SPAWN_SETSIGMASK 0x08
#define POSIX_SPAWN_SETSCHEDPARAM 0x10
#define POSIX_SPAWN_SETSCHEDULER 0x20

typedef struct {
    short flags;
} posix_spawnattr_t;

struct wasmsand_spawn_action;
typedef struct {
    int n;
    struct wasmsand_spawn_action *a;
} posix_spawn_file_actions_t;

int posix_spawn(pid_t *__restrict pid, const char *__restrict path, const posix_spawn_file_actions_t *fa,
                const posix_spawnattr_t *__restrict attr, char *const argv[], char *const envp[]);
int posix_spawnp(pid_t *__restrict pid, const char *__restrict file, const posix_spawn_file_actions_t *fa,
                 const posix_spawnattr_t *__restrict attr, char *const argv[], char *const envp[]);

int posix_spawnattr_init(posix_spawnattr_t *attr);
int posix_spawnattr_destroy(posix_spawnattr_t *attr);
int posix_spawnattr_setflags(posix_spawnattr_t *attr, short flags);
int posix_spawnattr_getflags(const posix_spawnattr_t *__restrict attr, short *__restrict flags);
int posix_spawnattr_setsigmask(posix_spawnattr_t *__restrict attr, const sigset_t *__restrict mask);
int posix_spawnattr_setsigdefault(posix_spawnattr_t *__restrict attr, const sigset_t *__restrict mask);
int posix_spawnattr_setpgroup(posix_spawnattr_t *attr, pid_t pgroup);

int posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa);
int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *fa);
int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int newfd);
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *fa, int fd);
int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *__restrict fa, int fd,
                                     const char *__restrict path, int oflag, mode_t mode);

/* The children spawned here, for wasmsand_spawn_wait (job.c: no waitpid(-1) that
 * returns whichever child ends first). */
pid_t wasmsand_spawn_wait(int *status, int block);

#endif
