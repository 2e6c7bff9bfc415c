// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's tracer state: one struct rbtr_trace per tracer, holding its
 * buffer, its clock, its readers count and the locks its files share.
 * The files (control.c, output.c, pipe_raw.c, ...) reach it through
 * their inode's i_private, as tracefs's files reach their trace_array,
 * and hold a reference on it while open (rbtr_trace_get(), against the
 * list of instance.c's tracers, as ftrace's trace_array_get()).
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include "trace.h"

struct rbtr_trace rbtr_global_trace;

/*
 * Files may be opened: set once the load can no longer fail. A file
 * opened before would keep its operations, and a module reference,
 * after a failed load freed the module (do_init_module() does not wait
 * for references); refused, the open has left the module's code before
 * the failing load's debugfs_remove_recursive() returns.
 */
static bool rbtr_files_live;

/**
 * rbtr_check_open - may a file of rbtrace be opened now?
 *
 * Called first by every open of every file.
 *
 * Return: 0; -EPERM when the kernel is locked down for tracing
 * (LOCKDOWN_TRACEFS: lockdown=confidentiality), as every open of tracefs;
 * -ENODEV while the module is still loading.
 */
int rbtr_check_open(void)
{
	int ret = security_locked_down(LOCKDOWN_TRACEFS);

	if (ret)
		return ret;
	/* Pairs with the release in rbtr_files_publish(). */
	if (!smp_load_acquire(&rbtr_files_live))
		return -ENODEV;
	return 0;
}

/**
 * rbtr_files_publish - let the files be opened: the load cannot fail now
 */
void rbtr_files_publish(void)
{
	/* Everything made before is seen: pairs with rbtr_check_open(). */
	smp_store_release(&rbtr_files_live, true);
}

/**
 * rbtr_files_unpublish - refuse opens again, before the tree is removed
 */
void rbtr_files_unpublish(void)
{
	WRITE_ONCE(rbtr_files_live, false);
}

/**
 * rbtr_open_generic - the open of a file without one of its own
 * @inode: its inode
 * @file: the file
 *
 * Return: 0 or the refusal of rbtr_check_open().
 */
int rbtr_open_generic(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	return ret ?: simple_open(inode, file);
}

/**
 * rbtr_open_nonseekable - nonseekable_open(), checked
 * @inode: its inode
 * @file: the file
 *
 * Return: 0 or the refusal of rbtr_check_open().
 */
int rbtr_open_nonseekable(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	return ret ?: nonseekable_open(inode, file);
}

/*
 * The instances, their references (tr->ref, tr->dead) and the list, as
 * ftrace's trace_types_lock. Taken before the directories' inode locks
 * (mkdir and rmdir drop the VFS's first); never held across the removal
 * of files, which waits for the opens in flight of debugfs's proxied
 * files, and those wait for it in rbtr_trace_get().
 */
DEFINE_MUTEX(rbtr_instances_mutex);
LIST_HEAD(rbtr_instances);

/**
 * rbtr_trace_get - a file of @tr is being opened: take a reference
 * @tr: its inode's i_private, maybe an instance removed since
 *
 * @tr is compared with the live tracers' addresses before it is used:
 * a removed one is not dereferenced.
 *
 * Return: 0, or -ENODEV when @tr is being removed or is gone.
 */
int rbtr_trace_get(struct rbtr_trace *tr)
{
	struct rbtr_instance *ins;
	int ret = -ENODEV;

	mutex_lock(&rbtr_instances_mutex);
	if (tr == &rbtr_global_trace) {
		ret = 0;
	} else {
		list_for_each_entry(ins, &rbtr_instances, list) {
			if (&ins->tr == tr) {
				ret = tr->dead ? -ENODEV : 0;
				break;
			}
		}
	}
	if (!ret)
		tr->ref++;
	mutex_unlock(&rbtr_instances_mutex);
	return ret;
}

/**
 * rbtr_trace_put - undo rbtr_trace_get(), at release
 * @tr: the tracer
 */
void rbtr_trace_put(struct rbtr_trace *tr)
{
	mutex_lock(&rbtr_instances_mutex);
	if (!WARN_ON_ONCE(!tr->ref))
		tr->ref--;
	mutex_unlock(&rbtr_instances_mutex);
}

