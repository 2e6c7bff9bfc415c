// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace iterator: reads a CPU's ring without consuming it, while the
 * writer goes on writing (the `trace` file).
 *
 * The iterator walks the pages in place: the reader page, then from the
 * head to the commit page. A writer in overwrite mode may come round and
 * rewrite the page the iterator is on. So every event is copied out, and
 * the copy is trusted only if the page is still the same one afterwards:
 * its time stamp unchanged and its commit not moved back. If not, the
 * iterator restarts at the beginning of that page (the oldest data there
 * now) and reports that it was overrun (rbt_iter_dropped()).
 *
 * Consuming reads and resets are noticed through counters cached at the
 * last reset of the iterator; resizing is refused while iterators exist.
 *
 * Not in NMI: every call here takes reader_lock, which the context an NMI
 * interrupted may hold on that CPU, and rbt_iter_start() allocates. As in
 * ftrace, whose iterators take the lock unconditionally, the iterator is
 * for process context; unlike ftrace, an NMI is refused at once (no event,
 * "empty", nothing done) rather than left to spin for ever. An NMI that
 * must read a CPU (a crash dump) uses rbt_consume(), which tries the lock.
 */
#include <linux/hardirq.h>
#include <linux/slab.h>
#include "rb_internal.h"

/**
 * struct rbt_iter - a non-consuming reader of one CPU
 * @cpu_buffer: the CPU's ring
 * @head_page: the page being read
 * @head: index of the current event in it
 * @next_event: index of the event after it, once copied
 * @read_stamp: stamp of the current event
 * @page_stamp: time stamp the page had when we entered it
 * @page_seq: generation the page had when we entered it (rb_page.seq)
 * @cache_reader_page: the reader page at the last reset
 * @cache_read: events consumed at the last reset
 * @cache_reset_seq: resets at the last reset
 * @cache_overrun: events overwritten at the last reset
 * @missed_events: the writer overran us since rbt_iter_dropped()
 * @event: the copy of the current event
 * @event_size: its capacity (a sub-buffer)
 */
struct rbt_iter {
	struct rb_cpu_buffer	*cpu_buffer;
	struct rb_page		*head_page;
	unsigned long		head;
	unsigned long		next_event;
	u64			read_stamp;
	u64			page_stamp;
	unsigned long		page_seq;
	struct rb_page		*cache_reader_page;
	unsigned long		cache_read;
	unsigned long		cache_reset_seq;
	unsigned long		cache_overrun;
	bool			missed_events;
	struct rbt_event	*event;
	unsigned int		event_size;
};

static void rb_iter_reset(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;

	iter->head_page = cpu_buffer->reader_page;
	iter->head = cpu_buffer->reader_page->read;
	iter->next_event = iter->head;
	iter->cache_reader_page = iter->head_page;
	iter->cache_read = cpu_buffer->read;
	iter->cache_reset_seq = cpu_buffer->reset_seq;
	iter->cache_overrun = local_read(&cpu_buffer->overrun);
	iter->page_seq = READ_ONCE(iter->head_page->seq);
	if (iter->head) {
		iter->read_stamp = cpu_buffer->read_stamp;
		iter->page_stamp = cpu_buffer->reader_page->page->time_stamp;
	} else {
		iter->read_stamp = iter->head_page->page->time_stamp;
		iter->page_stamp = iter->read_stamp;
	}
}

/*
 * Move to the next page: from the reader page, that is the head.
 *
 * In overwrite mode the writer may have come round to the next page
 * while we read this one: it then holds a later lap, and what it held
 * after ours is lost to us (ftrace's rb_inc_iter() moves on without a
 * word). Said through missed_events (rbt_iter_dropped()):
 *  - from the reader page, any event overwritten since the reset was
 *    ahead of us: the overrun count moved;
 *  - from a page of the ring, its generation changed since we came onto
 *    it: the tail came round onto it, reset its commit, and the rest of
 *    the lap we were reading is gone (we are here because our place is
 *    past the new, smaller commit). If we had read that lap to its end,
 *    nothing was lost and the report is one too many: rbtrace cannot
 *    tell, and says "lost" rather than hide a loss;
 *  - the next page's generation is not ours + 1: the tail came onto it
 *    again after it came onto ours.
 * A lap that reaches our page while we are inside it is seen by the
 * re-check after each copy (rb_iter_head_event()).
 */
