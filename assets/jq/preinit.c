/* Pre-initialized start for jq.wasm (wasmsand's engine, platform/native).
 *
 * jq 1.6 parses, binds and generates its builtins library (src/builtin.jq,
 * about 170 definitions) at every start: ~40 ms of a `jq -n 1` under
 * WebAssembly, 20-30 ms natively. That work depends on nothing of the process.
 * The engine runs it once in a pristine sandbox by calling wasmsand_preinit,
 * keeps the guest's memory as an image, and starts later runs from a copy of
 * that image by calling wasmsand_resume instead of _start; builtins_bind
 * (patches/preinit-builtins.patch) takes the parsed library from the image.
 * Each run gets its own copy of the image, so the run may consume it.
 */
#include <stdlib.h>
#include <unistd.h>
#include <wasi/api.h>

#include "jq.h"
#include "compile.h"

extern block wasmsand_builtins;
extern int wasmsand_have_builtins;
block wasmsand_parse_builtins(jq_state *jq);
int main(int argc, char *argv[]);

/* wasi-libc: drop the environment read so far and read it again. */
extern void __wasilibc_deinitialize_environ(void);
extern void __wasilibc_initialize_environ(void);

static int ready;
static jq_state *owner; /* kept: the library's locations name the state that parsed it */

__attribute__((export_name("wasmsand_preinit"))) int wasmsand_preinit(void) {
    if (ready) return 1;
    owner = jq_init();
    if (!owner) return 2;
    wasmsand_builtins = wasmsand_parse_builtins(owner);
    wasmsand_have_builtins = 1;
    ready = 1;
    return 0;
}

/* argv from WASI, as wasi-libc's _start would pass it to main. */
static int get_args(int *argc, char ***argv) {
    __wasi_size_t n, size;
    if (__wasi_args_sizes_get(&n, &size) != 0) return -1;
    char **v = malloc((n + 1) * sizeof(char *));
    char *buf = malloc(size ? size : 1);
    if (!v || !buf || __wasi_args_get((uint8_t **)v, (uint8_t *)buf) != 0) return -1;
    v[n] = NULL;
    *argc = (int)n;
    *argv = v;
    return 0;
}

/* Returns only when this process cannot be resumed (nothing was changed);
   otherwise runs jq and exits with its status. */
__attribute__((export_name("wasmsand_resume"))) int wasmsand_resume(void) {
    if (!ready) return 1;
    __wasilibc_deinitialize_environ();
    __wasilibc_initialize_environ();
    int argc;
    char **argv;
    if (get_args(&argc, &argv) != 0) return 1;
    const char *pwd = getenv("PWD");
    if (pwd && pwd[0] == '/') chdir(pwd);
    exit(main(argc, argv));
}
