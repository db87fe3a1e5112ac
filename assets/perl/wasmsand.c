/* wasmsand: how perl starts other programs without fork. system, exec's
 * fallbacks, backticks, open with pipes and IPC::Open3 all come here and go
 * through the sandbox's process spawn (wasmsand.spawn), as perl does on
 * Windows: do_aspawn/do_spawn are the hooks pp_system calls when there is no
 * fork, and Perl_wasi_popen is what my_popen and my_popen_list call
 * (patches/0002-wasi-processes.patch). The children get the sandbox's
 * process table entries and the pids waitpid, kill and $? work with. */
#include "EXTERN.h"
#define PERL_IN_WASMSAND_C
#include "perl.h"

#include <wasmsand.h>

int __wasmsand_track_child(int pid);

/* The shell's metacharacters, as do_exec3 decides when a command line
 * needs /bin/sh. */
static int needs_shell(const char *cmd) {
    const char *s = cmd;
    while (*s == ' ' || *s == '\t')
        s++;
    /* a leading NAME=value is an assignment for the shell */
    for (const char *t = s; isWORDCHAR(*t) || *t == '='; t++)
        if (*t == '=')
            return 1;
    for (; *s; s++)
        if (strchr("$&*(){}[]'\";\\|?<>~`\n", *s))
            return 1;
    return 0;
}

/* argv for a command line: sh -c CMD, or its words. Freed with Safefree
 * (the vector; the words point into *copy). */
static char **cmd_argv(const char *cmd, char **copy) {
    char **argv;
    if (needs_shell(cmd)) {
        Newx(argv, 4, char *);
        *copy = savepv(cmd);
        argv[0] = (char *)"sh";
        argv[1] = (char *)"-c";
        argv[2] = *copy;
        argv[3] = NULL;
        return argv;
    }
    size_t n = 0, len = strlen(cmd);
    Newx(argv, len / 2 + 2, char *);
    *copy = savepv(cmd);
    for (char *s = *copy; *s;) {
        while (isSPACE(*s))
            *s++ = '\0';
        if (!*s)
            break;
        argv[n++] = s;
        while (*s && !isSPACE(*s))
            s++;
    }
    argv[n] = NULL;
    return argv;
}

/* Spawns argv with stdin, stdout, stderr on in, out, err. */
static int spawn(pTHX_ char **argv, int in, int out, int err) {
    PERL_FLUSHALL_FOR_CHILD;
    if (!argv[0]) {
        errno = ENOENT;
        return -1;
    }
    int pid = wasmsand_spawn(argv, environ, in, out, err);
    if (pid < 0) {
        int e = errno;
        Perl_ck_warner(aTHX_ packWARN(WARN_EXEC), "Can't exec \"%s\": %s", argv[0], Strerror(e));
        errno = e;
        return -1;
    }
    return __wasmsand_track_child(pid);
}

/* system's status: the wait status, or -1 (and $! set) when the program
 * could not be started. */
static int spawn_wait(pTHX_ char **argv, int nowait) {
    int pid = spawn(aTHX_ argv, 0, 1, 2);
    if (pid < 0) {
        PL_statusvalue = -1; /* pp_system: return -1 as is */
        return -1;
    }
    if (nowait) {
        PL_statusvalue = -1; /* pp_system: the pid, not a wait status */
        return pid;
    }
    int status;
    if (wait4pid(pid, &status, 0) < 0)
        return -1;
    return status;
}

/* system LIST, and system 1, LIST (P_NOWAIT, as on Windows: the pid,
 * without waiting; IPC::Open3 starts its children so). */
int do_aspawn(SV *really, void **vmark, void **vsp) {
    dTHX;
    SV **mark = (SV **)vmark, **sp = (SV **)vsp;
    int nowait = 0;
    if (sp - mark > 1 && SvNIOKp(*(mark + 1)) && !SvPOKp(*(mark + 1))) {
        nowait = SvIV(*(mark + 1)) == 1;
        mark++;
    }
    char **argv;
    Newx(argv, sp - mark + 1, char *);
    int n = 0;
    while (++mark <= sp)
        argv[n++] = SvPV_nolen(*mark);
    argv[n] = NULL;
    char *copy = NULL;
    if (n == 1 && !really) { /* one word: a command line, as exec does */
        char **line = cmd_argv(argv[0], &copy);
        Safefree(argv);
        argv = line;
    } else if (really && *SvPV_nolen(really))
        argv[0] = SvPV_nolen(really);
    int r = spawn_wait(aTHX_ argv, nowait);
    Safefree(argv);
    Safefree(copy);
    return r;
}

/* system STRING */
int do_spawn(char *cmd) {
    dTHX;
    char *copy;
    char **argv = cmd_argv(cmd, &copy);
    int r = spawn_wait(aTHX_ argv, 0);
    Safefree(argv);
    Safefree(copy);
    return r;
}

/* open(FH, "cmd |"), open(FH, "-|", LIST), qx and friends: the child's
 * stdout (mode "r") or stdin ("w") on a pipe whose other end is returned.
 * The pid goes in PL_fdpid, where my_pclose finds it. */
