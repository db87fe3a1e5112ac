/* write(1, "x", 1) N times: the cost of one fd_write round trip. */
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000;
    for (long i = 0; i < n; i++)
        if (write(1, "x", 1) != 1) return 1;
    return 0;
}
