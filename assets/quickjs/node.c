/* node.c — wasmsand's `node`: QuickJS with a Node.js layer (compiled into quickjs.wasm).
 *
 * The engine is QuickJS (quickjs.c, quickjs-libc.c: Debian's quickjs). Everything
 * Node-like is JavaScript under lib/, bundled by build.sh into one script and
 * compiled to bytecode (node_lib). This file only starts the engine, gives that
 * script the primitives it cannot write in JavaScript (`native`, below: processes
 * through the sandbox's wasmsand.spawn, poll, UTF-8, randomness, a few file
 * calls quickjs-libc's os module lacks), and hands module resolution and loading
 * to it (node_normalize, node_load). The event loop is the script's.
 *
 * The program is started under the name of the command (node, npm, npx); the
 * script reads it from native.argv0.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wasi/api.h>

#include "cutils.h"
#include "quickjs-libc.h"
#include "wasmsand.h"
#include "hash.h"
#include "zlib.h"

extern const uint8_t node_lib[];
extern const uint32_t node_lib_size;

static JSValue hooks = JS_UNDEFINED; /* {resolve, load, meta}: set by the script */

static JSValue ret_errno(JSContext *ctx, int r) { return JS_NewInt32(ctx, r < 0 ? -errno : r); }

/* evalScript(source, filename): global code, with filename for stack traces. */
static JSValue n_eval_script(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    size_t len;
    const char *src = JS_ToCStringLen(ctx, &len, argv[0]);
    if (!src) return JS_EXCEPTION;
    const char *name = JS_ToCString(ctx, argv[1]);
    if (!name) {
        JS_FreeCString(ctx, src);
        return JS_EXCEPTION;
    }
    JSValue v = JS_Eval(ctx, src, len, name, JS_EVAL_TYPE_GLOBAL);
    JS_FreeCString(ctx, src);
    JS_FreeCString(ctx, name);
    return v;
}

/* runMicrotasks(): runs promise jobs until none is left (process.nextTick's
   queue is drained around it by the script, as Node does). */
static JSValue n_run_microtasks(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    JSContext *c1;
    for (;;) {
        int r = JS_ExecutePendingJob(JS_GetRuntime(ctx), &c1);
        if (r < 0) return JS_EXCEPTION;
        if (r == 0) break;
    }
    return JS_UNDEFINED;
}

static char *pack_strings(JSContext *ctx, JSValueConst arr, uint32_t *outlen) {
    uint32_t n = 0;
    JSValue lv = JS_GetPropertyStr(ctx, arr, "length");
    if (JS_ToUint32(ctx, &n, lv)) return NULL;
    JS_FreeValue(ctx, lv);
    size_t cap = 256, used = 0;
    char *buf = malloc(cap);
    for (uint32_t i = 0; i < n; i++) {
        JSValue e = JS_GetPropertyUint32(ctx, arr, i);
        size_t l;
        const char *s = JS_ToCStringLen(ctx, &l, e);
        JS_FreeValue(ctx, e);
        if (!s) {
            free(buf);
            return NULL;
        }
        if (used + l + 1 > cap) {
            while (used + l + 1 > cap) cap *= 2;
            buf = realloc(buf, cap);
        }
        memcpy(buf + used, s, l);
        buf[used + l] = 0;
        used += l + 1;
        JS_FreeCString(ctx, s);
    }
    *outlen = (uint32_t)used;
    return buf;
}

/* spawn(argv[], env[] | null, cwd, stdin, stdout, stderr) -> pid, or -errno.
   A stdio fd of -1 gives the child no stream. */
