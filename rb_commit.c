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
#include <linux/ktime.h>
#include "rb_internal.h"

/*
 * Slow path: the tail moved on to @tail. Publish each full page from the
 * commit page up to it, and leave it. Interrupts may move the tail further
 * while we walk; the caller's next lap walks on to where it is then.
 *
 * @tail was read once: the walk to it is at most the ring's pages (one more
 * from the reader page, outside the ring, whose next pointer leads into
 * it). Not reaching it by then is a ring that does not lead to its own
 * tail: broken, and said so. (Interrupts cannot make this walk longer, only
 * the caller's laps, which rb_set_commit_to_write() bounds by time.)
 *
 * Returns false on a broken ring (recording stopped).
 */
static noinline bool rb_commit_pages(struct rb_cpu_buffer *cpu_buffer,
				     struct rb_page *tail)
{
	struct rb_page *page = cpu_buffer->commit_page;
	unsigned long steps = cpu_buffer->nr_pages + 1;

	if (RB_WARN_ON(cpu_buffer, rb_is_reader_page(tail)))
		return false;
	while (page != tail) {
		if (RB_WARN_ON(cpu_buffer, !steps--))
			return false;
		/* Events visible before commit: pairs with the reader's smp_rmb(). */
		smp_wmb();
		local_set(&page->page->commit, rb_page_write(page));
		/*
		 * The page's final commit before we leave it: pairs with the
		 * smp_rmb() in rb_swap_reader_page() (and rb_iter_empty()),
		 * which must not take the reader page for done while its last
		 * events are unread.
		 */
		smp_wmb();
		rb_inc_page(&page);
		/*
		 * One store, as readers on other CPUs load it with READ_ONCE()
		 * (rb_swap_reader_page(), rb_per_cpu_empty(), the iterator).
		 */
		WRITE_ONCE(cpu_buffer->commit_page, page);
	}
	/* Once a page, and only here: the fast path is the same for all. */
	if (unlikely(cpu_buffer->range_cpu))
		rb_range_note_commit(cpu_buffer);
	return true;
}

/*
 * May the outermost commit look again? Each lap past the first two (the
 * walk to the tail page and the store on it) follows an interrupt that
 * wrote meanwhile and left its event to us. Interrupts nest whole, so
 * every lap publishes what finished writers wrote, and the loop ends as
 * soon as one lap goes by without an interrupt that writes. Only a storm
 * keeps it going, and a storm is load, not a broken ring: no count of
 * laps, which one ran out in a traced IRQ or NMI storm and stopped
 * recording for good, but RB_COMMIT_WAIT_NS from the first such lap
 * (ktime_get_mono_fast_ns(): NMI-safe, and it advances with interrupts
 * off). Then we stop looking, quietly: see rb_set_commit_to_write().
 */
static noinline notrace bool rb_commit_may_lap(u64 *deadline)
{
	u64 now = ktime_get_mono_fast_ns();

	if (!*deadline)
		*deadline = now + RB_COMMIT_WAIT_NS;
	return now < *deadline;
}

/*
 * Outermost writer: publish commit up to the tail. Interrupts may reserve
 * while we do (their commits are left to us), so loop until commit equals
 * write on the tail page, within rb_commit_may_lap()'s bound (@deadline,
 * shared with rb_end_commit_inline()'s laps).
 *
 * Returns false when it stopped before that: the ring is broken (a warning
 * stopped recording), or a storm outlasted the bound. Then the commit
 * page and its commit word lag the tail: the state of the ring during any
 * commit, which readers already expect. It is correct, and what is left
 * is published by the next commit on this CPU, whichever writer makes it:
 * it starts from commit_page and the commit word as we leave them and
 * runs to the tail (and in a storm that next commit is the next
 * interrupt's, now outermost). Until then those events are not visible to
 * readers; a resize publishes them itself (rb_commit_stopped()), but a
 * buffer that gets no further commit on this CPU (a snapshot swapped out
 * right then) keeps them unpublished: the price of not spinning. A writer
 * that wraps round onto the lagging commit page drops its event
 * (commit_overrun, rb_move_tail()), as it would inside a long commit.
 */
