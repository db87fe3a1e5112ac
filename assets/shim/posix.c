/* posix.c — the POSIX functions wasi-libc (Debian's 2022 snapshot) lacks, for C guests
 * of wasmsand. Linked into every C asset (libwasmsand-shim.a) together with cwd.c and
 * wrap.c. Processes, pipes, dup, modes and owners go through the "wasmsand" import module
 * (wasi/include/wasmsand.h); everything the sandbox has no notion of (terminals, sockets,
 * mounts, signals from outside) fails cleanly with the errno a Linux program expects.
 *
 * Exec without fork: execve() and friends run the program as a child (wasmsand.spawn with
 * this process's stdio and environment), wait for it and exit with its status — what a
 * shell sees from a real exec. fork()/vfork() fail with ENOSYS: ported programs use
 * posix_spawn-style code instead (see the patches beside each asset). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <mntent.h>
#include <netdb.h>
#include <net/if.h>
#include <pty.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <syslog.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "wasmsand.h"

extern char **environ;

/* ---- processes ---------------------------------------------------------------------- */

#define MAX_CHILDREN 256
static int children[MAX_CHILDREN];
static int nchildren;

int __wasmsand_track_child(int pid) {
    if (pid > 0 && nchildren < MAX_CHILDREN) children[nchildren++] = pid;
    return pid;
}

static void untrack(int pid) {
    for (int i = 0; i < nchildren; i++)
        if (children[i] == pid) {
            memmove(children + i, children + i + 1, (nchildren - i - 1) * sizeof(int));
            nchildren--;
            return;
        }
}

pid_t getpid(void) { return wasmsand_getpid(); }

pid_t getppid(void) {
    int32_t p = 0, pp = 0;
    __wasmsand_getpid(&p, &pp);
    return pp;
}

pid_t fork(void) {
    errno = ENOSYS;
    return -1;
}
pid_t vfork(void) {
    errno = ENOSYS;
    return -1;
}

/* Runs argv as a child with our stdio and env, waits, and exits with its status. */
static int exec_as_child(const char *path, char *const argv[], char *const envp[]) {
    if (!argv || !argv[0]) {
        errno = EINVAL;
        return -1;
    }
    int n = 0;
    while (argv[n]) n++;
    char **av = malloc((n + 1) * sizeof(char *));
    if (!av) return -1;
    memcpy(av, argv, (n + 1) * sizeof(char *));
    if (path) av[0] = (char *)path;
    /* The host looks a bare name up in the child's PATH; execvp looks in ours, and
     * without one in /bin:/usr/bin (glibc's default): `env -i cmd` runs cmd. */
    char found[PATH_MAX];
    if (path && !strchr(path, '/') && !getenv("PATH")) {
        const char *dirs[] = {"/bin", "/usr/bin"};
        for (int i = 0; i < 2; i++) {
            snprintf(found, sizeof found, "%s/%s", dirs[i], path);
            if (access(found, X_OK) == 0) {
                av[0] = found;
                break;
            }
        }
    }
    fflush(NULL);
    int pid = wasmsand_spawn(av, envp ? envp : environ, 0, 1, 2);
    free(av);
    if (pid < 0) return -1;
    int st = 0;
    wasmsand_wait(pid, &st);
    _exit(st & 0xff);
}

int execve(const char *path, char *const argv[], char *const envp[]) {
    return exec_as_child(path, argv, envp);
}
int execv(const char *path, char *const argv[]) { return exec_as_child(path, argv, environ); }
/* The host resolves a name without '/' through the PATH of the environment the child gets. */
int execvp(const char *file, char *const argv[]) { return exec_as_child(file, argv, environ); }
int execvpe(const char *file, char *const argv[], char *const envp[]) {
    return exec_as_child(file, argv, envp);
}
int fexecve(int fd, char *const argv[], char *const envp[]) {
    (void)fd;
    (void)argv;
    (void)envp;
    errno = ENOSYS;
    return -1;
}

static char **collect_args(const char *arg0, va_list ap, char ***envp) {
    int n = 1, cap = 16;
    char **v = malloc(cap * sizeof(char *));
    if (!v) return NULL;
    v[0] = (char *)arg0;
    for (;;) {
        char *a = va_arg(ap, char *);
        if (n + 1 >= cap) {
            char **nv = realloc(v, (cap *= 2) * sizeof(char *));
            if (!nv) {
                free(v);
                return NULL;
            }
            v = nv;
        }
        v[n++] = a;
        if (!a) break;
    }
    if (envp) *envp = va_arg(ap, char **);
    return v;
}

int execl(const char *path, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    char **v = collect_args(arg, ap, NULL);
    va_end(ap);
    return v ? execv(path, v) : -1;
}
int execlp(const char *file, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    char **v = collect_args(arg, ap, NULL);
    va_end(ap);
    return v ? execvp(file, v) : -1;
}
int execle(const char *path, const char *arg, ...) {
    va_list ap;
    char **envp = NULL;
    va_start(ap, arg);
    char **v = collect_args(arg, ap, &envp);
    va_end(ap);
    return v ? execve(path, v, envp) : -1;
}

pid_t waitpid(pid_t pid, int *status, int options) {
    if (pid < -1) pid = -pid; /* process groups are single processes here */
    int st = 0;
    if (pid == -1 || pid == 0) {
        if (!nchildren) {
            errno = ECHILD;
            return -1;
        }
        /* A child that has already ended, else (no way to block on whichever
           ends first) the oldest one. */
        for (int i = 0; i < nchildren; i++) {
            int r = wasmsand_trywait(children[i], &st);
            if (r < 0) return -1;
            if (r > 0) {
                pid = r;
                goto reaped;
            }
        }
        if (options & WNOHANG) return 0;
        pid = children[0];
    } else if (options & WNOHANG) {
        int r = wasmsand_trywait(pid, &st);
        if (r <= 0) return r;
        goto reaped;
    }
    if (wasmsand_wait(pid, &st) < 0) return -1;
reaped:
    untrack(pid);
    if (status) *status = (st & 0xff) << 8;
    return pid;
}
pid_t wait(int *status) { return waitpid(-1, status, 0); }
pid_t wait3(int *status, int options, struct rusage *ru) {
    if (ru) memset(ru, 0, sizeof *ru);
    return waitpid(-1, status, options);
}
pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    if (ru) memset(ru, 0, sizeof *ru);
    return waitpid(pid, status, options);
}

int kill(pid_t pid, int sig) {
    if (pid == 0 || pid == getpid()) return raise(sig);
    if (pid == -1) {
        for (int i = 0; i < nchildren; i++) wasmsand_kill(children[i], sig);
        return 0;
    }
    if (pid < 0) pid = -pid;
    return wasmsand_kill(pid, sig);
}
int killpg(pid_t pgrp, int sig) { return kill(-pgrp, sig); }

int pipe(int fds[2]) { return wasmsand_pipe(fds); }
int pipe2(int fds[2], int flags) {
    (void)flags;
    return wasmsand_pipe(fds);
}
/* wrap.c keeps each fd's path for fchdir(); dups carry it along. */
const char *__wasmsand_fd_path(int fd);
void __wasmsand_set_fd_path(int fd, const char *path);

