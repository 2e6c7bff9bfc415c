// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace file interface under /sys/kernel/debug/rbtrace/, with the
 * names and semantics of tracefs, so that cat, trace-cmd and
 * libtraceevent work on it unchanged. This file builds the tree and holds
 * the control files; the text, raw and event files live in rb_output.c,
 * rb_pipe_raw.c, rb_events_fs.c, rb_marker.c and rb_cmdlines.c.
 *
 * Files are root-only: 0600 control, 0400 read-only, 0200 write-only.
 * Every file takes a module reference while open (.owner), so rmmod
 * fails with -EBUSY while any is open, and rb_debugfs_exit() never races
 * a file operation. A bad write returns an errno and changes nothing.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "rb_internal.h"
#include "rb_events.h"
#include "rb_debugfs.h"
#include "rb_clock.h"

/* Longest control-file write taken; tracefs's are short lines too. */
#define RB_CTRL_WRITE_MAX	64
/* ftrace's default watermark for splice and poll of trace_pipe_raw */
#define RB_DEFAULT_PERCENT	50

struct rbt_buffer *rb_fs_buffer;
static struct dentry *rb_dir;
static DEFINE_MUTEX(rb_files_mutex);	/* serialises resizes and clock changes */
static unsigned int rb_readers_open;	/* under rb_files_mutex */
static struct mutex *rb_access_mutex;	/* per CPU: consuming readers, resets */
static int rb_percent = RB_DEFAULT_PERCENT;

/* Parse one unsigned decimal from user space; trailing newline allowed. */
static int rb_read_ulong(const char __user *ubuf, size_t cnt, unsigned long *val)
{
	if (!cnt || cnt > 32)
		return -EINVAL;
	return kstrtoul_from_user(ubuf, cnt, 10, val);
}

/**
 * rb_file_cpu - the CPU a file is about
 * @inode: the file's inode
 *
 * Return: the CPU, or RBT_ALL_CPUS for a top-level file.
 */
int rb_file_cpu(struct inode *inode)
{
	long v = (long)inode->i_private;

	return v ? v - 1 : RBT_ALL_CPUS;
}

/**
 * rb_access_lock - serialise consuming reads of one CPU
 * @cpu: the CPU
 */
void rb_access_lock(int cpu)
{
	mutex_lock(&rb_access_mutex[cpu]);
}

/**
 * rb_access_unlock - end rb_access_lock()
 * @cpu: the CPU
 */
void rb_access_unlock(int cpu)
{
	mutex_unlock(&rb_access_mutex[cpu]);
}

/**
 * rb_reader_open - a file that reads the buffer is being opened
 */
void rb_reader_open(void)
{
	mutex_lock(&rb_files_mutex);
	rb_readers_open++;
	mutex_unlock(&rb_files_mutex);
}

/**
 * rb_reader_close - it was released (or its open failed)
 */
void rb_reader_close(void)
{
	mutex_lock(&rb_files_mutex);
	rb_readers_open--;
	mutex_unlock(&rb_files_mutex);
}

/**
 * rb_reset_buffer - empty one CPU's ring, or all, as "echo > trace" does
 * @cpu: the CPU or RBT_ALL_CPUS
 *
 * Waits for the consuming reader of each CPU to finish its event first.
 */
void rb_reset_buffer(int cpu)
{
	int i;

	for_each_possible_cpu(i) {
		if (cpu != RBT_ALL_CPUS && cpu != i)
			continue;
		rb_access_lock(i);
		rbt_reset_cpu(rb_fs_buffer, i);
		rb_access_unlock(i);
	}
}

/**
 * rb_buffer_percent - the buffer_percent setting
 *
 * Return: the fill level (0 to 100 %) splice and poll of trace_pipe_raw
 * wait for.
 */
int rb_buffer_percent(void)
{
	return READ_ONCE(rb_percent);
}

