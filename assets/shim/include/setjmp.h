/* wasmsand compat: <setjmp.h>. WebAssembly without the exception-handling proposal
 * (wazero v1.12 has none) cannot unwind the stack: setjmp returns 0 and longjmp ends
 * the program with a message and status 134 (posix.c). Ported programs must not rely
 * on longjmp for control flow; see assets/README.md. */
#ifndef WASMSAND_SETJMP_H
#define WASMSAND_SETJMP_H
#ifdef __cplusplus
extern "C" {
#endif
typedef long jmp_buf[8];
typedef long sigjmp_buf[9];
#define setjmp(b) ((void)(b), 0)
#define _setjmp(b) ((void)(b), 0)
#define sigsetjmp(b, s) ((void)(b), (void)(s), 0)
_Noreturn void longjmp(jmp_buf, int);
_Noreturn void _longjmp(jmp_buf, int);
_Noreturn void siglongjmp(sigjmp_buf, int);
#ifdef __cplusplus
}
#endif
#endif
