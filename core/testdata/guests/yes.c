/* yes(1): prints "y" until its output is closed. */
#include <stdio.h>
int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "y";
  for (;;) if (puts(s) == EOF || fflush(stdout) == EOF) return 1;
}
