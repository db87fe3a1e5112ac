/* yes: must stop when its reader goes away (EPIPE). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    for (;;) {
        if (fputs("y\n", stdout) == EOF || ferror(stdout)) {
            fprintf(stderr, "yes: %s\n", strerror(errno));
            return 1;
        }
    }
}
