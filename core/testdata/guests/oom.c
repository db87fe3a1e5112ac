/* Allocates until the memory limit stops it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
char *volatile keep; /* so the compiler cannot drop the allocations */
int main(void) {
  size_t total = 0;
  for (;;) {
    char *p = malloc(1 << 20);
    if (!p) { printf("malloc failed after %zu MB\n", total >> 20); return 3; }
    memset(p, 1, 1 << 20);
    keep = p;
    total += 1 << 20;
  }
}
