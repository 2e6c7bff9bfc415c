// SPDX-License-Identifier: GPL-2.0
/*
 * The control files of a tracer's buffer, as tracefs's: tracing_on,
 * buffer_size_kb (also per CPU), buffer_total_size_kb,
 * buffer_subbuf_size_kb, buffer_percent, trace_clock, tracing_cpumask,
 * syscall_user_buf_size and per_cpu/cpuN/stats. The tree that holds them is built by tree.c; the
 * tracer's other files (text, raw pages, events, marker, saved_cmdlines)
 * are in their own files of tracer/. Every file reaches its tracer
 * (struct rbtr_trace) through its inode.
 *
 * Files are root-only: 0600 control, 0400 read-only, 0200 write-only.
 * Every file takes a module reference while open (.owner), so rmmod
 * fails with -EBUSY while any is open, and rbtr_tree_exit() never races
 * a file operation. Every open first asks rbtr_check_open(): refused
 * under kernel lockdown, as tracefs's, and until the load is complete.
 * The tree is the last step of the load that can fail. A bad write
 * returns an errno and changes nothing.
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
#include "control.h"
#include "kevents_syscalls.h"
#include "trace.h"

/* Longest control-file write taken; tracefs's are short lines too. */
#define RBTR_CTRL_WRITE_MAX	64

/* tracing_on */
static ssize_t tracing_on_read(struct file *filp, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	bool on;

	/* The snapshot's "echo 0" frees a buffer under files_mutex. */
	mutex_lock(&tr->files_mutex);
	on = rbt_record_is_on(tr->buffer);
	mutex_unlock(&tr->files_mutex);
	return rbtr_read_u64(ubuf, cnt, ppos, on);
}

static ssize_t tracing_on_write(struct file *filp, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	/* As tracefs: off wakes the readers waiting for more, to see the end. */
	return rbtr_write_tr_bool(filp, ubuf, cnt, ppos, rbtr_buffers_set_on);
}

static const struct file_operations tracing_on_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
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
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	int cpu = rbtr_file_cpu(file_inode(filp)), i;
	unsigned long size = 0;
	bool same = true;
	char buf[32];
	int r;

	/* The snapshot's "echo 0" frees a buffer under it (snapshot.c). */
	mutex_lock(&tr->files_mutex);
	if (cpu != RBT_ALL_CPUS) {
		size = rbt_size(tr->buffer, cpu);
	} else {
		for_each_possible_cpu(i) {
			if (size && rbt_size(tr->buffer, i) != size)
				same = false;
			size = rbt_size(tr->buffer, i);
		}
	}
	mutex_unlock(&tr->files_mutex);
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
static int rbtr_read_kb(const char __user *ubuf, size_t cnt, unsigned long *kb)
{
	int ret = rbtr_write_ulong(ubuf, cnt, kb);

	if (ret)
		return ret;
	return *kb && *kb <= (ULONG_MAX >> 11) ? 0 : -EINVAL;
}

/* A size change was refused: one line saying which, why, and the errno. */
static int rbtr_size_failed(const char *file, unsigned long kb, int ret)
{
	pr_warn_ratelimited("rbtrace: %s %lu: failed (%d)%s\n", file, kb, ret,
			    ret == -EBUSY ? ": a trace file is open, or mmap()ed" : "");
	return ret;
}

static ssize_t buffer_size_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	int cpu = rbtr_file_cpu(file_inode(filp));
	unsigned long kb;
	int ret;

	ret = rbtr_read_kb(ubuf, cnt, &kb);
	if (ret)
		return ret;
	mutex_lock(&tr->files_mutex);
	ret = rbtr_buffers_resize(tr, kb << 10, cpu);
	mutex_unlock(&tr->files_mutex);
	if (ret)
		return rbtr_size_failed("buffer_size_kb", kb, ret);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations buffer_size_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= buffer_size_read,
	.write		= buffer_size_write,
	.llseek		= default_llseek,
};

/* buffer_total_size_kb: the sum over the CPUs, read-only. */
static ssize_t buffer_total_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	unsigned long total = 0;
	int cpu;

	mutex_lock(&tr->files_mutex);
	for_each_possible_cpu(cpu)
		total += rbt_size(tr->buffer, cpu) >> 10;
	mutex_unlock(&tr->files_mutex);
	return rbtr_read_u64(ubuf, cnt, ppos, total);
}

static const struct file_operations buffer_total_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= buffer_total_read,
	.llseek		= default_llseek,
};

