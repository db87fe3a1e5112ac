/* File system scenarios, run on wazero's built-in WASI and on ours; outputs must match.
 * Usage: fsops NAME... (see the table at the bottom). Expects the tree of fsTree in
 * fs_test.go under /data. Only prints what both hosts define the same way (no inode
 * numbers, no directory link counts, no readdir order). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e) {
    switch (e) {
#define N(x) case x: return #x;
        N(ENOENT) N(EEXIST) N(ENOTDIR) N(EISDIR) N(ENOTEMPTY) N(EBADF) N(EINVAL) N(ELOOP)
        N(EACCES) N(EPERM) N(ESPIPE) N(EXDEV) N(ENAMETOOLONG) N(EMFILE) N(EBUSY) N(ENOTSUP)
        N(EFAULT) N(ENOSYS) N(ERANGE) N(EIO) N(ENXIO) N(EPIPE)
#undef N
    }
    static char buf[32];
    snprintf(buf, sizeof buf, "errno%d", e);
    return buf;
}

#define SHOW(label, expr)                                                   \
    do {                                                                    \
        errno = 0;                                                          \
        long _r = (long)(expr);                                             \
        if (_r < 0) printf("%-28s -> -1 %s\n", label, ename(errno));        \
        else printf("%-28s -> %ld\n", label, _r);                           \
    } while (0)

static void show_file(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("  [%s: %s]\n", path, ename(errno));
        return;
    }
    char buf[256];
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    printf("  [%s:", path);
    for (ssize_t i = 0; i < n; i++) {
        unsigned char c = buf[i];
        if (c >= 32 && c < 127) putchar(c);
        else printf("\\x%02x", c);
    }
    printf("]\n");
}

static void put(const char *path, const char *s) {
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, s, strlen(s)) < 0) printf("put %s: %s\n", path, ename(errno));
    close(fd);
}

static const char *ftype(mode_t m) {
    if (S_ISREG(m)) return "reg";
    if (S_ISDIR(m)) return "dir";
    if (S_ISLNK(m)) return "lnk";
    if (S_ISCHR(m)) return "chr";
    if (S_ISBLK(m)) return "blk";
    return "other";
}

static void t_readwrite(void) {
    int fd = open("/data/new.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    SHOW("open new (fd)", fd);
    SHOW("write 12", write(fd, "hello world\n", 12));
    SHOW("close", close(fd));
    fd = open("/data/new.txt", O_RDONLY);
    SHOW("reopen (fd)", fd);
    char buf[64];
    SHOW("read", read(fd, buf, sizeof buf));
    SHOW("read at eof", read(fd, buf, sizeof buf));
    SHOW("write on O_RDONLY", write(fd, "x", 1));
    close(fd);
    fd = open("/data/new.txt", O_WRONLY | O_APPEND);
    SHOW("append write", write(fd, "more\n", 5));
    lseek(fd, 0, SEEK_SET);
    SHOW("append after seek 0", write(fd, "tail\n", 5));
    close(fd);
    show_file("/data/new.txt");
    fd = open("/data/new.txt", O_RDWR);
    SHOW("pwrite 5 @0", pwrite(fd, "HELLO", 5, 0));
    memset(buf, 0, sizeof buf);
    SHOW("pread 5 @6", pread(fd, buf, 5, 6));
    printf("  pread got [%s]\n", buf);
    SHOW("offset after p*", lseek(fd, 0, SEEK_CUR));
    SHOW("read on O_RDWR", read(fd, buf, 3));
    SHOW("offset after read", lseek(fd, 0, SEEK_CUR));
    SHOW("ftruncate 3", ftruncate(fd, 3));
    struct stat st;
    fstat(fd, &st);
    printf("  size %lld\n", (long long)st.st_size);
    SHOW("ftruncate 8", ftruncate(fd, 8));
    fstat(fd, &st);
    printf("  size %lld\n", (long long)st.st_size);
    close(fd);
    show_file("/data/new.txt");
    SHOW("O_EXCL on existing", open("/data/new.txt", O_CREAT | O_EXCL | O_WRONLY, 0644));
    fd = open("/data/new.txt", O_WRONLY | O_TRUNC);
    fstat(fd, &st);
    printf("  after O_TRUNC size %lld\n", (long long)st.st_size);
    close(fd);
    SHOW("O_CREAT|O_EXCL new (fd)", fd = open("/data/excl.txt", O_CREAT | O_EXCL | O_WRONLY, 0644));
    close(fd);
    FILE *f = fopen("/data/stdio.txt", "w");
    for (int i = 0; i < 1000; i++) fprintf(f, "line %d\n", i);
    fclose(f);
    f = fopen("/data/stdio.txt", "r");
    int lines = 0;
    char line[64];
    while (fgets(line, sizeof line, f)) lines++;
    fclose(f);
    printf("  stdio lines %d\n", lines);
}

static void t_seek(void) {
    int fd = open("/data/seek.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
    write(fd, "0123456789", 10);
    SHOW("SEEK_END 0", lseek(fd, 0, SEEK_END));
    SHOW("SEEK_END -3", lseek(fd, -3, SEEK_END));
    char buf[32] = {0};
    SHOW("read 3", read(fd, buf, 3));
    printf("  got [%s]\n", buf);
    SHOW("SEEK_CUR -5", lseek(fd, -5, SEEK_CUR));
    SHOW("SEEK_SET 20", lseek(fd, 20, SEEK_SET));
    SHOW("write past end", write(fd, "X", 1));
    struct stat st;
    fstat(fd, &st);
    printf("  size %lld\n", (long long)st.st_size);
    memset(buf, 7, sizeof buf);
    SHOW("pread hole", pread(fd, buf, 10, 10));
    int zeros = 0;
    for (int i = 0; i < 10; i++) zeros += buf[i] == 0;
    printf("  zeros %d\n", zeros);
    SHOW("SEEK_SET -100", lseek(fd, -100, SEEK_SET));
    SHOW("tell", lseek(fd, 0, SEEK_CUR));
    close(fd);
    int d = open("/data/dir", O_RDONLY | O_DIRECTORY);
    SHOW("lseek on dir", lseek(d, 0, SEEK_CUR));
    close(d);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char **)a, *(char **)b); }

static void list(const char *path) {
    DIR *d = opendir(path);
    if (!d) {
        printf("  opendir %s: %s\n", path, ename(errno));
        return;
    }
    char *names[1000];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 1000) {
        const char *t = e->d_type == DT_DIR ? "dir" : e->d_type == DT_REG ? "reg" : e->d_type == DT_LNK ? "lnk" : "other";
        char *s = malloc(strlen(e->d_name) + 8);
        sprintf(s, "%s %s", e->d_name, t);
        names[n++] = s;
    }
    qsort(names, n, sizeof *names, cmp);
    printf("  %s: %d entries\n", path, n);
    for (int i = 0; i < n && i < 20; i++) printf("    %s\n", names[i]);
    rewinddir(d);
    int again = 0;
    while (readdir(d)) again++;
    printf("  after rewinddir: %d\n", again);
    closedir(d);
}

static void t_readdir(void) {
    list("/data/dir");
    list("/data");
    mkdir("/data/many", 0755);
    char p[128];
    for (int i = 0; i < 300; i++) {
        snprintf(p, sizeof p, "/data/many/a-rather-long-file-name-to-fill-buffers-%03d", i);
        put(p, "x");
    }
    list("/data/many");
    list("/data/empty");
    list("/data/missing");
    list("/data/a.txt");
}

static void t_stat(void) {
    struct stat st, st2;
    SHOW("stat a.txt", stat("/data/a.txt", &st));
    printf("  %s size %lld nlink %llu\n", ftype(st.st_mode), (long long)st.st_size, (unsigned long long)st.st_nlink);
    SHOW("stat dir", stat("/data/dir", &st));
    printf("  %s\n", ftype(st.st_mode));
    SHOW("lstat link-to-a", lstat("/data/link-to-a", &st));
    printf("  %s size %lld\n", ftype(st.st_mode), (long long)st.st_size);
    SHOW("stat link-to-a", stat("/data/link-to-a", &st));
    printf("  %s size %lld\n", ftype(st.st_mode), (long long)st.st_size);
    SHOW("stat missing", stat("/data/missing", &st));
    SHOW("stat a.txt/", stat("/data/a.txt/", &st));
    SHOW("stat a.txt/x", stat("/data/a.txt/x", &st));
    SHOW("stat dir/", stat("/data/dir/", &st));
    struct timespec ts[2] = {{1000, 0}, {2000, 500}};
    SHOW("utimensat", utimensat(AT_FDCWD, "/data/a.txt", ts, 0));
    stat("/data/a.txt", &st);
    printf("  atime %lld mtime %lld.%09ld\n", (long long)st.st_atim.tv_sec, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    struct timespec omit[2] = {{0, UTIME_OMIT}, {3000, 0}};
    SHOW("utimensat omit atime", utimensat(AT_FDCWD, "/data/a.txt", omit, 0));
    stat("/data/a.txt", &st);
    printf("  atime %lld mtime %lld\n", (long long)st.st_atim.tv_sec, (long long)st.st_mtim.tv_sec);
    int fd = open("/data/a.txt", O_RDWR);
    struct timespec ts2[2] = {{4000, 0}, {5000, 0}};
    SHOW("futimens", futimens(fd, ts2));
    fstat(fd, &st2);
    stat("/data/a.txt", &st);
    printf("  atime %lld mtime %lld same-ino %d\n", (long long)st2.st_atim.tv_sec, (long long)st2.st_mtim.tv_sec, st.st_ino == st2.st_ino);
    close(fd);
    SHOW("link", link("/data/a.txt", "/data/hard"));
    stat("/data/hard", &st2);
    stat("/data/a.txt", &st);
    printf("  nlink %llu same-ino %d\n", (unsigned long long)st.st_nlink, st.st_ino == st2.st_ino);
    SHOW("link existing", link("/data/a.txt", "/data/hard"));
    SHOW("link missing", link("/data/missing", "/data/hard2"));
    SHOW("unlink hard", unlink("/data/hard"));
    stat("/data/a.txt", &st);
    printf("  nlink %llu\n", (unsigned long long)st.st_nlink);
    printf("  isatty(1) %d\n", isatty(1));
}

static void t_mkdir(void) {
    SHOW("mkdir m", mkdir("/data/m", 0755));
    SHOW("mkdir m again", mkdir("/data/m", 0755));
    SHOW("mkdir nope/x", mkdir("/data/nope/x", 0755));
    SHOW("mkdir a.txt/x", mkdir("/data/a.txt/x", 0755));
    SHOW("mkdir m/sub/", mkdir("/data/m/sub/", 0755));
    SHOW("rmdir m (non-empty)", rmdir("/data/m"));
    SHOW("rmdir m/sub", rmdir("/data/m/sub"));
    SHOW("rmdir m", rmdir("/data/m"));
    SHOW("rmdir dir (non-empty)", rmdir("/data/dir"));
    SHOW("rmdir a.txt", rmdir("/data/a.txt"));
    SHOW("rmdir missing", rmdir("/data/missing"));
    SHOW("rmdir empty", rmdir("/data/empty"));
    SHOW("unlink dir", unlink("/data/dir"));
    SHOW("unlink missing", unlink("/data/missing"));
    SHOW("unlink a.txt/", unlink("/data/a.txt/"));
    SHOW("unlink b.txt", unlink("/data/b.txt"));
    SHOW("unlink b.txt again", unlink("/data/b.txt"));
    SHOW("unlink link-to-dir", unlink("/data/link-to-dir"));
    struct stat st;
    SHOW("dir still there", stat("/data/dir", &st));
    SHOW("remove file", remove("/data/a.txt"));
}

static void t_rename(void) {
    put("/data/r1", "one");
    put("/data/r2", "two");
    SHOW("rename r1 r3", rename("/data/r1", "/data/r3"));
    show_file("/data/r1");
    show_file("/data/r3");
    SHOW("rename r3 over r2", rename("/data/r3", "/data/r2"));
    show_file("/data/r2");
    SHOW("rename missing", rename("/data/missing", "/data/x"));
    mkdir("/data/d1", 0755);
    put("/data/d1/f", "in d1");
    SHOW("rename dir", rename("/data/d1", "/data/d2"));
    show_file("/data/d2/f");
    SHOW("rename dir onto nonempty", rename("/data/empty", "/data/d2"));
    SHOW("rename nonempty onto empty", rename("/data/d2", "/data/empty"));
    show_file("/data/empty/f");
    SHOW("rename file onto dir", rename("/data/r2", "/data/dir"));
    SHOW("rename dir onto file", rename("/data/dir", "/data/r2"));
    SHOW("rename dir into itself", rename("/data/dir", "/data/dir/sub/x"));
    SHOW("rename file to same", rename("/data/r2", "/data/r2"));
    SHOW("rename into missing dir", rename("/data/r2", "/data/nope/r2"));
    SHOW("rename symlink", rename("/data/link-to-a", "/data/link2"));
    show_file("/data/link2");
}

static void t_symlink(void) {
    SHOW("symlink", symlink("a.txt", "/data/sl"));
    char buf[256] = {0};
    SHOW("readlink", readlink("/data/sl", buf, sizeof buf));
    printf("  target [%s]\n", buf);
    show_file("/data/sl");
    SHOW("symlink dangling", symlink("nowhere", "/data/dangling"));
    SHOW("open dangling", open("/data/dangling", O_RDONLY));
    struct stat st;
    SHOW("lstat dangling", lstat("/data/dangling", &st));
    printf("  %s\n", ftype(st.st_mode));
    SHOW("symlink exists", symlink("a.txt", "/data/sl"));
    SHOW("readlink regular", readlink("/data/a.txt", buf, sizeof buf));
    SHOW("readlink missing", readlink("/data/missing", buf, sizeof buf));
    SHOW("O_NOFOLLOW on link", open("/data/sl", O_RDONLY | O_NOFOLLOW));
    SHOW("symlink to dir", symlink("dir", "/data/sd"));
    list("/data/sd");
    show_file("/data/sd/b");
    SHOW("symlink rel ..", symlink("../a.txt", "/data/dir/up"));
    show_file("/data/dir/up");
    SHOW("create through link", open("/data/dangling", O_CREAT | O_WRONLY, 0644) >= 0 ? 0 : -1);
    show_file("/data/nowhere");
}

static void t_errors(void) {
    SHOW("open missing", open("/data/missing", O_RDONLY));
    SHOW("open dir O_WRONLY", open("/data/dir", O_WRONLY));
    SHOW("open a.txt/", open("/data/a.txt/", O_RDONLY));
    SHOW("open O_DIRECTORY file", open("/data/a.txt", O_RDONLY | O_DIRECTORY));
    SHOW("open missing/x", open("/data/missing/x", O_RDONLY));
    SHOW("creat in missing dir", open("/data/missing/x", O_CREAT | O_WRONLY, 0644));
    int d = open("/data/dir", O_RDONLY | O_DIRECTORY);
    SHOW("open dir (fd)", d);
    char buf[8];
    SHOW("read dir fd", read(d, buf, sizeof buf));
    SHOW("write dir fd", write(d, buf, 1));
    close(d);
    SHOW("close 99", close(99));
    struct stat st;
    SHOW("fstat 99", fstat(99, &st));
    SHOW("read 99", read(99, buf, 1));
    SHOW("dup2-less: fsync 1", fsync(1) == 0 ? 0 : -1);
    SHOW("mkdir root", mkdir("/", 0755));
}

static void t_cwd(void) {
    SHOW("chdir /data/dir", chdir("/data/dir"));
    char buf[256];
    printf("  cwd %s\n", getcwd(buf, sizeof buf));
    show_file("b");
    show_file("../a.txt");
    SHOW("mkdir rel", mkdir("relsub", 0755));
    put("relsub/f", "rel");
    show_file("/data/dir/relsub/f");
    SHOW("chdir missing", chdir("/data/missing"));
    SHOW("chdir file", chdir("/data/a.txt"));
    list(".");
}

struct test {
    const char *name;
    void (*fn)(void);
} tests[] = {
    {"readwrite", t_readwrite}, {"seek", t_seek},   {"readdir", t_readdir}, {"stat", t_stat},
    {"mkdir", t_mkdir},         {"rename", t_rename}, {"symlink", t_symlink}, {"errors", t_errors},
    {"cwd", t_cwd},
};

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        int found = 0;
        for (size_t j = 0; j < sizeof tests / sizeof *tests; j++) {
            if (!strcmp(argv[i], tests[j].name)) {
                printf("== %s\n", argv[i]);
                tests[j].fn();
                found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "fsops: unknown test %s\n", argv[i]);
            return 2;
        }
    }
    return 0;
}
