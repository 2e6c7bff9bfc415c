// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace events: the slow paths of an event with a condition, what
 * decides past "enabled" whether a hit becomes a record. The writers test
 * one word of the event's file in its tracer (file->cond, the RBTR_EVC_* bits) and come here
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
 *     pid filter decide whether it is kept. A record of an event with a
 *     filter or a conditional trigger was written into this CPU's scratch
 *     slot (as ftrace's buffered event): kept, it is copied into the
 *     buffer by rbt_write(); dropped, it never touched the buffer. One
 *     that did not fit a slot (longer than RBTR_SCRATCH_SIZE, or nested
 *     deeper than RBTR_SCRATCH_LEVELS) is in the buffer, and a drop is
 *     rbt_discard(), which gives the space back only while the record is
 *     provably the last one written on its page (seed 003) and leaves
 *     padding otherwise.
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
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "filter.h"
#include "filter_internal.h"
#include "pid.h"
#include "trigger.h"

/*
 * The scratch slots: one page per CPU, cut in one slot per context that
 * can nest (task, softirq, irq, NMI), taken and given back in LIFO order
 * by a per-CPU depth, from reservation to commit with preemption off.
 *
 * The depth is changed by this_cpu_inc_return()/this_cpu_dec(), one
 * instruction on x86 that an interrupt cannot split elsewhere; a nested
 * context gives its level back before the interrupted one goes on, so
 * each context sees the depth it left. The commit knows a scratch record
 * by its address: the top slot of this CPU (no buffer record can be
 * there). RBTR_EVC_SCRATCH, set whenever a file may write here and never
 * cleared while it exists, sends every commit of the file to the
 * slow path that looks: a writer that took a slot while the filter was
 * set commits correctly after the filter is gone.
 *
 * A slot taken by rbtr_event_reserve_fast() holds a record without its
 * header yet: its level's @fast is the filter that decides it, read once
 * at the reservation (a filter changed meanwhile decides the next hit);
 * the other reservations clear it. The filter stays valid until the
 * commit as @filter of the file does: preemption is off in between.
 */
#define RBTR_SCRATCH_LEVELS	4
#define RBTR_SCRATCH_SIZE	(PAGE_SIZE / RBTR_SCRATCH_LEVELS)

struct rbtr_scratch {
	void			*page;
	unsigned int		depth;
	unsigned long		filtered;
	const struct rbtr_filter *fast[RBTR_SCRATCH_LEVELS];
};

static DEFINE_PER_CPU(struct rbtr_scratch, rbtr_scratch);

/*
 * The slot of rbtr_event_scratch_get(), its level's @fast set to @fast.
 * Preemption disabled by the caller (or, for a tracepoint's probe, by the
 * tracepoint): this CPU's slots throughout.
 */
static __always_inline void *rbtr_scratch_take(unsigned int size,
					       const struct rbtr_filter *fast)
{
	struct rbtr_scratch *s = this_cpu_ptr(&rbtr_scratch);
	unsigned int level;

	if (size > RBTR_SCRATCH_SIZE || !s->page)
		return NULL;
	level = this_cpu_inc_return(rbtr_scratch.depth) - 1;
	if (level >= RBTR_SCRATCH_LEVELS) {
		this_cpu_dec(rbtr_scratch.depth);
		return NULL;
	}
	/* Before the slot is used: a nested context takes the next level. */
	s->fast[level] = fast;
	preempt_disable_notrace();
	return s->page + level * RBTR_SCRATCH_SIZE;
}

/**
 * rbtr_event_scratch_get - a scratch slot for a record of @size bytes
 * @size: the record's size
 *
 * Preemption disabled by the caller; on success it stays disabled once
 * more, until rbtr_event_cond_commit() gives the slot back.
 *
 * Return: the slot, or NULL (too big, nested too deep, no page): the
 * record then goes to the buffer.
 */
void notrace *rbtr_event_scratch_get(unsigned int size)
{
	return rbtr_scratch_take(size, NULL);
}

/*
 * Is @rec this CPU's top scratch slot, the one the reservation took?
 * Return: its level + 1, or 0.
 */
static __always_inline unsigned int rbtr_scratch_owns(const void *rec)
{
	struct rbtr_scratch *s = this_cpu_ptr(&rbtr_scratch);
	unsigned int depth = READ_ONCE(s->depth);

	if (depth && depth <= RBTR_SCRATCH_LEVELS && s->page &&
	    rec == s->page + (depth - 1) * RBTR_SCRATCH_SIZE)
		return depth;
	return 0;
}

static void notrace rbtr_scratch_put(void)
{
	this_cpu_dec(rbtr_scratch.depth);
	preempt_enable_notrace();
}

/**
 * rbtr_event_reserve_fast - rbtr_event_reserve() of a tracepoint's probe
 *			     whose file has a bit of RBTR_EVC_AT_RESERVE_ALL
 * @buffer: the live buffer of @file->tr, read once for this record
 * @file: the event in its tracer
 * @size: bytes of the record, struct rbtr_entry included
 *
 * ftrace's buffered event, with the filter first: when the filter (one
 * number compare on the event's own fields, RBTR_EVC_FAST) is all that
 * decides, the record is written into a scratch slot without its header,
 * and rbtr_event_cond_commit() tests it with rbtr_filter_match_fast()
 * before anything else: a rejected hit reads neither its context nor
 * tracing_cpumask, nor touches the buffer. A kept one gets its header
 * there (the context as the probe would have read it,
 * rbtr_trace_ctx_skip()). Any other condition, a slot not to be had or a
 * filter that changed since the bit was read: rbtr_event_reserve().
 *
 * Runs in the probe's context, NMI included, one level of preemption
 * taken by the probe (rbtr_probe_<name>(), tp_probes.c: its only
 * caller). The filter is read under sched-RCU: the probe disabled
 * preemption, and the slot keeps it off until the commit; its writer
 * frees it after synchronize_rcu().
 *
 * Return: as rbtr_event_reserve(); a slot keeps preemption disabled
 * until the commit.
 */
void notrace *rbtr_event_reserve_fast(struct rbt_buffer *buffer, struct rbtr_event_file *file,
				      unsigned int size)
{
	unsigned long cond = READ_ONCE(file->cond);
	const struct rbtr_filter *filter;
	void *rec;

	if ((cond & ~(RBTR_EVC_FILTER | RBTR_EVC_SCRATCH | RBTR_EVC_FAST)) ||
	    !(cond & RBTR_EVC_FILTER))
		goto slow;
	/* NULL or not fast: the filter changed under the bit (rbtr_fl_swap()). */
	filter = rcu_dereference_sched(file->filter);
	if (!filter || !filter->fast)
		goto slow;
	rec = rbtr_scratch_take(size, filter);
	if (rec)
		return rec;
slow:
	return rbtr_event_reserve(buffer, file, size, rbtr_ctx_tp(rbtr_trace_ctx_skip(1)));
}

/*
 * rbtr_event_cond_commit() of a slot of rbtr_event_reserve_fast() at
 * @level: its filter decides; a kept record gets its header (the probe
 * and the slot took a preemption level each) and is copied as any
 * scratch record, unless this CPU is not in tracing_cpumask.
 */
static __always_inline bool rbtr_scratch_fast_commit(struct rbt_buffer *buffer,
						     struct rbtr_event_file *file,
						     void *rec, unsigned int size,
						     unsigned int level)
{
	const struct rbtr_filter *filter = __this_cpu_read(rbtr_scratch.fast[level]);
	struct rbtr_entry *ent = rec;
	unsigned int ctx;
	bool keep;

	keep = rbtr_filter_match_fast(filter, rec, size);
	if (!keep) {
		this_cpu_inc(rbtr_scratch.filtered);
	} else if (rbtr_cpu_traced(file->tr, smp_processor_id())) {
		ctx = rbtr_ctx_tp(rbtr_trace_ctx_skip(2));
		ent->type = file->id;
		ent->flags = ctx >> 16;
		ent->preempt_count = ctx & 0xff;
		ent->pid = current->pid;
		rbtr_cmdline_save();
		keep = !rbt_write(buffer, ALIGN(size, 4), rec);
	} else {
		keep = false;
	}
	rbtr_scratch_put();
	return keep;
}

/**
 * rbtr_event_cond_filtered - records of this CPU a condition dropped
 * @cpu: the CPU
 *
 * Those tested in a scratch slot (a dropped record in the buffer is
 * counted by rbt_cpu_stats().discarded instead).
 *
 * Return: the count since the module loaded.
 */
unsigned long rbtr_event_cond_filtered(int cpu)
{
	return READ_ONCE(per_cpu_ptr(&rbtr_scratch, cpu)->filtered);
}

/**
 * rbtr_event_cond_init - allocate the scratch pages
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_event_cond_init(void)
{
	struct page *page;
	int cpu;

	for_each_possible_cpu(cpu) {
		page = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL | __GFP_ZERO, 0);
		if (!page) {
			rbtr_event_cond_exit();
			return -ENOMEM;
		}
		per_cpu_ptr(&rbtr_scratch, cpu)->page = page_address(page);
	}
	return 0;
}

/**
 * rbtr_event_cond_exit - free the scratch pages, once no event can be written
 */
void rbtr_event_cond_exit(void)
{
	struct rbtr_scratch *s;
	int cpu;

	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(&rbtr_scratch, cpu);
		if (s->page)
			free_page((unsigned long)s->page);
		s->page = NULL;
	}
}

