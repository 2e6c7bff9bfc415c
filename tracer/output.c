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
#include "event.h"
#include "function.h"
#include "persist.h"
#include "trace.h"

/* A record copied out of the buffer, with its CPU, stamp and losses. */
struct rbtr_rec {
	void		*data;
	unsigned int	size;		/* of @data: a sub-buffer */
	unsigned int	len;
	u64		ts;
	int		cpu;
	bool		lost;		/* events lost before it */
	unsigned long	lost_count;	/* how many, 0 if unknown */
	bool		addrs_fixed;	/* persist: shifted once, show may retry */
	/* function_graph: a leaf entry's return, read along with it */
	unsigned int	leaf_len;	/* 0: not a leaf */
	u64		leaf[RBTR_GRAPH_LEAF_MAX / sizeof(u64)];
};

/* One line of text; the longest is a raw marker: three chars a byte. */
struct rbtr_text {
	char		*buf;
	size_t		size;
	struct seq_buf	s;
};

static int rbtr_rec_alloc(struct rbt_buffer *buffer, struct rbtr_rec *rec)
{
	rec->size = rbt_subbuf_size(buffer);
	rec->data = kvmalloc(rec->size, GFP_KERNEL);
	return rec->data ? 0 : -ENOMEM;
}

static int rbtr_text_alloc(struct rbt_buffer *buffer, struct rbtr_text *t)
{
	t->size = 3 * rbt_subbuf_size(buffer) + 512;
	t->buf = kvmalloc(t->size, GFP_KERNEL);
	seq_buf_init(&t->s, t->buf, t->size);
	return t->buf ? 0 : -ENOMEM;
}

/* Copy an event's payload into @rec. */
static void rbtr_rec_fill(struct rbtr_rec *rec, struct rbt_event *event, u64 ts, int cpu)
{
	rec->len = min(rbt_event_length(event), rec->size);
	memcpy(rec->data, rbt_event_data(event), rec->len);
	rec->ts = ts;
	rec->cpu = cpu;
	rec->leaf_len = 0;
	rec->addrs_fixed = false;
}

/*
 * ftrace's get_return_for_leaf(): a function entry whose next record on
 * its CPU, @next, is its own return is one line; keep the return with it.
 * Return: true if @next was taken (the caller steps over it).
 */
static bool rbtr_rec_take_leaf(struct rbtr_rec *rec, struct rbt_event *next)
{
	unsigned int len;

	if (!next)
		return false;
	len = rbt_event_length(next);
	if (len > sizeof(rec->leaf) ||
	    !rbtr_graph_is_leaf(rec->data, rec->len, rbt_event_data(next), len))
		return false;
	memcpy(rec->leaf, rbt_event_data(next), len);
	rec->leaf_len = len;
	return true;
}

