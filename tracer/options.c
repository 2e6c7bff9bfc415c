// SPDX-License-Identifier: GPL-2.0
/*
 * A tracer's options/ directory and its trace_options file, as tracefs's.
 * Every tracer, the top and each instance, has options/overwrite: the mode
 * of its buffers (ftrace's TRACE_ITER_OVERWRITE, an instance's own: 1
 * overwrites the oldest events when full, 0 refuses new ones), and
 * options/event-fork, function-fork and func_stack_trace, its own too
 * (pid.c: its set_event_pid's and set_ftrace_pid's; its function
 * tracer's). The top also has the options that are global in rbtrace
 * (stacktrace) or belong to its function_graph (funcgraph-*); an
 * instance's trace_options does not list them and refuses them with
 * -EINVAL, as ftrace refuses its top-level-only flags in an instance.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "function.h"
#include "options.h"
#include "pid.h"
#include "snapshot.h"
#include "stack.h"
#include "trace.h"

/*
 * The live buffer's mode. "echo 0 > snapshot" frees a buffer under
 * files_mutex, and a swap (from any context) may make the one loaded
 * here that spare at any time: held from the load to the use, the mutex
 * keeps it from being freed meanwhile (control.c's rule).
 */
static bool rbtr_live_overwrite(struct rbtr_trace *tr)
{
	struct rbt_buffer *buffer;
	bool on;

	mutex_lock(&tr->files_mutex);
	buffer = READ_ONCE(tr->buffer);
	rbtr_test_live_use_delay();
	on = rbt_overwrite(buffer);
	mutex_unlock(&tr->files_mutex);
	return on;
}

/*
 * RBTR_TR_BOOL_OPTION(name, get, set): rbtr_<name>_fops, the file of a
 * tracer's option read with get(tr) and written with set(tr, on), "0" or
 * "1", else -EINVAL, as ftrace's trace_options_core_write()
 * (rbtr_write_tr_bool()).
 */
#define RBTR_TR_BOOL_OPTION(name, get, set)					\
static ssize_t rbtr_##name##_read(struct file *filp, char __user *ubuf,	\
				  size_t cnt, loff_t *ppos)			\
{										\
	return rbtr_read_u64(ubuf, cnt, ppos, get(rbtr_file_trace(file_inode(filp)))); \
}										\
										\
static ssize_t rbtr_##name##_write(struct file *filp, const char __user *ubuf, \
				   size_t cnt, loff_t *ppos)			\
{										\
	return rbtr_write_tr_bool(filp, ubuf, cnt, ppos, set);			\
}										\
										\
static const struct file_operations rbtr_##name##_fops = {			\
	.owner		= THIS_MODULE,						\
	.open		= rbtr_open_tr,						\
	.release	= rbtr_release_tr,					\
	.read		= rbtr_##name##_read,					\
	.write		= rbtr_##name##_write,					\
	.llseek		= default_llseek,					\
}

RBTR_TR_BOOL_OPTION(overwrite, rbtr_live_overwrite, rbtr_buffers_set_overwrite);

/*
 * options/fields, as ftrace's (6.1 and later): the trace files print
 * every event's fields as name=value (hex and decimal) instead of its
 * text. Read when each line is printed.
 */
static bool rbtr_get_fields(struct rbtr_trace *tr)
{
	return READ_ONCE(tr->print_fields);
}

static void rbtr_set_fields(struct rbtr_trace *tr, bool on)
{
	WRITE_ONCE(tr->print_fields, on);
}

RBTR_TR_BOOL_OPTION(fields, rbtr_get_fields, rbtr_set_fields);

/*
 * options/copy_trace_marker, as ftrace's (6.16 and later): writes to the
 * top's trace_marker and trace_marker_raw also go into this tracer
 * (marker.c). The top's is 1 at load, an instance's 0.
 */
static bool rbtr_get_copy_marker(struct rbtr_trace *tr)
{
	return READ_ONCE(tr->copy_marker);
}

RBTR_TR_BOOL_OPTION(copy_marker, rbtr_get_copy_marker, rbtr_marker_copy_set);

/*
 * options/func_stack_trace (ftrace's, of the function tracer; each
 * tracer's): a kernel_stack record after each function record of the
 * tracer's function tracer (read once per call), as ftrace's
 * function_stack_trace_call().
 */
