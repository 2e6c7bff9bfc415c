// SPDX-License-Identifier: GPL-2.0
/*
 * rbt_evbench N [getppid|getcwd]: N system calls in a loop; prints the
 * time per call in ns of CLOCK_MONOTONIC. Under QEMU -icount shift=0
 * guest time is instructions executed, so with an event enabled that
 * each call fires the difference to the run without is the instructions
 * that event costs (bench/events.sh). getppid() fires the syscall events
 * (raw_syscalls:sys_enter, syscalls:sys_enter_getppid); getcwd() also
 * one kmem:kmem_cache_alloc and one kmem:kmem_cache_free (__getname()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	long i, n = argc > 1 ? atol(argv[1]) : 100000;
	int cwd = argc > 2 && !strcmp(argv[2], "getcwd");
	char buf[256];
	double ns;

	if (n <= 0 || (argc > 2 && !cwd && strcmp(argv[2], "getppid")))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (cwd)
		for (i = 0; i < n; i++)
			syscall(SYS_getcwd, buf, sizeof(buf));
	else
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	printf("calls=%ld ns_per_call=%.1f\n", n, ns / n);
	return 0;
}