/* irqs-off, need-resched, hardirq/softirq, preempt, migrate: "d.h1." */
static void rbtr_print_lat(struct seq_buf *s, const struct rbtr_entry *ent)
{
	unsigned int f = ent->flags, pc = ent->preempt_count;
	bool bh_off = f & RBTR_FLAG_BH_OFF, nmi = f & RBTR_FLAG_NMI;
	bool hard = f & RBTR_FLAG_HARDIRQ, soft = f & RBTR_FLAG_SOFTIRQ;
	char irqs_off, resched, hardsoft;

	irqs_off = (f & RBTR_FLAG_IRQS_OFF) ? (bh_off ? 'D' : 'd') :
		bh_off ? 'b' : (f & RBTR_FLAG_IRQS_NOSUPPORT) ? 'X' : '.';
	switch (f & (RBTR_FLAG_NEED_RESCHED | RBTR_FLAG_PREEMPT_RESCHED)) {
	case RBTR_FLAG_NEED_RESCHED | RBTR_FLAG_PREEMPT_RESCHED:
		resched = 'N';
		break;
	case RBTR_FLAG_NEED_RESCHED:
		resched = 'n';
		break;
	case RBTR_FLAG_PREEMPT_RESCHED:
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
static void rbtr_print_rec(struct rbtr_trace *tr, struct rbtr_text *t,
			   struct rbtr_graph_text *gt, struct rbtr_rec *rec)
{
	static const struct rbtr_entry no_entry;
	const struct rbtr_entry *ent = rec->len >= sizeof(*ent) ? rec->data : &no_entry;
	char comm[TASK_COMM_LEN];

	/* The previous boot's data: its addresses in this boot's terms. */
	if (!rec->addrs_fixed) {
		rbtr_persist_fix_rec(tr, rec->data, rec->len);
		if (rec->leaf_len)
			rbtr_persist_fix_rec(tr, rec->leaf, rec->leaf_len);
		rec->addrs_fixed = true;
	}
	seq_buf_init(&t->s, t->buf, t->size);
	if (rec->lost && rec->lost_count)
		seq_buf_printf(&t->s, "CPU:%d [LOST %lu EVENTS]\n", rec->cpu, rec->lost_count);
	else if (rec->lost)
		seq_buf_printf(&t->s, "CPU:%d [LOST EVENTS]\n", rec->cpu);
	/* function_graph's own line layout (function_graph.c) */
	if (rbtr_graph_print(tr, gt, &t->s, rec->data, rec->len,
			     rec->leaf_len ? rec->leaf : NULL, rec->cpu, rec->ts))
		goto out;
	rbtr_cmdline_find(ent->pid, comm);
	seq_buf_printf(&t->s, "%16s-%-7d [%03d] ", comm, ent->pid, rec->cpu);
	rbtr_print_lat(&t->s, ent);
	rbtr_print_ts(tr, &t->s, rec->ts);
	seq_buf_printf(&t->s, ": ");
	rbtr_event_print_as(&t->s, rec->data, rec->len, READ_ONCE(tr->print_fields));
out:
	/* A line cut short still ends a line. */
	if (seq_buf_has_overflowed(&t->s))
		t->buf[t->size - 1] = '\n';
}

/*
 * ftrace's header for the trace file with the default options; for an
 * empty or freed snapshot, ftrace's help text of the snapshot file.
 */
static void rbtr_print_header(struct seq_file *m, struct rbtr_trace *tr,
			      struct rbt_buffer *buffer, bool snapshot, int cpu_file)
{
	u64 entries = 0, total = 0, shown = 0;
	struct rbt_cpu_stats st;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (!buffer || rbt_cpu_stats(buffer, cpu, &st))
			continue;
		if (cpu_file == RBT_ALL_CPUS || cpu == cpu_file)
			shown += st.entries;
		entries += st.entries;
		total += st.entries + st.overrun;
	}
	if (snapshot && !shown) {
		seq_printf(m, "# tracer: %s\n#\n", rbtr_current_tracer_name(tr));
		rbtr_snapshot_help(m, tr, cpu_file);
		return;
	}
	if (rbtr_graph_print_header(m, tr))
		return;
	seq_printf(m, "# tracer: %s\n#\n", rbtr_current_tracer_name(tr));
	seq_printf(m, "# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n",
		   entries, total, num_online_cpus());
	/* Stamps mean nothing without their clock (trace_clock). */
	seq_printf(m, "# clock: %s\n", rbtr_clock_name(tr));
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
struct rbtr_trace_iter {
	struct rbtr_trace *tr;
	struct rbt_buffer *buffer;	/* bound at open; NULL: no snapshot */
	bool		snapshot;
	int		cpu_file;
	struct rbt_iter	**iters;
	bool		*lost;
	struct rbtr_rec	rec;
	bool		have_rec;
	loff_t		pos;
	struct rbtr_text	text;
	loff_t		text_pos;	/* the record @text holds, 0: none */
	struct rbtr_graph_text	*graph;
};

/* Copy the oldest record of the CPUs read into it->rec. */
static bool rbtr_trace_find(struct rbtr_trace_iter *it)
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
	rbtr_rec_fill(&it->rec, best, best_ts, best_cpu);
	it->rec.lost = it->lost[best_cpu];
	it->rec.lost_count = 0;
	it->lost[best_cpu] = false;
	/*
	 * Past the record now (it is copied), as ftrace's iterator is past
	 * iter->ent: a function entry's next record on its CPU can be read.
	 */
	rbt_iter_advance(it->iters[best_cpu]);
	if (rbtr_graph_leaf_wanted(it->tr, it->rec.data, it->rec.len)) {
		event = rbt_iter_peek(it->iters[best_cpu], &ts);
		if (rbt_iter_dropped(it->iters[best_cpu]))
			it->lost[best_cpu] = true;
		if (rbtr_rec_take_leaf(&it->rec, event))
			rbt_iter_advance(it->iters[best_cpu]);
	}
	return true;
}

static void rbtr_trace_rewind(struct rbtr_trace_iter *it)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (it->iters[cpu])
			rbt_iter_reset(it->iters[cpu]);
		it->lost[cpu] = false;
	}
	it->have_rec = false;
	it->pos = 0;
	it->text_pos = 0;
	rbtr_graph_text_reset(it->graph);
}