static JSValue n_spawn(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    uint32_t alen = 0, elen = 0;
    char *a = pack_strings(ctx, argv[0], &alen), *e = NULL;
    if (!a) return JS_EXCEPTION;
    if (!JS_IsNull(argv[1]) && !JS_IsUndefined(argv[1])) {
        e = pack_strings(ctx, argv[1], &elen);
        if (!e) {
            free(a);
            return JS_EXCEPTION;
        }
    }
    size_t clen = 0;
    const char *cwd = JS_ToCStringLen(ctx, &clen, argv[2]);
    int32_t fd[3];
    for (int i = 0; i < 3; i++) JS_ToInt32(ctx, &fd[i], argv[3 + i]);
    int32_t pid = -1;
    uint32_t r = __wasmsand_spawn(a, alen, e, elen, cwd, (uint32_t)clen, fd[0], fd[1], fd[2], &pid);
    JS_FreeCString(ctx, cwd);
    free(a);
    free(e);
    if (r) return JS_NewInt32(ctx, -(int)r);
    extern int __wasmsand_track_child(int pid);
    __wasmsand_track_child(pid);
    return JS_NewInt32(ctx, pid);
}

/* wait(pid, block) -> exit status (0-255; 128+signal), -EAGAIN while it runs
   (block false), or -errno. */
static JSValue n_wait(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t pid, st = 0;
    JS_ToInt32(ctx, &pid, argv[0]);
    uint32_t r = JS_ToBool(ctx, argv[1]) ? __wasmsand_wait(pid, &st) : __wasmsand_trywait(pid, &st);
    return JS_NewInt32(ctx, r ? -(int)r : st);
}

static JSValue n_kill(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t pid, sig;
    JS_ToInt32(ctx, &pid, argv[0]);
    JS_ToInt32(ctx, &sig, argv[1]);
    return JS_NewInt32(ctx, -(int)__wasmsand_kill(pid, sig));
}

/* poll(Int32Array [fd, events, revents]*, timeout ms) -> number ready, or -errno */
static JSValue n_poll(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    size_t off, len, bpe;
    JSValue ab = JS_GetTypedArrayBuffer(ctx, argv[0], &off, &len, &bpe);
    if (JS_IsException(ab)) return ab;
    size_t size;
    uint8_t *p = JS_GetArrayBuffer(ctx, &size, ab);
    JS_FreeValue(ctx, ab);
    if (!p) return JS_EXCEPTION;
    int32_t *v = (int32_t *)(p + off);
    int n = (int)(len / 12);
    double tmo;
    JS_ToFloat64(ctx, &tmo, argv[1]);
    struct pollfd *pf = calloc(n ? n : 1, sizeof *pf);
    for (int i = 0; i < n; i++) {
        pf[i].fd = v[3 * i];
        pf[i].events = (short)v[3 * i + 1];
    }
    int r = poll(pf, n, tmo < 0 ? -1 : (int)tmo);
    for (int i = 0; i < n; i++) v[3 * i + 2] = r > 0 ? pf[i].revents : 0;
    free(pf);
    return ret_errno(ctx, r);
}

static uint8_t *bytes_of(JSContext *ctx, JSValueConst v, size_t *len) {
    size_t off, blen, bpe;
    JSValue ab = JS_GetTypedArrayBuffer(ctx, v, &off, &blen, &bpe);
    if (JS_IsException(ab)) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        size_t size;
        uint8_t *p = JS_GetArrayBuffer(ctx, &size, v);
        *len = size;
        return p;
    }
    size_t size;
    uint8_t *p = JS_GetArrayBuffer(ctx, &size, ab);
    JS_FreeValue(ctx, ab);
    *len = blen;
    return p ? p + off : NULL;
}

/* utf8Decode(Uint8Array) -> string (invalid sequences become U+FFFD) */
static JSValue n_utf8_decode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    size_t len;
    uint8_t *p = bytes_of(ctx, argv[0], &len);
    if (!p) return len ? JS_EXCEPTION : JS_NewString(ctx, "");
    return JS_NewStringLen(ctx, (const char *)p, len);
}

