/* wasmsand compat: <grp.h>, read from the sandbox's /etc/group (posix.c). */
#ifndef WASMSAND_GRP_H
#define WASMSAND_GRP_H
#include <sys/types.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif
struct group {
  char *gr_name, *gr_passwd;
  gid_t gr_gid;
  char **gr_mem;
};
struct group *getgrgid(gid_t);
struct group *getgrnam(const char *);
int getgrgid_r(gid_t, struct group *, char *, size_t, struct group **);
int getgrnam_r(const char *, struct group *, char *, size_t, struct group **);
struct group *getgrent(void);
void endgrent(void);
void setgrent(void);
struct group *fgetgrent(FILE *);
int getgrouplist(const char *, gid_t, gid_t *, int *);
int initgroups(const char *, gid_t);
#ifdef __cplusplus
}
#endif
#endif
