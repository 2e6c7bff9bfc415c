// SPDX-License-Identifier: GPL-2.0
/*
 * Which route records a kernel event that rbtrace has no hand-written
 * probe for (kevents.c): by default a perf counter per CPU, whose
 * handler copies the record the kernel's perf probe made; an event that
 * another route can record at less cost is given that route here, once,
 * before it is registered. The route of an event never changes while it
 * is registered.
 *
 * The native route. The build compiled the kernel's own definitions of
 * the events of each header that allowed it into probes of rbtrace
 * (kn_stage.h, scripts/kn-select.sh: kn/native_events.txt in the build
 * directory says which and why not): a probe reserves the record in
 * each enabled file's buffer, fills it with the kernel's assignment code
 * and commits it, as ftrace's own probe writes into ftrace's buffer. An
 * event gets that route when
 *  - a compiled header of its system has an event of its name,
 *  - the compiled record is the running kernel's: the same fixed size
 *    (struct trace_event_raw_<class>) and every field of its format file
 *    at the same offset with the same size, in the same order (a module
 *    built against other headers than the kernel's records perf's way),
 *  - its tracepoint is found: the core kernel's
 *    (for_each_kernel_tracepoint()), or, for an event of a module, that
 *    module's (mod->tracepoints_ptrs).
 * Its probe is registered on the tracepoint, with the event as data,
 * while the event is enabled in a tracer at least.
 *
 * A module's tracepoint must outlive every probe registered on it and
 * the event that points at it. kevents_mod.c's notifier removes a
 * module's events at MODULE_STATE_GOING, before the kernel's notifiers
 * and before the module's memory goes: their probes are unregistered
 * there, their late runs waited for (tracepoint_synchronize_unregister())
 * and the events freed. That notifier is registered only once the
 * kernel's events are (rbtr_kevents_mod_init()); the modules of the
 * events read at load are pinned from before their events are routed
 * until then (kevents.c, rbtr_kn_module_pin() and _unpin()), so that
 * none goes unseen in between. The event of a module already going then
 * is left out.
 *
 * Module parameter native_events=0 keeps every event on perf, the
 * syscalls' too (make bench compares the routes with it).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "kevents.h"
#include "kn.h"
#include "tp.h"

static bool rbtr_kn_on = true;
module_param_named(native_events, rbtr_kn_on, bool, 0444);
MODULE_PARM_DESC(native_events,
		 "record the kernel's events natively (probes compiled from its own definitions where the build could, the syscalls from one probe) (default 1); 0: every one through perf");

#ifdef RBT_KN_NONE
/* Built without the selection step (kn/selected.mk): no compiled header. */
const struct rbtr_kn_system *const rbtr_kn_systems[] = {};
const unsigned int rbtr_kn_nr_systems;
#endif

/* How many events were refused the native route for their layout. */
static unsigned int rbtr_kn_layout;

/* rbtr_kn_field() walking a compiled record against an event's format file. */
struct rbtr_kn_check {
	const struct rbtr_kevent	*kev;
	unsigned int			i;
	bool				bad;
};

/**
 * rbtr_kn_field - check one compiled field against the format file
 * @c: the check under way (rbtr_kn_layout_ok())
 * @name: the field's name, without its array size
 * @offset: its offset in the compiled struct trace_event_raw_<class>
 * @size: its size there (4 for a __data_loc or __rel_loc)
 *
 * Called by the compiled events' field walkers (kn_stage.h), in the
 * order of their fields: the next field of the format file must be that
 * one.
 */
void rbtr_kn_field(struct rbtr_kn_check *c, const char *name, size_t offset, size_t size)
{
	const struct rbtr_field *f;
	size_t n;

	if (c->bad)
		return;
	if (c->i >= c->kev->type.nr_fields) {
		c->bad = true;
		return;
	}
	f = &c->kev->fields[c->i++];
	/* "comm[16]" in the format file: the name before its size. */
	n = strcspn(f->name, "[");
	if (strlen(name) != n || strncmp(f->name, name, n) || f->offset != offset ||
	    f->size != size)
		c->bad = true;
}

static bool rbtr_kn_layout_ok(const struct rbtr_kevent *kev, const struct rbtr_kn_event *ev)
{
	struct rbtr_kn_check c = { .kev = kev };

	if (ev->size != kev->fixed_size)
		return false;
	ev->fields(&c);
	return !c.bad && c.i == kev->type.nr_fields;
}

static const struct rbtr_kn_event *rbtr_kn_lookup(const struct rbtr_kevent *kev)
{
	const struct rbtr_kn_event *ev;
	unsigned int i;

	/* Several headers may share a system. */
	for (i = 0; i < rbtr_kn_nr_systems; i++) {
		if (strcmp(rbtr_kn_systems[i]->system, kev->type.system))
			continue;
		ev = rbtr_kn_systems[i]->find(kev->type.name);
		if (ev)
			return ev;
	}
	return NULL;
}

/* Under the kevents mutex, the file set published: the probe records into it. */
static int rbtr_kn_attach(struct rbtr_kevent *kev)
{
	return tracepoint_probe_register(kev->kn_tp, kev->kn->probe, kev);
}

