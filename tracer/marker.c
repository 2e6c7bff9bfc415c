// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace trace_marker and trace_marker_raw: user space writes a line (or
 * a binary record with an id) into the buffer, as ftrace's files of the
 * same names do, with ftrace's records (ftrace:print, ftrace:raw_data),
 * ids, size limits and cutting, so that tools read them unchanged.
 *
 * options/copy_trace_marker, as ftrace's from Linux 6.16: a write to the
 * top's markers goes into every tracer that has the option set, the top
 * (set by default) and each instance that sets it, so that a program
 * that writes to the top's trace_marker can be traced into an instance;
 * with the option set nowhere, such a write fails with -ENODEV. A write
 * to an instance's own markers goes into that instance only.
 *
 * The tracers that have it are on rbtr_marker_copies, an RCU list changed
 * under rbtr_marker_copies_mutex. A write to the top walks it under
 * rcu_read_lock(), its user pages faulted in before (a fault in the walk
 * writes "<faulted>", as ftrace's copies do, instead of sleeping to
 * retry). A tracer taken off waits for the walks that may have found it
 * (synchronize_rcu()) before it can be put on again or freed (an
 * instance's removal sets the option off first). When the top is the
 * only one, the write takes the path of an instance's, without the walk.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/pagemap.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "trace.h"

/* ftrace's TRACE_MARKER_MAX_SIZE: longer writes are cut to this. */
#define RBTR_MARKER_MAX_SIZE	4096
/* What a marker holds if user memory faulted while we copied it. */
#define RBTR_FAULTED_STR		"<faulted>"
#define RBTR_FAULTED_SIZE		(sizeof(RBTR_FAULTED_STR) - 1)

/* ftrace's struct print_entry */
struct rbtr_print_entry {
	struct rbtr_entry	ent;
	unsigned long	ip;
	char		buf[];
};

/* ftrace's struct raw_data_entry */
struct rbtr_raw_data_entry {
	struct rbtr_entry	ent;
	unsigned int	id;
	char		buf[];
};

/* The raw marker's id and the faulted text must fit. */
#define RBTR_FAULT_SIZE_ID	(RBTR_FAULTED_SIZE + sizeof(unsigned int))

static LIST_HEAD(rbtr_marker_copies);
static DEFINE_MUTEX(rbtr_marker_copies_mutex);
/*
 * How many are on the list: written (WRITE_ONCE) under the mutex by
 * rbtr_marker_copy_set(), read (READ_ONCE) without it by the writers'
 * rbtr_marker_top_only(), as tr->copy_marker is. A writer that reads a
 * value a moment old writes where it would have written a moment before:
 * no ordering with the list is needed, the walk reads the list itself.
 */
static unsigned int rbtr_marker_nr_copies;

/*
 * The ip tracing_mark_write() records, once it has run: its own name is
 * known, and looking it up in a module's symbol table (a linear search)
 * cost more than the rest of a trace_pipe line.
 */
static unsigned long rbtr_mark_write_ip;

/* "%ps" without the " [module]" suffix, as ftrace's kallsyms_lookup(). */
static void rbtr_print_ip_sym(struct seq_buf *s, unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];

	if (!ip) {
		seq_buf_printf(s, "0");
		return;
	}
	if (ip == READ_ONCE(rbtr_mark_write_ip)) {
		seq_buf_printf(s, "tracing_mark_write");
		return;
	}
	snprintf(sym, sizeof(sym), "%ps", (void *)ip);
	seq_buf_printf(s, "%.*s", (int)strcspn(sym, " "), sym);
}

/* "tracing_mark_write: hello\n": the text keeps the writer's newline. */
static void rbtr_print_print(struct seq_buf *s, const struct rbtr_event_type *type,
			     const void *rec, unsigned int len)
{
	const struct rbtr_print_entry *e = rec;
	unsigned int n;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "(short print record)\n");
		return;
	}
	n = strnlen(e->buf, len - sizeof(*e));
	rbtr_print_ip_sym(s, e->ip);
	seq_buf_printf(s, ": %.*s", n, e->buf);
	if (!n || e->buf[n - 1] != '\n')
		seq_buf_printf(s, "\n");
}

