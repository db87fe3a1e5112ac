/* spawn.c — posix_spawn/posix_spawnp over the wasmsand.spawn import, for GNU make
 * (configured with USE_POSIX_SPAWN: job.c child_execute_job), and a wait for whichever
 * spawned child ends first.
 *
 * wasmsand.spawn gives the child three fds for its stdin, stdout and stderr (it shares
 * our other open files, as after fork+exec). The file actions are played on a map of
 * those three: dup2(fd, 0..2) points a standard stream at fd (or at what another
 * standard stream points at), close(0..2) gives the child no stream, open() opens the
 * file here and closes it after the spawn. Actions on other fds are accepted and have
 * no effect. Attributes (signal masks, ids, process groups) are accepted and ignored.
 *
 * wasmsand_spawn_wait: the shim's waitpid(-1) blocks on the oldest child when none has
 * ended, so `make -j2` would wait for a long job while a short one has finished.
 * Here every spawned child is polled (wasmsand.trywait) until one has ended. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"
#include "wasmsand.h"

struct wasmsand_spawn_action {
    enum { A_DUP2, A_CLOSE, A_OPEN } op;
    int fd, newfd, oflag;
    mode_t mode;
    char *path;
};

int posix_spawnattr_init(posix_spawnattr_t *attr) {
    attr->flags = 0;
    return 0;
}
int posix_spawnattr_destroy(posix_spawnattr_t *attr) {
    (void)attr;
    return 0;
}
int posix_spawnattr_setflags(posix_spawnattr_t *attr, short flags) {
    attr->flags = flags;
    return 0;
}
int posix_spawnattr_getflags(const posix_spawnattr_t *__restrict attr, short *__restrict flags) {
    *flags = attr->flags;
    return 0;
}
int posix_spawnattr_setsigmask(posix_spawnattr_t *__restrict attr, const sigset_t *__restrict mask) {
    (void)attr;
    (void)mask;
    return 0;
}
int posix_spawnattr_setsigdefault(posix_spawnattr_t *__restrict attr, const sigset_t *__restrict mask) {
    (void)attr;
    (void)mask;
    return 0;
}
int posix_spawnattr_setpgroup(posix_spawnattr_t *attr, pid_t pgroup) {
    (void)attr;
    (void)pgroup;
    return 0;
}

int posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa) {
    fa->n = 0;
    fa->a = NULL;
    return 0;
}
int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *fa) {
    for (int i = 0; i < fa->n; i++) free(fa->a[i].path);
    free(fa->a);
    fa->n = 0;
    fa->a = NULL;
    return 0;
}
static struct wasmsand_spawn_action *add(posix_spawn_file_actions_t *fa) {
    struct wasmsand_spawn_action *a = realloc(fa->a, (fa->n + 1) * sizeof *a);
    if (!a) return NULL;
    fa->a = a;
    memset(&a[fa->n], 0, sizeof *a);
    return &a[fa->n++];
}
int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int newfd) {
    if (fd < 0 || newfd < 0) return EBADF;
    struct wasmsand_spawn_action *a = add(fa);
    if (!a) return ENOMEM;
    a->op = A_DUP2;
    a->fd = fd;
    a->newfd = newfd;
    return 0;
}
int posix_spawn_file_actions_addclose(posix_spawn_file_actions_t *fa, int fd) {
    if (fd < 0) return EBADF;
    struct wasmsand_spawn_action *a = add(fa);
    if (!a) return ENOMEM;
    a->op = A_CLOSE;
    a->fd = fd;
    return 0;
}
int posix_spawn_file_actions_addopen(posix_spawn_file_actions_t *__restrict fa, int fd,
                                     const char *__restrict path, int oflag, mode_t mode) {
    if (fd < 0) return EBADF;
    char *p = strdup(path);
    if (!p) return ENOMEM;
    struct wasmsand_spawn_action *a = add(fa);
    if (!a) {
        free(p);
        return ENOMEM;
    }
    a->op = A_OPEN;
    a->fd = fd;
    a->oflag = oflag;
    a->mode = mode;
    a->path = p;
    return 0;
}

#define MAX_KIDS 1024
static pid_t kids[MAX_KIDS];
static int nkids;

static int do_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, char *const argv[],
                    char *const envp[]) {
    int std[3] = {0, 1, 2}, opened[16], nopened = 0, r = 0;
    if (fa)
        for (int i = 0; i < fa->n; i++) {
            struct wasmsand_spawn_action *a = &fa->a[i];
            if (a->op == A_DUP2 && a->newfd <= 2)
                std[a->newfd] = a->fd <= 2 ? std[a->fd] : a->fd;
            else if (a->op == A_CLOSE && a->fd <= 2)
                std[a->fd] = -1;
            else if (a->op == A_OPEN && a->fd <= 2) {
                int f = open(a->path, a->oflag, a->mode);
                if (f < 0) {
                    r = errno;
                    goto out;
                }
                if (nopened < 16) opened[nopened++] = f;
                std[a->fd] = f;
            }
        }
    /* The host runs argv[0]: a bare name it looks up in the child's PATH (as the
     * caller just did), else PATH itself, so that the program's argv[0] is the name
     * it was called by where that names the same file. */
    int n = 0;
    while (argv[n]) n++;
    char **av = malloc((n + 1) * sizeof *av);
    if (!av) {
        r = ENOMEM;
        goto out;
    }
    memcpy(av, argv, (n + 1) * sizeof *av);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!argv[0] || strchr(argv[0], '/') || strcmp(argv[0], base)) av[0] = (char *)path;
    int p = wasmsand_spawn(av, (char *const *)envp, std[0], std[1], std[2]);
    free(av);
    if (p < 0)
        r = errno;
    else {
        if (pid) *pid = p;
        if (nkids < MAX_KIDS) kids[nkids++] = p;
    }