static __always_inline bool rb_set_commit_to_write(struct rb_cpu_buffer *cpu_buffer,
						   u64 *deadline)
{
	unsigned int laps = 0;
	struct rb_page *page, *tail;
	unsigned long write;

	for (;;) {
		page = cpu_buffer->commit_page;
		tail = READ_ONCE(cpu_buffer->tail_page);
		if (unlikely(page != tail)) {
			if (!rb_commit_pages(cpu_buffer, tail))
				return false;
		} else {
			write = rb_page_write(page);
			if (rb_page_commit(page) == write)
				return true;
			/* Events visible before commit: pairs with the reader's smp_rmb(). */
			smp_wmb();
			local_set(&page->page->commit, write);
		}
		rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT_LAP);
		/*
		 * Load commit_page, tail_page and write again after our
		 * stores, not from before them. No partner on another CPU:
		 * what we race with here is interrupts on this CPU (they move
		 * tail_page and write, and read commit_page in rb_move_tail()),
		 * which see this CPU's program order; only the compiler could
		 * reorder or keep a value, and this stops it.
		 */
		barrier();
		if (unlikely(++laps > 2) && !rb_commit_may_lap(deadline))
			return false;
	}
}

/*
 * Publish everything on a CPU whose writers are quiesced (refused, and
 * out after a grace period), with its readers locked out: what a commit
 * that stopped looking left (rb_set_commit_to_write()). Nothing can write
 * meanwhile, so the loop ends in two laps.
 */
void rb_commit_stopped(struct rb_cpu_buffer *cpu_buffer)
{
	u64 deadline = 0;

	rb_set_commit_to_write(cpu_buffer, &deadline);
}

/*
 * The end of a commit. Only the outermost writer (committing == 1)
 * publishes; nested ones only count themselves (commits) and leave.
 *
 * Each "goto again" follows an interrupt that began a commit in the
 * window between our read of commits and our decrement of committing,
 * after rb_set_commit_to_write() had looked for the last time: it saw
 * committing > 1 and left its event to us. Interrupts nest whole, so the
 * interrupt is over when we look, and at most RB_CTX_MAX writers are
 * nested at any time; but one interrupt after another can land there as
 * long as a storm lasts, so these laps share rb_set_commit_to_write()'s
 * time bound. Stopping leaves the state that function describes, for the
 * next commit.
 */
static __always_inline void rb_end_commit_inline(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned long commits;
	u64 deadline = 0;

	if (RB_WARN_ON(cpu_buffer, !local_read(&cpu_buffer->committing)))
		return;
again:
	commits = local_read(&cpu_buffer->commits);
	/* commits read before committing: vs. interrupts, as below. */
	barrier();
	if (local_read(&cpu_buffer->committing) == 1) {
		rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT);
		if (unlikely(!rb_set_commit_to_write(cpu_buffer, &deadline))) {
			local_dec(&cpu_buffer->committing);
			return;
		}
		rb_hook(cpu_buffer->buffer, RBT_HOOK_COMMIT_LAP);
	}
	local_dec(&cpu_buffer->committing);
	/*
	 * committing dropped before commits is re-read. Compiler barriers,
	 * these two: the partner is an interrupt on this CPU, which sees
	 * our program order.
	 */
	barrier();
	/*
	 * An interrupt that reserved and committed between our read of
	 * commits and our decrement saw committing > 1 and left its event
	 * for us to publish: do it.
	 */
	if (unlikely(local_read(&cpu_buffer->commits) != commits) &&
	    !local_read(&cpu_buffer->committing)) {
		if (unlikely(!rb_commit_may_lap(&deadline)))
			return;
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
