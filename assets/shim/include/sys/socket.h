/* wasmsand compat: wasi-libc's <sys/socket.h> plus the calls WASI lacks; they fail with
 * ENOSYS (the sandbox's network goes through the host, not BSD sockets). */
#include_next <sys/socket.h>
#ifndef WASMSAND_SYS_SOCKET_H
#define WASMSAND_SYS_SOCKET_H
#ifdef __cplusplus
extern "C" {
#endif
#ifndef SO_REUSEADDR
#define SO_DEBUG 1
#define SO_REUSEADDR 2
#define SO_ERROR 4
#define SO_DONTROUTE 5
#define SO_BROADCAST 6
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_KEEPALIVE 9
#define SO_OOBINLINE 10
#define SO_LINGER 13
#define SO_REUSEPORT 15
#define SO_RCVTIMEO 20
#define SO_SNDTIMEO 21
#endif
int socket(int, int, int);
int socketpair(int, int, int, int[2]);
int bind(int, const struct sockaddr *, socklen_t);
int connect(int, const struct sockaddr *, socklen_t);
int listen(int, int);
int getsockname(int, struct sockaddr *__restrict, socklen_t *__restrict);
int getpeername(int, struct sockaddr *__restrict, socklen_t *__restrict);
ssize_t sendto(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
ssize_t recvfrom(int, void *__restrict, size_t, int, struct sockaddr *__restrict, socklen_t *__restrict);
ssize_t sendmsg(int, const struct msghdr *, int);
ssize_t recvmsg(int, struct msghdr *, int);
int setsockopt(int, int, int, const void *, socklen_t);
#ifdef __cplusplus
}
#endif
#endif
