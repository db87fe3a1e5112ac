/* wrap.c — wrappers the C assets link with -Wl,--wrap=SYMBOL (see assets/lib.sh):
 *
 *  stat, lstat, fstat, fstatat: WASI reports no permission bits, owners or device
 *    numbers; take st_mode (Linux values, see include/sys/stat.h), st_uid, st_gid,
 *    st_nlink and st_rdev from the wasmsand stat_ext import.
 *  open, openat: programs written for Linux pass access mode 0 for O_RDONLY and
 *    Linux-only flags (O_NOATIME, O_PATH...); wasi-libc answers EINVAL. Default the
 *    access mode to O_RDONLY and drop flags WASI does not know. Also remember each
 *    fd's path, so fchdir() (posix.c) can chdir to it: WASI has no fchdir.
 *    WASI has no creation mode: a file the call creates gets chmod'ed to mode & ~umask.
 *  mkdir, mkdirat: the same for directories.
 *  close: forgets the fd's path.
 *  write, writev: a write to a pipe whose reader is gone raises SIGPIPE first, as
 *    the kernel does (with the default action the program ends with status 141,
 *    silently), so `producer | head -1` behaves as on Linux.
 *  fcntl: F_DUPFD through the dup import; record locks (F_SETLK, F_SETLKW, F_GETLK)
 *    always succeed (one writer at a time is the caller's business: sqlite3).
 *  access, faccessat: R_OK/W_OK/X_OK from the mode bits the sandbox keeps (as uid
 *    1000 sees them), not just "the file exists" (wasi-libc).
 *  uname: "Linux" (wasi-libc says "wasi"), the host name from /etc/hostname; the
 *    release says wasmsand.
 *  futimens, utimensat: wasi-libc (Debian's 2022-05 snapshot) sets both times to 0 for
 *    times == NULL and rejects UTIME_NOW / UTIME_OMIT with EINVAL (GNU touch, cp -p, tar):
 *    turn those into explicit times (the clock's now, the file's current time).
 *  linkat: wasi-libc fails with ENOENT when both directories are AT_FDCWD (GNU ln);
 *    that case goes through link().
 *  setlocale: wasi-libc (musl) gives only LC_CTYPE a C.UTF-8 locale and names the other
 *    categories "C"; glibc names every category asked for C.UTF-8 "C.UTF-8", and GNU
 *    programs look at the names (gnulib hard_locale: cmp says "byte" rather than "char").
 *    Report each category by the name it was set to when that is C.UTF-8 (musl's C and
 *    C.UTF-8 behave alike outside LC_CTYPE).
 *  signal, raise: wasi-libc's emulation prints "Program received fatal signal" (or
 *    traps) on a default action; keep the handlers here and end silently instead.
 *  fopen, fdopen, fclose: musl buffers a FILE in BUFSIZ (1024) bytes, glibc in the
 *    file's st_blksize (4096 for files and pipes): give each stream that is not a
 *    terminal a 4096-byte buffer, as glibc does (fewer host calls, and the same
 *    points where output to a shared file or pipe interleaves); stdin and stdout
 *    get theirs in cwd.c. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "wasmsand.h"

int __real_stat(const char *__restrict, struct stat *__restrict);
int __real_lstat(const char *__restrict, struct stat *__restrict);
int __real_fstat(int, struct stat *);
int __real_fstatat(int, const char *__restrict, struct stat *__restrict, int);
int __real_open(const char *, int, ...);
int __real_openat(int, const char *, int, ...);
int __real_close(int);
int __real_mkdir(const char *, mode_t);
int __real_mkdirat(int, const char *, mode_t);
mode_t __wasmsand_umask(void);

/* fd → absolute path it was opened with (for fchdir). */
#define MAX_FD_PATHS 1024
static char *fd_paths[MAX_FD_PATHS];

const char *__wasmsand_fd_path(int fd) { return fd >= 0 && fd < MAX_FD_PATHS ? fd_paths[fd] : NULL; }

