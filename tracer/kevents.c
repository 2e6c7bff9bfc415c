// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's generic events: every tracepoint event of the running kernel
 * (its tracefs's available_events) that rbtrace has no native probe for.
 *
 * Recording. An enabled event has a kernel perf counter on each online
 * CPU (perf_event_create_kernel_counter(), PERF_TYPE_TRACEPOINT, config
 * the event's id, a sample per event with PERF_SAMPLE_RAW). The kernel's
 * perf probe of the tracepoint fills its raw record with the event's own
 * assignment code, struct trace_entry first, exactly the record ftrace
 * writes; the counter's overflow handler copies it into rbtrace's buffer.
 * PERF_SAMPLE_PERIOD makes perf call the handler once per event even for
 * the events that count more than one (__perf_count(), sched_stat_*).
 * The record's common fields are rewritten as ftrace's: perf takes the
 * context inside the tracepoint's preempt-disabled section, ftrace takes
 * one preemption off it (tracing_gen_ctx_dec()).
 *
 * Tracers. An event has a file in every tracer (the top one and each
 * instance) but one set of counters: made when its first file is
 * enabled, released when its last is disabled. The enabled files are a
 * struct rbtr_file_set (kev->files): each enabling or disabling
 * publishes a copy with the file added or taken out (under the registry
 * mutex), the old copy freed after a grace period. The handler reads the
 * set once per event under sched-RCU (it runs with preemption and
 * interrupts off), takes the length and the context from perf's record
 * once, then reserves, copies and commits one record per file, each
 * under that file's condition word (filter, triggers, soft disable) into
 * its tracer's live buffer.
 *
 * CPU hotplug. perf detaches the counters of a CPU going offline
 * (perf_event_exit_cpu_context(), kernel/events/core.c) and never
 * attaches them again: a CPU coming back online gets new counters. They
 * cannot be made in the hotplug callback itself: the first or last
 * counter of an event registers or unregisters the kernel's tracepoint
 * probe, which takes cpus_read_lock() (static keys) under the hotplug
 * writer. So the online callback (CPUHP_AP_ONLINE_DYN, after perf's own
 * online step) only marks the CPU and queues a work item that replaces
 * that CPU's counters of every enabled event; events of that CPU between
 * its online step and the work item are not recorded. A detached counter
 * of an offline CPU is released with the event's others.
 *
 * Modules. perf pins the module of an event while a counter of it
 * exists; rbtrace gives that reference back, so that an event enabled in
 * rbtrace, as one enabled in ftrace, does not keep its module from
 * unloading: kevents_mod.c removes the events of a module going away
 * before the kernel does (see rbtr_kev_owner()).
 *
 * Locking: the module notifier's mutex (kevents_mod.c), then the registry
 * mutex (event.c), which serialises the updates of the file sets, then
 * rbtr_kev_mutex, which guards the counters and the enabled list; perf
 * takes its own locks inside. The hotplug callback takes none.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <rbtrace/rbtrace.h>
#include "kevents.h"
#include "stack.h"
#include "tp.h"
#include "trace.h"

static LIST_HEAD(rbtr_kevents);
static LIST_HEAD(rbtr_kev_enabled);
static DEFINE_MUTEX(rbtr_kev_mutex);
static int rbtr_kev_hp_state = -1;
/* CPUs whose counters are to be made again: set by the callback, cleared by the work. */
static struct cpumask rbtr_kev_refresh;

/* ---- recording ----------------------------------------------------------- */

/* One record of the event into @file's tracer. */
static __always_inline void rbtr_kev_record(struct rbtr_event_file *file,
					    const struct rbtr_entry *src, unsigned int len,
					    unsigned int ctx, struct pt_regs *regs)
{
	struct rbt_buffer *buffer = rbtr_live_buffer(file->tr);
	unsigned long post = 0;
	void *rec;

	rec = rbtr_event_reserve(buffer, file, len, ctx);
	if (!rec)
		return;
	memcpy(rec + sizeof(*src), (const void *)src + sizeof(*src), len - sizeof(*src));
	/*
	 * Not rbtr_event_commit(): its stack would begin with perf's frames
	 * (perf_trace_<event>, perf_tp_event, ...). perf_fetch_caller_regs()
	 * put the tracepoint's caller in @regs: the stack starts there, as
	 * ftrace's does.
	 */
	if (rbtr_event_finish(buffer, file, rec, len, &post) &&
	    static_branch_unlikely(&rbtr_stacktrace_key))
		rbtr_stack_write_regs(buffer, ctx, regs, 0);
	if (unlikely(post))
		rbtr_event_cond_post(buffer, file, post);
}

/*
 * Runs in the context of the event, preemption and interrupts disabled
 * (perf_swevent_event()), on the counter's CPU: a sched-RCU reader of
 * the file set, whose files live until a grace period after they left it
 * (rbtr_file_set_del(), rbtr_events_instance_remove()).
 */
static void notrace rbtr_kev_overflow(struct perf_event *pe, struct perf_sample_data *data,
				      struct pt_regs *regs)
{
	struct rbtr_kevent *kev = pe->overflow_handler_context;
	const struct rbtr_file_set *set = rcu_dereference_sched(kev->files);
	const struct rbtr_entry *src;
	unsigned int len, ctx, i;

	/* NULL: a hit racing with the last file's disable, before the release. */
	if (unlikely(!set || !data->raw || data->raw->frag.size < sizeof(*src)))
		return;
	src = data->raw->frag.data;
	len = rbtr_kev_len(kev, src, data->raw->frag.size);
	/* ftrace's tracing_gen_ctx_dec(): the tracepoint's own preemption off. */
	ctx = (src->flags << 16) | src->preempt_count;
	if (IS_ENABLED(CONFIG_PREEMPTION) && (ctx & 0xf))
		ctx--;
	/* One tracer, the common case: no loop, as cheap as a single file. */
	if (likely(set->nr == 1)) {
		rbtr_kev_record(set->file[0], src, len, ctx, regs);
		return;
	}
	for (i = 0; i < set->nr; i++)
		rbtr_kev_record(set->file[i], src, len, ctx, regs);
}

static struct perf_event *rbtr_kev_counter(struct rbtr_kevent *kev, int cpu)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_TRACEPOINT,
		.size		= sizeof(attr),
		.config		= kev->type.id,
		.sample_period	= 1,
		.sample_type	= PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, rbtr_kev_overflow, kev);
}

