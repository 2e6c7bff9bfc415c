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
#include "events.h"
#include "filter.h"
#include "trace.h"
#include "trigger.h"

/* A set_event write; its words are checked in events.c. */
#define RBTR_SET_EVENT_MAX	4096

/* One events/<system>/ directory. */
struct rbtr_event_system {
	struct list_head	list;
	const char		*name;
	struct dentry		*dir;
	unsigned int		nr_events;
	bool			has_enable;
	char			*filter_text;	/* under rbtr_events_lock() */
};

static struct dentry *rbtr_events_dir;
/* Guards the system list; never taken by a file operation. */
static DEFINE_MUTEX(rbtr_systems_mutex);
static LIST_HEAD(rbtr_systems);

/* header_page and header_event describe the ring buffer's own format. */
static int rbtr_header_page_show(struct seq_file *m, void *v)
{
	struct rbtr_trace *tr = m->private;

	rbt_print_page_header(tr->buffer, m);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_header_page);

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
 */
static int rbtr_enable_show(struct seq_file *m, void *v)
{
	struct rbtr_event_type *type = m->private;
	unsigned long cond;
	bool on, soft;

	rbtr_events_lock();
	cond = READ_ONCE(type->cond);
	on = type->enabled && !(cond & RBTR_EVC_SOFT_OFF);
	soft = type->soft_ref || (cond & RBTR_EVC_SOFT_OFF);
	rbtr_events_unlock();
	seq_printf(m, "%d%s\n", on, soft ? "*" : "");
	return 0;
}

static int rbtr_enable_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	return single_open(file, rbtr_enable_show, inode->i_private);
}

static ssize_t rbtr_enable_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_event_type *type = file_inode(file)->i_private;
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (!ret)
		ret = rbtr_event_set_one(type, on);
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
	.release	= single_release,
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
	struct rbtr_event_type *type = m->private;
	struct rbtr_filter *f;

	rbtr_events_lock();
	f = rcu_dereference_protected(type->filter, true);
	seq_printf(m, "%s\n", f ? rbtr_filter_text(f) : "none");
	rbtr_events_unlock();
	return 0;
}

static int rbtr_filter_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	return single_open(file, rbtr_filter_show, inode->i_private);
}

static ssize_t rbtr_filter_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rbtr_event_type *type = file_inode(file)->i_private;
	char *buf, *text;
	int ret;

	buf = rbtr_filter_copy(ubuf, cnt, &text);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = rbtr_filter_set_event(type, text);
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
	.release	= single_release,
};

/* events/<system>/filter: i_private is the system; its text under rbtr_events_lock(). */
static int rbtr_sys_filter_show(struct seq_file *m, void *v)
{
	struct rbtr_event_system *sys = m->private;

	rbtr_events_lock();
	seq_printf(m, "%s\n", sys->filter_text ? sys->filter_text : "none");
	rbtr_events_unlock();
	return 0;
}

static int rbtr_sys_filter_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	return single_open(file, rbtr_sys_filter_show, inode->i_private);
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
	ret = rbtr_filter_set_system(sys->name, text);
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
	.release	= single_release,
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
	struct rbt_cpu_stats st;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (rbt_cpu_stats(tr->buffer, cpu, &st))
			continue;
		seq_printf(m, "cpu%d filtered: %lu discarded: %llu reclaimed: %llu\n", cpu,
			   rbtr_event_cond_filtered(cpu), st.discarded, st.reclaimed);
	}
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
 * events/enable (i_private NULL) and events/<system>/enable (i_private
 * the system's name): '0', '1' or 'X' (mixed); write 0 or 1.
 */
static int rbtr_group_enable_show(struct seq_file *m, void *v)
{
	struct rbtr_event_match match = { .system = m->private };

	seq_printf(m, "%c\n", rbtr_event_state(&match));
	return 0;
}

static int rbtr_group_enable_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	return single_open(file, rbtr_group_enable_show, inode->i_private);
}

static ssize_t rbtr_group_enable_write(struct file *file, const char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	struct rbtr_event_match match = { .system = file_inode(file)->i_private };
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	/*
	 * Nothing to switch (no event that can be) is not an error here; an
	 * event that fails to switch is (and then none has changed).
	 */
	if (rbtr_event_set_match(&match, on, true) != -EINVAL) {
		ret = rbtr_event_set_match(&match, on, false);
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
	.release	= single_release,
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
	bool	truncate;	/* cleared by the first write that succeeds */
	bool	written;	/* a write was tried */
};

static int rbtr_set_event_show(struct seq_file *m, void *v)
{
	rbtr_event_show_list(m, true);
	return 0;
}

/* available_events: every event that can be enabled, "system:event". */
static int rbtr_available_events_show(struct seq_file *m, void *v)
{
	rbtr_event_show_list(m, false);
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
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->truncate = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = st;
		return 0;
	}
	ret = single_open(file, rbtr_set_event_show, st);
	if (ret)
		kfree(st);
	return ret;
}

