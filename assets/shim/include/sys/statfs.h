/* wasmsand compat: <sys/statfs.h> (Linux layout); statfs reports the sandbox as one
 * filesystem ("wasmsand", posix.c). */
#ifndef WASMSAND_SYS_STATFS_H
#define WASMSAND_SYS_STATFS_H
#include <sys/types.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef struct { int __val[2]; } fsid_t;
struct statfs {
  unsigned long f_type, f_bsize;
  unsigned long long f_blocks, f_bfree, f_bavail, f_files, f_ffree;
  fsid_t f_fsid;
  unsigned long f_namelen, f_frsize, f_flags, f_spare[4];
};
int statfs(const char *, struct statfs *);
int fstatfs(int, struct statfs *);
#define WASMSAND_FS_MAGIC 0x77736e64
#ifdef __cplusplus
}
#endif
#endif