/*
 * The module of a counter's event. perf_trace_init() takes a reference
 * to it for each counter (trace_event_try_get_ref()), so that the event
 * of a perf user cannot vanish under it; a dynamic event (kprobe_events)
 * is counted by the event itself, and is left alone.
 *
 * rbtrace hands the module's reference back as soon as the counter is
 * made, and takes one again right before releasing it (which drops one):
 * ftrace's enabled events do not keep their module from unloading, and
 * rbtrace's must not either. That is safe because the counter never
 * outlives the event: the module notifier of kevents_mod.c runs before
 * the kernel's own (trace_module_notify()) when the module goes, and
 * releases every counter of its events; rbtrace's unload releases them
 * all under the notifier's mutex. The module's memory stays until every
 * notifier has run (free_module() comes after them).
 */
static struct module *rbtr_kev_owner(struct perf_event *pe)
{
#ifdef CONFIG_EVENT_TRACING
	struct trace_event_call *call = pe->tp_event;

	if (call && !(call->flags & TRACE_EVENT_FL_DYNAMIC))
		return call->module;
#endif
	return NULL;
}

/* Under rbtr_kev_mutex. */
static void rbtr_kev_release(struct rbtr_kevent *kev, int cpu)
{
	if (!kev->pe[cpu])
		return;
	/* perf_trace_destroy() puts the reference perf_trace_init() took. */
	__module_get(kev->mod);
	perf_event_release_kernel(kev->pe[cpu]);
	kev->pe[cpu] = NULL;
}

