// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's events/ directory and set_event, with tracefs's names and
 * text: events/header_page, events/header_event, events/enable,
 * events/<system>/enable, events/<system>/<event>/{format,id,enable}.
 *
 * trace-cmd reads header_page and every format file twice (once to size
 * it, once to copy it) and needs both reads to return the same bytes, so
 * each file's text is made once per open (single_open).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/ctype.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "filter.h"
#include "trace.h"
#include "trigger.h"

/* A set_event write; its words are checked in event.c. */
#define RBTR_SET_EVENT_MAX	4096

/*
 * One events/<system>/ directory of one tracer (@name NULL: events/
 * itself). The lists of systems change under rbtr_event_tree_lock()
 * (event_file.c), which no file operation takes.
 */
struct rbtr_event_system {
	struct list_head	list;
	struct rbtr_trace	*tr;
	const char		*name;
	struct dentry		*dir;
	unsigned int		nr_events;
	bool			has_enable;
	char			*filter_text;	/* under rbtr_events_lock() */
};

/* header_page and header_event describe the ring buffer's own format. */
static int rbtr_header_page_show(struct seq_file *m, void *v)
{
	struct rbtr_trace *tr = rbtr_seq_data(m);

	/* "echo 0 > snapshot" frees a buffer under it: the live one stays. */
	mutex_lock(&tr->files_mutex);
	rbtr_test_live_use_delay();
	rbt_print_page_header(tr->buffer, m);
	mutex_unlock(&tr->files_mutex);
	return 0;
}

/* It holds its tracer, as tracefs's (tracing_open_generic_tr()). */
static int rbtr_header_page_open(struct inode *inode, struct file *file)
{
	return rbtr_single_open_tr(file, inode->i_private, rbtr_header_page_show,
				   inode->i_private);
}

static const struct file_operations rbtr_header_page_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_header_page_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

static int rbtr_header_event_show(struct seq_file *m, void *v)
{
	rbt_print_entry_header(m);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_header_event);

static int rbtr_format_show(struct seq_file *m, void *v)
{
	rbtr_events_show_format(m, m->private);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_format);

static int rbtr_id_show(struct seq_file *m, void *v)
{
	const struct rbtr_event_type *type = m->private;

	seq_printf(m, "%d\n", type->id);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_id);

/*
 * events/<system>/<event>/enable: 0 or 1, with tracefs's '*' while an
 * enable_event trigger holds it in soft mode or it is soft-disabled.
 * Its i_private, as filter's and trigger's, is the event's file in the
 * tracer of the directory.
 */
static int rbtr_enable_show(struct seq_file *m, void *v)
{
	struct rbtr_event_file *file = rbtr_seq_data(m);
	unsigned long cond;
	bool on, soft;

	rbtr_events_lock();
	cond = READ_ONCE(file->cond);
	on = file->enabled && !(cond & RBTR_EVC_SOFT_OFF);
	soft = file->soft_ref || (cond & RBTR_EVC_SOFT_OFF);
	rbtr_events_unlock();
	seq_printf(m, "%d%s\n", on, soft ? "*" : "");
	return 0;
}

static int rbtr_enable_open(struct inode *inode, struct file *file)
{
	struct rbtr_event_file *ef = inode->i_private;

	return rbtr_single_open_tr(file, ef->tr, rbtr_enable_show, ef);
}

static ssize_t rbtr_enable_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_event_file *ef = file_inode(file)->i_private;
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (!ret)
		ret = rbtr_event_set_one(ef, on);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_enable_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_enable_open,
	.read		= seq_read,
	.write		= rbtr_enable_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/*
 * events/<system>/<event>/filter and events/<system>/filter: ftrace's
 * filter grammar (filter.c). A write of "0" clears; any other text is
 * parsed (a page at most, as tracefs) and set, or refused with the
 * errno ftrace gives, the old filter kept and the error in error_log.
 * Reading shows the text as written, or "none".
 */
static char *rbtr_filter_copy(const char __user *ubuf, size_t cnt, char **text)
{
	char *buf;

	if (cnt >= PAGE_SIZE)
		return ERR_PTR(-EINVAL);
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return buf;
	/* As ftrace: blanks cut at the end, kept at the start; "0" clears. */
	*text = strim(buf);
	if (!strcmp(*text, "0"))
		*text = NULL;
	else
		*text = buf;
	return buf;
}

