/* wasmsand compat: <net/if.h>; no network interfaces in the sandbox. */
#ifndef WASMSAND_NET_IF_H
#define WASMSAND_NET_IF_H
#include <sys/socket.h>
#ifdef __cplusplus
extern "C" {
#endif
#define IF_NAMESIZE 16
#define IFNAMSIZ IF_NAMESIZE
struct if_nameindex { unsigned if_index; char *if_name; };
unsigned if_nametoindex(const char *);
char *if_indextoname(unsigned, char *);
struct if_nameindex *if_nameindex(void);
void if_freenameindex(struct if_nameindex *);
#ifdef __cplusplus
}
#endif
#endif
