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
 * other tracer. The function lists and function-fork are the top's only:
 * the function tracers record into the top tracer.
 *
 * The writers of records never read a list. Probes keep per CPU whether
 * the task running there is left out: on sched_switch (the task switched
 * in) and on the wakeups, as ftrace's ignore_pid and ftrace_ignore_pid,
 * and a change of a list recomputes it on every CPU (on_each_cpu()). A
 * tracer's probes are registered with its state as their data, only
 * while it has a list, and write only its flags (tr->pid_ev_ignore). An
 * event tests its tracer's flag only while its condition word has
 * RBTR_EVC_PID, set on the tracer's events while it has an event list;
 * the function tracers test rbtr_pid_fn_on first (pid.h). A file made
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
 */
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "events.h"
#include "pid.h"
#include "options.h"
#include "stack.h"
#include "trace.h"

/* ftrace's MAX_PID (pid_list.h): a pid at or above it is refused, -EPERM. */
#define RBTR_PID_MAX		BIT(30)
/* ftrace's PID_BUF_SIZE: a longer word does not fit its parser, -EINVAL. */
#define RBTR_PID_WORD_MAX	127
/* Taken at once from a write; the rest is written again (rbtr_write_cut()). */
#define RBTR_PID_WRITE_MAX	4096
#define RBTR_PID_SEPS		" \t\n\v\f\r"

/* The pid stored for the function tracers when the running task is left out. */
#define RBTR_PID_FN_IGNORE	(-1)

enum rbtr_pid_kind {
	RBTR_PID_EV,		/* set_event_pid */
	RBTR_PID_EV_NO,		/* set_event_notrace_pid */
	RBTR_PID_FN,		/* set_ftrace_pid */
	RBTR_PID_FN_NO,		/* set_ftrace_notrace_pid */
	RBTR_PID_NR_KINDS,
};

static const char *const rbtr_pid_file_names[RBTR_PID_NR_KINDS] = {
	[RBTR_PID_EV]		= "set_event_pid",
	[RBTR_PID_EV_NO]	= "set_event_notrace_pid",
	[RBTR_PID_FN]		= "set_ftrace_pid",
	[RBTR_PID_FN_NO]	= "set_ftrace_notrace_pid",
};

/*
 * struct rbtr_pid_list - one list of pids
 * @bits: the pids a task can have, below PID_MAX_LIMIT: the probes test them
 * @high: the pids from PID_MAX_LIMIT to RBTR_PID_MAX, sorted: no task has
 *        them, but ftrace takes and lists them
 * @nr_high: their number
 */
struct rbtr_pid_list {
	unsigned long	*bits;
	u32		*high;
	unsigned int	nr_high;
};

/* Serialises every change of every tracer's state, and the list of states. */
static DEFINE_MUTEX(rbtr_pid_mutex);

DEFINE_PER_CPU(int, rbtr_pid_fn_pid);
int rbtr_pid_fn_on;

/* options/event-fork (every tracer's), options/function-fork (the top's). */
enum { RBTR_PID_OPT_EVENT, RBTR_PID_OPT_FUNC, RBTR_PID_NR_OPTS };
static const char *const rbtr_pid_opt_names[RBTR_PID_NR_OPTS] = {
	"event-fork", "function-fork",
};

/*
 * A set of probes, registered and unregistered together, for one tracer
 * (their data is its struct rbtr_pid_tr).
 */
struct rbtr_pid_probes {
	const struct rbtr_pid_probe	*probes;
	unsigned int			nr;
	bool				on;
};

struct rbtr_pid_tr;

/* What a pid or option file of a tracer keeps in i_private: @idx in @p. */
struct rbtr_pid_file {
	struct rbtr_pid_tr	*p;
	int			idx;
};

