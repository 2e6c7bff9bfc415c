// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace events in tracers: one struct rbtr_event_file per (tracer,
 * event type), as ftrace's struct trace_event_file is one per
 * (trace_array, trace_event_call). A file holds what one tracer decides
 * about one event: enabled or not, its condition word, filter, triggers
 * and the soft-mode holds of enable_event triggers. The registry of
 * types (event.c) stays one for all tracers.
 *
 * The list of tracers (rbtr_trace_list) is the join point with the
 * instances: every tracer that records events is on it, the top one
 * first, added by rbtr_events_instance_add() and taken off by
 * rbtr_events_instance_remove(). A type registered later gets a file in
 * every tracer on the list (a module's events, kprobe events); a type
 * unregistered loses all of its files.
 *
 * Locks, in order:
 *  - rbtr_event_tree_mutex: making and removing files and events/ trees
 *    (registering and unregistering types, adding and removing tracers).
 *    No operation of an events/ file takes it, so that removing a tree,
 *    which waits for the operations in flight on its files, can hold it;
 *  - the registry mutex (rbtr_events_lock(), event.c): the tracer list,
 *    the types, and every field of a file but @cond, which an
 *    enable_event trigger also flips from any context (atomically).
 *
 * Writers never lock: a probe's data is its file (a tracepoint's probe
 * is registered once per tracer), or one of the files of the set its
 * event publishes (struct rbtr_file_set: a kprobe or a generic event's
 * perf counter is one per event, whatever the tracers). A file is freed
 * only after its probe is unregistered, or it is out of the set, and the
 * probes in flight are done (steps R1-R4 of
 * rbtr_events_instance_remove(), U1-U3 of rbtr_events_files_free()).
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "filter.h"
#include "persist.h"
#include "pid.h"
#include "trace.h"
#include "trigger.h"

static DEFINE_MUTEX(rbtr_event_tree_mutex);
/* The tracers that record events (struct rbtr_trace_events), under the registry mutex. */
static LIST_HEAD(rbtr_trace_list);

#ifdef RBTRACE_TEST_HOOKS
static unsigned int fail_event_id;
module_param(fail_event_id, uint, 0600);
MODULE_PARM_DESC(fail_event_id,
		 "test builds: enabling the event of this id fails with -ENOMEM (0: none)");

static bool rbtr_test_reg_fails(const struct rbtr_event_type *type)
{
	return type->id && type->id == READ_ONCE(fail_event_id);
}
#else
static inline bool rbtr_test_reg_fails(const struct rbtr_event_type *type)
{
	return false;
}
#endif

/**
 * rbtr_event_tree_lock - hold the events/ trees: no file or tracer comes or goes
 *
 * Taken by the registration of types before the registry mutex.
 */
void rbtr_event_tree_lock(void)
{
	mutex_lock(&rbtr_event_tree_mutex);
}

/**
 * rbtr_event_tree_unlock - release rbtr_event_tree_lock()
 */
void rbtr_event_tree_unlock(void)
{
	mutex_unlock(&rbtr_event_tree_mutex);
}

/**
 * rbtr_trace_events_of - the events side of @tr
 * @tr: a tracer
 *
 * Under rbtr_events_lock().
 *
 * Return: it, or NULL if @tr is not on the list of tracers.
 */
struct rbtr_trace_events *rbtr_trace_events_of(struct rbtr_trace *tr)
{
	struct rbtr_trace_events *ev;

	list_for_each_entry(ev, &rbtr_trace_list, list)
		if (ev->tr == tr)
			return ev;
	return NULL;
}

/* A new file of @type in @ev's tracer, with its directory. Under both mutexes. */
static int rbtr_event_file_make(struct rbtr_trace_events *ev, struct rbtr_event_type *type)
{
	struct rbtr_event_file *file;
	int ret;

	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (!file)
		return -ENOMEM;
	file->tr = ev->tr;
	file->type = type;
	file->id = type->id;
	INIT_LIST_HEAD(&file->triggers);
	RCU_INIT_POINTER(file->filter, NULL);
	/*
	 * A pid filter in force in any tracer marks the new file too (pid.c):
	 * in a tracer without a list its per-CPU flag is false, so the mark
	 * costs the slow path and keeps every record.
	 */
	if (!rbtr_event_is_ftrace(type) && rbtr_pid_events_on())
		file->cond = RBTR_EVC_PID;
	ret = rbtr_events_fs_add(ev, file);
	if (ret) {
		kfree(file);
		return ret;
	}
	list_add_tail(&file->tr_list, &ev->files);
	list_add_tail(&file->type_list, &type->files);
	return 0;
}

