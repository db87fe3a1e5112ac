// A pre-initializable guest (platform.Preinitializer): wasmsand_preinit builds
// state worth keeping (a heap block, a counter, an open file in "leak" mode),
// wasmsand_resume prints it, or declines ("cold") so that main runs; "dirty"
// checks that memory past the image reads as zeros, then dirties it for the
// next run.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

static int counter, ready;
static char *heap;

static char *arg1(void) {
    __wasi_size_t n, size;
    if (__wasi_args_sizes_get(&n, &size) != 0 || n < 2) return "";
    char **v = malloc((n + 1) * sizeof(char *)), *buf = malloc(size);
    __wasi_args_get((uint8_t **)v, (uint8_t *)buf);
    return v[1];
}

__attribute__((export_name("wasmsand_preinit"))) int wasmsand_preinit(void) {
    const char *mode = arg1();
    if (strcmp(mode, "fail") == 0) return 3;
    if (strcmp(mode, "leak") == 0 && open("/", O_RDONLY) < 0) return 4;
    if (strcmp(mode, "chatty") == 0) printf("hello from preinit\n"), fflush(stdout);
    heap = malloc(3 << 20); // grows the memory past its initial size
    memset(heap, 'x', (3 << 20) - 1);
    heap[(3 << 20) - 1] = 0;
    counter = 41;
    ready = 1;
    return 0;
}

__attribute__((export_name("wasmsand_resume"))) int wasmsand_resume(void) {
    if (!ready || strcmp(arg1(), "cold") == 0) return 1;
    if (strcmp(arg1(), "dirty") == 0) {
        size_t pages = 32, n = pages << 16;
        unsigned char *p = (unsigned char *)(__builtin_wasm_memory_grow(0, pages) << 16);
        for (size_t i = 0; i < n; i++)
            if (p[i]) printf("dirty at %zu\n", i), exit(9);
        memset(p, 'y', n);
        printf("clean\n");
        exit(8);
    }
    printf("resumed %d %zu\n", ++counter, strlen(heap));
    exit(7);
}

int main(void) {
    printf("cold %d\n", counter);
    return 0;
}
