/* wasmsand: setjmp and longjmp over Binaryen's Asyncify, for modules built
 * with this directory's <setjmp.h> and run through
 *   wasm-opt -g -O2 --asyncify --pass-arg=asyncify-ignore-imports
 * WebAssembly cannot jump between frames (wazero has no exception handling
 * that clang-19 emits, RATIONALE.md "perl"), but Asyncify can unwind the whole
 * call stack into memory and rewind it later:
 *  - setjmp unwinds to main (below), which copies the saved frames into a
 *    capture owned by the jmp_buf and rewinds straight back: setjmp returns 0;
 *  - longjmp unwinds to main (its frames are dropped), which rewinds from the
 *    jmp_buf's capture: setjmp returns again, with longjmp's value.
 * The frames above the function that called setjmp have been waiting in calls
 * since then, so their saved locals are still current; that function's own
 * locals come back as they were at setjmp, which C allows (only volatile ones
 * must keep later values, and clang keeps those in memory, which stays).
 *
 * Captures live on a list, deepest first. A jmp_buf is not freed by its
 * owner, so a capture is dropped when the stack shows it is dead: a later
 * setjmp from a shallower frame, a longjmp past it, or the same jmp_buf
 * captured again.
 *
 * Functions here that call Asyncify's own imports are not instrumented by the
 * pass (they are its top and bottom); everything else that can reach them is. */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct asyncify_data {
	char *cur, *end;
};
#define AIMPORT(n) __attribute__((import_module("asyncify"), import_name(n)))
AIMPORT("start_unwind") void asyncify_start_unwind(struct asyncify_data *);
AIMPORT("stop_unwind") void asyncify_stop_unwind(void);
AIMPORT("start_rewind") void asyncify_start_rewind(struct asyncify_data *);
AIMPORT("stop_rewind") void asyncify_stop_rewind(void);

struct capture {
	struct capture *older;
	struct __wasmsand_jmp *env;
	uintptr_t sp; /* C stack pointer at setjmp: deeper frames have lower ones */
	size_t size;
	char frames[];
};

/* The unwind writes every local of every frame from setjmp or longjmp to
 * main; perl at 100 nested evals needs a few hundred KB. Past this, the
 * unwind traps (Asyncify checks the end). */
#define SCRATCH_SIZE (4 << 20)
static char *scratch;
static struct asyncify_data data;

static struct capture *captures; /* deepest first */
enum { IDLE, CAPTURING, JUMPING };
static int phase;           /* why the stack is unwinding or rewinding */
static int rewinding;       /* a rewind towards __wasmsand_setjmp_internal is on */
static struct __wasmsand_jmp *capture_env;
static uintptr_t capture_sp;
static struct capture *jump_to;
static int jump_value;

static _Noreturn void fatal(const char *msg) {
	write(2, "wasmsand: ", 10);
	write(2, msg, strlen(msg));
	write(2, "\n", 1);
	_exit(134);
}

/* (Not through c->env: a dead capture's jmp_buf may be other data by now.) */
static void drop(struct capture **link) {
	struct capture *c = *link;
	*link = c->older;
	free(c);
}

static void start_unwind(void) {
	if (!scratch && !(scratch = malloc(SCRATCH_SIZE)))
		fatal("setjmp: out of memory");
	data.cur = scratch;
	data.end = scratch + SCRATCH_SIZE;
	asyncify_start_unwind(&data);
}

__attribute__((noinline)) int __wasmsand_setjmp_internal(struct __wasmsand_jmp *env, uintptr_t sp) {
	if (rewinding) { /* back from main: the capture is made, or a longjmp came */
		asyncify_stop_rewind();
		rewinding = 0;
		int v = phase == JUMPING ? jump_value : 0;
		phase = IDLE;
		return v;
	}
	/* A capture from a deeper frame is dead: that frame has returned. */
	while (captures && captures->sp < sp)
		drop(&captures);
	for (struct capture **l = &captures; *l; l = &(*l)->older)
		if ((*l)->env == env) {
			drop(l);
			break;
		}
	env->capture = NULL;
	phase = CAPTURING;
	capture_env = env;
	capture_sp = sp;
	start_unwind();
	return 0;
}

void __wasmsand_longjmp(struct __wasmsand_jmp *env, int value) {
	struct capture *c = env->capture;
	struct capture **l = &captures;
	while (*l && *l != c)
		l = &(*l)->older;
	if (!c || !*l || c->env != env) /* (a freed capture's address may be reused) */
		fatal("longjmp to a jmp_buf whose setjmp has returned");
	while (captures != c) /* the frames the jump leaves */
		drop(&captures);
	jump_to = c;
	jump_value = value ? value : 1;
	phase = JUMPING;
	start_unwind();
}

/* The program's main, renamed by the build (perl: miniperlmain.c). */
int __wasmsand_main(int argc, char **argv);

int main(int argc, char **argv) {
	for (;;) {
		int rc = __wasmsand_main(argc, argv);
		if (phase == IDLE)
			return rc;
		asyncify_stop_unwind();
		if (phase == CAPTURING) {
			size_t n = data.cur - scratch;
			struct capture *c = malloc(sizeof *c + n);
			if (!c)
				fatal("setjmp: out of memory");
			memcpy(c->frames, scratch, n);
			c->size = n;
			c->env = capture_env;
			c->sp = capture_sp;
			c->older = captures;
			captures = c;
			capture_env->capture = c;
			/* rewind from scratch, still as the unwind left it */
		} else {
			memcpy(scratch, jump_to->frames, jump_to->size);
			data.cur = scratch + jump_to->size;
			data.end = scratch + SCRATCH_SIZE;
		}
		rewinding = 1;
		asyncify_start_rewind(&data);
	}
}