/* buffer_subbuf_size_kb: sub-buffer size, header included, in KiB. */
static ssize_t subbuf_size_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	size_t size;

	mutex_lock(&tr->files_mutex);
	size = rbt_read_page_size(tr->buffer);
	mutex_unlock(&tr->files_mutex);
	return rbtr_read_u64(ubuf, cnt, ppos, size >> 10);
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
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	unsigned long kb, pages;
	int ret, order;

	ret = rbtr_read_kb(ubuf, cnt, &kb);
	if (ret)
		return ret;
	pages = DIV_ROUND_UP(kb << 10, PAGE_SIZE);
	order = fls_long(pages - 1);
	if (order > RBT_MAX_SUBBUF_ORDER)
		return -EINVAL;
	mutex_lock(&tr->files_mutex);
	ret = tr->readers_open ? -EBUSY : rbtr_buffers_set_subbuf_order(tr, order);
	mutex_unlock(&tr->files_mutex);
	if (ret)
		return rbtr_size_failed("buffer_subbuf_size_kb", kb, ret);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations subbuf_size_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= subbuf_size_read,
	.write		= subbuf_size_write,
	.llseek		= default_llseek,
};

/* buffer_percent: 0 to 100, the fill level splice and poll wait for. */
static ssize_t percent_read(struct file *filp, char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));

	return rbtr_read_u64(ubuf, cnt, ppos, rbtr_buffer_percent(tr));
}

static ssize_t percent_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	unsigned long val;
	int ret;

	ret = rbtr_write_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	if (val > 100)
		return -EINVAL;
	WRITE_ONCE(tr->buffer_percent, val);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations percent_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= percent_read,
	.write		= percent_write,
	.llseek		= default_llseek,
};

/*
 * syscall_user_buf_size (ftrace 6.19): the bytes of user memory a syscalls
 * enter record keeps per argument (kevents_sysuser.c). As ftrace's: a
 * number, more than 165 taken as 165, 0 keeping none.
 */
static ssize_t syscall_buf_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));

	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(tr->syscall_buf_sz));
}

static ssize_t syscall_buf_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	unsigned long val;
	int ret;

	ret = rbtr_write_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	WRITE_ONCE(tr->syscall_buf_sz, min_t(unsigned long, val, RBTR_KSYS_USER_MAX));
	*ppos += cnt;
	return cnt;
}

static const struct file_operations syscall_buf_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= syscall_buf_read,
	.write		= syscall_buf_write,
	.llseek		= default_llseek,
};

/* trace_clock: the ring buffer's clocks, the tracer's in brackets. */
static int trace_clock_show(struct seq_file *m, void *v)
{
	struct rbtr_trace *tr = m->private;
	const struct rbt_clock *cur = READ_ONCE(tr->clock), *c;
	unsigned int i;

	for (i = 0; (c = rbt_clock_by_index(i)); i++)
		seq_printf(m, "%s%s%s%s", i ? " " : "", cur == c ? "[" : "",
			   c->name, cur == c ? "]" : "");
	seq_putc(m, '\n');
	return 0;
}

static int trace_clock_open(struct inode *inode, struct file *file)
{
	struct rbtr_trace *tr = rbtr_file_trace(inode);
	int ret = rbtr_check_open_tr(tr);

	if (ret)
		return ret;
	ret = single_open(file, trace_clock_show, tr);
	if (ret)
		rbtr_trace_put(tr);
	return ret;
}

/* single_release() and the reference of a file of a tracer */
static int rbtr_ctrl_single_release(struct inode *inode, struct file *file)
{
	rbtr_trace_put(rbtr_file_trace(inode));
	return single_release(inode, file);
}

/**
 * rbtr_set_clock - switch the tracer's clock; empties its buffer
 * @tr: the tracer
 * @name: a name of trace_clock
 *
 * Stamps of two clocks do not mix, so the buffer is reset, and the
 * snapshot too, as ftrace's tracing_set_clock() does.
 *
 * Return: 0, or -EINVAL for an unknown clock.
 */
static int rbtr_set_clock(struct rbtr_trace *tr, const char *name)
{
	const struct rbt_clock *clock = rbt_clock_find(name), *old;
	int ret;

	if (!clock)
		return -EINVAL;
	mutex_lock(&tr->files_mutex);
	ret = rbt_clock_get(clock);
	if (ret)
		goto out;
	ret = rbtr_buffers_set_clock(tr, clock->read);
	if (ret) {
		rbt_clock_put(clock);
		goto out;
	}
	old = tr->clock;
	WRITE_ONCE(tr->clock, clock);
	rbtr_reset(tr, RBT_ALL_CPUS);
	if (tr->snap.spare)
		rbtr_reset_buffer(tr, tr->snap.spare, RBT_ALL_CPUS);
	if (old)
		rbt_clock_put(old);
out:
	mutex_unlock(&tr->files_mutex);
	return ret;
}

