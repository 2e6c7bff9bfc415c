// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace buffer lifecycle: allocation, free, resize, reset (the sizes,
 * clock, modes, record switches and counters are in rb_control.c).
 * Everything here may sleep; none of it is on the write path. Changes to
 * a ring that writers use are made with the CPU's recording disabled and
 * after synchronize_rcu(), which waits for every writer in flight
 * (writers run with preemption disabled).
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/trace_clock.h>
#include <linux/seq_file.h>
#include "rb_internal.h"

static unsigned long rb_size_to_pages(struct rbt_buffer *buffer,
				      unsigned long size)
{
	unsigned long nr = DIV_ROUND_UP(size, buffer->subbuf_size);

	return max(nr, 2UL);
}

/* Link a plain list of pages into the headless ring, head at the first. */
static void rb_make_ring(struct rb_cpu_buffer *cpu_buffer,
			 struct list_head *pages)
{
	struct rb_page *first = list_first_entry(pages, struct rb_page, list);

	cpu_buffer->pages = &first->list;
	list_del(pages);
	cpu_buffer->head_page = first;
	cpu_buffer->tail_page = first;
	cpu_buffer->commit_page = first;
	rb_head_page_activate(cpu_buffer);
}

static struct rb_cpu_buffer *rb_alloc_cpu_buffer(struct rbt_buffer *buffer,
						 unsigned long nr_pages, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;
	LIST_HEAD(pages);

	cpu_buffer = kzalloc_node(ALIGN(sizeof(*cpu_buffer), cache_line_size()),
				  GFP_KERNEL, cpu_to_node(cpu));
	if (!cpu_buffer)
		return NULL;

	cpu_buffer->cpu = cpu;
	cpu_buffer->buffer = buffer;
	raw_spin_lock_init(&cpu_buffer->reader_lock);
	mutex_init(&cpu_buffer->mapping_lock);
	cpu_buffer->lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
	rb_waitq_init(&cpu_buffer->wq);

	if (buffer->range) {
		if (rb_range_cpu_pages(cpu_buffer, &pages))
			goto fail;
	} else {
		cpu_buffer->reader_page = rb_alloc_page(buffer, cpu, GFP_KERNEL);
		if (!cpu_buffer->reader_page)
			goto fail;
		if (rb_alloc_pages(buffer, cpu, nr_pages, &pages))
			goto fail;
		cpu_buffer->nr_pages = nr_pages;
	}
	rb_make_ring(cpu_buffer, &pages);
	if (buffer->range && rb_range_restored(buffer->range))
		rb_range_cpu_restore(cpu_buffer);
	return cpu_buffer;

fail:
	rb_free_page(cpu_buffer->reader_page);
	kfree(cpu_buffer);
	return NULL;
}

static unsigned int buffer_order(struct rb_cpu_buffer *cpu_buffer)
{
	return cpu_buffer->buffer->subbuf_order;
}

static void rb_free_cpu_buffer(struct rb_cpu_buffer *cpu_buffer)
{
	struct list_head *head;
	struct rb_page *bpage, *tmp;

	if (!cpu_buffer)
		return;
	rb_waitq_sync(&cpu_buffer->wq);
	rb_head_page_deactivate(cpu_buffer);
	head = cpu_buffer->pages;
	list_for_each_entry_safe(bpage, tmp, head, list) {
		list_del_init(&bpage->list);
		rb_free_page(bpage);
	}
	rb_free_page(list_entry(head, struct rb_page, list));
	rb_free_page(cpu_buffer->reader_page);
	if (cpu_buffer->free_page)
		free_pages((unsigned long)cpu_buffer->free_page,
			   buffer_order(cpu_buffer));
	kfree(cpu_buffer);
}

/**
 * rbt_alloc - allocate a per-CPU ring buffer
 * @size: bytes of sub-buffers per CPU (rounded up to whole sub-buffers,
 *        at least two)
 * @flags: RBT_FL_OVERWRITE for flight-recorder mode (else producer/consumer),
 *         RBT_FL_ABS_TS for an absolute stamp on every event
 * @order: sub-buffer size is PAGE_SIZE << @order, at most order 7
 *
 * One ring is allocated for every possible CPU, so CPUs that come online
 * later already have theirs. Recording starts on. The clock is
 * trace_clock_local() until rbt_set_clock() changes it.
 *
 * Return: the buffer, or NULL for a zero size, unknown flags, an order out
 * of range, or a failed allocation (everything allocated is freed).
 */
