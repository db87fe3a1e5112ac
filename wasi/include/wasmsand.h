/* wasmsand.h — the "wasmsand" import module for C guests (wasm32-wasi, wasi-libc).
 *
 * Raw imports return 0 or a WASI errno, which is also wasi-libc's errno value. The
 * wasmsand_* helpers below follow the POSIX convention (-1 and errno) and resolve
 * relative paths against getcwd(), which under wasi-libc lives in the guest.
 *
 * Paths given to the raw imports are resolved against the directory fd, like the *at
 * calls; an absolute path is absolute in the sandbox. flags bit 0 = follow the last
 * symlink (WASI's LOOKUPFLAGS_SYMLINK_FOLLOW). An empty path (path_len 0) means the fd.
 */
#ifndef WASMSAND_H
#define WASMSAND_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WASMSAND_IMPORT(n) __attribute__((import_module("wasmsand"), import_name(n)))

/* argv and env: NUL-terminated strings laid end to end (the last NUL is optional).
 * env == NULL && env_len == 0 inherits the caller's environment. cwd_len == 0 uses the
 * process's initial directory. A stdio fd of -1 gives the child no stream (empty input,
 * discarded output). The child shares the given open files (fork+exec semantics). */
WASMSAND_IMPORT("spawn")
uint32_t __wasmsand_spawn(const char *argv, uint32_t argv_len, const char *env, uint32_t env_len,
                          const char *cwd, uint32_t cwd_len, int32_t stdin_fd, int32_t stdout_fd,
                          int32_t stderr_fd, int32_t *pid);
/* Blocks until child pid exits; status is its exit status (0-255, 128+sig if killed).
 * ECHILD if pid is not an unwaited child of the caller. */
WASMSAND_IMPORT("wait") uint32_t __wasmsand_wait(int32_t pid, int32_t *status);
/* wait without blocking: EAGAIN while the child runs (then it is still a child). */
WASMSAND_IMPORT("trywait") uint32_t __wasmsand_trywait(int32_t pid, int32_t *status);
/* ESRCH if pid is not an unwaited child; sig 0 only checks. */
WASMSAND_IMPORT("kill") uint32_t __wasmsand_kill(int32_t pid, int32_t sig);
/* fds[0] reads, fds[1] writes; 64 KiB buffer; writing after the reader closed: EPIPE. */
WASMSAND_IMPORT("pipe") uint32_t __wasmsand_pipe(int32_t fds[2]);
WASMSAND_IMPORT("dup") uint32_t __wasmsand_dup(int32_t fd, int32_t *newfd);
WASMSAND_IMPORT("dup2") uint32_t __wasmsand_dup2(int32_t fd, int32_t to);
WASMSAND_IMPORT("getpid") uint32_t __wasmsand_getpid(int32_t *pid, int32_t *ppid);

struct wasmsand_stat_ext {
    uint32_t mode;  /* Linux st_mode: S_IFMT type bits (Linux values) | 07777 */
    uint32_t uid;
    uint32_t gid;
    uint32_t _pad;
    uint64_t nlink;
    uint64_t rdev;
};
WASMSAND_IMPORT("stat_ext")
uint32_t __wasmsand_stat_ext(int32_t fd, uint32_t flags, const char *path, uint32_t path_len,
                             struct wasmsand_stat_ext *out);
/* mode: 07777 bits; chmod on a symlink itself (flags without follow): ENOTSUP */
WASMSAND_IMPORT("chmod")
uint32_t __wasmsand_chmod(int32_t fd, uint32_t flags, const char *path, uint32_t path_len, uint32_t mode);
/* uid/gid -1: leave unchanged */
WASMSAND_IMPORT("chown")
uint32_t __wasmsand_chown(int32_t fd, uint32_t flags, const char *path, uint32_t path_len, int32_t uid,
                          int32_t gid);

/* a named pipe (mode: S_IFIFO | 07777, narrowed by the umask); other types: EPERM */
WASMSAND_IMPORT("mknod")
uint32_t __wasmsand_mknod(int32_t fd, const char *path, uint32_t path_len, uint32_t mode, uint64_t dev);

#define WASMSAND_ROOT_FD 3
#define WASMSAND_FOLLOW 1

static inline int wasmsand__ret(uint32_t e) {
    if (e) {
        errno = (int)e;
        return -1;
    }
    return 0;
}

/* Packs a NULL-terminated string vector; *len gets the byte size. */
static inline char *wasmsand__pack(char *const v[], uint32_t *len) {
    size_t n = 0;
    for (int i = 0; v[i]; i++) n += strlen(v[i]) + 1;
    char *buf = malloc(n ? n : 1), *p = buf;
    if (!buf) return NULL;
    for (int i = 0; v[i]; i++) {
        size_t l = strlen(v[i]) + 1;
        memcpy(p, v[i], l);
        p += l;
    }
    *len = (uint32_t)n;
    return buf;
}