static void rb_inc_iter(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	unsigned long seq = iter->page_seq;

	if (iter->head_page == cpu_buffer->reader_page) {
		iter->head_page = rb_set_head_page(cpu_buffer) ?: iter->head_page;
		if (local_read(&cpu_buffer->overrun) != iter->cache_overrun)
			iter->missed_events = true;
		iter->page_seq = READ_ONCE(iter->head_page->seq);
	} else {
		if (READ_ONCE(iter->head_page->seq) != seq)
			iter->missed_events = true;
		rb_inc_page(&iter->head_page);
		iter->page_seq = READ_ONCE(iter->head_page->seq);
		if ((long)(iter->page_seq - seq) > 1)
			iter->missed_events = true;
	}
	iter->page_stamp = iter->head_page->page->time_stamp;
	iter->read_stamp = iter->page_stamp;
	iter->head = 0;
	iter->next_event = 0;
}

/* Restart at the start of the page: the writer rewrote it under us. */
static struct rbt_event *rb_iter_overrun(struct rbt_iter *iter)
{
	iter->page_seq = READ_ONCE(iter->head_page->seq);
	iter->page_stamp = iter->head_page->page->time_stamp;
	iter->read_stamp = iter->page_stamp;
	iter->head = 0;
	iter->next_event = 0;
	iter->missed_events = true;
	return NULL;
}

/* Copy the event at head, or NULL if the writer overran the page. */
static struct rbt_event *rb_iter_head_event(struct rbt_iter *iter)
{
	struct rb_page *page = iter->head_page;
	struct rbt_event *event;
	unsigned long commit;
	unsigned int length;

	if (iter->head != iter->next_event)
		return iter->event;

	commit = rb_page_commit(page);
	/*
	 * commit before the event: pairs with the smp_wmb() before the
	 * writer publishes commit (rb_set_commit_to_write()).
	 */
	smp_rmb();
	if (iter->head + RB_EVNT_MIN_SIZE > commit)
		return rb_iter_overrun(iter);

	event = rb_page_index(page, iter->head);
	length = rb_event_length(event);
	/* The length must be read once: the writer may change it. */
	barrier();
	if (iter->head + length > commit || length > iter->event_size)
		return rb_iter_overrun(iter);
	memcpy(iter->event, event, length);
	/*
	 * Copy before the re-check: pairs with the writer's cmpxchg of
	 * tail_page (a full barrier) before it reuses the page and resets
	 * its time stamp (rb_tail_page_update(), __rb_reserve_next()).
	 */
	smp_rmb();
	if (iter->page_stamp != READ_ONCE(page->page->time_stamp) ||
	    iter->page_seq != READ_ONCE(page->seq) || commit > rb_page_commit(page))
		return rb_iter_overrun(iter);

	iter->next_event = iter->head + length;
	return iter->event;
}

static void rb_advance_iter(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;

	if (iter->head == iter->next_event && !rb_iter_head_event(iter))
		return;
	iter->head = iter->next_event;
	if (iter->next_event >= rb_page_size(iter->head_page)) {
		/* Discarded events can leave the commit page "read". */
		if (iter->head_page == READ_ONCE(cpu_buffer->commit_page))
			return;
		rb_inc_iter(iter);
		return;
	}
	iter->read_stamp = rb_event_next_ts(iter->read_stamp, iter->event);
}

