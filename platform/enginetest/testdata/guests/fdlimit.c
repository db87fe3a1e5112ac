#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/data/a.txt";
    int n = 0, last = -1;
    for (;;) {
        int fd = open(path, O_RDONLY);
        if (fd < 0) {
            int e = errno;
            printf("opened %d, then %s (last fd %d)\n", n, strerror(e), last);
            return e == EMFILE ? 0 : 1;
        }
        last = fd;
        if (++n > 100000) return 2;
    }
}