/**
 * rbtr_marker_print_msg - a marker's text alone, as trace_print_printk_msg_only()
 * @s: where to print
 * @rec: a record
 * @len: its size
 *
 * For function_graph, which shows a marker as a C comment holding its
 * text alone: the writer's newline is kept, the caller strips it.
 *
 * Return: false if @rec is not a trace_marker record (ftrace:print).
 */
bool rbtr_marker_print_msg(struct seq_buf *s, const void *rec, unsigned int len)
{
	const struct rbtr_print_entry *e = rec;

	if (len < sizeof(*e) || e->ent.type != RBTR_EVENT_PRINT_ID)
		return false;
	seq_buf_printf(s, "%.*s", (int)strnlen(e->buf, len - sizeof(*e)), e->buf);
	return true;
}

/* "# 1 buf: 61 62 ...": every byte of the record after the id. */
static void rbtr_print_raw_data(struct seq_buf *s, const struct rbtr_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rbtr_raw_data_entry *e = rec;
	unsigned int i;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "(short raw_data record)\n");
		return;
	}
	seq_buf_printf(s, "# %x buf:", e->id);
	for (i = 0; i < len - sizeof(*e); i++)
		seq_buf_printf(s, " %02x", (unsigned char)e->buf[i]);
	seq_buf_printf(s, "\n");
}

static const struct rbtr_field rbtr_print_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_print_entry)->ip, "unsigned long", "ip", RBTR_FIELD_HEX),
	RBTR_FIELD_FLEX(RBTR_REC(struct rbtr_print_entry)->buf, "char", "buf[]", RBTR_FIELD_CHARS),
};

static const struct rbtr_field rbtr_raw_data_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_raw_data_entry)->id, "unsigned int", "id", RBTR_FIELD_HEX),
	RBTR_FIELD_FLEX(RBTR_REC(struct rbtr_raw_data_entry)->buf, "char", "buf[]",
			RBTR_FIELD_BYTES),
};

/* A marker of the previous boot (persist_meta.c): its writer's address. */
static void rbtr_print_fix_addrs(void *rec, unsigned int len, rbtr_fix_ip_fn fix)
{
	struct rbtr_print_entry *e = rec;

	if (len >= sizeof(*e))
		e->ip = fix(e->ip);
}

/* No reg: always on and no enable file, as ftrace's own events. */
static struct rbtr_event_type rbtr_print_type = {
	.system		= "ftrace",
	.name		= "print",
	.id		= RBTR_EVENT_PRINT_ID,
	.fields		= rbtr_print_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_print_fields),
	.print_fmt	= "\"%ps: %s\", (void *)REC->ip, REC->buf",
	.print		= rbtr_print_print,
	.fix_addrs	= rbtr_print_fix_addrs,
};

static struct rbtr_event_type rbtr_raw_data_type = {
	.system		= "ftrace",
	.name		= "raw_data",
	.id		= RBTR_EVENT_RAW_DATA_ID,
	.fields		= rbtr_raw_data_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_raw_data_fields),
	.print_fmt	= "\"id:%04x %08x\", REC->id, (int)REC->buf[0]",
	.print		= rbtr_print_raw_data,
};

/*
 * Bytes of the reservation past what we wrote would show old buffer
 * contents to readers (the raw marker prints them all): zero them.
 */
static void rbtr_zero_tail(void *rec, unsigned int used, unsigned int size)
{
	unsigned int end = ALIGN(size, 4);

	if (used < end)
		memset(rec + used, 0, end - used);
}

/* Between the two tries of rbtr_marker_copy(): may sleep. */
static void rbtr_marker_fault_in(const void __user *ubuf, size_t cnt)
{
	if (fault_in_readable(ubuf, cnt))
		pr_debug("rbtrace: trace_marker: part of the buffer is not readable\n");
}