/**
 * struct rbtr_pid_tr - one tracer's pid filters
 * @tr: the tracer
 * @lists: its lists, RCU; the function ones (RBTR_PID_FN*) only in the top's
 * @ev_ignore: per CPU, the events' verdict on the running task: @tr->pid_ev_ignore
 * @fork_opt: options/event-fork (and the top's function-fork), under
 *            rbtr_pid_mutex; read by the fork probes
 * @ev_active: RBTR_EVC_PID is set on @tr's events: changed under
 *             rbtr_events_lock() (and rbtr_pid_mutex)
 * @ev_probes: sched_switch and wakeups, while an event list exists
 * @fn_probes: sched_switch for the function tracers (the top's)
 * @fork_probes: fork and free, while a fork option is on
 * @files: the i_private of its pid files
 * @opt_files: the i_private of its fork options' files
 * @list: in rbtr_pid_trs, under rbtr_pid_mutex
 */
struct rbtr_pid_tr {
	struct rbtr_trace		*tr;
	struct rbtr_pid_list __rcu	*lists[RBTR_PID_NR_KINDS];
	bool __percpu			*ev_ignore;
	bool				fork_opt[RBTR_PID_NR_OPTS];
	bool				ev_active;
	struct rbtr_pid_probes		ev_probes;
	struct rbtr_pid_probes		fn_probes;
	struct rbtr_pid_probes		fork_probes;
	struct rbtr_pid_file		files[RBTR_PID_NR_KINDS];
	struct rbtr_pid_file		opt_files[RBTR_PID_NR_OPTS];
	struct list_head		list;
};

static LIST_HEAD(rbtr_pid_trs);
/* Tracers with ev_active: rbtr_pid_events_on(). Under rbtr_events_lock(). */
static unsigned int rbtr_pid_ev_active_nr;

/* ---- the lists ---------------------------------------------------------- */

static bool rbtr_pid_has(const struct rbtr_pid_list *l, pid_t pid)
{
	return (unsigned int)pid < PID_MAX_LIMIT && test_bit(pid, l->bits);
}

static void rbtr_pid_list_free(struct rbtr_pid_list *l)
{
	if (!l)
		return;
	vfree(l->bits);
	kfree(l->high);
	kfree(l);
}

