// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace pid filters: set_event_pid, set_event_notrace_pid (the events),
 * set_ftrace_pid, set_ftrace_notrace_pid (the function tracers), and
 * options/event-fork, options/function-fork, with ftrace's syntax and
 * semantics (kernel/trace/trace_events.c, ftrace.c, pid_list.c):
 *
 *  - a write adds its pids to the list ("echo P >>"); opening with O_TRUNC
 *    empties it first ("echo P >"); a write that leaves the list empty
 *    removes it ("echo >"). Pids are words separated by white space,
 *    read with kstrtoul(base 0); a bad word is -EINVAL, a value at or
 *    above 2^30 (ftrace's MAX_PID) -EPERM, and the list stays as it was;
 *  - reading lists the pids in increasing order; the function files say
 *    "no pid" when they have no list, the event files say nothing;
 *  - a task is left out if a list exists and does not hold its pid, or
 *    the notrace list holds it (ftrace's trace_ignore_this_task());
 *  - with a fork option on, a child of a listed task is listed at its
 *    fork, and a task is taken off the lists when freed.
 *
 * Per tracer. Every tracer (the top and each instance) has its own event
 * lists, event-fork option, probes and per-CPU flags (struct rbtr_pid_tr,
 * made by rbtr_trace_init(), freed by rbtr_trace_exit()), as ftrace's
 * trace_array has filtered_pids, filtered_no_pids and a per-CPU
 * ignore_pid: a task in A's list is recorded by A and left out of no
 * other tracer. So are the function lists and function-fork: each
 * tracer's function tracer reads its own (tr->pid_fn_on, tr->pid_fn_pid),
 * as ftrace's function_pids and per-CPU ftrace_ignore_pid.
 *
 * The writers of records never read a list. Probes keep per CPU whether
 * the task running there is left out: on sched_switch (the task switched
 * in) and on the wakeups, as ftrace's ignore_pid and ftrace_ignore_pid,
 * and a change of a list recomputes it on every CPU (on_each_cpu()). A
 * tracer's probes are registered with its state as their data, only
 * while it has a list, and write only its flags (tr->pid_ev_ignore). An
 * event tests its tracer's flag only while its condition word has
 * RBTR_EVC_PID, set on the tracer's events while it has an event list;
 * a function tracer tests its tracer's pid_fn_on first (pid.h). A file made
 * while some tracer has a list gets RBTR_EVC_PID whatever its tracer
 * (rbtr_pid_events_on()): in one without a list, its flag is false on
 * every CPU (never set: its probes are registered only with a list, and
 * step C of rbtr_pid_replace() clears it when the last goes), so the
 * event is recorded, on the slow path, until the bit is synced.
 *
 * Lists are replaced whole under rbtr_pid_mutex and published with RCU;
 * the probes read them under sched-RCU (tracepoint probes run with
 * preemption disabled) and the fork and free probes change the bits of
 * the published list in place with atomic bit operations, as ftrace's.
 * An old list is freed after tracepoint_synchronize_unregister(), and so
 * is a tracer's state, after its probes are unregistered; its per-CPU
 * flags are read by its events' writers, all gone once
 * rbtr_events_instance_remove() returned.
 *
 * Lock order: the instances' mutex (mkdir's rbtr_pid_events_sync()),
 * rbtr_pid_mutex (one for every tracer's state and the list of states),
 * then the event registry's mutex (rbtr_events_lock()) or the kernel's
 * tracepoints_mutex.
 *
 * The parts: this file keeps the lists, their change and each tracer's
 * state; pid_probes.c the probes that keep the per-CPU verdicts and
 * follow forks, and their registration; pid_files.c the files. What
 * they share is in pid_internal.h.
 */
#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include "event.h"
#include "pid.h"
#include "pid_internal.h"
#include "trace.h"

/* Serialises every change of every tracer's state, and the list of states. */
DEFINE_MUTEX(rbtr_pid_mutex);

static LIST_HEAD(rbtr_pid_trs);
/* Tracers with ev_active: rbtr_pid_events_on(). Under rbtr_events_lock(). */
static unsigned int rbtr_pid_ev_active_nr;

/* The kernel's tracepoints, looked up once (under rbtr_pid_mutex). */
static bool rbtr_pid_tps_found;

/* ---- the lists ---------------------------------------------------------- */

void rbtr_pid_list_free(struct rbtr_pid_list *l)
{
	if (!l)
		return;
	vfree(l->bits);
	kfree(l->high);
	kfree(l);
}

/* A copy of @old (or an empty list) with room for @more high pids. */
struct rbtr_pid_list *rbtr_pid_list_dup(const struct rbtr_pid_list *old,
					unsigned int more)
{
	unsigned int nr_high = old ? old->nr_high : 0;
	struct rbtr_pid_list *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return NULL;
	l->bits = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long));
	if (nr_high + more)
		l->high = kcalloc(nr_high + more, sizeof(*l->high), GFP_KERNEL);
	if (!l->bits || (nr_high + more && !l->high)) {
		rbtr_pid_list_free(l);
		return NULL;
	}
	if (old) {
		bitmap_copy(l->bits, old->bits, PID_MAX_LIMIT);
		memcpy(l->high, old->high, nr_high * sizeof(*l->high));
		l->nr_high = nr_high;
	}
	return l;
}

