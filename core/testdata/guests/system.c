/* system(3) through wasmsand.spawn: runs `sh -c argv[1]` and reports its status. */
#include <stdio.h>
#include "wasmsand.h"
int main(int argc, char **argv) {
  char *child[] = {"sh", "-c", argv[1], NULL};
  fflush(stdout);
  int pid = wasmsand_spawn(child, NULL, 0, 1, 2);
  if (pid < 0) { perror("spawn"); return 100; }
  int status = -1;
  if (wasmsand_wait(pid, &status) < 0) { perror("wait"); return 101; }
  printf("child status %d\n", status);
  return 0;
}
