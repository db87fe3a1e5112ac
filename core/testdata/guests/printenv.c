/* printenv NAME: prints one environment variable (status 1 if unset). */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  const char *v = argc > 1 ? getenv(argv[1]) : NULL;
  if (!v) return 1;
  puts(v);
  return 0;
}