static bool rb_iter_empty(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	struct rb_page *reader = cpu_buffer->reader_page;
	struct rb_page *head = cpu_buffer->head_page;
	struct rb_page *commit_page = READ_ONCE(cpu_buffer->commit_page);
	u64 commit_ts = READ_ONCE(commit_page->page->time_stamp);
	unsigned long commit;

	/* Pairs with the writer's cmpxchg when it crosses pages. */
	smp_rmb();
	commit = rb_page_commit(commit_page);
	/* commit before re-reading commit_page: same pairing. */
	smp_rmb();
	/* The commit page moved on: there is more. */
	if (READ_ONCE(cpu_buffer->commit_page) != commit_page ||
	    READ_ONCE(commit_page->page->time_stamp) != commit_ts)
		return false;
	/*
	 * At the end when at the commit, on the page as it was when the
	 * iterator came onto it: if its stamp changed, the writer came round
	 * and rewrote it (it is the commit page again, its commit perhaps
	 * below our place), and what it holds now is unread. ftrace's
	 * ring_buffer_iter_empty() takes that for the end ("a false
	 * positive"): a `trace` read lapped by its writer stopped short.
	 */
	return (iter->head_page == commit_page && iter->page_stamp == commit_ts &&
		iter->head >= commit) ||
		(iter->head_page == reader && commit_page == head &&
		 head->read == commit && iter->head == rb_page_size(reader));
}

static bool rb_iter_stale(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;

	return iter->cache_read != cpu_buffer->read ||
		iter->cache_reader_page != cpu_buffer->reader_page ||
		iter->cache_reset_seq != cpu_buffer->reset_seq;
}

/* The next data event or padding; stamps and extends are consumed. */
static struct rbt_event *rb_iter_peek(struct rbt_iter *iter, u64 *ts)
{
	struct rbt_event *event;
	int nr_loops = 0;

	if (ts)
		*ts = 0;
	if (rb_iter_stale(iter))
		rb_iter_reset(iter);
again:
	if (rb_iter_empty(iter))
		return NULL;
	/*
	 * A writer can keep rewriting what we try to read: give up after
	 * RB_MAX_PEEK_LOOPS tries, silently; the caller may come back.
	 */
	if (++nr_loops > RB_MAX_PEEK_LOOPS)
		return NULL;
	if (rb_per_cpu_empty(iter->cpu_buffer))
		return NULL;
	if (iter->head >= rb_page_size(iter->head_page)) {
		rb_inc_iter(iter);
		goto again;
	}
	event = rb_iter_head_event(iter);
	if (!event)
		goto again;

	switch (event->type_len) {
	case RB_TYPE_PADDING:
		if (rb_null_event(event)) {
			rb_inc_iter(iter);
			goto again;
		}
		rb_advance_iter(iter);
		return event;
	case RB_TYPE_TIME_EXTEND:
	case RB_TYPE_TIME_STAMP:
		rb_advance_iter(iter);
		goto again;
	default:
		if (ts)
			*ts = iter->read_stamp + event->time_delta;
		return event;
	}
}

/**
 * rbt_iter_start - start reading a CPU's ring without consuming it
 * @buffer: the buffer
 * @cpu: the CPU
 * @gfp: allocation flags
 *
 * The CPU's ring cannot be resized until rbt_iter_finish().
 *
 * Return: the iterator, or NULL for a bad CPU, no memory, a change of
 * the sub-buffer size under way, or when called in NMI.
 */
struct rbt_iter *rbt_iter_start(struct rbt_buffer *buffer, int cpu, gfp_t gfp)
{
	struct rb_cpu_buffer *cpu_buffer;
	struct rbt_iter *iter;
	unsigned long flags;
	int tries = 0;

