// A WASI preview1 plugin in C for TestRunWasmPluginC: what it may read,
// write and see under a policy.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    printf("argc=%d", argc - 1);
    for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
    const char *g = getenv("GREETING"), *s = getenv("WASMSAND_TEST_SECRET");
    printf(" greeting=%s secret=%s\n", g ? g : "-", s ? s : "-");
    char buf[64] = {0};
    FILE *f = fopen("/data/in.txt", "r");
    if (f) { fread(buf, 1, sizeof buf - 1, f); fclose(f); }
    printf("in=%s\n", buf);
    printf("write ro: %s\n", fopen("/data/x", "w") ? "allowed" : "refused");
    f = fopen("/out/result.txt", "w");
    if (f) { fputs("done\n", f); fclose(f); }
    printf("write rw: %s\n", f ? "ok" : "refused");
    // the host's files are not there unless mounted
    printf("host passwd: %s\n", fopen("/etc/shadow", "r") ? "visible" : "absent");
    return argc > 3 ? 3 : 0;
}