/* utf8Encode(string) -> ArrayBuffer (lone surrogates become U+FFFD, as in Node) */
static JSValue n_utf8_encode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    size_t len;
    const char *s = JS_ToCStringLen2(ctx, &len, argv[0], 0);
    if (!s) return JS_EXCEPTION;
    /* quickjs writes a lone surrogate as its 3-byte (CESU) form: ED A0..BF xx */
    uint8_t *out = malloc(len ? len : 1);
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)s[i];
        if (c == 0xED && i + 2 < len && ((uint8_t)s[i + 1] & 0xE0) == 0xA0) {
            out[o++] = 0xEF, out[o++] = 0xBF, out[o++] = 0xBD;
            i += 2;
            continue;
        }
        out[o++] = c;
    }
    JS_FreeCString(ctx, s);
    JSValue ab = JS_NewArrayBufferCopy(ctx, out, o);
    free(out);
    return ab;
}

static JSValue n_random_fill(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    size_t len;
    uint8_t *p = bytes_of(ctx, argv[0], &len);
    if (!p) return JS_UNDEFINED;
    for (size_t i = 0; i < len; i += 256) {
        size_t n = len - i < 256 ? len - i : 256;
        if (getentropy(p + i, n) != 0) return ret_errno(ctx, -1);
    }
    return JS_UNDEFINED;
}

/* file calls quickjs-libc's os lacks; each -> 0 or -errno */
static JSValue n_chmod(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    const char *p = JS_ToCString(ctx, argv[0]);
    int32_t mode;
    JS_ToInt32(ctx, &mode, argv[1]);
    int r = p ? chmod(p, (mode_t)mode) : -1;
    JS_FreeCString(ctx, p);
    return ret_errno(ctx, r);
}

static JSValue n_access(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    const char *p = JS_ToCString(ctx, argv[0]);
    int32_t mode;
    JS_ToInt32(ctx, &mode, argv[1]);
    int r = p ? access(p, mode) : -1;
    JS_FreeCString(ctx, p);
    return ret_errno(ctx, r);
}

static JSValue n_truncate(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int64_t size;
    JS_ToInt64(ctx, &size, argv[1]);
    int r;
    if (JS_IsNumber(argv[0]) && argc > 2 && JS_ToBool(ctx, argv[2])) {
        int32_t fd;
        JS_ToInt32(ctx, &fd, argv[0]);
        r = ftruncate(fd, (off_t)size);
    } else {
        const char *p = JS_ToCString(ctx, argv[0]);
        r = p ? truncate(p, (off_t)size) : -1;
        JS_FreeCString(ctx, p);
    }
    return ret_errno(ctx, r);
}

static JSValue n_link(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    const char *a = JS_ToCString(ctx, argv[0]), *b = JS_ToCString(ctx, argv[1]);
    int r = a && b ? link(a, b) : -1;
    JS_FreeCString(ctx, a);
    JS_FreeCString(ctx, b);
    return ret_errno(ctx, r);
}

static JSValue n_fsync(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t fd;
    JS_ToInt32(ctx, &fd, argv[0]);
    return ret_errno(ctx, fsync(fd));
}

static JSValue n_fstat_mode(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t fd;
    struct stat st;
    JS_ToInt32(ctx, &fd, argv[0]);
    if (fstat(fd, &st) != 0) return JS_NewInt32(ctx, -errno);
    return JS_NewInt32(ctx, (int32_t)st.st_mode);
}

/* ids() -> [uid, gid, euid, egid, pid, ppid] */
static JSValue n_ids(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    JSValue a = JS_NewArray(ctx);
    int v[6] = {(int)getuid(), (int)getgid(), (int)geteuid(), (int)getegid(), (int)getpid(), (int)getppid()};
    for (int i = 0; i < 6; i++) JS_SetPropertyUint32(ctx, a, i, JS_NewInt32(ctx, v[i]));
    return a;
}

static JSValue n_strerror(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t e;
    JS_ToInt32(ctx, &e, argv[0]);
    return JS_NewString(ctx, strerror(e));
}

/* promiseState(p) -> [state, result]: 0 pending, 1 fulfilled, 2 rejected; -1 not a promise */
static JSValue n_promise_state(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int st = JS_PromiseState(ctx, (JSValue)argv[0]);
    JSValue a = JS_NewArray(ctx);
    JS_SetPropertyUint32(ctx, a, 0, JS_NewInt32(ctx, st));
    if (st == JS_PROMISE_FULFILLED || st == JS_PROMISE_REJECTED)
        JS_SetPropertyUint32(ctx, a, 1, JS_PromiseResult(ctx, (JSValue)argv[0]));
    return a;
}

