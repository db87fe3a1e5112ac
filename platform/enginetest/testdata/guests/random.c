#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    unsigned char a[64], b[64], zero[64] = {0};
    int ra = getentropy(a, sizeof a), rb = getentropy(b, sizeof b);
    printf("getentropy rc %d %d\n", ra, rb);
    printf("differ: %d, nonzero: %d\n", memcmp(a, b, sizeof a) != 0, memcmp(a, zero, sizeof a) != 0);
    unsigned x = arc4random(), y = arc4random();
    printf("arc4random differ: %d\n", x != y);
    return 0;
}
