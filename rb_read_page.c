// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace raw pages: whole sub-buffers handed out in ftrace's format, for
 * trace_pipe_raw, splice and libtraceevent.
 *
 * When the reader page is full, unread, and the writer has left it, the
 * caller's page is swapped in for it: the data leaves the buffer without
 * a copy. Otherwise the events are copied one by one. Either way the page
 * that leaves carries the count of events lost before it (RB_MISSED_*)
 * and nothing but zeros after its data: it may go to user space.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include "rb_internal.h"

/**
 * struct rbt_read_page - a sub-buffer owned by a reader
 * @order: its order; must match the ring's to be swapped in (rb_ring_order())
 * @data: the page, in ftrace's format
 */
struct rbt_read_page {
	unsigned int		order;
	struct rb_data_page	*data;
};

static void rb_init_data_page(struct rb_data_page *bpage)
{
	bpage->time_stamp = 0;
	local_set(&bpage->commit, 0);
}

/*
 * The order of the CPU's sub-buffers as they are allocated, which is what
 * a page swapped in must match. Not buffer->subbuf_order: that is stored
 * after rbt_set_subbuf_order() has switched every CPU's ring, outside the
 * locks, so a reader that checked it could meet a ring of the other size.
 * Stable under reader_lock or cpu_buffer->lock: rb_switch_ring() holds
 * both to replace the reader page, rb_swap_reader_page() holds the swap
 * lock to change which page it is, and rb_swap_out_page() (reader_lock
 * only) changes its data page for one of the same order.
 */
static unsigned int rb_ring_order(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_data_page *data = READ_ONCE(cpu_buffer->reader_page->page);

	/* A range's pages are no compound pages; their order never changes. */
	if (cpu_buffer->range_cpu)
		return cpu_buffer->buffer->subbuf_order;
	return compound_order(virt_to_page(data));
}

/**
 * rbt_alloc_read_page - get a page to read a CPU's sub-buffers into
 * @buffer: the buffer
 * @cpu: the CPU it will read
 *
 * Reuses the page the CPU last had returned to it, when there is one.
 *
 * Return: the page, or ERR_PTR(-EINVAL) for a bad CPU, ERR_PTR(-ENOMEM).
 */
struct rbt_read_page *rbt_alloc_read_page(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;
	struct rbt_read_page *rpage;
	unsigned long flags;
	struct page *page;

	if (!rb_valid_cpu(buffer, cpu))
		return ERR_PTR(-EINVAL);
	cpu_buffer = buffer->buffers[cpu];

	rpage = kzalloc(sizeof(*rpage), GFP_KERNEL);
	if (!rpage)
		return ERR_PTR(-ENOMEM);

	/*
	 * The order and the spare together, under the swap lock: the spare
	 * is of the ring's order (rbt_free_read_page() checks under it, and
	 * rb_switch_ring() takes the spare away under it).
	 */
	local_irq_save(flags);
	arch_spin_lock(&cpu_buffer->lock);
	rb_hook(buffer, RBT_HOOK_ALLOC_READ_PAGE);
	rpage->order = rb_ring_order(cpu_buffer);
	rpage->data = cpu_buffer->free_page;
	cpu_buffer->free_page = NULL;
	arch_spin_unlock(&cpu_buffer->lock);
	local_irq_restore(flags);

	if (!rpage->data) {
		page = alloc_pages_node(cpu_to_node(cpu),
					GFP_KERNEL | __GFP_NORETRY | __GFP_COMP | __GFP_ZERO,
					rpage->order);
		if (!page) {
			kfree(rpage);
			return ERR_PTR(-ENOMEM);
		}
		rpage->data = page_address(page);
	}
	rb_init_data_page(rpage->data);
	return rpage;
}
EXPORT_SYMBOL_GPL(rbt_alloc_read_page);

/**
 * rbt_free_read_page - give back a page from rbt_alloc_read_page()
 * @buffer: the buffer
 * @cpu: the CPU it was allocated for
 * @rpage: the page
 *
 * The page is kept for the next rbt_alloc_read_page() if nobody else
 * holds a reference to it (splice may still have it in a pipe).
 */
void rbt_free_read_page(struct rbt_buffer *buffer, int cpu,
			struct rbt_read_page *rpage)
{
	struct rb_data_page *bpage = rpage->data;
	struct rb_cpu_buffer *cpu_buffer;
	unsigned long flags;

