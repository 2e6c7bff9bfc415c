// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer's own part of a debugfs file: the text of a per-CPU
 * buffer's counters, in the layout of tracefs's per_cpu/cpuN/stats
 * (trace-cmd parses it). The counters and what they mean are the ring
 * buffer's (struct rbt_cpu_stats); the client owns the file, its place in
 * a tree and its locking (tracer/control.c).
 */
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/time64.h>
#include <rbtrace/rbtrace.h>

/* seconds.microseconds for nanosecond clocks (rounded as ftrace's ns2usecs()) */
static void rb_print_stats_ts(struct seq_file *m, const char *what, u64 ts,
			      bool in_ns)
{
	u32 rem;
	u64 s;

	if (!in_ns) {
		seq_printf(m, "%s: %llu\n", what, ts);
		return;
	}
	s = div_u64_rem(div_u64(ts + 500, NSEC_PER_USEC), USEC_PER_SEC, &rem);
	seq_printf(m, "%s: %5llu.%06u\n", what, s, rem);
}

/**
 * rbt_print_cpu_stats - print one CPU's counters as tracefs's stats file
 * @buffer: the buffer
 * @cpu: the CPU
 * @in_ns: its clock counts nanoseconds (the stamps print as seconds)
 * @m: where to print
 *
 * The caller keeps @buffer alive across the call (the tracer holds its
 * files_mutex, which a snapshot swap takes too).
 *
 * Return: 0, or -EINVAL for a bad CPU (rbt_cpu_stats()).
 */
int rbt_print_cpu_stats(struct rbt_buffer *buffer, int cpu, bool in_ns,
			struct seq_file *m)
{
	struct rbt_cpu_stats st;
	u64 now;
	int ret;

	ret = rbt_cpu_stats(buffer, cpu, &st);
	if (ret)
		return ret;
	now = rbt_time_stamp(buffer);
	seq_printf(m, "entries: %llu\n", st.entries);
	seq_printf(m, "overrun: %llu\n", st.overrun);
	seq_printf(m, "commit overrun: %llu\n", st.commit_overrun);
	seq_printf(m, "bytes: %llu\n", st.bytes);
	rb_print_stats_ts(m, "oldest event ts", st.oldest_ts, in_ns);
	rb_print_stats_ts(m, "now ts", now, in_ns);
	seq_printf(m, "dropped events: %llu\n", st.dropped);
	seq_printf(m, "read events: %llu\n", st.read);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_print_cpu_stats);
