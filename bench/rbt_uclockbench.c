// SPDX-License-Identifier: GPL-2.0
/*
 * rbt_uclockbench: the cost of one read of rbtrace's latch clock from
 * user space (rbtrace_clock_read() over trace_clock_page), against
 * clock_gettime(CLOCK_MONOTONIC) (the vDSO, where the clocksource allows
 * it; else a system call) and against a write() of a 10-byte marker to
 * rbtrace's and to ftrace's trace_marker: what a stamp costs without the
 * page.
 *
 *   rbt_uclockbench RBT_DIR FTRACE_DIR N
 *
 * One line per operation, key=value: op, n, ns (per operation, from
 * CLOCK_MONOTONIC around N of them: guest instructions under QEMU
 * -icount shift=0), then the clocksource the vDSO depends on.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>
#include <rbtrace/clock_page.h>

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void report(const char *op, long n, __u64 t0, __u64 t1)
{
	printf("op=%s n=%ld ns=%.1f\n", op, n, (double)(t1 - t0) / n);
}

/* DIR/NAME opened with FLAGS, or the program ends. */
static int open_in(const char *dir, const char *name, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, flags);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

static void bench_user(const char *dir, long n)
{
	const struct rbtrace_clock_page *p;
	int fd = open_in(dir, "trace_clock_page", O_RDONLY);
	__u64 t0;
	long i;

	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED || !rbtrace_clock_usable(p)) {
		fprintf(stderr, "trace_clock_page: cannot map or read it\n");
		exit(1);
	}
	t0 = now_ns();
	/* Not dropped: the read's LFENCE; RDTSC is a volatile asm. */
	for (i = 0; i < n; i++)
		(void)rbtrace_clock_read(p);
	report("user_read", n, t0, now_ns());
	munmap((void *)p, 4096);
}

static void bench_mono(long n)
{
	struct timespec ts;
	__u64 t0;
	long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	report("clock_gettime_mono", n, t0, now_ns());
}

static void bench_marker(const char *op, const char *dir, long n)
{
	static const char msg[10] = "uclkbench\n";
	int fd = open_in(dir, "trace_marker", O_WRONLY);
	__u64 t0;
	long i;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (write(fd, msg, sizeof(msg)) != sizeof(msg)) {
			perror("trace_marker");
			exit(1);
		}
	report(op, n, t0, now_ns());
	close(fd);
}

int main(int argc, char **argv)
{
	char cs[64] = "unknown";
	long n;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: %s RBT_DIR FTRACE_DIR N\n", argv[0]);
		return 2;
	}
	n = atol(argv[3]);
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (f) {
		if (fscanf(f, "%63s", cs) != 1)
			snprintf(cs, sizeof(cs), "unknown");
		fclose(f);
	}
	bench_user(argv[1], n);
	bench_mono(n);
	/* A write is a system call and an event: a tenth as many. */
	bench_marker("marker_rbtrace", argv[1], n / 10);
	bench_marker("marker_ftrace", argv[2], n / 10);
	printf("op=clocksource name=%s\n", cs);
	return 0;
}
