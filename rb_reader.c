// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace reader: the reader page swap and consuming reads.
 *
 * A reader never reads the ring in place. It owns one spare page, the
 * reader page, outside the ring, and when that is used up it swaps it
 * with the head page: its spare goes into the ring where the head was,
 * and the old head, with the oldest data, becomes the reader page.
 *
 *	before:              +---+   +---+   +---+
 *	           ... -H->  | H | ->|   | ->|   | ...
 *	                     +---+   +---+   +---+
 *	           reader:   +---+
 *	                     | R |
 *	                     +---+
 *	after:               +---+   +---+   +---+
 *	           ... --->  | R | -H->  | ->|   | ...
 *	                     +---+   +---+   +---+
 *	           reader:   +---+
 *	                     | H |   (the oldest data, now private)
 *	                     +---+
 *
 * The swap is one cmpxchg on the flagged pointer to the head (see
 * rb_pages.c). Readers of one CPU are serialised by reader_lock, and a
 * writer never waits for a reader: a reader cannot preempt a writer, and
 * a writer pushing the head makes the reader's cmpxchg fail until done.
 */
#include <linux/delay.h>
#include <linux/sched.h>
#include "rb_internal.h"

/* Swap the head page in; return the reader page if it has data. */
static struct rb_page *rb_swap_reader_page(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *reader;
	unsigned long overrun;
	int nr_loops = 0;
	u64 deadline = 0;

again:
	/*
	 * Two laps at most: the first may swap in a page, the second returns
	 * it. A third happens when the swapped-in page turned out to be
	 * empty (it was the reader's own spare, put there by an earlier
	 * swap). More than that is a broken ring.
	 */
	if (RB_WARN_ON(cpu_buffer, ++nr_loops > RB_MAX_SWAP_LOOPS))
		return NULL;

	reader = cpu_buffer->reader_page;
	if (reader->read < rb_page_size(reader))
		return reader;
	if (RB_WARN_ON(cpu_buffer, reader->read > rb_page_size(reader)))
		return NULL;
	/* Caught up with the writer. */
	if (READ_ONCE(cpu_buffer->commit_page) == reader)
		return NULL;
	/*
	 * The writer may have published more on the reader page and then
	 * left it between our read of its size and of commit_page: look
	 * again, or those events would be wiped unread below. Pairs with
	 * the smp_wmb() between the commit store and the commit_page move
	 * in rb_commit_pages().
	 */
	smp_rmb();
	if (reader->read < rb_page_size(reader))
		return reader;
	if (rb_num_of_entries(cpu_buffer) == 0)
		return NULL;

	/*
	 * Empty our spare before it goes into the ring. read goes to 0 as
	 * well: if we give up below, the spare stays our reader page, read
	 * up (0 of 0) and consistent for the next attempt; its events were
	 * all read already.
	 */
	local_set(&reader->write, 0);
	local_set(&reader->entries, 0);
	local_set(&reader->page->commit, 0);
	reader->real_end = 0;
	reader->read = 0;

spin:
	reader = rb_set_head_page(cpu_buffer);
	if (!reader)
		return NULL;
	cpu_buffer->reader_page->list.next = rb_list_head(reader->list.next);
	cpu_buffer->reader_page->list.prev = reader->list.prev;
	/* pages must not point at the page that leaves the ring. */
	cpu_buffer->pages = reader->list.prev;
	/* The spare's next pointer is the new pointer to the head. */
	rb_set_list_to_head(&cpu_buffer->reader_page->list);

	/*
	 * Read overrun only after the links above are set: the writer's
	 * cmpxchg when it pushes the head is a full barrier, and our swap
	 * fails while a push is under way, so the overrun read here is the
	 * one that matches the page we take. Pairs with that cmpxchg in
	 * rb_handle_head_page().
	 */
	smp_mb();
	overrun = local_read(&cpu_buffer->overrun);

	/*
	 * The swap: cmpxchg HEAD -> our spare on the pointer to the head.
	 * Its outcomes:
	 *  HEAD   - swapped: the head page is ours, our spare in the ring.
	 *  UPDATE - a writer is pushing the head: wait for it, within
	 *           rb_reader_may_wait()'s bound, then give up this read.
	 *  NORMAL - a writer pushed the head past it (its events are
	 *  moved    overrun): find the head again and retry, same bound.
	 * Giving up leaves the ring as it was: nothing points to our spare,
	 * whose own links are rewritten by the next attempt.
	 */
	if (!rb_head_page_replace(reader, cpu_buffer->reader_page)) {
		if (!rb_reader_may_wait(cpu_buffer, &deadline))
			return NULL;
		cpu_relax();
		goto spin;
	}

	/* Our spare is in: point the new head back at it. */
	rb_list_head(reader->list.next)->prev = &cpu_buffer->reader_page->list;
	rb_inc_page(&cpu_buffer->head_page);
	local_inc(&cpu_buffer->pages_read);

	cpu_buffer->reader_page = reader;
	reader->read = 0;
	if (cpu_buffer->range_cpu)
		rb_range_note_reader(cpu_buffer);
	if (overrun != cpu_buffer->last_overrun) {
		cpu_buffer->lost_events = overrun - cpu_buffer->last_overrun;
		cpu_buffer->last_overrun = overrun;
	}
	goto again;
}

