/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace time stamps on the write path: the before_stamp / write_stamp
 * protocol. These helpers are inlined into __rb_reserve_next(), which
 * calls them in order around the reservation itself (step C):
 *
 *	A  rb_ts_read_stamps()	read the write index, before_stamp,
 *				write_stamp and the clock; choose a delta
 *	B  rb_ts_set_before()	before_stamp = our time stamp
 *	C  local_add_return()	reserve (in rb_core.c)
 *	D  rb_ts_settle()	uninterrupted: write_stamp = our stamp
 *	E,F			interrupted: find a delta that is still true
 *
 * rb_reserve_fast() in rb_core.c runs A to D for the common case in one
 * straight line, and hands everything else to these helpers (through its
 * exits S1 and S2) in the state they would have reached themselves.
 *
 * Everything here is per CPU. Writers on one CPU do not run in parallel;
 * they nest (task < softirq < irq < NMI), and a nested writer completes
 * before the one it interrupted continues. So the only question at every
 * step is: "what if a whole nested event happened right here?"
 *
 * The rule the protocol rests on: if before_stamp == write_stamp at A,
 * write_stamp is the stamp of the event physically before the tail, and
 * a delta from it is exact. Every path that cannot vouch for that leaves
 * the two different: a writer between B and D (it set before_stamp
 * only), a slow-path event (it sets before_stamp, never write_stamp), a
 * reclaimed discard (it zeroes before_stamp), a writer interrupted
 * between C and D (the interrupting event's stamps are overwritten by
 * the older one at D). A writer that finds them different takes an
 * absolute stamp instead of a delta (FORCE).
 */
#ifndef _RB_TIMESTAMP_H
#define _RB_TIMESTAMP_H

#include <linux/sched/clock.h>
#include <linux/trace_clock.h>
#include "rb_internal.h"
#include "rb_clock.h"

static __always_inline u64 rb_time_stamp(struct rbt_buffer *buffer)
{
	typeof(buffer->clock) clock;
	u64 ts;

	/*
	 * The default clock by a direct call: no retpoline on the hot path.
	 * trace_clock_local() is sched_clock() with preemption off, and the
	 * writer has it off already: call sched_clock() itself (the same
	 * value, one call and one preemption count pair fewer). The pointer
	 * is compared in memory (a plain read, which the compiler folds into
	 * the compare; the clock is one word, set whole by rbt_set_clock())
	 * and loaded again for the others: a clock set in between is a
	 * clock set just before or just after.
	 */
	if (likely(data_race(buffer->clock == trace_clock_local))) {
		ts = sched_clock();
	} else {
		clock = READ_ONCE(buffer->clock);
		if (clock == rbt_latch_clock)
			ts = rb_latch_read();	/* inline: about 25 instructions */
		else
			ts = clock();
	}

	/* The buffer holds 59 bits; drop what would not fit. */
	return ts & RB_ABS_TS_MASK;
}

static __always_inline bool rb_delta_too_big(u64 delta)
{
	return delta & RB_TS_DELTA_TEST;
}

/*
 * Step A. @w is the write index read before the stamps (the barrier()
 * keeps the compiler from reading them first: an interrupt between the
 * two reads must be seen as "interrupted between A and C", see
 * rb_ts_settle()).
 */
static __always_inline void rb_ts_read_stamps(struct rb_cpu_buffer *cpu_buffer,
					      struct rb_event_info *info,
					      unsigned long w)
{
	barrier();
	info->before = local64_read(&cpu_buffer->before_stamp);
	info->after = local64_read(&cpu_buffer->write_stamp);
	barrier();
	info->ts = rb_time_stamp(cpu_buffer->buffer);

	if (info->add_timestamp & RB_ADD_STAMP_ABSOLUTE) {
		info->delta = info->ts;
		return;
	}
	if (!w) {
		/* First event of the page: the page header holds the stamp. */
		info->delta = 0;
	} else if (unlikely(info->before != info->after)) {
		/*
		 * We interrupted a writer between its B and D: the
		 * write_stamp is not the stamp of the event before us.
		 * Reserve room for an absolute stamp.
		 */
		info->add_timestamp |= RB_ADD_STAMP_FORCE | RB_ADD_STAMP_EXTEND;
		info->length += RB_LEN_TIME_EXTEND;
	} else {
		info->delta = info->ts - info->after;
		if (unlikely(rb_delta_too_big(info->delta))) {
			/*
			 * More than 27 bits: a long pause, or a clock that
			 * went back (ts < after, the difference wrapped to
			 * nearly 2^64). An extend of the wrapped difference
			 * would put this event and every later one on the
			 * page 2^59 ns (18 years) ahead.
			 */
			if (unlikely(info->ts < info->after)) {
				/*
				 * Repeat the last stamp (see rb_ts_went_back()).
				 * Neither info's address nor its fields go to
				 * the call: they would cost the fast path spills.
				 */
				rb_ts_went_back(cpu_buffer);
				info->ts = info->after;
				info->delta = 0;
				info->ts_lost = true;
			} else {
				info->add_timestamp |= RB_ADD_STAMP_EXTEND;
				info->length += RB_LEN_TIME_EXTEND;
			}
		}
	}
}

