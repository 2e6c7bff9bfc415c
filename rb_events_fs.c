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
#include "rb_internal.h"
#include "rb_events.h"

/* A set_event write: ftrace's parser takes words of at most 127 bytes. */
#define RB_SET_EVENT_MAX	4096
#define RB_EVENT_WORD_MAX	127

/* One events/<system>/ directory. */
struct rb_event_system {
	struct list_head	list;
	const char		*name;
	struct dentry		*dir;
	unsigned int		nr_events;
	bool			has_enable;
};

static struct dentry *rb_events_dir;
static struct rbt_buffer *rb_events_buffer;
/* Guards the system list; never taken by a file operation. */
static DEFINE_MUTEX(rb_systems_mutex);
static LIST_HEAD(rb_systems);

/* Parse "0" or "1" (a newline allowed), as tracefs's enable files. */
static int rb_parse_bool(const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned long val;
	int ret;

	if (!cnt || cnt > 32)
		return -EINVAL;
	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	*on = val;
	return 0;
}

/* header_page: ftrace's ring_buffer_print_page_header(). */
static int rb_header_page_show(struct seq_file *m, void *v)
{
	seq_printf(m, "\tfield: u64 timestamp;\toffset:0;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)sizeof(u64), (unsigned int)is_signed_type(u64));
	seq_printf(m, "\tfield: local_t commit;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct rb_data_page, commit),
		   (unsigned int)sizeof(local_t), (unsigned int)is_signed_type(long));
	seq_printf(m, "\tfield: int overwrite;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct rb_data_page, commit), 1,
		   (unsigned int)is_signed_type(long));
	seq_printf(m, "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
		   (unsigned int)offsetof(struct rb_data_page, data),
		   rbt_subbuf_size(rb_events_buffer),
		   (unsigned int)is_signed_type(char));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rb_header_page);

/* header_event: ftrace's ring_buffer_print_entry_header(). */
static int rb_header_event_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# compressed entry header\n"
		 "\ttype_len    :    5 bits\n"
		 "\ttime_delta  :   27 bits\n"
		 "\tarray       :   32 bits\n"
		 "\n");
	seq_printf(m, "\tpadding     : type == %d\n", RB_TYPE_PADDING);
	seq_printf(m, "\ttime_extend : type == %d\n", RB_TYPE_TIME_EXTEND);
	seq_printf(m, "\ttime_stamp : type == %d\n", RB_TYPE_TIME_STAMP);
	seq_printf(m, "\tdata max type_len  == %d\n", RB_TYPE_DATA_MAX);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rb_header_event);

static int rb_format_show(struct seq_file *m, void *v)
{
	rb_events_show_format(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rb_format);

static int rb_id_show(struct seq_file *m, void *v)
{
	const struct rb_event_type *type = m->private;

	seq_printf(m, "%d\n", type->id);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rb_id);

/* events/<system>/<event>/enable */
static int rb_enable_show(struct seq_file *m, void *v)
{
	struct rb_event_type *type = m->private;
	struct rb_event_match match = { .system = type->system, .event = type->name };

	seq_printf(m, "%c\n", rb_event_state(&match));
	return 0;
}

static int rb_enable_open(struct inode *inode, struct file *file)
{
	return single_open(file, rb_enable_show, inode->i_private);
}

static ssize_t rb_enable_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct rb_event_type *type = file_inode(file)->i_private;
	bool on;
	int ret;

	ret = rb_parse_bool(ubuf, cnt, &on);
	if (!ret)
		ret = rb_event_set_one(type, on);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rb_enable_fops = {
	.owner		= THIS_MODULE,
	.open		= rb_enable_open,
	.read		= seq_read,
	.write		= rb_enable_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * events/<system>/filter and events/<system>/<event>/filter. rbtrace has
 * no event filters; the files exist because trace-cmd finds the events
 * of "record -e sched" by globbing events/sched/filter. They read "none"
 * and accept only the clearing writes ("0", or nothing) trace-cmd makes.
 */
static int rb_filter_show(struct seq_file *m, void *v)
{
	seq_puts(m, "none\n");
	return 0;
}

static int rb_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, rb_filter_show, NULL);
}

static ssize_t rb_filter_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	char buf[4] = "", *s;

	if (cnt >= sizeof(buf) || copy_from_user(buf, ubuf, cnt))
		goto refuse;
	s = strim(buf);
	if (*s && strcmp(s, "0"))
		goto refuse;
	*ppos += cnt;
	return cnt;
