/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event triggers (trigger.c): ftrace's events/<sys>/<event>/trigger
 * commands, run when their event hits.
 */
#ifndef _RBTR_TRIGGER_H
#define _RBTR_TRIGGER_H

#include <linux/types.h>

struct rbt_buffer;
struct rbtr_event_type;

/*
 * rbtr_triggers_call - run the triggers of @type for one hit: with @rec
 * NULL before anything is reserved (no trigger has a condition), else on
 * the written record @rec of @size bytes. Return: the triggers left to
 * run after the commit (rbtr_triggers_post()), 0 for none. Any context,
 * preemption disabled. Placeholder until trigger.c: no trigger can be set.
 */
static inline unsigned long rbtr_triggers_call(struct rbt_buffer *buffer,
					       const struct rbtr_event_type *type,
					       void *rec, unsigned int size)
{
	return 0;
}

/* rbtr_triggers_post - run the triggers rbtr_triggers_call() left for after the commit. */
static inline void rbtr_triggers_post(struct rbt_buffer *buffer,
				      const struct rbtr_event_type *type, unsigned long post)
{
}

#endif /* _RBTR_TRIGGER_H */
