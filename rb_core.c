// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace frontend, write side: reserve and commit on the per-CPU ring,
 * discard. Their slow paths are rb_tail.c (page crossing, pushing the
 * head in overwrite mode) and rb_commit.c (the general commit).
 *
 * The rules (see Documentation/rbtrace.rst for the diagrams):
 *
 *  - A per-CPU buffer is written only by its own CPU, with preemption off
 *    from reserve to commit. Writers nest (task, softirq, irq, NMI) like a
 *    stack: a nested writer finishes before the one it interrupted goes on.
 *  - Space is reserved with local_add_return() on the tail page's write
 *    index: the fast path has no cmpxchg and no atomic beyond local ones.
 *  - Pages are in order head, ..., commit, ..., tail. Only the outermost
 *    writer moves the commit page and publishes a page's commit word;
 *    nested commits are absorbed into it.
 *  - A reader on another CPU takes the head page by one cmpxchg on the
 *    flagged list pointer (rb_pages.c); a writer that must push the head
 *    (overwrite mode) cmpxchg()es the same word first.
 */
#include <linux/preempt.h>
#include <linux/hardirq.h>
#include <linux/string.h>
#include "rb_internal.h"
#include "rb_timestamp.h"

static __always_inline unsigned long rb_event_index(struct rb_cpu_buffer *cpu_buffer,
						    struct rbt_event *event)
{
	unsigned long addr = (unsigned long)event;

	addr &= (PAGE_SIZE << cpu_buffer->buffer->subbuf_order) - 1;
	return addr - RB_PAGE_HDR_SIZE;
}

/* Slow path: an 8-byte time extend or absolute stamp in front of an event. */
static noinline struct rbt_event *rb_add_time_stamp(struct rbt_event *event,
						    u64 delta, bool abs)
{
	rb_event_set_header(event, abs ? RB_TYPE_TIME_STAMP : RB_TYPE_TIME_EXTEND,
			    delta & RB_TS_MASK);
	event->array[0] = delta >> RB_TS_SHIFT;
	return (void *)event + RB_LEN_TIME_EXTEND;
}

/* Write the header of the reserved event (and its stamp if it needs one). */
static __always_inline void rb_update_event(struct rbt_event *event,
					    struct rb_event_info *info)
{
	unsigned int length = info->length;
	u64 delta = info->delta;

	if (unlikely(info->add_timestamp)) {
		bool abs = info->add_timestamp &
			   (RB_ADD_STAMP_FORCE | RB_ADD_STAMP_ABSOLUTE);

		event = rb_add_time_stamp(event, abs ? info->ts : delta, abs);
		length -= RB_LEN_TIME_EXTEND;
		delta = 0;
	}

	length -= RB_EVNT_HDR_SIZE;
	if (length > RB_MAX_SMALL_DATA) {
		rb_event_set_header(event, RB_TYPE_DATA_LONG, delta);
		event->array[0] = length;
	} else {
		rb_event_set_header(event, DIV_ROUND_UP(length, RB_ALIGNMENT), delta);
	}
}

static __always_inline void rb_start_commit(struct rb_cpu_buffer *cpu_buffer)
{
	local_inc(&cpu_buffer->committing);
	local_inc(&cpu_buffer->commits);
}

/* What the fast commit leaves to rb_unlock_commit_slow(). */
enum rb_commit_left {
	RB_COMMIT_DONE,		/* published */
	RB_COMMIT_GENERAL,	/* nested, or the commit page behind the tail */
	RB_COMMIT_AGAIN,	/* an interrupt committed after P1 */
};

/*
 * The fast commit: the outermost writer (committing == 1) whose commit
 * page is the tail page publishes with one barrier and one store. It keeps
 * the order of rb_end_commit_inline() and the reason for each step:
 *
 *  P1 commits = the commit sequence (the snapshot)
 *     anything else (nested, the commit page behind the tail): the
 *     general rb_end_commit(), RB_COMMIT_GENERAL
 *  P2 smp_wmb(); commit word = the tail page's write index (publish)
 *  P3 committing-- (from here an interrupt publishes its own events)
 *  P4 commits changed since P1: rb_end_commit_again(), RB_COMMIT_AGAIN
 *
 * Without the general loop's re-read of write: an interrupt that reserves
 * after P2 read write has begun a commit after P1, and P4 sees it. One
 * that reserved between P1 and P2 is covered by P2 (it nests whole, so it
 * was done when P2 read write) and is seen at P4 too, harmlessly.
 *
 * The smp_wmb() of P2 pairs with the readers' smp_rmb() (on other CPUs).
 * The barrier()s between the steps are compiler barriers, and their
 * partner is an interrupt on this CPU: committing and commits are this
 * CPU's alone, and an interrupt sees the CPU's program order, so the
 * compiler's is all there is to keep.
 *
 * The two exits are left to the caller's slow path, so that no call
 * happens on the fast one: no value is live across a call and the commit
 * needs no saved register.
 */