/**
 * rbtr_event_cond_skip - step 1: run the triggers of a hit, say if it is left out
 * @buffer: the buffer the event is recorded into
 * @file: the event in its tracer
 *
 * Return: true if nothing is to be reserved for this hit.
 */
bool notrace rbtr_event_cond_skip(struct rbt_buffer *buffer, struct rbtr_event_file *file)
{
	unsigned long cond = READ_ONCE(file->cond);
	bool skip = false;

	/* A trigger tests the record: reserve it, decide at the commit. */
	if (cond & RBTR_EVC_TRIGGER_COND)
		return false;
	preempt_disable_notrace();
	if (cond & RBTR_EVC_TRIGGER)
		rbtr_triggers_call(buffer, file, NULL, 0);
	if (cond & RBTR_EVC_SOFT_OFF)
		skip = true;
	else if (cond & RBTR_EVC_PID)
		skip = rbtr_pid_ignored(file->tr);
	preempt_enable_notrace();
	return skip;
}

/**
 * rbtr_event_cond_commit - step 2: commit the record or discard it
 * @buffer: the buffer it was reserved on
 * @file: its file
 * @rec: the record, filled
 * @size: the size it was reserved with
 * @post: set to the triggers for step 3, if any
 *
 * Return: true if committed, false if discarded.
 */