static int rbtr_filter_show(struct seq_file *m, void *v)
{
	struct rbtr_event_file *file = rbtr_seq_data(m);
	struct rbtr_filter *f;

	rbtr_events_lock();
	f = rcu_dereference_protected(file->filter, true);
	seq_printf(m, "%s\n", f ? rbtr_filter_text(f) : "none");
	rbtr_events_unlock();
	return 0;
}

static int rbtr_filter_open(struct inode *inode, struct file *file)
{
	struct rbtr_event_file *ef = inode->i_private;

	return rbtr_single_open_tr(file, ef->tr, rbtr_filter_show, ef);
}

static ssize_t rbtr_filter_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_event_file *ef = file_inode(file)->i_private;
	char *buf, *text;
	int ret;

	buf = rbtr_filter_copy(ubuf, cnt, &text);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = rbtr_filter_set_event(ef, text);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_filter_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_filter_open,
	.read		= seq_read,
	.write		= rbtr_filter_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/* events/<system>/filter: i_private is the system; its text under rbtr_events_lock(). */
static int rbtr_sys_filter_show(struct seq_file *m, void *v)
{
	struct rbtr_event_system *sys = rbtr_seq_data(m);

	rbtr_events_lock();
	seq_printf(m, "%s\n", sys->filter_text ? sys->filter_text : "none");
	rbtr_events_unlock();
	return 0;
}

static int rbtr_sys_filter_open(struct inode *inode, struct file *file)
{
	struct rbtr_event_system *sys = inode->i_private;

	return rbtr_single_open_tr(file, sys->tr, rbtr_sys_filter_show, sys);
}

static ssize_t rbtr_sys_filter_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct rbtr_event_system *sys = file_inode(file)->i_private;
	char *buf, *text, *keep = NULL;
	int ret;

	buf = rbtr_filter_copy(ubuf, cnt, &text);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (text) {
		keep = kstrdup(text, GFP_KERNEL);
		if (!keep) {
			kfree(buf);
			return -ENOMEM;
		}
	}
	ret = rbtr_filter_set_system(sys->tr, sys->name, text);
	kfree(buf);
	if (ret) {
		kfree(keep);
		return ret;
	}
	rbtr_events_lock();
	swap(keep, sys->filter_text);
	rbtr_events_unlock();
	kfree(keep);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_sys_filter_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_sys_filter_open,
	.read		= seq_read,
	.write		= rbtr_sys_filter_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/*
 * discard_stats: per CPU, the records an event filter (or a soft
 * disable, a pid filter) dropped: "filtered", tested in a scratch slot
 * and never written to the buffer (event_cond.c); "discarded", written
 * to the buffer first (too long or nested too deep for a slot) and then
 * discarded, and "reclaimed", how many of those gave their space back
 * (the others are padding in the buffer). ftrace counts none of it; its
 * per_cpu/cpuN/stats stays as ftrace's.
 */
static int rbtr_discard_stats_show(struct seq_file *m, void *v)
{
	struct rbtr_trace *tr = m->private;
	struct rbt_buffer *buffer;
	struct rbt_cpu_stats st;
	int cpu;

	/*
	 * "echo 0 > snapshot" frees a buffer under files_mutex: the one
	 * loaded here may become the spare by a swap at any time, but is
	 * not freed before the mutex is dropped.
	 */
	mutex_lock(&tr->files_mutex);
	buffer = READ_ONCE(tr->buffer);
	rbtr_test_live_use_delay();
	for_each_possible_cpu(cpu) {
		if (rbt_cpu_stats(buffer, cpu, &st))
			continue;
		seq_printf(m, "cpu%d filtered: %lu discarded: %llu reclaimed: %llu\n", cpu,
			   rbtr_event_cond_filtered(cpu), st.discarded, st.reclaimed);
	}
	mutex_unlock(&tr->files_mutex);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_discard_stats);

/* error_log: ftrace's; a truncating open ("echo > error_log") clears it. */
static int rbtr_error_log_seq_show(struct seq_file *m, void *v)
{
	rbtr_error_log_show(m);
	return 0;
}

