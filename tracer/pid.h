/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace pid filters (pid.c, pid_probes.c, pid_files.c): set_event_pid,
 * set_event_notrace_pid, options/event-fork, set_ftrace_pid,
 * set_ftrace_notrace_pid and options/function-fork, one set per tracer
 * (the top and each instance), as ftrace keeps them per trace_array.
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
#include "trace.h"

struct seq_file;

/**
 * rbtr_pid_ignored - is the task running on this CPU left out by @tr's
 * set_event_pid / set_event_notrace_pid?
 * @tr: the tracer of the event's file
 *
 * Only meaningful while RBTR_EVC_PID is set on the event; preemption
 * disabled, any context (NMI included): one per-CPU load. False on every
 * CPU for a tracer without an event list.
 *
 * Return: true if the hit is not to be recorded.
 */
static __always_inline bool rbtr_pid_ignored(const struct rbtr_trace *tr)
{
	return this_cpu_read(*tr->pid_ev_ignore);
}

/**
 * rbtr_fn_pid_ignored - does set_ftrace_pid / set_ftrace_notrace_pid of
 * @tr leave the current task out of its function tracer?
 * @tr: the tracer
 *
 * Preemption disabled. Without a list: one load and a test. With one, the
 * pid the sched_switch probe stored for the task switched in must be the
 * current one, as ftrace's ftrace_pid_func(): between the switch's
 * tracepoint and the switch itself, the previous task still runs.
 *
 * Return: true if the call is not to be recorded.
 */
static __always_inline bool rbtr_fn_pid_ignored(const struct rbtr_trace *tr)
{
	if (likely(!READ_ONCE(tr->pid_fn_on)))
		return false;
	return this_cpu_read(*tr->pid_fn_pid) != current->pid;
}

/**
 * rbtr_pid_events_on - do the event pid lists apply to new event files?
 *
 * Read under rbtr_events_lock() when a file is made: pid.c changes it
 * under that lock, with the condition of the files of the tracer whose
 * list changed. The caller does not say which tracer the file is in: a
 * new file takes RBTR_EVC_PID while any tracer has an event list, which
 * in a tracer without one only costs the slow path (its flag is false on
 * every CPU) until rbtr_pid_events_sync() or the next change of a list.
 *
 * Return: true while a tracer's set_event_pid or set_event_notrace_pid
 * has a list.
 */
bool rbtr_pid_events_on(void);

/**
 * rbtr_pid_events_sync - a tracer's events were made: their RBTR_EVC_PID
 * as its own lists say
 * @tr: the tracer (an instance, after rbtr_events_instance_add())
 */
void rbtr_pid_events_sync(struct rbtr_trace *tr);

/**
 * rbtr_pid_options_show - the fork options' lines of a tracer's trace_options
 * @tr: the tracer
 * @m: the file: "event-fork" or "noevent-fork", then (the top)
 *     function-fork's
 */
void rbtr_pid_options_show(struct rbtr_trace *tr, struct seq_file *m);

/**
 * rbtr_pid_option_set - a trace_options write naming a fork option
 * @tr: the tracer
 * @name: the option's name, without "no"
 * @on: set or clear it
 *
 * Return: 0, -ENOENT if @name is not one of @tr's fork options, or the
 * error of registering the fork probes.
 */
int rbtr_pid_option_set(struct rbtr_trace *tr, const char *name, bool on);

/**
 * rbtr_pid_files - create a tracer's event pid files and options/event-fork
 * @tr: the tracer (the top or an instance), its pid state made
 */
void rbtr_pid_files(struct rbtr_trace *tr);

/**
 * rbtr_pid_fn_files - create set_ftrace_pid, set_ftrace_notrace_pid and
 * options/function-fork
 * @tr: the tracer (the top or an instance), its pid state made
 */
void rbtr_pid_fn_files(struct rbtr_trace *tr);

/**
 * rbtr_pid_tr_init - a tracer's pid state: no list, every CPU's flag false
 * @tr: the tracer, being made (rbtr_trace_init())
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_pid_tr_init(struct rbtr_trace *tr);

/**
 * rbtr_pid_tr_exit - free a tracer's pid state, its lists and probes
 * @tr: the tracer (rbtr_trace_exit()): no file of it open, and no event
 *      of it recorded any more (rbtr_events_instance_remove())
 */
void rbtr_pid_tr_exit(struct rbtr_trace *tr);

/**
 * rbtr_pid_exit - remove every tracer's lists and probes, at unload
 *
 * Before the event types are unregistered; returns when no probe of
 * pid_probes.c runs any more.
 */
void rbtr_pid_exit(void);

#endif /* _RBTR_PID_H */
