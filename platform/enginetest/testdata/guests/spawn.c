/* Exercises the wasmsand import module. The test's Spawner runs argv[0] of a child as one
 * of the test guests. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "wasmsand.h"

static void t_pipe_spawn(void) {
    int fds[2];
    if (wasmsand_pipe(fds) < 0) { printf("pipe: %s\n", strerror(errno)); return; }
    printf("pipe fds %d %d\n", fds[0], fds[1]);
    char *argv[] = {"exitcode", "7", NULL};
    int pid = wasmsand_spawn(argv, NULL, 0, fds[1], 2);
    printf("spawned: %d\n", pid > 0);
    close(fds[1]); /* the child holds its own reference: EOF comes after it exits */
    char buf[256];
    ssize_t n, total = 0;
    while ((n = read(fds[0], buf + total, sizeof buf - 1 - total)) > 0) total += n;
    buf[total] = 0;
    printf("child said [%s] (read rc %zd)\n", strtok(buf, "\n"), n);
    int status = -1;
    int w = wasmsand_wait(pid, &status);
    printf("wait -> %d status %d\n", w == pid, status);
    printf("wait again -> %d %s\n", wasmsand_wait(pid, &status), strerror(errno));
    close(fds[0]);
}

static void t_stdin_pipe(void) {
    int fds[2];
    wasmsand_pipe(fds);
    int out = open("/tmp/cat.out", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    char *argv[] = {"cat", NULL};
    int pid = wasmsand_spawn(argv, NULL, fds[0], out, -1);
    close(fds[0]);
    close(out);
    for (int i = 0; i < 1000; i++) dprintf(fds[1], "line %d\n", i);
    close(fds[1]);
    int status;
    wasmsand_wait(pid, &status);
    struct stat st;
    stat("/tmp/cat.out", &st);
    printf("cat status %d, file size %lld\n", status, (long long)st.st_size);
}

static void t_env_cwd(void) {
    int fds[2];
    wasmsand_pipe(fds);
    char *argv[] = {"args", "a b", "", NULL};
    char *envp[] = {"ONLY=1", NULL};
    chdir("/tmp");
    int pid = wasmsand_spawn(argv, envp, -1, fds[1], 2);
    close(fds[1]);
    char buf[1024];
    ssize_t n, total = 0;
    while ((n = read(fds[0], buf + total, sizeof buf - 1 - total)) > 0) total += n;
    buf[total] = 0;
    printf("%s", buf);
    int status;
    wasmsand_wait(pid, &status);
    close(fds[0]);
    chdir("/");
}

static void t_errors(void) {
    char *argv[] = {"no-such-command", NULL};
    printf("spawn missing -> %d %s\n", wasmsand_spawn(argv, NULL, 0, 1, 2), strerror(errno));
    char *argv2[] = {"exitcode", NULL};
    printf("spawn bad fd -> %d %s\n", wasmsand_spawn(argv2, NULL, 42, 1, 2), strerror(errno));
    printf("wait unknown -> %d %s\n", wasmsand_wait(12345, NULL), strerror(errno));
    printf("kill unknown -> %d %s\n", wasmsand_kill(12345, 9), strerror(errno));
}

static void t_kill(void) {
    char *argv[] = {"spin", NULL};
    int pid = wasmsand_spawn(argv, NULL, -1, -1, -1);
    printf("kill 0 -> %d\n", wasmsand_kill(pid, 0));
    printf("kill 9 -> %d\n", wasmsand_kill(pid, 9));
    int status;
    wasmsand_wait(pid, &status);
    printf("killed status %d\n", status);
}

static void t_dup(void) {
    int fd = wasmsand_dup(1);
    printf("dup(1) -> %d\n", fd);
    dprintf(fd, "via dup\n");
    int f = open("/tmp/dup.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    int saved = wasmsand_dup(1);
    fflush(stdout);
    wasmsand_dup2(f, 1);
    printf("into the file\n");
    fflush(stdout);
    wasmsand_dup2(saved, 1);
    close(saved);
    close(f);
    close(fd);
    printf("dup2 bad -> %d %s\n", wasmsand_dup2(77, 5), strerror(errno));
    char buf[64] = {0};
    int r = open("/tmp/dup.txt", O_RDONLY);
    read(r, buf, sizeof buf - 1);
    close(r);
    printf("file has [%s]\n", strtok(buf, "\n"));
    int so = open("/dev/stdout", O_WRONLY);
    dprintf(so, "via /dev/stdout (fd %d)\n", so);
    close(so);
    int f3 = open("/dev/fd/1", O_WRONLY);
    dprintf(f3, "via /dev/fd/1\n");
    close(f3);
    printf("open /dev/fd/55 -> %d %s\n", open("/dev/fd/55", O_RDONLY), strerror(errno));
}

static void t_modes(void) {
    struct wasmsand_stat_ext st;
    int fd = open("/tmp/m.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    close(fd);
    wasmsand_stat_ext("/tmp/m.txt", &st);
    printf("new file mode %o uid %u gid %u nlink %llu\n", st.mode, st.uid, st.gid, (unsigned long long)st.nlink);
    printf("chmod 4751 -> %d\n", wasmsand_chmod("/tmp/m.txt", 04751));
    wasmsand_stat_ext("/tmp/m.txt", &st);
    printf("now %o\n", st.mode);
    printf("chown -> %d\n", wasmsand_chown("/tmp/m.txt", 0, -1));
    wasmsand_stat_ext("/tmp/m.txt", &st);
    printf("uid %u gid %u\n", st.uid, st.gid);
    mkdir("/tmp/md", 0777);
    wasmsand_stat_ext("/tmp/md", &st);
    printf("new dir mode %o\n", st.mode);
    symlink("m.txt", "/tmp/ml");
    wasmsand_lstat_ext("/tmp/ml", &st);
    printf("symlink mode %o\n", st.mode & 0170000);
    wasmsand_stat_ext("/tmp/ml", &st);
    printf("through symlink %o\n", st.mode);
    chdir("/tmp");
    wasmsand_stat_ext("m.txt", &st);
    printf("relative %o\n", st.mode);
    chdir("/");
    printf("stat_ext missing -> %d %s\n", wasmsand_stat_ext("/tmp/nope", &st), strerror(errno));
    wasmsand_fstat_ext(0, &st);
    printf("stdin type %o\n", st.mode & 0170000);
    fd = open("/tmp/m.txt", O_RDONLY);
    printf("fchmod -> %d\n", wasmsand_fchmod(fd, 0600));
    wasmsand_fstat_ext(fd, &st);
    printf("fstat_ext %o\n", st.mode);
    close(fd);
    printf("getpid %d\n", wasmsand_getpid());
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        printf("== %s\n", argv[i]);
        fflush(stdout);
        if (!strcmp(argv[i], "pipe")) t_pipe_spawn();
        else if (!strcmp(argv[i], "stdin")) t_stdin_pipe();
        else if (!strcmp(argv[i], "env")) t_env_cwd();
        else if (!strcmp(argv[i], "errors")) t_errors();
        else if (!strcmp(argv[i], "kill")) t_kill();
        else if (!strcmp(argv[i], "dup")) t_dup();
        else if (!strcmp(argv[i], "modes")) t_modes();
        fflush(stdout);
    }
    return 0;
}