/* Makes path absolute against getcwd() (wasi-libc keeps the cwd in the guest). */
static inline char *wasmsand__abs(const char *path) {
    if (path[0] == '/') return strdup(path);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return NULL;
    size_t a = strlen(cwd), b = strlen(path);
    char *out = malloc(a + b + 2);
    if (!out) return NULL;
    memcpy(out, cwd, a);
    out[a] = '/';
    memcpy(out + a + 1, path, b + 1);
    return out;
}

/* Returns the child's pid, or -1 and errno. envp NULL inherits the environment. */
static inline int wasmsand_spawn(char *const argv[], char *const envp[], int in, int out, int err) {
    uint32_t alen = 0, elen = 0;
    char *a = wasmsand__pack(argv, &alen), *e = NULL;
    if (!a) return -1;
    if (envp && !(e = wasmsand__pack(envp, &elen))) {
        free(a);
        return -1;
    }
    char cwd[4096];
    const char *c = getcwd(cwd, sizeof cwd);
    int32_t pid = -1;
    uint32_t r = __wasmsand_spawn(a, alen, e, elen, c, c ? (uint32_t)strlen(c) : 0, in, out, err, &pid);
    free(a);
    free(e);
    return wasmsand__ret(r) ? -1 : pid;
}

static inline int wasmsand_wait(int pid, int *status) {
    int32_t s = 0;
    if (wasmsand__ret(__wasmsand_wait(pid, &s))) return -1;
    if (status) *status = s;
    return pid;
}

/* 0 while pid runs, pid once it has exited (and been reaped), -1 on error. */
static inline int wasmsand_trywait(int pid, int *status) {
    int32_t s = 0;
    uint32_t r = __wasmsand_trywait(pid, &s);
    if (r == EAGAIN) return 0; /* wasi-libc errno values are WASI's */
    if (wasmsand__ret(r)) return -1;
    if (status) *status = s;
    return pid;
}

static inline int wasmsand_kill(int pid, int sig) { return wasmsand__ret(__wasmsand_kill(pid, sig)); }

static inline int wasmsand_pipe(int fds[2]) {
    int32_t f[2];
    if (wasmsand__ret(__wasmsand_pipe(f))) return -1;
    fds[0] = f[0];
    fds[1] = f[1];
    return 0;
}

static inline int wasmsand_dup(int fd) {
    int32_t n;
    return wasmsand__ret(__wasmsand_dup(fd, &n)) ? -1 : n;
}

static inline int wasmsand_dup2(int fd, int to) { return wasmsand__ret(__wasmsand_dup2(fd, to)) ? -1 : to; }

static inline int wasmsand__path_op(const char *path, int follow, int op, uint32_t mode, int uid, int gid,
                                    struct wasmsand_stat_ext *st) {
    char *abs = wasmsand__abs(path);
    if (!abs) return -1;
    uint32_t l = (uint32_t)strlen(abs), f = follow ? WASMSAND_FOLLOW : 0, r;
    if (op == 0)
        r = __wasmsand_stat_ext(WASMSAND_ROOT_FD, f, abs, l, st);
    else if (op == 1)
        r = __wasmsand_chmod(WASMSAND_ROOT_FD, f, abs, l, mode);
    else
        r = __wasmsand_chown(WASMSAND_ROOT_FD, f, abs, l, uid, gid);
    free(abs);
    return wasmsand__ret(r);
}

static inline int wasmsand_stat_ext(const char *path, struct wasmsand_stat_ext *st) {
    return wasmsand__path_op(path, 1, 0, 0, 0, 0, st);
}
static inline int wasmsand_lstat_ext(const char *path, struct wasmsand_stat_ext *st) {
    return wasmsand__path_op(path, 0, 0, 0, 0, 0, st);
}
static inline int wasmsand_fstat_ext(int fd, struct wasmsand_stat_ext *st) {
    return wasmsand__ret(__wasmsand_stat_ext(fd, 0, "", 0, st));
}
static inline int wasmsand_mknod(const char *path, unsigned mode, uint64_t dev) {
    char *abs = wasmsand__abs(path);
    if (!abs) return -1;
    uint32_t r = __wasmsand_mknod(WASMSAND_ROOT_FD, abs, (uint32_t)strlen(abs), mode, dev);
    free(abs);
    return wasmsand__ret(r);
}
static inline int wasmsand_chmod(const char *path, unsigned mode) { return wasmsand__path_op(path, 1, 1, mode, 0, 0, 0); }
static inline int wasmsand_fchmod(int fd, unsigned mode) { return wasmsand__ret(__wasmsand_chmod(fd, 0, "", 0, mode)); }
static inline int wasmsand_chown(const char *path, int uid, int gid) { return wasmsand__path_op(path, 1, 2, 0, uid, gid, 0); }
static inline int wasmsand_lchown(const char *path, int uid, int gid) { return wasmsand__path_op(path, 0, 2, 0, uid, gid, 0); }
static inline int wasmsand_getpid(void) {
    int32_t p = 0, pp = 0;
    __wasmsand_getpid(&p, &pp);
    return p;
}

#endif
