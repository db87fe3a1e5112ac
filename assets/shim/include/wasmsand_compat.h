/* wasmsand_compat.h — POSIX functions that wasi-libc (Debian's 2022 snapshot) does not
 * declare, implemented by assets/shim/posix.c over WASI and the "wasmsand" import module.
 * Every compat header in this directory includes this file after the real header. */
#ifndef WASMSAND_COMPAT_H
#define WASMSAND_COMPAT_H
#include <sys/types.h>
#ifdef __cplusplus
extern "C" {
#endif
/* unistd.h */
int pipe(int[2]);
int pipe2(int[2], int);
int dup(int);
int dup2(int, int);
int dup3(int, int, int);
int chown(const char *, uid_t, gid_t);
int fchown(int, uid_t, gid_t);
int lchown(const char *, uid_t, gid_t);
int fchownat(int, const char *, uid_t, gid_t, int);
int fchdir(int);
unsigned alarm(unsigned);
int pause(void);
pid_t fork(void);
pid_t vfork(void);
int execve(const char *, char *const[], char *const[]);
int execv(const char *, char *const[]);
int execle(const char *, const char *, ...);
int execl(const char *, const char *, ...);
int execvp(const char *, char *const[]);
int execvpe(const char *, char *const[], char *const[]);
int execlp(const char *, const char *, ...);
int fexecve(int, char *const[], char *const[]);
pid_t getpid(void);
pid_t getppid(void);
pid_t getpgrp(void);
pid_t getpgid(pid_t);
int setpgid(pid_t, pid_t);
pid_t setsid(void);
pid_t getsid(pid_t);
char *ttyname(int);
int ttyname_r(int, char *, size_t);
pid_t tcgetpgrp(int);
int tcsetpgrp(int, pid_t);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
int getgroups(int, gid_t[]);
int setuid(uid_t);
int seteuid(uid_t);
int setgid(gid_t);
int setegid(gid_t);
int setreuid(uid_t, uid_t);
int setregid(gid_t, gid_t);
int setresuid(uid_t, uid_t, uid_t);
int setresgid(gid_t, gid_t, gid_t);
int setgroups(size_t, const gid_t *);
int nice(int);
void sync(void);
int syncfs(int);
int chroot(const char *);
int sethostname(const char *, size_t);
int getdtablesize(void);
int lockf(int, int, off_t);
char *getusershell(void);
int vhangup(void);
int acct(const char *);
long gethostid(void);
/* stdlib.h */
int mkstemp(char *);
int mkostemp(char *, int);
int mkstemps(char *, int);
int mkostemps(char *, int, int);
char *mkdtemp(char *);
char *mktemp(char *);
char *realpath(const char *__restrict, char *__restrict);
int posix_openpt(int);
int grantpt(int);
int unlockpt(int);
char *ptsname(int);
int getloadavg(double *, int);
/* stdio.h */
#ifndef WASMSAND_NO_STDIO
struct _IO_FILE;
struct _IO_FILE *popen(const char *, const char *);
int pclose(struct _IO_FILE *);
char *tmpnam(char *);
struct _IO_FILE *tmpfile(void);
#endif
/* sys/stat.h */
int chmod(const char *, mode_t);
int fchmod(int, mode_t);
int fchmodat(int, const char *, mode_t, int);
mode_t umask(mode_t);
int mkfifo(const char *, mode_t);
int mkfifoat(int, const char *, mode_t);
int mknod(const char *, mode_t, dev_t);
int mknodat(int, const char *, mode_t, dev_t);
/* time.h: the sandbox's time zone is UTC */
void tzset(void);
extern char *tzname[2];
extern int daylight;
extern long timezone;
/* sys/random.h */
ssize_t getrandom(void *, size_t, unsigned);
/* the wasmsand process table (for programs that spawn) */
int __wasmsand_track_child(int pid);
#ifdef __cplusplus
}
#endif
#endif
