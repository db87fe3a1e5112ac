//go:build cgo

package main

// The daemon's fast client. Starting this 20 MB Go program costs ~20 ms here
// before main runs (the runtime's own set-up grows with the binary, and every
// page it touches is a fault), more than a whole `cat` in a warm daemon. A C
// constructor runs before any of it: when daemonWanted would say so, `run`
// and `run-wasm` connect to a daemon of the pool already listening and speak
// daemon.go's protocol from C, exiting with the run's status, so Go never
// starts. When no daemon takes the request it returns, and Go's client goes
// on (daemon.go).

/*
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

struct wsbuf { unsigned char *p; size_t n, cap; };

static int wsput(struct wsbuf *b, const void *p, size_t n) {
	if (b->n + n > b->cap) {
		size_t cap = (b->n + n) * 2;
		unsigned char *q = realloc(b->p, cap);
		if (!q) return -1;
		b->p = q, b->cap = cap;
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
	return 0;
}

static int wsput32(struct wsbuf *b, uint32_t v) {
	unsigned char le[4] = {v, v >> 8, v >> 16, v >> 24};
	return wsput(b, le, 4);
}

static int wsputstr(struct wsbuf *b, const char *s) {
	size_t n = strlen(s);
	return wsput32(b, (uint32_t)n) || wsput(b, s, n);
}

static int wswriteall(int fd, const void *p, size_t n, int sock) {
	const char *c = p;
	while (n > 0) {
		ssize_t w = sock ? send(fd, c, n, MSG_NOSIGNAL) : write(fd, c, n);
		if (w < 0 && errno == EINTR) continue;
		if (w <= 0) return -1;
		c += w, n -= (size_t)w;
	}
	return 0;
}

static int wsreadall(int fd, void *p, size_t n) {
	char *c = p;
	while (n > 0) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR) continue;
		if (r <= 0) return -1;
		c += r, n -= (size_t)r;
	}
	return 0;
}

static int wsframe(int fd, char kind, const void *p, uint32_t n) {
	unsigned char h[5] = {kind, n, n >> 8, n >> 16, n >> 24};
	return wswriteall(fd, h, 5, 1) || wswriteall(fd, p, n, 1);
}

// wssocket: daemonSocket's path for a slot (daemon.go), or -1 when there is none
// to try.
static int wssocket(char *out, size_t cap, int slot) {
	char suffix[16] = "";
	if (slot > 0) snprintf(suffix, sizeof suffix, "-%d", slot);
	const char *p = getenv("WASMSAND_DAEMON_SOCKET"), *base = "d";
	char dir[PATH_MAX];
	if (p && *p) {
		const char *slash = strrchr(p, '/');
		if (!slash) {
			snprintf(dir, sizeof dir, ".");
			base = p;
		} else {
			if (slash - p >= (long)sizeof dir) return -1;
			memcpy(dir, p, slash - p);
			dir[slash - p] = 0;
			if (slash == p) snprintf(dir, sizeof dir, "/");
			base = slash + 1;
		}
	} else {
		const char *tmp = getenv("TMPDIR");
		if (!tmp || !*tmp) tmp = "/tmp";
		if (snprintf(dir, sizeof dir, "%s/wasmsand-%u", tmp, (unsigned)getuid()) >= (int)sizeof dir) return -1;
	}
	struct stat st, xs;
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || (st.st_mode & 0777) != 0700 || st.st_uid != getuid()) return -1;
	if (stat("/proc/self/exe", &xs)) return -1;
	return snprintf(out, cap, "%s/%s-%llx-%llx-%llx%s.sock", dir, base, (unsigned long long)xs.st_ino,
		(unsigned long long)xs.st_size, (unsigned long long)xs.st_mtime, suffix) < (int)cap ? 0 : -1;
}

// wsconnect: a daemon of the pool that took the request (its header sent), or -1.
static int wsconnect(const unsigned char *h, size_t n) {
	for (int slot = 0; slot < 64; slot++) {
		struct sockaddr_un a = {.sun_family = AF_UNIX};
		if (wssocket(a.sun_path, sizeof a.sun_path, slot)) return -1;
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) return -1;
		unsigned char ans[5];
		if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
			close(fd);
			return -1; // (none listening there: Go's client takes over)
		}
		wsframe(fd, 'h', h, (uint32_t)n); // (on failure an answer may still wait)
		if (wsreadall(fd, ans, 5)) {
			close(fd);
			return -1;
		}
		if (ans[0] == 'a') return fd;
		close(fd);
		if (ans[0] != 'b') return -1;
	}
	return -1;
}

__attribute__((constructor)) static void wasmsand_fastclient(int argc, char **argv, char **envp) {
	const char *d = getenv("WASMSAND_DAEMON");
	if (argc < 2 || !argv || (strcmp(argv[1], "run") && strcmp(argv[1], "run-wasm"))) return;
	if (d && !strcmp(d, "0")) return;
	if ((!d || strcmp(d, "1")) && (isatty(0) || isatty(1) || isatty(2))) return;
	struct wsbuf h = {0};
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
	int bad = wsput32(&h, (uint32_t)(argc - 1));
	for (int i = 1; i < argc; i++) bad = bad || wsputstr(&h, argv[i]);
	bad = bad || wsputstr(&h, cwd);
	uint32_t nenv = 0;
	for (char **e = envp; e && *e; e++) nenv++;
	bad = bad || wsput32(&h, nenv);
	for (char **e = envp; e && *e; e++) bad = bad || wsputstr(&h, *e);
	// stdin is /dev/null: the run gets none (daemon.go's NullStdin)
	struct stat in, dn;
	unsigned char null = !fstat(0, &in) && S_ISCHR(in.st_mode) && !stat("/dev/null", &dn) &&
		in.st_dev == dn.st_dev && in.st_ino == dn.st_ino;
	bad = bad || wsput(&h, &null, 1);
	int fd = bad ? -1 : wsconnect(h.p, h.n);
	free(h.p);
	if (fd < 0) return; // (no daemon took it: Go's client runs it instead)
	static unsigned char buf[64 << 10];
	struct pollfd pf[2] = {{.fd = fd, .events = POLLIN}, {.fd = 0, .events = POLLIN}};
	int npf = 2;
	unsigned char *payload = NULL;
	size_t pcap = 0;
	for (;;) {
		if (poll(pf, npf, -1) < 0) {
			if (errno == EINTR) continue;
			break;
		}
		if (npf == 2 && pf[1].revents) {
			ssize_t n = read(0, buf, sizeof buf);
			if (n > 0) {
				if (wsframe(fd, 'i', buf, (uint32_t)n)) npf = 1;
			} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
				wsframe(fd, 'I', NULL, 0); // the end of stdin (or no stdin)
				npf = 1;
			}
		}
		if (!pf[0].revents) continue;
		unsigned char fh[5];
		if (wsreadall(fd, fh, 5)) break;
		uint32_t n = fh[1] | fh[2] << 8 | fh[3] << 16 | (uint32_t)fh[4] << 24;
		if (n > (64u << 20)) break;
		if (n > pcap) {
			free(payload);
			pcap = n;
			payload = malloc(pcap);
			if (!payload) break;
		}
		if (wsreadall(fd, payload, n)) break;
		switch (fh[0]) {
		case 'o': wswriteall(1, payload, n, 0); break;
		case 'e': wswriteall(2, payload, n, 0); break;
		case 'x':
			if (n == 4) _exit((int32_t)(payload[0] | payload[1] << 8 | payload[2] << 16 | (uint32_t)payload[3] << 24));
		}
	}
	static const char msg[] = "wasmsand: the daemon went away\n";
	wswriteall(2, msg, sizeof msg - 1, 0);
	_exit(1);
}
*/
import "C"

// fastClient: this build has the C client.
const fastClient = true
