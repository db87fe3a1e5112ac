# wasmsand: setjmp's entry point, in assembly because C cannot read or set
# __stack_pointer. Asyncify saves this function's locals when it unwinds
# through it, so local 1 (the C stack pointer at setjmp) comes back on every
# return from setjmp, the first and each one by longjmp, and is put back.
	.globaltype __stack_pointer, i32
	.functype __wasmsand_setjmp_internal (i32, i32) -> (i32)

	.section .text.__wasmsand_setjmp,"",@
	.globl __wasmsand_setjmp
	.type __wasmsand_setjmp,@function
__wasmsand_setjmp:
	.functype __wasmsand_setjmp (i32) -> (i32)
	.local i32, i32
	global.get __stack_pointer
	local.set 1
	local.get 0
	local.get 1
	call __wasmsand_setjmp_internal
	local.set 2
	local.get 1
	global.set __stack_pointer
	local.get 2
	end_function