void __wasmsand_set_fd_path(int fd, const char *path) {
    if (fd < 0 || fd >= MAX_FD_PATHS) return;
    free(fd_paths[fd]);
    fd_paths[fd] = path ? strdup(path) : NULL;
}

static void remember(int fd, int dirfd, const char *path) {
    if (fd < 0 || fd >= MAX_FD_PATHS) return;
    char buf[4096];
    const char *base = NULL;
    if (path[0] != '/') {
        base = dirfd == AT_FDCWD ? getcwd(buf, sizeof buf) : __wasmsand_fd_path(dirfd);
        if (!base) {
            __wasmsand_set_fd_path(fd, NULL);
            return;
        }
    }
    size_t bl = base ? strlen(base) : 0, pl = strlen(path);
    char *p = malloc(bl + pl + 2);
    if (!p) return;
    if (base) {
        memcpy(p, base, bl);
        if (bl == 0 || p[bl - 1] != '/') p[bl++] = '/';
    }
    memcpy(p + bl, path, pl + 1);
    free(fd_paths[fd]);
    fd_paths[fd] = p;
}

int __wrap_close(int fd) {
    if (fd >= 0 && fd < MAX_FD_PATHS && fd_paths[fd]) {
        free(fd_paths[fd]);
        fd_paths[fd] = NULL;
    }
    return __real_close(fd);
}

static void apply(struct stat *st, const struct wasmsand_stat_ext *x) {
    st->st_mode = x->mode;
    st->st_uid = x->uid;
    st->st_gid = x->gid;
    st->st_nlink = x->nlink;
    st->st_rdev = x->rdev;
    /* WASI has no block counts: report the 4 KiB blocks the size needs (du, ls -s). */
    st->st_blksize = 4096;
    st->st_blocks = S_ISREG(st->st_mode) || S_ISDIR(st->st_mode) ? ((st->st_size + 4095) / 4096) * 8 : 0;
}

/* When the host cannot tell (not our host), keep WASI's answer with usual modes. */
static void fallback(struct stat *st) {
    if (st->st_mode & 07777) return;
    st->st_mode |= S_ISDIR(st->st_mode) ? 0755 : S_ISLNK(st->st_mode) ? 0777 : 0644;
}

static int fix_path(int dirfd, const char *path, int follow, struct stat *st) {
    struct wasmsand_stat_ext x;
    int e = errno, r;
    if (dirfd == AT_FDCWD || path[0] == '/')
        r = follow ? wasmsand_stat_ext(path, &x) : wasmsand_lstat_ext(path, &x);
    else
        r = wasmsand__ret(__wasmsand_stat_ext(dirfd, follow ? WASMSAND_FOLLOW : 0, path, (uint32_t)strlen(path), &x));
    if (r == 0)
        apply(st, &x);
    else
        fallback(st);
    errno = e;
    return 0;
}

int __wrap_stat(const char *__restrict path, struct stat *__restrict st) {
    if (__real_stat(path, st)) return -1;
    return fix_path(AT_FDCWD, path, 1, st);
}

int __wrap_lstat(const char *__restrict path, struct stat *__restrict st) {
    if (__real_lstat(path, st)) return -1;
    return fix_path(AT_FDCWD, path, 0, st);
}

int __wrap_fstatat(int dirfd, const char *__restrict path, struct stat *__restrict st, int flags) {
    if (__real_fstatat(dirfd, path, st, flags)) return -1;
    if (!*path) {
        struct wasmsand_stat_ext x;
        int e = errno;
        if (wasmsand_fstat_ext(dirfd, &x) == 0)
            apply(st, &x);
        else
            fallback(st);
        errno = e;
        return 0;
    }
    return fix_path(dirfd, path, !(flags & AT_SYMLINK_NOFOLLOW), st);
}

int __wrap_fstat(int fd, struct stat *st) {
    if (__real_fstat(fd, st)) return -1;
    struct wasmsand_stat_ext x;
    int e = errno;
    if (wasmsand_fstat_ext(fd, &x) == 0)
        apply(st, &x);
    else
        fallback(st);
    errno = e;
    return 0;
}