int dup(int fd) {
    int n = wasmsand_dup(fd);
    if (n >= 0) __wasmsand_set_fd_path(n, __wasmsand_fd_path(fd));
    return n;
}
int dup2(int fd, int to) {
    if (fd == to) {
        if (fcntl(fd, F_GETFD) < 0) return -1;
        return to;
    }
    if (wasmsand_dup2(fd, to) < 0) return -1;
    __wasmsand_set_fd_path(to, __wasmsand_fd_path(fd));
    return to;
}
int dup3(int fd, int to, int flags) {
    (void)flags;
    if (fd == to) {
        errno = EINVAL;
        return -1;
    }
    return dup2(fd, to);
}

/* popen/pclose/system run "sh -c CMD" as a child. */
#define MAX_POPEN 32
static struct {
    FILE *f;
    int pid;
} popens[MAX_POPEN];

FILE *popen(const char *cmd, const char *mode) {
    int fds[2], rd = mode && mode[0] == 'r';
    if (!mode || (mode[0] != 'r' && mode[0] != 'w')) {
        errno = EINVAL;
        return NULL;
    }
    if (pipe(fds)) return NULL;
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    fflush(NULL);
    int pid = rd ? wasmsand_spawn(argv, environ, 0, fds[1], 2) : wasmsand_spawn(argv, environ, fds[0], 1, 2);
    close(rd ? fds[1] : fds[0]);
    if (pid < 0) {
        close(rd ? fds[0] : fds[1]);
        return NULL;
    }
    FILE *f = fdopen(rd ? fds[0] : fds[1], rd ? "r" : "w");
    if (!f) return NULL;
    for (int i = 0; i < MAX_POPEN; i++)
        if (!popens[i].f) {
            popens[i].f = f;
            popens[i].pid = pid;
            break;
        }
    return f;
}

int pclose(FILE *f) {
    int pid = -1;
    for (int i = 0; i < MAX_POPEN; i++)
        if (popens[i].f == f) {
            pid = popens[i].pid;
            popens[i].f = NULL;
            break;
        }
    fclose(f);
    if (pid < 0) {
        errno = ECHILD;
        return -1;
    }
    int st = 0;
    if (wasmsand_wait(pid, &st) < 0) return -1;
    return (st & 0xff) << 8;
}

int system(const char *cmd) {
    if (!cmd) return 1;
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    fflush(NULL);
    int pid = wasmsand_spawn(argv, environ, 0, 1, 2);
    if (pid < 0) return 127 << 8;
    int st = 0;
    if (wasmsand_wait(pid, &st) < 0) return -1;
    return (st & 0xff) << 8;
}

/* Process groups and sessions: every process is its own group and session. */
pid_t getpgrp(void) { return getpid(); }
pid_t getpgid(pid_t pid) { return pid ? pid : getpid(); }
int setpgid(pid_t pid, pid_t pgid) {
    (void)pid;
    (void)pgid;
    return 0;
}
pid_t setsid(void) { return getpid(); }
pid_t getsid(pid_t pid) { return pid ? pid : getpid(); }
pid_t tcgetpgrp(int fd) {
    (void)fd;
    errno = ENOTTY;
    return -1;
}
int tcsetpgrp(int fd, pid_t pg) {
    (void)fd;
    (void)pg;
    errno = ENOTTY;
    return -1;
}

int nice(int inc) {
    (void)inc;
    return 0;
}
int getpriority(int which, id_t who) {
    (void)which;
    (void)who;
    errno = 0;
    return 0;
}
int setpriority(int which, id_t who, int prio) {
    (void)which;
    (void)who;
    (void)prio;
    return 0;
}

int getrlimit(int res, struct rlimit *rl) {
    rl->rlim_cur = rl->rlim_max = RLIM_INFINITY;
    if (res == RLIMIT_NOFILE) rl->rlim_cur = rl->rlim_max = 1024;
    if (res == RLIMIT_STACK) rl->rlim_cur = rl->rlim_max = 8 << 20;
    return 0;
}
int setrlimit(int res, const struct rlimit *rl) {
    (void)res;
    (void)rl;
    return 0;
}
int prlimit(pid_t pid, int res, const struct rlimit *n, struct rlimit *o) {
    (void)pid;
    if (o) getrlimit(res, o);
    return setrlimit(res, n);
}
int getdtablesize(void) { return 1024; }

/* ---- users and groups (from the sandbox's /etc/passwd and /etc/group) ------------- */

#define ID_USER 1000

uid_t getuid(void) { return ID_USER; }
uid_t geteuid(void) { return ID_USER; }
gid_t getgid(void) { return ID_USER; }
gid_t getegid(void) { return ID_USER; }
int getgroups(int n, gid_t list[]) {
    if (n == 0) return 1;
    if (n < 1) {
        errno = EINVAL;
        return -1;
    }
    list[0] = getgid();
    return 1;
}
static int set_id(unsigned id, unsigned cur) {
    if (id == (unsigned)-1 || id == cur) return 0;
    errno = EPERM;
    return -1;
}
int setuid(uid_t u) { return set_id(u, getuid()); }
int seteuid(uid_t u) { return set_id(u, getuid()); }
int setgid(gid_t g) { return set_id(g, getgid()); }
int setegid(gid_t g) { return set_id(g, getgid()); }
int setreuid(uid_t r, uid_t e) { return set_id(r, getuid()) || set_id(e, getuid()) ? -1 : 0; }
int setregid(gid_t r, gid_t e) { return set_id(r, getgid()) || set_id(e, getgid()) ? -1 : 0; }
int setresuid(uid_t r, uid_t e, uid_t s) {
    return set_id(r, getuid()) || set_id(e, getuid()) || set_id(s, getuid()) ? -1 : 0;
}
int setresgid(gid_t r, gid_t e, gid_t s) {
    return set_id(r, getgid()) || set_id(e, getgid()) || set_id(s, getgid()) ? -1 : 0;
}
int setgroups(size_t n, const gid_t *l) {
    (void)n;
    (void)l;
    errno = EPERM;
    return -1;
}
int initgroups(const char *u, gid_t g) {
    (void)u;
    (void)g;
    errno = EPERM;
    return -1;
}
char *getlogin(void) {
    struct passwd *p = getpwuid(getuid());
    return p ? p->pw_name : "user";
}
int getlogin_r(char *buf, size_t n) {
    const char *s = getlogin();
    if (strlen(s) >= n) return ERANGE;
    strcpy(buf, s);
    return 0;
}

/* Splits a colon-separated line into at most max fields, in place. */
static int split_colon(char *line, char **f, int max) {
    int n = 0;
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    f[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == ':') {
            *p = 0;
            f[n++] = p + 1;
        }
    return n;
}

static FILE *pwf, *grf;
static struct passwd pw_static;
static char pw_line[1024];
static struct group gr_static;
static char gr_line[1024];
static char *gr_members[64];