/**
 * rb_get_reader_page - the reader page, swapped in if needed, or NULL
 * @cpu_buffer: the per-CPU buffer, reader_lock held
 */
struct rb_page *rb_get_reader_page(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned long bsize = cpu_buffer->buffer->subbuf_size;
	struct rb_page *reader;
	unsigned long flags;
	u64 deadline = 0;

	local_irq_save(flags);
	/*
	 * In NMI only try the swap lock: rbt_alloc_read_page() and
	 * rbt_free_read_page() hold it without reader_lock, so the task this
	 * NMI interrupted may hold it, and spinning would never end. The
	 * other holders hold reader_lock too, which an NMI reader has (it
	 * only tries that one as well, rb_reader_lock()). Failing, the NMI
	 * reader reads nothing this time.
	 */
	if (unlikely(in_nmi())) {
		if (!arch_spin_trylock(&cpu_buffer->lock)) {
			local_irq_restore(flags);
			return NULL;
		}
	} else {
		arch_spin_lock(&cpu_buffer->lock);
	}
	reader = rb_swap_reader_page(cpu_buffer);
	if (reader && reader->read == 0)
		cpu_buffer->read_stamp = reader->page->time_stamp;
	arch_spin_unlock(&cpu_buffer->lock);
	local_irq_restore(flags);

	/*
	 * A write index past the end means a writer crossing off this page
	 * has not yet set it back (rb_reset_tail()). It runs with preemption
	 * off on its CPU and is done within microseconds, unless held up:
	 * wait as for a head push (rb_reader_may_wait()), then give up this
	 * read. The page stays our reader page, its data unread, for the
	 * next one.
	 */
	while (reader && rb_page_write(reader) > bsize) {
		if (!rb_reader_may_wait(cpu_buffer, &deadline))
			return NULL;
		udelay(1);
		/* Re-read write: pairs with the smp_wmb() in rb_reset_tail(). */
		smp_rmb();
	}
	/*
	 * See the padding and the committed events: pairs with the smp_wmb()
	 * in rb_reset_tail() and in rb_set_commit_to_write().
	 */
	smp_rmb();
	return reader;
}

/**
 * rb_advance_reader - consume the event at the reader's position
 * @cpu_buffer: the per-CPU buffer, reader_lock held
 *
 * The caller found an event there: the reader page has data (read below
 * its commit, which only grows while reader_lock is held). Nothing is
 * swapped or waited for here, so a writer held up elsewhere cannot make
 * a step of a read fail halfway (rb_get_reader_page() may give up).
 */
void rb_advance_reader(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *reader = cpu_buffer->reader_page;
	struct rbt_event *event;
	unsigned int length;

	if (RB_WARN_ON(cpu_buffer, reader->read >= rb_page_size(reader)))
		return;
	/* The event after its commit: pairs with the writer's smp_wmb(). */
	smp_rmb();
	event = rb_reader_event(cpu_buffer);
	if (event->type_len <= RB_TYPE_DATA_MAX)
		cpu_buffer->read++;
	/* Readers keep read_stamp as the stamp of the event they are on. */
	cpu_buffer->read_stamp = rb_event_next_ts(cpu_buffer->read_stamp, event);
	length = rb_event_length(event);
	cpu_buffer->reader_page->read += length;
	cpu_buffer->read_bytes += length;
}

/*
 * The next data event with its stamp, or padding (the caller skips it
 * and retries, so a writer discarding everything cannot trap us here).
 */
static struct rbt_event *rb_buffer_peek(struct rb_cpu_buffer *cpu_buffer,
					u64 *ts, unsigned long *lost_events)
{
	struct rbt_event *event;
	int nr_loops = 0;

	if (ts)
		*ts = 0;
again:
	/* An absolute stamp or extend, then its event: RB_MAX_PEEK_LOOPS. */
	if (RB_WARN_ON(cpu_buffer, ++nr_loops > RB_MAX_PEEK_LOOPS))
		return NULL;
	if (!rb_get_reader_page(cpu_buffer))
		return NULL;

	event = rb_reader_event(cpu_buffer);
	switch (event->type_len) {
	case RB_TYPE_PADDING:
		RB_WARN_ON(cpu_buffer, rb_null_event(event));
		return event;
	case RB_TYPE_TIME_EXTEND:
	case RB_TYPE_TIME_STAMP:
		rb_advance_reader(cpu_buffer);
		goto again;
	default:
		if (ts)
			*ts = cpu_buffer->read_stamp + event->time_delta;
		if (lost_events)
			*lost_events = cpu_buffer->lost_events;
		return event;
	}
}

