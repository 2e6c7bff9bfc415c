// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's generic events of modules: the events of a module loaded
 * after rbtrace appear in rbtrace's events/, available_events and
 * set_event when the module is up, and the events of a module going away
 * are disabled, removed and freed before the module is, enabled or not.
 *
 * A module notifier sees both. The kernel's own (trace_module_notify(),
 * priority 1) adds a module's events to tracefs at MODULE_STATE_COMING
 * and removes them at MODULE_STATE_GOING, on the same chain, which calls
 * the higher priorities first. rbtrace's has priority 2 and acts:
 *
 *  - at MODULE_STATE_LIVE, after the module's init: tracefs has had the
 *    module's events since COMING, and rbtrace reads their format files
 *    as it reads every event's at load (kevents.c). An event the module
 *    fires in its init function is not recorded; a module whose init
 *    fails goes GOING without being LIVE, and had no events in rbtrace;
 *  - at MODULE_STATE_GOING, before the kernel: rbtrace's counters of the
 *    module's events are released while the kernel's event still exists
 *    (perf's teardown uses it), then the events are unregistered, their
 *    files removed (debugfs waits for the operations in flight on them;
 *    a file opened before fails later reads and writes with EIO), and
 *    freed after the tracepoints' grace periods, which also wait out the
 *    overflow handlers, the native probes still running on the module's
 *    tracepoints (kevents_route.c) and the trace readers printing one of
 *    their records.
 *
 * Which events are a module's: the ones its struct module lists
 * (mod->trace_events), found by system, name and id; the same for a
 * module loaded before rbtrace, whose events rbtrace read at load.
 *
 * As ftrace does (trace_module_remove_events()), the buffers of every
 * tracer (the top one and each instance) are emptied when a module with
 * an event that was ever enabled (in any tracer) goes: the kernel
 * gives the ids of a module's events to the next events registered, so
 * its records left in the buffer would print as some other event.
 *
 * A module that comes up while rbtrace loads, between the read of
 * available_events and the notifier's registration, has no events in
 * rbtrace until it is loaded again.
 *
 * Locking: rbtr_kev_mod_mutex serialises the notifier's calls (the chain
 * runs them concurrently for different modules) and rbtrace's unload,
 * and guards the list of generic events after load; the registry mutex
 * (event.c) and the kevents mutex come after it.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <rbtrace/rbtrace.h>
#include "kevents.h"
#include "persist.h"
#include "trace.h"

/* Before the kernel's trace_module_notify() (1), which removes the events. */
#define RBTR_KEV_MOD_PRIORITY	2

static DEFINE_MUTEX(rbtr_kev_mod_mutex);
/* Under the mutex: rbtrace is unloading, the events are gone. */
static bool rbtr_kev_mod_stopped;
static bool rbtr_kev_mod_registered;