	if (rb_valid_cpu(buffer, cpu) && page_ref_count(virt_to_page(bpage)) == 1) {
		cpu_buffer = buffer->buffers[cpu];
		local_irq_save(flags);
		arch_spin_lock(&cpu_buffer->lock);
		/* Only a page of the ring's order: see rb_ring_order(). */
		if (!cpu_buffer->free_page && rpage->order == rb_ring_order(cpu_buffer)) {
			cpu_buffer->free_page = bpage;
			bpage = NULL;
		}
		arch_spin_unlock(&cpu_buffer->lock);
		local_irq_restore(flags);
	}
	if (bpage)
		free_pages((unsigned long)bpage, rpage->order);
	kfree(rpage);
}
EXPORT_SYMBOL_GPL(rbt_free_read_page);

/**
 * rbt_read_page_data - the bytes of a read page
 * @rpage: the page
 *
 * Return: the sub-buffer, PAGE_SIZE << order bytes, in ftrace's format.
 */
void *rbt_read_page_data(struct rbt_read_page *rpage)
{
	return rpage->data;
}
EXPORT_SYMBOL_GPL(rbt_read_page_data);

/**
 * rbt_read_page_page - the struct page of a read page, for splice
 * @rpage: the page
 *
 * Return: the page.
 */
struct page *rbt_read_page_page(struct rbt_read_page *rpage)
{
	return virt_to_page(rpage->data);
}
EXPORT_SYMBOL_GPL(rbt_read_page_page);

/* Copy whole events (a time extend with its event) while they fit. */
static unsigned int rb_copy_events(struct rb_cpu_buffer *cpu_buffer,
				   struct rb_data_page *bpage, size_t len,
				   unsigned int commit)
{
	struct rb_page *reader = cpu_buffer->reader_page;
	struct rbt_event *event = rb_reader_event(cpu_buffer);
	unsigned int pos = 0, size;

	bpage->time_stamp = cpu_buffer->read_stamp;
	while (len >= rb_event_ts_length(event)) {
		size = rb_event_length(event);
		memcpy(bpage->data + pos, event, size);
		pos += size;
		len -= size;
		rb_advance_reader(cpu_buffer);
		if (reader->read >= commit)
			break;
		event = rb_reader_event(cpu_buffer);
	}
	return pos;
}

/* Give the reader page's data to the caller and take its empty page. */
static struct rb_data_page *rb_swap_out_page(struct rb_cpu_buffer *cpu_buffer,
					     struct rbt_read_page *rpage)
{
	struct rb_page *reader = cpu_buffer->reader_page;
	struct rb_data_page *bpage = reader->page;

	cpu_buffer->read += rb_page_entries(reader);
	cpu_buffer->read_bytes += rb_page_size(reader);
	rb_init_data_page(rpage->data);
	/* Read under the swap lock alone by rb_ring_order(): same order. */
	WRITE_ONCE(reader->page, rpage->data);
	local_set(&reader->write, 0);
	local_set(&reader->entries, 0);
	reader->read = 0;
	rpage->data = bpage;
	rb_commit_to_real_end(reader, bpage);
	return bpage;
}

/**
 * rb_mark_missed - note lost events in a page the writer has left
 * @buffer: the buffer
 * @bpage: the page, its commit the end of its data
 * @missed: events lost before it, or 0
 *
 * RB_MISSED_EVENTS in commit, the count after the data (RB_MISSED_STORED)
 * if it fits, and the bytes after that zeroed.
 */
void rb_mark_missed(struct rbt_buffer *buffer, struct rb_data_page *bpage,
		    unsigned long missed)
{
	unsigned long commit = local_read(&bpage->commit);
	unsigned long flags = 0;

	/* The page is the reader's alone now: plain stores will do. */
	if (missed) {
		if (buffer->subbuf_size - commit >= sizeof(missed)) {
			memcpy(&bpage->data[commit], &missed, sizeof(missed));
			flags |= RB_MISSED_STORED;
		}
		flags |= RB_MISSED_EVENTS;
		local_set(&bpage->commit, commit | flags);
		if (flags & RB_MISSED_STORED)
			commit += sizeof(missed);
	}
	/* Nothing stale may reach user space. */
	if (commit < buffer->subbuf_size)
		memset(&bpage->data[commit], 0, buffer->subbuf_size - commit);
}