/**
 * rbtr_check_open_tr - rbtr_check_open(), then a hold on @tr
 * @tr: the tracer of the file being opened
 *
 * Return: 0 (a reference taken: rbtr_trace_put() at release), or the
 * refusal of rbtr_check_open() or of rbtr_trace_get().
 */
int rbtr_check_open_tr(struct rbtr_trace *tr)
{
	return rbtr_check_open() ?: rbtr_trace_get(tr);
}

/**
 * rbtr_open_tr - the open of a tracer's file without one of its own
 * @inode: its inode, i_private its tracer
 * @file: the file
 *
 * Return: 0, the refusal of rbtr_check_open() or of rbtr_trace_get().
 */
int rbtr_open_tr(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open_tr(rbtr_file_trace(inode));

	return ret ?: simple_open(inode, file);
}

/**
 * rbtr_open_tr_nonseekable - rbtr_open_tr(), not seekable
 * @inode: its inode, i_private its tracer
 * @file: the file
 *
 * Return: as rbtr_open_tr().
 */
int rbtr_open_tr_nonseekable(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open_tr(rbtr_file_trace(inode));

	return ret ?: nonseekable_open(inode, file);
}

/**
 * rbtr_release_tr - the release of rbtr_open_tr()'s files
 * @inode: its inode
 * @file: the file
 *
 * Return: 0.
 */
int rbtr_release_tr(struct inode *inode, struct file *file)
{
	rbtr_trace_put(rbtr_file_trace(inode));
	return 0;
}

/*
 * What a seq_file opened by rbtr_single_open_tr() keeps: the object it
 * shows and the tracer it holds. The tracer is kept here because the
 * object (an event's file) may be freed before the release, when its
 * event goes away with a module: the release must not look at it.
 */
struct rbtr_seq_tr {
	void			*data;
	struct rbtr_trace	*tr;
};

/**
 * rbtr_single_open_tr - single_open() for a file of a tracer's events/
 * @file: the file
 * @tr: the tracer it belongs to, held until rbtr_single_release_tr()
 * @show: as single_open()'s; it finds @data with rbtr_seq_data()
 * @data: what @show shows
 *
 * As tracefs's tracing_open_file_tr(): rmdir of an instance is refused
 * with -EBUSY while one of its events files is open.
 *
 * Return: 0, the refusal of rbtr_check_open() or rbtr_trace_get(), or
 * -ENOMEM.
 */
int rbtr_single_open_tr(struct file *file, struct rbtr_trace *tr,
			int (*show)(struct seq_file *, void *), void *data)
{
	struct rbtr_seq_tr *st;
	int ret = rbtr_check_open_tr(tr);

	if (ret)
		return ret;
	st = kmalloc(sizeof(*st), GFP_KERNEL);
	ret = -ENOMEM;
	if (st) {
		st->data = data;
		st->tr = tr;
		ret = single_open(file, show, st);
		if (ret)
			kfree(st);
	}
	if (ret)
		rbtr_trace_put(tr);
	return ret;
}

/**
 * rbtr_seq_data - the object a seq_file of rbtr_single_open_tr() shows
 * @m: the seq_file
 *
 * Return: the @data given to rbtr_single_open_tr().
 */
void *rbtr_seq_data(struct seq_file *m)
{
	return ((struct rbtr_seq_tr *)m->private)->data;
}

/**
 * rbtr_single_release_tr - the release of rbtr_single_open_tr()'s files
 * @inode: its inode
 * @file: the file
 *
 * Return: 0.
 */
int rbtr_single_release_tr(struct inode *inode, struct file *file)
{
	struct rbtr_seq_tr *st = ((struct seq_file *)file->private_data)->private;
	struct rbtr_trace *tr = st->tr;

	kfree(st);
	single_release(inode, file);
	rbtr_trace_put(tr);
	return 0;
}

/**
 * rbtr_options_dir - a tracer's options/ directory, made on first use
 * @tr: the tracer
 *
 * Return: the directory, or an ERR_PTR(); removed with the tracer's tree.
 */
struct dentry *rbtr_options_dir(struct rbtr_trace *tr)
{
	if (!tr->options || IS_ERR(tr->options))
		tr->options = debugfs_create_dir("options", tr->dir);
	return tr->options;
}

