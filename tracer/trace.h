/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's tracer: the state of one tracer (its buffer, directory, clock
 * and the locks of its files), as ftrace's struct trace_array is, and what
 * the tracer's files share. The tracer reaches the ring buffer only
 * through <rbtrace/rbtrace.h>, as any other module does.
 */
#ifndef _RBTR_TRACE_H
#define _RBTR_TRACE_H

#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/types.h>
#include <rbtrace/rbtrace.h>
#include "snapshot.h"

struct dentry;
struct seq_buf;
struct rbtr_pid_tr;
struct rbtr_fn_tracer;

/**
 * struct rbtr_trace - one tracer: a buffer and the files that show it
 * @buffer: the ring buffer events are recorded into (the live one): a
 *          snapshot swaps it with @snap.spare at any time, from any
 *          context. A writer reads it once per event, with preemption
 *          disabled from that read to its commit (rbtr_live_buffer());
 *          a reader binds to one buffer at open (rbtr_reader_open())
 * @dir: its directory under /sys/kernel/debug/
 * @clock: the trace clock in force, with a reference (rbt_clock_get());
 *         NULL when a module set one of its own. Written under
 *         @files_mutex, read with READ_ONCE() by the text output
 * @buffer_percent: fill level splice and poll of trace_pipe_raw wait for
 * @readers_open: files open that read the buffer (trace, trace_pipe,
 *                trace_pipe_raw, snapshot, snapshot_raw): the sub-buffer
 *                size changes only at 0
 * @snap: the snapshot's spare buffer and its state (snapshot.c)
 * @files_mutex: serialises resizes, clock changes, resets of every CPU
 *               and @readers_open; taken before @access
 * @access: one mutex per possible CPU, taken by consuming readers and
 *          resets: an event returned by rbt_consume() stays valid only
 *          until the next consuming read of that CPU
 * @ref: files of the tracer open (or mapped), as ftrace's tr->ref: an
 *       instance is not removed while > 0 (instance.c). Under the
 *       instances' mutex
 * @print_fields: options/fields: the trace files print every event's
 *                fields as name=value, as ftrace's fields option does,
 *                instead of its own text
 * @dead: an instance being removed: no file of it opens any more
 * @untraced_cpus: its tracing_cpumask, stored inverted (event.c): a
 *                 tracer made zeroed traces every CPU from its first
 *                 event on. Writers test their CPU's bit without a lock
 *                 (rbtr_cpu_traced())
 * @pid_ev_ignore: per CPU, whether set_event_pid / set_event_notrace_pid
 *                 of this tracer leave the task running there out
 *                 (pid.c, ftrace's per-CPU ignore_pid of a trace_array):
 *                 read by its events while they have RBTR_EVC_PID
 * @pid_fn_pid: per CPU, for its function tracer: the pid of the task
 *               running there, or -1 if set_ftrace_pid /
 *               set_ftrace_notrace_pid leave it out (pid.c)
 * @pid_fn_on: it has one of those lists: read first by its function
 *             tracer's callback (rbtr_fn_pid_ignored())
 * @pid: its pid lists, probes and fork option (pid.c)
 * @fn: its function tracer: current_tracer, the filters (function.c)
 * @syscall_buf_sz: its syscall_user_buf_size, the bytes of user memory a
 *                  syscalls enter record keeps per argument
 *                  (kevents_sysuser.c); written by its file, read once
 *                  per record with READ_ONCE()
 */
struct rbtr_trace {
	struct rbt_buffer	*buffer;
	struct rbtr_snap	snap;
	struct dentry		*dir;
	struct dentry		*options;	/* options/, made on first use */
	const struct rbt_clock	*clock;
	int			buffer_percent;
	unsigned int		readers_open;
	struct mutex		files_mutex;	/* see above */
	struct mutex		*access;	/* see above */
	unsigned int		ref;
	bool			print_fields;
	bool			dead;
	bool			copy_marker;	/* marker.c */
	struct list_head	marker_copy;	/* on its copies' list while set */
	bool __percpu		*pid_ev_ignore;
	int __percpu		*pid_fn_pid;
	bool			pid_fn_on;
	struct rbtr_pid_tr	*pid;
	struct rbtr_fn_tracer	*fn;
	unsigned int		syscall_buf_sz;
	struct cpumask		untraced_cpus;
};