#define KNOWN_FLAGS                                                                                          \
    (O_APPEND | O_DSYNC | O_NONBLOCK | O_RSYNC | O_SYNC | O_CREAT | O_DIRECTORY | O_EXCL | O_TRUNC | \
     O_NOFOLLOW | O_EXEC | O_RDONLY | O_SEARCH | O_WRONLY)

static int fix_flags(int flags) {
    flags &= KNOWN_FLAGS;
    if (!(flags & (O_RDONLY | O_WRONLY | O_EXEC | O_SEARCH))) flags |= O_RDONLY;
    return flags;
}

static int do_openat(int dirfd, const char *path, int flags, mode_t mode) {
    int created = 0;
    if (flags & O_CREAT) {
        struct stat st;
        int e = errno;
        created = (flags & O_EXCL) || __real_fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) != 0;
        errno = e;
    }
    int fd = dirfd == AT_FDCWD ? __real_open(path, fix_flags(flags), mode)
                               : __real_openat(dirfd, path, fix_flags(flags), mode);
    if (fd < 0) return fd;
    remember(fd, dirfd, path);
    mode &= 07777 & ~__wasmsand_umask();
    if (created && mode != 0644) {
        int e = errno;
        __wasmsand_chmod(fd, 0, "", 0, mode);
        errno = e;
    }
    return fd;
}

int __wrap_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return do_openat(AT_FDCWD, path, flags, mode);
}

int __wrap_openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return do_openat(dirfd, path, flags, mode);
}

static int fix_dir_mode(int dirfd, const char *path, mode_t mode) {
    mode &= 07777 & ~__wasmsand_umask();
    if (mode != 0755) {
        int e = errno;
        if (dirfd == AT_FDCWD || path[0] == '/')
            wasmsand_chmod(path, mode);
        else
            __wasmsand_chmod(dirfd, WASMSAND_FOLLOW, path, (uint32_t)strlen(path), mode);
        errno = e;
    }
    return 0;
}

int __wrap_mkdir(const char *path, mode_t mode) {
    if (__real_mkdir(path, mode)) return -1;
    return fix_dir_mode(AT_FDCWD, path, mode);
}

int __wrap_mkdirat(int dirfd, const char *path, mode_t mode) {
    if (__real_mkdirat(dirfd, path, mode)) return -1;
    return fix_dir_mode(dirfd, path, mode);
}

ssize_t __real_write(int, const void *, size_t);
ssize_t __real_writev(int, const struct iovec *, int);

static void (*handlers[_NSIG])(int);

void (*__wrap_signal(int sig, void (*h)(int)))(int) {
    if (sig <= 0 || sig >= _NSIG || sig == SIGKILL || sig == SIGSTOP) {
        errno = EINVAL;
        return SIG_ERR;
    }
    void (*old)(int) = handlers[sig];
    handlers[sig] = h;
    return old;
}

int __wrap_raise(int sig) {
    if (sig <= 0 || sig >= _NSIG) {
        errno = EINVAL;
        return -1;
    }
    void (*h)(int) = handlers[sig];
    if (h == SIG_IGN) return 0;
    if (h != SIG_DFL) {
        h(sig);
        return 0;
    }
    switch (sig) {
    case SIGCHLD:
    case SIGCONT:
    case SIGURG:
    case SIGWINCH:
        return 0;
    }
    _Exit(128 + sig);
}


ssize_t __wrap_write(int fd, const void *buf, size_t n) {
    ssize_t r = __real_write(fd, buf, n);
    if (r < 0 && errno == EPIPE) {
        __wrap_raise(SIGPIPE);
        errno = EPIPE;
    }
    return r;
}

ssize_t __wrap_writev(int fd, const struct iovec *iov, int cnt) {
    ssize_t r = __real_writev(fd, iov, cnt);
    if (r < 0 && errno == EPIPE) {
        __wrap_raise(SIGPIPE);
        errno = EPIPE;
    }
    return r;
}