/**
 * rbtr_create_cpu_file - a file of one CPU (or of all) in a tracer's tree
 * @name: its name
 * @mode: its mode
 * @parent: its directory
 * @tr: the tracer it shows, kept in i_private
 * @cpu: the CPU, or RBT_ALL_CPUS, kept in i_cdev as cpu + 1
 * @fops: its operations; not proxied by debugfs when they splice
 *
 * Return: the dentry, or an ERR_PTR().
 */
struct dentry *rbtr_create_cpu_file(const char *name, umode_t mode,
				    struct dentry *parent,
				    struct rbtr_trace *tr, int cpu,
				    const struct file_operations *fops)
{
	struct dentry *d;

	/* The debugfs proxy has no .splice_read: see pipe_raw.c. */
	if (fops->splice_read)
		d = debugfs_create_file_unsafe(name, mode, parent, tr, fops);
	else
		d = debugfs_create_file(name, mode, parent, tr, fops);
	if (!IS_ERR(d) && cpu != RBT_ALL_CPUS)
		d_inode(d)->i_cdev = (void *)(long)(cpu + 1);
	return d;
}

/**
 * rbtr_read_u64 - read() of a file that shows one number and a newline
 * @ubuf: the reader's buffer
 * @cnt: its size
 * @ppos: the file position
 * @val: the number
 *
 * Return: what simple_read_from_buffer() returns.
 */
