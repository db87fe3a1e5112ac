/* multicall.c — one module for gzip, gunzip and zcat (wasmsand: no shell scripts as
 * commands). gzip 1.12's gunzip and zcat are the scripts gunzip.in and zcat.in:
 *   --help / --version as the first argument print the script's own text ($0: the path
 *   the shell found the script at),
 *   anything else runs `gzip -d "$@"` (gunzip) or `gzip -cd "$@"` (zcat) as "gzip".
 * This main does exactly that, calling gzip's main (compiled as gzip_main) in-process.
 * The texts come from the scripts' sources at build time (wasmsand-texts.h, build.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wasmsand-texts.h"

int gzip_main(int argc, char **argv);

/* $0 of a script run through PATH: the path the shell found it at (as the kernel passes it). */
static const char *script_name(const char *argv0) {
    static char buf[4096];
    const char *path = getenv("PATH");
    if (strchr(argv0, '/') || !path) return argv0;
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n && n + strlen(argv0) + 2 <= sizeof buf) {
            memcpy(buf, path, n);
            buf[n] = '/';
            strcpy(buf + n + 1, argv0);
            if (access(buf, X_OK) == 0) return buf;
        }
        path += n;
        if (*path) path++;
    }
    return argv0;
}

static int script(int argc, char **argv, const char *opt, const char *version, const char *usage) {
    if (argc > 1 && !strcmp(argv[1], "--help")) {
        printf(usage, script_name(argv[0]));
        return fflush(stdout) || ferror(stdout) ? 1 : 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--version")) {
        fputs(version, stdout);
        return fflush(stdout) || ferror(stdout) ? 1 : 0;
    }
    char **av = malloc((argc + 2) * sizeof(char *));
    if (!av) return 1;
    av[0] = "gzip";
    av[1] = (char *)opt;
    memcpy(av + 2, argv + 1, argc * sizeof(char *)); /* argv[1..argc], NULL included */
    return gzip_main(argc + 1, av);
}

int main(int argc, char **argv) {
    const char *b = strrchr(argv[0], '/');
    b = b ? b + 1 : argv[0];
    if (!strcmp(b, "gunzip")) return script(argc, argv, "-d", gunzip_version, gunzip_usage);
    if (!strcmp(b, "zcat")) return script(argc, argv, "-cd", zcat_version, zcat_usage);
    return gzip_main(argc, argv);
}
