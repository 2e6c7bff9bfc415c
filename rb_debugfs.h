/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's file interface under /sys/kernel/debug/rbtrace/: what its
 * parts (rb_debugfs.c control files, rb_output.c text, rb_pipe_raw.c raw
 * pages) share.
 */
#ifndef _RB_DEBUGFS_H
#define _RB_DEBUGFS_H

#include <linux/types.h>
#include <linux/fs.h>
#include <linux/math64.h>

struct rbt_buffer;
struct dentry;
struct seq_buf;

int rb_debugfs_init(struct rbt_buffer *buffer);
void rb_debugfs_exit(void);
struct dentry *rb_debugfs_dir(void);

/* The buffer the files show: set before any file exists. */
extern struct rbt_buffer *rb_fs_buffer;

/*
 * A per-CPU file keeps its CPU in i_private as cpu + 1; NULL means the
 * file is about every CPU (RBT_ALL_CPUS), as ftrace's tracing_get_cpu().
 */
static inline void *rb_cpu_to_private(int cpu)
{
	return (void *)(long)(cpu + 1);
}

int rb_file_cpu(struct inode *inode);

/*
 * Consuming readers of one CPU (trace_pipe, trace_pipe_raw) and resets
 * take its access lock: an event returned by rbt_consume() stays valid
 * only until the next consuming read on that CPU.
 */
void rb_access_lock(int cpu);
void rb_access_unlock(int cpu);
void rb_reset_buffer(int cpu);

/*
 * Files that read the buffer (trace, trace_pipe, trace_pipe_raw) count
 * themselves from open to release: the sub-buffer size changes only
 * while none is open.
 */
void rb_reader_open(void);
void rb_reader_close(void);

/* Clock and wake-up settings (rb_debugfs.c) */
bool rb_clock_in_ns(void);
const char *rb_clock_name(void);
int rb_buffer_percent(void);
void rb_print_ts(struct seq_buf *s, u64 ts);

/* Text files: trace, trace_pipe (rb_output.c) */
extern const struct file_operations rb_trace_fops;
extern const struct file_operations rb_trace_pipe_fops;

/* Raw pages: trace_pipe_raw (rb_pipe_raw.c) */
extern const struct file_operations rb_pipe_raw_fops;

/* ftrace's ns2usecs(): rounded to the nearest microsecond. */
static inline u64 rb_ns2usecs(u64 ns)
{
	return div_u64(ns + 500, 1000);
}

#endif /* _RB_DEBUGFS_H */