int __real_fcntl(int, int, ...);
int dup(int);

int __wrap_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    switch (cmd) {
    case F_SETLK:
    case F_SETLKW:
        if (__real_fcntl(fd, F_GETFD) < 0) return -1;
        return 0;
    case F_GETLK:
        if (__real_fcntl(fd, F_GETFD) < 0) return -1;
        ((struct flock *)arg)->l_type = F_UNLCK;
        return 0;
    case F_DUPFD:
    case F_DUPFD_CLOEXEC: {
        /* lowest free fd >= arg: dup, then move up if needed */
        int n = dup(fd);
        if (n < 0 || n >= arg) return n;
        int want = (int)arg;
        while (__real_fcntl(want, F_GETFD) >= 0) want++;
        int r = dup2(n, want);
        close(n);
        return r;
    }
    }
    return __real_fcntl(fd, cmd, arg);
}

int __real_access(const char *, int);
int __real_faccessat(int, const char *, int, int);
int __real_uname(struct utsname *);

/* The permission class uid 1000 (gid 1000) falls in: owner, group, other. */
static int mode_allows(const struct wasmsand_stat_ext *x, int amode) {
    unsigned shift = x->uid == (uint32_t)getuid() ? 6 : x->gid == (uint32_t)getgid() ? 3 : 0;
    unsigned bits = (x->mode >> shift) & 7;
    if ((amode & R_OK) && !(bits & 4)) return 0;
    if ((amode & W_OK) && !(bits & 2)) return 0;
    if ((amode & X_OK) && !(bits & 1)) return 0;
    return 1;
}

static int check_access(int dirfd, const char *path, int amode, int follow) {
    if (!(amode & (R_OK | W_OK | X_OK))) return 0;
    struct wasmsand_stat_ext x;
    int r;
    if (dirfd == AT_FDCWD || path[0] == '/')
        r = follow ? wasmsand_stat_ext(path, &x) : wasmsand_lstat_ext(path, &x);
    else
        r = wasmsand__ret(__wasmsand_stat_ext(dirfd, follow ? WASMSAND_FOLLOW : 0, path, (uint32_t)strlen(path), &x));
    if (r) return 0; /* not our host: keep wasi-libc's answer */
    if (mode_allows(&x, amode)) return 0;
    errno = EACCES;
    return -1;
}

int __wrap_access(const char *path, int amode) {
    if (__real_access(path, amode)) return -1;
    return check_access(AT_FDCWD, path, amode, 1);
}

int __wrap_faccessat(int dirfd, const char *path, int amode, int flags) {
    if (__real_faccessat(dirfd, path, amode, flags)) return -1;
    return check_access(dirfd, path, amode, !(flags & AT_SYMLINK_NOFOLLOW));
}

int __wrap_uname(struct utsname *u) {
    if (__real_uname(u)) return -1;
    strcpy(u->sysname, "Linux");
    if (gethostname(u->nodename, sizeof u->nodename)) strcpy(u->nodename, "wasmsand");
    strcpy(u->release, "6.1.0-wasmsand");
    strcpy(u->version, "#1 wasmsand WebAssembly sandbox");
    strcpy(u->machine, "wasm32");
    return 0;
}

/* ---- setlocale ---- */

char *__real_setlocale(int, const char *);

#define NCAT 6 /* musl: LC_CTYPE 0 ... LC_MESSAGES 5, LC_ALL 6 */
static const char *const cat_env[NCAT] = {"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES"};
static unsigned char cat_c_utf8[NCAT]; /* category set to C.UTF-8 (musl calls it "C") */
static char all_name[8 * NCAT + 8];

static int is_c_utf8(const char *n) {
    return n && (!strcmp(n, "C.UTF-8") || !strcmp(n, "C.utf8") || !strcmp(n, "C.utf-8"));
}