static __always_inline enum rb_commit_left
rb_end_commit_fast(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *page = cpu_buffer->commit_page;
	unsigned long commits;

 /*P1*/	commits = local_read(&cpu_buffer->commits);
	/* commits read before committing: vs. interrupts. */
	barrier();
	if (unlikely(local_read(&cpu_buffer->committing) != 1 ||
		     page != READ_ONCE(cpu_buffer->tail_page)))
		return RB_COMMIT_GENERAL;
	rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT);
	/* Events visible before commit: pairs with the reader's smp_rmb(). */
	smp_wmb();
 /*P2*/	local_set(&page->page->commit, rb_page_write(page));
	/* The store before the decrement: vs. interrupts. */
	barrier();
 /*P3*/	local_dec(&cpu_buffer->committing);
	/* committing dropped before commits is re-read: vs. interrupts. */
	barrier();
	/*P4*/
	if (unlikely(local_read(&cpu_buffer->commits) != commits))
		return RB_COMMIT_AGAIN;
	return RB_COMMIT_DONE;
}

/*
 * The reservation after step C returned @tail (where the event starts)
 * and @write (where it ends) on a page where step A saw index @w: a page
 * crossing, or steps D to F (rb_ts_settle()), then the header.
 */
static __always_inline struct rbt_event *
rb_reserve_finish(struct rb_cpu_buffer *cpu_buffer, struct rb_event_info *info,
		  unsigned long w, unsigned long tail, unsigned long write)
{
	struct rb_page *tail_page = info->tail_page;
	struct rbt_event *event;

	if (unlikely(write > cpu_buffer->buffer->subbuf_size))
		return rb_move_tail(cpu_buffer, tail, info);

	rb_ts_settle(cpu_buffer, info, w, tail, write);

	/* The first event of a page takes the page's stamp. */
	if (unlikely(!tail && !(info->add_timestamp &
				(RB_ADD_STAMP_FORCE | RB_ADD_STAMP_ABSOLUTE))))
		info->delta = 0;
	/*
	 * A slow-path delta that outgrew the room reserved for it. (With an
	 * absolute stamp, delta is the full stamp and goes in the 8-byte
	 * prefix: nothing to check.)
	 */
	if (unlikely(!(info->add_timestamp &
		       (RB_ADD_STAMP_EXTEND | RB_ADD_STAMP_ABSOLUTE)) &&
		     rb_delta_too_big(info->delta))) {
		info->delta = 0;
		info->ts_lost = true;
		local_inc(&cpu_buffer->ts_lost);
	}

	event = rb_page_index(tail_page, tail);
	rb_update_event(event, info);
	local_inc(&tail_page->entries);

	if (unlikely(!tail))
		tail_page->page->time_stamp = info->ts;

	local_add(info->length, &cpu_buffer->entries_bytes);
	return event;
}

/*
 * The general reservation: steps A to F of the time-stamp protocol
 * around the local_add_return() at C (see rb_timestamp.h). The fast path,
 * rb_reserve_fast(), is the same protocol for its common case.
 */
static struct rbt_event *
__rb_reserve_next(struct rb_cpu_buffer *cpu_buffer, struct rb_event_info *info)
{
	struct rbt_buffer *buffer = cpu_buffer->buffer;
	unsigned long tail, write, w;
	struct rb_page *tail_page;

	/* Keep the compiler from re-reading tail_page below. */
	tail_page = READ_ONCE(cpu_buffer->tail_page);
	info->tail_page = tail_page;

 /*A*/	w = rb_page_write(tail_page);
	rb_ts_read_stamps(cpu_buffer, info, w);
	rb_hook(buffer, RBT_HOOK_A);

 /*B*/	rb_ts_set_before(cpu_buffer, info);
	rb_hook(buffer, RBT_HOOK_B);

 /*C*/	write = local_add_return(info->length, &tail_page->write);
	write &= RB_WRITE_MASK;
	tail = write - info->length;
	rb_hook(buffer, RBT_HOOK_C);

	return rb_reserve_finish(cpu_buffer, info, w, tail, write);
}

static __always_inline void rb_info_start(struct rb_event_info *info,
					  int add_ts_default)
{
	info->add_timestamp = add_ts_default;
	info->delta = 0;
	info->ts_lost = false;
}