/*
 * Serialise with other readers. From NMI only a trylock: a reader must
 * not spin on a lock its own CPU holds. NMI readers are served, not
 * refused (a crash or watchdog dump reads from NMI, as ftrace_dump()
 * does), so every lock and wait on their path is a try: reader_lock
 * here, cpu_buffer->lock in rb_get_reader_page(), no waiting for writers
 * (rb_reader_may_wait()). A failed try reads as "no event".
 * A reader in an interrupt of the CPU whose ring it reads may interrupt
 * that CPU's writer in the middle of a page crossing or a head push; it
 * does not wait for a writer that cannot run before it returns, and
 * reads nothing this time.
 */
static bool rb_reader_lock(struct rb_cpu_buffer *cpu_buffer, unsigned long *flags)
{
	if (likely(!in_nmi())) {
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, *flags);
		return true;
	}
	/* The swap's cmpxchg() may take a lock there (rb_pages.c, port note). */
	if (!IS_ENABLED(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG))
		return false;
	return raw_spin_trylock_irqsave(&cpu_buffer->reader_lock, *flags);
}

static struct rbt_event *rb_read_one(struct rbt_buffer *buffer, int cpu, u64 *ts,
				     unsigned long *lost_events, bool consume)
{
	struct rb_cpu_buffer *cpu_buffer;
	struct rbt_event *event;
	unsigned long flags;
	unsigned int paddings = 0;

	if (!rb_valid_cpu(buffer, cpu))
		return NULL;
	cpu_buffer = buffer->buffers[cpu];
	if (!rb_reader_lock(cpu_buffer, &flags))
		return NULL;
	/*
	 * A mapped CPU has one consumer, its mapping: a swap here would put
	 * the sub-buffer user space holds back into the ring for writers.
	 * user_mapped changes under reader_lock (rb_mmap.c).
	 */
	if (cpu_buffer->user_mapped) {
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		return NULL;
	}
	do {
		event = rb_buffer_peek(cpu_buffer, ts, lost_events);
		if (event && (consume || event->type_len == RB_TYPE_PADDING)) {
			rb_advance_reader(cpu_buffer);
			if (consume && event->type_len != RB_TYPE_PADDING)
				cpu_buffer->lost_events = 0;
		}
	} while (rb_skip_padding(&event, &paddings));
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return event;
}

/**
 * rbt_peek - the next unread event of a CPU, without consuming it
 * @buffer: the buffer
 * @cpu: the CPU
 * @ts: set to the event's time stamp (may be NULL)
 * @lost_events: set to the events lost before it (may be NULL)
 *
 * The event stays valid until the next consuming read on this CPU.
 *
 * Return: the event, or NULL if there is none (or @cpu is bad).
 */
struct rbt_event *rbt_peek(struct rbt_buffer *buffer, int cpu, u64 *ts,
			   unsigned long *lost_events)
{
	return rb_read_one(buffer, cpu, ts, lost_events, false);
}
EXPORT_SYMBOL_GPL(rbt_peek);

/**
 * rbt_consume - read and consume the next event of a CPU
 * @buffer: the buffer
 * @cpu: the CPU
 * @ts: set to the event's time stamp (may be NULL)
 * @lost_events: set to the events lost (overwritten) since the previous
 *               consumed event (may be NULL)
 *
 * The returned event lives in the reader page, which only readers of this
 * CPU touch: it stays valid until the next read on this CPU.
 *
 * Return: the event, or NULL if there is none (or @cpu is bad).
 */
struct rbt_event *rbt_consume(struct rbt_buffer *buffer, int cpu, u64 *ts,
			      unsigned long *lost_events)
{
	return rb_read_one(buffer, cpu, ts, lost_events, true);
}
EXPORT_SYMBOL_GPL(rbt_consume);

/**
 * rb_per_cpu_empty - has a CPU no unread event? (reader_lock held)
 * @cpu_buffer: the per-CPU buffer
 *
 * Empty when the reader page is read up, and the writer commits on it,
 * or on the head page with nothing committed there yet. A commit page
 * anywhere else has data between the head and it.
 */
bool rb_per_cpu_empty(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *reader = cpu_buffer->reader_page;
	struct rb_page *head = rb_set_head_page(cpu_buffer);
	struct rb_page *commit = READ_ONCE(cpu_buffer->commit_page);

	if (!head)
		return true;
	if (reader->read != rb_page_size(reader))
		return false;
	if (commit == reader)
		return true;
	if (commit != head)
		return false;
	return rb_page_commit(commit) == 0;
}

/**
 * rbt_empty_cpu - has a CPU no unread event?
 * @buffer: the buffer
 * @cpu: the CPU (a bad CPU is empty)
 *
 * Return: true when the CPU has no unread event.
 */
bool rbt_empty_cpu(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;
	unsigned long flags;
	bool empty;

	if (!rb_valid_cpu(buffer, cpu))
		return true;
	cpu_buffer = buffer->buffers[cpu];
	if (!rb_reader_lock(cpu_buffer, &flags))
		return true;
	empty = rb_per_cpu_empty(cpu_buffer);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return empty;
}
EXPORT_SYMBOL_GPL(rbt_empty_cpu);