static const char *env_locale(int cat) {
    const char *v = getenv("LC_ALL");
    if (!v || !*v) v = getenv(cat_env[cat]);
    if (!v || !*v) v = getenv("LANG");
    return v;
}

static const char *cat_name(int cat) {
    const char *r = __real_setlocale(cat, NULL);
    return r && cat_c_utf8[cat] && !strcmp(r, "C") ? "C.UTF-8" : r;
}

char *__wrap_setlocale(int cat, const char *name) {
    char *r = __real_setlocale(cat, name);
    if (!r || cat < 0 || cat > LC_ALL) return r;
    if (name)
        for (int c = 0; c < NCAT; c++)
            if (cat == LC_ALL || cat == c) cat_c_utf8[c] = is_c_utf8(*name ? name : env_locale(c));
    if (cat != LC_ALL) return (char *)cat_name(cat);
    /* LC_ALL: one name when every category has it, else musl's "a;b;c..." form */
    const char *first = cat_name(0);
    int same = 1;
    for (int c = 1; c < NCAT; c++) same &= !strcmp(cat_name(c), first);
    if (same) return (char *)first;
    all_name[0] = 0;
    for (int c = 0; c < NCAT; c++) {
        if (c) strncat(all_name, ";", sizeof all_name - strlen(all_name) - 1);
        strncat(all_name, cat_name(c), sizeof all_name - strlen(all_name) - 1);
    }
    return all_name;
}

/* ---- futimens, utimensat, linkat ---- */

int __real_futimens(int, const struct timespec[2]);
int __real_utimensat(int, const char *, const struct timespec[2], int);
int __real_linkat(int, const char *, int, const char *, int);

/* Resolves NULL / UTIME_NOW / UTIME_OMIT into explicit times; *cur is called (once) for
 * the file's current times when a time is omitted. 1 = nothing to change, -1 = error. */
static int explicit_times(const struct timespec *in, struct timespec out[2], int (*cur)(void *, struct stat *), void *arg) {
    struct timespec now;
    int need_now = !in || in[0].tv_nsec == UTIME_NOW || in[1].tv_nsec == UTIME_NOW;
    int omit = in && (in[0].tv_nsec == UTIME_OMIT || in[1].tv_nsec == UTIME_OMIT);
    if (in && in[0].tv_nsec == UTIME_OMIT && in[1].tv_nsec == UTIME_OMIT) return 1;
    if (need_now) clock_gettime(CLOCK_REALTIME, &now);
    struct stat st;
    if (omit && cur(arg, &st)) return -1;
    for (int i = 0; i < 2; i++) {
        if (!in || in[i].tv_nsec == UTIME_NOW)
            out[i] = now;
        else if (in[i].tv_nsec == UTIME_OMIT)
            out[i] = i ? st.st_mtim : st.st_atim;
        else
            out[i] = in[i];
    }
    return 0;
}

static int cur_fd(void *arg, struct stat *st) { return fstat(*(int *)arg, st); }

int __wrap_futimens(int fd, const struct timespec times[2]) {
    struct timespec t[2];
    int r = explicit_times(times, t, cur_fd, &fd);
    return r ? (r > 0 ? 0 : -1) : __real_futimens(fd, t);
}

struct at_file {
    int dirfd, flags;
    const char *path;
};
static int cur_at(void *arg, struct stat *st) {
    struct at_file *a = arg;
    return fstatat(a->dirfd, a->path, st, a->flags & AT_SYMLINK_NOFOLLOW);
}

int __wrap_utimensat(int dirfd, const char *path, const struct timespec times[2], int flags) {
    struct timespec t[2];
    struct at_file a = {dirfd, flags, path};
    int r = explicit_times(times, t, cur_at, &a);
    return r ? (r > 0 ? 0 : -1) : __real_utimensat(dirfd, path, t, flags);
}

int __wrap_linkat(int olddirfd, const char *old, int newdirfd, const char *new, int flags) {
    if (olddirfd != AT_FDCWD || newdirfd != AT_FDCWD) return __real_linkat(olddirfd, old, newdirfd, new, flags);
    if (!(flags & AT_SYMLINK_FOLLOW)) return link(old, new);
    char *target = realpath(old, NULL);
    if (!target) return -1;
    int r = link(target, new);
    free(target);
    return r;
}