static struct passwd *parse_pw(char *line, struct passwd *pw) {
    char *f[7];
    if (split_colon(line, f, 7) < 7) return NULL;
    pw->pw_name = f[0];
    pw->pw_passwd = f[1];
    pw->pw_uid = (uid_t)strtoul(f[2], NULL, 10);
    pw->pw_gid = (gid_t)strtoul(f[3], NULL, 10);
    pw->pw_gecos = f[4];
    pw->pw_dir = f[5];
    pw->pw_shell = f[6];
    return pw;
}

static struct group *parse_gr(char *line, struct group *gr, char **mem, int nmem) {
    char *f[4];
    if (split_colon(line, f, 4) < 3) return NULL;
    gr->gr_name = f[0];
    gr->gr_passwd = f[1];
    gr->gr_gid = (gid_t)strtoul(f[2], NULL, 10);
    int n = 0;
    if (f[3] && *f[3]) {
        for (char *s = f[3], *t; s && n < nmem - 1; s = t) {
            t = strchr(s, ',');
            if (t) *t++ = 0;
            if (*s) mem[n++] = s;
        }
    }
    mem[n] = NULL;
    gr->gr_mem = mem;
    return gr;
}

void setpwent(void) {
    if (pwf) rewind(pwf);
}
void endpwent(void) {
    if (pwf) fclose(pwf);
    pwf = NULL;
}
struct passwd *fgetpwent(FILE *f) {
    while (fgets(pw_line, sizeof pw_line, f))
        if (parse_pw(pw_line, &pw_static)) return &pw_static;
    return NULL;
}
struct passwd *getpwent(void) {
    if (!pwf && !(pwf = fopen("/etc/passwd", "r"))) return NULL;
    return fgetpwent(pwf);
}
int putpwent(const struct passwd *p, FILE *f) {
    return fprintf(f, "%s:%s:%u:%u:%s:%s:%s\n", p->pw_name, p->pw_passwd, p->pw_uid, p->pw_gid, p->pw_gecos,
                   p->pw_dir, p->pw_shell) < 0
               ? -1
               : 0;
}

/* by name (name != NULL) or uid; result in pw with strings in buf */
static int find_pw(const char *name, uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **res) {
    *res = NULL;
    FILE *f = fopen("/etc/passwd", "r");
    if (!f) return 0;
    while (fgets(buf, (int)len, f)) {
        char copy[1024];
        snprintf(copy, sizeof copy, "%s", buf);
        struct passwd tmp;
        if (!parse_pw(copy, &tmp)) continue;
        if (name ? strcmp(tmp.pw_name, name) == 0 : tmp.pw_uid == uid) {
            parse_pw(buf, pw);
            *res = pw;
            break;
        }
    }
    fclose(f);
    return 0;
}
int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t len, struct passwd **res) {
    return find_pw(name, 0, pw, buf, len, res);
}
int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **res) {
    return find_pw(NULL, uid, pw, buf, len, res);
}
struct passwd *getpwnam(const char *name) {
    struct passwd *r;
    getpwnam_r(name, &pw_static, pw_line, sizeof pw_line, &r);
    return r;
}
struct passwd *getpwuid(uid_t uid) {
    struct passwd *r;
    getpwuid_r(uid, &pw_static, pw_line, sizeof pw_line, &r);
    return r;
}

void setgrent(void) {
    if (grf) rewind(grf);
}
void endgrent(void) {
    if (grf) fclose(grf);
    grf = NULL;
}
struct group *fgetgrent(FILE *f) {
    while (fgets(gr_line, sizeof gr_line, f))
        if (parse_gr(gr_line, &gr_static, gr_members, 64)) return &gr_static;
    return NULL;
}
struct group *getgrent(void) {
    if (!grf && !(grf = fopen("/etc/group", "r"))) return NULL;
    return fgetgrent(grf);
}
static int find_gr(const char *name, gid_t gid, struct group *gr, char *buf, size_t len, struct group **res) {
    *res = NULL;
    FILE *f = fopen("/etc/group", "r");
    if (!f) return 0;
    /* member pointers live at the end of buf */
    size_t nmem = 16;
    if (len < nmem * sizeof(char *) + 64) {
        fclose(f);
        return ERANGE;
    }
    char **mem = (char **)(((uintptr_t)buf + len - nmem * sizeof(char *)) & ~(uintptr_t)(sizeof(char *) - 1));
    size_t linelen = (size_t)((char *)mem - buf);
    while (fgets(buf, (int)linelen, f)) {
        char copy[1024];
        char *tm[16];
        snprintf(copy, sizeof copy, "%s", buf);
        struct group tmp;
        if (!parse_gr(copy, &tmp, tm, 16)) continue;
        if (name ? strcmp(tmp.gr_name, name) == 0 : tmp.gr_gid == gid) {
            parse_gr(buf, gr, mem, (int)nmem);
            *res = gr;
            break;
        }
    }
    fclose(f);
    return 0;
}
int getgrnam_r(const char *name, struct group *gr, char *buf, size_t len, struct group **res) {
    return find_gr(name, 0, gr, buf, len, res);
}
int getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t len, struct group **res) {
    return find_gr(NULL, gid, gr, buf, len, res);
}
static char gr_buf[2048];
struct group *getgrnam(const char *name) {
    struct group *r;
    getgrnam_r(name, &gr_static, gr_buf, sizeof gr_buf, &r);
    return r;
}
struct group *getgrgid(gid_t gid) {
    struct group *r;
    getgrgid_r(gid, &gr_static, gr_buf, sizeof gr_buf, &r);
    return r;
}
int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups) {
    int n = 0, max = *ngroups;
    if (n < max) groups[n] = group;
    n++;
    FILE *f = fopen("/etc/group", "r");
    if (f) {
        char line[1024];
        char *mem[64];
        struct group g;
        while (fgets(line, sizeof line, f)) {
            if (!parse_gr(line, &g, mem, 64) || g.gr_gid == group) continue;
            for (char **m = g.gr_mem; *m; m++)
                if (!strcmp(*m, user)) {
                    if (n < max) groups[n] = g.gr_gid;
                    n++;
                    break;
                }
        }
        fclose(f);
    }
    *ngroups = n;
    return n > max ? -1 : n;
}

/* ---- files --------------------------------------------------------------------------- */

int chmod(const char *path, mode_t mode) { return wasmsand_chmod(path, mode); }
int fchmod(int fd, mode_t mode) { return wasmsand_fchmod(fd, mode); }

