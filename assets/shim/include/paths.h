/* wasmsand compat: <paths.h> */
#ifndef _PATHS_H_
#define _PATHS_H_
#define _PATH_DEFPATH "/usr/local/bin:/usr/bin:/bin"
#define _PATH_STDPATH "/usr/local/bin:/usr/bin:/bin"
#define _PATH_BSHELL "/bin/sh"
#define _PATH_CONSOLE "/dev/console"
#define _PATH_DEVNULL "/dev/null"
#define _PATH_KLOG "/proc/kmsg"
#define _PATH_MAILDIR "/var/mail"
#define _PATH_MNTTAB "/etc/fstab"
#define _PATH_MOUNTED "/etc/mtab"
#define _PATH_NOLOGIN "/etc/nologin"
#define _PATH_SHELLS "/etc/shells"
#define _PATH_TTY "/dev/tty"
#define _PATH_UTMP "/var/run/utmp"
#define _PATH_WTMP "/var/log/wtmp"
#define _PATH_DEV "/dev/"
#define _PATH_TMP "/tmp/"
#define _PATH_VARTMP "/var/tmp/"
#endif
