#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    printf("exiting with %s\n", argc > 1 ? argv[1] : "0");
    return argc > 1 ? atoi(argv[1]) : 0;
}