/**
 * rbt_read_page - move the next sub-buffer of a CPU into @rpage
 * @buffer: the buffer
 * @rpage: a page from rbt_alloc_read_page() for this CPU
 * @len: bytes the caller can take, page header included
 * @cpu: the CPU
 * @full: only hand out data the writer has left: a whole sub-buffer, or
 *        the unread rest of one that a reader started
 *
 * Swaps the page out without copying when the reader page is unread, fits
 * in @len and the writer is off it; otherwise copies as many whole events
 * as fit (unless @full). The page's commit word has RB_MISSED_EVENTS set
 * when events were lost before it, and RB_MISSED_STORED when their count
 * (an unsigned long) follows the data. Bytes after that are zero.
 *
 * Refused while the CPU is mapped (rbt_map()): the mapping is then the
 * CPU's only consumer, or a swap here would put the sub-buffer user space
 * was handed back into the ring for writers to overwrite.
 *
 * Not from NMI: reader_lock is taken, not tried.
 *
 * Return: the number of data bytes in the page (> 0), -EAGAIN when there
 * is nothing to read (or no full page with @full), or when a writer of
 * another CPU held the head or a page crossing for longer than the
 * reader waits (RB_READER_WAIT_NS; try again), -EBUSY while the CPU is
 * mapped, -EINVAL for a bad CPU, a page of another order than the CPU's
 * sub-buffers, or a @len too
 * small for one event.
 */
int rbt_read_page(struct rbt_buffer *buffer, struct rbt_read_page *rpage,
		  size_t len, int cpu, bool full)
{
	struct rb_cpu_buffer *cpu_buffer;
	struct rb_data_page *bpage;
	struct rb_page *reader;
	unsigned long missed, flags;
	unsigned int commit, read;
	int ret = -EAGAIN;

	if (!rb_valid_cpu(buffer, cpu) || !rpage || len <= RB_PAGE_HDR_SIZE)
		return -EINVAL;
	len -= RB_PAGE_HDR_SIZE;
	cpu_buffer = buffer->buffers[cpu];
	bpage = rpage->data;
	rb_hook(buffer, RBT_HOOK_READ_PAGE);

	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	/*
	 * Before any swap. user_mapped goes 0 -> 1 and 1 -> 0 under
	 * reader_lock (rb_mmap.c), the first time together with the ids.
	 */
	if (cpu_buffer->user_mapped) {
		ret = -EBUSY;
		goto out;
	}
	/*
	 * The order check under reader_lock, against the ring itself: a
	 * page of another size must not be swapped in, which a check of
	 * buffer->subbuf_order before the lock could let happen while
	 * rbt_set_subbuf_order() switches the rings (rb_ring_order()).
	 */
	if (rpage->order != rb_ring_order(cpu_buffer)) {
		ret = -EINVAL;
		goto out;
	}
	reader = rb_get_reader_page(cpu_buffer);
	if (!reader)
		goto out;
	read = reader->read;
	commit = rb_page_size(reader);
	missed = cpu_buffer->lost_events;

	if (read || len < commit || reader == READ_ONCE(cpu_buffer->commit_page) ||
	    cpu_buffer->range_cpu) {
		/*
		 * Copy. With @full, only the unread rest of a page that a
		 * reader started and the writer has left, when it fits; or
		 * a whole page of a range buffer, whose sub-buffers are the
		 * range's and never leave it.
		 */
		if (full && (len < commit - read || reader == READ_ONCE(cpu_buffer->commit_page) ||
			     (!read && !cpu_buffer->range_cpu)))
			goto out;
		if (len < rb_event_ts_length(rb_reader_event(cpu_buffer))) {
			ret = -EINVAL;
			goto out;
		}
		local_set(&bpage->commit,
			  rb_copy_events(cpu_buffer, bpage, min_t(size_t, len, commit - read),
					 commit));
	} else {
		bpage = rb_swap_out_page(cpu_buffer, rpage);
	}
	cpu_buffer->lost_events = 0;
	rb_mark_missed(buffer, bpage, missed);
	ret = local_read(&bpage->commit) & ~RB_MISSED_FLAGS;
	if (!ret)
		ret = -EAGAIN;
out:
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(rbt_read_page);
