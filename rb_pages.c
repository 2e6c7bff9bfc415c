// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace backend: the memory. Sub-buffer pages, their descriptors, and
 * the circular list that links them, with the HEAD and UPDATE flags kept
 * in the low bits of the list pointers.
 *
 * Making the list lockless needs one trick: the pointer *to* the head page
 * (prev->next of the head) carries a flag. Descriptors are allocated at
 * least 4-byte aligned, so the two low bits of a list pointer are free:
 *
 *	bits	meaning of prev->next
 *	 00	normal page
 *	 01	HEAD: points to the head page
 *	 10	UPDATE: points to the head page, which a writer is moving
 *
 * A reader swaps its page in only when it sees HEAD (cmpxchg HEAD -> its
 * page); a writer pushing the head in overwrite mode first cmpxchg()es
 * HEAD -> UPDATE, which makes the reader's cmpxchg fail until the writer
 * has set HEAD on the next page. Every transition is a cmpxchg on the same
 * word, so the reader and the writer (and the interrupts that nest in the
 * writer) always agree on who moved the head.
 *
 * Port note, NMI: writers in NMI (and NMI readers, rb_head_page_replace())
 * cmpxchg() these pointers; writers also local_cmpxchg() the write index
 * and entries, cmpxchg() tail_page and keep 64-bit stamps in local64_t.
 * All of it is NMI-safe on x86 (ARCH_HAVE_NMI_SAFE_CMPXCHG, native 64-bit
 * atomics). Where cmpxchg() is emulated under a lock or with interrupts
 * off (no CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG), or local64_t falls back to
 * lib/atomic64.c's hashed spinlocks (32-bit without 64-bit atomics), an
 * NMI that interrupts one of them and does another can deadlock its CPU.
 * rbt_lock_reserve() does not refuse NMI writers there: a port must, as
 * ftrace's rb_reserve_next_event() does (!IS_ENABLED(...) && in_nmi():
 * no event). NMI readers are refused there already (rb_reader_lock()).
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/timekeeping.h>
#include "rb_internal.h"

#ifdef RBTRACE_TEST_HOOKS
/* The type is declared in rb_hooks.h; tests set it with WRITE_ONCE(). */
typeof(rbt_test_hook) rbt_test_hook;
EXPORT_SYMBOL_GPL(rbt_test_hook);
atomic_t rbt_test_warns_expected = ATOMIC_INIT(0);
EXPORT_SYMBOL_GPL(rbt_test_warns_expected);
#endif

/**
 * rb_set_list_to_head - flag @list->next as the pointer to the head page
 * @list: the list entry of the page before the head
 */
void rb_set_list_to_head(struct list_head *list)
{
	unsigned long *ptr = (unsigned long *)&list->next;

	*ptr |= RB_PAGE_HEAD;
	*ptr &= ~RB_PAGE_UPDATE;
}

/**
 * rb_list_head_clear - drop the flags of @list->next
 * @list: a list entry
 */
void rb_list_head_clear(struct list_head *list)
{
	unsigned long *ptr = (unsigned long *)&list->next;

	*ptr &= ~RB_FLAG_MASK;
}

/**
 * rb_head_page_activate - flag the pointer to the current head page
 * @cpu_buffer: a buffer no writer or reader is using
 */
void rb_head_page_activate(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *head = cpu_buffer->head_page;

	if (head)
		rb_set_list_to_head(head->list.prev);
}

/**
 * rb_head_page_deactivate - clear every flag in the ring
 * @cpu_buffer: a buffer no writer or reader is using
 */
void rb_head_page_deactivate(struct rb_cpu_buffer *cpu_buffer)
{
	struct list_head *hd;

	rb_list_head_clear(cpu_buffer->pages);
	list_for_each(hd, cpu_buffer->pages)
		rb_list_head_clear(hd);
}

/*
 * rb_head_page_set - move the flag of @prev->next, which must point to
 * @head, from @old_flag to @new_flag with one cmpxchg. Returns the flag
 * that was there (so the caller learns who won), or RB_PAGE_MOVED when
 * @prev->next no longer points to @head: a reader swapped it out.
 */
static int rb_head_page_set(struct rb_page *head, struct rb_page *prev,
			    int old_flag, int new_flag)
{
	unsigned long *ptr = (unsigned long *)&prev->list.next;
	unsigned long val = (unsigned long)&head->list & ~RB_FLAG_MASK;
	unsigned long ret;

	ret = cmpxchg(ptr, val | old_flag, val | new_flag);
	if ((ret & ~RB_FLAG_MASK) != val)
		return RB_PAGE_MOVED;
	return ret & RB_FLAG_MASK;
}

