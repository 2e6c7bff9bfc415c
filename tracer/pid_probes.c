// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace pid filters: the probes. On sched_switch and the wakeups they
 * keep per CPU whether the task running there is left out (each tracer's
 * events' flag, the function tracers' pid); on fork and free they follow
 * the lists when a fork option is on. They run in the scheduler's and
 * the fork's context under sched-RCU and only read the published lists
 * or change their bits in place: apart from the writes of the files
 * (pid_files.c) and the replacement of a list (pid.c), which register
 * and unregister them here. The design is at the top of pid.c.
 */
#include <linux/bitops.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>
#include "pid.h"
#include "pid_internal.h"

static bool rbtr_pid_has(const struct rbtr_pid_list *l, pid_t pid)
{
	return (unsigned int)pid < PID_MAX_LIMIT && test_bit(pid, l->bits);
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

bool rbtr_pid_ignore(struct rbtr_pid_tr *p, enum rbtr_pid_kind yes,
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

/* The tracer's function tracer: the pid of the task switched in, if traced. */
static void notrace rbtr_pid_fn_switch(void *data, bool preempt, struct task_struct *prev,
				       struct task_struct *next, unsigned int prev_state)
{
	struct rbtr_pid_tr *p = data;

	this_cpu_write(*p->fn_pid,
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

/*
 * The lists are read under sched-RCU: preemption off here, as the
 * tracepoints of fork and free no longer keep it off from Linux 7.0
 * (their probes run under SRCU); the scheduler's (switch, wakeups) are
 * called with it off in any case.
 */
static void rbtr_pid_follow_all(struct rbtr_pid_tr *p, struct task_struct *self,
				struct task_struct *task)
{
	preempt_disable_notrace();
	if (READ_ONCE(p->fork_opt[RBTR_PID_OPT_EVENT])) {
		rbtr_pid_follow(p, RBTR_PID_EV, self, task);
		rbtr_pid_follow(p, RBTR_PID_EV_NO, self, task);
	}
	if (READ_ONCE(p->fork_opt[RBTR_PID_OPT_FUNC])) {
		rbtr_pid_follow(p, RBTR_PID_FN, self, task);
		rbtr_pid_follow(p, RBTR_PID_FN_NO, self, task);
	}
	preempt_enable_notrace();
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

const struct rbtr_pid_probes rbtr_pid_probes_init[] = {
	{ .probes = rbtr_pid_ev_probe_list, .nr = ARRAY_SIZE(rbtr_pid_ev_probe_list) },
	{ .probes = rbtr_pid_fn_probe_list, .nr = ARRAY_SIZE(rbtr_pid_fn_probe_list) },
	{ .probes = rbtr_pid_fork_probe_list, .nr = ARRAY_SIZE(rbtr_pid_fork_probe_list) },
};

void rbtr_pid_tp_lookup(struct tracepoint *tp, void *priv)
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
int rbtr_pid_probes_set(struct rbtr_pid_tr *t, struct rbtr_pid_probes *p, bool on)
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