/* A copy of @old (or an empty list) with room for @more high pids. */
static struct rbtr_pid_list *rbtr_pid_list_dup(const struct rbtr_pid_list *old,
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
static void rbtr_pid_list_add(struct rbtr_pid_list *l, u32 pid)
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

static bool rbtr_pid_list_empty(const struct rbtr_pid_list *l)
{
	return !l->nr_high && bitmap_empty(l->bits, PID_MAX_LIMIT);
}

static struct rbtr_pid_list *rbtr_pid_get(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind)
{
	return rcu_dereference_protected(p->lists[kind], lockdep_is_held(&rbtr_pid_mutex));
}

/* ---- the probes ------------------------------------------------------------ */

/*
 * Under sched-RCU (a probe, or an IPI of on_each_cpu()). @yes/@no: the
 * list and the notrace list, or NULL: ftrace's trace_ignore_this_task().
 */
static bool rbtr_pid_ignore_task(const struct rbtr_pid_list *yes, const struct rbtr_pid_list *no,
				 const struct task_struct *t)
{
	return (yes && !rbtr_pid_has(yes, t->pid)) || (no && rbtr_pid_has(no, t->pid));
}

static bool rbtr_pid_ignore(struct rbtr_pid_tr *p, enum rbtr_pid_kind yes,
			    const struct task_struct *t)
{
	return rbtr_pid_ignore_task(rcu_dereference_sched(p->lists[yes]),
				    rcu_dereference_sched(p->lists[yes + 1]), t);
}

/*
 * The probes below are registered per tracer, @data its struct
 * rbtr_pid_tr, which outlives them (rbtr_pid_tr_exit()).
 *
 * sched_switch, before every other probe: a switch is recorded if either
 * task is, as ftrace's: both must be left out by a list, or both listed
 * in a notrace list, for it to be ignored.
 */
static void notrace rbtr_pid_switch_pre(void *data, bool preempt, struct task_struct *prev,
					struct task_struct *next, unsigned int prev_state)
{
	struct rbtr_pid_tr *p = data;
	const struct rbtr_pid_list *yes = rcu_dereference_sched(p->lists[RBTR_PID_EV]);
	const struct rbtr_pid_list *no = rcu_dereference_sched(p->lists[RBTR_PID_EV_NO]);
	bool ignore;

	ignore = (rbtr_pid_ignore_task(NULL, no, prev) && rbtr_pid_ignore_task(NULL, no, next)) ||
		 (rbtr_pid_ignore_task(yes, NULL, prev) && rbtr_pid_ignore_task(yes, NULL, next));
	this_cpu_write(*p->ev_ignore, ignore);
}

/* sched_switch, after every other probe: from now on, the task switched in decides. */
static void notrace rbtr_pid_switch_post(void *data, bool preempt, struct task_struct *prev,
					 struct task_struct *next, unsigned int prev_state)
{
	struct rbtr_pid_tr *p = data;

	this_cpu_write(*p->ev_ignore, rbtr_pid_ignore(p, RBTR_PID_EV, next));
}

/* A wakeup, before the others: recorded if the woken task is listed. */
static void notrace rbtr_pid_wakeup_pre(void *data, struct task_struct *task)
{
	struct rbtr_pid_tr *p = data;

	if (!this_cpu_read(*p->ev_ignore))
		return;
	this_cpu_write(*p->ev_ignore, rbtr_pid_ignore(p, RBTR_PID_EV, task));
}

/* A wakeup, after the others: the current task decides again. */
static void notrace rbtr_pid_wakeup_post(void *data, struct task_struct *task)
{
	struct rbtr_pid_tr *p = data;

	if (this_cpu_read(*p->ev_ignore))
		return;
	this_cpu_write(*p->ev_ignore, rbtr_pid_ignore(p, RBTR_PID_EV, current));
}

/* The function tracers (the top's state): the pid of the task switched in, if traced. */
static void notrace rbtr_pid_fn_switch(void *data, bool preempt, struct task_struct *prev,
				       struct task_struct *next, unsigned int prev_state)
{
	struct rbtr_pid_tr *p = data;

	this_cpu_write(rbtr_pid_fn_pid,
		       rbtr_pid_ignore(p, RBTR_PID_FN, next) ? RBTR_PID_FN_IGNORE : next->pid);
}

/*
 * A fork: the child of a listed task is listed (ftrace's
 * trace_filter_add_remove_task()). In place, on the published list: a
 * write that copied it a moment before misses the child, as ftrace's.
 */
static void rbtr_pid_follow(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind,
			    struct task_struct *self, struct task_struct *task)
{
	struct rbtr_pid_list *l = rcu_dereference_sched(p->lists[kind]);

	if (!l || (unsigned int)task->pid >= PID_MAX_LIMIT)
		return;
	if (!self)
		clear_bit(task->pid, l->bits);
	else if (rbtr_pid_has(l, self->pid))
		set_bit(task->pid, l->bits);
}

static void rbtr_pid_follow_all(struct rbtr_pid_tr *p, struct task_struct *self,
				struct task_struct *task)
{
	if (READ_ONCE(p->fork_opt[RBTR_PID_OPT_EVENT])) {
		rbtr_pid_follow(p, RBTR_PID_EV, self, task);
		rbtr_pid_follow(p, RBTR_PID_EV_NO, self, task);
	}
	if (READ_ONCE(p->fork_opt[RBTR_PID_OPT_FUNC])) {
		rbtr_pid_follow(p, RBTR_PID_FN, self, task);
		rbtr_pid_follow(p, RBTR_PID_FN_NO, self, task);
	}
}

static void notrace rbtr_pid_fork(void *data, struct task_struct *self, struct task_struct *task)
{
	rbtr_pid_follow_all(data, self, task);
}

/* sched_process_free: from an RCU callback, once the task is gone. */
static void notrace rbtr_pid_free(void *data, struct task_struct *task)
{
	rbtr_pid_follow_all(data, NULL, task);
}

/* ---- probe registration ----------------------------------------------------- */

enum rbtr_pid_tp {
	RBTR_PID_TP_SWITCH, RBTR_PID_TP_WAKEUP, RBTR_PID_TP_WAKEUP_NEW,
	RBTR_PID_TP_WAKING, RBTR_PID_TP_FORK, RBTR_PID_TP_FREE, RBTR_PID_NR_TPS,
};

static const char *const rbtr_pid_tp_names[RBTR_PID_NR_TPS] = {
	"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_waking",
	"sched_process_fork", "sched_process_free",
};

static struct tracepoint *rbtr_pid_tps[RBTR_PID_NR_TPS];

struct rbtr_pid_probe {
	enum rbtr_pid_tp	tp;
	void			*fn;
	int			prio;
};

/*
 * The events' "pre" probes run before the events' own
 * (TRACEPOINT_DEFAULT_PRIO), the "post" ones after, as ftrace orders its
 * own. With several tracers' probes on one tracepoint, each tracer's
 * pre runs before every event probe, its post after them all.
 */
static const struct rbtr_pid_probe rbtr_pid_ev_probe_list[] = {
	{ RBTR_PID_TP_SWITCH, rbtr_pid_switch_pre, INT_MAX },
	{ RBTR_PID_TP_SWITCH, rbtr_pid_switch_post, 0 },
	{ RBTR_PID_TP_WAKEUP, rbtr_pid_wakeup_pre, INT_MAX },
	{ RBTR_PID_TP_WAKEUP, rbtr_pid_wakeup_post, 0 },
	{ RBTR_PID_TP_WAKEUP_NEW, rbtr_pid_wakeup_pre, INT_MAX },
	{ RBTR_PID_TP_WAKEUP_NEW, rbtr_pid_wakeup_post, 0 },
	{ RBTR_PID_TP_WAKING, rbtr_pid_wakeup_pre, INT_MAX },
	{ RBTR_PID_TP_WAKING, rbtr_pid_wakeup_post, 0 },
};

static const struct rbtr_pid_probe rbtr_pid_fn_probe_list[] = {
	{ RBTR_PID_TP_SWITCH, rbtr_pid_fn_switch, TRACEPOINT_DEFAULT_PRIO },
};

/* The child is listed after the other probes of the fork; freed, first. */
static const struct rbtr_pid_probe rbtr_pid_fork_probe_list[] = {
	{ RBTR_PID_TP_FORK, rbtr_pid_fork, INT_MIN },
	{ RBTR_PID_TP_FREE, rbtr_pid_free, INT_MAX },
};

static const struct rbtr_pid_probes rbtr_pid_probes_init[] = {
	{ .probes = rbtr_pid_ev_probe_list, .nr = ARRAY_SIZE(rbtr_pid_ev_probe_list) },
	{ .probes = rbtr_pid_fn_probe_list, .nr = ARRAY_SIZE(rbtr_pid_fn_probe_list) },
	{ .probes = rbtr_pid_fork_probe_list, .nr = ARRAY_SIZE(rbtr_pid_fork_probe_list) },
};

/* The kernel's tracepoints, looked up once (under rbtr_pid_mutex). */
static bool rbtr_pid_tps_found;

static void rbtr_pid_tp_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < RBTR_PID_NR_TPS; i++)
		if (!rbtr_pid_tps[i] && !strcmp(tp->name, rbtr_pid_tp_names[i]))
			rbtr_pid_tps[i] = tp;
}