/* Under rbtr_kev_mutex. An offline CPU (-ENODEV) gets its counter when it comes up. */
static int rbtr_kev_make(struct rbtr_kevent *kev, int cpu)
{
	struct perf_event *pe;

	rbtr_kev_release(kev, cpu);
	pe = rbtr_kev_counter(kev, cpu);
	if (IS_ERR(pe))
		return PTR_ERR(pe) == -ENODEV ? 0 : PTR_ERR(pe);
	/* The same event, the same module, for every counter. */
	kev->mod = rbtr_kev_owner(pe);
	module_put(kev->mod);
	kev->pe[cpu] = pe;
	return 0;
}

static void rbtr_kev_release_all(struct rbtr_kevent *kev)
{
	int cpu;

	for_each_possible_cpu(cpu)
		rbtr_kev_release(kev, cpu);
}

/*
 * Enabling in one tracer, under the registry mutex. The first file
 * makes the counters, after the set with it is published (the counter's
 * installation orders that for the handler); the others only join the
 * set. A CPU coming up meanwhile is remade by the work item after us.
 */
/*
 * Enabling an event of another route (kev->route) in one tracer, under
 * the registry mutex: the first file attaches the route after the set
 * with it is published; the others only join the set.
 */
static int rbtr_kev_route_reg(struct rbtr_kevent *kev, struct rbtr_event_file *file)
{
	int ret;

	mutex_lock(&rbtr_kev_mutex);
	ret = rbtr_file_set_add(&kev->files, file);
	if (ret != 1) {
		/* -ENOMEM, or another tracer's: the route is attached. */
		ret = min(ret, 0);
		goto unlock;
	}
	ret = kev->route->attach(kev);
	if (ret) {
		rbtr_file_set_del(&kev->files, file);
		pr_warn_ratelimited("rbtrace: %s:%s: cannot attach its %s probe (%d)\n",
				    kev->type.system, kev->type.name, kev->route->name, ret);
		goto unlock;
	}
	kev->was_enabled = true;
unlock:
	mutex_unlock(&rbtr_kev_mutex);
	return ret;
}

static int rbtr_kev_reg(struct rbtr_event_file *file)
{
	struct rbtr_event_type *type = file->type;
	struct rbtr_kevent *kev = container_of(type, struct rbtr_kevent, type);
	bool first;
	int cpu, ret;

	if (kev->route)
		return rbtr_kev_route_reg(kev, file);
	mutex_lock(&rbtr_kev_mutex);
	/* The counters' array exists while the set is not empty. */
	first = !kev->pe;
	if (first) {
		kev->pe = kcalloc(nr_cpu_ids, sizeof(*kev->pe), GFP_KERNEL);
		if (!kev->pe) {
			ret = -ENOMEM;
			goto unlock;
		}
	}
	ret = rbtr_file_set_add(&kev->files, file);
	if (ret < 0 && first)
		goto fail;
	if (ret != 1) {
		/* -ENOMEM, or another tracer's: the counters are there. */
		ret = min(ret, 0);
		goto unlock;
	}
	ret = 0;
	for_each_online_cpu(cpu) {
		ret = rbtr_kev_make(kev, cpu);
		if (ret)
			break;
	}
	if (ret) {
		rbtr_file_set_del(&kev->files, file);
		rcu_expedite_gp();
		rbtr_kev_release_all(kev);
		rcu_unexpedite_gp();
		pr_warn_ratelimited("rbtrace: %s:%s: cannot make its perf counters (%d)\n",
				    type->system, type->name, ret);
		goto fail;
	}
	list_add_tail(&kev->on, &rbtr_kev_enabled);
	kev->was_enabled = true;
	goto unlock;
fail:
	kfree(kev->pe);
	kev->pe = NULL;
unlock:
	mutex_unlock(&rbtr_kev_mutex);
	return ret;
}

