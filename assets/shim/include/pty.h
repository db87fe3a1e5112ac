/* wasmsand compat: <pty.h>; no pseudo-terminals in the sandbox (ENOSYS). */
#ifndef WASMSAND_PTY_H
#define WASMSAND_PTY_H
#include <termios.h>
#ifdef __cplusplus
extern "C" {
#endif
struct winsize;
int openpty(int *, int *, char *, const struct termios *, const struct winsize *);
int forkpty(int *, char *, const struct termios *, const struct winsize *);
#ifdef __cplusplus
}
#endif
#endif