/*
 * Copy @cnt bytes of user memory into @dst, in the record @rec of @size
 * bytes reserved on @buffer. Preemption is off, so the copy cannot fault
 * a page in: a page not mapped yet fails it. The first time (@last
 * false) the record is given back (rbt_discard(): it was not committed,
 * so no reader has seen it), preemption turned back on (the caller's
 * preempt_disable_notrace()) and the pages faulted in; the caller then
 * reserves again. Faulting in before every write, as this did, cost
 * every marker the walk of its pages for a case that writes from memory
 * just touched hardly ever see.
 *
 * Return: 0 copied; -EAGAIN given back, preemption on: retry with @last
 * true; -EFAULT failed again: the caller stores "<faulted>", as ftrace
 * always does.
 */
static int rbtr_marker_copy(struct rbt_buffer *buffer, void *rec, unsigned int size,
			    void *dst, const void __user *ubuf, size_t cnt, bool last)
{
	if (likely(!copy_from_user_nofault(dst, ubuf, cnt)))
		return 0;
	if (last)
		return -EFAULT;
	rbt_discard(buffer, rec, size);
	preempt_enable_notrace();
	rbtr_marker_fault_in(ubuf, cnt);
	return -EAGAIN;
}

/*
 * One line into @tr, its record's ip @ip (tracing_mark_write()'s). @retry:
 * the caller may sleep, and a fault on the user's page is taken and the
 * copy done again; without (the walk of the copies, under RCU), it
 * writes "<faulted>".
 */
static ssize_t rbtr_mark_one(struct rbtr_trace *tr, const char __user *ubuf, size_t cnt,
			     unsigned int ctx, unsigned long ip, bool retry)
{
	/* The record, and room for a '\n' and the '\0'. */
	const unsigned int meta = sizeof(struct rbtr_print_entry) + 2;
	struct rbtr_print_entry *e;
	struct rbt_buffer *buffer;
	unsigned int size, max;
	bool last = !retry;
	ssize_t written;
	int ret;

again:
	/*
	 * From the read of the live buffer to the commit, preemption off:
	 * a snapshot may swap it meanwhile, "echo 0 > snapshot" free it
	 * only after a grace period (rbtr_live_buffer()).
	 */
	preempt_disable_notrace();
	buffer = rbtr_live_buffer(tr);
	/* Cut to what one event can hold, as ftrace's retry does. */
	max = rbt_max_event_size(buffer);
	if (cnt + meta > max)
		cnt = max - meta;
	size = cnt + meta;
	if (cnt < RBTR_FAULTED_SIZE)
		size += RBTR_FAULTED_SIZE - cnt;

	e = rbtr_event_reserve_type(tr, buffer, &rbtr_print_type, size, ctx);
	if (!e) {
		written = -EBADF;	/* recording off: ftrace's answer */
		goto out;
	}
	e->ip = ip;
	/*
	 * Stored once, not at every write: a line all CPUs wrote would
	 * bounce between them. Any value seen is tracing_mark_write()'s
	 * ip (@ip); the ONCE pair with rbtr_print_ip_sym()'s read keeps the
	 * word whole.
	 */
	if (unlikely(READ_ONCE(rbtr_mark_write_ip) != e->ip))
		WRITE_ONCE(rbtr_mark_write_ip, e->ip);
	written = cnt;
	ret = rbtr_marker_copy(buffer, e, size, e->buf, ubuf, cnt, last);
	if (unlikely(ret == -EAGAIN)) {
		last = true;
		goto again;
	}
	if (unlikely(ret)) {
		memcpy(e->buf, RBTR_FAULTED_STR, RBTR_FAULTED_SIZE);
		cnt = RBTR_FAULTED_SIZE;
		written = -EFAULT;
	}
	if (!cnt || e->buf[cnt - 1] != '\n')
		e->buf[cnt++] = '\n';
	e->buf[cnt] = '\0';
	rbtr_zero_tail(e, sizeof(*e) + cnt + 1, size);
	rbtr_event_commit_type(buffer, e);
out:
	preempt_enable_notrace();
	return written;
}

