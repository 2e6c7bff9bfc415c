// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot's files: snapshot and per_cpu/cpuN/{snapshot,snapshot_raw},
 * as tracefs's. A write is a command of snapshot.c (rbtr_snap_cmd()); a
 * read is the trace file's text (output.c) or trace_pipe_raw's pages
 * (pipe_raw.c) of the snapshot, bound at open (rbtr_reader_open()).
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include "trace.h"

static ssize_t rbtr_snapshot_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct inode *inode = file_inode(file);
	struct rbtr_trace *tr = rbtr_file_trace(inode);
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	mutex_lock(&tr->files_mutex);
	ret = rbtr_snap_cmd(tr, rbtr_file_cpu(inode), val);
	mutex_unlock(&tr->files_mutex);
	if (ret == -EBUSY)
		pr_warn_ratelimited("rbtrace: snapshot %lu: busy: %s\n", val,
				    val ? "a trace_pipe_raw is mapped" :
				    "a reader or a snapshot trigger holds the snapshot");
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int rbtr_snapshot_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open_tr(rbtr_file_trace(inode));

	if (ret)
		return ret;
	/* Not truncated by O_TRUNC ("echo 1 >"): that is trace's reset. */
	if (file->f_mode & FMODE_READ)
		ret = rbtr_trace_open_buffer(inode, file, true);
	if (ret)
		rbtr_trace_put(rbtr_file_trace(inode));
	return ret;
}

/* rbtr_trace_release() drops the open's reference, read or not. */
static int rbtr_snapshot_release(struct inode *inode, struct file *file)
{
	return rbtr_trace_release(inode, file);
}

static loff_t rbtr_snapshot_llseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations rbtr_snapshot_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_snapshot_open,
	.read		= seq_read,
	.write		= rbtr_snapshot_write,
	.llseek		= rbtr_snapshot_llseek,
	.release	= rbtr_snapshot_release,
};

/**
 * rbtr_snapshot_files - the tracer's snapshot file
 * @tr: the tracer, its directory made
 */
void rbtr_snapshot_files(struct rbtr_trace *tr)
{
	rbtr_create_cpu_file("snapshot", 0600, tr->dir, tr, RBT_ALL_CPUS,
			     &rbtr_snapshot_fops);
}

/**
 * rbtr_snapshot_cpu_files - per_cpu/cpuN/snapshot and snapshot_raw
 * @tr: the tracer
 * @dir: per_cpu/cpuN
 * @cpu: N
 */
void rbtr_snapshot_cpu_files(struct rbtr_trace *tr, struct dentry *dir, int cpu)
{
	rbtr_create_cpu_file("snapshot", 0600, dir, tr, cpu, &rbtr_snapshot_fops);
	rbtr_create_cpu_file("snapshot_raw", 0400, dir, tr, cpu, &rbtr_snapshot_raw_fops);
}
