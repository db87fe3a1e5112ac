/* Built with wasi/include/wasmsand_cwd.c: starts in $PWD. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    char buf[256];
    printf("cwd %s\n", getcwd(buf, sizeof buf));
    FILE *f = fopen("a.txt", "r");
    if (!f) {
        perror("a.txt");
        return 1;
    }
    printf("a.txt: %s", fgets(buf, sizeof buf, f));
    return 0;
}