out:
    for (int i = 0; i < nopened; i++) close(opened[i]);
    return r;
}

int posix_spawn(pid_t *__restrict pid, const char *__restrict path, const posix_spawn_file_actions_t *fa,
                const posix_spawnattr_t *__restrict attr, char *const argv[], char *const envp[]) {
    (void)attr;
    return do_spawn(pid, path, fa, argv, envp);
}

int posix_spawnp(pid_t *__restrict pid, const char *__restrict file, const posix_spawn_file_actions_t *fa,
                 const posix_spawnattr_t *__restrict attr, char *const argv[], char *const envp[]) {
    (void)attr;
    if (strchr(file, '/')) return do_spawn(pid, file, fa, argv, envp);
    const char *path = getenv("PATH");
    if (!path) path = "/bin:/usr/bin";
    char buf[PATH_MAX];
    int err = ENOENT;
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n + strlen(file) + 2 <= sizeof buf) {
            memcpy(buf, n ? path : ".", n ? n : 1);
            size_t l = n ? n : 1;
            buf[l] = '/';
            strcpy(buf + l + 1, file);
            if (access(buf, X_OK) == 0) return do_spawn(pid, buf, fa, argv, envp);
            if (errno == EACCES) err = EACCES;
        }
        path += n;
        if (*path) path++;
    }
    return err;
}

static void forget(int i) {
    memmove(kids + i, kids + i + 1, (nkids - i - 1) * sizeof *kids);
    nkids--;
}

pid_t wasmsand_spawn_wait(int *status, int block) {
    for (;;) {
        if (!nkids) {
            errno = ECHILD;
            return -1;
        }
        for (int i = 0; i < nkids; i++) {
            int st = 0, r = wasmsand_trywait(kids[i], &st);
            if (r == 0) continue;
            pid_t p = kids[i];
            forget(i);
            if (r < 0) return -1;
            if (status) *status = (st & 0xff) << 8;
            return p;
        }
        if (!block) return 0;
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}
