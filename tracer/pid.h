/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace pid filters (pid.c): set_event_pid, set_event_notrace_pid and
 * set_ftrace_pid, as ftrace keeps them.
 */
#ifndef _RBTR_PID_H
#define _RBTR_PID_H

#include <linux/types.h>

/*
 * rbtr_pid_ignored - is the task running on this CPU left out by
 * set_event_pid / set_event_notrace_pid? Preemption disabled, any
 * context. Placeholder until pid.c: no pid filter can be set.
 */
static inline bool rbtr_pid_ignored(void)
{
	return false;
}

#endif /* _RBTR_PID_H */
