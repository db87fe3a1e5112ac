/* hash.h — incremental MD5, SHA-1, SHA-224/256, SHA-384/512 (hash.c) */
#ifndef WASMSAND_NODE_HASH_H
#define WASMSAND_NODE_HASH_H
#include <stddef.h>
#include <stdint.h>

enum { HASH_MD5 = 1, HASH_SHA1, HASH_SHA256, HASH_SHA512 };

struct hash_ctx {
    int alg;
    size_t block, out, fill;
    uint64_t total;
    uint32_t h32[8];
    uint64_t h64[8];
    uint8_t buf[128];
};

int hash_init(struct hash_ctx *c, const char *alg); /* -1: unknown algorithm */
void hash_update(struct hash_ctx *c, const uint8_t *p, size_t n);
void hash_final(struct hash_ctx *c, uint8_t *out); /* c->out bytes */
#endif