static void rbtr_pid_unreg_first(struct rbtr_pid_tr *t, const struct rbtr_pid_probes *p,
				 unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tracepoint_probe_unregister(rbtr_pid_tps[p->probes[i].tp],
						  p->probes[i].fn, t);
		if (ret)
			pr_warn("rbtrace: %s: cannot unregister a pid probe (%d)\n",
				rbtr_pid_tp_names[p->probes[i].tp], ret);
	}
}

/* Register or unregister @t's probes @p as @on says; under rbtr_pid_mutex. */
static int rbtr_pid_probes_set(struct rbtr_pid_tr *t, struct rbtr_pid_probes *p, bool on)
{
	unsigned int i;
	int ret = 0;

	lockdep_assert_held(&rbtr_pid_mutex);
	if (p->on == on)
		return 0;
	if (!on) {
		rbtr_pid_unreg_first(t, p, p->nr);
		p->on = false;
		return 0;
	}
	for (i = 0; i < p->nr; i++) {
		const struct rbtr_pid_probe *pr = &p->probes[i];

		ret = rbtr_pid_tps[pr->tp] ?
			tracepoint_probe_register_prio(rbtr_pid_tps[pr->tp], pr->fn, t,
						       pr->prio) : -ENODEV;
		if (ret) {
			rbtr_pid_unreg_first(t, p, i);
			return ret;
		}
	}
	p->on = true;
	return 0;
}

