// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace text output: the trace file (a non-consuming read of every CPU,
 * merged by time stamp) and trace_pipe (a consuming, blocking read), for
 * all CPUs and per CPU, in ftrace's line format:
 *
 *	           bash-245     [001] d.h1.    12.345678: tracing_mark_write: hi
 *
 * Every record is copied out of the buffer before it is formatted: the
 * iterator's copy and the consumer's event are only valid until the next
 * call on that CPU.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>
#include "rb_events.h"
#include "rb_debugfs.h"

/* A record copied out of the buffer, with its CPU, stamp and losses. */
struct rb_rec {
	void		*data;
	unsigned int	len;
	u64		ts;
	int		cpu;
	bool		lost;		/* events lost before it */
	unsigned long	lost_count;	/* how many, 0 if unknown */
};

/* One line of text; the longest is a raw marker: three chars a byte. */
struct rb_text {
	char		*buf;
	size_t		size;
	struct seq_buf	s;
};

static int rb_rec_alloc(struct rb_rec *rec)
{
	rec->data = kvmalloc(rbt_subbuf_size(rb_fs_buffer), GFP_KERNEL);
	return rec->data ? 0 : -ENOMEM;
}

static int rb_text_alloc(struct rb_text *t)
{
	t->size = 3 * rbt_subbuf_size(rb_fs_buffer) + 512;
	t->buf = kvmalloc(t->size, GFP_KERNEL);
	seq_buf_init(&t->s, t->buf, t->size);
	return t->buf ? 0 : -ENOMEM;
}

/* Copy an event's payload into @rec. */
static void rb_rec_fill(struct rb_rec *rec, struct rbt_event *event, u64 ts, int cpu)
{
	rec->len = min(rbt_event_length(event), rbt_subbuf_size(rb_fs_buffer));
	memcpy(rec->data, rbt_event_data(event), rec->len);
	rec->ts = ts;
	rec->cpu = cpu;
}

/**
 * rb_print_ts - a time stamp as ftrace's trace_print_time() shows it
 * @s: where to print
 * @ts: the stamp: seconds.microseconds for nanosecond clocks, else a count
 */
void rb_print_ts(struct seq_buf *s, u64 ts)
{
	u64 usecs;
	u32 rem;

	if (!rb_clock_in_ns()) {
		seq_buf_printf(s, " %12llu", ts);
		return;
	}
	usecs = rb_ns2usecs(ts);
	usecs = div_u64_rem(usecs, USEC_PER_SEC, &rem);
	seq_buf_printf(s, " %5llu.%06u", usecs, rem);
}

/* irqs-off, need-resched, hardirq/softirq, preempt, migrate: "d.h1." */
static void rb_print_lat(struct seq_buf *s, const struct rb_entry *ent)
{
	unsigned int f = ent->flags, pc = ent->preempt_count;
	bool bh_off = f & RB_FLAG_BH_OFF, nmi = f & RB_FLAG_NMI;
	bool hard = f & RB_FLAG_HARDIRQ, soft = f & RB_FLAG_SOFTIRQ;
	char irqs_off, resched, hardsoft;

	irqs_off = (f & RB_FLAG_IRQS_OFF) ? (bh_off ? 'D' : 'd') :
		bh_off ? 'b' : (f & RB_FLAG_IRQS_NOSUPPORT) ? 'X' : '.';
	switch (f & (RB_FLAG_NEED_RESCHED | RB_FLAG_PREEMPT_RESCHED)) {
	case RB_FLAG_NEED_RESCHED | RB_FLAG_PREEMPT_RESCHED:
		resched = 'N';
		break;
	case RB_FLAG_NEED_RESCHED:
		resched = 'n';
		break;
	case RB_FLAG_PREEMPT_RESCHED:
		resched = 'p';
		break;
	default:
		resched = '.';
		break;
	}
	hardsoft = (nmi && hard) ? 'Z' : nmi ? 'z' : (hard && soft) ? 'H' :
		hard ? 'h' : soft ? 's' : '.';
	seq_buf_printf(s, "%c%c%c", irqs_off, resched, hardsoft);
	if (pc & 0xf)
		seq_buf_printf(s, "%x", pc & 0xf);
	else
		seq_buf_printf(s, ".");
	if (pc & 0xf0)
		seq_buf_printf(s, "%x", pc >> 4);
	else
		seq_buf_printf(s, ".");
}