/* stdio buffers the size glibc uses (see the top of this file). */
FILE *__real_fopen(const char *__restrict, const char *__restrict);
FILE *__real_fdopen(int, const char *);
int __real_fclose(FILE *);

#define STDIO_BUF (4096 + 8) /* musl keeps 8 bytes of a buffer for ungetc */
#define MAX_BUFFERED 64
static struct {
    FILE *f;
    char *buf;
} buffered[MAX_BUFFERED];

static void give_buffer(FILE *f) {
    if (!f || isatty(fileno(f))) return;
    for (int i = 0; i < MAX_BUFFERED; i++) {
        if (buffered[i].f) continue;
        char *b = malloc(STDIO_BUF);
        if (!b) return;
        if (setvbuf(f, b, _IOFBF, STDIO_BUF) != 0) {
            free(b);
            return;
        }
        buffered[i].f = f;
        buffered[i].buf = b;
        return;
    }
}

FILE *__wrap_fopen(const char *__restrict path, const char *__restrict mode) {
    FILE *f = __real_fopen(path, mode);
    give_buffer(f);
    return f;
}

FILE *__wrap_fdopen(int fd, const char *mode) {
    FILE *f = __real_fdopen(fd, mode);
    give_buffer(f);
    return f;
}

int __wrap_fclose(FILE *f) {
    int r = __real_fclose(f);
    for (int i = 0; i < MAX_BUFFERED; i++) {
        if (buffered[i].f == f) {
            free(buffered[i].buf);
            buffered[i].f = NULL;
            buffered[i].buf = NULL;
        }
    }
    return r;
}

/* The working directory. wasi-libc keeps it as the text chdir was given,
   joined to the old one: after chdir("..") getcwd said "/a/b/..", and a
   directory removed under it still had a name. getcwd gives the canonical
   name on Linux (no "." or "..", no symlinks), and fails with ENOENT when the
   directory is gone. */
int __real_chdir(const char *);
char *__real_getcwd(char *, size_t);

int __wrap_chdir(const char *path) {
    char *abs = realpath(path, NULL);
    if (!abs) return -1;
    int r = __real_chdir(abs); /* (ENOTDIR for a file) */
    free(abs);
    return r;
}

char *__wrap_getcwd(char *buf, size_t size) {
    char *cwd = __real_getcwd(buf, size);
    struct stat st;
    if (cwd && __real_stat(cwd, &st) != 0) {
        if (!buf) free(cwd);
        errno = ENOENT;
        return NULL;
    }
    return cwd;
}

/* An empty path names no file (ENOENT on Linux, for every call that takes
   one). wasi-libc joined "" to the working directory and acted on the
   directory itself: `rm ''` said "Is a directory", rmdir("") EACCES, and
   open("") opened the directory. Every relative path of its path calls goes
   through these two lookups; failing here would read as ENOTCAPABLE ("no
   preopen"), so "" goes on as an empty name, which the host refuses with
   ENOENT (wasi/path.go). */
int __real___wasilibc_find_relpath(const char *, const char **, char **, size_t);
int __real___wasilibc_find_relpath_alloc(const char *, const char **, char **, size_t *, int);

int __wrap___wasilibc_find_relpath(const char *path, const char **abs, char **rel, size_t len) {
    int fd = __real___wasilibc_find_relpath(*path ? path : ".", abs, rel, len);
    if (fd >= 0 && !*path) **rel = '\0';
    return fd;
}

int __wrap___wasilibc_find_relpath_alloc(const char *path, const char **abs, char **rel, size_t *len, int can_realloc) {
    int fd = __real___wasilibc_find_relpath_alloc(*path ? path : ".", abs, rel, len, can_realloc);
    if (fd >= 0 && !*path) **rel = '\0';
    return fd;
}