bool notrace rbtr_event_cond_commit(struct rbt_buffer *buffer, struct rbtr_event_file *file,
				    void *rec, unsigned int size, unsigned long *post)
{
	unsigned long cond = READ_ONCE(file->cond);
	const struct rbtr_filter *filter;
	bool scratch, keep = false;
	unsigned int depth;

	depth = (cond & RBTR_EVC_SCRATCH) ? rbtr_scratch_owns(rec) : 0;
	/* A slot of rbtr_event_reserve_fast(): its filter alone decides. */
	if (depth && __this_cpu_read(rbtr_scratch.fast[depth - 1]))
		return rbtr_scratch_fast_commit(buffer, file, rec, size, depth - 1);
	scratch = depth;
	if (cond & RBTR_EVC_TRIGGER_COND)
		*post = rbtr_triggers_call(buffer, file, rec, size);
	if (cond & RBTR_EVC_SOFT_OFF)
		goto out;
	if (cond & RBTR_EVC_FILTER) {
		/* NULL: the bit is being cleared, or not yet set (see rbtr_event_cond_update()). */
		filter = rcu_dereference_sched(file->filter);
		if (filter && !rbtr_filter_match(filter, rec, size))
			goto out;
	}
	if ((cond & RBTR_EVC_PID) && rbtr_pid_ignored(file->tr))
		goto out;
	keep = true;
out:
	if (!scratch) {
		if (keep)
			rbt_unlock_commit(buffer);
		else
			rbt_discard(buffer, rec, size);
		return keep;
	}
	/* Kept: into the buffer now, stamped now; refused there, lost as any. */
	if (keep) {
		rbtr_cmdline_save();
		keep = !rbt_write(buffer, ALIGN(size, 4), rec);
	} else {
		this_cpu_inc(rbtr_scratch.filtered);
	}
	rbtr_scratch_put();
	return keep;
}

/**
 * rbtr_event_cond_post - step 3: the triggers that act after the record
 * @buffer: the buffer the event was recorded into
 * @file: the event in its tracer
 * @post: what step 2 returned
 */
void notrace rbtr_event_cond_post(struct rbt_buffer *buffer, struct rbtr_event_file *file,
				  unsigned long post)
{
	preempt_disable_notrace();
	rbtr_triggers_post(buffer, file, post);
	preempt_enable_notrace();
}