/* The tracer of the top directory, /sys/kernel/debug/rbtrace/. */
extern struct rbtr_trace rbtr_global_trace;

int rbtr_trace_init(struct rbtr_trace *tr, struct rbt_buffer *buffer);
void rbtr_trace_exit(struct rbtr_trace *tr);

/*
 * Every file of a tracer keeps the tracer in i_private; a per-CPU file
 * keeps its CPU in i_cdev as cpu + 1 (NULL: every CPU), as tracefs does.
 */
static inline struct rbtr_trace *rbtr_file_trace(struct inode *inode)
{
	return inode->i_private;
}

static inline int rbtr_file_cpu(struct inode *inode)
{
	long v = (long)inode->i_cdev;

	return v ? v - 1 : RBT_ALL_CPUS;
}

struct dentry *rbtr_options_dir(struct rbtr_trace *tr);
struct dentry *rbtr_create_cpu_file(const char *name, umode_t mode,
				    struct dentry *parent,
				    struct rbtr_trace *tr, int cpu,
				    const struct file_operations *fops);

/*
 * Opening a file (trace.c). Every open of every file of rbtrace calls
 * rbtr_check_open() first: under kernel lockdown (LOCKDOWN_TRACEFS) it
 * refuses with -EPERM, as tracefs's tracing_check_open_get_tr() does, and
 * until the module's load can no longer fail with -ENODEV. Files with no
 * open of their own use these.
 */
int rbtr_check_open(void);
void rbtr_files_publish(void);
void rbtr_files_unpublish(void);
int rbtr_open_generic(struct inode *inode, struct file *file);
int rbtr_open_nonseekable(struct inode *inode, struct file *file);

/*
 * A file of a tracer (its inode's i_private is a struct rbtr_trace)
 * holds a reference on it while open: rbtr_trace_get() at open (after
 * rbtr_check_open()), rbtr_trace_put() at release (trace.c). The
 * files without an open of their own use rbtr_open_tr() and
 * rbtr_release_tr().
 */
int rbtr_trace_get(struct rbtr_trace *tr);
void rbtr_trace_put(struct rbtr_trace *tr);
int rbtr_check_open_tr(struct rbtr_trace *tr);
int rbtr_open_tr(struct inode *inode, struct file *file);
int rbtr_open_tr_nonseekable(struct inode *inode, struct file *file);
int rbtr_release_tr(struct inode *inode, struct file *file);
int rbtr_single_open_tr(struct file *file, struct rbtr_trace *tr,
			int (*show)(struct seq_file *, void *), void *data);
void *rbtr_seq_data(struct seq_file *m);
int rbtr_single_release_tr(struct inode *inode, struct file *file);

/* Instances: instances/NAME, a tracer of its own (instance.c) */
/**
 * struct rbtr_instance - instances/NAME
 * @tr: its tracer; its @tr.dir is instances/NAME
 * @list: in rbtr_instances
 * @name: NAME
 */
struct rbtr_instance {
	struct rbtr_trace	tr;
	struct list_head	list;
	char			*name;
};

/* The instances' list and its mutex (trace.c: rbtr_trace_get() reads them) */
extern struct mutex rbtr_instances_mutex;
extern struct list_head rbtr_instances;

void rbtr_instances_defaults(unsigned long size, unsigned int flags,
			     unsigned int subbuf_order);
int rbtr_instances_init(struct dentry *parent, int (*files)(struct rbtr_trace *tr));
void rbtr_instances_exit(void);