/* ---- a change of a list ------------------------------------------------------ */

/* The tracer whose state has the function lists: the top. */
static bool rbtr_pid_is_fn(const struct rbtr_pid_tr *p)
{
	return p->tr == &rbtr_global_trace;
}

/* On each CPU, for the task running there: ftrace's ignore_task_cpu(). */
static void rbtr_pid_cpu_update(void *data)
{
	struct rbtr_pid_tr *p = data;

	this_cpu_write(*p->ev_ignore, rbtr_pid_ignore(p, RBTR_PID_EV, current));
	if (rbtr_pid_is_fn(p))
		this_cpu_write(rbtr_pid_fn_pid, rbtr_pid_ignore(p, RBTR_PID_FN, current) ?
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
static int rbtr_pid_replace(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind,
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
	if (rbtr_pid_is_fn(p))
		WRITE_ONCE(rbtr_pid_fn_on, fn_on);
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

/* Count the words of @buf; -EINVAL if one is too long for ftrace's parser. */
static int rbtr_pid_count_words(const char *buf, unsigned int *nr)
{
	size_t len;

	*nr = 0;
	for (;;) {
		buf += strspn(buf, RBTR_PID_SEPS);
		len = strcspn(buf, RBTR_PID_SEPS);
		if (!len)
			return 0;
		if (len > RBTR_PID_WORD_MAX)
			return -EINVAL;
		(*nr)++;
		buf += len;
	}
}

/* ftrace's trace_pid_write(): every word a pid, or the write fails. */
static int rbtr_pid_parse(char *buf, struct rbtr_pid_list *l)
{
	unsigned long v;
	char *word;
	u32 pid;

	while ((word = strsep(&buf, RBTR_PID_SEPS)) != NULL) {
		if (!*word)
			continue;
		if (kstrtoul(word, 0, &v))
			return -EINVAL;
		/* As ftrace: the value taken as a pid_t, then checked against MAX_PID. */
		pid = (u32)(pid_t)v;
		if (pid >= (u32)RBTR_PID_MAX)
			return -EPERM;
		rbtr_pid_list_add(l, pid);
	}
	return 0;
}

static int rbtr_pid_write_locked(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind, char *buf)
{
	struct rbtr_pid_list *new;
	unsigned int nr;
	int ret;

	ret = rbtr_pid_count_words(buf, &nr);
	if (ret)
		return ret;
	new = rbtr_pid_list_dup(rbtr_pid_get(p, kind), nr);
	if (!new)
		return -ENOMEM;
	ret = rbtr_pid_parse(buf, new);
	if (ret) {
		rbtr_pid_list_free(new);
		return ret;
	}
	/* No pid at all, old or new: the list is removed, as ftrace's. */
	if (rbtr_pid_list_empty(new)) {
		rbtr_pid_list_free(new);
		new = NULL;
	}
	return rbtr_pid_replace(p, kind, new);
}

/* ---- the files ------------------------------------------------------------- */

static int rbtr_pid_show(struct seq_file *m, void *v)
{
	const struct rbtr_pid_file *pf = rbtr_seq_data(m);
	enum rbtr_pid_kind kind = pf->idx;
	const struct rbtr_pid_list *l;
	unsigned long pid;
	unsigned int i;

	mutex_lock(&rbtr_pid_mutex);
	l = rbtr_pid_get(pf->p, kind);
	if (l) {
		for_each_set_bit(pid, l->bits, PID_MAX_LIMIT)
			seq_printf(m, "%lu\n", pid);
		for (i = 0; i < l->nr_high; i++)
			seq_printf(m, "%u\n", l->high[i]);
	} else if (kind == RBTR_PID_FN || kind == RBTR_PID_FN_NO) {
		/* ftrace's fpid_show(); its event files show nothing. */
		seq_puts(m, "no pid\n");
	}
	mutex_unlock(&rbtr_pid_mutex);
	return 0;
}

/*
 * i_private is a struct rbtr_pid_file of the tracer's state, which lives
 * as long as the file (freed after the tracer's tree is removed, and
 * debugfs's removal waits for the opens in flight): the open holds the
 * tracer (rmdir -EBUSY) until the release.
 */
static int rbtr_pid_open(struct inode *inode, struct file *file)
{
	struct rbtr_pid_file *pf = inode->i_private;
	int ret = rbtr_single_open_tr(file, pf->p->tr, rbtr_pid_show, pf);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rbtr_pid_mutex);
		rbtr_pid_replace(pf->p, pf->idx, NULL);
		mutex_unlock(&rbtr_pid_mutex);
	}
	return 0;
}

static ssize_t rbtr_pid_write(struct file *file, const char __user *ubuf, size_t cnt,
			      loff_t *ppos)
{
	struct rbtr_pid_file *pf = file_inode(file)->i_private;
	size_t len;
	char *buf;
	int ret;

	if (!cnt)
		return 0;
	buf = rbtr_write_cut(ubuf, cnt, RBTR_PID_WRITE_MAX, RBTR_PID_SEPS, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&rbtr_pid_mutex);
	ret = rbtr_pid_write_locked(pf->p, pf->idx, buf);
	mutex_unlock(&rbtr_pid_mutex);
	if (ret)
		pr_warn_ratelimited("rbtrace: %s: not a list of pids (%d)\n",
				    rbtr_pid_file_names[pf->idx], ret);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += len;
	return len;
}

static const struct file_operations rbtr_pid_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_pid_open,
	.read		= seq_read,
	.write		= rbtr_pid_write,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/* As rbtr_pid_open(): the option's file holds its tracer while open. */
static int rbtr_pid_opt_open(struct inode *inode, struct file *file)
{
	struct rbtr_pid_file *pf = inode->i_private;
	int ret = rbtr_check_open_tr(pf->p->tr);

	return ret ?: simple_open(inode, file);
}

static int rbtr_pid_opt_release(struct inode *inode, struct file *file)
{
	struct rbtr_pid_file *pf = inode->i_private;

	rbtr_trace_put(pf->p->tr);
	return 0;
}

static ssize_t rbtr_pid_opt_read(struct file *file, char __user *ubuf, size_t cnt,
				 loff_t *ppos)
{
	struct rbtr_pid_file *pf = file_inode(file)->i_private;

	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(pf->p->fork_opt[pf->idx]));
}