/* Step B: everyone announces its stamp before reserving. */
static __always_inline void rb_ts_set_before(struct rb_cpu_buffer *cpu_buffer,
					     struct rb_event_info *info)
{
	local64_set(&cpu_buffer->before_stamp, info->ts);
}

/*
 * Steps D to F, after the reservation at C returned @tail (where our event
 * starts) and @write (where it ends) on a page where A saw index @w.
 */
static __always_inline void rb_ts_settle(struct rb_cpu_buffer *cpu_buffer,
					 struct rb_event_info *info,
					 unsigned long w, unsigned long tail,
					 unsigned long write)
{
	struct rbt_buffer *buffer = cpu_buffer->buffer;
	bool last;
	u64 ts;

	if (likely(tail == w)) {
		/*
		 * FAST PATH: nothing was reserved between A and C, so the
		 * event before ours is the one whose stamp A read.
		 */
 /*D*/		local64_set(&cpu_buffer->write_stamp, info->ts);
		rb_hook(buffer, RBT_HOOK_D);
		/*
		 * An event nested between C and D has set write_stamp to
		 * its own (later) stamp, which we just overwrote with our
		 * earlier one. That is harmless: it also set before_stamp,
		 * which now differs from write_stamp, so the next writer
		 * takes an absolute stamp instead of trusting write_stamp.
		 */
		if (likely(!(info->add_timestamp &
			     (RB_ADD_STAMP_FORCE | RB_ADD_STAMP_ABSOLUTE))))
			info->delta = info->ts - info->after;
		else
			info->delta = info->ts;	/* absolute stamp */
		return;
	}

	/*
	 * SLOW PATH: one or more events were reserved between A and C, in
	 * front of ours; we do not know their stamps from A. Take a new
	 * stamp, and announce it in before_stamp first so that anything
	 * nesting from here on sees before != write and goes absolute
	 * rather than deriving its delta from a write_stamp that we are
	 * not going to update.
	 */
	info->before = local64_read(&cpu_buffer->before_stamp);
	ts = rb_time_stamp(buffer);
	local64_set(&cpu_buffer->before_stamp, ts);
	barrier();
 /*E*/	info->after = local64_read(&cpu_buffer->write_stamp);
	rb_hook(buffer, RBT_HOOK_E);
	barrier();
 /*F*/	last = write == rb_page_write(info->tail_page);
	if (last && info->after == info->before && info->after < ts) {
		/*
		 * Nothing was reserved after us between C and F, and the
		 * writers that came between A and C completed (before ==
		 * after): write_stamp is the stamp of the event right
		 * before ours. Our delta from it is exact.
		 */
		info->delta = ts - info->after;
	} else {
		/*
		 * Something came between C and F: the stamp of the event
		 * before ours is lost. Repeat it (delta 0): our event is
		 * placed at the time of the event it follows, which is
		 * never later than the truth, and the events after ours
		 * carry their own stamps. Counted in ts_lost.
		 */
		info->delta = 0;
		/*
		 * With an absolute stamp in front, nothing is lost. An
		 * event that found the clock gone back at A is counted
		 * already (rb_ts_went_back()).
		 */
		if (!(info->add_timestamp & RB_ADD_STAMP_ABSOLUTE) && !info->ts_lost) {
			info->ts_lost = true;
			local_inc(&cpu_buffer->ts_lost);
		}
	}
	info->ts = ts;
	info->add_timestamp &= ~RB_ADD_STAMP_FORCE;
}

#endif /* _RB_TIMESTAMP_H */