/*
 * Take @file out of use: its triggers (and the enable_event triggers of
 * its tracer's other events that hold it) removed, its probe
 * unregistered, its filter dropped, off its lists, onto @gone by
 * @type_list. Writers may still be running it. Under both mutexes.
 */
static void rbtr_event_file_detach(struct rbtr_event_file *file, struct list_head *gone)
{
	lockdep_assert_held(&rbtr_event_tree_mutex);
	file->dead = true;
	rbtr_triggers_file_gone(file);
	if (file->enabled && file->type->unreg)
		file->type->unreg(file);
	file->enabled = false;
	rbtr_filter_remove_event(file);
	list_del(&file->tr_list);
	list_move_tail(&file->type_list, gone);
}

/**
 * rbtr_events_files_register - give a type being registered a file in every tracer
 * @type: the type, not yet on the registry's list
 * @gone: on failure, gets the files made, for rbtr_events_files_free()
 *        once the registry mutex is released
 *
 * Under rbtr_event_tree_lock() and the registry mutex.
 *
 * Return: 0, or the error of making one.
 */
int rbtr_events_files_register(struct rbtr_event_type *type, struct list_head *gone)
{
	struct rbtr_event_file *file, *tmp;
	struct rbtr_trace_events *ev;
	int ret = 0;

	INIT_LIST_HEAD(&type->files);
	list_for_each_entry(ev, &rbtr_trace_list, list) {
		ret = rbtr_event_file_make(ev, type);
		if (ret)
			break;
	}
	if (!ret)
		return 0;
	list_for_each_entry_safe(file, tmp, &type->files, type_list)
		rbtr_event_file_detach(file, gone);
	return ret;
}

/**
 * rbtr_events_files_detach - a type is being unregistered: its files out of use
 * @type: the type
 * @gone: gets its files, for rbtr_events_files_free() once the registry
 *        mutex is released
 *
 * Under rbtr_event_tree_lock() and the registry mutex.
 */
void rbtr_events_files_detach(struct rbtr_event_type *type, struct list_head *gone)
{
	struct rbtr_event_file *file, *tmp;

	list_for_each_entry_safe(file, tmp, &type->files, type_list)
		rbtr_event_file_detach(file, gone);
}

/**
 * rbtr_events_files_free - free the files of rbtr_events_files_detach()
 * @gone: the list it filled
 *
 * Under rbtr_event_tree_lock(), not the registry mutex: U1 their
 * directories are removed, which waits for the operations in flight on
 * them (those take the registry mutex, and find @dead set); U2 their
 * probes are gone already, or they are out of their event's file set
 * (U0, rbtr_event_file_detach()); U3 each is freed after a grace period:
 * every writer of a file runs with preemption disabled (a tracepoint's
 * probe, a kprobe handler, a perf overflow handler, the last two having
 * read the set before U0's update), so that call_rcu() waits for the
 * ones that were running it. kfree_rcu(): no callback of the module's is left
 * pending at its unload.
 */
void rbtr_events_files_free(struct list_head *gone)
{
	struct rbtr_event_file *file, *tmp;

	list_for_each_entry_safe(file, tmp, gone, type_list) {
		/*U1*/
		rbtr_events_fs_remove(file);
		list_del(&file->type_list);
		/*U3*/
		kfree_rcu(file, rcu);
	}
}

static int rbtr_instance_add_one(struct rbtr_event_type *type, void *data)
{
	return rbtr_event_file_make(data, type);
}

/* Take every file of @ev out of use, onto @gone. Under both mutexes. */
static void rbtr_instance_detach(struct rbtr_trace_events *ev, struct list_head *gone)
{
	struct rbtr_event_file *file, *tmp;

	list_for_each_entry_safe(file, tmp, &ev->files, tr_list)
		rbtr_event_file_detach(file, gone);
}

/**
 * rbtr_events_instance_add - give a tracer its events
 * @tr: the tracer; its buffer set (rbtr_trace_init())
 * @parent: its directory: gets events/ and set_event
 *
 * Makes a file for every registered type, all disabled, and puts @tr
 * on the list of tracers, so that types registered later get a
 * file in it too. The top tracer is made so, by rbtr_events_fs_init().
 * May sleep.
 *
 * Return: 0, -EEXIST if @tr has its events already, or -ENOMEM or the
 * error of making a file (nothing is left then).
 */