/*
 * A write to the top's markers goes to the top alone: the top has
 * copy_trace_marker and no instance has. Read without the mutex: a write
 * racing with a change of the option goes where it went before or after.
 */
static bool rbtr_marker_top_only(void)
{
	return READ_ONCE(rbtr_marker_nr_copies) == 1 && READ_ONCE(rbtr_global_trace.copy_marker);
}

/*
 * Write a marker to @tr's file with @one (rbtr_mark_one() or
 * rbtr_mark_raw_one()): into @tr itself, or for the top's files, into
 * every tracer on the copies' list (see the top of the file); none:
 * -ENODEV, as ftrace's. Always inline: @one is a direct call.
 */
static __always_inline ssize_t
rbtr_marker_write(struct rbtr_trace *tr, const char __user *ubuf, size_t cnt, unsigned long ip,
		  ssize_t (*one)(struct rbtr_trace *tr, const char __user *ubuf, size_t cnt,
				 unsigned int ctx, unsigned long ip, bool retry))
{
	unsigned int ctx = rbtr_trace_ctx();
	ssize_t written = -ENODEV;

	if (tr != &rbtr_global_trace || rbtr_marker_top_only())
		return one(tr, ubuf, cnt, ctx, ip, true);
	rbtr_marker_fault_in(ubuf, cnt);
	rcu_read_lock();
	list_for_each_entry_rcu(tr, &rbtr_marker_copies, marker_copy) {
		written = one(tr, ubuf, cnt, ctx, ip, false);
		if (written < 0)
			break;
	}
	rcu_read_unlock();
	return written;
}

/*
 * Named as ftrace's function: the record's ip points here, and tools
 * print it as "tracing_mark_write: <text>".
 */
static ssize_t tracing_mark_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	if ((ssize_t)cnt < 0)
		return -EINVAL;
	cnt = min_t(size_t, cnt, RBTR_MARKER_MAX_SIZE);
	return rbtr_marker_write(rbtr_file_trace(file_inode(filp)), ubuf, cnt, _THIS_IP_,
				 rbtr_mark_one);
}

/* One binary record into @tr; @retry as rbtr_mark_one()'s, no ip. */
static ssize_t rbtr_mark_raw_one(struct rbtr_trace *tr, const char __user *ubuf, size_t cnt,
				 unsigned int ctx, unsigned long ip, bool retry)
{
	struct rbtr_raw_data_entry *e;
	struct rbt_buffer *buffer;
	bool last = !retry;
	unsigned int size;
	ssize_t written;
	int ret;

	size = sizeof(*e) + cnt;
	if (cnt < RBTR_FAULT_SIZE_ID)
		size += RBTR_FAULT_SIZE_ID - cnt;
again:
	/* Preemption off from the buffer's read to the commit: as above. */
	preempt_disable_notrace();
	buffer = rbtr_live_buffer(tr);
	/* Not cut: a binary record is whole or refused, as in ftrace. */
	if (size > rbt_max_event_size(buffer)) {
		written = -EINVAL;
		goto out;
	}
	e = rbtr_event_reserve_type(tr, buffer, &rbtr_raw_data_type, size, ctx);
	if (!e) {
		written = -EBADF;
		goto out;
	}
	written = cnt;
	ret = rbtr_marker_copy(buffer, e, size, &e->id, ubuf, cnt, last);
	if (unlikely(ret == -EAGAIN)) {
		last = true;
		goto again;
	}
	if (unlikely(ret)) {
		e->id = -1;
		memcpy(e->buf, RBTR_FAULTED_STR, RBTR_FAULTED_SIZE);
		cnt = RBTR_FAULT_SIZE_ID;
		written = -EFAULT;
	}
	rbtr_zero_tail(e, offsetof(struct rbtr_raw_data_entry, id) + cnt, size);
	rbtr_event_commit_type(buffer, e);
out:
	preempt_enable_notrace();
	return written;
}