/* isError(v): an Error object (also one whose prototype was changed) */
static JSValue n_is_error(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    return JS_NewBool(ctx, JS_IsError(ctx, argv[0]));
}

/* loadModule(base, specifier) -> promise of the module's namespace, once evaluated */
static JSValue n_load_module(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    const char *base = JS_ToCString(ctx, argv[0]);
    const char *name = JS_ToCString(ctx, argv[1]);
    JSValue r = base && name ? JS_LoadModule(ctx, base, name) : JS_EXCEPTION;
    JS_FreeCString(ctx, base);
    JS_FreeCString(ctx, name);
    return r;
}

/* setStackTraceLimit(n): Error.stackTraceLimit (patches/0002) */
extern int js_stack_trace_limit;
static JSValue n_set_stack_trace_limit(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t n;
    double d;
    JS_ToFloat64(ctx, &d, argv[0]);
    n = d != d || d < 0 ? 0 : d > 1000 ? 1000 : (int32_t)d;
    js_stack_trace_limit = n;
    return JS_UNDEFINED;
}

/* Rejections without a handler go to hooks.rejection(promise, reason, handled):
   Node decides after the microtasks whether one stayed unhandled. */
static void node_rejection(JSContext *ctx, JSValueConst promise, JSValueConst reason, JS_BOOL handled,
                           void *opaque) {
    if (JS_IsUndefined(hooks)) return;
    JSValue fn = JS_GetPropertyStr(ctx, hooks, "rejection");
    JSValue args[3] = {(JSValue)promise, (JSValue)reason, JS_NewBool(ctx, handled)};
    JSValue r = JS_Call(ctx, fn, hooks, 3, args);
    JS_FreeValue(ctx, fn);
    if (JS_IsException(r)) JS_FreeValue(ctx, JS_GetException(ctx));
    JS_FreeValue(ctx, r);
}

/* hashes: a hash object is an ArrayBuffer holding a struct hash_ctx.
   hashNew(alg) -> ctx or null; hashUpdate(ctx, bytes); hashDigest(ctx) -> ArrayBuffer */
static JSValue n_hash_new(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    const char *alg = JS_ToCString(ctx, argv[0]);
    if (!alg) return JS_EXCEPTION;
    struct hash_ctx h;
    int r = hash_init(&h, alg);
    JS_FreeCString(ctx, alg);
    if (r < 0) return JS_NULL;
    return JS_NewArrayBufferCopy(ctx, (uint8_t *)&h, sizeof h);
}
static struct hash_ctx *hash_of(JSContext *ctx, JSValueConst v) {
    size_t size;
    uint8_t *p = JS_GetArrayBuffer(ctx, &size, v);
    return p && size == sizeof(struct hash_ctx) ? (struct hash_ctx *)p : NULL;
}
static JSValue n_hash_update(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    struct hash_ctx *h = hash_of(ctx, argv[0]);
    size_t len;
    uint8_t *p = bytes_of(ctx, argv[1], &len);
    if (!h) return JS_ThrowTypeError(ctx, "not a hash");
    if (p) hash_update(h, p, len);
    return JS_UNDEFINED;
}
static JSValue n_hash_digest(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    struct hash_ctx *h = hash_of(ctx, argv[0]);
    if (!h) return JS_ThrowTypeError(ctx, "not a hash");
    uint8_t out[64];
    struct hash_ctx copy = *h; /* digest leaves the running state for copy() */
    hash_final(&copy, out);
    return JS_NewArrayBufferCopy(ctx, out, copy.out);
}

/* zlib(op, bytes, level, windowBits, memLevel, strategy) -> ArrayBuffer, or
   [errorCode, message] when zlib fails. op: 0 deflate, 1 inflate (windowBits
   says zlib, raw or gzip, or 15+32 for either). One shot: node:zlib's streams
   gather their input first. */
