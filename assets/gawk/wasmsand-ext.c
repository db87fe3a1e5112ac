/* wasmsand-ext.c — the extensions gawk ships, built into gawk.wasm (no dlopen in WASI).
 *
 * build.sh compiles each extension/NAME.c with its dl_load renamed
 * wasmsand_NAME_dl_load (and its plugin_is_GPL_compatible renamed, every extension
 * defines one) and lists the names in WASMSAND_EXTENSIONS. gawk's own lookup finds the
 * placeholder NAME.so in AWKLIBPATH (data files of the asset), then load_ext (ext.c,
 * patches/0002) asks here for the extension of that file's name. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "gawkapi.h"

typedef int (*dl_load_t)(const gawk_api_t *const, awk_ext_id_t);

#define DECLARE(n) extern int wasmsand_##n##_dl_load(const gawk_api_t *const, awk_ext_id_t);
WASMSAND_EXTENSIONS(DECLARE)

static const struct {
    const char *name;
    dl_load_t load;
} table[] = {
#define ENTRY(n) {#n, wasmsand_##n##_dl_load},
    WASMSAND_EXTENSIONS(ENTRY)
};

dl_load_t wasmsand_builtin_extension(const char *lib_name) {
    const char *b = strrchr(lib_name, '/');
    b = b ? b + 1 : lib_name;
    size_t n = strlen(b);
    if (n > 3 && !strcmp(b + n - 3, ".so")) n -= 3;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strlen(table[i].name) == n && !strncmp(table[i].name, b, n)) return table[i].load;
    return NULL;
}