/* Raw path ops against a directory fd (AT_FDCWD or an absolute path: from the root). */
static int at_op(int dirfd, const char *path, int follow, int op, unsigned mode, int uid, int gid) {
    if (dirfd == AT_FDCWD || path[0] == '/') {
        if (op == 1) return wasmsand__path_op(path, follow, 1, mode, 0, 0, 0);
        return wasmsand__path_op(path, follow, 2, 0, uid, gid, 0);
    }
    uint32_t f = follow ? WASMSAND_FOLLOW : 0, l = (uint32_t)strlen(path);
    if (op == 1) return wasmsand__ret(__wasmsand_chmod(dirfd, f, path, l, mode));
    return wasmsand__ret(__wasmsand_chown(dirfd, f, path, l, uid, gid));
}
int fchmodat(int dirfd, const char *path, mode_t mode, int flags) {
    return at_op(dirfd, path, !(flags & AT_SYMLINK_NOFOLLOW), 1, mode, 0, 0);
}
int chown(const char *path, uid_t u, gid_t g) { return wasmsand_chown(path, (int)u, (int)g); }
int lchown(const char *path, uid_t u, gid_t g) { return wasmsand_lchown(path, (int)u, (int)g); }
int fchown(int fd, uid_t u, gid_t g) { return wasmsand__ret(__wasmsand_chown(fd, 0, "", 0, (int)u, (int)g)); }
int fchownat(int dirfd, const char *path, uid_t u, gid_t g, int flags) {
    if (!*path && (flags & 0x1000 /* AT_EMPTY_PATH */)) return fchown(dirfd, u, g);
    return at_op(dirfd, path, !(flags & AT_SYMLINK_NOFOLLOW), 2, 0, (int)u, (int)g);
}

static mode_t cur_umask = 022;
mode_t __wasmsand_umask(void) { return cur_umask; }
mode_t umask(mode_t m) {
    mode_t old = cur_umask;
    cur_umask = m & 0777;
    return old;
}

/* Named pipes through the wasmsand import (the host applies the umask). WASI's
   S_IFIFO differs from Linux's: the import takes Linux's type bits. */
#define LINUX_S_IFIFO 0010000u
int mknodat(int fd, const char *path, mode_t mode, dev_t dev) {
    if (!S_ISFIFO(mode)) {
        errno = EPERM;
        return -1;
    }
    uint32_t m = LINUX_S_IFIFO | ((uint32_t)mode & 07777);
    if (fd == AT_FDCWD || path[0] == '/') return wasmsand_mknod(path, m, (uint64_t)dev);
    return wasmsand__ret(__wasmsand_mknod(fd, path, (uint32_t)strlen(path), m, (uint64_t)dev));
}
int mknod(const char *path, mode_t mode, dev_t dev) { return mknodat(AT_FDCWD, path, mode, dev); }
int mkfifoat(int fd, const char *path, mode_t mode) { return mknodat(fd, path, S_IFIFO | (mode & 07777), 0); }
int mkfifo(const char *path, mode_t mode) { return mkfifoat(AT_FDCWD, path, mode); }

int fchdir(int fd) {
    const char *p = __wasmsand_fd_path(fd);
    if (!p) {
        errno = fcntl(fd, F_GETFD) < 0 ? EBADF : ENOSYS;
        return -1;
    }
    return chdir(p);
}
int chroot(const char *p) {
    (void)p;
    errno = EPERM;
    return -1;
}
void sync(void) {}
int syncfs(int fd) {
    (void)fd;
    return 0;
}
int lockf(int fd, int cmd, off_t len) {
    (void)fd;
    (void)cmd;
    (void)len;
    return 0;
}
int acct(const char *p) {
    (void)p;
    errno = ENOSYS;
    return -1;
}

