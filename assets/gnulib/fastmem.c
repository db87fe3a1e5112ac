/* fastmem.c — memory and string routines for the GNU assets, linked ahead of wasi-libc's.
 *
 * Debian's wasi-libc is built for the WebAssembly MVP: memchr, strlen and memcmp go a
 * word at a time and memcpy/memset are loops. GNU sed, grep, sort... spend much of their
 * time in them (getdelim is memchr + memcpy per line), and under wazero that was half of
 * `sed s/a/b/ 5MB`. Here: 16 bytes at a time with SIMD (v128) and memcpy/memmove/memset
 * as the bulk-memory instructions (memory.copy / memory.fill). Every engine wasmsand
 * runs on has both (wazero, V8, SpiderMonkey, JavaScriptCore). Only functions wasi-libc
 * has (and declares) are replaced: configure would otherwise find an undeclared one.
 *
 * The unbounded scan (strlen) reads aligned 16-byte blocks, which may extend past
 * the terminator but never past the end of linear memory (its size is a multiple of
 * 64 KiB); bounded ones never read past n. Built with -msimd128 -mbulk-memory by gnu.sh. */
#include <stddef.h>
#include <stdint.h>
#include <wasm_simd128.h>

void *memchr(const void *src, int c, size_t n) {
    const unsigned char *s = src;
    unsigned char ch = (unsigned char)c;
    for (; n && ((uintptr_t)s & 15); s++, n--)
        if (*s == ch) return (void *)s;
    v128_t vc = wasm_i8x16_splat((int8_t)ch);
    for (; n >= 16; s += 16, n -= 16) {
        uint32_t m = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(s), vc));
        if (m) return (void *)(s + __builtin_ctz(m));
    }
    for (; n; s++, n--)
        if (*s == ch) return (void *)s;
    return NULL;
}

void *memrchr(const void *src, int c, size_t n) {
    const unsigned char *s = src, *e = s + n;
    unsigned char ch = (unsigned char)c;
    for (; e > s && ((uintptr_t)e & 15); )
        if (*--e == ch) return (void *)e;
    v128_t vc = wasm_i8x16_splat((int8_t)ch);
    for (; e - s >= 16; e -= 16) {
        uint32_t m = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(e - 16), vc));
        if (m) return (void *)(e - 16 + (31 - __builtin_clz(m)));
    }
    while (e > s)
        if (*--e == ch) return (void *)e;
    return NULL;
}

size_t strlen(const char *str) {
    const unsigned char *s = (const unsigned char *)str;
    for (; (uintptr_t)s & 15; s++)
        if (!*s) return (size_t)(s - (const unsigned char *)str);
    v128_t z = wasm_i8x16_splat(0);
    for (;; s += 16) {
        uint32_t m = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(s), z));
        if (m) return (size_t)(s + __builtin_ctz(m) - (const unsigned char *)str);
    }
}

/* Two strings at once cannot both be aligned: unaligned 16-byte loads, which may read past
 * the terminators but are kept inside linear memory (byte loop in the last 16 bytes). */
int strcmp(const char *l, const char *r) {
    const unsigned char *a = (const unsigned char *)l, *b = (const unsigned char *)r;
    uintptr_t end = (uintptr_t)__builtin_wasm_memory_size(0) * 65536 - 16;
    v128_t z = wasm_i8x16_splat(0);
    for (; (uintptr_t)a <= end && (uintptr_t)b <= end; a += 16, b += 16) {
        v128_t va = wasm_v128_load(a), vb = wasm_v128_load(b);
        uint32_t stop = wasm_i8x16_bitmask(wasm_v128_or(wasm_i8x16_ne(va, vb), wasm_i8x16_eq(va, z)));
        if (stop) {
            int i = __builtin_ctz(stop);
            return a[i] - b[i];
        }
    }
    for (; *a == *b && *a; a++, b++)
        ;
    return *a - *b;
}

/* wasi-libc's locales (C, C.UTF-8) collate bytewise: its strcoll is strcmp. sort, ls,
 * uniq, comm and join collate through it in the sandbox's C.UTF-8 locale. */
int strcoll(const char *l, const char *r) { return strcmp(l, r); }

int memcmp(const void *va, const void *vb, size_t n) {
    const unsigned char *a = va, *b = vb;
    for (; n >= 16; a += 16, b += 16, n -= 16) {
        uint32_t m = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(a), wasm_v128_load(b))) ^ 0xffff;
        if (m) {
            unsigned i = __builtin_ctz(m);
            return a[i] - b[i];
        }
    }
    for (; n; a++, b++, n--)
        if (*a != *b) return *a - *b;
    return 0;
}

/* Short copies stay loops: memory.copy / memory.fill cost a call into the engine. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    if (n < 32) {
        unsigned char *d = dst;
        const unsigned char *s = src;
        while (n--) *d++ = *s++;
        return dst;
    }
    __builtin_memcpy(dst, src, n); /* memory.copy */
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    __builtin_memmove(dst, src, n); /* memory.copy handles overlap */
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    if (n < 32) {
        unsigned char *d = dst;
        while (n--) *d++ = (unsigned char)c;
        return dst;
    }
    __builtin_memset(dst, c, n); /* memory.fill */
    return dst;
}
