/* stdin → stdout with read/write, reporting errors like a real cat. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char buf[4096];
    long total = 0;
    for (;;) {
        ssize_t n = read(0, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            fprintf(stderr, "cat: read: %s\n", strerror(errno));
            return 1;
        }
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(1, buf + off, n - off);
            if (w < 0) {
                fprintf(stderr, "cat: write: %s\n", strerror(errno));
                return 1;
            }
            off += w;
        }
        total += n;
    }
    fprintf(stderr, "cat: %ld bytes\n", total);
    return 0;
}
