// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace file interface under /sys/kernel/debug/rbtrace/, with the
 * names and semantics of tracefs. Files are root-only, as in tracefs.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/uaccess.h>
#include <linux/kernel.h>
#include "rb_internal.h"
#include "rb_debugfs.h"

static struct dentry *rb_dir;
static struct rbt_buffer *rb_buf;
static DEFINE_MUTEX(rb_files_mutex);

/* Parse one unsigned decimal from user space; trailing newline allowed. */
static int rb_read_ulong(const char __user *ubuf, size_t cnt, unsigned long *val)
{
	if (!cnt || cnt > 32)
		return -EINVAL;
	return kstrtoul_from_user(ubuf, cnt, 10, val);
}

static ssize_t tracing_on_read(struct file *filp, char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	char buf[4];
	int r;

	r = scnprintf(buf, sizeof(buf), "%d\n", rbt_record_is_on(rb_buf));
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
	if (val)
		rbt_record_on(rb_buf);
	else
		rbt_record_off(rb_buf);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations tracing_on_fops = {
	.owner		= THIS_MODULE,
	.read		= tracing_on_read,
	.write		= tracing_on_write,
	.llseek		= default_llseek,
};

static ssize_t buffer_size_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	char buf[32];
	int r;

	r = scnprintf(buf, sizeof(buf), "%lu\n",
		      rbt_size(rb_buf, RBT_ALL_CPUS) >> 10);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

static ssize_t buffer_size_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	unsigned long kb;
	int ret;

	ret = rb_read_ulong(ubuf, cnt, &kb);
	if (ret)
		return ret;
	if (!kb || kb > (ULONG_MAX >> 11))
		return -EINVAL;
	mutex_lock(&rb_files_mutex);
	ret = rbt_resize(rb_buf, kb << 10, RBT_ALL_CPUS);
	mutex_unlock(&rb_files_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations buffer_size_fops = {
	.owner		= THIS_MODULE,
	.read		= buffer_size_read,
	.write		= buffer_size_write,
	.llseek		= default_llseek,
};

/**
 * rb_debugfs_init - create /sys/kernel/debug/rbtrace/ for @buffer
 * @buffer: the buffer the files show
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rb_debugfs_init(struct rbt_buffer *buffer)
{
	rb_buf = buffer;
	rb_dir = debugfs_create_dir("rbtrace", NULL);
	if (IS_ERR(rb_dir))
		return PTR_ERR(rb_dir);
	debugfs_create_file("tracing_on", 0600, rb_dir, NULL, &tracing_on_fops);
	debugfs_create_file("buffer_size_kb", 0600, rb_dir, NULL, &buffer_size_fops);
	return 0;
}

/**
 * rb_debugfs_exit - remove the files; returns once no file operation runs
 */
void rb_debugfs_exit(void)
{
	debugfs_remove_recursive(rb_dir);
	rb_dir = NULL;
}
