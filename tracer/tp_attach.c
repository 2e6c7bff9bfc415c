// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace tracepoint events: their attachment to the kernel. The events
 * of tp_probes.c, the duration filter's and the kernel's other events
 * (kevents.c) enter the event registry at load and leave it at unload;
 * a probe of tp_probes.c is attached to the tracepoint of its name
 * while its event is enabled. Apart from the probes' bodies, which run
 * in the traced code's context: this runs in the registry's.
 *
 * Tracepoints are found by name among the kernel's own
 * (for_each_kernel_tracepoint()) at load; one this kernel lacks leaves
 * its event out, with one line in the log. A probe is registered only
 * while its event is enabled (its enable file, set_event): a disabled
 * event costs the kernel nothing but the tracepoint's static branch.
 * Unload unregisters them all and waits for the probes in flight
 * (tracepoint_synchronize_unregister()) before the buffer goes away.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "event.h"
#include "kevents.h"
#include "tp_format.h"
#include "tp_internal.h"
#include "tp.h"

/* The duration filter's events in the registry, one per pair. */
static bool rbtr_dur_registered[RBTR_PAIR_NR];

/* ---- registration ----------------------------------------------------------- */

/*
 * One probe per tracer that enables the event, its file as data: the
 * kernel keeps (probe, data) pairs, so that the same probe comes once per
 * tracer. The duration filter follows the top tracer's only.
 */
static int rbtr_tp_reg(struct rbtr_event_file *file)
{
	struct rbtr_tp_event *ev = container_of(file->type, struct rbtr_tp_event, type);
	int ret;

	ret = tracepoint_probe_register(ev->tp, ev->probe, file);
	if (ret)
		return ret;
	if (ev->pair >= 0 && rbtr_dur_on(file))
		rbtr_dur_pair_set(ev->pair, ev->is_exit, true);
	return 0;
}

static void rbtr_tp_unreg(struct rbtr_event_file *file)
{
	struct rbtr_tp_event *ev = container_of(file->type, struct rbtr_tp_event, type);
	int ret;

	if (ev->pair >= 0 && rbtr_dur_on(file))
		rbtr_dur_pair_set(ev->pair, ev->is_exit, false);
	ret = tracepoint_probe_unregister(ev->tp, ev->probe, file);
	if (ret)
		pr_warn("rbtrace: %s: cannot unregister the probe (%d)\n", file->type->name, ret);
}

/**
 * rbtr_tp_own - is this one of the kernel's events written by rbtrace's own probe?
 * @type: a registered event type
 *
 * Return: true for an event of tp_events.h (event_routes says "own").
 */
bool rbtr_tp_own(const struct rbtr_event_type *type)
{
	return type->reg == rbtr_tp_reg;
}

/* Their type from their description; the tracepoint events can be switched. */
static void rbtr_tp_type_init(struct rbtr_event_type *type, const struct rbtr_tp_desc *d, bool reg)
{
	type->system = d->system;
	type->name = d->name;
	type->fields = d->fields(&type->nr_fields);
	type->print_fmt = d->print_fmt;
	type->print = d->print;
	/* No reg: always on, no enable file (the duration events). */
	type->reg = reg ? rbtr_tp_reg : NULL;
	type->unreg = reg ? rbtr_tp_unreg : NULL;
	/* The kernel's id for the kernel's event; the duration events are rbtrace's. */
	type->id = reg ? rbtr_kevents_id(d->system, d->name) : 0;
}

static void rbtr_tp_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < RBTR_TP_NR; i++)
		if (!rbtr_tp_events[i].tp && !strcmp(tp->name, rbtr_tp_events[i].type.name))
			rbtr_tp_events[i].tp = tp;
}

/* rbtr_tp_find()'s walk: the name sought, the tracepoint found. */
struct rbtr_tp_want {
	const char		*name;
	struct tracepoint	*tp;
};

static void rbtr_tp_match(struct tracepoint *tp, void *priv)
{
	struct rbtr_tp_want *want = priv;

	if (!want->tp && !strcmp(tp->name, want->name))
		want->tp = tp;
}