struct rbt_buffer *rbt_alloc(unsigned long size, unsigned int flags,
			     unsigned int order)
{
	if (!size)
		return NULL;
	return rb_alloc_buffer(size, flags, order, NULL);
}
EXPORT_SYMBOL_GPL(rbt_alloc);

/**
 * rb_alloc_buffer - rbt_alloc(), or rbt_alloc_in() with @range
 * @size: bytes per CPU (ignored with @range: the range sizes the rings)
 * @flags: as rbt_alloc()
 * @order: as rbt_alloc()
 * @range: the mapped range (rb_range.c), or NULL for the page allocator
 *
 * Return: the buffer or NULL; @range stays the caller's on failure.
 */
struct rbt_buffer *rb_alloc_buffer(unsigned long size, unsigned int flags,
				   unsigned int order, struct rb_range *range)
{
	struct rbt_buffer *buffer;
	unsigned long nr_pages;
	int cpu;

	if ((flags & ~RBT_FL_VALID) || order > RB_MAX_ORDER)
		return NULL;

	buffer = kzalloc(sizeof(*buffer), GFP_KERNEL);
	if (!buffer)
		return NULL;
	if (!zalloc_cpumask_var(&buffer->cpumask, GFP_KERNEL))
		goto fail_buffer;

	buffer->flags = flags;
	buffer->time_stamp_abs = flags & RBT_FL_ABS_TS;
	buffer->clock = trace_clock_local;
	buffer->subbuf_order = order;
	buffer->subbuf_size = (PAGE_SIZE << order) - RB_PAGE_HDR_SIZE;
	/* Largest payload whose event (8-byte header) fills a sub-buffer. */
	buffer->max_data_size = buffer->subbuf_size - 2 * sizeof(u32);
	mutex_init(&buffer->mutex);
	rb_waitq_init(&buffer->wq);
	atomic_set(&buffer->record_disabled, 0);

	buffer->range = range;
	nr_pages = range ? rb_range_nr_pages(range) : rb_size_to_pages(buffer, size);
	if (size > ULONG_MAX / 2 || nr_pages > totalram_pages())
		goto fail_mask;
	buffer->nr_pages = nr_pages;
	buffer->cpus = nr_cpu_ids;
	buffer->buffers = kcalloc(nr_cpu_ids, sizeof(*buffer->buffers),
				  GFP_KERNEL);
	if (!buffer->buffers)
		goto fail_mask;

	for_each_possible_cpu(cpu) {
		buffer->buffers[cpu] = rb_alloc_cpu_buffer(buffer, nr_pages, cpu);
		if (!buffer->buffers[cpu])
			goto fail_cpus;
		cpumask_set_cpu(cpu, buffer->cpumask);
		/* No writer yet: a plain set. */
		if (buffer->time_stamp_abs)
			atomic_set(&buffer->buffers[cpu]->refuse, RB_REFUSE_ABS);
	}
	return buffer;

fail_cpus:
	for_each_possible_cpu(cpu)
		rb_free_cpu_buffer(buffer->buffers[cpu]);
	kfree(buffer->buffers);
fail_mask:
	free_cpumask_var(buffer->cpumask);
fail_buffer:
	kfree(buffer);
	return NULL;
}

/**
 * rbt_free - free a buffer allocated by rbt_alloc()
 * @buffer: the buffer, or NULL
 *
 * The caller guarantees no writer or reader uses it any more; writers in
 * flight are waited for.
 */
