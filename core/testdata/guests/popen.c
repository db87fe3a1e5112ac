/* popen(3) by hand: runs argv[1..] as a child writing into a pipe, reads the pipe
 * to EOF, waits, and prints what came through. EOF needs every reference to the
 * write end gone: ours (closed right after spawning) and the child's. */
#include <stdio.h>
#include <unistd.h>
#include "wasmsand.h"
int main(int argc, char **argv) {
  int fds[2];
  if (wasmsand_pipe(fds) < 0) { perror("pipe"); return 100; }
  int pid = wasmsand_spawn(argv + 1, NULL, 0, fds[1], 2);
  if (pid < 0) { perror("spawn"); return 101; }
  close(fds[1]);
  char buf[4096];
  long total = 0;
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) total += n;
  int status = -1;
  if (wasmsand_wait(pid, &status) < 0) { perror("wait"); return 102; }
  printf("read %ld bytes, child status %d\n", total, status);
  return 0;
}