/* One record as ftrace prints it, lost-event note first. */
static void rb_print_rec(struct rb_text *t, const struct rb_rec *rec)
{
	static const struct rb_entry no_entry;
	const struct rb_entry *ent = rec->len >= sizeof(*ent) ? rec->data : &no_entry;
	char comm[TASK_COMM_LEN];

	seq_buf_init(&t->s, t->buf, t->size);
	if (rec->lost && rec->lost_count)
		seq_buf_printf(&t->s, "CPU:%d [LOST %lu EVENTS]\n", rec->cpu, rec->lost_count);
	else if (rec->lost)
		seq_buf_printf(&t->s, "CPU:%d [LOST EVENTS]\n", rec->cpu);
	rb_cmdline_find(ent->pid, comm);
	seq_buf_printf(&t->s, "%16s-%-7d [%03d] ", comm, ent->pid, rec->cpu);
	rb_print_lat(&t->s, ent);
	rb_print_ts(&t->s, rec->ts);
	seq_buf_printf(&t->s, ": ");
	rb_event_print(&t->s, rec->data, rec->len);
	/* A line cut short still ends a line. */
	if (seq_buf_has_overflowed(&t->s))
		t->buf[t->size - 1] = '\n';
}

/* ftrace's header for the trace file with the default options. */
static void rb_print_header(struct seq_file *m)
{
	struct rbt_cpu_stats st;
	u64 entries = 0, total = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (rbt_cpu_stats(rb_fs_buffer, cpu, &st))
			continue;
		entries += st.entries;
		total += st.entries + st.overrun;
	}
	seq_puts(m, "# tracer: nop\n#\n");
	seq_printf(m, "# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n",
		   entries, total, num_online_cpus());
	/* Stamps mean nothing without their clock (trace_clock). */
	seq_printf(m, "# clock: %s\n", rb_clock_name());
	seq_puts(m, "#\n"
		 "#                                _-----=> irqs-off/BH-disabled\n"
		 "#                               / _----=> need-resched\n"
		 "#                              | / _---=> hardirq/softirq\n"
		 "#                              || / _--=> preempt-depth\n"
		 "#                              ||| / _-=> migrate-disable\n"
		 "#                              |||| /     delay\n"
		 "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		 "#              | |         |   |||||     |         |\n");
}

/*
 * The trace file. seq_file may ask again for the record it last showed
 * (its buffer was too small) or restart from 0 (lseek), so the iterator
 * keeps the current record copied, with its position: 0 is the header,
 * n >= 1 the n-th record.
 */
struct rb_trace_iter {
	int		cpu_file;
	struct rbt_iter	**iters;
	bool		*lost;
	struct rb_rec	rec;
	bool		have_rec;
	loff_t		pos;
	struct rb_text	text;
};

/* Copy the oldest record of the CPUs read into it->rec. */
static bool rb_trace_find(struct rb_trace_iter *it)
{
	struct rbt_event *event, *best = NULL;
	int cpu, best_cpu = 0;
	u64 ts, best_ts = 0;

	for_each_possible_cpu(cpu) {
		if (!it->iters[cpu])
			continue;
		event = rbt_iter_peek(it->iters[cpu], &ts);
		if (rbt_iter_dropped(it->iters[cpu]))
			it->lost[cpu] = true;
		if (event && (!best || ts < best_ts)) {
			best = event;
			best_ts = ts;
			best_cpu = cpu;
		}
	}
	it->have_rec = best;
	if (!best)
		return false;
	/* The peeked copy stays valid: no other call was made on that CPU. */
	rb_rec_fill(&it->rec, best, best_ts, best_cpu);
	it->rec.lost = it->lost[best_cpu];
	it->rec.lost_count = 0;
	it->lost[best_cpu] = false;
	return true;
}

static void rb_trace_rewind(struct rb_trace_iter *it)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (it->iters[cpu])
			rbt_iter_reset(it->iters[cpu]);
		it->lost[cpu] = false;
	}
	it->have_rec = false;
	it->pos = 0;
}

/* Move from the current record to the next one: it->pos + 1. */
static void *rb_trace_step(struct rb_trace_iter *it)
{
	if (it->pos && it->have_rec)
		rbt_iter_advance(it->iters[it->rec.cpu]);
	it->pos++;
	return rb_trace_find(it) ? &it->rec : NULL;
}

