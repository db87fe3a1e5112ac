#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    struct pollfd p = {.fd = 0, .events = POLLIN};
    int r = poll(&p, 1, 1000);
    printf("poll stdin -> %d revents in=%d\n", r, (p.revents & POLLIN) != 0);
    char buf[64] = {0};
    ssize_t n = read(0, buf, sizeof buf - 1);
    printf("read %zd [%s]\n", n, buf);
    struct pollfd q = {.fd = 1, .events = POLLOUT};
    printf("poll stdout -> %d out=%d\n", poll(&q, 1, 0), (q.revents & POLLOUT) != 0);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    printf("poll none 30ms -> %d\n", poll(NULL, 0, 30));
    clock_gettime(CLOCK_MONOTONIC, &b);
    long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
    printf("waited >= 30ms: %d\n", ns >= 30000000LL);
    struct pollfd bad = {.fd = 99, .events = POLLIN};
    r = poll(&bad, 1, 0);
    printf("poll bad fd -> %d nval=%d\n", r, (bad.revents & POLLNVAL) != 0);
    return 0;
}