/*
 * Disabling in one tracer, under the registry mutex: the file leaves the
 * set; the last one releases the counters.
 *
 * Releasing an event's last counter unregisters the kernel's perf probe
 * of the tracepoint and waits for the probes in flight
 * (perf_trace_event_unreg(): tracepoint_synchronize_unregister(), under
 * the kernel's event_mutex): after it the handler no longer runs. That
 * wait is several grace periods, one event at a time: ~140 ms each under
 * TCG, minutes for "echo 0 > events/enable". Expedited grace periods
 * (as the kernel asks for while it boots or suspends) make it a few ms;
 * only while releasing.
 */
static void rbtr_kev_unreg(struct rbtr_event_file *file)
{
	struct rbtr_kevent *kev = container_of(file->type, struct rbtr_kevent, type);

	mutex_lock(&rbtr_kev_mutex);
	if (kev->route) {
		if (!rbtr_file_set_del(&kev->files, file))
			kev->route->detach(kev);
		mutex_unlock(&rbtr_kev_mutex);
		return;
	}
	if (!rbtr_file_set_del(&kev->files, file)) {
		list_del_init(&kev->on);
		rcu_expedite_gp();
		rbtr_kev_release_all(kev);
		rcu_unexpedite_gp();
		kfree(kev->pe);
		kev->pe = NULL;
	}
	mutex_unlock(&rbtr_kev_mutex);
}

/* ---- CPU hotplug ---------------------------------------------------------- */

static void rbtr_kev_refresh_fn(struct work_struct *work)
{
	struct rbtr_kevent *kev;
	int cpu, ret;

	mutex_lock(&rbtr_kev_mutex);
	for_each_possible_cpu(cpu) {
		if (!cpumask_test_and_clear_cpu(cpu, &rbtr_kev_refresh))
			continue;
		list_for_each_entry(kev, &rbtr_kev_enabled, on) {
			ret = rbtr_kev_make(kev, cpu);
			if (ret)
				pr_warn_ratelimited("rbtrace: %s:%s: no counter on CPU %d (%d)\n",
						    kev->type.system, kev->type.name, cpu, ret);
		}
	}
	mutex_unlock(&rbtr_kev_mutex);
}

static DECLARE_WORK(rbtr_kev_work, rbtr_kev_refresh_fn);

static int rbtr_kev_cpu_online(unsigned int cpu)
{
	cpumask_set_cpu(cpu, &rbtr_kev_refresh);
	queue_work(system_unbound_wq, &rbtr_kev_work);
	return 0;
}

/* ---- load and unload ------------------------------------------------------ */

/*
 * Is system/name one of ftrace's own dynamic events (a kprobe, uprobe,
 * eprobe, fprobe or synthetic event defined in the kernel's tracefs)?
 * Those are ftrace's, made and removed by its users at any time: rbtrace
 * has kprobe_events of its own, and an entry for one of ftrace's would
 * outlive it (and shadow rbtrace's probe of the same group). Each line of
 * dynamic_events is "TYPE:GROUP/NAME ...", e.g. "r10:kprobes/ret do_exit",
 * but for user events (CONFIG_USER_EVENTS): "u:NAME ...", without their
 * group, which is always user_events (user_events_multi for the events
 * of several formats, named NAME.ID there): those are told by their
 * system. A user event is deleted by user space at any time, and its id
 * then goes to the next event the kernel makes: enabling rbtrace's entry
 * would record that other event and print it with the old format.
 */
static bool rbtr_kev_is_dynamic(const char *dyn, const char *system, const char *name)
{
	size_t sl = strlen(system), nl = strlen(name);
	const char *p;
	char end;

	/* include/uapi/linux/user_events.h (6.4 and later): USER_EVENTS_SYSTEM... */
	if (!strcmp(system, "user_events") || !strcmp(system, "user_events_multi"))
		return true;
	for (p = dyn; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *ev = strpbrk(p, ":\n");

		if (!ev || *ev != ':')
			continue;
		ev++;
		if (strncmp(ev, system, sl) || ev[sl] != '/' || strncmp(ev + sl + 1, name, nl))
			continue;
		/* In bounds: the name matched, so none of its bytes is the NUL. */
		end = ev[sl + 1 + nl];
		if (end == ' ' || end == '\n' || end == '\0')
			return true;
	}
	return false;
}

