/* wasmsand compat: <mntent.h>. The sandbox shows one filesystem: setmntent on a missing
 * /proc/mounts or /etc/mtab yields "wasmsand / wasmsand rw 0 0" (posix.c). */
#ifndef WASMSAND_MNTENT_H
#define WASMSAND_MNTENT_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif
#define MOUNTED "/etc/mtab"
#define MNTTYPE_IGNORE "ignore"
#define MNTTYPE_NFS "nfs"
#define MNTTYPE_SWAP "swap"
#define MNTOPT_DEFAULTS "defaults"
#define MNTOPT_RO "ro"
#define MNTOPT_RW "rw"
#define MNTOPT_SUID "suid"
#define MNTOPT_NOSUID "nosuid"
#define MNTOPT_NOAUTO "noauto"
struct mntent {
  char *mnt_fsname, *mnt_dir, *mnt_type, *mnt_opts;
  int mnt_freq, mnt_passno;
};
FILE *setmntent(const char *, const char *);
int endmntent(FILE *);
struct mntent *getmntent(FILE *);
struct mntent *getmntent_r(FILE *, struct mntent *, char *, int);
int addmntent(FILE *, const struct mntent *);
char *hasmntopt(const struct mntent *, const char *);
#ifdef __cplusplus
}
#endif
#endif