PerlIO *Perl_wasi_popen(pTHX_ const char *mode, int n, SV **args, const char *cmd) {
    if (cmd && cmd[0] == '-' && cmd[1] == '\0') { /* open(FH, "-|"): an implicit fork */
        errno = ENOSYS;
        return NULL;
    }
    char **argv, *copy = NULL;
    if (cmd)
        argv = cmd_argv(cmd, &copy);
    else {
        Newx(argv, n + 1, char *);
        for (int i = 0; i < n; i++)
            argv[i] = SvPV_nolen(args[i]);
        argv[n] = NULL;
    }
    int p[2], reading = *mode == 'r';
    if (PerlProc_pipe_cloexec(p) < 0) {
        Safefree(argv);
        Safefree(copy);
        return NULL;
    }
    int mine = reading ? p[0] : p[1], theirs = reading ? p[1] : p[0];
    int pid = reading ? spawn(aTHX_ argv, 0, theirs, 2) : spawn(aTHX_ argv, theirs, 1, 2);
    int e = errno;
    Safefree(argv);
    Safefree(copy);
    PerlLIO_close(theirs);
    if (pid < 0) {
        PerlLIO_close(mine);
        errno = e;
        return NULL;
    }
    SV *sv = *av_fetch(PL_fdpid, mine, TRUE);
    SvUPGRADE(sv, SVt_IV);
    SvIV_set(sv, pid);
    PL_forkprocess = pid;
    return PerlIO_fdopen(mine, mode);
}

/* POSIX::ctermid: wasi-libc has none; the sandbox's terminal is /dev/tty. */
char *ctermid(char *s) {
    static char tty[] = "/dev/tty";
    return s ? strcpy(s, tty) : tty;
}

/* 4-argument select: perl hands select() its bit strings (vec($rin, $fd, 1)),
 * the fd_set of most libcs; wasi-libc's fd_set is a count and a list of fds,
 * so the bits are translated both ways (read past the bit strings' end
 * before: a trap). perl.h maps PerlSock_select here
 * (patches/0004-wasi-select.patch). */
static int bits_to_set(const unsigned char *bits, int nbits, fd_set *set) {
    FD_ZERO(set);
    if (!bits)
        return 0;
    for (int fd = 0; fd < nbits; fd++)
        if (bits[fd / 8] & (1 << (fd % 8))) {
            if (fd >= FD_SETSIZE) {
                errno = EINVAL;
                return -1;
            }
            FD_SET(fd, set);
        }
    return 0;
}

static void set_to_bits(const fd_set *set, unsigned char *bits, int nbits) {
    if (!bits)
        return;
    memset(bits, 0, (nbits + 7) / 8);
    for (int fd = 0; fd < nbits; fd++)
        if (FD_ISSET(fd, set))
            bits[fd / 8] |= 1 << (fd % 8);
}

int wasmsand_select(int nbits, char *r, char *w, char *e, struct timeval *timeout) {
    fd_set rs, ws, es;
    if (bits_to_set((unsigned char *)r, nbits, &rs) || bits_to_set((unsigned char *)w, nbits, &ws) ||
        bits_to_set((unsigned char *)e, nbits, &es))
        return -1;
    int n = select(nbits < FD_SETSIZE ? nbits : FD_SETSIZE, r ? &rs : NULL, w ? &ws : NULL, e ? &es : NULL, timeout);
    if (n >= 0) {
        set_to_bits(&rs, (unsigned char *)r, nbits);
        set_to_bits(&ws, (unsigned char *)w, nbits);
        set_to_bits(&es, (unsigned char *)e, nbits);
    }
    return n;
}

/* $^X: Linux reads /proc/self/exe, which WASI has not; the fallback would be
 * argv[0] as typed ("perl"), and scripts that run `$^X` from another
 * directory, or test.pl's "./perl", then miss. The program found on PATH
 * (or argv[0] with its slash), resolved, as Linux gives it
 * (patches/0002-wasi-processes.patch, caretx.c). */
const char *wasmsand_caret_x(const char *argv0) {
    static char found[PATH_MAX];
    if (!argv0 || !*argv0)
        return NULL;
    if (strchr(argv0, '/'))
        return realpath(argv0, found);
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char cand[PATH_MAX];
        if (n && n + 1 + strlen(argv0) < sizeof cand) {
            memcpy(cand, path, n);
            snprintf(cand + n, sizeof cand - n, "/%s", argv0);
            if (access(cand, X_OK) == 0)
                return realpath(cand, found);
        }
        path += n + (path[n] == ':');
    }
    return NULL;
}

/* perl's utilities (prove, json_pp, shasum...) are commands of this module:
 * started under one of their names, perl runs that script from
 * /usr/lib/wasmsand/perl/bin, as its #! line would have it
 * (patches/0001-wasi-main.patch calls this first thing in main). */
void wasmsand_script_argv(int *argc, char ***argv) {
    if (*argc < 1 || !(*argv)[0])
        return;
    const char *name = strrchr((*argv)[0], '/');
    name = name ? name + 1 : (*argv)[0];
    if (strncmp(name, "perl", 4) == 0)
        return;
    static char script[PATH_MAX];
    snprintf(script, sizeof script, "/usr/lib/wasmsand/perl/bin/%s", name);
    if (access(script, R_OK) != 0)
        return;
    char **args = malloc((*argc + 2) * sizeof *args);
    if (!args)
        return;
    args[0] = "perl";
    args[1] = script;
    for (int i = 1; i <= *argc; i++)
        args[i + 1] = (*argv)[i];
    *argv = args;
    (*argc)++;
}
