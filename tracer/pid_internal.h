/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace pid filters: what the parts share, and nothing else uses (the
 * tracer's interface is pid.h): each tracer's state, its lists, and the
 * calls between pid.c (the lists and their change), pid_probes.c (the
 * probes and their registration) and pid_files.c (the files).
 */
#ifndef _RBTR_PID_INTERNAL_H
#define _RBTR_PID_INTERNAL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct rbtr_trace;
struct task_struct;
struct tracepoint;

/* The pid stored for the function tracers when the running task is left out. */
#define RBTR_PID_FN_IGNORE	(-1)

enum rbtr_pid_kind {
	RBTR_PID_EV,		/* set_event_pid */
	RBTR_PID_EV_NO,		/* set_event_notrace_pid */
	RBTR_PID_FN,		/* set_ftrace_pid */
	RBTR_PID_FN_NO,		/* set_ftrace_notrace_pid */
	RBTR_PID_NR_KINDS,
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

/* options/event-fork (every tracer's), options/function-fork (the top's). */
enum { RBTR_PID_OPT_EVENT, RBTR_PID_OPT_FUNC, RBTR_PID_NR_OPTS };

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
 * @lists: its lists, RCU
 * @ev_ignore: per CPU, the events' verdict on the running task: @tr->pid_ev_ignore
 * @fn_pid: per CPU, the function tracer's: the running task's pid, or
 *          RBTR_PID_FN_IGNORE if it is left out: @tr->pid_fn_pid
 * @fork_opt: options/event-fork and function-fork, under
 *            rbtr_pid_mutex; read by the fork probes
 * @ev_active: RBTR_EVC_PID is set on @tr's events: changed under
 *             rbtr_events_lock() (and rbtr_pid_mutex)
 * @ev_probes: sched_switch and wakeups, while an event list exists
 * @fn_probes: sched_switch for its function tracer
 * @fork_probes: fork and free, while a fork option is on
 * @files: the i_private of its pid files
 * @opt_files: the i_private of its fork options' files
 * @list: in rbtr_pid_trs, under rbtr_pid_mutex
 */
struct rbtr_pid_tr {
	struct rbtr_trace		*tr;
	struct rbtr_pid_list __rcu	*lists[RBTR_PID_NR_KINDS];
	bool __percpu			*ev_ignore;
	int __percpu			*fn_pid;
	bool				fork_opt[RBTR_PID_NR_OPTS];
	bool				ev_active;
	struct rbtr_pid_probes		ev_probes;
	struct rbtr_pid_probes		fn_probes;
	struct rbtr_pid_probes		fork_probes;
	struct rbtr_pid_file		files[RBTR_PID_NR_KINDS];
	struct rbtr_pid_file		opt_files[RBTR_PID_NR_OPTS];
	struct list_head		list;
};

/* Every change of every tracer's state (pid.c). */
extern struct mutex rbtr_pid_mutex;

/* The lists and their change (pid.c), under rbtr_pid_mutex. */
void rbtr_pid_list_free(struct rbtr_pid_list *l);
struct rbtr_pid_list *rbtr_pid_list_dup(const struct rbtr_pid_list *old,
					unsigned int more);
void rbtr_pid_list_add(struct rbtr_pid_list *l, u32 pid);
bool rbtr_pid_list_empty(const struct rbtr_pid_list *l);
struct rbtr_pid_list *rbtr_pid_get(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind);
int rbtr_pid_replace(struct rbtr_pid_tr *p, enum rbtr_pid_kind kind,
		     struct rbtr_pid_list *new);

/* The probes and their registration (pid_probes.c). */
extern const struct rbtr_pid_probes rbtr_pid_probes_init[];
bool rbtr_pid_ignore(struct rbtr_pid_tr *p, enum rbtr_pid_kind yes,
		     const struct task_struct *t);
void rbtr_pid_tp_lookup(struct tracepoint *tp, void *priv);
int rbtr_pid_probes_set(struct rbtr_pid_tr *t, struct rbtr_pid_probes *p, bool on);

#endif /* _RBTR_PID_INTERNAL_H */