/**
 * rbtr_tp_find - the core kernel's tracepoint of a name
 * @name: its name
 *
 * The tracepoints of modules are not looked at (for_each_kernel_tracepoint()).
 *
 * Return: the tracepoint, or NULL.
 */
struct tracepoint *rbtr_tp_find(const char *name)
{
	struct rbtr_tp_want want = { .name = name };

	for_each_kernel_tracepoint(rbtr_tp_match, &want);
	return want.tp;
}

/**
 * rbtr_tp_find_in_module - a module's tracepoint of a name
 * @mod: the module, pinned or in its own notifier call
 * @name: its name
 *
 * Return: the tracepoint, or NULL.
 */
struct tracepoint *rbtr_tp_find_in_module(struct module *mod, const char *name)
{
	struct tracepoint *tp;
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		tp = tracepoint_ptr_deref(mod->tracepoints_ptrs + i);
		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

/* Both events of pair @id are in the registry. */
static bool rbtr_pair_present(enum rbtr_pair_id id)
{
	int i, n = 0;

	for (i = 0; i < RBTR_TP_NR; i++)
		if (rbtr_tp_events[i].pair == id && rbtr_tp_events[i].registered)
			n++;
	return n == 2;
}

static void rbtr_tp_unregister_all(void)
{
	int i;

	rbtr_kevents_exit();
	/* Probes first (an enabled event's unreg removes its probe) ... */
	for (i = 0; i < RBTR_TP_NR; i++) {
		if (!rbtr_tp_events[i].registered)
			continue;
		rbtr_event_unregister(&rbtr_tp_events[i].type);
		rbtr_tp_events[i].registered = false;
	}
	/* ... then wait for those still running, which use what follows. */
	tracepoint_synchronize_unregister();
	for (i = 0; i < RBTR_PAIR_NR; i++) {
		if (!rbtr_dur_registered[i])
			continue;
		rbtr_event_unregister(&rbtr_dur_types[i]);
		rbtr_dur_registered[i] = false;
	}
}

/**
 * rbtr_tracepoints_init - register the tracepoint events
 * @tr: the tracer they record into
 *
 * Called before rbtr_tree_init(), which makes their files and the
 * duration filter's (rbtr_duration_init()). Events start disabled.
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rbtr_tracepoints_init(struct rbtr_trace *tr)
{
	int i, ret;

	/* The kernel's events first: the native ones take their ids. */
	ret = rbtr_kevents_load();
	if (ret)
		return ret;
	for (i = 0; i < RBTR_TP_NR; i++)
		rbtr_tp_type_init(&rbtr_tp_events[i].type, &rbtr_tp_descs[i], true);
	for (i = 0; i < RBTR_PAIR_NR; i++)
		rbtr_tp_type_init(&rbtr_dur_types[i], &rbtr_dur_descs[i], false);
	for_each_kernel_tracepoint(rbtr_tp_lookup, NULL);
	for (i = 0; i < RBTR_TP_NR; i++) {
		struct rbtr_tp_event *ev = &rbtr_tp_events[i];

		if (!ev->tp) {
			pr_info("rbtrace: this kernel has no tracepoint %s: no event %s:%s\n",
				ev->type.name, ev->type.system, ev->type.name);
			continue;
		}
		ret = rbtr_event_register(&ev->type);
		if (ret)
			goto fail;
		ev->registered = true;
	}
	for (i = 0; i < RBTR_PAIR_NR; i++) {
		if (!rbtr_pair_present(i))
			continue;
		ret = rbtr_event_register(&rbtr_dur_types[i]);
		if (ret)
			goto fail;
		rbtr_dur_registered[i] = true;
	}
	/* Every other event of the kernel, generic (kevents.c). */
	ret = rbtr_kevents_register();
	if (ret)
		goto fail;
	return 0;
fail:
	pr_err("rbtrace: cannot register the tracepoint events (%d)\n", ret);
	rbtr_tp_unregister_all();
	return ret;
}

/**
 * rbtr_tracepoints_exit - unregister every probe and event
 *
 * Called before rbtr_tree_exit() (which frees the duration filter's
 * tables) and before the buffer is freed: returns once no probe runs any
 * more.
 */
void rbtr_tracepoints_exit(void)
{
	rbtr_tp_unregister_all();
}
