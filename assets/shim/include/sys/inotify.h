/* wasmsand compat: <sys/inotify.h>; no file change notification (ENOSYS). */
#ifndef WASMSAND_SYS_INOTIFY_H
#define WASMSAND_SYS_INOTIFY_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; };
#define IN_ACCESS 0x001
#define IN_MODIFY 0x002
#define IN_ATTRIB 0x004
#define IN_CLOSE_WRITE 0x008
#define IN_CLOSE_NOWRITE 0x010
#define IN_OPEN 0x020
#define IN_MOVED_FROM 0x040
#define IN_MOVED_TO 0x080
#define IN_CREATE 0x100
#define IN_DELETE 0x200
#define IN_DELETE_SELF 0x400
#define IN_MOVE_SELF 0x800
#define IN_ALL_EVENTS 0xfff
#define IN_NONBLOCK 04000
#define IN_CLOEXEC 02000000
int inotify_init(void);
int inotify_init1(int);
int inotify_add_watch(int, const char *, uint32_t);
int inotify_rm_watch(int, int);
#ifdef __cplusplus
}
#endif
#endif