/*
 * The end of every slow reservation: retry after a page crossing
 * (@event is ERR_PTR(-EAGAIN)), validate, or give the commit back.
 */
static struct rbt_event *rb_reserve_retry(struct rb_cpu_buffer *cpu_buffer,
					  struct rb_event_info *info,
					  struct rbt_event *event,
					  int add_ts_default)
{
	int nr_loops = 1;

	while (unlikely(PTR_ERR(event) == -EAGAIN)) {
		if (info->add_timestamp & (RB_ADD_STAMP_FORCE | RB_ADD_STAMP_EXTEND))
			info->length -= RB_LEN_TIME_EXTEND;
		/*
		 * Each retry follows a page crossing. More than a full ring
		 * of crossings without room for one event means an
		 * interrupt storm or a bug: stop recording rather than spin.
		 */
		if (RB_WARN_ON(cpu_buffer, ++nr_loops > RB_MAX_RESERVE_LOOPS)) {
			event = NULL;
			break;
		}
		rb_info_start(info, add_ts_default);
		event = __rb_reserve_next(cpu_buffer, info);
	}
	if (likely(event)) {
		if (unlikely(rb_validate))
			rb_validate_tail(cpu_buffer, info, event);
		return event;
	}
	rb_end_commit(cpu_buffer);
	return NULL;
}

/*
 * Recursion guard. current_context has one bit per context, NORMAL the
 * highest; a writer sets the bit of its context. Finding it already set
 * means true recursion (a tracer tracing itself), except right at an
 * interrupt's entry, before preempt_count says "irq": TRANSITION allows
 * that one level. Unlock clears the lowest set bit: val & (val - 1).
 * rb_recursive_lock_bit() takes the bit of the context @bit, or
 * TRANSITION's if that is taken, or finds recursion.
 */
static __always_inline bool rb_recursive_lock_bit(struct rb_cpu_buffer *cpu_buffer,
						  unsigned int val, int bit)
{
	if (unlikely(val & (1U << bit))) {
		bit = RB_CTX_TRANSITION;
		if (val & (1U << bit)) {
			local_inc(&cpu_buffer->recursion);
			return true;
		}
	}
	cpu_buffer->current_context = val | (1U << bit);
	return false;
}

static __always_inline bool rb_recursive_lock(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned int pc = preempt_count();

	/*
	 * Task context is the common case: one test instead of three, and
	 * a constant bit (the compiler folds 1U << bit into the test and
	 * the or; with a bit merged from both branches it shifted).
	 */
	if (likely(!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)))) {
		/*
		 * Its bit free: set it, in one instruction where there is
		 * one (x86's bts). Not atomic, and it need not be: an
		 * interrupt between a load and a store of the word leaves
		 * it as it found it (it sets its own bit, unlock takes it
		 * off). Found set, the word is unchanged: the general case.
		 */
		if (likely(!__test_and_set_bit(RB_CTX_NORMAL, &cpu_buffer->current_context)))
			return false;
		return rb_recursive_lock_bit(cpu_buffer, cpu_buffer->current_context,
					     RB_CTX_NORMAL);
	}
	return rb_recursive_lock_bit(cpu_buffer, cpu_buffer->current_context,
				     RB_CTX_NORMAL - interrupt_context_level());
}

static __always_inline void rb_recursive_unlock(struct rb_cpu_buffer *cpu_buffer)
{
	cpu_buffer->current_context &= cpu_buffer->current_context - 1;
}

/*
 * What a slow reservation hands back: the event, or for rbt_reserve()
 * (@data) its payload, past a time extend or absolute stamp in front.
 * On failure it also undoes the recursion guard and preemption, so that
 * the fast path returns what it gets without a test of its own.
 */
static __always_inline void *rb_reserve_ret(struct rb_cpu_buffer *cpu_buffer,
					    struct rbt_event *event, bool data)
{
	if (unlikely(!event)) {
		rb_recursive_unlock(cpu_buffer);
		preempt_enable_notrace();
		return NULL;
	}
	return data ? rbt_event_data(event) : event;
}

/*
 * Slow exit S1, before step B (nothing written yet): absolute mode,
 * validation, the first event of a page, stamps that disagree, a delta
 * over 27 bits or a clock that went back. The general path starts again
 * from A. Called with the commit started; a NULL has given back the
 * commit, the recursion guard and preemption (rb_reserve_ret()).
 */
