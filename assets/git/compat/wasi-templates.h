/* wasmsand: git's default templates, built in (compat/wasi-templates.c). */
#ifndef GIT_WASI_TEMPLATES_H
#define GIT_WASI_TEMPLATES_H
struct git_wasi_template {
	const char *path;	/* relative; a directory ends with '/' */
	int executable;
	const unsigned char *data;
	unsigned long len;
};
extern const struct git_wasi_template git_wasi_templates[];
#endif
