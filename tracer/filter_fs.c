// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace event filters: setting them on events (the filter files of
 * event_fs.c) and ftrace's error_log, where parse errors are reported.
 *
 * A filter is set on an event in one tracer (its struct rbtr_event_file).
 * It is published on the file with rcu_assign_pointer() before
 * RBTR_EVC_FILTER is set (rbtr_event_cond_update()); writers read the
 * bit, then the pointer with rcu_dereference_sched() between reservation
 * and commit, preemption off. A replaced or cleared filter is freed only
 * after synchronize_rcu(), which waits for those sections (NMI handlers
 * included). All changes are made under rbtr_events_lock().
 */
#include <linux/err.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "event.h"
#include "filter.h"
#include "filter_internal.h"

/* Under rbtr_events_lock(), which every change of file->filter holds. */
static struct rbtr_filter *rbtr_fl_get(struct rbtr_event_file *file)
{
	return rcu_dereference_protected(file->filter, true);
}

/* Put @f (or NULL) on @file; return the filter it had. Under the lock. */
static struct rbtr_filter *rbtr_fl_swap(struct rbtr_event_file *file, struct rbtr_filter *f)
{
	struct rbtr_filter *old = rbtr_fl_get(file);

	if (f) {
		/* Published before the bit: a writer that sees the bit finds it. */
		rcu_assign_pointer(file->filter, f);
		/* A writer that saw RBTR_EVC_FAST checks f->fast of what it finds. */
		if (f->fast)
			rbtr_event_cond_update(file, RBTR_EVC_FILTER | RBTR_EVC_FAST, 0);
		else
			rbtr_event_cond_update(file, RBTR_EVC_FILTER, RBTR_EVC_FAST);
	} else {
		/* Bit first; a writer that saw it may still find NULL: no filter. */
		rbtr_event_cond_update(file, 0, RBTR_EVC_FILTER | RBTR_EVC_FAST);
		RCU_INIT_POINTER(file->filter, NULL);
	}
	return old;
}

/**
 * rbtr_filter_set_event - set (or with @text NULL, clear) @file's filter
 * @file: an event with a filter file, in its tracer
 * @text: the filter text, trailing blanks removed, or NULL
 *
 * A text that does not parse changes nothing and is reported.
 *
 * Return: 0 or a negative errno (-ENODEV: @file is being removed).
 */
int rbtr_filter_set_event(struct rbtr_event_file *file, const char *text)
{
	struct rbtr_filter *f = NULL, *old;

	if (text) {
		f = rbtr_filter_parse(file->type, text);
		if (IS_ERR(f))
			return PTR_ERR(f);
	}
	rbtr_events_lock();
	if (!rbtr_event_file_live(file) || rbtr_event_is_ftrace(file->type)) {
		rbtr_events_unlock();
		rbtr_filter_free(f);
		return -ENODEV;
	}
	old = rbtr_fl_swap(file, f);
	rbtr_events_unlock();
	if (old) {
		synchronize_rcu();
		rbtr_filter_free(old);
	}
	return 0;
}

/**
 * rbtr_filter_remove_event - drop the filter of a file being removed
 * @file: the file
 *
 * Under rbtr_events_lock().
 */
void rbtr_filter_remove_event(struct rbtr_event_file *file)
{
	struct rbtr_filter *old = rbtr_fl_swap(file, NULL);

	if (old) {
		synchronize_rcu();
		rbtr_filter_free(old);
	}
}

/* One event of a system filter being set. */
struct rbtr_fl_sys {
	struct rbtr_event_file	*file;
	struct rbtr_filter	*f;
};

struct rbtr_fl_sys_walk {
	const char		*system;
	const char		*text;
	struct rbtr_fl_sys	*ev;
	unsigned int		nr, max, nr_ok;
	int			err;
};

static int rbtr_fl_sys_one(struct rbtr_event_file *file, void *data)
{
	const struct rbtr_event_type *type = file->type;
	struct rbtr_fl_sys_walk *w = data;
	struct rbtr_filter_err err;
	struct rbtr_filter *f = NULL;

	if (strcmp(type->system, w->system) || rbtr_event_is_ftrace(type))
		return 0;
	if (!w->ev) {		/* counting pass */
		w->max++;
		return 0;
	}
	if (w->nr == w->max)
		return 0;
	if (w->text) {
		f = rbtr_filter_parse_err(type, w->text, &err);
		if (PTR_ERR(f) == -ENOMEM) {
			w->err = -ENOMEM;
			return 1;
		}
		if (IS_ERR(f))
			f = NULL;
		else
			w->nr_ok++;
	}
	w->ev[w->nr].file = file;
	w->ev[w->nr++].f = f;
	return 0;
}

/**
 * rbtr_filter_set_system - a system's filter: set on each event of
 * @system where it parses, the others' filters cleared (ftrace's
 * semantics); refused if it parses on none
 * @tr: the tracer whose events/@system/filter this is
 * @system: the system
 * @text: the filter, or NULL to clear every event's of the system
 *
 * Return: 0 or a negative errno.
 */