static noinline notrace void *
rb_reserve_slow(struct rb_cpu_buffer *cpu_buffer, unsigned long length,
		bool data)
{
	struct rb_event_info info;
	int add_ts_default = RB_ADD_STAMP_NONE;

	info.length = rb_calculate_event_length(length);
	if (unlikely(READ_ONCE(cpu_buffer->buffer->time_stamp_abs))) {
		add_ts_default = RB_ADD_STAMP_ABSOLUTE;
		info.length += RB_LEN_TIME_STAMP;
		if (info.length > cpu_buffer->buffer->subbuf_size) {
			local_inc(&cpu_buffer->too_big);
			rb_end_commit(cpu_buffer);
			return rb_reserve_ret(cpu_buffer, NULL, data);
		}
	}
	rb_info_start(&info, add_ts_default);
	return rb_reserve_ret(cpu_buffer, rb_reserve_retry(cpu_buffer, &info,
					       __rb_reserve_next(cpu_buffer, &info),
					       add_ts_default), data);
}

/*
 * Slow exit S2, after step C: the reservation crossed the end of the page,
 * or something reserved between A and C (tail != w). The fast path's
 * state is what rb_ts_read_stamps() would have left (before == after, a
 * delta that fits, no stamp in front): the general path goes on from C.
 * A NULL has given everything back, as from S1.
 */
static noinline notrace void *
rb_reserve_after_c(struct rb_cpu_buffer *cpu_buffer, struct rb_page *tail_page,
		   u64 ts, u64 after, unsigned long w, unsigned long write,
		   unsigned long length, bool data)
{
	struct rb_event_info info = {
		.ts		= ts,
		.delta		= ts - after,
		.before		= after,
		.after		= after,
		.length		= length,
		.tail_page	= tail_page,
		.add_timestamp	= RB_ADD_STAMP_NONE,
		.ts_lost	= false,
	};

	return rb_reserve_ret(cpu_buffer, rb_reserve_retry(cpu_buffer, &info,
					       rb_reserve_finish(cpu_buffer, &info, w,
								 write - length, write),
					       RB_ADD_STAMP_NONE), data);
}

/*
 * The fast path of a reservation: one straight line for the common case,
 * a writer that is not nested into a time update, on a page it does not
 * fill, not first on it, with a delta of 27 bits. These are steps A to D
 * of rb_timestamp.h with the branches the common case takes; the state
 * lives in registers (no struct rb_event_info). Everything else leaves
 * through S1 (before anything is written) or S2 (after C) into the
 * general path, which then does exactly what it would have done.
 *
 *  T  ts = clock, before A (a writer that nests between T and A ends
 *     with a write_stamp at or after ts: the S1 test catches "after")
 *  A  w = write index; before, after = the stamps
 *     S1 unless w != 0, before == after, ts - after fits 27 bits
 *  B  before_stamp = ts
 *  C  write = local_add_return(len); tail = write - len
 *     S2 unless tail == w (nothing reserved since A) and the page holds it
 *  D  write_stamp = ts: the event's delta is ts - after, exact
 *  H  the header (one store), the page's entries, the CPU's bytes
 *
 * No cmpxchg, and only local operations: NMI-safe as the general path
 * is, and a nested writer at any point between two steps sees what it
 * would see in the general path (the windows of rbtrace.rst).
 */
