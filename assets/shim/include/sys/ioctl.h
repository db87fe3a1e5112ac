/* wasmsand compat: wasi-libc's <sys/ioctl.h> plus the terminal requests programs probe
 * (they fail with ENOTTY: the sandbox has no terminal driver). */
#include_next <sys/ioctl.h>
#ifndef WASMSAND_SYS_IOCTL_H
#define WASMSAND_SYS_IOCTL_H
struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; };
#ifndef TCGETS
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCOUTQ 0x5411
#define TIOCSTI 0x5412
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define TIOCNOTTY 0x5422
#define TIOCGSID 0x5429
#define TIOCGPTN 0x80045430
#define TIOCSPTLCK 0x40045431
#define TIOCCONS 0x541D
#define TIOCINQ FIONREAD
#define TIOCEXCL 0x540C
#define TIOCNXCL 0x540D
#define TIOCMGET 0x5415
#define TIOCMSET 0x5418
#define TIOCLINUX 0x541C
#define TIOCSETD 0x5423
#define TIOCGETD 0x5424
#define TCSBRK 0x5409
#define TCXONC 0x540A
#define TCFLSH 0x540B
#endif
#endif