static ssize_t tracing_mark_raw_write(struct file *filp, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	/* The record must at least carry its id. */
	if (cnt < sizeof(unsigned int) || cnt > (PAGE_SIZE << RBT_MAX_SUBBUF_ORDER))
		return -EINVAL;
	return rbtr_marker_write(rbtr_file_trace(file_inode(filp)), ubuf, cnt, 0,
				 rbtr_mark_raw_one);
}

/**
 * rbtr_marker_copy_set - set or clear @tr's options/copy_trace_marker
 * @tr: the top or an instance
 * @on: whether writes to the top's markers go into @tr
 *
 * Process context. Clearing waits for the writes that may have found @tr
 * on the list (synchronize_rcu()): after it, @tr can be put on again
 * without a walk in flight seeing it twice, or freed (rbtr_instance_free()
 * clears it first).
 */
void rbtr_marker_copy_set(struct rbtr_trace *tr, bool on)
{
	mutex_lock(&rbtr_marker_copies_mutex);
	if (on && !tr->copy_marker) {
		list_add_tail_rcu(&tr->marker_copy, &rbtr_marker_copies);
		WRITE_ONCE(rbtr_marker_nr_copies, rbtr_marker_nr_copies + 1);
		WRITE_ONCE(tr->copy_marker, true);
	} else if (!on && tr->copy_marker) {
		list_del_rcu(&tr->marker_copy);
		WRITE_ONCE(rbtr_marker_nr_copies, rbtr_marker_nr_copies - 1);
		WRITE_ONCE(tr->copy_marker, false);
		synchronize_rcu();
	}
	mutex_unlock(&rbtr_marker_copies_mutex);
}

static const struct file_operations rbtr_marker_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr_nonseekable,
	.write		= tracing_mark_write,
	.release	= rbtr_release_tr,
};

static const struct file_operations rbtr_marker_raw_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr_nonseekable,
	.write		= tracing_mark_raw_write,
	.release	= rbtr_release_tr,
};

/**
 * rbtr_marker_init - register ftrace:print and ftrace:raw_data
 * @tr: the tracer markers go to
 *
 * Before the tree exists: the files come with it (rbtr_marker_files()).
 *
 * Return: 0 or a negative errno (nothing left registered).
 */
int rbtr_marker_init(struct rbtr_trace *tr)
{
	int ret;

	ret = rbtr_event_register(&rbtr_print_type);
	if (ret)
		return ret;
	ret = rbtr_event_register(&rbtr_raw_data_type);
	if (ret) {
		rbtr_event_unregister(&rbtr_print_type);
		return ret;
	}
	/* The top has copy_trace_marker set, as ftrace's. */
	rbtr_marker_copy_set(tr, true);
	return 0;
}

/**
 * rbtr_marker_files - create trace_marker and trace_marker_raw
 * @tr: the tracer whose directory gets them, and whose buffer markers go to
 */
void rbtr_marker_files(struct rbtr_trace *tr)
{
	/*
	 * Without debugfs's proxy, as trace_pipe_raw: its reference
	 * around every write() and the fault-in before every copy cost a
	 * marker 134 of its 1035 instructions (-icount), and the open
	 * (rbtr_open_tr(): the tracer checked against the live ones and
	 * held, the module held by .owner) is what keeps the tracer and
	 * the code alive for the write, not the proxy.
	 */
	debugfs_create_file_unsafe("trace_marker", 0200, tr->dir, tr, &rbtr_marker_fops);
	debugfs_create_file_unsafe("trace_marker_raw", 0200, tr->dir, tr,
				   &rbtr_marker_raw_fops);
}

/**
 * rbtr_marker_exit - unregister the marker events
 */
void rbtr_marker_exit(void)
{
	rbtr_marker_copy_set(&rbtr_global_trace, false);
	rbtr_event_unregister(&rbtr_raw_data_type);
	rbtr_event_unregister(&rbtr_print_type);
}