/**
 * rb_head_page_set_update - HEAD -> UPDATE on the pointer to @head
 * @cpu_buffer: the per-CPU buffer (for symmetry with the other setters)
 * @head: the head page
 * @prev: the page before it
 * @old_flag: the flag expected
 *
 * Return: the flag found, or RB_PAGE_MOVED.
 */
int rb_head_page_set_update(struct rb_cpu_buffer *cpu_buffer,
			    struct rb_page *head, struct rb_page *prev,
			    int old_flag)
{
	int ret = rb_head_page_set(head, prev, old_flag, RB_PAGE_UPDATE);

	/* We set UPDATE: readers' swaps fail until we clear it. */
	if (ret == RB_PAGE_HEAD && old_flag == RB_PAGE_HEAD)
		rb_hook(cpu_buffer->buffer, RBT_HOOK_HEAD_UPDATE);
	return ret;
}

/**
 * rb_head_page_set_head - set HEAD on the pointer to @head
 * @cpu_buffer: the per-CPU buffer
 * @head: the new head page
 * @prev: the page before it
 * @old_flag: the flag expected
 *
 * Return: the flag found, or RB_PAGE_MOVED.
 */
int rb_head_page_set_head(struct rb_cpu_buffer *cpu_buffer,
			  struct rb_page *head, struct rb_page *prev,
			  int old_flag)
{
	return rb_head_page_set(head, prev, old_flag, RB_PAGE_HEAD);
}

/**
 * rb_head_page_set_normal - clear the flag of the pointer to @head
 * @cpu_buffer: the per-CPU buffer
 * @head: the page
 * @prev: the page before it
 * @old_flag: the flag expected
 *
 * Return: the flag found, or RB_PAGE_MOVED.
 */
int rb_head_page_set_normal(struct rb_cpu_buffer *cpu_buffer,
			    struct rb_page *head, struct rb_page *prev,
			    int old_flag)
{
	return rb_head_page_set(head, prev, old_flag, RB_PAGE_NORMAL);
}

/*
 * rb_reader_may_wait - may a reader go on waiting for a writer of
 * @cpu_buffer, who is pushing the head (UPDATE) or crossing off a page
 * (write index past the end)?
 * @deadline: 0 before the first call of one wait; the helper keeps it
 *
 * A writer does either in a few instructions with preemption off, but it
 * can be held up for long while it does: an NMI or softirq work nested in
 * it, a vCPU the host does not run. That is not a broken ring, so the
 * wait is bounded by time, not by a count of tries (which runs out in
 * milliseconds), and at the bound the reader gives up this attempt
 * without RB_WARN_ON(): the ring is intact and the next read retries.
 * The clock is ktime_get_mono_fast_ns(): it reads the clocksource, so it
 * advances with interrupts off. Not local_clock(): once the kernel marks
 * the TSC unstable (a loaded host, seen under QEMU), local_clock() moves
 * at most a tick past the last tick this CPU took, and with interrupts
 * off (reader_lock) the bound never came: a reader waited out a 2.5 s
 * writer instead of giving up after 1 s.
 *
 * It does not wait at all
 *  - on the ring's own CPU: a writer of the ring runs only there, with
 *    preemption off, so the one in flight is one this reader interrupted,
 *    and it cannot go on before the reader returns;
 *  - in NMI: every lock and wait on an NMI reader's path is a try (see
 *    rb_reader_lock()); the CPU it interrupted may hold what it waits for.
 *
 * Return: true to try again, false to give up.
 */
bool rb_reader_may_wait(struct rb_cpu_buffer *cpu_buffer, u64 *deadline)
{
	u64 now;

	if (in_nmi() || raw_smp_processor_id() == cpu_buffer->cpu)
		return false;
	now = ktime_get_mono_fast_ns();
	if (!*deadline)
		*deadline = now + RB_READER_WAIT_NS;
	return now < *deadline;
}