ssize_t rbtr_read_u64(char __user *ubuf, size_t cnt, loff_t *ppos, u64 val)
{
	char buf[24];
	int r;

	r = scnprintf(buf, sizeof(buf), "%llu\n", val);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

/**
 * rbtr_access_lock - serialise consuming reads of one CPU
 * @tr: the tracer
 * @cpu: the CPU
 */
void rbtr_access_lock(struct rbtr_trace *tr, int cpu)
{
	mutex_lock(&tr->access[cpu]);
}

/**
 * rbtr_access_unlock - end rbtr_access_lock()
 * @tr: the tracer
 * @cpu: the CPU
 */
void rbtr_access_unlock(struct rbtr_trace *tr, int cpu)
{
	mutex_unlock(&tr->access[cpu]);
}

#ifdef RBTRACE_TEST_HOOKS
/*
 * Test builds: the files that use the live buffer briefly, without a
 * reader's pin (header_page, discard_stats, options/overwrite,
 * trace_options), wait this long between loading tr->buffer and using
 * it, so that snapshot/live-readers can swap and free meanwhile. The
 * waits begun are counted: the scenario's cue.
 */
static unsigned int live_use_delay_ms;
module_param(live_use_delay_ms, uint, 0600);
MODULE_PARM_DESC(live_use_delay_ms,
		 "test builds: header_page, discard_stats, options/overwrite and trace_options wait this long between loading the live buffer and using it");

static unsigned int live_use_waits;
module_param(live_use_waits, uint, 0400);
MODULE_PARM_DESC(live_use_waits, "test builds: waits of live_use_delay_ms begun");

/**
 * rbtr_test_live_use_delay - test builds: wait between load and use
 *
 * See live_use_delay_ms above; a no-op in other builds (trace.h).
 */
void rbtr_test_live_use_delay(void)
{
	unsigned int ms = READ_ONCE(live_use_delay_ms);

	if (!ms)
		return;
	WRITE_ONCE(live_use_waits, live_use_waits + 1);
	msleep(ms);
}
#endif

/**
 * rbtr_clock_in_ns - does the tracer's clock count nanoseconds?
 * @tr: the tracer
 *
 * Return: true for a nanosecond clock, false for a counter.
 */
bool rbtr_clock_in_ns(struct rbtr_trace *tr)
{
	const struct rbt_clock *clock = READ_ONCE(tr->clock);

	return !clock || clock->in_ns;
}

/**
 * rbtr_clock_name - the name of the tracer's clock, for the trace header
 * @tr: the tracer
 *
 * Return: its trace_clock name.
 */
const char *rbtr_clock_name(struct rbtr_trace *tr)
{
	const struct rbt_clock *clock = READ_ONCE(tr->clock);

	return clock ? clock->name : "local";
}

/**
 * rbtr_print_ts - a time stamp as ftrace's trace_print_time() shows it
 * @tr: the tracer whose clock made it
 * @s: where to print
 * @ts: the stamp: seconds.microseconds for nanosecond clocks, else a count
 */
void rbtr_print_ts(struct rbtr_trace *tr, struct seq_buf *s, u64 ts)
{
	u64 usecs;
	u32 rem;

	if (!rbtr_clock_in_ns(tr)) {
		seq_buf_printf(s, " %12llu", ts);
		return;
	}
	usecs = rbtr_ns2usecs(ts);
	usecs = div_u64_rem(usecs, USEC_PER_SEC, &rem);
	seq_buf_printf(s, " %5llu.%06u", usecs, rem);
}

/**
 * rbtr_single_release_rw - release a file that is a seq_file only when read
 * @inode: its inode
 * @file: the file
 *
 * For the files opened for writing without a seq_file (trigger,
 * set_event, error_log: a write-only open shows nothing).
 *
 * Return: 0.
 */
int rbtr_single_release_rw(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return single_release(inode, file);
	return 0;
}

/**
 * rbtr_seq_llseek_rw - llseek of such a file
 * @file: the file
 * @offset: as llseek's
 * @whence: as llseek's
 *
 * Return: the new position, or a negative errno.
 */
loff_t rbtr_seq_llseek_rw(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	return noop_llseek(file, offset, whence);
}

/**
 * rbtr_write_ulong - parse a control file's write: one unsigned decimal
 * @ubuf: the user buffer
 * @cnt: its length, at most 32 bytes (tracefs's control writes are short)
 * @val: set to the value
 *
 * Return: 0, -EINVAL (empty, too long, not a number) or kstrtoul's error.
 */
int rbtr_write_ulong(const char __user *ubuf, size_t cnt, unsigned long *val)
{
	if (!cnt || cnt > 32)
		return -EINVAL;
	return kstrtoul_from_user(ubuf, cnt, 10, val);
}

/**
 * rbtr_write_bool - parse an options/ file's write: 0 or 1
 * @ubuf: the user buffer
 * @cnt: its length
 * @on: set to the value
 *
 * ftrace's trace_options_core_write() and the enable files: a decimal,
 * a newline allowed.
 *
 * Return: 0, or -EINVAL for anything but 0 and 1 (or kstrtoul's error).
 */
int rbtr_write_bool(const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned long val;
	int ret;

	ret = rbtr_write_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	*on = val;
	return 0;
}

/**
 * rbtr_write_tr_bool - the write of a tracer's 0-or-1 file, applied
 * @filp: the file; its inode holds the tracer
 * @ubuf: the user buffer
 * @cnt: its length
 * @ppos: the file position, moved past the write
 * @set: sets the tracer's value (tracing_on, options/overwrite)
 *
 * Return: @cnt, or rbtr_write_bool()'s errno with nothing changed.
 */
ssize_t rbtr_write_tr_bool(struct file *filp, const char __user *ubuf, size_t cnt,
			   loff_t *ppos, void (*set)(struct rbtr_trace *tr, bool on))
{
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	set(rbtr_file_trace(file_inode(filp)), on);
	*ppos += cnt;
	return cnt;
}

/**
 * rbtr_write_cut - copy a write of words or lines, cut where one ends
 * @ubuf: the user's buffer
 * @cnt: its length
 * @max: the most taken at once, NUL included
 * @seps: the characters that end a word (or a line)
 * @len: set to the bytes taken
 *
 * A write longer than @max - 1 bytes is taken up to its last separator,
 * so that nothing is cut in two; the writer writes the rest again.
 *
 * Return: the copy, NUL-terminated at *@len, to kfree(); ERR_PTR(-EINVAL)
 * when a long write has no separator, or the error of memdup_user_nul().
 */
char *rbtr_write_cut(const char __user *ubuf, size_t cnt, size_t max, const char *seps,
		     size_t *len)
{
	size_t n = min(cnt, max - 1);
	char *buf = memdup_user_nul(ubuf, n);

	if (IS_ERR(buf) || n == cnt)
		goto out;
	while (n && !strchr(seps, buf[n - 1]))
		n--;
	if (!n) {
		kfree(buf);
		return ERR_PTR(-EINVAL);
	}
	buf[n] = '\0';
out:
	*len = n;
	return buf;
}