static int rbtr_error_log_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		rbtr_error_log_clear();
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, rbtr_error_log_seq_show, NULL);
}

static ssize_t rbtr_error_log_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	return cnt;
}

static const struct file_operations rbtr_error_log_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_error_log_open,
	.read		= seq_read,
	.write		= rbtr_error_log_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_rw,
};

/*
 * events/enable and events/<system>/enable (i_private the system, the
 * one without a name for events/): '0', '1' or 'X' (mixed); write 0 or 1.
 */
static int rbtr_group_enable_show(struct seq_file *m, void *v)
{
	struct rbtr_event_system *sys = rbtr_seq_data(m);
	struct rbtr_event_match match = { .system = sys->name };

	seq_printf(m, "%c\n", rbtr_event_state(sys->tr, &match));
	return 0;
}

static int rbtr_group_enable_open(struct inode *inode, struct file *file)
{
	struct rbtr_event_system *sys = inode->i_private;

	return rbtr_single_open_tr(file, sys->tr, rbtr_group_enable_show, sys);
}

static ssize_t rbtr_group_enable_write(struct file *file, const char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	struct rbtr_event_system *sys = file_inode(file)->i_private;
	struct rbtr_event_match match = { .system = sys->name };
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	/*
	 * Nothing to switch (no event that can be) is not an error here; an
	 * event that fails to switch is (and then none has changed).
	 */
	if (rbtr_event_set_match(sys->tr, &match, on, true) != -EINVAL) {
		ret = rbtr_event_set_match(sys->tr, &match, on, false);
		if (ret)
			return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_group_enable_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_group_enable_open,
	.read		= seq_read,
	.write		= rbtr_group_enable_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/*
 * set_event: the enabled events, "system:event" a line; written, words
 * of ftrace's syntax ("sys:event", "sys:", ":event", "sys", "event",
 * "*:*"; "!word" disables).
 *
 * A write is all or nothing (rbtr_event_set_list()): a word that names
 * no event, or an event that cannot be enabled, fails the write with
 * nothing changed. tracefs disables every event at a truncating open
 * ("echo x > set_event"), so that "echo bogus > set_event" leaves all
 * events off although the write fails. rbtrace defers that clearing to
 * the first write of the open file that succeeds, as part of it: a
 * refused write changes nothing, as every rbtrace file promises. A
 * truncating open closed without any write (": > set_event") clears at
 * close, as tracefs's does at open; one closed after only refused
 * writes changes nothing. Later writes of the same open file add to
 * what the first left, as in tracefs.
 */
struct rbtr_set_event_file {
	struct rbtr_trace	*tr;		/* set_event's tracer */
	bool			truncate;	/* cleared by the first write that succeeds */
	bool			written;	/* a write was tried */
};

static int rbtr_set_event_show(struct seq_file *m, void *v)
{
	struct rbtr_set_event_file *st = m->private;

	rbtr_event_show_list(st->tr, m, true);
	return 0;
}

/* available_events: every event that can be enabled, "system:event". */
static int rbtr_available_events_show(struct seq_file *m, void *v)
{
	rbtr_event_show_list(m->private, m, false);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_available_events);

static struct rbtr_set_event_file *rbtr_set_event_state(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int rbtr_set_event_open(struct inode *inode, struct file *file)
{
	struct rbtr_set_event_file *st;
	/* Held while open: rmdir of the instance is refused (-EBUSY). */
	int ret = rbtr_check_open_tr(inode->i_private);

	if (ret)
		return ret;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st) {
		rbtr_trace_put(inode->i_private);
		return -ENOMEM;
	}
	st->tr = inode->i_private;
	st->truncate = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = st;
		return 0;
	}
	ret = single_open(file, rbtr_set_event_show, st);
	if (ret) {
		kfree(st);
		rbtr_trace_put(inode->i_private);
	}
	return ret;
}

static int rbtr_set_event_release(struct inode *inode, struct file *file)
{
	struct rbtr_set_event_file *st = rbtr_set_event_state(file);

	/* ": > set_event": truncated, nothing written. */
	struct rbtr_trace *tr = st->tr;

	if (st->truncate && !st->written)
		rbtr_event_disable_all(tr);
	kfree(st);
	if (file->f_mode & FMODE_READ)
		single_release(inode, file);
	rbtr_trace_put(tr);
	return 0;
}

static ssize_t rbtr_set_event_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct rbtr_set_event_file *st = rbtr_set_event_state(file);
	char *buf;
	int ret;

	if (cnt > RBTR_SET_EVENT_MAX)
		return -EINVAL;
	if (!cnt)
		return 0;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* Two writers of one file: the truncation goes with one write. */
	ret = rbtr_event_set_list(st->tr, buf, &st->truncate, &st->written);
	kfree(buf);
	if (ret) {
		pr_warn_ratelimited("rbtrace: set_event: no such event, or it cannot be enabled (%d)\n",
				    ret);
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_set_event_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_set_event_open,
	.read		= seq_read,
	.write		= rbtr_set_event_write,
	.llseek		= rbtr_seq_llseek_rw,
	.release	= rbtr_set_event_release,
};

static struct rbtr_event_system *rbtr_find_system(struct rbtr_trace_events *ev,
						  const char *name)
{
	struct rbtr_event_system *sys;

	list_for_each_entry(sys, &ev->systems, list)
		if (!strcmp(sys->name, name))
			return sys;
	return NULL;
}

static struct rbtr_event_system *rbtr_get_system(struct rbtr_trace_events *ev,
						 const char *name)
{
	struct rbtr_event_system *sys = rbtr_find_system(ev, name);

	if (sys)
		return sys;
	sys = kzalloc(sizeof(*sys), GFP_KERNEL);
	if (!sys)
		return ERR_PTR(-ENOMEM);
	sys->tr = ev->tr;
	/* Its own copy: the first event's may go first (a module's, kevents_mod.c). */
	sys->name = kstrdup(name, GFP_KERNEL);
	if (!sys->name) {
		kfree(sys);
		return ERR_PTR(-ENOMEM);
	}
	sys->dir = debugfs_create_dir(name, ev->root->dir);
	if (IS_ERR(sys->dir)) {
		struct dentry *dir = sys->dir;

		kfree(sys->name);
		kfree(sys);
		return ERR_CAST(dir);
	}
	list_add_tail(&sys->list, &ev->systems);
	return sys;
}

static void rbtr_free_system(struct rbtr_event_system *sys)
{
	kfree(sys->filter_text);
	kfree(sys->name);
	kfree(sys);
}

static void rbtr_put_system(struct rbtr_event_system *sys)
{
	if (--sys->nr_events)
		return;
	list_del(&sys->list);
	debugfs_remove_recursive(sys->dir);
	rbtr_free_system(sys);
}

static int rbtr_add_event_files(struct rbtr_event_system *sys, struct rbtr_event_file *file)
{
	struct rbtr_event_type *type = file->type;
	struct dentry *dir;

	dir = debugfs_create_dir(type->name, sys->dir);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("format", 0400, dir, type, &rbtr_format_fops);
	debugfs_create_file("id", 0400, dir, type, &rbtr_id_fops);
	if (type->reg) {
		debugfs_create_file("enable", 0600, dir, file, &rbtr_enable_fops);
		debugfs_create_file("filter", 0600, dir, file, &rbtr_filter_fops);
		debugfs_create_file("trigger", 0600, dir, file, &rbtr_trigger_fops);
		if (!sys->has_enable) {
			debugfs_create_file("enable", 0600, sys->dir, sys, &rbtr_group_enable_fops);
			debugfs_create_file("filter", 0600, sys->dir, sys, &rbtr_sys_filter_fops);
			sys->has_enable = true;
		}
	}
	file->dir = dir;
	file->sys = sys;
	return 0;
}

/**
 * rbtr_events_fs_add - create events/<system>/<name>/ for a file
 * @ev: the tracer's events, with their tree (rbtr_events_fs_tree())
 * @file: the file being made
 *
 * Under rbtr_event_tree_lock().
 *
 * Return: 0 or a negative errno.
 */
int rbtr_events_fs_add(struct rbtr_trace_events *ev, struct rbtr_event_file *file)
{
	struct rbtr_event_system *sys;
	int ret;

	file->dir = NULL;
	file->sys = NULL;
	sys = rbtr_get_system(ev, file->type->system);
	if (IS_ERR(sys))
		return PTR_ERR(sys);
	sys->nr_events++;
	ret = rbtr_add_event_files(sys, file);
	if (ret)
		rbtr_put_system(sys);
	return ret;
}

/**
 * rbtr_events_fs_remove - remove a file's directory; waits for its operations
 * @file: the file being removed
 *
 * Under rbtr_event_tree_lock(), not the registry mutex (the operations
 * take it).
 */
void rbtr_events_fs_remove(struct rbtr_event_file *file)
{
	if (!file->dir)
		return;
	debugfs_remove_recursive(file->dir);
	file->dir = NULL;
	rbtr_put_system(file->sys);
	file->sys = NULL;
}

/**
 * rbtr_events_fs_tree - create a tracer's events/ and set_event
 * @ev: the tracer's events
 * @parent: the tracer's directory
 *
 * events/header_page, events/header_event, events/enable. Under
 * rbtr_event_tree_lock().
 *
 * Return: 0 or a negative errno (nothing is left then).
 */
int rbtr_events_fs_tree(struct rbtr_trace_events *ev, struct dentry *parent)
{
	struct rbtr_event_system *root;
	struct dentry *dir;

	root = kzalloc(sizeof(*root), GFP_KERNEL);
	if (!root)
		return -ENOMEM;
	dir = debugfs_create_dir("events", parent);
	if (IS_ERR(dir)) {
		kfree(root);
		return PTR_ERR(dir);
	}
	root->tr = ev->tr;
	root->dir = dir;
	debugfs_create_file("header_page", 0400, dir, ev->tr, &rbtr_header_page_fops);
	debugfs_create_file("header_event", 0400, dir, NULL, &rbtr_header_event_fops);
	debugfs_create_file("enable", 0600, dir, root, &rbtr_group_enable_fops);
	ev->set_event = debugfs_create_file("set_event", 0600, parent, ev->tr,
					    &rbtr_set_event_fops);
	rbtr_event_show_files(ev, parent);
	ev->root = root;
	return 0;
}

/**
 * rbtr_events_fs_untree - remove what rbtr_events_fs_tree() made
 * @ev: the tracer's events, its files' directories removed already
 *
 * Waits for the operations in flight on them. Under
 * rbtr_event_tree_lock(), not the registry mutex.
 */
void rbtr_events_fs_untree(struct rbtr_trace_events *ev)
{
	struct rbtr_event_system *sys, *tmp;

	if (!ev->root)
		return;
	debugfs_remove(ev->set_event);
	ev->set_event = NULL;
	rbtr_event_show_files_remove(ev);
	debugfs_remove_recursive(ev->root->dir);
	/* Systems left by a failed rbtr_events_fs_add(): none, but be safe. */
	list_for_each_entry_safe(sys, tmp, &ev->systems, list) {
		list_del(&sys->list);
		rbtr_free_system(sys);
	}
	kfree(ev->root);
	ev->root = NULL;
}

/**
 * rbtr_events_fs_init - the top tracer's events, and the files only it has
 * @tr: the top tracer
 *
 * events/ and set_event as every tracer's (rbtr_events_instance_add()),
 * and available_events, error_log, discard_stats.
 *
 * Return: 0 or a negative errno.
 */
int rbtr_events_fs_init(struct rbtr_trace *tr)
{
	struct dentry *top = tr->dir;

	debugfs_create_file("available_events", 0400, top, tr, &rbtr_available_events_fops);
	debugfs_create_file("error_log", 0600, top, NULL, &rbtr_error_log_fops);
	debugfs_create_file("discard_stats", 0400, top, tr, &rbtr_discard_stats_fops);
	return rbtr_events_instance_add(tr, top);
}

/**
 * rbtr_events_fs_exit - remove the top tracer's events
 *
 * Before the caller removes the whole tree: disables every event of the
 * top tracer and frees its files (rbtr_events_instance_remove()).
 */
void rbtr_events_fs_exit(void)
{
	rbtr_events_instance_remove(&rbtr_global_trace);
	rbtr_error_log_clear();
}