/*
 * Move from the current record to the next one: it->pos + 1. A seek to a
 * huge offset steps through every record (seq_file's traverse()): let
 * the scheduler in, and let SIGKILL end it.
 */
static void *rbtr_trace_step(struct rbtr_trace_iter *it)
{
	cond_resched();
	if (fatal_signal_pending(current))
		return ERR_PTR(-EINTR);
	/* rbtr_trace_find() already stepped past the current record. */
	it->pos++;
	return rbtr_trace_find(it) ? &it->rec : NULL;
}

static void *rbtr_trace_start(struct seq_file *m, loff_t *pos)
{
	struct rbtr_trace_iter *it = m->private;

	if (*pos == 0) {
		rbtr_trace_rewind(it);
		return SEQ_START_TOKEN;
	}
	if (*pos < it->pos)
		rbtr_trace_rewind(it);
	/* Asked for the current record again: show it again. */
	if (*pos == it->pos && it->have_rec)
		return &it->rec;
	if (*pos == it->pos) {
		/* It was the end; maybe not any more. */
		it->pos--;
	}
	while (it->pos < *pos) {
		void *v = rbtr_trace_step(it);

		if (IS_ERR_OR_NULL(v))
			return v;
	}
	return &it->rec;
}

static void *rbtr_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct rbtr_trace_iter *it = m->private;

	(*pos)++;
	return rbtr_trace_step(it);
}

static void rbtr_trace_stop(struct seq_file *m, void *v)
{
}

static int rbtr_trace_show(struct seq_file *m, void *v)
{
	struct rbtr_trace_iter *it = m->private;

	if (v == SEQ_START_TOKEN) {
		rbtr_print_header(m, it->tr, it->buffer, it->snapshot, it->cpu_file);
		return 0;
	}
	/*
	 * Shown again (it did not fit in the last read): the same text, as
	 * ftrace's iter->leftover. Formatting it again would change it: the
	 * graph text's state (banners, braces) moved on the first time.
	 */
	if (it->text_pos != it->pos) {
		rbtr_print_rec(it->tr, &it->text, it->graph, v);
		it->text_pos = it->pos;
	}
	seq_write(m, it->text.buf, seq_buf_used(&it->text.s));
	return 0;
}

static const struct seq_operations rbtr_trace_seq_ops = {
	.start	= rbtr_trace_start,
	.next	= rbtr_trace_next,
	.stop	= rbtr_trace_stop,
	.show	= rbtr_trace_show,
};

static void rbtr_trace_iter_free(struct rbtr_trace_iter *it)
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
	rbtr_graph_text_free(it->graph);
}

static int rbtr_trace_iter_init(struct rbtr_trace_iter *it, struct rbtr_trace *tr,
				int cpu_file)
{
	int cpu;

	it->tr = tr;
	it->cpu_file = cpu_file;
	it->iters = kcalloc(nr_cpu_ids, sizeof(*it->iters), GFP_KERNEL);
	it->lost = kcalloc(nr_cpu_ids, sizeof(*it->lost), GFP_KERNEL);
	it->graph = rbtr_graph_text_alloc();
	if (!it->iters || !it->lost || !it->graph)
		return -ENOMEM;
	/* No snapshot allocated: the header alone (rbtr_print_header()). */
	if (!it->buffer)
		return 0;
	if (rbtr_rec_alloc(it->buffer, &it->rec) || rbtr_text_alloc(it->buffer, &it->text))
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (cpu_file != RBT_ALL_CPUS && cpu != cpu_file)
			continue;
		it->iters[cpu] = rbt_iter_start(it->buffer, cpu, GFP_KERNEL);
		if (!it->iters[cpu])
			return -ENOMEM;
	}
	return 0;
}

/**
 * rbtr_trace_open_buffer - open trace, or snapshot, for reading
 * @inode: the file's inode
 * @file: the file, open for reading
 * @snapshot: read the snapshot (bound at open: rbtr_reader_open())
 *
 * Return: 0, -ENOMEM.
 */