/* Add @pid to a list not yet published; room was made for the high ones. */
void rbtr_pid_list_add(struct rbtr_pid_list *l, u32 pid)
{
	unsigned int i;

	if (pid < PID_MAX_LIMIT) {
		__set_bit(pid, l->bits);
		return;
	}
	for (i = 0; i < l->nr_high && l->high[i] < pid; i++)
		;
	if (i < l->nr_high && l->high[i] == pid)
		return;
	memmove(&l->high[i + 1], &l->high[i], (l->nr_high - i) * sizeof(*l->high));
	l->high[i] = pid;
	l->nr_high++;
}

bool rbtr_pid_list_empty(const struct rbtr_pid_list *l)
{
	return !l->nr_high && bitmap_empty(l->bits, PID_MAX_LIMIT);
}

struct rbtr_pid_list *rbtr_pid_get(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind)
{
	return rcu_dereference_protected(p->lists[kind], lockdep_is_held(&rbtr_pid_mutex));
}

/* ---- a change of a list ------------------------------------------------------ */

/* On each CPU, for the task running there: ftrace's ignore_task_cpu(). */
static void rbtr_pid_cpu_update(void *data)
{
	struct rbtr_pid_tr *p = data;

	this_cpu_write(*p->ev_ignore, rbtr_pid_ignore(p, RBTR_PID_EV, current));
	this_cpu_write(*p->fn_pid, rbtr_pid_ignore(p, RBTR_PID_FN, current) ?
		       RBTR_PID_FN_IGNORE : current->pid);
}

static int rbtr_pid_cond_one(struct rbtr_event_file *file, void *data)
{
	bool on = *(bool *)data;

	if (!rbtr_event_is_ftrace(file->type))
		rbtr_event_cond_update(file, on ? RBTR_EVC_PID : 0, on ? 0 : RBTR_EVC_PID);
	return 0;
}

/*
 * RBTR_EVC_PID of every file of every tracer as its own lists say: a
 * file made while another tracer had a list has it without need (see
 * rbtr_pid_events_on()). Under rbtr_pid_mutex and rbtr_events_lock().
 */
static void rbtr_pid_cond_sync_all(void)
{
	struct rbtr_pid_tr *q;

	list_for_each_entry(q, &rbtr_pid_trs, list)
		rbtr_event_file_for_each(q->tr, rbtr_pid_cond_one, &q->ev_active);
}

/*
 * Set or clear RBTR_EVC_PID on @p's events (and sync every tracer's);
 * rbtr_event_register() follows rbtr_pid_ev_active_nr.
 */
static void rbtr_pid_ev_cond(struct rbtr_pid_tr *p, bool on)
{
	if (p->ev_active == on)
		return;
	rbtr_events_lock();
	p->ev_active = on;
	WRITE_ONCE(rbtr_pid_ev_active_nr, rbtr_pid_ev_active_nr + (on ? 1 : -1));
	rbtr_pid_cond_sync_all();
	rbtr_events_unlock();
}

/*
 * Replace @p's list @kind by @new (NULL: no list), under rbtr_pid_mutex.
 * Steps: A the probes the lists need, registered before anything depends
 * on them (the only step that can fail: @new is then freed, nothing
 * changed); B the new list published; C every CPU's flags of @p
 * recomputed, the per-CPU writes done before on_each_cpu() returns; D
 * @p's writers told to look at the flags (after C: a flag they read is
 * never older than the lists); or told not to, before E unregisters the
 * probes no longer needed; F the old list freed once no probe can still
 * read it. Another tracer's lists, flags and probes are not touched.
 */
int rbtr_pid_replace(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind,
		     struct rbtr_pid_list *new)
{
	struct rbtr_pid_list *old = rbtr_pid_get(p, kind);
	bool ev_on, fn_on;
	int ret;

	lockdep_assert_held(&rbtr_pid_mutex);
	if (!old && !new)
		return 0;
	ev_on = kind == RBTR_PID_EV || kind == RBTR_PID_EV_NO ?
		new || rbtr_pid_get(p, kind ^ 1) : p->ev_probes.on;
	fn_on = kind == RBTR_PID_FN || kind == RBTR_PID_FN_NO ?
		new || rbtr_pid_get(p, kind ^ 1) : p->fn_probes.on;
	/*A*/
	ret = ev_on ? rbtr_pid_probes_set(p, &p->ev_probes, true) : 0;
	if (!ret && fn_on)
		ret = rbtr_pid_probes_set(p, &p->fn_probes, true);
	if (ret) {
		rbtr_pid_list_free(new);
		return ret;
	}
	/*B*/
	rcu_assign_pointer(p->lists[kind], new);
	/*C*/
	on_each_cpu(rbtr_pid_cpu_update, p, 1);
	/*D*/
	rbtr_pid_ev_cond(p, ev_on);
	WRITE_ONCE(p->tr->pid_fn_on, fn_on);
	/*E*/
	rbtr_pid_probes_set(p, &p->ev_probes, ev_on);
	rbtr_pid_probes_set(p, &p->fn_probes, fn_on);
	/*F*/
	if (old) {
		tracepoint_synchronize_unregister();
		rbtr_pid_list_free(old);
	}
	return 0;
}