int rbtr_filter_set_system(struct rbtr_trace *tr, const char *system, const char *text)
{
	struct rbtr_fl_sys_walk w = { .system = system, .text = text };
	struct rbtr_filter_err err = { .code = RBTR_FE_BAD_SUBSYS_FILTER };
	unsigned int i;
	bool sync = false;

	rbtr_events_lock();
	rbtr_event_file_for_each(tr, rbtr_fl_sys_one, &w);
	if (!w.max) {
		rbtr_events_unlock();
		return -ENODEV;
	}
	w.ev = kcalloc(w.max, sizeof(*w.ev), GFP_KERNEL);
	if (!w.ev) {
		rbtr_events_unlock();
		return -ENOMEM;
	}
	rbtr_event_file_for_each(tr, rbtr_fl_sys_one, &w);
	if (!w.err && text && !w.nr_ok)
		w.err = -EINVAL;
	for (i = 0; i < w.nr; i++) {
		if (w.err)
			continue;
		/* Keeps the old filter to free it below. */
		w.ev[i].f = rbtr_fl_swap(w.ev[i].file, w.ev[i].f);
		sync |= !!w.ev[i].f;
	}
	rbtr_events_unlock();
	if (w.err == -EINVAL)
		rbtr_filter_report(text, &err);
	if (sync)
		synchronize_rcu();
	for (i = 0; i < w.nr; i++)
		rbtr_filter_free(w.ev[i].f);
	kfree(w.ev);
	return w.err;
}

/*
 * error_log: ftrace's last eight errors, "[ seconds.micros] LOC: error:
 * TEXT\n  Command: CMD\n" and a caret under the position.
 */
#define RBTR_ERR_LOG_MAX	8
#define RBTR_ERR_CMD_PREFIX	"  Command: "

struct rbtr_err_entry {
	struct list_head	list;
	u64			ts;
	const char		*loc;
	const char		*text;
	char			*cmd;
	unsigned int		pos;
};

static DEFINE_MUTEX(rbtr_err_mutex);
static LIST_HEAD(rbtr_err_log);
static unsigned int rbtr_err_nr;

/**
 * rbtr_error_log - add an entry to error_log, the oldest dropped past eight
 * @loc: where ("event filter parse error"), a static string
 * @text: the error's text, a static string
 * @cmd: the command that failed
 * @pos: the caret's position in @cmd
 */
void rbtr_error_log(const char *loc, const char *text, const char *cmd, unsigned int pos)
{
	struct rbtr_err_entry *e;
	char *c = kstrdup(cmd, GFP_KERNEL);

	if (!c)
		return;
	mutex_lock(&rbtr_err_mutex);
	if (rbtr_err_nr < RBTR_ERR_LOG_MAX) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e) {
			mutex_unlock(&rbtr_err_mutex);
			kfree(c);
			return;
		}
		rbtr_err_nr++;
	} else {
		e = list_first_entry(&rbtr_err_log, struct rbtr_err_entry, list);
		list_del(&e->list);
		kfree(e->cmd);
	}
	e->ts = local_clock();
	e->loc = loc;
	e->text = text;
	e->cmd = c;
	e->pos = pos;
	list_add_tail(&e->list, &rbtr_err_log);
	mutex_unlock(&rbtr_err_mutex);
}

/**
 * rbtr_error_log_clear - empty error_log (a truncating open, and unload)
 */
void rbtr_error_log_clear(void)
{
	struct rbtr_err_entry *e, *n;

	mutex_lock(&rbtr_err_mutex);
	list_for_each_entry_safe(e, n, &rbtr_err_log, list) {
		list_del(&e->list);
		kfree(e->cmd);
		kfree(e);
	}
	rbtr_err_nr = 0;
	mutex_unlock(&rbtr_err_mutex);
}

/**
 * rbtr_error_log_show - the text of error_log
 * @m: the seq_file
 */
void rbtr_error_log_show(struct seq_file *m)
{
	struct rbtr_err_entry *e;
	unsigned int i;
	u64 sec;
	u32 nsec;

	mutex_lock(&rbtr_err_mutex);
	list_for_each_entry(e, &rbtr_err_log, list) {
		sec = e->ts;
		nsec = do_div(sec, NSEC_PER_SEC);
		seq_printf(m, "[%5llu.%06u] %s: error: %s\n" RBTR_ERR_CMD_PREFIX "%s\n",
			   sec, nsec / 1000, e->loc, e->text, e->cmd);
		for (i = 0; i < sizeof(RBTR_ERR_CMD_PREFIX) - 1 + e->pos; i++)
			seq_putc(m, ' ');
		seq_puts(m, "^\n");
	}
	mutex_unlock(&rbtr_err_mutex);
}

/**
 * rbtr_filter_report - put a parse error in error_log, as ftrace does
 * @text: the filter text
 * @err: the error; code 0 (an errno without a text) logs "Error" at 0
 */
void rbtr_filter_report(const char *text, const struct rbtr_filter_err *err)
{
	int code = err->code ? err->code : RBTR_FE_ERRNO;

	rbtr_error_log("event filter parse error", rbtr_filter_err_text(code), text,
		       err->code ? err->pos : 0);
}

/**
 * rbtr_filter_parse - compile ftrace's filter text for records of @type
 * @type: the event whose fields the filter names
 * @text: the filter
 *
 * Return: the filter or an ERR_PTR().
 */
struct rbtr_filter *rbtr_filter_parse(const struct rbtr_event_type *type, const char *text)
{
	struct rbtr_filter_err err;
	struct rbtr_filter *f;

	f = rbtr_filter_parse_err(type, text, &err);
	if (IS_ERR(f) && PTR_ERR(f) != -ENOMEM)
		rbtr_filter_report(text, &err);
	return f;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_parse);
#endif