static __always_inline void *
rb_reserve_fast(struct rb_cpu_buffer *cpu_buffer, unsigned long length,
		bool data)
{
	struct rbt_buffer *buffer = cpu_buffer->buffer;
	unsigned long wraw, w, old, write, tail;
	unsigned int len;
	struct rb_page *tail_page;
	struct rbt_event *event;
	u64 before, after, ts;

	rb_start_commit(cpu_buffer);
	/*
	 * The commit page cannot move under us from here. Absolute mode
	 * left earlier, by the refuse word; validation is a static key.
	 */
	if (static_branch_unlikely(&rb_validate_key))
		return rb_reserve_slow(cpu_buffer, length, data);

	/*
	 * The clock first, before A: only @cpu_buffer and @length live
	 * across the call (two saved registers, no spills). An interrupt
	 * that writes between this read and A leaves a write_stamp at or
	 * after @ts: equal, the two events share a stamp, in order; later
	 * (or a clock that went back), ts - after wraps and the delta test
	 * below sends us to S1, which reads the clock again after its own
	 * A. One that writes after A is seen at S2, as when the clock came
	 * after A.
	 */
	ts = rb_time_stamp(buffer);
	/* The clock before A's loads (the latch clock is inline). */
	barrier();
	/*
	 * Loaded again rather than kept across the clock call: one load
	 * instead of a saved register (it does not change under us).
	 */
	buffer = READ_ONCE(cpu_buffer->buffer);
	len = rb_calculate_event_length(length);
	/* Keep the compiler from re-reading tail_page below. */
	tail_page = READ_ONCE(cpu_buffer->tail_page);

	/*
	 * The whole write word, with the updater count in its high bits
	 * (RB_WRITE_INTCNT: page moves add to it, nothing takes it off):
	 * C compares it whole with what local_add_return() found.
	 */
 /*A*/	wraw = local_read(&tail_page->write);
	w = wraw & RB_WRITE_MASK;
	/* The index before the stamps: see rb_ts_read_stamps(). */
	barrier();
	before = local64_read(&cpu_buffer->before_stamp);
	after = local64_read(&cpu_buffer->write_stamp);
	barrier();
	if (unlikely(!w || before != after || rb_delta_too_big(ts - after)))
		return rb_reserve_slow(cpu_buffer, length, data);	/* S1 */
	rb_hook(buffer, RBT_HOOK_A);

 /*B*/	local64_set(&cpu_buffer->before_stamp, ts);
	rb_hook(buffer, RBT_HOOK_B);

	/*
	 * The word found is the one A read: nothing reserved and no page
	 * moved since A (a move adds to the count), so the event starts
	 * at w. Anything else: S2, with the index that was found.
	 */
 /*C*/	old = local_add_return(len, &tail_page->write) - len;
	tail = w;
	write = w + len;
	rb_hook(buffer, RBT_HOOK_C);
	if (unlikely(old != wraw || write > buffer->subbuf_size))
		return rb_reserve_after_c(cpu_buffer, tail_page, ts, after, w,
					  (old + len) & RB_WRITE_MASK,
					  len, data);	/* S2 */

 /*D*/	local64_set(&cpu_buffer->write_stamp, ts);
	rb_hook(buffer, RBT_HOOK_D);

 /*H*/	event = rb_page_index(tail_page, tail);
	local_inc(&tail_page->entries);
	local_add(len, &cpu_buffer->entries_bytes);
	/* The header decides where the payload starts: no re-read of it. */
	if (len - RB_EVNT_HDR_SIZE > RB_MAX_SMALL_DATA) {
		rb_event_set_header(event, RB_TYPE_DATA_LONG, ts - after);
		event->array[0] = len - RB_EVNT_HDR_SIZE;
		return data ? (void *)&event->array[1] : event;
	}
	rb_event_set_header(event, (len - RB_EVNT_HDR_SIZE) / RB_ALIGNMENT,
			    ts - after);
	return data ? (void *)&event->array[0] : event;
}

/*
 * The checks of a reservation after the refuse word, up to the reserve
 * itself (the fast one, or in absolute mode the slow one).
 */
static __always_inline void *rb_lock_reserve_cpu(struct rb_cpu_buffer *cpu_buffer,
						 unsigned long length, bool data,
						 bool slow)
{
	if (unlikely(rb_recursive_lock(cpu_buffer)))
		goto out;
	/*
	 * 1 to max_data_size in one compare: 0 wraps to ULONG_MAX. After
	 * the guard: the buffer loaded here is the one the clock test
	 * uses (the guard's bit operation makes the compiler load again).
	 */
	if (unlikely(length - 1 >= cpu_buffer->buffer->max_data_size)) {
		local_inc(&cpu_buffer->too_big);
		rb_recursive_unlock(cpu_buffer);
		goto out;
	}

	/* A NULL from here has undone the guard (rb_reserve_ret()). */
	if (slow) {
		rb_start_commit(cpu_buffer);
		return rb_reserve_slow(cpu_buffer, length, data);
	}
	return rb_reserve_fast(cpu_buffer, length, data);
out:
	preempt_enable_notrace();
	return NULL;
}

/*
 * The refuse word was not zero: refuse, unless all it says is absolute
 * mode, which takes the slow reservation (it stamps every event).
 */
static noinline notrace void *rb_lock_reserve_refused(struct rb_cpu_buffer *cpu_buffer,
						      unsigned long length, bool data,
						      unsigned int refuse)
{
	if (refuse != RB_REFUSE_ABS) {
		preempt_enable_notrace();
		return NULL;
	}
	return rb_lock_reserve_cpu(cpu_buffer, length, data, true);
}

/*
 * Every reservation: rbt_lock_reserve() returns the event (@data false),
 * rbt_reserve() and rbt_write() its payload (@data true), each with the
 * fast path inlined. *@cpup: this CPU's buffer, for rbt_write()'s commit.
 */