/* tracing_on */
static ssize_t tracing_on_read(struct file *filp, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	char buf[4];
	int r;

	r = scnprintf(buf, sizeof(buf), "%d\n", rbt_record_is_on(rb_fs_buffer));
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

static ssize_t tracing_on_write(struct file *filp, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = rb_read_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	if (val) {
		rbt_record_on(rb_fs_buffer);
	} else {
		rbt_record_off(rb_fs_buffer);
		/* As tracefs: readers waiting for more see the end now. */
		rbt_wake_waiters(rb_fs_buffer, RBT_ALL_CPUS);
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations tracing_on_fops = {
	.owner		= THIS_MODULE,
	.read		= tracing_on_read,
	.write		= tracing_on_write,
	.llseek		= default_llseek,
};

/*
 * buffer_size_kb: per-CPU size in KiB. The top-level file shows "X" when
 * the CPUs differ and resizes every CPU; per_cpu/cpuN's only its CPU.
 */
static ssize_t buffer_size_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	int cpu = rb_file_cpu(file_inode(filp)), i;
	unsigned long size = 0;
	bool same = true;
	char buf[32];
	int r;

	if (cpu != RBT_ALL_CPUS) {
		size = rbt_size(rb_fs_buffer, cpu);
	} else {
		for_each_possible_cpu(i) {
			if (size && rbt_size(rb_fs_buffer, i) != size)
				same = false;
			size = rbt_size(rb_fs_buffer, i);
		}
	}
	if (same)
		r = scnprintf(buf, sizeof(buf), "%lu\n", size >> 10);
	else
		r = scnprintf(buf, sizeof(buf), "X\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

/*
 * A size in KiB written to buffer_size_kb or buffer_subbuf_size_kb: a
 * number from 1 to what still fits in bytes, rounded up (else -EINVAL).
 */
static int rb_read_kb(const char __user *ubuf, size_t cnt, unsigned long *kb)
{
	int ret = rb_read_ulong(ubuf, cnt, kb);

	if (ret)
		return ret;
	return *kb && *kb <= (ULONG_MAX >> 11) ? 0 : -EINVAL;
}

/* A size change was refused: one line saying which, why, and the errno. */
static int rb_size_failed(const char *file, unsigned long kb, int ret)
{
	pr_warn_ratelimited("rbtrace: %s %lu: failed (%d)%s\n", file, kb, ret,
			    ret == -EBUSY ? ": a trace file is open, or mmap()ed" : "");
	return ret;
}

static ssize_t buffer_size_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	int cpu = rb_file_cpu(file_inode(filp));
	unsigned long kb;
	int ret;

	ret = rb_read_kb(ubuf, cnt, &kb);
	if (ret)
		return ret;
	mutex_lock(&rb_files_mutex);
	ret = rbt_resize(rb_fs_buffer, kb << 10, cpu);
	mutex_unlock(&rb_files_mutex);
	if (ret)
		return rb_size_failed("buffer_size_kb", kb, ret);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations buffer_size_fops = {
	.owner		= THIS_MODULE,
	.read		= buffer_size_read,
	.write		= buffer_size_write,
	.llseek		= default_llseek,
};

/* buffer_total_size_kb: the sum over the CPUs, read-only. */
static ssize_t buffer_total_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	unsigned long total = 0;
	char buf[32];
	int cpu, r;

	for_each_possible_cpu(cpu)
		total += rbt_size(rb_fs_buffer, cpu) >> 10;
	r = scnprintf(buf, sizeof(buf), "%lu\n", total);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

static const struct file_operations buffer_total_fops = {
	.owner		= THIS_MODULE,
	.read		= buffer_total_read,
	.llseek		= default_llseek,
};

/* buffer_subbuf_size_kb: sub-buffer size, header included, in KiB. */
static ssize_t subbuf_size_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	char buf[32];
	int r;

	r = scnprintf(buf, sizeof(buf), "%zu\n",
		      (rbt_subbuf_size(rb_fs_buffer) + RB_PAGE_HDR_SIZE) >> 10);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

/*
 * Writing takes what tracefs takes (1 to 128 pages, rounded up to a power
 * of two) and rebuilds every ring at that size, empty
 * (rbt_set_subbuf_order()). Refused with -EBUSY while a file that reads
 * the buffer is open (its pages and records are sized by the old size;
 * a mapping keeps its file open) or an iterator exists.
 */
static ssize_t subbuf_size_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	unsigned long kb, pages;
	int ret, order;

	ret = rb_read_kb(ubuf, cnt, &kb);
	if (ret)
		return ret;
	pages = DIV_ROUND_UP(kb << 10, PAGE_SIZE);
	order = fls_long(pages - 1);
	if (order > RB_MAX_ORDER)
		return -EINVAL;
	mutex_lock(&rb_files_mutex);
	ret = rb_readers_open ? -EBUSY : rbt_set_subbuf_order(rb_fs_buffer, order);
	mutex_unlock(&rb_files_mutex);
	if (ret)
		return rb_size_failed("buffer_subbuf_size_kb", kb, ret);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations subbuf_size_fops = {
	.owner		= THIS_MODULE,
	.read		= subbuf_size_read,
	.write		= subbuf_size_write,
	.llseek		= default_llseek,
};

/* buffer_percent: 0 to 100, the fill level splice and poll wait for. */
static ssize_t percent_read(struct file *filp, char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	char buf[8];
	int r;

	r = scnprintf(buf, sizeof(buf), "%d\n", rb_buffer_percent());
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

static ssize_t percent_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = rb_read_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	if (val > 100)
		return -EINVAL;
	WRITE_ONCE(rb_percent, val);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations percent_fops = {
	.owner		= THIS_MODULE,
	.read		= percent_read,
	.write		= percent_write,
	.llseek		= default_llseek,
};

/*
 * trace_clock: the clocks of rb_clock.c. The one in force is kept here,
 * with a reference (the latch clock runs its updates while used).
 */
static const struct rb_clock *rb_cur_clock;	/* under rb_files_mutex */

/**
 * rb_clock_in_ns - does the clock in force count nanoseconds?
 *
 * Return: true for a nanosecond clock, false for a counter.
 */
bool rb_clock_in_ns(void)
{
	const struct rb_clock *clock = READ_ONCE(rb_cur_clock);

	return !clock || clock->in_ns;
}

/**
 * rb_clock_name - the name of the clock in force, for the trace header
 *
 * Return: its trace_clock name.
 */
const char *rb_clock_name(void)
{
	const struct rb_clock *clock = READ_ONCE(rb_cur_clock);

	return clock ? clock->name : "local";
}

static int trace_clock_show(struct seq_file *m, void *v)
{
	const struct rb_clock *cur = READ_ONCE(rb_cur_clock);
	unsigned int i;

	for (i = 0; i < rb_nr_clocks; i++)
		seq_printf(m, "%s%s%s%s", i ? " " : "", cur == &rb_clocks[i] ? "[" : "",
			   rb_clocks[i].name, cur == &rb_clocks[i] ? "]" : "");
	seq_putc(m, '\n');
	return 0;
}

static int trace_clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, trace_clock_show, NULL);
}

/* Switching clocks empties the buffer: stamps of two clocks do not mix. */
static int rb_set_clock(const char *name)
{
	const struct rb_clock *clock = rb_clock_find(name), *old;
	int ret;

	if (!clock)
		return -EINVAL;
	mutex_lock(&rb_files_mutex);
	ret = rb_clock_get(clock);
	if (ret)
		goto out;
	ret = rbt_set_clock(rb_fs_buffer, clock->read);
	if (ret) {
		rb_clock_put(clock);
		goto out;
	}
	old = rb_cur_clock;
	WRITE_ONCE(rb_cur_clock, clock);
	rb_reset_buffer(RBT_ALL_CPUS);
	if (old)
		rb_clock_put(old);
out:
	mutex_unlock(&rb_files_mutex);
	return ret;
}

static ssize_t trace_clock_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	char buf[RB_CTRL_WRITE_MAX];
	int ret;

	if (!cnt || cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	ret = rb_set_clock(strim(buf));
	if (ret) {
		pr_warn_ratelimited("rbtrace: trace_clock: unknown clock\n");
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations trace_clock_fops = {
	.owner		= THIS_MODULE,
	.open		= trace_clock_open,
	.read		= seq_read,
	.write		= trace_clock_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* tracing_cpumask: the CPUs whose events are recorded, in hex. */
static ssize_t cpumask_read(struct file *filp, char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	cpumask_var_t mask;
	char *buf;
	ssize_t ret;
	int len;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	rb_get_traced_cpus(mask);
	len = snprintf(NULL, 0, "%*pb\n", cpumask_pr_args(mask)) + 1;
	buf = kmalloc(len, GFP_KERNEL);
	if (buf) {
		len = scnprintf(buf, len, "%*pb\n", cpumask_pr_args(mask));
		ret = simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
		kfree(buf);
	} else {
		ret = -ENOMEM;
	}
	free_cpumask_var(mask);
	return ret;
}

static ssize_t cpumask_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	cpumask_var_t mask;
	int ret;

	if (!cnt)
		return -EINVAL;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpumask_parse_user(ubuf, cnt, mask);
	if (!ret)
		rb_set_traced_cpus(mask);
	free_cpumask_var(mask);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations cpumask_fops = {
	.owner		= THIS_MODULE,
	.read		= cpumask_read,
	.write		= cpumask_write,
	.llseek		= default_llseek,
};

/* seconds.microseconds for nanosecond clocks, as tracefs's stats. */
static void rb_stats_ts(struct seq_file *m, const char *what, u64 ts)
{
	u32 rem;
	u64 s;

	if (!rb_clock_in_ns()) {
		seq_printf(m, "%s: %llu\n", what, ts);
		return;
	}
	s = div_u64_rem(rb_ns2usecs(ts), USEC_PER_SEC, &rem);
	seq_printf(m, "%s: %5llu.%06u\n", what, s, rem);
}

/* per_cpu/cpuN/stats, in tracefs's format (trace-cmd parses it). */
static int stats_show(struct seq_file *m, void *v)
{
	struct rbt_cpu_stats st;
	int ret;

	ret = rbt_cpu_stats(rb_fs_buffer, (long)m->private, &st);
	if (ret)
		return ret;
	seq_printf(m, "entries: %llu\n", st.entries);
	seq_printf(m, "overrun: %llu\n", st.overrun);
	seq_printf(m, "commit overrun: %llu\n", st.commit_overrun);
	seq_printf(m, "bytes: %llu\n", st.bytes);
	rb_stats_ts(m, "oldest event ts", st.oldest_ts);
	rb_stats_ts(m, "now ts", rbt_time_stamp(rb_fs_buffer));
	seq_printf(m, "dropped events: %llu\n", st.dropped);
	seq_printf(m, "read events: %llu\n", st.read);
	return 0;
}

static int stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, stats_show, (void *)(long)rb_file_cpu(inode));
}

static const struct file_operations stats_fops = {
	.owner		= THIS_MODULE,
	.open		= stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int rb_create_cpu_dir(struct dentry *per_cpu, int cpu)
{
	void *data = rb_cpu_to_private(cpu);
	struct dentry *dir;
	char name[16];

	snprintf(name, sizeof(name), "cpu%d", cpu);
	dir = debugfs_create_dir(name, per_cpu);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("trace", 0600, dir, data, &rb_trace_fops);
	debugfs_create_file("trace_pipe", 0400, dir, data, &rb_trace_pipe_fops);
	/* Not proxied: the proxy has no .splice_read (see rb_pipe_raw.c). */
	debugfs_create_file_unsafe("trace_pipe_raw", 0400, dir, data, &rb_pipe_raw_fops);
	debugfs_create_file("stats", 0400, dir, data, &stats_fops);
	debugfs_create_file("buffer_size_kb", 0600, dir, data, &buffer_size_fops);
	return 0;
}

/* One per_cpu/cpuN for every possible CPU: trace-cmd opens them all. */
static int rb_create_per_cpu(struct dentry *top)
{
	struct dentry *per_cpu;
	int cpu, ret;

	per_cpu = debugfs_create_dir("per_cpu", top);
	if (IS_ERR(per_cpu))
		return PTR_ERR(per_cpu);
	for_each_possible_cpu(cpu) {
		ret = rb_create_cpu_dir(per_cpu, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static void rb_create_control_files(struct dentry *top)
{
	debugfs_create_file("tracing_on", 0600, top, NULL, &tracing_on_fops);
	debugfs_create_file("buffer_size_kb", 0600, top, NULL, &buffer_size_fops);
	debugfs_create_file("buffer_total_size_kb", 0400, top, NULL, &buffer_total_fops);
	debugfs_create_file("buffer_subbuf_size_kb", 0600, top, NULL, &subbuf_size_fops);
	debugfs_create_file("buffer_percent", 0600, top, NULL, &percent_fops);
	debugfs_create_file("trace_clock", 0600, top, NULL, &trace_clock_fops);
	debugfs_create_file("tracing_cpumask", 0600, top, NULL, &cpumask_fops);
	debugfs_create_file("trace", 0600, top, NULL, &rb_trace_fops);
	debugfs_create_file("trace_pipe", 0400, top, NULL, &rb_trace_pipe_fops);
}

static int rb_alloc_access_locks(void)
{
	int cpu;

	rb_access_mutex = kcalloc(nr_cpu_ids, sizeof(*rb_access_mutex), GFP_KERNEL);
	if (!rb_access_mutex)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		mutex_init(&rb_access_mutex[cpu]);
	return 0;
}

/* Build the tree; on failure the caller removes what was made. */
static int rb_create_tree(struct rbt_buffer *buffer)
{
	int ret;

	rb_dir = debugfs_create_dir("rbtrace", NULL);
	if (IS_ERR(rb_dir)) {
		ret = PTR_ERR(rb_dir);
		rb_dir = NULL;
		return ret;
	}
	rb_create_control_files(rb_dir);
	ret = rb_create_per_cpu(rb_dir);
	if (ret)
		return ret;
	ret = rb_events_fs_init(rb_dir, buffer);
	if (ret)
		return ret;
	ret = rb_cmdlines_init(rb_dir);
	if (ret)
		return ret;
	return rb_marker_init(rb_dir, buffer);
}

static void rb_put_cur_clock(void)
{
	if (rb_cur_clock)
		rb_clock_put(rb_cur_clock);
	rb_cur_clock = NULL;
}

/**
 * rb_debugfs_init - create /sys/kernel/debug/rbtrace/ for @buffer
 * @buffer: the buffer the files show
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rb_debugfs_init(struct rbt_buffer *buffer)
{
	int ret;

	rb_fs_buffer = buffer;
	/* The clock the buffer was made with; NULL if not one of ours. */
	rb_cur_clock = rb_clock_of(buffer->clock);
	if (rb_cur_clock)
		rb_clock_get(rb_cur_clock);
	ret = rb_alloc_access_locks();
	if (ret)
		return ret;
	ret = rb_create_tree(buffer);
	if (ret) {
		rb_events_fs_exit();
		rb_cmdlines_exit();
		debugfs_remove_recursive(rb_dir);
		rb_dir = NULL;
		kfree(rb_access_mutex);
		rb_access_mutex = NULL;
		rb_put_cur_clock();
	}
	return ret;
}

/**
 * rb_debugfs_exit - remove the files and the events they defined
 *
 * Called at module unload, when no file is open (each open one holds a
 * module reference), so no file operation can be running.
 */
void rb_debugfs_exit(void)
{
	rb_marker_exit();
	rb_events_fs_exit();
	debugfs_remove_recursive(rb_dir);
	rb_dir = NULL;
	rb_cmdlines_exit();
	kfree(rb_access_mutex);
	rb_access_mutex = NULL;
	rb_put_cur_clock();
}

/**
 * rb_debugfs_dir - the rbtrace directory, for files other parts create there
 *
 * Return: the directory, from rb_debugfs_init() to rb_debugfs_exit().
 */
struct dentry *rb_debugfs_dir(void)
{
	return rb_dir;
}