int rbtr_trace_open_buffer(struct inode *inode, struct file *file, bool snapshot)
{
	struct rbtr_trace *tr = rbtr_file_trace(inode);
	struct rbtr_trace_iter *it;
	struct rbt_buffer *buffer;
	int ret;

	buffer = rbtr_reader_open(tr, snapshot);
	it = __seq_open_private(file, &rbtr_trace_seq_ops, sizeof(*it));
	if (!it) {
		rbtr_reader_close(tr, buffer);
		return -ENOMEM;
	}
	it->buffer = buffer;
	it->snapshot = snapshot;
	ret = rbtr_trace_iter_init(it, tr, rbtr_file_cpu(inode));
	if (ret) {
		rbtr_trace_iter_free(it);
		seq_release_private(inode, file);
		rbtr_reader_close(tr, buffer);
		return ret;
	}
	/*
	 * ftrace's pause-on-trace (its default): no recording while trace
	 * is open for reading, on every CPU. Else a reader whose own reads
	 * are traced (syscalls, kmem) chases the events it causes and, in
	 * overwrite mode with the buffer full, was seen never to reach the
	 * end (events/kevents-systems). Not for snapshot (ftrace's neither):
	 * nothing records into it.
	 */
	if (!snapshot)
		rbtr_pause(tr);
	return 0;
}

static int rbtr_trace_open(struct inode *inode, struct file *file)
{
	struct rbtr_trace *tr = rbtr_file_trace(inode);
	int ret;

	ret = rbtr_check_open();
	if (ret)
		return ret;
	ret = rbtr_trace_get(tr);
	if (ret)
		return ret;
	/* As tracefs: "echo > trace" empties the buffer (one CPU's, per CPU). */
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&tr->files_mutex);
		rbtr_reset(tr, rbtr_file_cpu(inode));
		mutex_unlock(&tr->files_mutex);
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;
	ret = rbtr_trace_open_buffer(inode, file, false);
	if (ret)
		rbtr_trace_put(tr);
	return ret;
}

/**
 * rbtr_trace_release - release of trace or snapshot
 * @inode: the file's inode
 * @file: the file
 *
 * Drops the reference of the open (rbtr_trace_get()).
 *
 * Return: 0.
 */
int rbtr_trace_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct rbtr_trace_iter *it;
	struct rbt_buffer *buffer;
	bool snapshot;

	if (!(file->f_mode & FMODE_READ)) {
		rbtr_trace_put(rbtr_file_trace(inode));
		return 0;
	}
	it = m->private;
	buffer = it->buffer;
	snapshot = it->snapshot;
	/* The iterators go back to the buffer they came from. */
	rbtr_trace_iter_free(it);
	seq_release_private(inode, file);
	if (!snapshot)
		rbtr_unpause(rbtr_file_trace(inode));
	rbtr_reader_close(rbtr_file_trace(inode), buffer);
	rbtr_trace_put(rbtr_file_trace(inode));
	return 0;
}

/* Writing is accepted and ignored; truncation at open resets (tracefs). */
static ssize_t rbtr_trace_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	return cnt;
}

static loff_t rbtr_trace_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

const struct file_operations rbtr_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_trace_open,
	.read		= seq_read,
	.write		= rbtr_trace_write,
	.llseek		= rbtr_trace_llseek,
	.release	= rbtr_trace_release,
};

/*
 * trace_pipe: each read consumes records and returns their text, at most
 * a page of it (RBTR_PIPE_READ_MAX), as ftrace bounds one read by its
 * trace_seq (a page up to 6.7, 8 KiB less a few bytes since): a read of
 * any size does a bounded amount of work. A read returns whole lines; a
 * line longer than the read (or than a page) comes in pieces, the rest
 * kept for the next read.
 */
#define RBTR_PIPE_READ_MAX	PAGE_SIZE

struct rbtr_pipe_iter {
	struct rbtr_trace *tr;
	struct rbt_buffer *buffer;	/* the live one: rbtr_pipe_follow() */
	unsigned int	polled;		/* rbtr_reader_poll_pin() */
	struct mutex	lock;		/* one reader of this file at a time */
	int		cpu_file;
	struct rbtr_rec	rec;
	struct rbtr_text	text;
	size_t		text_off;	/* bytes of text already read */
	bool		read_any;
	struct rbtr_graph_text	*graph;
};

/*
 * Read the live buffer, as ftrace's trace_pipe reads tr->array_buffer:
 * after a snapshot, what was recorded since, not the snapshot. A reader
 * holds nothing of its buffer between records (the text it has not
 * handed out yet is a copy), so it just moves its pin. it->lock held.
 */
static void rbtr_pipe_follow(struct rbtr_pipe_iter *it)
{
	if (unlikely(READ_ONCE(it->tr->buffer) != it->buffer))
		it->buffer = rbtr_reader_follow(it->tr, it->buffer);
}

