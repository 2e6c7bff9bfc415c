// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace frontend, write side: the tail moving on. A reservation that
 * ran past the end of the tail page pads the page, moves the tail onto
 * the next one and, in overwrite mode with the ring full, pushes the head
 * (its events are lost: overrun). The reservation's slow path, called
 * from rb_core.c only; the rules are those of rb_core.c.
 */
#include "rb_internal.h"

/*
 * The tail page moves on. Its successor is reset to empty, but an
 * interrupt may already have moved the tail there and reserved on it: the
 * updater count in the high bits of write/entries makes our reset a
 * cmpxchg that fails in that case (see RB_WRITE_INTCNT).
 */
static void rb_tail_page_update(struct rb_cpu_buffer *cpu_buffer,
				struct rb_page *tail_page,
				struct rb_page *next_page)
{
	unsigned long old_write, old_entries;

	old_write = local_add_return(RB_WRITE_INTCNT, &next_page->write);
	old_entries = local_add_return(RB_WRITE_INTCNT, &next_page->entries);

	/* Our updater count is in before we look at tail_page (vs. irqs). */
	barrier();

	if (tail_page == READ_ONCE(cpu_buffer->tail_page)) {
		/*
		 * The page's generation, which iterators compare to see that
		 * the page after theirs holds what followed it, not a later
		 * lap (rb_inc_iter()). Every writer racing here stores the same
		 * value. Before the reset and the first event on the page:
		 * pairs with the smp_rmb() after an iterator's copy, through
		 * the full barrier of the cmpxchg of tail_page below.
		 */
		WRITE_ONCE(next_page->seq, tail_page->seq + 1);
		/*
		 * Outcomes of the two cmpxchg: success, the page is reset;
		 * failure, an interrupt reserved on it after our add, so it
		 * is already in use and must not be reset. Either is fine.
		 */
		(void)local_cmpxchg(&next_page->write, old_write,
				    old_write & ~RB_WRITE_MASK);
		(void)local_cmpxchg(&next_page->entries, old_entries,
				    old_entries & ~RB_WRITE_MASK);

		/* commit only moves in the outermost writer: no race. */
		local_set(&next_page->page->commit, 0);

		/* Either we move tail_page or an interrupt already did. */
		if (try_cmpxchg(&cpu_buffer->tail_page, &tail_page, next_page))
			local_inc(&cpu_buffer->pages_touched);
	}
}

/*
 * Overwrite mode, the ring is full: push the head page forward, losing
 * its events (accounted as overrun). Return 0 when the head moved, 1 when
 * the caller must retry, -1 on a broken ring.
 */
static int rb_handle_head_page(struct rb_cpu_buffer *cpu_buffer,
			       struct rb_page *tail_page,
			       struct rb_page *next_page)
{
	struct rb_page *new_head, *tail_now;
	unsigned long entries = rb_page_entries(next_page);
	int type, ret;

	type = rb_head_page_set_update(cpu_buffer, next_page, tail_page,
				       RB_PAGE_HEAD);
	/*
	 * The cmpxchg HEAD -> UPDATE found one of:
	 *  HEAD   - we are first: account the lost page, then finish.
	 *  UPDATE - we interrupted a writer doing this; help it finish.
	 *  NORMAL - an interrupt already moved the head for us: retry.
	 *  MOVED  - a reader on another CPU swapped next_page out: retry.
	 */
	switch (type) {
	case RB_PAGE_HEAD:
		local_add(entries, &cpu_buffer->overrun);
		local_sub(rb_page_commit(next_page), &cpu_buffer->entries_bytes);
		local_inc(&cpu_buffer->pages_lost);
		break;
	case RB_PAGE_UPDATE:
		break;
	case RB_PAGE_NORMAL:
	case RB_PAGE_MOVED:
		return 1;
	default:
		RB_WARN_ON(cpu_buffer, 1);
		return -1;
	}

	/*
	 * The pointer to next_page now says UPDATE, so the reader's swap
	 * fails until we are done. Flag the page after it as the new head.
	 */
	new_head = next_page;
	rb_inc_page(&new_head);
	ret = rb_head_page_set_head(cpu_buffer, new_head, next_page,
				    RB_PAGE_NORMAL);
	/*
	 * HEAD   - an interrupt already set it.
	 * NORMAL - we set it, or interrupts set it and then moved the head
	 *          further (and cleared it): detected below by the tail.
	 */
	if (RB_WARN_ON(cpu_buffer, ret != RB_PAGE_HEAD && ret != RB_PAGE_NORMAL))
		return -1;

	if (ret == RB_PAGE_NORMAL) {
		tail_now = READ_ONCE(cpu_buffer->tail_page);
		/*
		 * If the tail went past next_page, interrupts moved the head
		 * beyond new_head already, and the HEAD we just set is
		 * stale: clear it (only if it is still HEAD).
		 */
		if (tail_now != tail_page && tail_now != next_page)
			rb_head_page_set_normal(cpu_buffer, new_head, next_page,
						RB_PAGE_HEAD);
	}