static __always_inline void *rb_lock_reserve(struct rbt_buffer *buffer,
					     unsigned long length, bool data,
					     struct rb_cpu_buffer **cpup)
{
	struct rb_cpu_buffer *cpu_buffer;
	unsigned int refuse;

	preempt_disable_notrace();

	/* Every possible CPU has a ring (rbt_alloc()): no mask to test. */
	cpu_buffer = buffer->buffers[raw_smp_processor_id()];
	*cpup = cpu_buffer;
	/*
	 * One load for recording off (buffer or CPU), a broken ring,
	 * absolute mode (RB_REFUSE_ABS). Acquire: the sizes read below are
	 * those rbt_set_subbuf_order() set before it let writers back (its
	 * smp_mb__before_atomic() before rb_refuse_all(buffer, -1)).
	 */
	refuse = atomic_read_acquire(&cpu_buffer->refuse);
	if (unlikely(refuse))
		return rb_lock_reserve_refused(cpu_buffer, length, data, refuse);
	return rb_lock_reserve_cpu(cpu_buffer, length, data, false);
}

/**
 * rbt_lock_reserve - reserve room for an event on this CPU's buffer
 * @buffer: the buffer
 * @length: payload bytes, 1 to rbt_max_event_size()
 *
 * Preemption is disabled until the matching rbt_unlock_commit() or
 * rbt_discard_commit(), which must be called on the same CPU, with no
 * sleeping in between. Callable from any context, NMI included.
 *
 * Return: the event (fill it through rbt_event_data()), or NULL when
 * recording is off, the length is refused, the call recursed, or the
 * buffer is full in producer/consumer mode. If NULL is returned, nothing
 * was reserved and nothing must be committed.
 */
notrace struct rbt_event *rbt_lock_reserve(struct rbt_buffer *buffer,
					   unsigned long length)
{
	struct rb_cpu_buffer *cpu_buffer;

	return rb_lock_reserve(buffer, length, false, &cpu_buffer);
}
EXPORT_SYMBOL_GPL(rbt_lock_reserve);

/**
 * rbt_reserve - reserve room for an event, return where its payload goes
 * @buffer: the buffer
 * @length: payload bytes, 1 to rbt_max_event_size()
 *
 * rbt_lock_reserve() and rbt_event_data() in one: the fast path knows
 * where the payload starts from the header it wrote, so the caller does
 * not read the header back. Commit with rbt_unlock_commit(), with the
 * same rules as rbt_lock_reserve(); an event that may have to be
 * discarded needs rbt_lock_reserve() (rbt_discard_commit() takes the
 * event).
 *
 * Return: the payload, @length bytes to fill, or NULL as for
 * rbt_lock_reserve() (nothing reserved, nothing to commit).
 */
notrace void *rbt_reserve(struct rbt_buffer *buffer, unsigned long length)
{
	struct rb_cpu_buffer *cpu_buffer;

	return rb_lock_reserve(buffer, length, true, &cpu_buffer);
}
EXPORT_SYMBOL_GPL(rbt_reserve);

/*
 * Wake readers that said they wait (rb_wait.c). Waking is not NMI-safe;
 * irq_work is. This is step W2 of rb_wait.c's handshake: no barrier
 * orders our commit (W1) before the flag reads, so a reader that sets
 * its flag just as we read it may be missed: rbt_wait() looks again
 * within RB_WAIT_RECHECK; a poller is woken by the next event on this
 * CPU (or rbt_wake_waiters()), as in ftrace.
 */
static __always_inline void rb_wakeups(struct rbt_buffer *buffer,
				       struct rb_cpu_buffer *cpu_buffer)
{
	if (unlikely(READ_ONCE(buffer->wq.waiters_pending))) {
		WRITE_ONCE(buffer->wq.waiters_pending, false);
		irq_work_queue(&buffer->wq.work);
	}
	/* The CPU's two flags in one load: one test when neither is set. */
	if (likely(!READ_ONCE(cpu_buffer->wq.any_pending)))
		return;
	if (READ_ONCE(cpu_buffer->wq.waiters_pending)) {
		WRITE_ONCE(cpu_buffer->wq.waiters_pending, false);
		irq_work_queue(&cpu_buffer->wq.work);
	}
	/* Readers waiting for a fill level: check once per page filled. */
	if (READ_ONCE(cpu_buffer->wq.full_waiters_pending) &&
	    local_read(&cpu_buffer->pages_touched) != cpu_buffer->last_pages_touch) {
		cpu_buffer->last_pages_touch = local_read(&cpu_buffer->pages_touched);
		WRITE_ONCE(cpu_buffer->wq.full_waiters_pending, false);
		irq_work_queue(&cpu_buffer->wq.work);
	}
}