/*
 * Under the kevents mutex, the file set NULL. The probe may still run on
 * another CPU (or, from 7.0, preempted before it took preemption off),
 * and nothing here waits for it, as ftrace does not wait when it
 * disables an event: a grace period per event made "echo 0 >
 * events/enable" take tens of seconds. What such a late probe can hold:
 *
 *  - @kev: freed only after rbtr_kevents_teardown()'s
 *    tracepoint_synchronize_unregister();
 *  - the file set it read before the NULL: read with preemption off
 *    (a sched-RCU reader), freed with kfree_rcu() (rbtr_file_set_del());
 *  - a file of it, and that file's buffer: freed only after
 *    rbtr_events_instance_remove()'s tracepoint_synchronize_unregister()
 *    (R2 there); until then a record written into it after the disable
 *    is one more, as a hit racing with ftrace's disable is;
 *  - the probe's code: the module's exit ends with the teardown's wait.
 *
 * A probe registered again right after (another tracer enables the
 * event) is a new entry of the tracepoint's array: the old array goes
 * after a grace period, by the tracepoint code itself.
 */
static void rbtr_kn_detach(struct rbtr_kevent *kev)
{
	int ret;

	ret = tracepoint_probe_unregister(kev->kn_tp, kev->kn->probe, kev);
	if (ret)
		pr_warn("rbtrace: %s:%s: cannot unregister its native probe (%d)\n",
			kev->type.system, kev->type.name, ret);
}

static const struct rbtr_kev_route rbtr_kn_route = {
	.name	= "native",
	.attach	= rbtr_kn_attach,
	.detach	= rbtr_kn_detach,
};

/*
 * The modules pinned at load, while the kernel's events are routed: touched
 * by rbtrace's init alone (rbtr_kevents_register()), so no lock.
 */
static struct module **rbtr_kn_mods;
static unsigned int rbtr_kn_nr_mods;

/**
 * rbtr_kn_module_pin - hold a module until rbtrace's notifier follows it
 * @mod: the module of an event read at load, held by the caller
 *
 * Once per module: a reference of rbtrace's, dropped by
 * rbtr_kn_modules_unpin().
 *
 * Return: false (no memory): its events are left out.
 */
bool rbtr_kn_module_pin(struct module *mod)
{
	struct module **mods;
	unsigned int i;

	for (i = 0; i < rbtr_kn_nr_mods; i++)
		if (rbtr_kn_mods[i] == mod)
			return true;
	mods = krealloc_array(rbtr_kn_mods, rbtr_kn_nr_mods + 1, sizeof(*mods), GFP_KERNEL);
	if (!mods)
		return false;
	rbtr_kn_mods = mods;
	/* The caller's reference keeps it up: this one cannot fail. */
	__module_get(mod);
	rbtr_kn_mods[rbtr_kn_nr_mods++] = mod;
	return true;
}

/**
 * rbtr_kn_modules_unpin - let them go
 *
 * Called once kevents_mod.c's notifier follows them, or when the
 * registration fails.
 */
void rbtr_kn_modules_unpin(void)
{
	while (rbtr_kn_nr_mods)
		module_put(rbtr_kn_mods[--rbtr_kn_nr_mods]);
	kfree(rbtr_kn_mods);
	rbtr_kn_mods = NULL;
}

/*
 * The tracepoint of @kev: @mod's, or the core kernel's. Both callers know
 * @mod defines the event (the event file's module at load, an entry of
 * mod->trace_events at LIVE): only the tracepoint is looked for.
 */
static struct tracepoint *rbtr_kn_tp(const struct rbtr_kevent *kev, struct module *mod)
{
	if (mod)
		return rbtr_tp_find_in_module(mod, kev->type.name);
	return rbtr_tp_find(kev->type.name);
}

/**
 * rbtr_kev_route_find - the route of a kernel event
 * @kev: the event, parsed from the kernel's format file, not registered
 * @mod: the module whose event it is (pinned, or in its notifier call),
 *       or NULL for the core kernel's
 *
 * Return: the route, or NULL for perf's.
 */
const struct rbtr_kev_route *rbtr_kev_route_find(struct rbtr_kevent *kev, struct module *mod)
{
	const struct rbtr_kev_route *route;
	const struct rbtr_kn_event *ev;
	struct tracepoint *tp;

	if (!rbtr_kn_on)
		return NULL;
	route = rbtr_ksys_route(kev);
	if (route)
		return route;

	ev = rbtr_kn_lookup(kev);
	if (!ev)
		return NULL;
	if (!rbtr_kn_layout_ok(kev, ev)) {
		if (!rbtr_kn_layout++)
			pr_info("rbtrace: %s:%s: its record is not the one compiled: on perf\n",
				kev->type.system, kev->type.name);
		return NULL;
	}
	tp = rbtr_kn_tp(kev, mod);
	if (!tp)
		return NULL;
	kev->kn = ev;
	kev->kn_tp = tp;
	return &rbtr_kn_route;
}

/**
 * rbtr_kev_route_report - one line in the log: how many events are native
 * @native: the kernel's events registered with the native route
 * @all: the kernel's events registered
 *
 * Called once the kernel's events are registered.
 */
void rbtr_kev_route_report(unsigned int native, unsigned int all)
{
	pr_info("rbtrace: %u of %u kernel events native (%u headers compiled in), %u refused for their layout, the others through perf\n",
		native, all, rbtr_kn_nr_systems, rbtr_kn_layout);
}
