// SPDX-License-Identifier: GPL-2.0
/*
 * show_event_filters and show_event_triggers: the filters and the
 * triggers in force in a tracer, all in one file each, as ftrace has them
 * from Linux 7.0 (trace_events.c's t_show_filters() and
 * t_show_triggers()), so that a user audits a setup without walking
 * events/: one line per filter, "system:event<TAB>filter", and one per
 * trigger, "system:event<TAB>" followed by the trigger as the event's
 * trigger file prints it. Every tracer has its own, the top one and each
 * instance, as ftrace's.
 *
 * Both read under rbtr_events_lock(), which every change of a filter or
 * of a trigger list holds, and hold their tracer while open
 * (rbtr_single_open_tr(): an instance with one of them open refuses
 * rmdir with -EBUSY).
 */
#include <linux/debugfs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include "event.h"
#include "filter.h"
#include "trace.h"
#include "trigger.h"

static int rbtr_show_filter_one(struct rbtr_event_file *file, void *data)
{
	struct rbtr_filter *f = rcu_dereference_protected(file->filter, rbtr_events_lock_held());
	struct seq_file *m = data;

	if (f)
		seq_printf(m, "%s:%s\t%s\n", file->type->system, file->type->name,
			   rbtr_filter_text(f));
	return 0;
}

static int rbtr_show_filters_show(struct seq_file *m, void *v)
{
	rbtr_events_lock();
	rbtr_event_file_for_each(rbtr_seq_data(m), rbtr_show_filter_one, m);
	rbtr_events_unlock();
	return 0;
}

static int rbtr_show_trigger_one(struct rbtr_event_file *file, void *data)
{
	rbtr_triggers_show_all(data, file);
	return 0;
}

static int rbtr_show_triggers_show(struct seq_file *m, void *v)
{
	rbtr_events_lock();
	rbtr_event_file_for_each(rbtr_seq_data(m), rbtr_show_trigger_one, m);
	rbtr_events_unlock();
	return 0;
}

static int rbtr_show_filters_open(struct inode *inode, struct file *file)
{
	return rbtr_single_open_tr(file, inode->i_private, rbtr_show_filters_show,
				   inode->i_private);
}

static int rbtr_show_triggers_open(struct inode *inode, struct file *file)
{
	return rbtr_single_open_tr(file, inode->i_private, rbtr_show_triggers_show,
				   inode->i_private);
}

static const struct file_operations rbtr_show_filters_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_show_filters_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

static const struct file_operations rbtr_show_triggers_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_show_triggers_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/**
 * rbtr_event_show_files - create a tracer's show_event_filters and show_event_triggers
 * @ev: the tracer's events
 * @parent: the tracer's directory
 *
 * Under rbtr_event_tree_lock(), with the tracer's set_event
 * (rbtr_events_fs_tree()). Read-only, as ftrace's (TRACE_MODE_READ).
 */
void rbtr_event_show_files(struct rbtr_trace_events *ev, struct dentry *parent)
{
	ev->show_filters = debugfs_create_file("show_event_filters", 0400, parent, ev->tr,
					       &rbtr_show_filters_fops);
	ev->show_triggers = debugfs_create_file("show_event_triggers", 0400, parent, ev->tr,
						&rbtr_show_triggers_fops);
}

/**
 * rbtr_event_show_files_remove - remove what rbtr_event_show_files() made
 * @ev: the tracer's events
 *
 * Waits for the reads in flight (debugfs_remove()).
 */
void rbtr_event_show_files_remove(struct rbtr_trace_events *ev)
{
	debugfs_remove(ev->show_filters);
	ev->show_filters = NULL;
	debugfs_remove(ev->show_triggers);
	ev->show_triggers = NULL;
}