int rbtr_events_instance_add(struct rbtr_trace *tr, struct dentry *parent)
{
	struct rbtr_trace_events *ev;
	LIST_HEAD(gone);
	int ret;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	ev->tr = tr;
	INIT_LIST_HEAD(&ev->files);
	INIT_LIST_HEAD(&ev->systems);
	rbtr_event_tree_lock();
	rbtr_events_lock();
	ret = -EEXIST;
	if (rbtr_trace_events_of(tr))
		goto unlock;
	ret = rbtr_events_fs_tree(ev, parent);
	if (ret)
		goto unlock;
	ret = rbtr_event_for_each(rbtr_instance_add_one, ev);
	if (ret) {
		rbtr_instance_detach(ev, &gone);
		rbtr_events_unlock();
		/* None was enabled: no writer can have one. */
		rbtr_events_files_free(&gone);
		rbtr_events_fs_untree(ev);
		rbtr_event_tree_unlock();
		kfree(ev);
		return ret;
	}
	list_add_tail(&ev->list, &rbtr_trace_list);
	ev = NULL;
unlock:
	rbtr_events_unlock();
	rbtr_event_tree_unlock();
	kfree(ev);
	return ret;
}

/**
 * rbtr_events_instance_remove - disable and free a tracer's events
 * @tr: a tracer of rbtr_events_instance_add(), or one that has none
 *
 * Before @tr's buffer is freed: returns once no event can be recorded
 * into it. Removes its events/ and set_event. May sleep.
 *
 * R1 @tr off the list (no type registered later makes a file in it),
 * and every file detached: its triggers removed (a grace period, if
 * any), its probe unregistered (or, for a kprobe or generic event, the
 * file taken out of the probe's struct rbtr_file_set, the new set
 * published), its filter dropped, @dead set for the file operations
 * still to come; R2 tracepoint_synchronize_unregister(), which ends with
 * synchronize_rcu(): the probes that were running one of its files (and
 * any other writer, all of which run with preemption disabled: a
 * tracepoint's probe, a kprobe handler, a perf overflow handler that
 * read the set before R1's update) are done, and every later hit finds
 * the set without them; R3 its
 * directories removed, which waits for the file operations in flight
 * (they see @dead); R4 the files freed.
 */
void rbtr_events_instance_remove(struct rbtr_trace *tr)
{
	struct rbtr_event_file *file, *tmp;
	struct rbtr_trace_events *ev;
	LIST_HEAD(gone);

	rbtr_event_tree_lock();
	rbtr_events_lock();
	ev = rbtr_trace_events_of(tr);
	if (!ev) {
		rbtr_events_unlock();
		rbtr_event_tree_unlock();
		return;
	}
	/*R1*/
	rbtr_instance_detach(ev, &gone);
	list_del(&ev->list);
	rbtr_events_unlock();
	/*R2*/
	tracepoint_synchronize_unregister();
	/*R3*/
	list_for_each_entry(file, &gone, type_list)
		rbtr_events_fs_remove(file);
	rbtr_events_fs_untree(ev);
	rbtr_event_tree_unlock();
	/*R4*/
	list_for_each_entry_safe(file, tmp, &gone, type_list)
		kfree(file);
	kfree(ev);
}

/**
 * rbtr_events_each_tracer - call @fn for every tracer that records events
 * @fn: the function, which may sleep
 * @data: passed to @fn
 *
 * Under rbtr_event_tree_lock(), taken here: no tracer comes or goes
 * meanwhile (both take it). Not under the registry mutex.
 */
void rbtr_events_each_tracer(void (*fn)(struct rbtr_trace *tr, void *data), void *data)
{
	struct rbtr_trace_events *ev;

	rbtr_event_tree_lock();
	list_for_each_entry(ev, &rbtr_trace_list, list)
		fn(ev->tr, data);
	rbtr_event_tree_unlock();
}

/**
 * rbtr_event_file_of - the file of @type in @tr
 * @tr: the tracer
 * @type: a registered type
 *
 * Under rbtr_events_lock().
 *
 * Return: the file, or NULL (@tr has no events, or none of @type).
 */
struct rbtr_event_file *rbtr_event_file_of(struct rbtr_trace *tr,
					   const struct rbtr_event_type *type)
{
	struct rbtr_event_file *file;

	list_for_each_entry(file, &type->files, type_list)
		if (file->tr == tr)
			return file;
	return NULL;
}

/**
 * rbtr_file_set_add - publish a copy of an event's file set with @file added
 * @set: the event's set (NULL: empty)
 * @file: a file not in it
 *
 * Under rbtr_events_lock(), which serialises every update of every set
 * (the types' @reg and @unreg run under it). The new set is published
 * with rcu_assign_pointer() after it is filled: a probe that reads it
 * finds every file initialised; the old one is freed after a grace
 * period, past the probes that read it (they run with preemption off).
 * A probe that read the old set misses @file for that hit, as a
 * tracepoint's probe registered while the tracepoint fires does.
 *
 * Return: the number of files in the set now (1: it was empty: the
 * caller arms its probe), or -ENOMEM (the set unchanged).
 */
