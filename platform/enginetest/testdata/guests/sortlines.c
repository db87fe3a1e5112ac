/* Reads lines from stdin, sorts them with qsort(strcmp) and writes them out: compute-heavy
   guest code (comparisons in a loop) for measuring loop instrumentation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void) {
  size_t n = 0, cap = 1024;
  char **lines = malloc(cap * sizeof *lines);
  char *line = NULL;
  size_t len = 0;
  ssize_t got;
  while ((got = getline(&line, &len, stdin)) >= 0) {
    if (n == cap) lines = realloc(lines, (cap *= 2) * sizeof *lines);
    lines[n++] = strdup(line);
  }
  qsort(lines, n, sizeof *lines, cmp);
  for (size_t i = 0; i < n; i++) fputs(lines[i], stdout);
  fprintf(stderr, "%zu lines\n", n);
  return 0;
}
