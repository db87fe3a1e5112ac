/* main-wasi.c — wasi-libc calls main(argc, argv): GNU make's main also takes envp
 * (compiled as make_main, build.sh), which is our environ. */
extern char **environ;
int make_main(int argc, char **argv, char **envp);
int main(int argc, char **argv) { return make_main(argc, argv, environ); }