/* Switch @p's fork option @opt; its fork probes follow. */
static int rbtr_pid_opt_set(struct rbtr_pid_tr *p, int opt, bool on)
{
	int ret;

	mutex_lock(&rbtr_pid_mutex);
	WRITE_ONCE(p->fork_opt[opt], on);
	/* Kept registered while either option is on, as ftrace's per option. */
	ret = rbtr_pid_probes_set(p, &p->fork_probes,
				  p->fork_opt[RBTR_PID_OPT_EVENT] ||
				  p->fork_opt[RBTR_PID_OPT_FUNC]);
	if (ret)
		WRITE_ONCE(p->fork_opt[opt], false);
	mutex_unlock(&rbtr_pid_mutex);
	return ret;
}

/* ftrace's trace_options_core_write(): 0 or 1, else -EINVAL. */
static ssize_t rbtr_pid_opt_write(struct file *file, const char __user *ubuf, size_t cnt,
				  loff_t *ppos)
{
	struct rbtr_pid_file *pf = file_inode(file)->i_private;
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	ret = rbtr_pid_opt_set(pf->p, pf->idx, on);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

/* event-fork for every tracer, function-fork for the top's only. */
static int rbtr_pid_nr_opts(const struct rbtr_pid_tr *p)
{
	return rbtr_pid_is_fn(p) ? RBTR_PID_NR_OPTS : RBTR_PID_OPT_EVENT + 1;
}

void rbtr_pid_options_show(struct rbtr_trace *tr, struct seq_file *m)
{
	struct rbtr_pid_tr *p = tr->pid;
	int i;

	for (i = 0; i < rbtr_pid_nr_opts(p); i++)
		seq_printf(m, "%s%s\n", READ_ONCE(p->fork_opt[i]) ? "" : "no",
			   rbtr_pid_opt_names[i]);
}

int rbtr_pid_option_set(struct rbtr_trace *tr, const char *name, bool on)
{
	struct rbtr_pid_tr *p = tr->pid;
	int i;

	for (i = 0; i < rbtr_pid_nr_opts(p); i++)
		if (!strcmp(name, rbtr_pid_opt_names[i]))
			return rbtr_pid_opt_set(p, i, on);
	return -ENOENT;
}

static const struct file_operations rbtr_pid_opt_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_pid_opt_open,
	.release	= rbtr_pid_opt_release,
	.read		= rbtr_pid_opt_read,
	.write		= rbtr_pid_opt_write,
	.llseek		= generic_file_llseek,
};

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