/**
 * rb_set_head_page - find the page the HEAD flag points to
 * @cpu_buffer: the per-CPU buffer, with its reader lock held
 *
 * Writers in overwrite mode push the head forward while we walk (they do
 * not take our locks), and one that pushes it past the page we are about
 * to look at makes us miss it for a lap. That is load, not a broken ring:
 * writers filling pages as fast as we walk keep the head ahead of us for
 * as long as they go on. So a lap that misses is tried again, and only a
 * ring with no head at all is declared broken.
 *
 * Telling the two apart: every push of the head counts pages_lost, right
 * after the cmpxchg HEAD -> UPDATE that starts it and before HEAD is set
 * on the next page (rb_handle_head_page()); and readers, the only other
 * ones to move it, are kept out by reader_lock. While a push is under way
 * the UPDATE flag is found like HEAD. If pages_lost did not change from
 * the start of the last lap but one to the end of the last, any push seen
 * moving during those laps had counted itself before, so the head could
 * move at most once, onto a page the second lap looked at after the first
 * had missed it: two laps that miss without a count are a ring without a
 * head. That stops recording, with a warning.
 *
 * Writers pushing: after RB_MAX_HEAD_LAPS laps the search goes on for as
 * long as a reader waits for a writer (rb_reader_may_wait(): by time on
 * another CPU; not at all on the ring's own CPU, whose writers we
 * interrupted, or in NMI), then gives up, quietly: the next read looks
 * again.
 *
 * Return: the head page, or NULL (given up, or the ring is broken).
 */
struct rb_page *rb_set_head_page(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned long lost, lost_before = 0, lost_this;
	struct rb_page *head, *page;
	u64 deadline = 0;
	int laps;

	if (RB_WARN_ON(cpu_buffer, !cpu_buffer->head_page))
		return NULL;

	head = cpu_buffer->head_page;
	page = head;
	lost_this = local_read(&cpu_buffer->pages_lost);
	for (laps = 1;; laps++) {
		/*
		 * The count before this lap's flags, and (below) the flags
		 * before the count after it: pairs with the full barrier of
		 * the pushing writer's cmpxchg that sets HEAD on the next
		 * page, after its count (rb_handle_head_page()).
		 */
		smp_rmb();
		do {
			int flag;

			rb_hook(cpu_buffer->buffer, RBT_HOOK_HEAD_SEARCH);
			flag = rb_is_head_page(page, page->list.prev);
			/* UPDATE: the head is being pushed; it is still ours
			 * to find, and the swap will wait for the writer.
			 */
			if (flag == RB_PAGE_HEAD || flag == RB_PAGE_UPDATE) {
				cpu_buffer->head_page = page;
				return page;
			}
			rb_inc_page(&page);
		} while (page != head);
		/* This lap's flags before the count: see the top of the lap. */
		smp_rmb();
		lost = local_read(&cpu_buffer->pages_lost);
		if (laps > 1 && RB_WARN_ON(cpu_buffer, lost == lost_before))
			return NULL;
		if (laps >= RB_MAX_HEAD_LAPS &&
		    !rb_reader_may_wait(cpu_buffer, &deadline))
			return NULL;
		lost_before = lost_this;
		lost_this = lost;
		cpu_relax();
	}
}

/**
 * rb_head_page_replace - put @new in the ring in place of the head @old
 * @old: the head page
 * @new: the reader's spare page, already linked to @old's neighbours
 *
 * One cmpxchg on the flagged pointer to @old: it succeeds only if the flag
 * is HEAD, i.e. no writer is pushing the head (UPDATE) and none has pushed
 * it past @old (NORMAL).
 *
 * Return: true if @new replaced @old.
 */
int rb_head_page_replace(struct rb_page *old, struct rb_page *new)
{
	unsigned long *ptr = (unsigned long *)&old->list.prev->next;
	unsigned long val;

	val = (READ_ONCE(*ptr) & ~RB_FLAG_MASK) | RB_PAGE_HEAD;
	return try_cmpxchg(ptr, &val, (unsigned long)&new->list);
}

/**
 * rb_alloc_page_order - allocate a zeroed sub-buffer and its descriptor
 * @cpu: the CPU it is for (its memory node)
 * @order: the sub-buffer is PAGE_SIZE << @order
 * @gfp: allocation flags
 */
struct rb_page *rb_alloc_page_order(int cpu, unsigned int order, gfp_t gfp)
{
	struct rb_page *bpage;
	struct page *page;

	/* Cache-line aligned: the low bits of &bpage->list carry flags. */
	bpage = kzalloc_node(ALIGN(sizeof(*bpage), cache_line_size()), gfp,
			     cpu_to_node(cpu));
	if (!bpage)
		return NULL;

	page = alloc_pages_node(cpu_to_node(cpu), gfp | __GFP_COMP | __GFP_ZERO, order);
	if (!page) {
		kfree(bpage);
		return NULL;
	}
	bpage->page = page_address(page);
	INIT_LIST_HEAD(&bpage->list);
	return bpage;
}

/**
 * rb_alloc_page - allocate a sub-buffer of the buffer's size
 * @buffer: the buffer
 * @cpu: the CPU it is for
 * @gfp: allocation flags
 */