/* ---- a tracer's state ---------------------------------------------------- */

bool rbtr_pid_events_on(void)
{
	return READ_ONCE(rbtr_pid_ev_active_nr);
}

void rbtr_pid_events_sync(struct rbtr_trace *tr)
{
	struct rbtr_pid_tr *p = tr->pid;

	mutex_lock(&rbtr_pid_mutex);
	rbtr_events_lock();
	rbtr_event_file_for_each(tr, rbtr_pid_cond_one, &p->ev_active);
	rbtr_events_unlock();
	mutex_unlock(&rbtr_pid_mutex);
}

int rbtr_pid_tr_init(struct rbtr_trace *tr)
{
	struct rbtr_pid_tr *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int i;

	if (!p)
		return -ENOMEM;
	p->ev_ignore = alloc_percpu(bool);
	p->fn_pid = alloc_percpu(int);
	if (!p->ev_ignore || !p->fn_pid) {
		free_percpu(p->ev_ignore);
		free_percpu(p->fn_pid);
		kfree(p);
		return -ENOMEM;
	}
	p->tr = tr;
	p->ev_probes = rbtr_pid_probes_init[0];
	p->fn_probes = rbtr_pid_probes_init[1];
	p->fork_probes = rbtr_pid_probes_init[2];
	for (i = 0; i < RBTR_PID_NR_KINDS; i++)
		p->files[i] = (struct rbtr_pid_file){ .p = p, .idx = i };
	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		p->opt_files[i] = (struct rbtr_pid_file){ .p = p, .idx = i };
	mutex_lock(&rbtr_pid_mutex);
	if (!rbtr_pid_tps_found) {
		for_each_kernel_tracepoint(rbtr_pid_tp_lookup, NULL);
		rbtr_pid_tps_found = true;
	}
	list_add_tail(&p->list, &rbtr_pid_trs);
	mutex_unlock(&rbtr_pid_mutex);
	tr->pid_ev_ignore = p->ev_ignore;
	tr->pid_fn_pid = p->fn_pid;
	tr->pid = p;
	return 0;
}

/*
 * Take @p out of use: its events told not to look at its flags, its
 * probes unregistered, its options off. Its lists are freed by the
 * caller after tracepoint_synchronize_unregister(). Under rbtr_pid_mutex.
 */
static void rbtr_pid_tr_stop(struct rbtr_pid_tr *p)
{
	int i;

	rbtr_pid_ev_cond(p, false);
	WRITE_ONCE(p->tr->pid_fn_on, false);
	rbtr_pid_probes_set(p, &p->ev_probes, false);
	rbtr_pid_probes_set(p, &p->fn_probes, false);
	rbtr_pid_probes_set(p, &p->fork_probes, false);
	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		WRITE_ONCE(p->fork_opt[i], false);
}

/* Free @p's lists, no probe of it running any more. Under rbtr_pid_mutex. */
static void rbtr_pid_tr_free_lists(struct rbtr_pid_tr *p)
{
	int i;

	for (i = 0; i < RBTR_PID_NR_KINDS; i++) {
		rbtr_pid_list_free(rbtr_pid_get(p, i));
		RCU_INIT_POINTER(p->lists[i], NULL);
	}
}

void rbtr_pid_tr_exit(struct rbtr_trace *tr)
{
	struct rbtr_pid_tr *p = tr->pid;
	bool busy;
	int i;

	if (!p)
		return;
	mutex_lock(&rbtr_pid_mutex);
	/* rmdir with a list set: its probes go, then the lists. */
	busy = p->ev_probes.on || p->fn_probes.on || p->fork_probes.on;
	for (i = 0; i < RBTR_PID_NR_KINDS; i++)
		busy |= !!rbtr_pid_get(p, i);
	rbtr_pid_tr_stop(p);
	if (busy)
		tracepoint_synchronize_unregister();
	rbtr_pid_tr_free_lists(p);
	list_del(&p->list);
	mutex_unlock(&rbtr_pid_mutex);
	/* Its events' writers are gone (rbtr_events_instance_remove()'s R2). */
	tr->pid_ev_ignore = NULL;
	tr->pid_fn_pid = NULL;
	tr->pid = NULL;
	free_percpu(p->ev_ignore);
	free_percpu(p->fn_pid);
	kfree(p);
}

void rbtr_pid_exit(void)
{
	struct rbtr_pid_tr *p;

	mutex_lock(&rbtr_pid_mutex);
	list_for_each_entry(p, &rbtr_pid_trs, list)
		rbtr_pid_tr_stop(p);
	tracepoint_synchronize_unregister();
	list_for_each_entry(p, &rbtr_pid_trs, list)
		rbtr_pid_tr_free_lists(p);
	mutex_unlock(&rbtr_pid_mutex);
}
