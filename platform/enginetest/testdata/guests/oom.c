/* Allocates 1 MiB blocks until malloc fails, then aborts (a trap), like most programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
char *volatile keep; /* so the compiler cannot drop the allocations */
int main(void) {
    for (int i = 0;; i++) {
        char *p = malloc(1 << 20);
        if (!p) {
            fprintf(stderr, "oom: malloc failed after %d MiB\n", i);
            abort();
        }
        memset(p, 1, 1 << 20);
        keep = p;
    }
}