refuse:
	pr_warn_ratelimited("rbtrace: event filters are not supported\n");
	return -EINVAL;
}

static const struct file_operations rb_filter_fops = {
	.owner		= THIS_MODULE,
	.open		= rb_filter_open,
	.read		= seq_read,
	.write		= rb_filter_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * events/enable (i_private NULL) and events/<system>/enable (i_private
 * the system's name): '0', '1' or 'X' (mixed); write 0 or 1.
 */
static int rb_group_enable_show(struct seq_file *m, void *v)
{
	struct rb_event_match match = { .system = m->private };

	seq_printf(m, "%c\n", rb_event_state(&match));
	return 0;
}

static int rb_group_enable_open(struct inode *inode, struct file *file)
{
	return single_open(file, rb_group_enable_show, inode->i_private);
}

static ssize_t rb_group_enable_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct rb_event_match match = { .system = file_inode(file)->i_private };
	bool on;
	int ret;

	ret = rb_parse_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	ret = rb_event_set_match(&match, on, false);
	/* Nothing to switch (no event that can be) is not an error here. */
	if (ret && ret != -EINVAL)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rb_group_enable_fops = {
	.owner		= THIS_MODULE,
	.open		= rb_group_enable_open,
	.read		= seq_read,
	.write		= rb_group_enable_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* set_event: the enabled events, "system:event" a line. */
static int rb_set_event_show(struct seq_file *m, void *v)
{
	rb_event_show_list(m, true);
	return 0;
}

/* available_events: every event that can be enabled, "system:event". */
static int rb_available_events_show(struct seq_file *m, void *v)
{
	rb_event_show_list(m, false);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rb_available_events);

static int rb_set_event_open(struct inode *inode, struct file *file)
{
	/* As tracefs: "echo x > set_event" first disables everything. */
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		rb_event_disable_all();
	if (file->f_mode & FMODE_READ)
		return single_open(file, rb_set_event_show, NULL);
	return 0;
}

static int rb_set_event_release(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return single_release(inode, file);
	return 0;
}

static loff_t rb_set_event_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	return noop_llseek(file, offset, whence);
}

/*
 * Apply (or with @dry_run only check) every word of a set_event write.
 * Words are separated by white space; "!word" disables.
 */
static int rb_set_event_words(char *buf, bool dry_run)
{
	struct rb_event_match match;
	char *word;
	bool on;
	int ret;

	while ((word = strsep(&buf, " \t\n")) != NULL) {
		if (!*word)
			continue;
		if (strlen(word) > RB_EVENT_WORD_MAX)
			return -EINVAL;
		on = *word != '!';
		if (!on)
			word++;
		rb_event_parse_match(word, &match);
		ret = rb_event_set_match(&match, on, dry_run);
		if (ret)
			return ret;
	}
	return 0;
}

static ssize_t rb_set_event_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	char *buf, *copy;
	int ret;

	if (cnt > RB_SET_EVENT_MAX)
		return -EINVAL;
	if (!cnt)
		return 0;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/*
	 * Check every word before switching anything, so that a write with
	 * an unknown name changes nothing. Parsing cuts the string: check
	 * on a copy.
	 */
	copy = kstrdup(buf, GFP_KERNEL);
	ret = copy ? rb_set_event_words(copy, true) : -ENOMEM;
	kfree(copy);
	if (!ret)
		ret = rb_set_event_words(buf, false);
	kfree(buf);
	if (ret) {
		pr_warn_ratelimited("rbtrace: set_event: no such event, or it cannot be enabled (%d)\n",
				    ret);
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rb_set_event_fops = {
	.owner		= THIS_MODULE,
	.open		= rb_set_event_open,
	.read		= seq_read,
	.write		= rb_set_event_write,
	.llseek		= rb_set_event_llseek,
	.release	= rb_set_event_release,
};

static struct rb_event_system *rb_find_system(const char *name)
{
	struct rb_event_system *sys;

	list_for_each_entry(sys, &rb_systems, list)
		if (!strcmp(sys->name, name))
			return sys;
	return NULL;
}

static struct rb_event_system *rb_get_system(const char *name)
{
	struct rb_event_system *sys = rb_find_system(name);

	if (sys)
		return sys;
	sys = kzalloc(sizeof(*sys), GFP_KERNEL);
	if (!sys)
		return ERR_PTR(-ENOMEM);
	sys->name = name;
	sys->dir = debugfs_create_dir(name, rb_events_dir);
	if (IS_ERR(sys->dir)) {
		struct dentry *dir = sys->dir;

		kfree(sys);
		return ERR_CAST(dir);
	}
	list_add_tail(&sys->list, &rb_systems);
	return sys;
}

static void rb_put_system(struct rb_event_system *sys)
{
	if (--sys->nr_events)
		return;
	list_del(&sys->list);
	debugfs_remove_recursive(sys->dir);
	kfree(sys);
}

static int rb_add_event_files(struct rb_event_system *sys, struct rb_event_type *type)
{
	struct dentry *dir;

	dir = debugfs_create_dir(type->name, sys->dir);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("format", 0400, dir, type, &rb_format_fops);
	debugfs_create_file("id", 0400, dir, type, &rb_id_fops);
	if (type->reg) {
		debugfs_create_file("enable", 0600, dir, type, &rb_enable_fops);
		debugfs_create_file("filter", 0600, dir, type, &rb_filter_fops);
		if (!sys->has_enable) {
			debugfs_create_file("enable", 0600, sys->dir,
					    (void *)sys->name, &rb_group_enable_fops);
			debugfs_create_file("filter", 0600, sys->dir, NULL, &rb_filter_fops);
			sys->has_enable = true;
		}
	}
	type->dir = dir;
	return 0;
}

/**
 * rb_events_fs_add - create events/<system>/<name>/ for a type
 * @type: the type being registered
 *
 * Types registered before rb_events_fs_init() get their files then.
 *
 * Return: 0 or a negative errno.
 */
int rb_events_fs_add(struct rb_event_type *type)
{
	struct rb_event_system *sys;
	int ret = 0;

	type->dir = NULL;
	if (!rb_events_dir)
		return 0;
	mutex_lock(&rb_systems_mutex);
	sys = rb_get_system(type->system);
	if (IS_ERR(sys)) {
		ret = PTR_ERR(sys);
		goto out;
	}
	sys->nr_events++;
	ret = rb_add_event_files(sys, type);
	if (ret)
		rb_put_system(sys);
out:
	mutex_unlock(&rb_systems_mutex);
	return ret;
}

/**
 * rb_events_fs_remove - remove a type's files; waits for their operations
 * @type: the type being unregistered
 */
void rb_events_fs_remove(struct rb_event_type *type)
{
	struct rb_event_system *sys;

	if (!type->dir)
		return;
	mutex_lock(&rb_systems_mutex);
	debugfs_remove_recursive(type->dir);
	type->dir = NULL;
	sys = rb_find_system(type->system);
	if (sys)
		rb_put_system(sys);
	mutex_unlock(&rb_systems_mutex);
}

/**
 * rb_events_fs_init - create events/ and set_event under @top
 * @top: the rbtrace directory
 * @buffer: the buffer (for the sub-buffer size in header_page)
 *
 * Return: 0 or a negative errno.
 */
int rb_events_fs_init(struct dentry *top, struct rbt_buffer *buffer)
{
	struct dentry *dir;

	rb_events_buffer = buffer;
	dir = debugfs_create_dir("events", top);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("header_page", 0400, dir, NULL, &rb_header_page_fops);
	debugfs_create_file("header_event", 0400, dir, NULL, &rb_header_event_fops);
	debugfs_create_file("enable", 0600, dir, NULL, &rb_group_enable_fops);
	debugfs_create_file("set_event", 0600, top, NULL, &rb_set_event_fops);
	debugfs_create_file("available_events", 0400, top, NULL, &rb_available_events_fops);
	rb_events_dir = dir;
	rb_events_add_existing();
	return 0;
}

/**
 * rb_events_fs_exit - forget the events/ directory
 *
 * The caller removes the whole tree; types unregistered after this have
 * no files to remove.
 */
void rb_events_fs_exit(void)
{
	struct rb_event_system *sys, *tmp;

	rb_events_forget_dirs();
	mutex_lock(&rb_systems_mutex);
	list_for_each_entry_safe(sys, tmp, &rb_systems, list) {
		list_del(&sys->list);
		kfree(sys);
	}
	rb_events_dir = NULL;
	mutex_unlock(&rb_systems_mutex);
}
