/* cat(1) without options: files or stdin to stdout. */
#include <stdio.h>
int main(int argc, char **argv) {
  char buf[65536];
  size_t n;
  int st = 0;
  for (int i = argc > 1 ? 1 : 0; i < argc; i++) {
    FILE *f = argc > 1 ? fopen(argv[i], "r") : stdin;
    if (!f) { fprintf(stderr, "cat: "); perror(argv[i]); st = 1; continue; }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
      if (fwrite(buf, 1, n, stdout) != n) return 1;
    if (f != stdin) fclose(f);
  }
  return st;
}
