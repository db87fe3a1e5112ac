/* A spawn bomb: every copy starts two more copies of itself. */
#include <stdio.h>
#include "wasmsand.h"
int main(int argc, char **argv) {
  char *child[] = {argv[0], NULL};
  int a = wasmsand_spawn(child, NULL, 0, 1, 2);
  int b = wasmsand_spawn(child, NULL, 0, 1, 2);
  int st;
  if (a < 0 || b < 0) { perror("bomb: spawn"); }
  if (a > 0) wasmsand_wait(a, &st);
  if (b > 0) wasmsand_wait(b, &st);
  return 0;
}
