// Linked into every C guest: wasi-libc starts every program in "/" (WASI has
// no cwd), so take the working directory the shell gave us from $PWD.
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void wasmsand_init_cwd(void) {
  const char *pwd = getenv("PWD");
  if (pwd && pwd[0] == '/') chdir(pwd);
}
