// SPDX-License-Identifier: GPL-2.0
/*
 * rbt_evbench N: N getppid() system calls in a loop; prints the time per
 * call in ns of CLOCK_MONOTONIC. Under QEMU -icount shift=0 guest time is
 * instructions executed, so with an event enabled on every system call
 * (raw_syscalls:sys_enter, syscalls:sys_enter_getppid) the difference to
 * the run without is the instructions that event costs (bench/events.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	long i, n = argc > 1 ? atol(argv[1]) : 100000;
	double ns;

	if (n <= 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	printf("calls=%ld ns_per_call=%.1f\n", n, ns / n);
	return 0;
}