static size_t rbtr_pipe_pending(struct rbtr_pipe_iter *it)
{
	return seq_buf_used(&it->text.s) - it->text_off;
}

static bool rbtr_pipe_empty(struct rbtr_pipe_iter *it)
{
	int cpu;

	if (it->cpu_file != RBT_ALL_CPUS)
		return rbt_empty_cpu(it->buffer, it->cpu_file);
	/* A mapped CPU's events are its mapping's: nothing for us. */
	for_each_possible_cpu(cpu)
		if (!rbt_empty_cpu(it->buffer, cpu) &&
		    !rbt_cpu_mapped(it->buffer, cpu))
			return false;
	return true;
}

/* The CPU with the oldest unread record, or -1. */
static int rbtr_pipe_oldest_cpu(struct rbtr_pipe_iter *it)
{
	int cpu, best = -1;
	u64 ts, best_ts = 0;

	for_each_possible_cpu(cpu) {
		if (it->cpu_file != RBT_ALL_CPUS && cpu != it->cpu_file)
			continue;
		rbtr_access_lock(it->tr, cpu);
		if (rbt_peek(it->buffer, cpu, &ts, NULL) && (best < 0 || ts < best_ts)) {
			best = cpu;
			best_ts = ts;
		}
		rbtr_access_unlock(it->tr, cpu);
	}
	return best;
}

/*
 * Copy a consumed record; a function entry takes its return along if that
 * is the next record on the CPU (a leaf). A return not written yet, or
 * after lost events, is printed on its own later, as ftrace's.
 */
static void rbtr_pipe_fill(struct rbtr_pipe_iter *it, struct rbt_event *event, u64 ts,
			   int cpu)
{
	unsigned long lost = 0;
	struct rbt_event *next;

	rbtr_rec_fill(&it->rec, event, ts, cpu);
	if (!rbtr_graph_leaf_wanted(it->tr, it->rec.data, it->rec.len))
		return;
	next = rbt_peek(it->buffer, cpu, NULL, &lost);
	if (!lost && rbtr_rec_take_leaf(&it->rec, next))
		rbt_consume(it->buffer, cpu, NULL, NULL);
}

/* Consume the oldest record into it->rec and format it; false if none. */
static bool rbtr_pipe_next(struct rbtr_pipe_iter *it)
{
	struct rbt_event *event;
	unsigned long lost = 0;
	u64 ts;
	int cpu;

	rbtr_pipe_follow(it);
	cpu = rbtr_pipe_oldest_cpu(it);

	if (cpu < 0)
		return false;
	rbtr_access_lock(it->tr, cpu);
	event = rbt_consume(it->buffer, cpu, &ts, &lost);
	if (event)
		rbtr_pipe_fill(it, event, ts, cpu);
	rbtr_access_unlock(it->tr, cpu);
	if (!event)
		return false;
	it->rec.lost = lost;
	it->rec.lost_count = lost;
	rbtr_print_rec(it->tr, &it->text, it->graph, &it->rec);
	it->text_off = 0;
	return true;
}

/*
 * Wait for something to read. Return: 1 when there is, 0 at the end
 * (tracefs: tracing is off and this reader already read something),
 * -EAGAIN, or -EINTR.
 */
static int rbtr_pipe_wait(struct rbtr_pipe_iter *it, struct file *file)
{
	struct rbt_buffer *buffer;
	int ret;

	for (;;) {
		/* A swap wakes us (rbtr_snap_wake()): read the new live one. */
		rbtr_pipe_follow(it);
		if (rbtr_pipe_pending(it) || !rbtr_pipe_empty(it))
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (!rbt_record_is_on(it->buffer) && it->read_any)
			return 0;
		/* Another thread of this file may follow meanwhile. */
		buffer = it->buffer;
		rbtr_reader_pin(it->tr, buffer);
		mutex_unlock(&it->lock);
		ret = rbt_wait(buffer, it->cpu_file, 0);
		rbtr_reader_unpin(it->tr, buffer);
		mutex_lock(&it->lock);
		if (ret)
			return ret;
	}
	return 1;
}

