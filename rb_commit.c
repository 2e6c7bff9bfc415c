// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace frontend, write side: publishing, the general commit. The
 * outermost writer of a CPU moves the commit page up to the tail page and
 * sets commit words to write indexes, for itself and for the interrupts
 * that wrote while it did (their commits are left to it). The fast
 * commit, inlined into every writer, is rb_end_commit_fast() in rb_core.c;
 * this is where it goes when it cannot publish alone. The rules are those
 * of rb_core.c.
 */
#include "rb_internal.h"

/* Slow path: the tail moved on; publish and leave the full pages. */
static noinline bool rb_commit_pages(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned long max_count = cpu_buffer->nr_pages * 100;

	while (cpu_buffer->commit_page != READ_ONCE(cpu_buffer->tail_page)) {
		if (RB_WARN_ON(cpu_buffer, !(--max_count)))
			return false;
		if (RB_WARN_ON(cpu_buffer,
			       rb_is_reader_page(cpu_buffer->tail_page)))
			return false;
		/* Events visible before commit: pairs with the reader's smp_rmb(). */
		smp_wmb();
		local_set(&cpu_buffer->commit_page->page->commit,
			  rb_page_write(cpu_buffer->commit_page));
		/*
		 * The page's final commit before we leave it: pairs with the
		 * smp_rmb() in rb_swap_reader_page(), which must not take the
		 * reader page for done while its last events are unread.
		 */
		smp_wmb();
		rb_inc_page(&cpu_buffer->commit_page);
		barrier();
	}
	/* Once a page, and only here: the fast path is the same for all. */
	if (unlikely(cpu_buffer->range_cpu))
		rb_range_note_commit(cpu_buffer);
	return true;
}

/*
 * Outermost writer: publish commit up to the tail. Interrupts may reserve
 * while we do (their commits are left to us), so loop until commit equals
 * write on the tail page. Each lap follows an interrupt that wrote: the
 * bound is a broken ring's, not a busy one's.
 */
static __always_inline void rb_set_commit_to_write(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned int laps = 0;
	struct rb_page *page;
	unsigned long write;

	for (;;) {
		page = cpu_buffer->commit_page;
		if (unlikely(page != READ_ONCE(cpu_buffer->tail_page))) {
			if (!rb_commit_pages(cpu_buffer))
				return;
			continue;
		}
		write = rb_page_write(page);
		if (rb_page_commit(page) == write)
			return;
		if (RB_WARN_ON(cpu_buffer, ++laps > RB_MAX_RESERVE_LOOPS))
			return;
		/* Events visible before commit: pairs with the reader's smp_rmb(). */
		smp_wmb();
		local_set(&page->page->commit, write);
		rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT_LAP);
		/* Re-read tail and write after the store, not before (vs. irqs). */
		barrier();
	}
}

static __always_inline void rb_end_commit_inline(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned long commits;

	if (RB_WARN_ON(cpu_buffer, !local_read(&cpu_buffer->committing)))
		return;
again:
	commits = local_read(&cpu_buffer->commits);
	/* commits read before committing: vs. interrupts. */
	barrier();
	if (local_read(&cpu_buffer->committing) == 1) {
		rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT);
		rb_set_commit_to_write(cpu_buffer);
		rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT_LAP);
	}
	local_dec(&cpu_buffer->committing);
	/* committing dropped before commits is re-read: vs. interrupts. */
	barrier();
	/*
	 * An interrupt that reserved and committed between our read of
	 * commits and our decrement saw committing > 1 and left its event
	 * for us to publish: do it.
	 */
	if (unlikely(local_read(&cpu_buffer->commits) != commits) &&
	    !local_read(&cpu_buffer->committing)) {
		local_inc(&cpu_buffer->committing);
		goto again;
	}
}

noinline notrace void rb_end_commit(struct rb_cpu_buffer *cpu_buffer)
{
	rb_end_commit_inline(cpu_buffer);
}

/*
 * Slow exit of the fast commit, at P4: an interrupt began a commit after
 * the snapshot at P1. If it is over (committing 0), its event may be past
 * what P2 published: publish again, as rb_end_commit_inline() does.
 */
noinline notrace void rb_end_commit_again(struct rb_cpu_buffer *cpu_buffer)
{
	if (local_read(&cpu_buffer->committing))
		return;
	local_inc(&cpu_buffer->committing);
	rb_end_commit_inline(cpu_buffer);
}