int rbtr_file_set_add(struct rbtr_file_set __rcu **set, struct rbtr_event_file *file)
{
	struct rbtr_file_set *old, *new;
	unsigned int nr;

	old = rcu_dereference_protected(*set, rbtr_events_lock_held());
	nr = old ? old->nr : 0;
	new = kmalloc(struct_size(new, file, nr + 1), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	if (old)
		memcpy(new->file, old->file, nr * sizeof(*new->file));
	new->file[nr] = file;
	new->nr = nr + 1;
	rcu_assign_pointer(*set, new);
	if (old)
		kfree_rcu(old, rcu);
	return new->nr;
}

/**
 * rbtr_file_set_del - publish a copy of an event's file set without @file
 * @set: the event's set, @file in it
 * @file: the file
 *
 * Under rbtr_events_lock(), as rbtr_file_set_add(). Cannot fail: a
 * disable must not (__GFP_NOFAIL, a few pointers). The last file leaves
 * NULL. A probe that read the old set may still record into @file once
 * (the file lives on: it is freed only after a grace period, R2 of
 * rbtr_events_instance_remove(), U3 of rbtr_events_files_free()).
 *
 * Return: the number of files left (0: the caller disarms its probe).
 */
unsigned int rbtr_file_set_del(struct rbtr_file_set __rcu **set, struct rbtr_event_file *file)
{
	struct rbtr_file_set *old, *new = NULL;
	unsigned int i, n = 0;

	old = rcu_dereference_protected(*set, rbtr_events_lock_held());
	if (WARN_ON_ONCE(!old))
		return 0;
	if (old->nr > 1) {
		new = kmalloc(struct_size(new, file, old->nr - 1), GFP_KERNEL | __GFP_NOFAIL);
		for (i = 0; i < old->nr; i++)
			if (old->file[i] != file && !WARN_ON_ONCE(n == old->nr - 1))
				new->file[n++] = old->file[i];
		new->nr = n;
	}
	rcu_assign_pointer(*set, new);
	kfree_rcu(old, rcu);
	return n;
}

/**
 * rbtr_event_file_lookup - the file of events/@system/@name in @tr
 * @tr: the tracer
 * @system: its system
 * @name: its name
 *
 * Under rbtr_events_lock().
 *
 * Return: the file, or NULL.
 */
struct rbtr_event_file *rbtr_event_file_lookup(struct rbtr_trace *tr, const char *system,
					       const char *name)
{
	struct rbtr_trace_events *ev = rbtr_trace_events_of(tr);
	struct rbtr_event_file *file;

	if (!ev)
		return NULL;
	list_for_each_entry(file, &ev->files, tr_list)
		if (!strcmp(file->type->system, system) && !strcmp(file->type->name, name))
			return file;
	return NULL;
}

/**
 * rbtr_event_file_live - is @file in use still (not being removed)?
 * @file: a file whose directory exists
 *
 * Under rbtr_events_lock(): a write of one of its files may race with
 * its removal, and must then change nothing.
 *
 * Return: true if it may be changed.
 */
bool rbtr_event_file_live(const struct rbtr_event_file *file)
{
	return !file->dead;
}

/**
 * rbtr_event_file_for_each - call @fn for every file of @tr
 * @tr: the tracer
 * @fn: the function; a non-zero return stops the walk
 * @data: passed to @fn
 *
 * Under rbtr_events_lock().
 *
 * Return: 0, or what @fn returned to stop.
 */
int rbtr_event_file_for_each(struct rbtr_trace *tr,
			     int (*fn)(struct rbtr_event_file *file, void *data), void *data)
{
	struct rbtr_trace_events *ev = rbtr_trace_events_of(tr);
	struct rbtr_event_file *file, *tmp;
	int ret;

	if (!ev)
		return 0;
	/* _safe: @fn may take the file off (rbtr_triggers_file_gone() does not). */
	list_for_each_entry_safe(file, tmp, &ev->files, tr_list) {
		ret = fn(file, data);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * rbtr_event_cond_update - change what decides whether @file is recorded
 * @file: a file
 * @set: RBTR_EVC_* bits to set
 * @clear: bits to clear
 *
 * Under rbtr_events_lock(). Writers read the word once per hit with
 * READ_ONCE(): one that read it before the change finishes on the old
 * conditions, as a hit racing with an ftrace filter change does. What a
 * bit points at (the filter, the triggers) is published before the bit
 * is set and freed only after a grace period past its clear, so a writer
 * that sees the bit and then finds the pointer NULL treats it as absent.
 * Atomic (set_mask_bits()): an enable_event trigger flips
 * RBTR_EVC_SOFT_OFF of its target from any context, without the mutex.
 */
void rbtr_event_cond_update(struct rbtr_event_file *file, unsigned long set,
			    unsigned long clear)
{
	/* Never cleared here: see RBTR_EVC_SCRATCH. */
	if (set & RBTR_EVC_BUFFERED)
		set |= RBTR_EVC_SCRATCH;
	set_mask_bits(&file->cond, clear & ~RBTR_EVC_SCRATCH, set);
}

/**
 * rbtr_event_on - is @file on, as its enable file says?
 * @file: a file
 *
 * Return: true if its probe is registered and it is not soft-disabled.
 */
bool rbtr_event_on(const struct rbtr_event_file *file)
{
	return file->enabled && !(READ_ONCE(file->cond) & RBTR_EVC_SOFT_OFF);
}

/**
 * rbtr_event_set_locked - rbtr_event_set_one() under rbtr_events_lock()
 * @file: the event's file
 * @on: the new state
 *
 * Return: as rbtr_event_set_one().
 */
int rbtr_event_set_locked(struct rbtr_event_file *file, bool on)
{
	struct rbtr_event_type *type = file->type;
	int ret;

	if (!type->reg)
		return 0;
	if (file->dead && on)
		return -ENODEV;
	/* Soft mode: the probe stays for the triggers; the switch is the bit (ftrace's rule). */
	if (file->soft_ref) {
		if (on)
			rbtr_event_cond_update(file, 0, RBTR_EVC_SOFT_OFF);
		else
			rbtr_event_cond_update(file, RBTR_EVC_SOFT_OFF, 0);
		return 0;
	}
	if (file->enabled == on)
		return 0;
	if (on) {
		if (rbtr_test_reg_fails(type))
			return -ENOMEM;
		ret = type->reg(file);
		if (ret)
			return ret;
		rbtr_persist_event_enabled(file);
	} else {
		type->unreg(file);
	}
	file->enabled = on;
	return 0;
}

/**
 * rbtr_event_set_one - enable or disable one event in one tracer
 * @file: the event's file
 * @on: the new state
 *
 * Return: 0, -ENODEV for a file being removed, or the error of its
 * type's @reg (state unchanged then).
 */
int rbtr_event_set_one(struct rbtr_event_file *file, bool on)
{
	int ret;

	rbtr_events_lock();
	ret = rbtr_event_set_locked(file, on);
	rbtr_events_unlock();
	return ret;
}

/**
 * rbtr_event_soft_get - hold @file in soft mode, for an enable_event trigger
 * @file: the target, live
 *
 * As ftrace's soft enable: the first hold of a disabled file registers
 * its probe with RBTR_EVC_SOFT_OFF set (set first: no record before the
 * trigger fires); an enabled one stays recording. Under
 * rbtr_events_lock().
 *
 * Return: 0, -EINVAL for an event that cannot be enabled, or the error
 * of its @reg (nothing held then).
 */
int rbtr_event_soft_get(struct rbtr_event_file *file)
{
	int ret;

	if (!file->type->reg)
		return -EINVAL;
	if (!file->soft_ref && !file->enabled) {
		rbtr_event_cond_update(file, RBTR_EVC_SOFT_OFF, 0);
		ret = rbtr_event_set_locked(file, true);
		if (ret) {
			rbtr_event_cond_update(file, 0, RBTR_EVC_SOFT_OFF);
			return ret;
		}
	}
	file->soft_ref++;
	return 0;
}

/**
 * rbtr_event_soft_put - drop a hold of rbtr_event_soft_get()
 * @file: the target
 *
 * The last hold leaves the file as the triggers left it, as ftrace's:
 * soft-disabled, its probe goes (before the bit is cleared, so that it
 * records nothing meanwhile); else it stays enabled. Under
 * rbtr_events_lock().
 */
void rbtr_event_soft_put(struct rbtr_event_file *file)
{
	if (WARN_ON_ONCE(!file->soft_ref) || --file->soft_ref)
		return;
	if (READ_ONCE(file->cond) & RBTR_EVC_SOFT_OFF)
		rbtr_event_set_locked(file, false);
	rbtr_event_cond_update(file, 0, RBTR_EVC_SOFT_OFF);
}