void rbt_free(struct rbt_buffer *buffer)
{
	int cpu;

	if (!buffer)
		return;
	atomic_inc(&buffer->record_disabled);
	rb_refuse_all(buffer, 1);
	synchronize_rcu();
	rb_waitq_sync(&buffer->wq);
	/*
	 * The notifiers go before the rings they stop; the descriptors
	 * freed after the unmap only point into the range.
	 */
	rb_range_free(buffer);
	for_each_possible_cpu(cpu)
		rb_free_cpu_buffer(buffer->buffers[cpu]);
	kfree(buffer->buffers);
	free_cpumask_var(buffer->cpumask);
	kfree(buffer);
}
EXPORT_SYMBOL_GPL(rbt_free);

/* Stop the writers of one CPU and wait until none is left in flight. */
static void rb_quiesce_cpu(struct rb_cpu_buffer *cpu_buffer)
{
	atomic_inc(&cpu_buffer->refuse);
	synchronize_rcu();
}

static void rb_resume_cpu(struct rb_cpu_buffer *cpu_buffer)
{
	atomic_dec(&cpu_buffer->refuse);
}

/* Empty a quiesced CPU's ring, with its readers and the swap locked out. */
static void rb_reset_cpu_stopped(struct rb_cpu_buffer *cpu_buffer)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	arch_spin_lock(&cpu_buffer->lock);
	rb_reset_cpu_locked(cpu_buffer);
	arch_spin_unlock(&cpu_buffer->lock);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
}

/*
 * Insert empty pages right before the head: going forward from the tail,
 * they come after the free pages and before the oldest data, so no event
 * moves or is lost. (This also holds when the writer is on the reader
 * page, outside the ring.)
 */
static void rb_insert_pages(struct rb_cpu_buffer *cpu_buffer,
			    struct list_head *pages, unsigned long nr)
{
	struct rb_page *head = rb_set_head_page(cpu_buffer);
	struct list_head *first = pages->next, *last = pages->prev;
	struct list_head *prev;

	if (!head)
		return;
	rb_head_page_deactivate(cpu_buffer);
	prev = head->list.prev;
	first->prev = prev;
	last->next = &head->list;
	prev->next = first;
	head->list.prev = last;
	INIT_LIST_HEAD(pages);
	cpu_buffer->nr_pages += nr;
	rb_head_page_activate(cpu_buffer);
}

/*
 * Remove @nr pages after the tail. Pages up to the head are free; from
 * the head on they hold the oldest data, whose loss is counted as overrun.
 * When the writer is on the reader page (outside the ring), the ring page
 * the reader page points to is where the writer goes next: keep it, and
 * remove the pages after it.
 *
 * The reader page's prev pointer names the ring page its swap took it
 * from, and the writer on it follows that pointer (rb_is_reader_page()
 * from rb_move_tail() and rb_commit_pages()): when that page goes, point
 * it at the page now before the kept one, or the writer reads a freed
 * page. (Shrinking to two pages removes it: of the ring
 * kept, X1..Xk, P, R, with the reader page's prev at P, the pages after
 * kept go first and only R is left.) When the writer is not on the
 * reader page, its links are not followed until the next swap rewrites
 * them: they may name removed pages, harmlessly.
 */
static void rb_remove_pages(struct rb_cpu_buffer *cpu_buffer, unsigned long nr,
			    struct list_head *removed)
{
	struct rb_page *head = rb_set_head_page(cpu_buffer);
	struct rb_page *prev = cpu_buffer->tail_page;
	struct rb_page *victim, *next;
	bool on_reader;

	if (!head)
		return;
	on_reader = rb_is_reader_page(prev);
	if (on_reader)
		rb_inc_page(&prev);
	rb_head_page_deactivate(cpu_buffer);
	while (nr--) {
		victim = prev;
		rb_inc_page(&victim);
		next = victim;
		rb_inc_page(&next);
		if (victim == head) {
			if (rb_page_entries(victim)) {
				local_add(rb_page_entries(victim), &cpu_buffer->overrun);
				local_inc(&cpu_buffer->pages_lost);
			}
			local_sub(rb_page_commit(victim), &cpu_buffer->entries_bytes);
			head = next;
		}
		prev->list.next = &next->list;
		next->list.prev = &prev->list;
		if (cpu_buffer->pages == &victim->list)
			cpu_buffer->pages = &next->list;
		list_add_tail(&victim->list, removed);
		cpu_buffer->nr_pages--;
	}
	/* prev was kept; so is the page before it now. */
	if (on_reader)
		cpu_buffer->reader_page->list.prev = prev->list.prev;
	cpu_buffer->head_page = head;
	rb_head_page_activate(cpu_buffer);
}