	if (in_nmi() || !rb_valid_cpu(buffer, cpu))
		return NULL;
	iter = kzalloc(sizeof(*iter), gfp);
	if (!iter)
		return NULL;
	cpu_buffer = buffer->buffers[cpu];
	iter->cpu_buffer = cpu_buffer;
again:
	/*
	 * The copy of an event holds a sub-buffer. The size is read here,
	 * outside the lock (kmalloc() may sleep), and checked again below.
	 */
	iter->event_size = READ_ONCE(buffer->subbuf_size);
	iter->event = kmalloc(iter->event_size, gfp);
	if (!iter->event) {
		kfree(iter);
		return NULL;
	}
	rb_hook(buffer, RBT_HOOK_ITER_START);
	/*
	 * Counted under reader_lock: a resize checks the count again under
	 * it before it frees pages (rb_resize_cpu()), so either it sees us
	 * and backs off, or it is done before we look at a page.
	 */
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	/*
	 * Not while the sub-buffer size changes (rbt_set_subbuf_order()).
	 * Acquire: pairs with the release of resizing there, so that a
	 * change seen finished is seen with its new size below.
	 */
	if (atomic_read_acquire(&buffer->resizing)) {
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		kfree(iter->event);
		kfree(iter);
		return NULL;
	}
	/*
	 * A whole change of size may have run between the read above and
	 * the lock: a smaller copy would take every larger event for an
	 * overrun (rb_iter_head_event()), and the iterator would never show
	 * it. From here no change can start before we are counted (it checks
	 * for iterators under this lock), so the size is final: retry with
	 * it. Each retry follows a whole change; two are plenty.
	 */
	if (iter->event_size != READ_ONCE(buffer->subbuf_size)) {
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		kfree(iter->event);
		if (++tries <= 2)
			goto again;
		kfree(iter);
		return NULL;
	}
	atomic_inc(&cpu_buffer->iterators);
	rb_iter_reset(iter);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return iter;
}
EXPORT_SYMBOL_GPL(rbt_iter_start);

/**
 * rbt_iter_finish - end a non-consuming read
 * @iter: the iterator, or NULL
 *
 * Not in NMI (it frees memory), where no iterator can be started anyway.
 */
void rbt_iter_finish(struct rbt_iter *iter)
{
	if (!iter)
		return;
	atomic_dec(&iter->cpu_buffer->iterators);
	kfree(iter->event);
	kfree(iter);
}
EXPORT_SYMBOL_GPL(rbt_iter_finish);

/**
 * rbt_iter_peek - the event at the iterator, without moving it
 * @iter: the iterator
 * @ts: set to the event's time stamp (may be NULL)
 *
 * The event is a copy, valid until the next call on @iter.
 *
 * Return: the event, or NULL at the end (or when a writer kept
 * overrunning the iterator, rbt_iter_dropped() tells; or in NMI).
 */
struct rbt_event *rbt_iter_peek(struct rbt_iter *iter, u64 *ts)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	struct rbt_event *event;
	unsigned long flags;
	unsigned int paddings = 0;

	if (in_nmi())
		return NULL;
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	do {
		event = rb_iter_peek(iter, ts);
	} while (rb_skip_padding(&event, &paddings));
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return event;
}
EXPORT_SYMBOL_GPL(rbt_iter_peek);

/**
 * rbt_iter_advance - move the iterator past the current event
 * @iter: the iterator
 *
 * Does nothing in NMI.
 */
void rbt_iter_advance(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	unsigned long flags;

	if (in_nmi())
		return;
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	rb_advance_iter(iter);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
}
EXPORT_SYMBOL_GPL(rbt_iter_advance);

/**
 * rbt_iter_empty - is the iterator at the end of the data?
 * @iter: the iterator
 *
 * Return: true when no event is left to iterate (and in NMI).
 */
bool rbt_iter_empty(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	unsigned long flags;
	bool empty;

	if (in_nmi())
		return true;
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	empty = rb_iter_empty(iter);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return empty;
}
EXPORT_SYMBOL_GPL(rbt_iter_empty);

/**
 * rbt_iter_reset - go back to the oldest unread event
 * @iter: the iterator
 *
 * Does nothing in NMI.
 */
void rbt_iter_reset(struct rbt_iter *iter)
{
	struct rb_cpu_buffer *cpu_buffer = iter->cpu_buffer;
	unsigned long flags;

	if (in_nmi())
		return;
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	rb_iter_reset(iter);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
}
EXPORT_SYMBOL_GPL(rbt_iter_reset);

/**
 * rbt_iter_dropped - did a writer overrun the iterator since last asked?
 * @iter: the iterator
 *
 * Return: true once per overrun; events were lost from the iterator's
 * view (they may still have been read by nobody: overwritten).
 */
bool rbt_iter_dropped(struct rbt_iter *iter)
{
	bool ret = iter->missed_events;

	iter->missed_events = false;
	return ret;
}
EXPORT_SYMBOL_GPL(rbt_iter_dropped);