/* The files of kinds [@first, @first + 2) and of option @opt. */
static void rbtr_pid_make_files(struct rbtr_trace *tr, int first, int opt)
{
	struct dentry *opts = rbtr_options_dir(tr);
	struct rbtr_pid_tr *p = tr->pid;
	int i;

	for (i = first; i < first + 2; i++)
		debugfs_create_file(rbtr_pid_file_names[i], 0600, tr->dir, &p->files[i],
				    &rbtr_pid_fops);
	if (!IS_ERR(opts))
		debugfs_create_file(rbtr_pid_opt_names[opt], 0600, opts, &p->opt_files[opt],
				    &rbtr_pid_opt_fops);
}

void rbtr_pid_files(struct rbtr_trace *tr)
{
	rbtr_pid_make_files(tr, RBTR_PID_EV, RBTR_PID_OPT_EVENT);
}

void rbtr_pid_fn_files(struct rbtr_trace *tr)
{
	rbtr_pid_make_files(tr, RBTR_PID_FN, RBTR_PID_OPT_FUNC);
}

int rbtr_pid_tr_init(struct rbtr_trace *tr)
{
	struct rbtr_pid_tr *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int i;

	if (!p)
		return -ENOMEM;
	p->ev_ignore = alloc_percpu(bool);
	if (!p->ev_ignore) {
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
	if (rbtr_pid_is_fn(p))
		WRITE_ONCE(rbtr_pid_fn_on, false);
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
	tr->pid = NULL;
	free_percpu(p->ev_ignore);
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