struct rb_page *rb_alloc_page(struct rbt_buffer *buffer, int cpu, gfp_t gfp)
{
	return rb_alloc_page_order(cpu, buffer->subbuf_order, gfp);
}

/**
 * rb_free_page - free a sub-buffer and its descriptor
 * @bpage: the page, or NULL
 */
void rb_free_page(struct rb_page *bpage)
{
	if (!bpage)
		return;
	/* A range's sub-buffers are not the page allocator's (rb_range.c). */
	if (!bpage->in_range)
		free_pages((unsigned long)bpage->page,
			   compound_order(virt_to_page(bpage->page)));
	kfree(bpage);
}

/**
 * rb_free_page_list - free every page on a plain (unflagged) list
 * @pages: the list head, not itself a page
 */
void rb_free_page_list(struct list_head *pages)
{
	struct rb_page *bpage, *tmp;

	list_for_each_entry_safe(bpage, tmp, pages, list) {
		list_del_init(&bpage->list);
		rb_free_page(bpage);
	}
}

/**
 * rb_alloc_pages_order - allocate @nr_pages sub-buffers onto @pages
 * @cpu: the CPU they are for
 * @order: each is PAGE_SIZE << @order
 * @nr_pages: how many
 * @pages: an empty list to put them on
 *
 * All or nothing: on failure every page allocated here is freed.
 */
int rb_alloc_pages_order(int cpu, unsigned int order, unsigned long nr_pages,
			 struct list_head *pages)
{
	gfp_t gfp = GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN;
	unsigned long i;

	/* Do not push the machine into the OOM killer for a trace buffer. */
	if ((nr_pages << order) > si_mem_available() / 2)
		return -ENOMEM;

	for (i = 0; i < nr_pages; i++) {
		struct rb_page *bpage = rb_alloc_page_order(cpu, order, gfp);

		if (!bpage) {
			rb_free_page_list(pages);
			return -ENOMEM;
		}
		list_add_tail(&bpage->list, pages);
		cond_resched();
	}
	return 0;
}

/**
 * rb_alloc_pages - allocate @nr_pages sub-buffers of the buffer's size
 * @buffer: the buffer
 * @cpu: the CPU they are for
 * @nr_pages: how many
 * @pages: an empty list to put them on
 */
int rb_alloc_pages(struct rbt_buffer *buffer, int cpu, unsigned long nr_pages,
		   struct list_head *pages)
{
	return rb_alloc_pages_order(cpu, buffer->subbuf_order, nr_pages, pages);
}

/**
 * rb_check_pages - verify the links of a ring no writer is changing
 * @cpu_buffer: the per-CPU buffer, recording disabled
 *
 * Both walks are bounded by the ring's size, nr_pages: a corrupt ring may
 * not lead back to where the walk started (a loop further on), and this
 * runs with interrupts off (resize holds reader_lock).
 *
 * Return: true if every next/prev pair agrees, the ring has nr_pages
 * pages, and no flag is left over but the one HEAD flag.
 */
bool rb_check_pages(struct rb_cpu_buffer *cpu_buffer)
{
	struct list_head *head = rb_list_head(cpu_buffer->pages);
	unsigned long n = 0, nr = cpu_buffer->nr_pages;
	struct list_head *tmp;
	int heads = 0;

	if (RB_WARN_ON(cpu_buffer,
		       rb_list_head(rb_list_head(head->next)->prev) != head))
		return false;
	for (tmp = rb_list_head(head->next); tmp != head;
	     tmp = rb_list_head(tmp->next)) {
		if (RB_WARN_ON(cpu_buffer,
			       rb_list_head(rb_list_head(tmp->next)->prev) != tmp))
			return false;
		/* @head and n pages more: past nr_pages, no way back. */
		if (RB_WARN_ON(cpu_buffer, ++n >= nr))
			return false;
	}
	/* The same links again, now known to come back in n + 1 steps. */
	tmp = head;
	n = 0;
	do {
		unsigned long flag = (unsigned long)tmp->next & RB_FLAG_MASK;

		if (RB_WARN_ON(cpu_buffer, flag == RB_PAGE_UPDATE || ++n > nr))
			return false;
		heads += flag == RB_PAGE_HEAD;
		tmp = rb_list_head(tmp->next);
	} while (tmp != head);
	return !RB_WARN_ON(cpu_buffer, heads != 1 || n != nr);
}

#ifdef RBTRACE_TEST_HOOKS
/* KUnit checks it on rings it breaks on purpose (rbtrace_reader_test.c). */
EXPORT_SYMBOL_GPL(rb_check_pages);
#endif