static ssize_t rbtr_pipe_read(struct file *file, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct rbtr_pipe_iter *it = file->private_data;
	ssize_t done = 0;
	size_t n;
	int ret;

	if (!cnt)
		return 0;
	cnt = min_t(size_t, cnt, RBTR_PIPE_READ_MAX);
	mutex_lock(&it->lock);
	rbtr_pipe_follow(it);
	/* The mapping is a mapped CPU's one consumer (rbt_cpu_mapped()). */
	if (it->cpu_file != RBT_ALL_CPUS && rbt_cpu_mapped(it->buffer, it->cpu_file)) {
		done = -EBUSY;
		goto out;
	}
wait_again:
	ret = rbtr_pipe_wait(it, file);
	if (ret <= 0) {
		done = ret;
		goto out;
	}
	while (done < cnt) {
		if (!rbtr_pipe_pending(it)) {
			if (fatal_signal_pending(current))
				break;
			if (!rbtr_pipe_next(it))
				break;
			cond_resched();
		}
		n = rbtr_pipe_pending(it);
		/* A whole line that does not fit waits for the next read. */
		if (done && !it->text_off && n > cnt - done)
			break;
		n = min(n, cnt - done);
		if (copy_to_user(ubuf + done, it->text.buf + it->text_off, n)) {
			if (!done)
				done = -EFAULT;
			break;
		}
		it->text_off += n;
		done += n;
	}
	/*
	 * Nothing read although rbtr_pipe_wait() saw a record: another
	 * reader of the same CPUs (another open file) consumed it between
	 * our empty check and our consume. Returning 0 here would be an
	 * end of file to cat while tracing is on; wait again, as ftrace's
	 * tracing_read_pipe() does. Not a spin: the next rbtr_pipe_wait()
	 * sleeps until a new record, and each pass either reads or loses a
	 * record to a peer that read it.
	 */
	if (!done && !fatal_signal_pending(current)) {
		cond_resched();
		goto wait_again;
	}
	if (done > 0)
		it->read_any = true;
	else if (!done)
		done = -EINTR;
out:
	mutex_unlock(&it->lock);
	return done;
}

static __poll_t rbtr_pipe_poll(struct file *file, struct poll_table_struct *pt)
{
	struct rbtr_pipe_iter *it = file->private_data;
	__poll_t ret = EPOLLIN | EPOLLRDNORM;

	mutex_lock(&it->lock);
	rbtr_pipe_follow(it);
	if (!rbtr_pipe_pending(it)) {
		/* An epoll entry outlives this call: the buffer stays pinned. */
		rbtr_reader_poll_pin(it->tr, it->buffer, &it->polled);
		ret = rbt_poll_wait(it->buffer, it->cpu_file, file, pt, 0);
	}
	mutex_unlock(&it->lock);
	return ret;
}

static void rbtr_pipe_free(struct rbtr_pipe_iter *it)
{
	kvfree(it->rec.data);
	kvfree(it->text.buf);
	rbtr_graph_text_free(it->graph);
	kfree(it);
}

static int rbtr_pipe_open(struct inode *inode, struct file *file)
{
	struct rbtr_trace *tr = rbtr_file_trace(inode);
	struct rbtr_pipe_iter *it;
	int ret;

	ret = rbtr_check_open();
	if (ret)
		return ret;
	ret = rbtr_trace_get(tr);
	if (ret)
		return ret;
	it = kzalloc(sizeof(*it), GFP_KERNEL);
	if (!it) {
		rbtr_trace_put(tr);
		return -ENOMEM;
	}
	it->tr = tr;
	it->buffer = rbtr_reader_open(tr, false);
	it->graph = rbtr_graph_text_alloc();
	if (!it->graph || rbtr_rec_alloc(it->buffer, &it->rec) ||
	    rbtr_text_alloc(it->buffer, &it->text)) {
		rbtr_reader_close(tr, it->buffer);
		rbtr_pipe_free(it);
		rbtr_trace_put(tr);
		return -ENOMEM;
	}
	mutex_init(&it->lock);
	it->cpu_file = rbtr_file_cpu(inode);
	file->private_data = it;
	return nonseekable_open(inode, file);
}

static int rbtr_pipe_release(struct inode *inode, struct file *file)
{
	struct rbtr_pipe_iter *it = file->private_data;

	mutex_destroy(&it->lock);
	rbtr_reader_poll_unpin(it->tr, it->polled);
	rbtr_reader_close(it->tr, it->buffer);
	rbtr_trace_put(it->tr);
	rbtr_pipe_free(it);
	return 0;
}

const struct file_operations rbtr_trace_pipe_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_pipe_open,
	.read		= rbtr_pipe_read,
	.poll		= rbtr_pipe_poll,
	.release	= rbtr_pipe_release,
};
