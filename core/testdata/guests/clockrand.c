// Prints what a program sees of the clock and of randomness, and how long
// a one-second sleep took by its own clock (deterministic mode: TestDeterministic).
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void) {
	struct timespec a, b;
	unsigned char r[8];
	clock_gettime(CLOCK_REALTIME, &a);
	getentropy(r, sizeof r);
	sleep(1);
	clock_gettime(CLOCK_REALTIME, &b);
	printf("%lld.%09ld slept %lld ", (long long)a.tv_sec, a.tv_nsec, (long long)(b.tv_sec - a.tv_sec));
	for (int i = 0; i < 8; i++) printf("%02x", r[i]);
	printf("\n");
	return 0;
}
