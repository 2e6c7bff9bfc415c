// SPDX-License-Identifier: GPL-2.0
/*
 * rbt_readbench: read throughput of a tracing directory (rbtrace's
 * /sys/kernel/debug/rbtrace or ftrace's /sys/kernel/tracing), the same
 * program and the same events for both.
 *
 *   rbt_readbench write DIR CPU N SIZE
 *	on CPU, write N markers of SIZE bytes (the last one a newline) to
 *	DIR/trace_marker, one write() each
 *   rbt_readbench splice DIR CPU OUT [N SIZE WCPU]
 *	splice DIR/per_cpu/cpuCPU/trace_pipe_raw to the file OUT until the
 *	buffer is empty (the partial last page by read()); with N SIZE WCPU,
 *	a child writes the N markers on WCPU meanwhile ("live") and the
 *	reader stops when the child has exited and the buffer is empty.
 *	The reader runs on the CPU it was started on (use taskset).
 *   rbt_readbench pipe DIR
 *	read DIR/trace_pipe until empty and count the lines
 *   rbt_readbench snap DIR N
 *	"echo 1 > DIR/snapshot" N times (one open, one write() each, the
 *	first, which allocates, not counted): the median, 99th percentile
 *	and largest time of a write() in microseconds
 *   rbt_readbench snapopen DIR N
 *	N times "echo 1 > DIR/snapshot" then at once an open() and close()
 *	of DIR/snapshot for reading, timed: where rbtrace's wait for the
 *	writers still on the snapshot went (its open). Prints the write's
 *	and the open's median, p99 and largest in microseconds
 *
 * Each prints one line, key=value: bytes, events (data events counted in
 * the pages spliced), missed (as the page headers say), seconds
 * (CLOCK_MONOTONIC: guest instructions under QEMU -icount shift=0), MB/s
 * and events/s. A reader that finds nothing sleeps 1 ms, as a blocked
 * reader would, so that it does not charge spinning to the writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#define SUBBUF		4096	/* default sub-buffer size of both */
#define HDR		16	/* u64 time_stamp, local_t commit */
#define BIT(n)		(1UL << (n))
#define MISSED_EVENTS	BIT(31)
#define MISSED_STORED	BIT(30)

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void do_write(const char *dir, int cpu, long n, int size)
{
	char path[512], buf[4096];
	long i;
	int fd;

	if (size < 1 || size > (int)sizeof(buf))
		exit(2);
	pin(cpu);
	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	memset(buf, 'x', size - 1);
	buf[size - 1] = '\n';
	for (i = 0; i < n; i++)
		if (write(fd, buf, size) != size)
			die("write trace_marker");
	close(fd);
}

/* Count the data events and the missed events of the sub-buffers in OUT. */
static void count_pages(const char *out, long *events, long *missed)
{
	unsigned char page[SUBBUF];
	int fd = open(out, O_RDONLY);

	*events = 0;
	*missed = 0;
	if (fd < 0)
		die(out);
	while (read(fd, page, SUBBUF) == SUBBUF) {
		__u64 commit;
		unsigned int off = 0, len;

		memcpy(&commit, page + 8, 8);
		len = commit & 0xfffff;
		if (len > SUBBUF - HDR)
			len = SUBBUF - HDR;
		if ((commit & MISSED_EVENTS) && (commit & MISSED_STORED) &&
		    len + HDR + 8 <= SUBBUF) {
			__u64 m;

			memcpy(&m, page + HDR + len, 8);
			*missed += m;
		} else if (commit & MISSED_EVENTS) {
			*missed += 1;	/* some, count unknown */
		}
		while (off + 4 <= len) {
			__u32 h, a0 = 0;
			unsigned int type_len;

			memcpy(&h, page + HDR + off, 4);
			type_len = h & 31;
			if (off + 8 <= len)
				memcpy(&a0, page + HDR + off + 4, 4);
			if (type_len == 0) {
				off += 4 + ((a0 + 3) & ~3u);
				(*events)++;
			} else if (type_len <= 28) {
				off += 4 + type_len * 4;
				(*events)++;
			} else if (type_len == 29) {
				if (!(h >> 5) && !a0)
					break;	/* rest of the page */
				off += 4 + a0;
			} else {
				off += 8;
			}
		}
	}
	close(fd);
}