static const char tmpl_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* Replaces the run of X's before the suffix (at least 6; all of them, as BSD does). */
static int fill_template(char *t, int suffix) {
    size_t l = strlen(t);
    if (suffix < 0 || l < (size_t)suffix + 6 || memcmp(t + l - suffix - 6, "XXXXXX", 6)) {
        errno = EINVAL;
        return -1;
    }
    size_t end = l - (size_t)suffix, start = end - 6;
    while (start > 0 && t[start - 1] == 'X') start--;
    unsigned char r[64];
    if (end - start > sizeof r) start = end - sizeof r;
    if (getentropy(r, end - start)) return -1;
    for (size_t i = start; i < end; i++) t[i] = tmpl_chars[r[i - start] % (sizeof tmpl_chars - 1)];
    return 0;
}
int mkostemps(char *t, int suffix, int flags) {
    for (int tries = 0; tries < 100; tries++) {
        if (fill_template(t, suffix)) return -1;
        int fd = open(t, O_RDWR | O_CREAT | O_EXCL | (flags & ~O_ACCMODE), 0600);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}
int mkstemp(char *t) { return mkostemps(t, 0, 0); }
int mkostemp(char *t, int flags) { return mkostemps(t, 0, flags); }
int mkstemps(char *t, int suffix) { return mkostemps(t, suffix, 0); }
char *mkdtemp(char *t) {
    for (int tries = 0; tries < 100; tries++) {
        if (fill_template(t, 0)) return NULL;
        if (!mkdir(t, 0700)) return t;
        if (errno != EEXIST) return NULL;
    }
    return NULL;
}
char *mktemp(char *t) {
    struct stat st;
    for (int tries = 0; tries < 100; tries++) {
        if (fill_template(t, 0)) {
            *t = 0;
            return t;
        }
        if (lstat(t, &st) && errno == ENOENT) return t;
    }
    *t = 0;
    return t;
}
FILE *tmpfile(void) {
    char t[] = "/tmp/tmpfile.XXXXXX";
    int fd = mkstemp(t);
    if (fd < 0) return NULL;
    unlink(t);
    return fdopen(fd, "w+");
}
char *tmpnam(char *s) {
    static char buf[32];
    char *t = s ? s : buf;
    strcpy(t, "/tmp/tmpnam.XXXXXX");
    return *mktemp(t) ? t : NULL;
}

/* realpath: absolute, "." and ".." removed, every symlink resolved (up to 40). */
char *realpath(const char *__restrict path, char *__restrict out) {
    if (!path) {
        errno = EINVAL;
        return NULL;
    }
    if (!*path) {
        errno = ENOENT;
        return NULL;
    }
    char res[PATH_MAX], rest[PATH_MAX], link[PATH_MAX];
    size_t rl;
    int links = 0;
    if (path[0] == '/') {
        res[0] = 0;
        rl = 0;
    } else {
        if (!getcwd(res, sizeof res)) return NULL;
        rl = strlen(res);
        if (rl == 1) rl = 0, res[0] = 0;
    }
    if (strlen(path) >= sizeof rest) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    strcpy(rest, path);
    char *p = rest;
    while (*p) {
        while (*p == '/') p++;
        if (!*p) break;
        char *e = p;
        while (*e && *e != '/') e++;
        size_t cl = (size_t)(e - p);
        if (cl == 1 && p[0] == '.') {
            p = e;
            continue;
        }
        if (cl == 2 && p[0] == '.' && p[1] == '.') {
            while (rl > 0 && res[rl - 1] != '/') rl--;
            if (rl > 0) rl--;
            res[rl] = 0;
            p = e;
            continue;
        }
        if (rl + 1 + cl >= sizeof res) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        res[rl] = '/';
        memcpy(res + rl + 1, p, cl);
        size_t nl = rl + 1 + cl;
        res[nl] = 0;
        ssize_t ll = readlink(res, link, sizeof link - 1);
        if (ll >= 0) {
            if (++links > 40) {
                errno = ELOOP;
                return NULL;
            }
            link[ll] = 0;
            size_t tl = strlen(e);
            if ((size_t)ll + tl + 1 >= sizeof rest) {
                errno = ENAMETOOLONG;
                return NULL;
            }
            char tmp[PATH_MAX];
            memcpy(tmp, link, (size_t)ll);
            memcpy(tmp + ll, e, tl + 1);
            strcpy(rest, tmp);
            p = rest;
            if (link[0] == '/') {
                rl = 0;
                res[0] = 0;
            } else {
                res[rl] = 0;
            }
            continue;
        }
        if (errno != EINVAL) {
            struct stat st;
            if (lstat(res, &st)) return NULL;
        }
        rl = nl;
        p = e;
        if (*e) {
            struct stat st;
            if (stat(res, &st)) return NULL;
            if (!S_ISDIR(st.st_mode)) {
                errno = ENOTDIR;
                return NULL;
            }
        }
    }
    if (rl == 0) {
        res[0] = '/';
        res[1] = 0;
    }
    if (!out) return strdup(res);
    strcpy(out, res);
    return out;
}

/* One filesystem: the sandbox. Sizes are nominal (quotas are the host's). */
static void fake_statfs(struct statfs *s) {
    memset(s, 0, sizeof *s);
    s->f_type = WASMSAND_FS_MAGIC;
    s->f_bsize = s->f_frsize = 4096;
    s->f_blocks = 1 << 20;
    s->f_bfree = s->f_bavail = 1 << 19;
    s->f_files = 1 << 20;
    s->f_ffree = 1 << 19;
    s->f_namelen = 255;
}
int statfs(const char *path, struct statfs *s) {
    struct stat st;
    if (stat(path, &st)) return -1;
    fake_statfs(s);
    return 0;
}
int fstatfs(int fd, struct statfs *s) {
    struct stat st;
    if (fstat(fd, &st)) return -1;
    fake_statfs(s);
    return 0;
}
static void fake_statvfs(struct statvfs *v) {
    struct statfs s;
    fake_statfs(&s);
    memset(v, 0, sizeof *v);
    v->f_bsize = s.f_bsize;
    v->f_frsize = s.f_frsize;
    v->f_blocks = s.f_blocks;
    v->f_bfree = s.f_bfree;
    v->f_bavail = s.f_bavail;
    v->f_files = s.f_files;
    v->f_ffree = v->f_favail = s.f_ffree;
    v->f_namemax = 255;
}
int statvfs(const char *__restrict path, struct statvfs *__restrict v) {
    struct stat st;
    if (stat(path, &st)) return -1;
    fake_statvfs(v);
    return 0;
}
int fstatvfs(int fd, struct statvfs *v) {
    struct stat st;
    if (fstat(fd, &st)) return -1;
    fake_statvfs(v);
    return 0;
}

static const char fake_mounts[] = "wasmsand / wasmsand rw 0 0\n";
FILE *setmntent(const char *path, const char *mode) {
    FILE *f = fopen(path, mode);
    if (!f && (!strcmp(path, "/proc/mounts") || !strcmp(path, "/etc/mtab") || !strcmp(path, "/proc/self/mounts")))
        f = fmemopen((void *)fake_mounts, sizeof fake_mounts - 1, "r");
    return f;
}
int endmntent(FILE *f) {
    if (f) fclose(f);
    return 1;
}
struct mntent *getmntent_r(FILE *f, struct mntent *m, char *buf, int len) {
    while (fgets(buf, len, f)) {
        char *fld[6] = {0};
        int n = 0;
        for (char *s = strtok(buf, " \t\n"); s && n < 6; s = strtok(NULL, " \t\n")) fld[n++] = s;
        if (n < 4 || fld[0][0] == '#') continue;
        m->mnt_fsname = fld[0];
        m->mnt_dir = fld[1];
        m->mnt_type = fld[2];
        m->mnt_opts = fld[3];
        m->mnt_freq = n > 4 ? atoi(fld[4]) : 0;
        m->mnt_passno = n > 5 ? atoi(fld[5]) : 0;
        return m;
    }
    return NULL;
}
struct mntent *getmntent(FILE *f) {
    static struct mntent m;
    static char buf[1024];
    return getmntent_r(f, &m, buf, sizeof buf);
}
int addmntent(FILE *f, const struct mntent *m) {
    return fprintf(f, "%s %s %s %s %d %d\n", m->mnt_fsname, m->mnt_dir, m->mnt_type, m->mnt_opts, m->mnt_freq,
                   m->mnt_passno) < 0;
}
char *hasmntopt(const struct mntent *m, const char *opt) {
    size_t l = strlen(opt);
    for (char *p = m->mnt_opts; p && *p;) {
        if (!strncmp(p, opt, l) && (p[l] == 0 || p[l] == ',' || p[l] == '=')) return p;
        p = strchr(p, ',');
        if (p) p++;
    }
    return NULL;
}
int mount(const char *s, const char *t, const char *ty, unsigned long f, const void *d) {
    (void)s, (void)t, (void)ty, (void)f, (void)d;
    errno = EPERM;
    return -1;
}
int umount(const char *t) {
    (void)t;
    errno = EPERM;
    return -1;
}
int umount2(const char *t, int f) {
    (void)t, (void)f;
    errno = EPERM;
    return -1;
}
int swapon(const char *p, int f) {
    (void)p, (void)f;
    errno = EPERM;
    return -1;
}
int swapoff(const char *p) {
    (void)p;
    errno = EPERM;
    return -1;
}

#define NOTSUP_X(ret, name, ...) \
    ret name(__VA_ARGS__) {      \
        errno = ENOTSUP;         \
        return -1;               \
    }
NOTSUP_X(ssize_t, getxattr, const char *p, const char *n, void *v, size_t s)
NOTSUP_X(ssize_t, lgetxattr, const char *p, const char *n, void *v, size_t s)
NOTSUP_X(ssize_t, fgetxattr, int fd, const char *n, void *v, size_t s)
NOTSUP_X(int, setxattr, const char *p, const char *n, const void *v, size_t s, int f)
NOTSUP_X(int, lsetxattr, const char *p, const char *n, const void *v, size_t s, int f)
NOTSUP_X(int, fsetxattr, int fd, const char *n, const void *v, size_t s, int f)
NOTSUP_X(int, removexattr, const char *p, const char *n)
NOTSUP_X(int, lremovexattr, const char *p, const char *n)
NOTSUP_X(int, fremovexattr, int fd, const char *n)
/* "no attributes" rather than an error, so copying tools carry on */
ssize_t listxattr(const char *p, char *l, size_t s) {
    (void)p, (void)l, (void)s;
    return 0;
}
ssize_t llistxattr(const char *p, char *l, size_t s) {
    (void)p, (void)l, (void)s;
    return 0;
}
ssize_t flistxattr(int fd, char *l, size_t s) {
    (void)fd, (void)l, (void)s;
    return 0;
}

int inotify_init(void) {
    errno = ENOSYS;
    return -1;
}
int inotify_init1(int f) {
    (void)f;
    return inotify_init();
}
int inotify_add_watch(int fd, const char *p, uint32_t m) {
    (void)fd, (void)p, (void)m;
    errno = ENOSYS;
    return -1;
}
int inotify_rm_watch(int fd, int wd) {
    (void)fd, (void)wd;
    errno = ENOSYS;
    return -1;
}

/* ---- terminals ---------------------------------------------------------------------- */

int tcgetattr(int fd, struct termios *t) {
    (void)t;
    if (fcntl(fd, F_GETFD) < 0) return -1;
    errno = ENOTTY;
    return -1;
}
int tcsetattr(int fd, int act, const struct termios *t) {
    (void)act;
    return tcgetattr(fd, (struct termios *)t);
}
int tcsendbreak(int fd, int d) {
    (void)d;
    return tcgetattr(fd, NULL);
}
int tcdrain(int fd) { return tcgetattr(fd, NULL); }
int tcflush(int fd, int q) {
    (void)q;
    return tcgetattr(fd, NULL);
}
int tcflow(int fd, int a) {
    (void)a;
    return tcgetattr(fd, NULL);
}
pid_t tcgetsid(int fd) { return tcgetattr(fd, NULL); }
speed_t cfgetospeed(const struct termios *t) { return t->c_cflag & CBAUD; }
speed_t cfgetispeed(const struct termios *t) { return cfgetospeed(t); }
int cfsetospeed(struct termios *t, speed_t s) {
    t->c_cflag = (t->c_cflag & ~CBAUD) | (s & CBAUD);
    return 0;
}
int cfsetispeed(struct termios *t, speed_t s) { return s ? cfsetospeed(t, s) : 0; }
int cfsetspeed(struct termios *t, speed_t s) { return cfsetospeed(t, s); }
void cfmakeraw(struct termios *t) {
    t->c_iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    t->c_oflag &= ~OPOST;
    t->c_lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t->c_cflag &= ~(CSIZE | PARENB);
    t->c_cflag |= CS8;
    t->c_cc[VMIN] = 1;
    t->c_cc[VTIME] = 0;
}
char *ttyname(int fd) {
    static char name[] = "/dev/tty";
    if (!isatty(fd)) {
        errno = ENOTTY;
        return NULL;
    }
    return name;
}
int ttyname_r(int fd, char *buf, size_t len) {
    char *n = ttyname(fd);
    if (!n) return errno;
    if (strlen(n) >= len) return ERANGE;
    strcpy(buf, n);
    return 0;
}
int openpty(int *m, int *s, char *n, const struct termios *t, const struct winsize *w) {
    (void)m, (void)s, (void)n, (void)t, (void)w;
    errno = ENOSYS;
    return -1;
}
int forkpty(int *m, char *n, const struct termios *t, const struct winsize *w) {
    (void)m, (void)n, (void)t, (void)w;
    errno = ENOSYS;
    return -1;
}
int posix_openpt(int f) {
    (void)f;
    errno = ENOSYS;
    return -1;
}
int grantpt(int fd) {
    (void)fd;
    errno = ENOSYS;
    return -1;
}
int unlockpt(int fd) {
    (void)fd;
    errno = ENOSYS;
    return -1;
}
char *ptsname(int fd) {
    (void)fd;
    errno = ENOSYS;
    return NULL;
}
int vhangup(void) { return 0; }
char *getusershell(void) { return NULL; }

/* ---- signals ------------------------------------------------------------------------ */

int sigemptyset(sigset_t *s) {
    *s = 0;
    return 0;
}
int sigfillset(sigset_t *s) {
    *s = (sigset_t)~0;
    return 0;
}
int sigaddset(sigset_t *s, int sig) {
    if (sig <= 0 || sig >= _NSIG) {
        errno = EINVAL;
        return -1;
    }
    if (sig <= 8) *s |= (sigset_t)(1u << (sig - 1));
    return 0;
}
int sigdelset(sigset_t *s, int sig) {
    if (sig <= 0 || sig >= _NSIG) {
        errno = EINVAL;
        return -1;
    }
    if (sig <= 8) *s &= (sigset_t) ~(1u << (sig - 1));
    return 0;
}
int sigismember(const sigset_t *s, int sig) { return sig > 0 && sig <= 8 ? !!(*s & (1u << (sig - 1))) : 0; }
int sigprocmask(int how, const sigset_t *__restrict set, sigset_t *__restrict old) {
    (void)how, (void)set;
    if (old) *old = 0;
    return 0;
}
int pthread_sigmask(int how, const sigset_t *__restrict set, sigset_t *__restrict old) {
    return sigprocmask(how, set, old);
}
int sigpending(sigset_t *s) { return sigemptyset(s); }
int sigsuspend(const sigset_t *s) {
    (void)s;
    errno = EINTR;
    return -1;
}
int sigwait(const sigset_t *__restrict s, int *__restrict sig) {
    (void)s, (void)sig;
    return ENOSYS;
}
int siginterrupt(int sig, int flag) {
    (void)sig, (void)flag;
    return 0;
}
int sigaltstack(const stack_t *__restrict s, stack_t *__restrict o) {
    (void)s;
    if (o) memset(o, 0, sizeof *o);
    return 0;
}

/* SA_SIGINFO handlers get a zeroed siginfo through a trampoline (wasm checks signatures). */
static void (*siginfo_handlers[_NSIG])(int, siginfo_t *, void *);
static void (*plain_handlers[_NSIG])(int);
static int sa_flags_of[_NSIG];
static void siginfo_trampoline(int sig) {
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = sig;
    if (sig > 0 && sig < _NSIG && siginfo_handlers[sig]) siginfo_handlers[sig](sig, &si, NULL);
}
int sigaction(int sig, const struct sigaction *__restrict sa, struct sigaction *__restrict old) {
    if (sig <= 0 || sig >= _NSIG) {
        errno = EINVAL;
        return -1;
    }
    if (old) {
        memset(old, 0, sizeof *old);
        if (sa_flags_of[sig] & SA_SIGINFO)
            old->sa_sigaction = siginfo_handlers[sig];
        else
            old->sa_handler = plain_handlers[sig];
        old->sa_flags = sa_flags_of[sig];
    }
    if (!sa) return 0;
    if (sig == SIGKILL || sig == SIGSTOP) {
        errno = EINVAL;
        return -1;
    }
    void (*h)(int);
    if (sa->sa_flags & SA_SIGINFO) {
        siginfo_handlers[sig] = sa->sa_sigaction;
        h = siginfo_trampoline;
    } else {
        h = sa->sa_handler;
        plain_handlers[sig] = h;
    }
    sa_flags_of[sig] = sa->sa_flags;
    /* signal() (wrap.c) refuses SIGKILL/SIGSTOP; everything else is recorded for raise(). */
    if (signal(sig, h) == SIG_ERR) return -1;
    return 0;
}

unsigned alarm(unsigned s) {
    (void)s;
    return 0;
}
int pause(void) {
    errno = EINTR;
    return -1;
}
int getitimer(int w, struct itimerval *v) {
    (void)w;
    memset(v, 0, sizeof *v);
    return 0;
}
int setitimer(int w, const struct itimerval *__restrict n, struct itimerval *__restrict o) {
    (void)w, (void)n;
    if (o) memset(o, 0, sizeof *o);
    errno = ENOSYS;
    return -1;
}

/* No unwinding without the exception-handling proposal: fail loudly, never silently. */
static _Noreturn void no_longjmp(void) {
    static const char msg[] = "wasmsand: longjmp is not supported in this WebAssembly build\n";
    write(2, msg, sizeof msg - 1);
    _Exit(134);
}
_Noreturn void longjmp(jmp_buf b, int v) {
    (void)b, (void)v;
    no_longjmp();
}
_Noreturn void _longjmp(jmp_buf b, int v) {
    (void)b, (void)v;
    no_longjmp();
}
_Noreturn void siglongjmp(sigjmp_buf b, int v) {
    (void)b, (void)v;
    no_longjmp();
}

/* ---- system ------------------------------------------------------------------------- */

int gethostname(char *name, size_t len) {
    char buf[256] = "wasmsand";
    FILE *f = fopen("/etc/hostname", "r");
    if (f) {
        if (fgets(buf, sizeof buf, f)) buf[strcspn(buf, "\r\n")] = 0;
        fclose(f);
        if (!*buf) strcpy(buf, "wasmsand");
    }
    if (strlen(buf) >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(name, buf);
    return 0;
}
int sethostname(const char *n, size_t l) {
    (void)n, (void)l;
    errno = EPERM;
    return -1;
}
long gethostid(void) { return 0; }
int settimeofday(const struct timeval *tv, const struct timezone *tz) {
    (void)tv, (void)tz;
    errno = EPERM;
    return -1;
}
int adjtime(const struct timeval *d, struct timeval *o) {
    (void)d;
    if (o) memset(o, 0, sizeof *o);
    errno = EPERM;
    return -1;
}
int futimes(int fd, const struct timeval tv[2]) {
    if (!tv) return futimens(fd, NULL);
    struct timespec ts[2] = {{tv[0].tv_sec, tv[0].tv_usec * 1000}, {tv[1].tv_sec, tv[1].tv_usec * 1000}};
    return futimens(fd, ts);
}
int lutimes(const char *p, const struct timeval tv[2]) {
    if (!tv) return utimensat(AT_FDCWD, p, NULL, AT_SYMLINK_NOFOLLOW);
    struct timespec ts[2] = {{tv[0].tv_sec, tv[0].tv_usec * 1000}, {tv[1].tv_sec, tv[1].tv_usec * 1000}};
    return utimensat(AT_FDCWD, p, ts, AT_SYMLINK_NOFOLLOW);
}
char *tzname[2] = {"UTC", "UTC"};
int daylight;
long timezone;
void tzset(void) {}
int personality(unsigned long p) {
    (void)p;
    return PER_LINUX;
}
long syscall(long n, ...) {
    (void)n;
    errno = ENOSYS;
    return -1;
}
int sysinfo(struct sysinfo *si) {
    memset(si, 0, sizeof *si);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    si->uptime = (unsigned long)ts.tv_sec;
    si->totalram = 1ul << 30;
    si->freeram = si->totalram - (unsigned long)__builtin_wasm_memory_size(0) * 65536ul;
    si->procs = 1;
    si->mem_unit = 1;
    return 0;
}
int getloadavg(double *l, int n) {
    for (int i = 0; i < n && i < 3; i++) l[i] = 0;
    return n < 3 ? n : 3;
}
ssize_t getrandom(void *buf, size_t len, unsigned flags) {
    (void)flags;
    size_t done = 0;
    while (done < len) {
        size_t n = len - done > 256 ? 256 : len - done;
        if (getentropy((char *)buf + done, n)) return done ? (ssize_t)done : -1;
        done += n;
    }
    return (ssize_t)len;
}

void openlog(const char *i, int o, int f) { (void)i, (void)o, (void)f; }
void closelog(void) {}
int setlogmask(int m) { return m; }
void syslog(int p, const char *fmt, ...) { (void)p, (void)fmt; }
void vsyslog(int p, const char *fmt, va_list ap) { (void)p, (void)fmt, (void)ap; }

/* ---- network: names and sockets are not available --------------------------------- */

int h_errno;
const char *hstrerror(int e) {
    switch (e) {
    case HOST_NOT_FOUND: return "Unknown host";
    case TRY_AGAIN: return "Host name lookup failure";
    case NO_RECOVERY: return "Unknown server error";
    case NO_DATA: return "No address associated with name";
    }
    return "Resolver internal error";
}
struct hostent *gethostbyname(const char *n) {
    (void)n;
    h_errno = HOST_NOT_FOUND;
    return NULL;
}
struct hostent *gethostbyaddr(const void *a, socklen_t l, int t) {
    (void)a, (void)l, (void)t;
    h_errno = HOST_NOT_FOUND;
    return NULL;
}
int getaddrinfo(const char *__restrict h, const char *__restrict s, const struct addrinfo *__restrict hint,
                struct addrinfo **__restrict res) {
    (void)h, (void)s, (void)hint;
    *res = NULL;
    return EAI_NONAME;
}
void freeaddrinfo(struct addrinfo *a) {
    while (a) {
        struct addrinfo *n = a->ai_next;
        free(a);
        a = n;
    }
}
int getnameinfo(const struct sockaddr *__restrict sa, socklen_t l, char *__restrict h, socklen_t hl,
                char *__restrict s, socklen_t sl, int f) {
    (void)sa, (void)l, (void)h, (void)hl, (void)s, (void)sl, (void)f;
    return EAI_FAIL;
}
const char *gai_strerror(int e) {
    switch (e) {
    case EAI_NONAME: return "Name does not resolve";
    case EAI_AGAIN: return "Temporary failure in name resolution";
    case EAI_FAIL: return "Non-recoverable failure in name resolution";
    case EAI_MEMORY: return "Out of memory";
    }
    return "Unknown error";
}
struct servent *getservbyname(const char *n, const char *p) {
    (void)n, (void)p;
    return NULL;
}
struct servent *getservbyport(int port, const char *p) {
    (void)port, (void)p;
    return NULL;
}
struct protoent *getprotobyname(const char *n) {
    (void)n;
    return NULL;
}
struct protoent *getprotobynumber(int n) {
    (void)n;
    return NULL;
}
unsigned if_nametoindex(const char *n) {
    (void)n;
    return 0;
}
char *if_indextoname(unsigned i, char *n) {
    (void)i, (void)n;
    errno = ENXIO;
    return NULL;
}
struct if_nameindex *if_nameindex(void) {
    return calloc(1, sizeof(struct if_nameindex));
}
void if_freenameindex(struct if_nameindex *p) { free(p); }

#define NOSYS_X(ret, name, ...) \
    ret name(__VA_ARGS__) {     \
        errno = ENOSYS;         \
        return -1;              \
    }
NOSYS_X(int, socket, int d, int t, int p)
NOSYS_X(int, socketpair, int d, int t, int p, int sv[2])
NOSYS_X(int, bind, int fd, const struct sockaddr *a, socklen_t l)
NOSYS_X(int, connect, int fd, const struct sockaddr *a, socklen_t l)
NOSYS_X(int, listen, int fd, int b)
NOSYS_X(int, getsockname, int fd, struct sockaddr *__restrict a, socklen_t *__restrict l)
NOSYS_X(int, getpeername, int fd, struct sockaddr *__restrict a, socklen_t *__restrict l)
NOSYS_X(ssize_t, sendto, int fd, const void *b, size_t n, int f, const struct sockaddr *a, socklen_t l)
NOSYS_X(ssize_t, recvfrom, int fd, void *__restrict b, size_t n, int f, struct sockaddr *__restrict a,
        socklen_t *__restrict l)
NOSYS_X(ssize_t, sendmsg, int fd, const struct msghdr *m, int f)
NOSYS_X(ssize_t, recvmsg, int fd, struct msghdr *m, int f)
NOSYS_X(int, setsockopt, int fd, int lv, int o, const void *v, socklen_t l)

/* ---- pthreads: one thread ----------------------------------------------------------- */

#include <pthread.h>

int pthread_once(pthread_once_t *o, void (*f)(void)) {
    if (!*o) {
        *o = 1;
        f();
    }
    return 0;
}
static const void *keys[PTHREAD_KEYS_MAX];
static unsigned char key_used[PTHREAD_KEYS_MAX];
int pthread_key_create(pthread_key_t *k, void (*d)(void *)) {
    (void)d;
    for (unsigned i = 0; i < PTHREAD_KEYS_MAX; i++)
        if (!key_used[i]) {
            key_used[i] = 1;
            keys[i] = NULL;
            *k = i;
            return 0;
        }
    return EAGAIN;
}
int pthread_key_delete(pthread_key_t k) {
    if (k >= PTHREAD_KEYS_MAX) return EINVAL;
    key_used[k] = 0;
    return 0;
}
void *pthread_getspecific(pthread_key_t k) { return k < PTHREAD_KEYS_MAX ? (void *)keys[k] : NULL; }
int pthread_setspecific(pthread_key_t k, const void *v) {
    if (k >= PTHREAD_KEYS_MAX) return EINVAL;
    keys[k] = v;
    return 0;
}
pthread_t pthread_self(void) { return (pthread_t)1; }
int pthread_equal(pthread_t a, pthread_t b) { return a == b; }
int pthread_create(pthread_t *__restrict t, const pthread_attr_t *__restrict a, void *(*f)(void *), void *__restrict arg) {
    (void)t, (void)a, (void)f, (void)arg;
    return EAGAIN;
}
int pthread_join(pthread_t t, void **r) {
    (void)t, (void)r;
    return ESRCH;
}
int pthread_detach(pthread_t t) {
    (void)t;
    return 0;
}
_Noreturn void pthread_exit(void *r) {
    (void)r;
    exit(0);
}
#define PT_OK(name, ...)         \
    int name(__VA_ARGS__) {      \
        return 0;                \
    }
PT_OK(pthread_attr_init, pthread_attr_t *a)
PT_OK(pthread_attr_destroy, pthread_attr_t *a)
PT_OK(pthread_attr_setdetachstate, pthread_attr_t *a, int d)
PT_OK(pthread_attr_setstacksize, pthread_attr_t *a, size_t s)
PT_OK(pthread_mutex_init, pthread_mutex_t *__restrict m, const pthread_mutexattr_t *__restrict a)
PT_OK(pthread_mutex_destroy, pthread_mutex_t *m)
PT_OK(pthread_mutex_lock, pthread_mutex_t *m)
PT_OK(pthread_mutex_trylock, pthread_mutex_t *m)
PT_OK(pthread_mutex_unlock, pthread_mutex_t *m)
PT_OK(pthread_mutexattr_init, pthread_mutexattr_t *a)
PT_OK(pthread_mutexattr_destroy, pthread_mutexattr_t *a)
PT_OK(pthread_mutexattr_settype, pthread_mutexattr_t *a, int t)
PT_OK(pthread_cond_init, pthread_cond_t *__restrict c, const pthread_condattr_t *__restrict a)
PT_OK(pthread_cond_destroy, pthread_cond_t *c)
PT_OK(pthread_cond_signal, pthread_cond_t *c)
PT_OK(pthread_cond_broadcast, pthread_cond_t *c)
PT_OK(pthread_rwlock_init, pthread_rwlock_t *__restrict l, const pthread_rwlockattr_t *__restrict a)
PT_OK(pthread_rwlock_destroy, pthread_rwlock_t *l)
PT_OK(pthread_rwlock_rdlock, pthread_rwlock_t *l)
PT_OK(pthread_rwlock_wrlock, pthread_rwlock_t *l)
PT_OK(pthread_rwlock_unlock, pthread_rwlock_t *l)
/* Waiting on a condition with one thread would wait forever. */
int pthread_cond_wait(pthread_cond_t *__restrict c, pthread_mutex_t *__restrict m) {
    (void)c, (void)m;
    return EDEADLK;
}
int pthread_cond_timedwait(pthread_cond_t *__restrict c, pthread_mutex_t *__restrict m, const struct timespec *__restrict t) {
    (void)c, (void)m, (void)t;
    return ETIMEDOUT;
}
/* stdio locks (declared by include/stdio.h): one thread, nothing to lock. */
void flockfile(FILE *f) { (void)f; }
int ftrylockfile(FILE *f) {
    (void)f;
    return 0;
}
void funlockfile(FILE *f) { (void)f; }

/* ---- <err.h>: wasi-libc declares the BSD err/warn family but does not define it ---- */

#include <err.h>

extern char *program_invocation_short_name; /* set from argv[0] by cwd.c */

static void vwarn_common(const char *fmt, va_list ap, int with_errno) {
    int e = errno;
    fprintf(stderr, "%s: ", program_invocation_short_name ? program_invocation_short_name : "");
    if (fmt) {
        vfprintf(stderr, fmt, ap);
        if (with_errno) fputs(": ", stderr);
    }
    if (with_errno) fputs(strerror(e), stderr);
    fputc('\n', stderr);
}
void vwarn(const char *fmt, va_list ap) { vwarn_common(fmt, ap, 1); }
void vwarnx(const char *fmt, va_list ap) { vwarn_common(fmt, ap, 0); }
_Noreturn void verr(int status, const char *fmt, va_list ap) {
    vwarn(fmt, ap);
    exit(status);
}
_Noreturn void verrx(int status, const char *fmt, va_list ap) {
    vwarnx(fmt, ap);
    exit(status);
}
void warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}
void warnx(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vwarnx(fmt, ap);
    va_end(ap);
}
_Noreturn void err(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verr(status, fmt, ap);
}
_Noreturn void errx(int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verrx(status, fmt, ap);
}