static void *rb_trace_start(struct seq_file *m, loff_t *pos)
{
	struct rb_trace_iter *it = m->private;

	if (*pos == 0) {
		rb_trace_rewind(it);
		return SEQ_START_TOKEN;
	}
	if (*pos < it->pos)
		rb_trace_rewind(it);
	/* Asked for the current record again: show it again. */
	if (*pos == it->pos && it->have_rec)
		return &it->rec;
	if (*pos == it->pos) {
		/* It was the end; maybe not any more. */
		it->pos--;
	}
	while (it->pos < *pos)
		if (!rb_trace_step(it))
			return NULL;
	return &it->rec;
}

static void *rb_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct rb_trace_iter *it = m->private;

	(*pos)++;
	return rb_trace_step(it);
}

static void rb_trace_stop(struct seq_file *m, void *v)
{
}

static int rb_trace_show(struct seq_file *m, void *v)
{
	struct rb_trace_iter *it = m->private;

	if (v == SEQ_START_TOKEN) {
		rb_print_header(m);
		return 0;
	}
	rb_print_rec(&it->text, v);
	seq_write(m, it->text.buf, seq_buf_used(&it->text.s));
	return 0;
}

static const struct seq_operations rb_trace_seq_ops = {
	.start	= rb_trace_start,
	.next	= rb_trace_next,
	.stop	= rb_trace_stop,
	.show	= rb_trace_show,
};

static void rb_trace_iter_free(struct rb_trace_iter *it)
{
	int cpu;

	if (it->iters) {
		for_each_possible_cpu(cpu)
			rbt_iter_finish(it->iters[cpu]);
	}
	kfree(it->iters);
	kfree(it->lost);
	kvfree(it->rec.data);
	kvfree(it->text.buf);
}

static int rb_trace_iter_init(struct rb_trace_iter *it, int cpu_file)
{
	int cpu;

	it->cpu_file = cpu_file;
	it->iters = kcalloc(nr_cpu_ids, sizeof(*it->iters), GFP_KERNEL);
	it->lost = kcalloc(nr_cpu_ids, sizeof(*it->lost), GFP_KERNEL);
	if (!it->iters || !it->lost || rb_rec_alloc(&it->rec) || rb_text_alloc(&it->text))
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (cpu_file != RBT_ALL_CPUS && cpu != cpu_file)
			continue;
		it->iters[cpu] = rbt_iter_start(rb_fs_buffer, cpu, GFP_KERNEL);
		if (!it->iters[cpu])
			return -ENOMEM;
	}
	return 0;
}

static int rb_trace_open(struct inode *inode, struct file *file)
{
	int cpu = rb_file_cpu(inode), ret;
	struct rb_trace_iter *it;

	/* As tracefs: "echo > trace" empties the buffer (one CPU's, per CPU). */
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		rb_reset_buffer(cpu);
	if (!(file->f_mode & FMODE_READ))
		return 0;
	rb_reader_open();
	it = __seq_open_private(file, &rb_trace_seq_ops, sizeof(*it));
	if (!it) {
		rb_reader_close();
		return -ENOMEM;
	}
	ret = rb_trace_iter_init(it, cpu);
	if (ret) {
		rb_trace_iter_free(it);
		seq_release_private(inode, file);
		rb_reader_close();
	}
	return ret;
}

static int rb_trace_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	rb_trace_iter_free(m->private);
	seq_release_private(inode, file);
	rb_reader_close();
	return 0;
}

/* Writing is accepted and ignored; truncation at open resets (tracefs). */
static ssize_t rb_trace_write(struct file *file, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	return cnt;
}

static loff_t rb_trace_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

const struct file_operations rb_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= rb_trace_open,
	.read		= seq_read,
	.write		= rb_trace_write,
	.llseek		= rb_trace_llseek,
	.release	= rb_trace_release,
};

/*
 * trace_pipe: each read consumes records and returns their text. A line
 * that does not fit the reader's buffer is kept for the next read.
 */
struct rb_pipe_iter {
	struct mutex	lock;		/* one reader of this file at a time */
	int		cpu_file;
	struct rb_rec	rec;
	struct rb_text	text;
	size_t		text_off;	/* bytes of text already read */
	bool		read_any;
};

static size_t rb_pipe_pending(struct rb_pipe_iter *it)
{
	return seq_buf_used(&it->text.s) - it->text_off;
}

static bool rb_pipe_empty(struct rb_pipe_iter *it)
{
	int cpu;

	if (it->cpu_file != RBT_ALL_CPUS)
		return rbt_empty_cpu(rb_fs_buffer, it->cpu_file);
	for_each_possible_cpu(cpu)
		if (!rbt_empty_cpu(rb_fs_buffer, cpu))
			return false;
	return true;
}

