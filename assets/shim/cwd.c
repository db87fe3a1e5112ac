// Linked into every C guest: wasi-libc starts every program in "/" (WASI has
// no cwd), so take the working directory the shell gave us from $PWD.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wasi/api.h>

__attribute__((constructor)) static void wasmsand_init_cwd(void) {
  const char *pwd = getenv("PWD");
  if (pwd && pwd[0] == '/') chdir(pwd);
}

// wasi-libc leaves program_invocation_name / program_invocation_short_name NULL
// (glibc sets them before main): gnulib's error() and getprogname() print them,
// so set them from argv[0] as glibc does.
__attribute__((constructor)) static void wasmsand_init_progname(void) {
  __wasi_size_t argc, size;
  if (__wasi_args_sizes_get(&argc, &size) != 0 || argc == 0) return;
  char **argv = malloc((argc + 1) * sizeof(char *));
  char *buf = malloc(size);
  if (!argv || !buf || __wasi_args_get((uint8_t **)argv, (uint8_t *)buf) != 0) {
    free(argv), free(buf);
    return;
  }
  program_invocation_name = argv[0];
  const char *slash = strrchr(argv[0], '/');
  program_invocation_short_name = slash ? (char *)slash + 1 : argv[0];
  free(argv);  // buf stays: it holds argv[0]
}

// musl buffers stdin and stdout in BUFSIZ (1024) bytes; glibc in st_blksize
// (4096 for files and pipes). Use glibc's size when they are not terminals
// (a terminal's stdout stays line-buffered): fewer host calls, and output
// shared with stderr interleaves where it does on Linux.
__attribute__((constructor)) static void wasmsand_init_stdio(void) {
  static char in[4096 + 8], out[4096 + 8];  // (+8: musl's ungetc reserve)
  if (!isatty(0)) setvbuf(stdin, in, _IOFBF, sizeof in);
  if (!isatty(1)) setvbuf(stdout, out, _IOFBF, sizeof out);
}