static int rbtr_set_event_release(struct inode *inode, struct file *file)
{
	struct rbtr_set_event_file *st = rbtr_set_event_state(file);

	/* ": > set_event": truncated, nothing written. */
	if (st->truncate && !st->written)
		rbtr_event_disable_all();
	kfree(st);
	if (file->f_mode & FMODE_READ)
		return single_release(inode, file);
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
	ret = rbtr_event_set_list(buf, &st->truncate, &st->written);
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

static struct rbtr_event_system *rbtr_find_system(const char *name)
{
	struct rbtr_event_system *sys;

	list_for_each_entry(sys, &rbtr_systems, list)
		if (!strcmp(sys->name, name))
			return sys;
	return NULL;
}

static struct rbtr_event_system *rbtr_get_system(const char *name)
{
	struct rbtr_event_system *sys = rbtr_find_system(name);

	if (sys)
		return sys;
	sys = kzalloc(sizeof(*sys), GFP_KERNEL);
	if (!sys)
		return ERR_PTR(-ENOMEM);
	/* Its own copy: the first event's may go first (a module's, kevents_mod.c). */
	sys->name = kstrdup(name, GFP_KERNEL);
	if (!sys->name) {
		kfree(sys);
		return ERR_PTR(-ENOMEM);
	}
	sys->dir = debugfs_create_dir(name, rbtr_events_dir);
	if (IS_ERR(sys->dir)) {
		struct dentry *dir = sys->dir;

		kfree(sys->name);
		kfree(sys);
		return ERR_CAST(dir);
	}
	list_add_tail(&sys->list, &rbtr_systems);
	return sys;
}

static void rbtr_put_system(struct rbtr_event_system *sys)
{
	if (--sys->nr_events)
		return;
	list_del(&sys->list);
	debugfs_remove_recursive(sys->dir);
	kfree(sys->filter_text);
	kfree(sys->name);
	kfree(sys);
}

static int rbtr_add_event_files(struct rbtr_event_system *sys, struct rbtr_event_type *type)
{
	struct dentry *dir;

	dir = debugfs_create_dir(type->name, sys->dir);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("format", 0400, dir, type, &rbtr_format_fops);
	debugfs_create_file("id", 0400, dir, type, &rbtr_id_fops);
	if (type->reg) {
		debugfs_create_file("enable", 0600, dir, type, &rbtr_enable_fops);
		debugfs_create_file("filter", 0600, dir, type, &rbtr_filter_fops);
		debugfs_create_file("trigger", 0600, dir, type, &rbtr_trigger_fops);
		if (!sys->has_enable) {
			debugfs_create_file("enable", 0600, sys->dir,
					    (void *)sys->name, &rbtr_group_enable_fops);
			debugfs_create_file("filter", 0600, sys->dir, sys, &rbtr_sys_filter_fops);
			sys->has_enable = true;
		}
	}
	type->dir = dir;
	return 0;
}

/**
 * rbtr_events_fs_add - create events/<system>/<name>/ for a type
 * @type: the type being registered
 *
 * Types registered before rbtr_events_fs_init() get their files then.
 *
 * Return: 0 or a negative errno.
 */
int rbtr_events_fs_add(struct rbtr_event_type *type)
{
	struct rbtr_event_system *sys;
	int ret = 0;

	type->dir = NULL;
	if (!rbtr_events_dir)
		return 0;
	mutex_lock(&rbtr_systems_mutex);
	sys = rbtr_get_system(type->system);
	if (IS_ERR(sys)) {
		ret = PTR_ERR(sys);
		goto out;
	}
	sys->nr_events++;
	ret = rbtr_add_event_files(sys, type);
	if (ret)
		rbtr_put_system(sys);
out:
	mutex_unlock(&rbtr_systems_mutex);
	return ret;
}

/**
 * rbtr_events_fs_remove - remove a type's files; waits for their operations
 * @type: the type being unregistered
 */
void rbtr_events_fs_remove(struct rbtr_event_type *type)
{
	struct rbtr_event_system *sys;

	if (!type->dir)
		return;
	mutex_lock(&rbtr_systems_mutex);
	debugfs_remove_recursive(type->dir);
	type->dir = NULL;
	sys = rbtr_find_system(type->system);
	if (sys)
		rbtr_put_system(sys);
	mutex_unlock(&rbtr_systems_mutex);
}

/**
 * rbtr_events_fs_init - create events/, set_event and available_events
 * @tr: the tracer whose directory gets them
 *
 * Return: 0 or a negative errno.
 */
int rbtr_events_fs_init(struct rbtr_trace *tr)
{
	struct dentry *top = tr->dir, *dir;

	dir = debugfs_create_dir("events", top);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("header_page", 0400, dir, tr, &rbtr_header_page_fops);
	debugfs_create_file("header_event", 0400, dir, NULL, &rbtr_header_event_fops);
	debugfs_create_file("enable", 0600, dir, NULL, &rbtr_group_enable_fops);
	debugfs_create_file("set_event", 0600, top, NULL, &rbtr_set_event_fops);
	debugfs_create_file("available_events", 0400, top, NULL, &rbtr_available_events_fops);
	debugfs_create_file("error_log", 0600, top, NULL, &rbtr_error_log_fops);
	debugfs_create_file("discard_stats", 0400, top, tr, &rbtr_discard_stats_fops);
	rbtr_events_dir = dir;
	rbtr_events_add_existing();
	return 0;
}

/**
 * rbtr_events_fs_exit - forget the events/ directory
 *
 * The caller removes the whole tree; types unregistered after this have
 * no files to remove.
 */
void rbtr_events_fs_exit(void)
{
	struct rbtr_event_system *sys, *tmp;

	rbtr_events_forget_dirs();
	mutex_lock(&rbtr_systems_mutex);
	list_for_each_entry_safe(sys, tmp, &rbtr_systems, list) {
		list_del(&sys->list);
		kfree(sys->filter_text);
		kfree(sys->name);
		kfree(sys);
	}
	rbtr_events_dir = NULL;
	rbtr_error_log_clear();
	mutex_unlock(&rbtr_systems_mutex);
}