/* The system and name of a module's event; false: not one ftrace lists. */
static bool rbtr_kev_mod_names(struct trace_event_call *call, const char **system,
			       const char **name)
{
	/* available_events leaves these out (trace_events.c, t_next()). */
	if (!call->class || !call->class->system || (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
		return false;
	*system = call->class->system;
	*name = trace_event_name(call);
	return *name;
}

/*
 * One event of @mod: its format file read from tracefs, then registered.
 * Return: 0, or the error of reading or parsing the format (the caller
 * tells it once per module: lockdown fails every read with -EPERM).
 */
static long rbtr_kev_mod_add(struct vfsmount *mnt, struct module *mod,
			     struct trace_event_call *call, const char *system,
			     const char *name, char **buf, size_t *cap)
{
	struct rbtr_kevent *kev;
	char path[256];
	ssize_t n;
	int ret;

	if (snprintf(path, sizeof(path), "events/%s/%s/format", system, name) >= sizeof(path))
		return 0;
	n = rbtr_kfs_read(mnt, path, buf, cap);
	/* No directory: the kernel did not add it (a bad taint, a clash). */
	if (n == -ENOENT)
		return 0;
	kev = n < 0 ? ERR_PTR(n) : rbtr_kev_parse(system, name, *buf, n);
	if (IS_ERR(kev))
		return PTR_ERR(kev);
	/* @mod is up until its GOING, which waits for this call's mutex. */
	kev->route = rbtr_kev_route_find(kev, mod);
	/* Its printer too: GOING frees @kev before the module's text goes. */
	rbtr_kev_text_attach(kev, call, NULL);
	ret = rbtr_kevents_add(kev);
	if (!ret)
		return 0;
	/* -EEXIST: rbtrace has it already (a native event, a clash). */
	if (ret != -EEXIST)
		pr_warn("rbtrace: %s: %s:%s: cannot add the event (%d)\n",
			mod->name, system, name, ret);
	rbtr_kev_free(kev);
	return 0;
}

/* MODULE_STATE_LIVE: the module's events, as tracefs has them. */
static void rbtr_kev_mod_live(struct module *mod)
{
	const char *system, *name;
	struct vfsmount *mnt;
	size_t cap = 4096;
	char *buf = NULL;
	unsigned int i, bad = 0;
	long err;

	if (!mod->num_trace_events)
		return;
	/* rbtrace's one mount of tracefs, kept while it is loaded. */
	mnt = rbtr_kfs();
	if (IS_ERR(mnt))
		return;
	for (i = 0; i < mod->num_trace_events; i++) {
		if (!rbtr_kev_mod_names(mod->trace_events[i], &system, &name))
			continue;
		err = rbtr_kev_mod_add(mnt, mod, mod->trace_events[i], system, name, &buf, &cap);
		if (err && !bad++)
			pr_info("rbtrace: %s: %s:%s: cannot read its format (%ld)\n",
				mod->name, system, name, err);
	}
	kvfree(buf);
}

/* Empty a tracer's buffer, as "echo > trace" does. */
static void rbtr_kev_mod_reset(struct rbtr_trace *tr, void *data)
{
	mutex_lock(&tr->files_mutex);
	rbtr_reset(tr, RBT_ALL_CPUS);
	mutex_unlock(&tr->files_mutex);
}

/* MODULE_STATE_GOING: disable, remove and free the module's events. */
static void rbtr_kev_mod_going(struct module *mod)
{
	struct rbtr_kevent *kev, *tmp;
	struct trace_event_call *call;
	const char *system, *name;
	bool used = false;
	unsigned int i;
	LIST_HEAD(gone);

	for (i = 0; i < mod->num_trace_events; i++) {
		call = mod->trace_events[i];
		if (!rbtr_kev_mod_names(call, &system, &name))
			continue;
		kev = rbtr_kevents_find(system, name, call->event.type);
		if (!kev)
			continue;
		used |= kev->was_enabled;
		/* Its counters are released when this returns. */
		rbtr_kevents_remove(kev, &gone);
	}
	if (list_empty(&gone))
		return;
	/*
	 * No new reader, handler or probe finds them (their ids are erased,
	 * their counters gone, their native probes unregistered from the
	 * module's tracepoints); wait for those that did: the readers run
	 * under RCU (rbtr_event_print()), perf's probe and the native ones
	 * as the tracepoint's callbacks (preemption off, or under the
	 * tracepoints' SRCU from 7.0): tracepoint_synchronize_unregister()
	 * waits for both kinds. The module's memory (its tracepoints, the
	 * code that calls them) goes only after this notifier returns.
	 */
	tracepoint_synchronize_unregister();
	list_for_each_entry_safe(kev, tmp, &gone, node) {
		list_del(&kev->node);
		rbtr_kev_free(kev);
	}
	/* Every tracer's, as ftrace's tracing_reset_all_online_cpus(). */
	if (used)
		rbtr_events_each_tracer(rbtr_kev_mod_reset, NULL);
}

static int rbtr_kev_mod_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;

	mutex_lock(&rbtr_kev_mod_mutex);
	if (!rbtr_kev_mod_stopped) {
		if (state == MODULE_STATE_LIVE && mod->num_trace_events) {
			rbtr_kev_mod_live(mod);
			/* A previous boot's records of these events decode from now on. */
			rbtr_persist_types_changed();
		} else if (state == MODULE_STATE_GOING) {
			rbtr_kev_mod_going(mod);
		}
	}
	mutex_unlock(&rbtr_kev_mod_mutex);
	return NOTIFY_OK;
}

static struct notifier_block rbtr_kev_mod_nb = {
	.notifier_call	= rbtr_kev_mod_notify,
	.priority	= RBTR_KEV_MOD_PRIORITY,
};

/**
 * rbtr_kevents_mod_init - follow the modules' events from now on
 *
 * Called at the end of rbtr_kevents_register().
 *
 * Return: 0 or a negative errno.
 */
int rbtr_kevents_mod_init(void)
{
	int ret;

	rbtr_kev_mod_stopped = false;
	ret = register_module_notifier(&rbtr_kev_mod_nb);
	if (!ret)
		rbtr_kev_mod_registered = true;
	return ret;
}

/**
 * rbtr_kevents_mod_exit - stop following the modules, tear everything down
 * @teardown: disables, unregisters and frees every generic event
 *
 * @teardown runs under the notifier's mutex: a module going away
 * meanwhile waits for it, then finds nothing of rbtrace's left, before
 * the kernel removes its events. Only then is the notifier unregistered.
 */
void rbtr_kevents_mod_exit(void (*teardown)(void))
{
	mutex_lock(&rbtr_kev_mod_mutex);
	rbtr_kev_mod_stopped = true;
	teardown();
	mutex_unlock(&rbtr_kev_mod_mutex);
	if (rbtr_kev_mod_registered)
		unregister_module_notifier(&rbtr_kev_mod_nb);
	rbtr_kev_mod_registered = false;
}
