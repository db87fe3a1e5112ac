/*
 * wasmsand: git-sh-i18n--envsubst (git-sh-i18n's eval_gettext, used by git-bisect,
 * git-submodule...) as the builtin "git sh-i18n--envsubst" (git.c), since the sandbox
 * runs git's helpers as "git <name>".  Its own cmd_main, under another name.
 */
#define cmd_main wasi_envsubst_main
#include "../sh-i18n--envsubst.c"
#undef cmd_main

int cmd_sh_i18n__envsubst(int argc, const char **argv, const char *prefix)
{
	(void)prefix;
	return wasi_envsubst_main(argc, argv);
}
