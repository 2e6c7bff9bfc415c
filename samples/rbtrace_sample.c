// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace_sample: a minimal module recording through rbtrace's in-kernel
 * API (include/rbtrace/rbtrace.h).
 *
 * The buffer behind /sys/kernel/debug/rbtrace/ is rbtrace's own and is
 * not exported, so a module that records allocates a buffer of its own
 * with rbt_alloc(). This one records nr_records events at load, and one
 * more for every number written to /sys/kernel/debug/rbtrace_sample/trace.
 * Event n is written one of the two ways the API offers, so that both
 * are shown:
 *
 *   n even: rbt_lock_reserve(), fill the payload in place through
 *           rbt_event_data(), rbt_unlock_commit()
 *   n odd:  rbt_write() of a record built on the stack (reserve, copy
 *           and commit in one call)
 *
 * Reading the trace file prints every record, one line each, CPU by CPU
 * in the order written, without consuming them (an iterator per CPU):
 *
 *   # entries: 2
 *   cpu=0 ts=4242424242 seq=0 how=reserve value=0
 *   cpu=0 ts=4242425001 seq=1 how=write value=1
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>

/* Per-CPU size: a few pages are plenty for a handful of records. */
#define SAMPLE_BUF_SIZE		(64 * 1024)
#define SAMPLE_MAX_RECORDS	1024

enum sample_how {
	SAMPLE_RESERVE,		/* rbt_lock_reserve() + rbt_unlock_commit() */
	SAMPLE_WRITE,		/* rbt_write() */
};

/**
 * struct sample_rec - the payload of one event
 * @seq: the event's number, from 0 in the order the events were written
 * @how: the call that wrote it, enum sample_how
 * @value: seq * seq for the events written at load, else the number
 *         written to the trace file
 *
 * Payloads are only 4-byte aligned in the buffer: u32 members keep every
 * access aligned on any architecture.
 */
struct sample_rec {
	u32 seq;
	u32 how;
	u32 value;
};

static unsigned int nr_records = 4;
module_param(nr_records, uint, 0400);
MODULE_PARM_DESC(nr_records, "events recorded at load (0 to 1024, default 4)");

static struct rbt_buffer *sample_buf;
static struct dentry *sample_dir;
static atomic_t sample_seq = ATOMIC_INIT(0);

/**
 * sample_record_reserve - record one event by reserve, fill, commit
 * @seq: the event's number
 * @value: its value
 *
 * The record is written in place: no copy. Between the reserve and the
 * commit, preemption is off and the code must not sleep; keep it short.
 *
 * Return: 0, or -EBUSY when the buffer refused the event (recording off,
 * full, or a recursive call from an interrupt on this CPU).
 */
static int sample_record_reserve(u32 seq, u32 value)
{
	struct rbt_event *event;
	struct sample_rec *rec;

	event = rbt_lock_reserve(sample_buf, sizeof(*rec));
	if (!event)
		return -EBUSY;	/* nothing reserved: nothing to commit */
	/* The event may start with a time extend: never skip this call. */
	rec = rbt_event_data(event);
	rec->seq = seq;
	rec->how = SAMPLE_RESERVE;
	rec->value = value;
	return rbt_unlock_commit(sample_buf);
}

/**
 * sample_record_write - record one event with rbt_write()
 * @seq: the event's number
 * @value: its value
 *
 * Simpler when the record is built anyway; costs one copy.
 *
 * Return: 0, or -EBUSY when the buffer refused the event.
 */
static int sample_record_write(u32 seq, u32 value)
{
	struct sample_rec rec = {
		.seq	= seq,
		.how	= SAMPLE_WRITE,
		.value	= value,
	};

	return rbt_write(sample_buf, sizeof(rec), &rec);
}

/**
 * sample_record - record the next event, one way or the other
 * @value: its value
 *
 * Callable from any context: rbtrace's write path takes no lock.
 *
 * Return: 0 or -EBUSY.
 */
static int sample_record(u32 value)
{
	u32 seq = atomic_inc_return(&sample_seq) - 1;

	if (seq % 2)
		return sample_record_write(seq, value);
	return sample_record_reserve(seq, value);
}

/* One line per record of @cpu, oldest first. */
static int sample_show_cpu(struct seq_file *m, int cpu)
{
	struct rbt_event *event;
	struct sample_rec *rec;
	struct rbt_iter *iter;
	u64 ts;

	/* May sleep: allocates, and waits for the CPU's reader lock. */
	iter = rbt_iter_start(sample_buf, cpu, GFP_KERNEL);
	if (!iter)
		return -ENOMEM;
	while ((event = rbt_iter_peek(iter, &ts))) {
		/* Ours are all one size; a shorter one would not be ours. */
		if (rbt_event_length(event) >= sizeof(*rec)) {
			rec = rbt_event_data(event);
			seq_printf(m, "cpu=%d ts=%llu seq=%u how=%s value=%u\n",
				   cpu, ts, rec->seq,
				   rec->how == SAMPLE_RESERVE ? "reserve" : "write",
				   rec->value);
		}
		rbt_iter_advance(iter);
	}
	rbt_iter_finish(iter);
	return 0;
}

/*
 * Not consuming: seq_file may run this twice for one read (when the text
 * outgrows its buffer), and the records must still be there the second
 * time.
 */
static int sample_trace_show(struct seq_file *m, void *v)
{
	int cpu, ret;

	seq_printf(m, "# entries: %llu\n", rbt_entries(sample_buf));
	for_each_possible_cpu(cpu) {
		ret = sample_show_cpu(m, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static int sample_trace_open(struct inode *inode, struct file *file)
{
	return single_open(file, sample_trace_show, NULL);
}

/* Writing a number records one event with that value, on this CPU. */
static ssize_t sample_trace_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	u32 value;
	int ret;

	ret = kstrtou32_from_user(ubuf, cnt, 0, &value);
	if (ret)
		return ret;
	ret = sample_record(value);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations sample_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= sample_trace_open,
	.read		= seq_read,
	.write		= sample_trace_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init sample_init(void)
{
	unsigned int i;

	if (nr_records > SAMPLE_MAX_RECORDS)
		return -EINVAL;
	/*
	 * Producer/consumer mode (no RBT_FL_OVERWRITE): when full, new
	 * events are refused and counted as dropped, old ones are kept.
	 */
	sample_buf = rbt_alloc(SAMPLE_BUF_SIZE, 0, 0);
	if (!sample_buf)
		return -ENOMEM;
	for (i = 0; i < nr_records; i++)
		if (sample_record(i * i))
			pr_warn("rbtrace_sample: event %u not recorded\n", i);
	/* The file last: nobody can write before the buffer exists. */
	sample_dir = debugfs_create_dir("rbtrace_sample", NULL);
	debugfs_create_file("trace", 0600, sample_dir, NULL, &sample_trace_fops);
	return 0;
}

static void __exit sample_exit(void)
{
	/* An open file holds a module reference: no reader or writer is left. */
	debugfs_remove_recursive(sample_dir);
	rbt_free(sample_buf);
}

module_init(sample_init);
module_exit(sample_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rbtrace sample: records events into a buffer of its own");
MODULE_AUTHOR("The rbtrace developers");