static void do_splice(const char *dir, int cpu, const char *out, long n,
		      int size, int wcpu)
{
	char path[512], page[SUBBUF];
	long bytes = 0, pages = 0, events, missed, sleeps = 0;
	int in, fd, p[2], st;
	pid_t child = 0;
	double t0, t1;
	ssize_t r;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", dir, cpu);
	in = open(path, O_RDONLY | O_NONBLOCK);
	if (in < 0)
		die(path);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(out);
	if (pipe(p))
		die("pipe");
	fcntl(p[0], F_SETPIPE_SZ, 16 * SUBBUF);
	t0 = now();
	if (n) {
		child = fork();
		if (child < 0)
			die("fork");
		if (!child) {
			do_write(dir, wcpu, n, size);
			_exit(0);
		}
	}
	for (;;) {
		r = splice(in, NULL, p[1], NULL, 16 * SUBBUF,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (r > 0) {
			ssize_t w, left = r;

			while (left > 0) {
				w = splice(p[0], NULL, fd, NULL, left, SPLICE_F_MOVE);
				if (w <= 0)
					die("splice to file");
				left -= w;
			}
			bytes += r;
			continue;
		}
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			die("splice trace_pipe_raw");
		if (child && waitpid(child, &st, WNOHANG) == child)
			child = 0;
		if (child) {
			usleep(1000);
			sleeps++;
			continue;
		}
		/* Writer done, no full page left: the partial one by read(). */
		r = read(in, page, SUBBUF);
		if (r > 0) {
			memset(page + r, 0, SUBBUF - r);
			if (write(fd, page, SUBBUF) != SUBBUF)
				die("write");
			bytes += r;
			continue;
		}
		break;
	}
	t1 = now();
	close(fd);
	close(in);
	count_pages(out, &events, &missed);
	pages = bytes / SUBBUF;
	printf("bytes=%ld pages=%ld events=%ld missed=%ld sleeps=%ld ",
	       bytes, pages, events, missed, sleeps);
	printf("seconds=%.6f MBps=%.2f events_per_s=%.0f\n",
	       t1 - t0,
	       bytes / (t1 - t0) / 1e6, events / (t1 - t0));
}

static void do_pipe(const char *dir)
{
	static char buf[65536];
	long bytes = 0, lines = 0;
	char path[512];
	double t0, t1;
	ssize_t r, i;
	int fd;

	snprintf(path, sizeof(path), "%s/trace_pipe", dir);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die(path);
	t0 = now();
	for (;;) {
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		bytes += r;
		for (i = 0; i < r; i++)
			lines += buf[i] == '\n';
	}
	t1 = now();
	close(fd);
	printf("bytes=%ld events=%ld seconds=%.6f MBps=%.2f events_per_s=%.0f\n",
	       bytes, lines, t1 - t0, bytes / (t1 - t0) / 1e6, lines / (t1 - t0));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void do_snap(const char *dir, long n)
{
	char path[4096];
	double *us, t0;
	long i;
	int fd;

	snprintf(path, sizeof(path), "%s/snapshot", dir);
	fd = open(path, O_WRONLY);
	us = calloc(n, sizeof(*us));
	if (fd < 0 || !us || n < 1)
		die(path);
	if (write(fd, "1", 1) != 1)
		die("allocating the snapshot");
	for (i = 0; i < n; i++) {
		t0 = now();
		if (write(fd, "1", 1) != 1)
			die("echo 1 > snapshot");
		us[i] = (now() - t0) * 1e6;
	}
	qsort(us, n, sizeof(*us), cmp_double);
	printf("swaps=%ld median_us=%.1f p99_us=%.1f max_us=%.1f\n",
	       n, us[n / 2], us[n * 99 / 100], us[n - 1]);
	if (write(fd, "0", 1) != 1)
		die("echo 0 > snapshot");
	free(us);
	close(fd);
}

/* Sorts @us and prints its median, p99 and largest as KEY_median_us=... */
static void print_times(const char *key, double *us, long n)
{
	qsort(us, n, sizeof(*us), cmp_double);
	printf(" %s_median_us=%.1f %s_p99_us=%.1f %s_max_us=%.1f", key, us[n / 2],
	       key, us[n * 99 / 100], key, us[n - 1]);
}

static void do_snapopen(const char *dir, long n)
{
	double *wus, *ous, t0;
	char path[4096];
	int fd, rfd;
	long i;

	snprintf(path, sizeof(path), "%s/snapshot", dir);
	fd = open(path, O_WRONLY);
	wus = calloc(n, sizeof(*wus));
	ous = calloc(n, sizeof(*ous));
	if (fd < 0 || !wus || !ous || n < 1)
		die(path);
	if (write(fd, "1", 1) != 1)
		die("allocating the snapshot");
	for (i = 0; i < n; i++) {
		t0 = now();
		if (write(fd, "1", 1) != 1)
			die("echo 1 > snapshot");
		wus[i] = (now() - t0) * 1e6;
		t0 = now();
		rfd = open(path, O_RDONLY);
		if (rfd < 0)
			die("open snapshot");
		close(rfd);
		ous[i] = (now() - t0) * 1e6;
	}
	printf("swaps=%ld", n);
	print_times("write", wus, n);
	print_times("open", ous, n);
	printf("\n");
	if (write(fd, "0", 1) != 1)
		die("echo 0 > snapshot");
	free(wus);
	free(ous);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "write"))
		do_write(argv[2], atoi(argv[3]), atol(argv[4]), atoi(argv[5]));
	else if (argc == 5 && !strcmp(argv[1], "splice"))
		do_splice(argv[2], atoi(argv[3]), argv[4], 0, 0, 0);
	else if (argc == 8 && !strcmp(argv[1], "splice"))
		do_splice(argv[2], atoi(argv[3]), argv[4], atol(argv[5]),
			  atoi(argv[6]), atoi(argv[7]));
	else if (argc == 3 && !strcmp(argv[1], "pipe"))
		do_pipe(argv[2]);
	else if (argc == 4 && !strcmp(argv[1], "snap"))
		do_snap(argv[2], atol(argv[3]));
	else if (argc == 4 && !strcmp(argv[1], "snapopen"))
		do_snapopen(argv[2], atol(argv[3]));
	else
		return fprintf(stderr, "usage: see the top of %s\n", __FILE__), 2;
	return 0;
}
