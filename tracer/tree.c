// SPDX-License-Identifier: GPL-2.0
/*
 * The tracer's file tree under /sys/kernel/debug/rbtrace/, with the
 * names and semantics of tracefs, so that cat, trace-cmd and
 * libtraceevent work on it unchanged: this file composes it from the
 * files each part of the tracer makes (control.c, the text and raw
 * pages, the events, the markers, the snapshot, the options, instances),
 * and removes it at unload. It is the last step of the load that can
 * fail; the files refuse to open until rbtr_files_publish().
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include "clock_page.h"
#include "control.h"
#include "event.h"
#include "function.h"
#include "kevents.h"
#include "kprobe.h"
#include "options.h"
#include "persist.h"
#include "pid.h"
#include "stack.h"
#include "tp.h"
#include "trace.h"
#include "tree.h"

static int rbtr_create_cpu_dir(struct rbtr_trace *tr, struct dentry *per_cpu, int cpu)
{
	struct dentry *dir;
	char name[16];

	snprintf(name, sizeof(name), "cpu%d", cpu);
	dir = debugfs_create_dir(name, per_cpu);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	rbtr_create_cpu_file("trace", 0600, dir, tr, cpu, &rbtr_trace_fops);
	rbtr_create_cpu_file("trace_pipe", 0400, dir, tr, cpu, &rbtr_trace_pipe_fops);
	rbtr_create_cpu_file("trace_pipe_raw", 0400, dir, tr, cpu, &rbtr_pipe_raw_fops);
	rbtr_control_cpu_files(tr, dir, cpu);
	rbtr_snapshot_cpu_files(tr, dir, cpu);
	return 0;
}

/* One per_cpu/cpuN for every possible CPU: trace-cmd opens them all. */
static int rbtr_create_per_cpu(struct rbtr_trace *tr)
{
	struct dentry *per_cpu;
	int cpu, ret;

	per_cpu = debugfs_create_dir("per_cpu", tr->dir);
	if (IS_ERR(per_cpu))
		return PTR_ERR(per_cpu);
	for_each_possible_cpu(cpu) {
		ret = rbtr_create_cpu_dir(tr, per_cpu, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

static void rbtr_create_control_files(struct rbtr_trace *tr)
{
	struct dentry *top = tr->dir;

	rbtr_control_files(tr);
	debugfs_create_file("trace", 0600, top, tr, &rbtr_trace_fops);
	debugfs_create_file("trace_pipe", 0400, top, tr, &rbtr_trace_pipe_fops);
}

/*
 * The files every tracer has, the top one and each instance: its buffer's
 * control files, tracing_cpumask, trace, trace_pipe, per_cpu/, the
 * markers, the snapshot, the options, the event pid filters and the
 * function tracer's files. Their opens take a reference on @tr
 * (rbtr_trace_get()). On failure the caller removes @tr->dir.
 */
static int rbtr_create_tracer_files(struct rbtr_trace *tr)
{
	int ret;

	rbtr_create_control_files(tr);
	ret = rbtr_create_per_cpu(tr);
	if (ret)
		return ret;
	rbtr_marker_files(tr);
	rbtr_snapshot_files(tr);
	rbtr_options_files(tr);
	rbtr_pid_files(tr);
	rbtr_function_files(tr);
	return 0;
}

/*
 * Build the tree; on failure the caller removes what was made. What can
 * fail but the directories comes first: the duration filter's tables,
 * with their files tracing_thresh and tracing_thresh_stats.
 */
static int rbtr_create_tree(struct rbtr_trace *tr)
{
	int ret;

	tr->dir = debugfs_create_dir("rbtrace", NULL);
	if (IS_ERR(tr->dir)) {
		ret = PTR_ERR(tr->dir);
		tr->dir = NULL;
		return ret;
	}
	ret = rbtr_duration_init(tr->dir);
	if (ret)
		return ret;
	ret = rbtr_create_tracer_files(tr);
	if (ret)
		return ret;
	ret = rbtr_events_fs_init(tr);
	if (ret)
		return ret;
	rbtr_cmdlines_files(tr);
	rbtr_kprobes_files(tr);
	rbtr_stack_files(tr);
	rbtr_persist_files(tr);
	rbtr_clock_page_files(tr->dir);
	rbtr_kevents_files(tr->dir);
	return rbtr_instances_init(tr->dir, rbtr_create_tracer_files);
}

/* Also after a partial rbtr_create_tree(): each step undoes only what it made. */
static void rbtr_remove_tree(struct rbtr_trace *tr)
{
	rbtr_files_unpublish();
	rbtr_instances_exit();
	/* Its files before the tree, which would free their dentries. */
	rbtr_duration_exit();
	rbtr_events_fs_exit();
	debugfs_remove_recursive(tr->dir);
	tr->dir = NULL;
	tr->options = NULL;
}

/**
 * rbtr_tree_init - create /sys/kernel/debug/rbtrace/ for a tracer
 * @tr: the tracer the files show, set up by rbtr_trace_init(), its events
 *      registered (rbtr_marker_init(), rbtr_tracepoints_init()) and its
 *      saved_cmdlines table made (rbtr_cmdlines_init())
 *
 * The last step of the load that can fail. The files refuse to open
 * until rbtr_files_publish().
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rbtr_tree_init(struct rbtr_trace *tr)
{
	int ret;

	ret = rbtr_create_tree(tr);
	if (ret)
		rbtr_remove_tree(tr);
	return ret;
}

/**
 * rbtr_tree_exit - remove the files
 * @tr: the tracer of rbtr_tree_init()
 *
 * Called at module unload, when no file is open (each open one holds a
 * module reference), so no file operation can be running; or when the
 * load fails after rbtr_tree_init(), when none could be opened. After
 * rbtr_tracepoints_exit(): no probe uses the duration filter's tables.
 */
void rbtr_tree_exit(struct rbtr_trace *tr)
{
	rbtr_remove_tree(tr);
}
