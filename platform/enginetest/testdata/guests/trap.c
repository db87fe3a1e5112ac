#include <stdio.h>
#include <string.h>
/* No locals in linear memory: the wasm call stack itself overflows. */
static int depth(int n);
static int (*volatile again)(int) = depth; /* an indirect call: no tail-call elimination */
static int depth(int n) { return again(n + 1) + n; }
int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "unreachable";
    printf("before %s\n", what);
    fflush(stdout);
    if (!strcmp(what, "unreachable")) __builtin_trap();
    if (!strcmp(what, "oob")) *(volatile int *)0xfffffff0u = 1;
    if (!strcmp(what, "stack")) return depth(0);
    if (!strcmp(what, "div")) {
        volatile int a = 100, z = 0;
        return a / z;
    }
    return 0;
}