/* "system:name" lines of available_events; each gets its event parsed. */
static int rbtr_kevents_read(struct vfsmount *mnt)
{
	char *list = NULL, *buf = NULL, *dyn = NULL, *line, *next, *colon, path[256];
	size_t lcap = 64 << 10, cap = 16 << 10, dcap = PAGE_SIZE;
	struct rbtr_kevent *kev;
	ssize_t n;
	int ret = 0, bad = 0;

	n = rbtr_kfs_read(mnt, "available_events", &list, &lcap);
	if (n < 0) {
		ret = n;
		goto out;
	}
	/* No dynamic_events file: a kernel without dynamic events. */
	n = rbtr_kfs_read(mnt, "dynamic_events", &dyn, &dcap);
	if (n == -ENOMEM) {
		ret = -ENOMEM;
		goto out;
	}
	if (n < 0) {
		kvfree(dyn);
		dyn = NULL;
	}
	for (line = list; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (rbtr_kev_is_dynamic(dyn, line, colon + 1))
			continue;
		if (snprintf(path, sizeof(path), "events/%s/%s/format", line, colon + 1) >=
		    sizeof(path))
			continue;
		n = rbtr_kfs_read(mnt, path, &buf, &cap);
		/*
		 * Gone since available_events was read: its module went
		 * (-ENOENT: the directory is gone; -ENODEV: it was being
		 * removed as the file was opened). Not an error: the event
		 * is not the kernel's any more, and kevents_mod.c adds it
		 * again if the module comes back.
		 */
		if (n == -ENOENT || n == -ENODEV)
			continue;
		kev = n < 0 ? ERR_PTR(n) : rbtr_kev_parse(line, colon + 1, buf, n);
		if (IS_ERR(kev)) {
			if (PTR_ERR(kev) == -ENOMEM) {
				ret = -ENOMEM;
				break;
			}
			if (!bad++)
				pr_info("rbtrace: %s:%s: cannot read its format (%ld)\n",
					line, colon + 1, PTR_ERR(kev));
			continue;
		}
		list_add_tail(&kev->node, &rbtr_kevents);
	}
out:
	kvfree(dyn);
	kvfree(buf);
	kvfree(list);
	return ret;
}

static void rbtr_kevents_free(void)
{
	struct rbtr_kevent *kev, *tmp;

	list_for_each_entry_safe(kev, tmp, &rbtr_kevents, node) {
		list_del(&kev->node);
		rbtr_kev_free(kev);
	}
}

/**
 * rbtr_kevents_load - read the kernel's events from its tracefs
 *
 * Without tracefs (a kernel without tracing) there are no generic events,
 * which is not an error.
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_kevents_load(void)
{
	struct vfsmount *mnt = rbtr_kfs_mount();
	int ret;

	if (IS_ERR(mnt)) {
		pr_info("rbtrace: no tracefs (%ld): only rbtrace's own events\n", PTR_ERR(mnt));
		return 0;
	}
	ret = rbtr_kevents_read(mnt);
	/* Kept for rbtr_kfs() until rbtr_kevents_exit(). */
	if (ret) {
		rbtr_kfs_umount(mnt);
		rbtr_kevents_free();
	}
	return ret;
}

/**
 * rbtr_kevents_id - the kernel's id of an event
 * @system: its system
 * @name: its name
 *
 * Return: the id, or 0 if the kernel has no such event.
 */
