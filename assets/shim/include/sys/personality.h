/* wasmsand compat: <sys/personality.h>; personality() reports PER_LINUX and changes nothing. */
#ifndef WASMSAND_SYS_PERSONALITY_H
#define WASMSAND_SYS_PERSONALITY_H
#define PER_LINUX 0
#define PER_LINUX32 8
int personality(unsigned long);
#endif