/*
 * An iterator walks the pages in place, a user mapping shows them: either
 * way they must stay. buffer->mutex held (the first map and the last
 * unmap take it too); rb_resize_cpu() checks again under reader_lock,
 * which rbt_iter_start() takes to count itself.
 */
static bool rb_resize_busy(struct rb_cpu_buffer *cpu_buffer)
{
	return atomic_read(&cpu_buffer->iterators) || cpu_buffer->user_mapped;
}

static int rb_resize_cpu(struct rb_cpu_buffer *cpu_buffer, unsigned long nr_pages)
{
	struct rbt_buffer *buffer = cpu_buffer->buffer;
	LIST_HEAD(pages);
	unsigned long flags;
	int ret = 0;

	if (nr_pages == cpu_buffer->nr_pages)
		return 0;
	if (rb_resize_busy(cpu_buffer))
		return -EBUSY;
	if (nr_pages > cpu_buffer->nr_pages) {
		ret = rb_alloc_pages(buffer, cpu_buffer->cpu,
				     nr_pages - cpu_buffer->nr_pages, &pages);
		if (ret)
			return ret;
	}

	rb_quiesce_cpu(cpu_buffer);
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	/*
	 * Again, now for good: an iterator may have started during the
	 * quiescing above. rbt_iter_start() counts itself under reader_lock,
	 * so from here to the unlock none can start, and one that started
	 * before is seen: it would walk the pages we are about to free.
	 */
	if (rb_resize_busy(cpu_buffer)) {
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		rb_resume_cpu(cpu_buffer);
		rb_free_page_list(&pages);
		return -EBUSY;
	}
	arch_spin_lock(&cpu_buffer->lock);
	/*
	 * Writers are out. A commit that stopped looking in an interrupt
	 * storm may have left its CPU's last events unpublished: publish
	 * them, then commit has caught up with tail.
	 */
	rb_commit_stopped(cpu_buffer);
	RB_WARN_ON(cpu_buffer, cpu_buffer->commit_page != cpu_buffer->tail_page);
	if (nr_pages > cpu_buffer->nr_pages)
		rb_insert_pages(cpu_buffer, &pages, nr_pages - cpu_buffer->nr_pages);
	else
		rb_remove_pages(cpu_buffer, cpu_buffer->nr_pages - nr_pages, &pages);
	if (!rb_check_pages(cpu_buffer))
		ret = -EIO;
	arch_spin_unlock(&cpu_buffer->lock);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	rb_resume_cpu(cpu_buffer);

	rb_free_page_list(&pages);
	return ret;
}

/**
 * rbt_resize - change the size of one CPU's ring, or of all
 * @buffer: the buffer
 * @size: new size in bytes per CPU (rounded up, at least two sub-buffers)
 * @cpu: the CPU, or RBT_ALL_CPUS
 *
 * May run while writers write: the CPU being resized refuses events for
 * the moment of the splice. Growing keeps every event; shrinking drops
 * the oldest pages only when the free ones are not enough, and counts
 * their events as overrun.
 *
 * Return: 0, -EINVAL for a zero size or a bad CPU, -ENOMEM, -EBUSY while
 * an iterator is open on a CPU to resize or the CPU is mapped (rbt_map());
 * with RBT_ALL_CPUS, -EBUSY changes no CPU.
 */