unsigned short rbtr_kevents_id(const char *system, const char *name)
{
	struct rbtr_kevent *kev;

	list_for_each_entry(kev, &rbtr_kevents, node)
		if (!strcmp(kev->type.name, name) && !strcmp(kev->type.system, system))
			return kev->type.id;
	return 0;
}

/*
 * The route and the printer of @kev, at load, from the kernel's event
 * file of it. Holding the file holds the event's module
 * (trace_get_event_file() takes a reference, and fails for a module
 * going away): the module is pinned from here until
 * rbtr_kevents_mod_init()'s notifier follows it (rbtr_kn_module_pin()),
 * so that its tracepoints, which the native route registers its probe
 * on, cannot go unseen in between.
 *
 * Return: 0, or -ENOENT when the kernel no longer has the event (its
 * module went since available_events was read, or is going), or could
 * not pin its module: left out, as a module that comes up while rbtrace
 * loads is.
 */
static int rbtr_kev_route_text(struct rbtr_kevent *kev)
{
	struct trace_event_file *file;
	struct module *mod;

	file = trace_get_event_file(NULL, kev->type.system, kev->type.name);
	if (IS_ERR(file))
		return -ENOENT;
	mod = file->event_call->module;
	if (mod && !rbtr_kn_module_pin(mod)) {
		trace_put_event_file(file);
		return -ENOENT;
	}
	kev->route = rbtr_kev_route_find(kev, mod);
	rbtr_kev_text_attach(kev, file->event_call, file->tr);
	trace_put_event_file(file);
	return 0;
}

/**
 * rbtr_kevents_register - register the events without a native probe
 *
 * Called after the native events: an event already registered under its
 * name (-EEXIST) is native, and its generic twin is dropped.
 *
 * Return: 0 or a negative errno (nothing left registered then).
 */
int rbtr_kevents_register(void)
{
	struct rbtr_kevent *kev, *tmp;
	unsigned int native = 0, all = 0;
	int ret;

	ret = rbtr_kev_text_init();
	if (ret)
		return ret;
	list_for_each_entry_safe(kev, tmp, &rbtr_kevents, node) {
		kev->type.reg = rbtr_kev_reg;
		kev->type.unreg = rbtr_kev_unreg;
		/* -ENOENT: its module went since available_events was read. */
		ret = rbtr_kev_route_text(kev);
		if (!ret)
			ret = rbtr_event_register(&kev->type);
		/* -EEXIST: an event of rbtrace's own has the name. */
		if (ret == -ENOENT || ret == -EEXIST) {
			list_del(&kev->node);
			rbtr_kev_free(kev);
			continue;
		}
		if (ret)
			goto fail;
		kev->registered = true;
		all++;
		native += !!kev->route;
	}
	rbtr_kev_route_report(native, all);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "rbtrace/kevents:online",
					rbtr_kev_cpu_online, NULL);
	if (ret < 0)
		goto fail;
	rbtr_kev_hp_state = ret;
	/* The events of modules loaded from now on, and of those unloaded. */
	ret = rbtr_kevents_mod_init();
	if (ret)
		goto fail;
	rbtr_kn_modules_unpin();
	return 0;
fail:
	rbtr_kevents_exit();
	rbtr_kn_modules_unpin();
	return ret;
}

/* Under the module notifier's mutex (rbtr_kevents_mod_exit()). */
static void rbtr_kevents_teardown(void)
{
	struct rbtr_kevent *kev;

	if (rbtr_kev_hp_state >= 0)
		cpuhp_remove_state_nocalls(rbtr_kev_hp_state);
	rbtr_kev_hp_state = -1;
	/* No callback queues it any more. */
	cancel_work_sync(&rbtr_kev_work);
	list_for_each_entry(kev, &rbtr_kevents, node) {
		if (!kev->registered)
			continue;
		rbtr_event_unregister(&kev->type);
		kev->registered = false;
	}
	/*
	 * The native route's detach does not wait for its probes
	 * (kevents_route.c, rbtr_kn_detach()): they may hold a @kev until
	 * the tracepoints' readers are done.
	 */
	tracepoint_synchronize_unregister();
	rbtr_kevents_free();
	rbtr_kev_text_exit();
	if (!IS_ERR(rbtr_kfs()))
		rbtr_kfs_umount(rbtr_kfs());
}