	/* Only the writer that set UPDATE clears it. */
	if (type == RB_PAGE_HEAD) {
		ret = rb_head_page_set_normal(cpu_buffer, next_page, tail_page,
					      RB_PAGE_UPDATE);
		if (RB_WARN_ON(cpu_buffer, ret != RB_PAGE_UPDATE))
			return -1;
	}
	return 0;
}

/* Write padding over the end of a page the event did not fit on. */
static void rb_reset_tail(struct rb_cpu_buffer *cpu_buffer, unsigned long tail,
			  struct rb_event_info *info)
{
	unsigned long bsize = cpu_buffer->buffer->subbuf_size;
	struct rb_page *tail_page = info->tail_page;
	unsigned long length = info->length;
	struct rbt_event *event;

	/* Only the event that crossed the end pads; later ones just undo. */
	if (tail >= bsize) {
		if (tail == bsize)
			tail_page->real_end = 0;
		local_sub(length, &tail_page->write);
		return;
	}

	event = rb_page_index(tail_page, tail);
	tail_page->real_end = tail;	/* where the data ends, for readers */

	if (tail > bsize - RB_EVNT_MIN_SIZE) {
		/*
		 * Under 8 bytes left: no event fits there, so a 4-byte null
		 * padding (type 29, delta 0, meaning "to the end") is enough,
		 * and write can go back to tail: nothing can reserve it.
		 */
		event->type_len = RB_TYPE_PADDING;
		event->time_delta = 0;
		/* Padding visible before write moves back: pairs with the
		 * smp_rmb() in the reader after it reads write.
		 */
		smp_wmb();
		local_sub(length, &tail_page->write);
		return;
	}

	/*
	 * Larger gap: a discarded event (padding with a length, delta 1)
	 * fills it, and write is set to the end of the page, so no later
	 * writer can slip into the gap.
	 */
	event->array[0] = (bsize - tail) - RB_EVNT_HDR_SIZE;
	event->type_len = RB_TYPE_PADDING;
	event->time_delta = 1;
	local_add(bsize - tail, &cpu_buffer->entries_bytes);
	/* Padding visible before the write update: pairs as above. */
	smp_wmb();
	local_sub((tail + length) - bsize, &tail_page->write);
}

/*
 * The reservation ran past the end of the tail page: move the tail on,
 * pushing the head or dropping the event when the ring is full.
 * Returns ERR_PTR(-EAGAIN) to retry on the new tail, or NULL to drop.
 */
noinline struct rbt_event *rb_move_tail(struct rb_cpu_buffer *cpu_buffer,
			       unsigned long tail,
			       struct rb_event_info *info)
{
	struct rb_page *tail_page = info->tail_page;
	struct rb_page *next_page = tail_page;
	int ret;

	rb_inc_page(&next_page);

	/*
	 * The writer wrapped all the way around onto pages that are not
	 * committed yet (an interrupt storm inside a long commit): drop.
	 */
	if (unlikely(next_page == cpu_buffer->commit_page)) {
		local_inc(&cpu_buffer->commit_overrun);
		goto out_drop;
	}

	/*
	 * next_page is the head (HEAD), is being pushed (UPDATE), or was
	 * just swapped out by a reader (MOVED): the ring is full, unless
	 * the commit is still on the reader page.
	 */
	if (rb_is_head_page(next_page, &tail_page->list) != RB_PAGE_NORMAL) {
		if (!rb_is_reader_page(cpu_buffer->commit_page)) {
			if (!(READ_ONCE(cpu_buffer->buffer->flags) & RBT_FL_OVERWRITE)) {
				local_inc(&cpu_buffer->dropped);
				goto out_drop;
			}
			ret = rb_handle_head_page(cpu_buffer, tail_page, next_page);
			if (ret < 0)
				goto out_drop;
			if (ret)
				goto out_again;
		} else if (unlikely(cpu_buffer->commit_page != cpu_buffer->tail_page &&
				    cpu_buffer->commit_page == cpu_buffer->reader_page)) {
			/*
			 * Commit is still on the reader page and the tail
			 * wrapped around to the head: overwriting would
			 * lose uncommitted data.
			 */
			local_inc(&cpu_buffer->commit_overrun);
			goto out_drop;
		}
	}

	rb_tail_page_update(cpu_buffer, tail_page, next_page);

out_again:
	rb_reset_tail(cpu_buffer, tail, info);
	/* Commit what the old page has, keep our own commit open. */
	rb_end_commit(cpu_buffer);
	local_inc(&cpu_buffer->committing);
	return ERR_PTR(-EAGAIN);

out_drop:
	rb_reset_tail(cpu_buffer, tail, info);
	return NULL;
}
