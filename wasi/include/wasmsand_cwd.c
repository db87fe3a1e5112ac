/* wasmsand_cwd.c — link into every C guest (wasi-libc) so it starts in its process's
 * working directory. WASI has no cwd: wasi-libc keeps one in the guest, starting at "/".
 * The host passes the directory as PWD (wasi.Proc.Cwd); this constructor applies it
 * before main, as Go's wasip1 runtime does by itself. */
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void wasmsand_init_cwd(void) {
    const char *pwd = getenv("PWD");
    if (pwd && pwd[0] == '/') chdir(pwd);
}
