/* isatty: prints whether fds 0, 1 and 2 are terminals. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
  printf("%d %d %d\n", isatty(0), isatty(1), isatty(2));
  return 0;
}