static JSValue n_zlib(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int32_t op, level, wbits, memlevel, strategy;
    size_t len;
    uint8_t *in = bytes_of(ctx, argv[1], &len);
    JS_ToInt32(ctx, &op, argv[0]);
    JS_ToInt32(ctx, &level, argv[2]);
    JS_ToInt32(ctx, &wbits, argv[3]);
    JS_ToInt32(ctx, &memlevel, argv[4]);
    JS_ToInt32(ctx, &strategy, argv[5]);
    z_stream z;
    memset(&z, 0, sizeof z);
    int r = op == 0 ? deflateInit2(&z, level, Z_DEFLATED, wbits, memlevel, strategy) : inflateInit2(&z, wbits);
    if (r != Z_OK) goto fail;
    size_t cap = op == 0 ? deflateBound(&z, len) + 64 : (len < 1024 ? 4096 : len * 4), used = 0;
    uint8_t *out = malloc(cap);
    z.next_in = in ? in : (uint8_t *)"";
    z.avail_in = (uInt)len;
    for (;;) {
        if (used == cap) {
            cap *= 2;
            out = realloc(out, cap);
        }
        z.next_out = out + used;
        z.avail_out = (uInt)(cap - used);
        r = op == 0 ? deflate(&z, Z_FINISH) : inflate(&z, Z_NO_FLUSH);
        used = cap - z.avail_out;
        if (r == Z_STREAM_END) break;
        if (r == Z_BUF_ERROR && z.avail_in == 0 && op == 1) { r = Z_BUF_ERROR; break; } /* truncated input */
        if (r != Z_OK && r != Z_BUF_ERROR) break;
    }
    if (op == 1 && r == Z_STREAM_END && z.avail_in > 0 && (wbits & 16 || wbits > 15)) {
        /* concatenated gzip members: go on like gunzip does */
        while (z.avail_in > 0 && r == Z_STREAM_END) {
            if (z.next_in[0] != 0x1f) break;
            inflateReset(&z);
            for (;;) {
                if (used == cap) { cap *= 2; out = realloc(out, cap); }
                z.next_out = out + used;
                z.avail_out = (uInt)(cap - used);
                r = inflate(&z, Z_NO_FLUSH);
                used = cap - z.avail_out;
                if (r == Z_STREAM_END || (r != Z_OK && r != Z_BUF_ERROR) || (r == Z_BUF_ERROR && z.avail_in == 0)) break;
            }
        }
    }
    if (op == 0) deflateEnd(&z); else inflateEnd(&z);
    if (r != Z_STREAM_END) {
        free(out);
        goto fail;
    }
    JSValue ab = JS_NewArrayBufferCopy(ctx, out, used);
    free(out);
    return ab;
fail: {
        JSValue a = JS_NewArray(ctx);
        JS_SetPropertyUint32(ctx, a, 0, JS_NewInt32(ctx, r == Z_BUF_ERROR ? Z_BUF_ERROR : r));
        JS_SetPropertyUint32(ctx, a, 1, JS_NewString(ctx, r == Z_BUF_ERROR ? "unexpected end of file" : z.msg ? z.msg : zError(r)));
        return a;
    }
}

static JSValue n_crc32(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    size_t len;
    uint8_t *p = bytes_of(ctx, argv[0], &len);
    uint32_t init = 0;
    if (argc > 1) JS_ToUint32(ctx, &init, argv[1]);
    return JS_NewUint32(ctx, (uint32_t)crc32(init, p ? p : (uint8_t *)"", (uInt)len));
}

