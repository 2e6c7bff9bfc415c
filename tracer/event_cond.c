// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace events: the slow paths of an event with a condition, what
 * decides past "enabled" whether a hit becomes a record. The writers test
 * one word of the type (type->cond, the RBTR_EVC_* bits) and come here
 * only when a bit is set, as ftrace's writers test the flags of their
 * trace_event_file:
 *
 *  1. Before the reservation (rbtr_event_cond_skip(), ftrace's
 *     trace_trigger_soft_disabled()): when no trigger has a condition,
 *     the triggers run now, without a record; then a soft-disabled event
 *     or a task the pid filter leaves out is not reserved at all.
 *  2. At the commit (rbtr_event_cond_commit(), ftrace's
 *     __event_trigger_test_discard()): the triggers with a condition
 *     test the written record; then the soft disable, the filter and the
 *     pid filter decide between the commit and rbt_discard(), which gives
 *     the space back only while the record is provably the last one
 *     written on its page (seed 003) and leaves padding otherwise.
 *  3. After the commit and its stack (rbtr_event_cond_post()): the
 *     triggers that act on what was recorded (traceoff, stacktrace).
 *
 * Every step runs in the context of the event, NMI included: it takes no
 * lock and allocates nothing. The filter and the triggers are read under
 * sched-RCU: between the reservation and the commit preemption is off
 * (rbt_reserve()), and step 1 disables it around its walk. Their writers
 * free them only after synchronize_rcu(), which waits for such sections
 * and for NMI handlers.
 */
#include <linux/compiler.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <rbtrace/rbtrace.h>
#include "events.h"
#include "filter.h"
#include "pid.h"
#include "trigger.h"

/**
 * rbtr_event_cond_skip - step 1: run the triggers of a hit, say if it is left out
 * @buffer: the buffer the event is recorded into
 * @type: the event
 *
 * Return: true if nothing is to be reserved for this hit.
 */
bool notrace rbtr_event_cond_skip(struct rbt_buffer *buffer, const struct rbtr_event_type *type)
{
	unsigned long cond = READ_ONCE(type->cond);
	bool skip = false;

	/* A trigger tests the record: reserve it, decide at the commit. */
	if (cond & RBTR_EVC_TRIGGER_COND)
		return false;
	preempt_disable_notrace();
	if (cond & RBTR_EVC_TRIGGER)
		rbtr_triggers_call(buffer, type, NULL, 0);
	if (cond & RBTR_EVC_SOFT_OFF)
		skip = true;
	else if (cond & RBTR_EVC_PID)
		skip = rbtr_pid_ignored();
	preempt_enable_notrace();
	return skip;
}

/**
 * rbtr_event_cond_commit - step 2: commit the record or discard it
 * @buffer: the buffer it was reserved on
 * @type: its type
 * @rec: the record, filled
 * @size: the size it was reserved with
 * @post: set to the triggers for step 3, if any
 *
 * Return: true if committed, false if discarded.
 */
bool notrace rbtr_event_cond_commit(struct rbt_buffer *buffer,
				    const struct rbtr_event_type *type,
				    void *rec, unsigned int size, unsigned long *post)
{
	unsigned long cond = READ_ONCE(type->cond);
	const struct rbtr_filter *filter;

	if (cond & RBTR_EVC_TRIGGER_COND)
		*post = rbtr_triggers_call(buffer, type, rec, size);
	if (cond & RBTR_EVC_SOFT_OFF)
		goto discard;
	if (cond & RBTR_EVC_FILTER) {
		/* NULL: the bit is being cleared, or not yet set (see rbtr_event_cond_update()). */
		filter = rcu_dereference_sched(type->filter);
		if (filter && !rbtr_filter_match(filter, rec, size))
			goto discard;
	}
	if ((cond & RBTR_EVC_PID) && rbtr_pid_ignored())
		goto discard;
	rbt_unlock_commit(buffer);
	return true;
discard:
	rbt_discard(buffer, rec, size);
	return false;
}

/**
 * rbtr_event_cond_post - step 3: the triggers that act after the record
 * @buffer: the buffer the event was recorded into
 * @type: the event
 * @post: what step 2 returned
 */
void notrace rbtr_event_cond_post(struct rbt_buffer *buffer, const struct rbtr_event_type *type,
				  unsigned long post)
{
	preempt_disable_notrace();
	rbtr_triggers_post(buffer, type, post);
	preempt_enable_notrace();
}
