// state: prints what a fresh instance holds, then dirties it. An engine that
// reuses instances must run it as new every time (see host.js).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int counter;             // bss
static char data[8] = "fresh";  // data segment

int main(void) {
    char *heap = malloc(1 << 20);  // past the initial memory: it grows
    if (!heap) return 1;
    printf("counter=%d data=%s heap=%d\n", counter, data, heap[12345]);
    counter++;
    strcpy(data, "dirty");
    memset(heap, 7, 1 << 20);
    return 0;
}