static JSValue n_set_module_hooks(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    JS_FreeValue(ctx, hooks);
    hooks = JS_DupValue(ctx, argv[0]);
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry native_funcs[] = {
    JS_CFUNC_DEF("evalScript", 2, n_eval_script),
    JS_CFUNC_DEF("runMicrotasks", 0, n_run_microtasks),
    JS_CFUNC_DEF("spawn", 6, n_spawn),
    JS_CFUNC_DEF("wait", 2, n_wait),
    JS_CFUNC_DEF("kill", 2, n_kill),
    JS_CFUNC_DEF("poll", 2, n_poll),
    JS_CFUNC_DEF("utf8Decode", 1, n_utf8_decode),
    JS_CFUNC_DEF("utf8Encode", 1, n_utf8_encode),
    JS_CFUNC_DEF("randomFill", 1, n_random_fill),
    JS_CFUNC_DEF("chmod", 2, n_chmod),
    JS_CFUNC_DEF("access", 2, n_access),
    JS_CFUNC_DEF("truncate", 3, n_truncate),
    JS_CFUNC_DEF("link", 2, n_link),
    JS_CFUNC_DEF("fsync", 1, n_fsync),
    JS_CFUNC_DEF("fstatMode", 1, n_fstat_mode),
    JS_CFUNC_DEF("ids", 0, n_ids),
    JS_CFUNC_DEF("strerror", 1, n_strerror),
    JS_CFUNC_DEF("promiseState", 1, n_promise_state),
    JS_CFUNC_DEF("isError", 1, n_is_error),
    JS_CFUNC_DEF("loadModule", 2, n_load_module),
    JS_CFUNC_DEF("setStackTraceLimit", 1, n_set_stack_trace_limit),
    JS_CFUNC_DEF("hashNew", 1, n_hash_new),
    JS_CFUNC_DEF("hashUpdate", 2, n_hash_update),
    JS_CFUNC_DEF("hashDigest", 1, n_hash_digest),
    JS_CFUNC_DEF("zlib", 6, n_zlib),
    JS_CFUNC_DEF("crc32", 2, n_crc32),
    JS_CFUNC_DEF("setModuleHooks", 1, n_set_module_hooks),
};

/* Module names: the script's hooks.resolve(specifier, referrer) gives the
   canonical name (an absolute path, or node:NAME); hooks.load(name) its ES
   module source; hooks.meta(import.meta, name) fills import.meta. */
static char *node_normalize(JSContext *ctx, const char *base, const char *name, void *opaque) {
    if (!strncmp(name, "qjs:", 4) && JS_IsUndefined(hooks)) return js_strdup(ctx, name);
    if (JS_IsUndefined(hooks)) {
        JS_ThrowReferenceError(ctx, "module loader not ready");
        return NULL;
    }
    JSValue fn = JS_GetPropertyStr(ctx, hooks, "resolve");
    JSValue args[2] = {JS_NewString(ctx, name), JS_NewString(ctx, base)};
    JSValue r = JS_Call(ctx, fn, hooks, 2, args);
    JS_FreeValue(ctx, fn);
    JS_FreeValue(ctx, args[0]);
    JS_FreeValue(ctx, args[1]);
    if (JS_IsException(r)) return NULL;
    const char *s = JS_ToCString(ctx, r);
    JS_FreeValue(ctx, r);
    if (!s) return NULL;
    char *out = js_strdup(ctx, s);
    JS_FreeCString(ctx, s);
    return out;
}

static JSModuleDef *node_load(JSContext *ctx, const char *name, void *opaque) {
    JSValue fn = JS_GetPropertyStr(ctx, hooks, "load");
    JSValue arg = JS_NewString(ctx, name);
    JSValue src = JS_Call(ctx, fn, hooks, 1, &arg);
    JS_FreeValue(ctx, fn);
    if (JS_IsException(src)) {
        JS_FreeValue(ctx, arg);
        return NULL;
    }
    size_t len;
    const char *s = JS_ToCStringLen(ctx, &len, src);
    JS_FreeValue(ctx, src);
    if (!s) {
        JS_FreeValue(ctx, arg);
        return NULL;
    }
    JSValue func = JS_Eval(ctx, s, len, name, JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
    JS_FreeCString(ctx, s);
    if (JS_IsException(func)) {
        JS_FreeValue(ctx, arg);
        return NULL;
    }
    JSModuleDef *m = JS_VALUE_GET_PTR(func);
    JSValue meta = JS_GetImportMeta(ctx, m);
    fn = JS_GetPropertyStr(ctx, hooks, "meta");
    JSValue margs[2] = {meta, arg};
    JSValue r = JS_Call(ctx, fn, hooks, 2, margs);
    JS_FreeValue(ctx, fn);
    JS_FreeValue(ctx, meta);
    JS_FreeValue(ctx, arg);
    JS_FreeValue(ctx, func);
    if (JS_IsException(r)) return NULL;
    JS_FreeValue(ctx, r);
    return m;
}

static JSValue argv_array(JSContext *ctx, int argc, char **argv) {
    JSValue a = JS_NewArray(ctx);
    for (int i = 0; i < argc; i++) JS_SetPropertyUint32(ctx, a, i, JS_NewString(ctx, argv[i]));
    return a;
}

static void fatal(JSContext *ctx) {
    js_std_dump_error(ctx);
    exit(70);
}

int main(int argc, char **argv) {
    /* as Node: a write to a pipe whose reader is gone fails with EPIPE (an
       'error' on the stream) instead of ending the process by SIGPIPE */
    signal(SIGPIPE, SIG_IGN);
    JSRuntime *rt = JS_NewRuntime();
    if (!rt) return 70;
    /* The limit QuickJS checks is on the shadow stack (linear memory, 8 MiB
       from the shim's link flags), where a JS call takes little; the engine's
       own stack takes far more per call. 3 MiB stops runaway recursion with
       Node's RangeError at a depth like V8's (about 10,000 plain calls),
       well before either stack runs out. */
    JS_SetMaxStackSize(rt, 3 << 20);
    js_std_init_handlers(rt);
    JSContext *ctx = JS_NewContext(rt);
    if (!ctx) return 70;
    js_init_module_std(ctx, "qjs:std");
    js_init_module_os(ctx, "qjs:os");
    JS_SetModuleLoaderFunc(rt, node_normalize, node_load, NULL);
    JS_SetHostPromiseRejectionTracker(rt, node_rejection, NULL);

    /* the std and os namespaces, for the script */
    const char *grab = "import * as s from 'qjs:std'; import * as o from 'qjs:os'; globalThis.__qjs = [s, o];";
    JSValue v = JS_Eval(ctx, grab, strlen(grab), "<qjs>", JS_EVAL_TYPE_MODULE);
    if (JS_IsException(v)) fatal(ctx);
    JS_FreeValue(ctx, v);
    JSContext *c1;
    while (JS_ExecutePendingJob(rt, &c1) > 0) {
    }
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue qjs = JS_GetPropertyStr(ctx, global, "__qjs");
    JSAtom at = JS_NewAtom(ctx, "__qjs");
    JS_DeleteProperty(ctx, global, at, 0);
    JS_FreeAtom(ctx, at);

    JSValue native = JS_NewObject(ctx);
    JS_SetPropertyFunctionList(ctx, native, native_funcs, countof(native_funcs));
    JS_SetPropertyStr(ctx, native, "std", JS_GetPropertyUint32(ctx, qjs, 0));
    JS_SetPropertyStr(ctx, native, "os", JS_GetPropertyUint32(ctx, qjs, 1));
    JS_SetPropertyStr(ctx, native, "argv", argv_array(ctx, argc, argv));
    JS_FreeValue(ctx, qjs);

    /* lib: a script whose value is function (native) { ... } */
    JSValue fobj = JS_ReadObject(ctx, node_lib, node_lib_size, JS_READ_OBJ_BYTECODE);
    if (JS_IsException(fobj)) fatal(ctx);
    JSValue boot = JS_EvalFunction(ctx, fobj);
    if (JS_IsException(boot)) fatal(ctx);
    /* the script runs the program, its event loop and exits itself */
    JSValue r = JS_Call(ctx, boot, global, 1, &native);
    if (JS_IsException(r)) fatal(ctx);
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, boot);
    JS_FreeValue(ctx, native);
    JS_FreeValue(ctx, global);
    return 0;
}