/*
 * The rest of a commit that left the fast path: the publish it left
 * (@left), the wakeups, the recursion guard and preemption, in the order
 * of the fast path.
 */
static noinline notrace void rb_unlock_commit_slow(struct rbt_buffer *buffer,
						   struct rb_cpu_buffer *cpu_buffer,
						   enum rb_commit_left left)
{
	if (left == RB_COMMIT_GENERAL)
		rb_end_commit(cpu_buffer);
	else if (left == RB_COMMIT_AGAIN)
		rb_end_commit_again(cpu_buffer);
	rb_wakeups(buffer, cpu_buffer);
	rb_recursive_unlock(cpu_buffer);
	preempt_enable_notrace();
}

/*
 * The commit of rbt_unlock_commit() and rbt_write(), on this CPU's buffer.
 * Anything but a publish by the fast commit with no reader waiting ends
 * in rb_unlock_commit_slow(), a tail call.
 */
static __always_inline void rb_unlock_commit(struct rbt_buffer *buffer,
					     struct rb_cpu_buffer *cpu_buffer)
{
	enum rb_commit_left left;

	local_inc(&cpu_buffer->entries);
	left = rb_end_commit_fast(cpu_buffer);
	if (unlikely(left != RB_COMMIT_DONE)) {
		rb_unlock_commit_slow(buffer, cpu_buffer, left);
		return;
	}
	/* The waiter flags: the buffer's, the CPU's two in one load. */
	if (unlikely(READ_ONCE(buffer->wq.waiters_pending) ||
		     READ_ONCE(cpu_buffer->wq.any_pending))) {
		rb_unlock_commit_slow(buffer, cpu_buffer, RB_COMMIT_DONE);
		return;
	}
	rb_recursive_unlock(cpu_buffer);
	preempt_enable_notrace();
}

/**
 * rbt_unlock_commit - commit the event reserved by rbt_lock_reserve()
 * @buffer: the buffer it was reserved on
 *
 * Makes the event visible to readers (once the outermost writer on this
 * CPU commits) and re-enables preemption.
 *
 * Return: 0.
 */
notrace int rbt_unlock_commit(struct rbt_buffer *buffer)
{
	rb_unlock_commit(buffer, buffer->buffers[raw_smp_processor_id()]);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_unlock_commit);

/*
 * The discarded event is the last thing on the tail page: give its space
 * back with one cmpxchg on write. Returns true if the space was reclaimed.
 */
static bool rb_try_to_discard(struct rb_cpu_buffer *cpu_buffer,
			      struct rbt_event *event)
{
	unsigned long new_index = rb_event_index(cpu_buffer, event);
	unsigned long old_index = new_index + rb_event_ts_length(event);
	unsigned long addr = (unsigned long)event;
	struct rb_page *bpage = READ_ONCE(cpu_buffer->tail_page);
	unsigned long write_mask;

	addr &= ~((PAGE_SIZE << cpu_buffer->buffer->subbuf_order) - 1);
	if (bpage->page != (void *)addr || rb_page_write(bpage) != old_index)
		return false;

	/*
	 * write_stamp is our stamp, and will be wrong once we are gone.
	 * Zeroing before_stamp makes it differ from write_stamp, so the
	 * next event takes an absolute stamp instead of a delta from us
	 * (the event before us keeps its own, correct, stamp).
	 */
	local64_set(&cpu_buffer->before_stamp, 0);

	write_mask = local_read(&bpage->write) & ~RB_WRITE_MASK;
	old_index += write_mask;
	new_index += write_mask;
	/*
	 * Success: the space is free again. Failure: an interrupt reserved
	 * after us (or the tail moved on) since the check above, so we are
	 * not last any more; the caller has already made us padding.
	 */
	if (local_cmpxchg(&bpage->write, old_index, new_index) == old_index) {
		local_sub(old_index - new_index, &cpu_buffer->entries_bytes);
		return true;
	}
	return false;
}

/* Turn a reserved event into padding that readers skip (delta 1: not null). */
/*
 * Padding with delta 0 would read as null padding ("the page ends here"),
 * so a discarded event with delta 0 gets delta 1. To keep the stamps of
 * the events after it exact, the 1 is taken from what is in front: the
 * time extend or absolute stamp before it, or the page's stamp when it
 * is the first event of its page. (A page's stamp is not yet visible to
 * readers: nothing before the event is on the page.) An event with delta
 * 0 in the middle of a page (ts_lost) keeps a 1 ns error.
 */
