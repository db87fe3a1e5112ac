/* wasmsand: <setjmp.h> for programs that need setjmp/longjmp to work (perl's
 * die and eval are longjmps), over Binaryen's Asyncify instead of the shim's
 * stub (which aborts in longjmp). Found before the shim's header (-I); the
 * program's module is then run through `wasm-opt --asyncify` (see sjlj.c). */
#ifndef WASMSAND_ASYNCIFY_SETJMP_H
#define WASMSAND_ASYNCIFY_SETJMP_H
#define WASMSAND_SETJMP_H /* the shim's <setjmp.h> stays out */
#ifdef __cplusplus
extern "C" {
#endif
struct __wasmsand_jmp {
	void *capture; /* the unwound frames, kept by sjlj.c while the buffer is live */
};
typedef struct __wasmsand_jmp jmp_buf[1];
typedef struct __wasmsand_jmp sigjmp_buf[1];
__attribute__((returns_twice)) int __wasmsand_setjmp(struct __wasmsand_jmp *);
void __wasmsand_longjmp(struct __wasmsand_jmp *, int);
#define setjmp(b) __wasmsand_setjmp(b)
#define _setjmp(b) __wasmsand_setjmp(b)
#define sigsetjmp(b, s) __wasmsand_setjmp(b)
/* not _Noreturn: it returns into the unwind that Asyncify's code does */
#define longjmp(b, v) (__wasmsand_longjmp((b), (v)), __builtin_unreachable())
#define _longjmp(b, v) longjmp(b, v)
#define siglongjmp(b, v) longjmp(b, v)
#ifdef __cplusplus
}
#endif
#endif