/**
 * rbtr_kevents_exit - disable and unregister every generic event
 *
 * Returns once no counter is left and the handler runs no more. The
 * counters go under the module notifier's mutex: a module going away
 * meanwhile waits, and finds none of its events left.
 */
void rbtr_kevents_exit(void)
{
	rbtr_kevents_mod_exit(rbtr_kevents_teardown);
}

/* ---- the events of modules (kevents_mod.c) -------------------------------- */

/**
 * rbtr_kevents_add - register a generic event of a module come up
 * @kev: from rbtr_kev_parse()
 *
 * Under the module notifier's mutex, after rbtr_kevents_register().
 *
 * Return: 0 (@kev is on the list), -EEXIST (an event of that name or id
 * is registered), or another error of rbtr_event_register(); @kev is the
 * caller's to free on error.
 */
int rbtr_kevents_add(struct rbtr_kevent *kev)
{
	int ret;

	kev->type.reg = rbtr_kev_reg;
	kev->type.unreg = rbtr_kev_unreg;
	ret = rbtr_event_register(&kev->type);
	if (ret)
		return ret;
	kev->registered = true;
	list_add_tail(&kev->node, &rbtr_kevents);
	return 0;
}

/**
 * rbtr_kevents_find - the generic event of a kernel event
 * @system: its system
 * @name: its name
 * @id: its id
 *
 * Under the module notifier's mutex.
 *
 * Return: the event, or NULL.
 */
struct rbtr_kevent *rbtr_kevents_find(const char *system, const char *name,
				      unsigned short id)
{
	struct rbtr_kevent *kev;

	list_for_each_entry(kev, &rbtr_kevents, node)
		if (kev->type.id == id && !strcmp(kev->type.name, name) &&
		    !strcmp(kev->type.system, system))
			return kev;
	return NULL;
}

/**
 * rbtr_kevents_remove - disable and unregister a generic event
 * @kev: the event; its counters are released when this returns
 * @gone: where it is put, to be freed after a grace period (readers of
 *        the buffer may be printing one of its records)
 *
 * Under the module notifier's mutex.
 */
void rbtr_kevents_remove(struct rbtr_kevent *kev, struct list_head *gone)
{
	if (kev->registered)
		rbtr_event_unregister(&kev->type);
	kev->registered = false;
	list_move_tail(&kev->node, gone);
}

/* ---- event_routes ---------------------------------------------------------- */

static int rbtr_kev_route_show(struct rbtr_event_type *type, void *data)
{
	struct rbtr_kevent *kev = container_of(type, struct rbtr_kevent, type);

	if (rbtr_tp_own(type))
		seq_printf(data, "%s:%s own\n", type->system, type->name);
	if (type->reg != rbtr_kev_reg)
		return 0;
	seq_printf(data, "%s:%s %s\n", type->system, type->name,
		   kev->route ? kev->route->name : "perf");
	return 0;
}

static int rbtr_kev_routes_show(struct seq_file *m, void *v)
{
	rbtr_events_lock();
	rbtr_event_for_each(rbtr_kev_route_show, m);
	rbtr_events_unlock();
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_kev_routes);

/**
 * rbtr_kevents_files - event_routes: how each of the kernel's events is recorded
 * @top: rbtrace's directory
 *
 * One line per event of the kernel, "system:name route": "own" (a
 * hand-written probe of tp_events.h), "syscalls" (kevents_syscalls.c),
 * "native" (its probe compiled from the kernel's definition,
 * kevents_route.c) or "perf" (a perf counter per CPU).
 */
void rbtr_kevents_files(struct dentry *top)
{
	debugfs_create_file("event_routes", 0400, top, NULL, &rbtr_kev_routes_fops);
}