static void rb_event_discard(struct rb_cpu_buffer *cpu_buffer,
			     struct rbt_event *event)
{
	struct rbt_event *data = rb_event_skip_stamp(event);
	u64 stamp;

	data->array[0] = rb_event_length(data) - RB_EVNT_HDR_SIZE;
	data->type_len = RB_TYPE_PADDING;
	if (data->time_delta)
		return;
	data->time_delta = 1;
	if (data != event) {
		stamp = rb_event_time_stamp(event);
		if (stamp) {
			event->time_delta = (stamp - 1) & RB_TS_MASK;
			event->array[0] = (stamp - 1) >> RB_TS_SHIFT;
		}
	} else if (rb_event_index(cpu_buffer, event) == 0) {
		struct rb_data_page *page = (void *)((unsigned long)event - RB_PAGE_HDR_SIZE);

		page->time_stamp--;
	}
}

/*
 * Undo the page's entry count for a discarded event. The event is on one
 * of the pages from commit to tail (it is not committed yet). The commit
 * page may be the reader page, which is not in the ring: check it first,
 * then walk the ring, which a walk from the reader page never returns to.
 */
static void rb_decrement_entry(struct rb_cpu_buffer *cpu_buffer,
			       struct rbt_event *event)
{
	unsigned long addr = (unsigned long)event;
	struct rb_page *bpage = cpu_buffer->commit_page;
	struct rb_page *start;

	addr &= ~((PAGE_SIZE << cpu_buffer->buffer->subbuf_order) - 1);
	if (likely((unsigned long)bpage->page == addr)) {
		local_dec(&bpage->entries);
		return;
	}
	rb_inc_page(&bpage);
	start = bpage;
	do {
		if ((unsigned long)bpage->page == addr) {
			local_dec(&bpage->entries);
			return;
		}
		rb_inc_page(&bpage);
	} while (bpage != start);
	RB_WARN_ON(cpu_buffer, 1);
}

/**
 * rbt_discard_commit - drop an event reserved by rbt_lock_reserve()
 * @buffer: the buffer it was reserved on
 * @event: the event
 *
 * Use instead of rbt_unlock_commit(), never with it. If the event is still
 * the last one on the tail page its space is reclaimed; otherwise it turns
 * into padding that readers skip. Events before it are never touched.
 */
notrace void rbt_discard_commit(struct rbt_buffer *buffer, struct rbt_event *event)
{
	struct rb_cpu_buffer *cpu_buffer = buffer->buffers[raw_smp_processor_id()];

	/* Padding first: if the reclaim fails, readers must skip it. */
	rb_event_discard(cpu_buffer, event);
	rb_decrement_entry(cpu_buffer, event);
	local_inc(&cpu_buffer->discarded);
	if (rb_try_to_discard(cpu_buffer, event))
		local_inc(&cpu_buffer->reclaimed);
	rb_end_commit(cpu_buffer);
	rb_recursive_unlock(cpu_buffer);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(rbt_discard_commit);

/**
 * rbt_discard - drop an event reserved by rbt_reserve()
 * @buffer: the buffer it was reserved on
 * @payload: what rbt_reserve() returned
 * @length: the length given to rbt_reserve()
 *
 * rbt_discard_commit() for a caller that holds the payload: the header
 * is found from the length, as the reservation laid it out (a payload
 * over RB_MAX_SMALL_DATA keeps its length in the word before it). The
 * same rules: instead of rbt_unlock_commit(), on the same CPU.
 */
notrace void rbt_discard(struct rbt_buffer *buffer, void *payload, unsigned long length)
{
	unsigned int hdr = RB_EVNT_HDR_SIZE;

	if (length > RB_MAX_SMALL_DATA)
		hdr += sizeof(u32);
	rbt_discard_commit(buffer, payload - hdr);
}
EXPORT_SYMBOL_GPL(rbt_discard);

/**
 * rbt_write - reserve, copy and commit one event
 * @buffer: the buffer
 * @length: payload bytes
 * @data: the payload
 *
 * Return: 0, or -EBUSY when the event was not recorded (recording off,
 * length refused, recursion, or full in producer/consumer mode).
 */
notrace int rbt_write(struct rbt_buffer *buffer, unsigned long length,
		      const void *data)
{
	struct rb_cpu_buffer *cpu_buffer;
	void *payload;

	/* One call: the reserve and commit fast paths inlined, one lookup. */
	payload = rb_lock_reserve(buffer, length, true, &cpu_buffer);
	if (!payload)
		return -EBUSY;
	memcpy(payload, data, length);
	rb_unlock_commit(buffer, cpu_buffer);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_write);
