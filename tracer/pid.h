/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace pid filters (pid.c): set_event_pid, set_event_notrace_pid,
 * set_ftrace_pid and set_ftrace_notrace_pid, with options/event-fork and
 * options/function-fork, as ftrace keeps them.
 *
 * The writers never look at a list: probes on sched_switch and the wakeups
 * keep per CPU whether the task running there is left out, as ftrace's
 * ignore_pid and ftrace_ignore_pid, so that the test is one per-CPU load.
 */
#ifndef _RBTR_PID_H
#define _RBTR_PID_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/types.h>

struct rbtr_trace;
struct seq_file;

/* Per CPU: the events' verdict on the running task (pid.c). */
DECLARE_PER_CPU(bool, rbtr_pid_ev_ignore);
/* Per CPU: the pid the function tracers trace there, or -1 (pid.c). */
DECLARE_PER_CPU(int, rbtr_pid_fn_pid);
/* set_ftrace_pid or set_ftrace_notrace_pid has a list (pid.c). */
extern int rbtr_pid_fn_on;

/**
 * rbtr_pid_ignored - is the task running on this CPU left out by
 * set_event_pid / set_event_notrace_pid?
 *
 * Only meaningful while RBTR_EVC_PID is set on the event; preemption
 * disabled, any context (NMI included): one per-CPU load.
 *
 * Return: true if the hit is not to be recorded.
 */
static __always_inline bool rbtr_pid_ignored(void)
{
	return this_cpu_read(rbtr_pid_ev_ignore);
}

/**
 * rbtr_fn_pid_ignored - does set_ftrace_pid / set_ftrace_notrace_pid leave
 * the current task out of the function tracers?
 *
 * Preemption disabled. Without a list: one load and a test. With one, the
 * pid the sched_switch probe stored for the task switched in must be the
 * current one, as ftrace's ftrace_pid_func(): between the switch's
 * tracepoint and the switch itself, the previous task still runs.
 *
 * Return: true if the call is not to be recorded.
 */
static __always_inline bool rbtr_fn_pid_ignored(void)
{
	if (likely(!READ_ONCE(rbtr_pid_fn_on)))
		return false;
	return this_cpu_read(rbtr_pid_fn_pid) != current->pid;
}

/**
 * rbtr_pid_events_on - do the event pid lists apply to new event types?
 *
 * Read under rbtr_events_lock() by rbtr_event_register(): pid.c changes
 * it under that lock, with the condition of every registered type.
 *
 * Return: true while set_event_pid or set_event_notrace_pid has a list.
 */
bool rbtr_pid_events_on(void);

/**
 * rbtr_pid_options_show - the fork options' lines of trace_options
 * @m: the file: "event-fork" or "noevent-fork", then function-fork's
 */
void rbtr_pid_options_show(struct seq_file *m);

/**
 * rbtr_pid_option_set - a trace_options write naming a fork option
 * @name: the option's name, without "no"
 * @on: set or clear it
 *
 * Return: 0, -ENOENT if @name is not one of pid.c's, or the error of
 * registering the fork probes.
 */
int rbtr_pid_option_set(const char *name, bool on);

/**
 * rbtr_pid_files - create the four pid files and the two fork options
 * @tr: the tracer
 */
void rbtr_pid_files(struct rbtr_trace *tr);

/**
 * rbtr_pid_exit - remove every list and probe, at unload
 *
 * Before the event types are unregistered; returns when no probe of
 * pid.c runs any more.
 */
void rbtr_pid_exit(void);

#endif /* _RBTR_PID_H */