static bool rbtr_get_func_stack(struct rbtr_trace *tr)
{
	return READ_ONCE(tr->fn->func_stack);
}

static void rbtr_set_func_stack(struct rbtr_trace *tr, bool on)
{
	WRITE_ONCE(tr->fn->func_stack, on);
}

RBTR_TR_BOOL_OPTION(func_stack, rbtr_get_func_stack, rbtr_set_func_stack);

/*
 * trace_options: the tracer's options, one a line, "no" in front of those
 * off, as ftrace's (libtracefs reads it to learn which options exist:
 * trace-cmd record -T crashes without it). Written, "name" or "noname"
 * sets one; an unknown name is -EINVAL, as ftrace's trace_set_options().
 */
static int rbtr_trace_options_show(struct seq_file *m, void *v)
{
	struct rbtr_trace *tr = rbtr_seq_data(m);

	seq_printf(m, "%soverwrite\n", rbtr_live_overwrite(tr) ? "" : "no");
	seq_printf(m, "%sfields\n", READ_ONCE(tr->print_fields) ? "" : "no");
	seq_printf(m, "%scopy_trace_marker\n", READ_ONCE(tr->copy_marker) ? "" : "no");
	if (tr == &rbtr_global_trace)
		rbtr_stack_options_show(m);
	seq_printf(m, "%sfunc_stack_trace\n", rbtr_get_func_stack(tr) ? "" : "no");
	rbtr_graph_options_show(m, tr);
	/* event-fork, function-fork */
	rbtr_pid_options_show(tr, m);
	return 0;
}

static int rbtr_trace_options_open(struct inode *inode, struct file *file)
{
	struct rbtr_trace *tr = rbtr_file_trace(inode);

	return rbtr_single_open_tr(file, tr, rbtr_trace_options_show, tr);
}

/* The options but overwrite: -ENOENT for a name that is none of @tr's. */
static int rbtr_other_option_set(struct rbtr_trace *tr, const char *name, bool on)
{
	int ret = tr == &rbtr_global_trace ? rbtr_stack_option_set(name, on) : -ENOENT;

	/* funcgraph-*: function_graph's, while it is the tracer's (ftrace's rule). */
	if (ret == -ENOENT)
		ret = rbtr_graph_option_set(tr, name, on);

	/* event-fork, function-fork: pid.c's (trace-cmd record -c). */
	return ret == -ENOENT ? rbtr_pid_option_set(tr, name, on) : ret;
}

static ssize_t rbtr_trace_options_write(struct file *filp, const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	struct rbtr_trace *tr = rbtr_file_trace(file_inode(filp));
	char buf[64], *name;
	bool on = true;
	int ret;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	name = strim(buf);
	if (str_has_prefix(name, "no")) {
		on = false;
		name += 2;
	}
	ret = 0;
	if (!strcmp(name, "overwrite"))
		rbtr_buffers_set_overwrite(tr, on);
	else if (!strcmp(name, "fields"))
		rbtr_set_fields(tr, on);
	else if (!strcmp(name, "copy_trace_marker"))
		rbtr_marker_copy_set(tr, on);
	else if (!strcmp(name, "func_stack_trace"))
		rbtr_set_func_stack(tr, on);
	else
		ret = rbtr_other_option_set(tr, name, on);
	if (ret)
		return ret == -ENOENT ? -EINVAL : ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_trace_options_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_trace_options_open,
	.read		= seq_read,
	.write		= rbtr_trace_options_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/**
 * rbtr_options_files - create a tracer's trace_options, options/overwrite,
 * options/fields, options/copy_trace_marker and options/func_stack_trace
 * @tr: the tracer (the top or an instance), its directory made
 */
void rbtr_options_files(struct rbtr_trace *tr)
{
	struct dentry *dir = rbtr_options_dir(tr);

	if (!IS_ERR(dir)) {
		debugfs_create_file("overwrite", 0600, dir, tr, &rbtr_overwrite_fops);
		debugfs_create_file("fields", 0600, dir, tr, &rbtr_fields_fops);
		debugfs_create_file("copy_trace_marker", 0600, dir, tr, &rbtr_copy_marker_fops);
		debugfs_create_file("func_stack_trace", 0600, dir, tr, &rbtr_func_stack_fops);
	}
	debugfs_create_file("trace_options", 0600, tr->dir, tr, &rbtr_trace_options_fops);
}
