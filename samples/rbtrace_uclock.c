// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace_uclock: stamp one's own records on the trace's timeline, with
 * no system call for the stamp.
 *
 * The latch clock's page (trace_clock_page) is mapped once; each record
 * is stamped with rbtrace_clock_read() of <rbtrace/clock_page.h> (a few
 * loads and RDTSC) and written through trace_marker_raw, where it
 * becomes a raw_data event stamped by the kernel too. With trace_clock
 * "latch" the two stamps are on one timeline: the record's own stamp is
 * when the program took it, the event's when it reached the buffer.
 *
 *	echo latch > /sys/kernel/debug/rbtrace/trace_clock
 *	./rbtrace_uclock 5
 *	cat /sys/kernel/debug/rbtrace/trace
 *
 * Build (the header needs no library): make -C samples uclock, or cc
 * -O2 -I include/uapi on this file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/types.h>
#include <rbtrace/clock_page.h>

#define RBT_DIR		"/sys/kernel/debug/rbtrace"
#define SAMPLE_ID	0x75636c6b	/* "uclk": the raw_data event's id */

/* One record: trace_marker_raw takes an id (4 bytes) then the payload. */
struct sample_record {
	__u32	id;
	__u32	seq;
	__u64	stamp;	/* rbtrace_clock_read(): ns on the latch clock */
	char		what[16];
};

int main(int argc, char **argv)
{
	const struct rbtrace_clock_page *clock;
	struct sample_record rec;
	long i, n = argc > 1 ? atol(argv[1]) : 5;
	int fd, out;

	fd = open(RBT_DIR "/trace_clock_page", O_RDONLY);
	if (fd < 0) {
		perror(RBT_DIR "/trace_clock_page");
		return 1;
	}
	clock = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);	/* the mapping keeps what it needs */
	if (clock == MAP_FAILED) {
		perror("mmap trace_clock_page");
		return 1;
	}
	if (!rbtrace_clock_usable(clock)) {
		fprintf(stderr, "the latch clock is not readable from user space here\n");
		return 1;
	}
	out = open(RBT_DIR "/trace_marker_raw", O_WRONLY);
	if (out < 0) {
		perror(RBT_DIR "/trace_marker_raw");
		return 1;
	}
	for (i = 0; i < n; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.id = SAMPLE_ID;
		rec.seq = (__u32)i;
		snprintf(rec.what, sizeof(rec.what), "step %u", rec.seq);
		rec.stamp = rbtrace_clock_read(clock);
		if (write(out, &rec, sizeof(rec)) != (ssize_t)sizeof(rec)) {
			perror("trace_marker_raw");
			return 1;
		}
		printf("record %u stamped %llu.%09llu\n", rec.seq,
		       (unsigned long long)(rec.stamp / 1000000000),
		       (unsigned long long)(rec.stamp % 1000000000));
	}
	close(out);
	munmap((void *)clock, 4096);
	return 0;
}