int rbt_resize(struct rbt_buffer *buffer, unsigned long size, int cpu)
{
	unsigned long nr_pages;
	int ret = 0, i;

	if (!size || size > ULONG_MAX / 2)
		return -EINVAL;
	if (cpu != RBT_ALL_CPUS && !rb_valid_cpu(buffer, cpu))
		return -EINVAL;
	nr_pages = rb_size_to_pages(buffer, size);
	/* A range buffer's rings are the range (rb_range.c). */
	if (buffer->range)
		return nr_pages == buffer->nr_pages ? 0 : -EBUSY;
	if (nr_pages > totalram_pages())
		return -ENOMEM;

	mutex_lock(&buffer->mutex);
	if (cpu != RBT_ALL_CPUS) {
		ret = rb_resize_cpu(buffer->buffers[cpu], nr_pages);
	} else {
		/* All or none for a busy ring: check every CPU first. */
		for_each_cpu(i, buffer->cpumask)
			if (buffer->buffers[i]->nr_pages != nr_pages &&
			    rb_resize_busy(buffer->buffers[i]))
				ret = -EBUSY;
		for_each_cpu(i, buffer->cpumask) {
			if (ret)
				break;
			ret = rb_resize_cpu(buffer->buffers[i], nr_pages);
		}
		if (!ret)
			buffer->nr_pages = nr_pages;
	}
	mutex_unlock(&buffer->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(rbt_resize);

/* A CPU's new ring for rbt_set_subbuf_order(), built before the switch. */
struct rb_new_ring {
	struct rb_page		*reader;
	struct list_head	pages;
	unsigned long		nr_pages;
};

static void rb_free_new_rings(struct rbt_buffer *buffer, struct rb_new_ring *rings)
{
	int cpu;

	for_each_cpu(cpu, buffer->cpumask) {
		rb_free_page(rings[cpu].reader);
		rb_free_page_list(&rings[cpu].pages);
	}
	kfree(rings);
}

/* Rings of sub-buffers of @order holding what each CPU's holds now. */
static struct rb_new_ring *rb_alloc_new_rings(struct rbt_buffer *buffer, unsigned int order)
{
	unsigned long subbuf_size = (PAGE_SIZE << order) - RB_PAGE_HDR_SIZE;
	struct rb_new_ring *rings;
	unsigned long bytes;
	int cpu;

	rings = kcalloc(nr_cpu_ids, sizeof(*rings), GFP_KERNEL);
	if (!rings)
		return NULL;
	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&rings[cpu].pages);
	for_each_cpu(cpu, buffer->cpumask) {
		struct rb_new_ring *r = &rings[cpu];

		bytes = buffer->buffers[cpu]->nr_pages * buffer->subbuf_size;
		r->nr_pages = max(DIV_ROUND_UP(bytes, subbuf_size), 2UL);
		r->reader = rb_alloc_page_order(cpu, order, GFP_KERNEL);
		if (!r->reader ||
		    rb_alloc_pages_order(cpu, order, r->nr_pages, &r->pages)) {
			rb_free_new_rings(buffer, rings);
			return NULL;
		}
	}
	return rings;
}

/*
 * Put @r in place of the CPU's ring, empty, and move the old pages to
 * @old (the reader page and the spare read page too). Writers are out,
 * no iterator exists, reader_lock and the swap lock are held.
 */
static void rb_switch_ring(struct rb_cpu_buffer *cpu_buffer, struct rb_new_ring *r,
			   struct list_head *old, struct rb_data_page **old_spare)
{
	struct rb_page *bpage, *tmp;
	struct list_head *head;

	rb_head_page_deactivate(cpu_buffer);
	head = cpu_buffer->pages;
	list_for_each_entry_safe(bpage, tmp, head, list)
		list_move_tail(&bpage->list, old);
	list_add_tail(head, old);
	INIT_LIST_HEAD(&cpu_buffer->reader_page->list);
	list_add_tail(&cpu_buffer->reader_page->list, old);
	*old_spare = cpu_buffer->free_page;
	cpu_buffer->free_page = NULL;

	cpu_buffer->reader_page = r->reader;
	r->reader = NULL;
	cpu_buffer->nr_pages = r->nr_pages;
	rb_make_ring(cpu_buffer, &r->pages);
	INIT_LIST_HEAD(&r->pages);
	rb_reset_cpu_locked(cpu_buffer);
}

/* Is an iterator open or a mapping in place on any CPU? */
static bool rb_any_cpu_busy(struct rbt_buffer *buffer)
{
	unsigned long flags;
	bool busy = false;
	int cpu;

	for_each_cpu(cpu, buffer->cpumask) {
		struct rb_cpu_buffer *cpu_buffer = buffer->buffers[cpu];

		/* Under reader_lock: pairs with rbt_iter_start(). */
		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
		busy |= rb_resize_busy(cpu_buffer);
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	}
	return busy;
}

/**
 * rbt_set_subbuf_order - change the size of every sub-buffer
 * @buffer: the buffer
 * @order: sub-buffers become PAGE_SIZE << @order, 0 to 7
 *
 * Every CPU's ring is rebuilt, empty, with as many sub-buffers of the new
 * size as hold its present data size (at least two): the events in the
 * buffer are dropped and the counters zeroed, as tracefs does. Writers
 * are refused for the moment of the switch. Consuming readers of the
 * buffer must not run meanwhile (the caller keeps them out); a read page
 * of the old size is refused by rbt_read_page() afterwards.
 *
 * Return: 0; -EINVAL for an order out of range; -EBUSY while an iterator
 * is open or a CPU is mapped; -ENOMEM, the buffer unchanged.
 */
int rbt_set_subbuf_order(struct rbt_buffer *buffer, unsigned int order)
{
	unsigned int old_order = buffer->subbuf_order;
	struct rb_data_page *spare;
	struct rb_new_ring *rings;
	unsigned long flags;
	LIST_HEAD(old);
	int cpu, ret = 0;

	if (order > RB_MAX_ORDER)
		return -EINVAL;
	if (buffer->range)
		return order == old_order ? 0 : -EBUSY;
	mutex_lock(&buffer->mutex);
	if (order == old_order)
		goto out;
	/*
	 * From here rbt_iter_start() refuses (it tests resizing under
	 * reader_lock), so the check below stays true to the end.
	 */
	atomic_inc(&buffer->resizing);
	ret = -EBUSY;
	if (rb_any_cpu_busy(buffer))
		goto out_resizing;
	ret = -ENOMEM;
	rings = rb_alloc_new_rings(buffer, order);
	if (!rings)
		goto out_resizing;

	/* Every writer out: they run with preemption off (rcu). */
	atomic_inc(&buffer->record_disabled);
	rb_refuse_all(buffer, 1);
	synchronize_rcu();
	for_each_cpu(cpu, buffer->cpumask) {
		struct rb_cpu_buffer *cpu_buffer = buffer->buffers[cpu];

		raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
		arch_spin_lock(&cpu_buffer->lock);
		rb_switch_ring(cpu_buffer, &rings[cpu], &old, &spare);
		arch_spin_unlock(&cpu_buffer->lock);
		raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
		if (spare)
			free_pages((unsigned long)spare, old_order);
	}
	buffer->nr_pages = max(DIV_ROUND_UP(buffer->nr_pages * buffer->subbuf_size,
					    (PAGE_SIZE << order) - RB_PAGE_HDR_SIZE), 2UL);
	buffer->subbuf_order = order;
	buffer->subbuf_size = (PAGE_SIZE << order) - RB_PAGE_HDR_SIZE;
	buffer->max_data_size = buffer->subbuf_size - 2 * sizeof(u32);
	/*
	 * The new sizes, then writers back: pairs with the acquire load of
	 * the refuse word in rb_lock_reserve(), so that a writer that sees
	 * it drop reads the new sizes.
	 */
	smp_mb__before_atomic();
	rb_refuse_all(buffer, -1);
	atomic_dec(&buffer->record_disabled);
	rb_free_new_rings(buffer, rings);
	rb_free_page_list(&old);
	ret = 0;
out_resizing:
	/*
	 * The sizes before the end of the change: pairs with the acquire
	 * load of resizing in rbt_iter_start(), which sizes its copy then.
	 */
	smp_mb__before_atomic();
	atomic_dec(&buffer->resizing);
out:
	mutex_unlock(&buffer->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(rbt_set_subbuf_order);

static void rb_reset_page(struct rb_page *bpage)
{
	local_set(&bpage->write, 0);
	local_set(&bpage->entries, 0);
	local_set(&bpage->page->commit, 0);
	bpage->page->time_stamp = 0;
	bpage->read = 0;
	bpage->real_end = 0;
	bpage->seq = 0;
}

/**
 * rb_reset_cpu_locked - empty a ring and zero its counters
 * @cpu_buffer: the per-CPU buffer, writers quiesced, reader lock held
 */
void rb_reset_cpu_locked(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *bpage;

	rb_head_page_deactivate(cpu_buffer);
	cpu_buffer->head_page = list_entry(cpu_buffer->pages, struct rb_page, list);
	bpage = cpu_buffer->head_page;
	do {
		rb_reset_page(bpage);
		rb_inc_page(&bpage);
	} while (bpage != cpu_buffer->head_page);
	cpu_buffer->tail_page = cpu_buffer->head_page;
	cpu_buffer->commit_page = cpu_buffer->head_page;
	rb_reset_page(cpu_buffer->reader_page);
	INIT_LIST_HEAD(&cpu_buffer->reader_page->list);

	local_set(&cpu_buffer->entries_bytes, 0);
	local_set(&cpu_buffer->entries, 0);
	local_set(&cpu_buffer->overrun, 0);
	local_set(&cpu_buffer->commit_overrun, 0);
	local_set(&cpu_buffer->dropped, 0);
	local_set(&cpu_buffer->recursion, 0);
	local_set(&cpu_buffer->too_big, 0);
	local_set(&cpu_buffer->ts_lost, 0);
	local_set(&cpu_buffer->discarded, 0);
	local_set(&cpu_buffer->reclaimed, 0);
	local_set(&cpu_buffer->committing, 0);
	local_set(&cpu_buffer->commits, 0);
	local_set(&cpu_buffer->pages_touched, 0);
	local_set(&cpu_buffer->pages_lost, 0);
	local_set(&cpu_buffer->pages_read, 0);
	local64_set(&cpu_buffer->before_stamp, 0);
	local64_set(&cpu_buffer->write_stamp, 0);
	cpu_buffer->read = 0;
	cpu_buffer->read_bytes = 0;
	cpu_buffer->read_stamp = 0;
	cpu_buffer->lost_events = 0;
	cpu_buffer->last_overrun = 0;
	cpu_buffer->current_context = 0;
	cpu_buffer->reset_seq++;
	rb_head_page_activate(cpu_buffer);
	/* Pages and their ids stay; the counters a mapping shows do not. */
	if (cpu_buffer->user_mapped)
		rb_map_update_meta(cpu_buffer);
	if (cpu_buffer->range_cpu)
		rb_range_reset_cpu(cpu_buffer);
}

/**
 * rbt_reset_cpu - empty one CPU's ring and zero its counters
 * @buffer: the buffer
 * @cpu: the CPU (a bad CPU is ignored)
 *
 * Events written concurrently are refused for the moment of the reset.
 */
void rbt_reset_cpu(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;

	if (!rb_valid_cpu(buffer, cpu))
		return;
	cpu_buffer = buffer->buffers[cpu];
	mutex_lock(&buffer->mutex);
	rb_quiesce_cpu(cpu_buffer);
	rb_reset_cpu_stopped(cpu_buffer);
	rb_resume_cpu(cpu_buffer);
	mutex_unlock(&buffer->mutex);
}
EXPORT_SYMBOL_GPL(rbt_reset_cpu);

/**
 * rbt_reset - empty every CPU's ring
 * @buffer: the buffer
 *
 * The writers of every CPU are quiesced together: one RCU grace period
 * for the whole buffer, not one per CPU.
 */
void rbt_reset(struct rbt_buffer *buffer)
{
	int cpu;

	mutex_lock(&buffer->mutex);
	for_each_cpu(cpu, buffer->cpumask)
		atomic_inc(&buffer->buffers[cpu]->refuse);
	/* Every writer that saw recording on has left: one wait for all. */
	synchronize_rcu();
	for_each_cpu(cpu, buffer->cpumask)
		rb_reset_cpu_stopped(buffer->buffers[cpu]);
	/* A range buffer's previous boot is gone: writers may write again. */
	rb_range_clear_old(buffer);
	for_each_cpu(cpu, buffer->cpumask)
		rb_resume_cpu(buffer->buffers[cpu]);
	mutex_unlock(&buffer->mutex);
}
EXPORT_SYMBOL_GPL(rbt_reset);
