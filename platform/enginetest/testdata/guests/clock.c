#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/time.h>
int main(int argc, char **argv) {
    long long host = argc > 1 ? atoll(argv[1]) : 0; /* the host's unix time when started */
    struct timespec r, m1, m2, res;
    clock_gettime(CLOCK_REALTIME, &r);
    printf("realtime near host: %d\n", llabs((long long)r.tv_sec - host) <= 5);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    printf("gettimeofday near host: %d\n", llabs((long long)tv.tv_sec - host) <= 5);
    printf("time() near host: %d\n", llabs((long long)time(NULL) - host) <= 5);
    clock_gettime(CLOCK_MONOTONIC, &m1);
    struct timespec d = {0, 20 * 1000 * 1000};
    int rc = nanosleep(&d, NULL);
    clock_gettime(CLOCK_MONOTONIC, &m2);
    long long ns = (m2.tv_sec - m1.tv_sec) * 1000000000LL + (m2.tv_nsec - m1.tv_nsec);
    printf("nanosleep rc %d, slept >= 20ms: %d, < 2s: %d\n", rc, ns >= 20000000LL, ns < 2000000000LL);
    printf("getres realtime ok: %d\n", clock_getres(CLOCK_REALTIME, &res) == 0 && res.tv_nsec > 0);
    printf("getres monotonic ok: %d\n", clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_nsec > 0);
    return 0;
}