/* The CPU with the oldest unread record, or -1. */
static int rb_pipe_oldest_cpu(struct rb_pipe_iter *it)
{
	int cpu, best = -1;
	u64 ts, best_ts = 0;

	for_each_possible_cpu(cpu) {
		if (it->cpu_file != RBT_ALL_CPUS && cpu != it->cpu_file)
			continue;
		rb_access_lock(cpu);
		if (rbt_peek(rb_fs_buffer, cpu, &ts, NULL) && (best < 0 || ts < best_ts)) {
			best = cpu;
			best_ts = ts;
		}
		rb_access_unlock(cpu);
	}
	return best;
}

/* Consume the oldest record into it->rec and format it; false if none. */
static bool rb_pipe_next(struct rb_pipe_iter *it)
{
	struct rbt_event *event;
	unsigned long lost = 0;
	int cpu = rb_pipe_oldest_cpu(it);
	u64 ts;

	if (cpu < 0)
		return false;
	rb_access_lock(cpu);
	event = rbt_consume(rb_fs_buffer, cpu, &ts, &lost);
	if (event)
		rb_rec_fill(&it->rec, event, ts, cpu);
	rb_access_unlock(cpu);
	if (!event)
		return false;
	it->rec.lost = lost;
	it->rec.lost_count = lost;
	rb_print_rec(&it->text, &it->rec);
	it->text_off = 0;
	return true;
}

/*
 * Wait for something to read. Return: 1 when there is, 0 at the end
 * (tracefs: tracing is off and this reader already read something),
 * -EAGAIN, or -EINTR.
 */
static int rb_pipe_wait(struct rb_pipe_iter *it, struct file *file)
{
	int ret;

	while (!rb_pipe_pending(it) && rb_pipe_empty(it)) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (!rbt_record_is_on(rb_fs_buffer) && it->read_any)
			return 0;
		mutex_unlock(&it->lock);
		ret = rbt_wait(rb_fs_buffer, it->cpu_file, 0);
		mutex_lock(&it->lock);
		if (ret)
			return ret;
	}
	return 1;
}

static ssize_t rb_pipe_read(struct file *file, char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	struct rb_pipe_iter *it = file->private_data;
	ssize_t done = 0;
	size_t n;
	int ret;

	if (!cnt)
		return 0;
	mutex_lock(&it->lock);
	ret = rb_pipe_wait(it, file);
	if (ret <= 0) {
		done = ret;
		goto out;
	}
	while (done < cnt) {
		if (!rb_pipe_pending(it) && !rb_pipe_next(it))
			break;
		n = min(rb_pipe_pending(it), cnt - done);
		if (copy_to_user(ubuf + done, it->text.buf + it->text_off, n)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		it->text_off += n;
		done += n;
	}
	if (done > 0)
		it->read_any = true;
out:
	mutex_unlock(&it->lock);
	return done;
}

static __poll_t rb_pipe_poll(struct file *file, struct poll_table_struct *pt)
{
	struct rb_pipe_iter *it = file->private_data;

	if (rb_pipe_pending(it))
		return EPOLLIN | EPOLLRDNORM;
	return rbt_poll_wait(rb_fs_buffer, it->cpu_file, file, pt, 0);
}

static void rb_pipe_free(struct rb_pipe_iter *it)
{
	kvfree(it->rec.data);
	kvfree(it->text.buf);
	kfree(it);
}

static int rb_pipe_open(struct inode *inode, struct file *file)
{
	struct rb_pipe_iter *it;

	it = kzalloc(sizeof(*it), GFP_KERNEL);
	if (!it)
		return -ENOMEM;
	rb_reader_open();
	if (rb_rec_alloc(&it->rec) || rb_text_alloc(&it->text)) {
		rb_pipe_free(it);
		rb_reader_close();
		return -ENOMEM;
	}
	mutex_init(&it->lock);
	it->cpu_file = rb_file_cpu(inode);
	file->private_data = it;
	return nonseekable_open(inode, file);
}

static int rb_pipe_release(struct inode *inode, struct file *file)
{
	struct rb_pipe_iter *it = file->private_data;

	mutex_destroy(&it->lock);
	rb_pipe_free(it);
	rb_reader_close();
	return 0;
}

const struct file_operations rb_trace_pipe_fops = {
	.owner		= THIS_MODULE,
	.open		= rb_pipe_open,
	.read		= rb_pipe_read,
	.poll		= rb_pipe_poll,
	.release	= rb_pipe_release,
};