static ssize_t trace_clock_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	char buf[RBTR_CTRL_WRITE_MAX];
	int ret;

	if (!cnt || cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	ret = rbtr_set_clock(tr, strim(buf));
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
	.release	= rbtr_ctrl_single_release,
};

/*
 * tracing_cpumask: the CPUs whose events the tracer records, in hex; each
 * tracer's, as ftrace's tr->tracing_cpumask (the top's also rules the
 * function tracers).
 */
static ssize_t cpumask_read(struct file *filp, char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	cpumask_var_t mask;
	char *buf;
	ssize_t ret;
	int len;

	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	rbtr_get_traced_cpus(tr, mask);
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

/*
 * The longest text a mask of nr_cpu_ids CPUs takes: 8 hex digits for
 * every 32 CPUs, a comma between those chunks, a newline. A longer write
 * is refused before it is copied (cpumask_parse_user() copies it whole:
 * a huge write warned in the page allocator), with -EOVERFLOW, what
 * tracefs answers to a mask too long for the CPUs (bitmap_parse()).
 * Unlike tracefs, padding a mask with blanks past that length is refused.
 */
static size_t rbtr_cpumask_max_len(void)
{
	return 9 * DIV_ROUND_UP(nr_cpu_ids, 32);
}

static ssize_t cpumask_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	cpumask_var_t mask;
	int ret;

	if (!cnt)
		return -EINVAL;
	if (cnt > rbtr_cpumask_max_len())
		return -EOVERFLOW;
	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpumask_parse_user(ubuf, cnt, mask);
	if (!ret)
		rbtr_set_traced_cpus(tr, mask);
	free_cpumask_var(mask);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations cpumask_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= cpumask_read,
	.write		= cpumask_write,
	.llseek		= default_llseek,
};

/* per_cpu/cpuN/stats, in tracefs's format (trace-cmd parses it). */
static int stats_show(struct seq_file *m, void *v)
{
	struct inode *inode = m->private;
	struct rbtr_trace *tr = rbtr_file_trace(inode);
	int ret;

	mutex_lock(&tr->files_mutex);
	ret = rbt_print_cpu_stats(tr->buffer, rbtr_file_cpu(inode),
				  rbtr_clock_in_ns(tr), m);
	mutex_unlock(&tr->files_mutex);
	return ret;
}

static int stats_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open_tr(rbtr_file_trace(inode));

	if (ret)
		return ret;
	ret = single_open(file, stats_show, inode);
	if (ret)
		rbtr_trace_put(rbtr_file_trace(inode));
	return ret;
}

static const struct file_operations stats_fops = {
	.owner		= THIS_MODULE,
	.open		= stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rbtr_ctrl_single_release,
};

/**
 * rbtr_control_files - make a tracer's control files in its directory
 * @tr: the tracer; @tr->dir made
 *
 * debugfs_create_file() failures are not fatal, as for every file of
 * the tree: the directory stays usable without it.
 */
void rbtr_control_files(struct rbtr_trace *tr)
{
	struct dentry *top = tr->dir;

	debugfs_create_file("tracing_on", 0600, top, tr, &tracing_on_fops);
	debugfs_create_file("buffer_size_kb", 0600, top, tr, &buffer_size_fops);
	debugfs_create_file("buffer_total_size_kb", 0400, top, tr, &buffer_total_fops);
	debugfs_create_file("buffer_subbuf_size_kb", 0600, top, tr, &subbuf_size_fops);
	debugfs_create_file("buffer_percent", 0600, top, tr, &percent_fops);
	debugfs_create_file("trace_clock", 0600, top, tr, &trace_clock_fops);
	debugfs_create_file("tracing_cpumask", 0600, top, tr, &cpumask_fops);
	debugfs_create_file("syscall_user_buf_size", 0600, top, tr, &syscall_buf_fops);
}

/**
 * rbtr_control_cpu_files - make a tracer's control files of one CPU
 * @tr: the tracer
 * @dir: its per_cpu/cpuN directory
 * @cpu: N
 */
void rbtr_control_cpu_files(struct rbtr_trace *tr, struct dentry *dir, int cpu)
{
	rbtr_create_cpu_file("stats", 0400, dir, tr, cpu, &stats_fops);
	rbtr_create_cpu_file("buffer_size_kb", 0600, dir, tr, cpu, &buffer_size_fops);
}