/* DEFINE_SHOW_ATTRIBUTE(), its open checked by rbtr_check_open(). */
#define RBTR_DEFINE_SHOW_ATTRIBUTE(__name)				\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	int ret = rbtr_check_open();					\
									\
	return ret ?: single_open(file, __name ## _show, inode->i_private); \
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.owner		= THIS_MODULE,					\
	.open		= __name ## _open,				\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}

ssize_t rbtr_read_u64(char __user *ubuf, size_t cnt, loff_t *ppos, u64 val);
void rbtr_access_lock(struct rbtr_trace *tr, int cpu);
void rbtr_access_unlock(struct rbtr_trace *tr, int cpu);

/**
 * rbtr_live_buffer - the buffer a writer records its next event into
 * @tr: the tracer
 *
 * Read once per event, with preemption disabled until the event is
 * committed: the reservation and the commit go to the same buffer, and
 * a buffer freed by "echo 0 > snapshot" is freed only after an RCU grace
 * period (rbtr_snapshot_free()), so it outlives the writer. Its fields
 * are seen initialised through the address dependency, as with
 * rcu_dereference(): the swap publishes with a release (rbtr_snapshot_take()).
 *
 * Return: the live buffer.
 */
static inline struct rbt_buffer *rbtr_live_buffer(struct rbtr_trace *tr)
{
	return READ_ONCE(tr->buffer);
}

/**
 * rbtr_cpu_traced - is @cpu in @tr's tracing_cpumask?
 * @tr: the tracer
 * @cpu: the CPU
 *
 * Any context, no lock: a writer racing with a change of the mask
 * records its event or not, as in ftrace (rbtr_set_traced_cpus()).
 *
 * Return: true if @tr records events of @cpu.
 */
static __always_inline bool rbtr_cpu_traced(const struct rbtr_trace *tr, int cpu)
{
	return !cpumask_test_cpu(cpu, &tr->untraced_cpus);
}

/*
 * Test builds: a wait between a load of tr->buffer and its use, in the
 * files that hold files_mutex for it (trace.c); nothing in other builds.
 */
#ifdef RBTRACE_TEST_HOOKS
void rbtr_test_live_use_delay(void);
#else
static inline void rbtr_test_live_use_delay(void)
{
}
#endif

/* tracing_cpumask (event.c) */
void rbtr_set_traced_cpus(struct rbtr_trace *tr, const struct cpumask *mask);
void rbtr_get_traced_cpus(struct rbtr_trace *tr, struct cpumask *mask);

/* Clock and wake-up settings (trace.c) */
bool rbtr_clock_in_ns(struct rbtr_trace *tr);
const char *rbtr_clock_name(struct rbtr_trace *tr);
void rbtr_print_ts(struct rbtr_trace *tr, struct seq_buf *s, u64 ts);
int rbtr_single_release_rw(struct inode *inode, struct file *file);
loff_t rbtr_seq_llseek_rw(struct file *file, loff_t offset, int whence);
int rbtr_write_ulong(const char __user *ubuf, size_t cnt, unsigned long *val);
int rbtr_write_bool(const char __user *ubuf, size_t cnt, bool *on);
ssize_t rbtr_write_tr_bool(struct file *filp, const char __user *ubuf, size_t cnt,
			   loff_t *ppos, void (*set)(struct rbtr_trace *tr, bool on));
char *rbtr_write_cut(const char __user *ubuf, size_t cnt, size_t max, const char *seps,
		     size_t *len);

static inline int rbtr_buffer_percent(struct rbtr_trace *tr)
{
	return READ_ONCE(tr->buffer_percent);
}

/* Text files: trace, trace_pipe (output.c) */
extern const struct file_operations rbtr_trace_fops;
extern const struct file_operations rbtr_trace_pipe_fops;
int rbtr_trace_open_buffer(struct inode *inode, struct file *file, bool snapshot);
int rbtr_trace_release(struct inode *inode, struct file *file);

/* Raw pages: trace_pipe_raw (pipe_raw.c) */
extern const struct file_operations rbtr_pipe_raw_fops;
extern const struct file_operations rbtr_snapshot_raw_fops;

/* ftrace's ns2usecs(): rounded to the nearest microsecond. */
static inline u64 rbtr_ns2usecs(u64 ns)
{
	return div_u64(ns + 500, 1000);
}

#endif /* _RBTR_TRACE_H */
