// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace buffers in a given memory range: the sub-buffers of every CPU
 * are carved out of a physical range (memory reserved at boot) instead of
 * the page allocator, behind a header that describes them, so that the
 * next boot finds the pages of this one and can read them.
 *
 * Layout of the range (all little-endian, the sizes of this kernel):
 *
 *   header   PAGE_ALIGN(struct rb_range_hdr + nr_cpus positions)
 *   metadata two halves of RB_RANGE_META_HALF bytes: the client's
 *            (rbt_range_meta_write()), one of them current
 *   (gap)    up to the sub-buffer size: sub-buffers are aligned to it
 *   CPU 0    nr_pages sub-buffers of PAGE_SIZE << order bytes
 *   CPU 1    ...
 *
 * The declarations shared with rb_range_meta.c (the metadata area) and
 * rb_range_alloc.c (rbt_alloc_in(), which maps the range, checks or
 * writes the header and builds the buffer) are in rb_range.h.
 *
 * Nothing here is on the write path of an ordinary buffer: writers note
 * positions in the header only when the commit page moves (once a
 * sub-buffer) and readers when they swap a page in, both behind a test of
 * cpu_buffer->range_cpu in code that is already out of line.
 */
#include <linux/io.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "rb_internal.h"
#include "rb_clock.h"
#include "rb_range.h"

/* Sub-buffer @i of @cpu's part of the range. */
struct rb_data_page *rb_range_page(struct rb_range *range, int cpu,
				   unsigned int i)
{
	return range->vaddr + range->hdr_size +
		((size_t)cpu * range->nr_pages + i) * range->subbuf_bytes;
}

/* The index of @bpage in its CPU's part; a range buffer's page only. */
static u32 rb_range_index(struct rb_cpu_buffer *cpu_buffer, struct rb_page *bpage)
{
	return ((void *)bpage->page - cpu_buffer->range_base) >>
		(PAGE_SHIFT + cpu_buffer->buffer->subbuf_order);
}

/**
 * rb_range_note_commit - note where the commit and the head are
 * @cpu_buffer: a CPU of a range buffer, its outermost writer
 *
 * Called when the commit page moved. head_page may lag behind the true
 * head (it is found again lazily): the note is a hint for whoever reads
 * the range later, not something the next boot trusts.
 */
void rb_range_note_commit(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_range_cpu *pos = cpu_buffer->range_cpu;

	WRITE_ONCE(pos->commit, rb_range_index(cpu_buffer, cpu_buffer->commit_page));
	WRITE_ONCE(pos->head, rb_range_index(cpu_buffer, READ_ONCE(cpu_buffer->head_page)));
}

/**
 * rb_range_note_reader - note the reader page after a swap
 * @cpu_buffer: a CPU of a range buffer, cpu_buffer->lock held
 */
void rb_range_note_reader(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_range_cpu *pos = cpu_buffer->range_cpu;

	WRITE_ONCE(pos->reader, rb_range_index(cpu_buffer, cpu_buffer->reader_page));
	WRITE_ONCE(pos->head, rb_range_index(cpu_buffer, cpu_buffer->head_page));
}

/**
 * rb_range_reset_cpu - the positions of an emptied ring
 * @cpu_buffer: a CPU of a range buffer, reset under its locks
 */
void rb_range_reset_cpu(struct rb_cpu_buffer *cpu_buffer)
{
	rb_range_note_commit(cpu_buffer);
	rb_range_note_reader(cpu_buffer);
}

/*
 * Validate one sub-buffer of a previous boot: its commit within the
 * page, and from 0 to the commit only what the writer commits:
 *
 *  - events that decode inside the commit: at least 8 bytes, a multiple
 *    of 4 (so a long event's array[0] >= 4: rbt_event_length() cannot
 *    wrap), array[0] read only when the event has one;
 *  - no null padding: rb_reset_tail() writes it at the end of a page
 *    and moves write back over it, so it is never below a commit. Inside
 *    one it would hide the bytes after it from this check, and a reader
 *    that met it would stop the buffer (RB_WARN_ON);
 *  - a time extend or an absolute stamp is followed, inside the commit,
 *    by the event it stamps: a data event with delta 0 (rb_update_event()
 *    writes its time in the stamp), or that event discarded (padding
 *    with delta 1, rb_event_discard()). A stamp last before the commit
 *    would have a reader take what lies past the commit, past the
 *    sub-buffer on a full one, as its event.
 *
 * Stamps are not required to rise. Deltas cannot go back; an absolute
 * stamp is the clock as the writer read it (FORCE, or absolute mode),
 * which goes back when the clock steps back (rb_timestamp.h), and a
 * discard takes 1 from the stamp in front of the event it pads. Neither
 * tells a corrupt page from a good one, and a wrong stamp makes a reader
 * print a wrong time, never read out of place.
 *
 * Returns the number of data events (0 for an empty page), or -1 for a
 * page that must not be trusted.
 */
static long rb_range_check_page(struct rb_data_page *data, unsigned int size)
{
	unsigned long commit = local_read(&data->commit);
	unsigned int pos = 0, len;
	bool stamped = false;	/* the last event was a stamp for the next */
	long events = 0;

	if (!commit)
		return 0;
	if (commit > size)
		return -1;
	while (pos < commit) {
		struct rbt_event *event = (void *)data->data + pos;

		if (commit - pos < RB_EVNT_HDR_SIZE || rb_null_event(event))
			return -1;
		/* Every other kind but small data has array[0]: read it only inside. */
		if ((event->type_len > RB_TYPE_DATA_MAX || !event->type_len) &&
		    commit - pos < RB_EVNT_MIN_SIZE)
			return -1;
		len = rb_event_length(event);
		if (len < RB_EVNT_MIN_SIZE || len % RB_ALIGNMENT || len > commit - pos)
			return -1;
		switch (event->type_len) {
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP:
			if (stamped)
				return -1;
			stamped = true;
			break;
		case RB_TYPE_PADDING:
			if (stamped && event->time_delta != 1)
				return -1;
			stamped = false;
			break;
		default:
			if (stamped && event->time_delta)
				return -1;
			stamped = false;
			events++;
			break;
		}
		pos += len;
	}
	return stamped ? -1 : events;
}

/*
 * Sort order of a CPU's pages for the rebuilt ring: pages with data,
 * oldest first (the stamp of a page's first event; the pages of one
 * ring follow each other in time), then the empty ones.
 */
static int rb_range_cmp(const void *a, const void *b)
{
	const struct rb_page *pa = *(struct rb_page * const *)a;
	const struct rb_page *pb = *(struct rb_page * const *)b;
	bool da = local_read(&pa->entries), db = local_read(&pb->entries);

	if (da != db)
		return da ? -1 : 1;
	if (!da || pa->page->time_stamp == pb->page->time_stamp)
		return 0;
	return pa->page->time_stamp < pb->page->time_stamp ? -1 : 1;
}

/* A page of the previous boot: keep it with its events, or empty it. */
static void rb_range_take_page(struct rb_range *range, int cpu,
			       struct rb_page *bpage)
{
	struct rb_range_found *found = &range->found[cpu];
	long events = rb_range_check_page(bpage->page,
					  range->subbuf_bytes - RB_PAGE_HDR_SIZE);

	if (events > 0) {
		local_set(&bpage->write, local_read(&bpage->page->commit));
		local_set(&bpage->entries, events);
		found->pages_data++;
		found->events += events;
		return;
	}
	/* Never trusted: nothing of it is read, and it is written over. */
	if (events < 0)
		found->pages_bad++;
	bpage->page->time_stamp = 0;
	local_set(&bpage->page->commit, 0);
}

static void rb_range_free_descs(struct rb_page **bpages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kfree(bpages[i]);
}

/**
 * rb_range_cpu_pages - the descriptors of a CPU's sub-buffers in the range
 * @cpu_buffer: the CPU, being allocated (no writer, no reader)
 * @pages: an empty list: the ring's pages, in ring order, head first
 *
 * Sets the reader page and nr_pages. A fresh range gets empty pages. A
 * range with a previous boot's buffer gets its pages validated one by one
 * (rb_range_check_page()): those with events are put in the order of
 * their stamps, the oldest as the reader page (unread, it is what a
 * reader takes first) and the others from the head on; those that fail
 * are counted and emptied. rb_range_cpu_restore() sets the tail and the
 * counters once the ring is linked.
 *
 * Why the order is rebuilt from the stamps rather than kept in the
 * header: a crash stops writers anywhere, and a list of pages written as
 * the ring changes could be caught half updated. A sub-buffer's stamp and
 * commit word are written by the writer in an order that leaves each
 * page consistent at every instruction (the commit word only grows over
 * complete events, smp_wmb() before it: in the caches; for memory see
 * rb_range_clean()), so they are what is trusted.
 *
 * Return: 0 or -ENOMEM.
 */
int rb_range_cpu_pages(struct rb_cpu_buffer *cpu_buffer, struct list_head *pages)
{
	struct rb_range *range = cpu_buffer->buffer->range;
	int cpu = cpu_buffer->cpu;
	unsigned int n = range->nr_pages, i;
	struct rb_page **bpages;

	bpages = kcalloc(n, sizeof(*bpages), GFP_KERNEL);
	if (!bpages)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		bpages[i] = kzalloc_node(ALIGN(sizeof(*bpages[i]), cache_line_size()),
					 GFP_KERNEL, cpu_to_node(cpu));
		if (!bpages[i]) {
			rb_range_free_descs(bpages, i);
			kfree(bpages);
			return -ENOMEM;
		}
		bpages[i]->page = rb_range_page(range, cpu, i);
		bpages[i]->in_range = true;
		INIT_LIST_HEAD(&bpages[i]->list);
		if (range->restored) {
			rb_range_take_page(range, cpu, bpages[i]);
		} else {
			bpages[i]->page->time_stamp = 0;
			local_set(&bpages[i]->page->commit, 0);
		}
		cond_resched();
	}
	cpu_buffer->range_base = bpages[0]->page;
	cpu_buffer->range_cpu = &range->hdr->cpu[cpu];
	if (range->restored)
		sort(bpages, n, sizeof(*bpages), rb_range_cmp, NULL);

	cpu_buffer->reader_page = bpages[0];
	for (i = 1; i < n; i++)
		list_add_tail(&bpages[i]->list, pages);
	cpu_buffer->nr_pages = n - 1;
	kfree(bpages);
	return 0;
}

/**
 * rb_range_cpu_restore - the tail and the counters of a rebuilt ring
 * @cpu_buffer: the CPU, its ring linked by rb_make_ring() (head first)
 *
 * The pages with data come first from the head: the last of them is the
 * tail and commit page, where the previous boot's writer stopped.
 */
void rb_range_cpu_restore(struct rb_cpu_buffer *cpu_buffer)
{
	struct rb_page *reader = cpu_buffer->reader_page;
	struct rb_page *bpage = cpu_buffer->head_page, *last = bpage;
	unsigned long entries = rb_page_entries(reader);
	unsigned long bytes = rb_page_commit(reader);
	unsigned long i, seq = 0;

	reader->seq = seq++;
	for (i = 0; i < cpu_buffer->nr_pages; i++) {
		if (!rb_page_entries(bpage))
			break;
		entries += rb_page_entries(bpage);
		bytes += rb_page_commit(bpage);
		bpage->seq = seq++;
		last = bpage;
		rb_inc_page(&bpage);
	}
	cpu_buffer->tail_page = last;
	cpu_buffer->commit_page = last;
	local_set(&cpu_buffer->entries, entries);
	local_set(&cpu_buffer->entries_bytes, bytes);
	local_set(&cpu_buffer->pages_touched, i);
	cpu_buffer->read_stamp = reader->page->time_stamp;
}

/* The clock's name, for a later boot: the readers' units. */
void rb_range_note_clock(struct rb_range *range, u64 (*clock)(void))
{
	const struct rbt_clock *c = rb_clock_of(clock);

	strscpy_pad(range->hdr->clock, c ? c->name : "unknown", RB_RANGE_CLOCK_LEN);
}

/**
 * rb_range_set_clock - a range buffer's clock changed
 * @buffer: the buffer
 */
void rb_range_set_clock(struct rbt_buffer *buffer)
{
	if (buffer->range)
		rb_range_note_clock(buffer->range, READ_ONCE(buffer->clock));
}

void rb_range_unmap(struct rb_range *range)
{
	kfree(range->old_meta);
	memunmap(range->vaddr);
	kfree(range->found);
	kfree(range);
}

/**
 * rb_range_restored - did @range hold a previous boot's buffer?
 * @range: the range
 *
 * Return: true if its header matched and its pages were taken over.
 */
bool rb_range_restored(struct rb_range *range)
{
	return range->restored;
}

/**
 * rb_range_nr_pages - the ring size of each CPU in @range
 * @range: the range
 *
 * Return: its sub-buffers per CPU but the reader page.
 */
unsigned long rb_range_nr_pages(struct rb_range *range)
{
	return range->nr_pages - 1;
}

/**
 * rb_range_clear_old - the previous boot's data is gone: writers may write
 * @buffer: the buffer, just reset on every CPU
 */
void rb_range_clear_old(struct rbt_buffer *buffer)
{
	/*
	 * 1 -> 0 once: the caller that wins lifts the refusal the old data
	 * set at attach; a loser (0: already cleared, or never old) has
	 * nothing to lift, so two resets racing lift it once.
	 */
	if (buffer->range && atomic_cmpxchg(&buffer->range->old, 1, 0) == 1)
		rb_refuse_all(buffer, -1);
}

/**
 * rb_range_free - the range part of rbt_free()
 * @buffer: the buffer, its writers stopped and gone
 */
void rb_range_free(struct rbt_buffer *buffer)
{
	struct rb_range *range = buffer->range;

	if (!range)
		return;
	unregister_die_notifier(&range->die_nb);
	atomic_notifier_chain_unregister(&panic_notifier_list, &range->panic_nb);
	rb_range_unmap(range);
}

/**
 * rbt_range_info - what a range buffer found when it was allocated
 * @buffer: the buffer
 * @cpu: the CPU
 * @info: filled in
 *
 * Return: 0; -EINVAL for a buffer not from rbt_alloc_in() or a bad CPU.
 */
int rbt_range_info(struct rbt_buffer *buffer, int cpu, struct rbt_range_info *info)
{
	struct rb_range *range = buffer->range;
	struct rb_range_found *found;

	if (!range || !rb_valid_cpu(buffer, cpu))
		return -EINVAL;
	found = &range->found[cpu];
	memset(info, 0, sizeof(*info));
	info->start = range->start;
	info->size = range->size;
	info->restored = range->restored;
	info->old = atomic_read(&range->old);
	info->pages = range->nr_pages;
	info->pages_data = found->pages_data;
	info->pages_bad = found->pages_bad;
	info->events = found->events;
	info->head = found->pos.head;
	info->commit = found->pos.commit;
	info->reader = found->pos.reader;
	info->kaslr_offset = range->hdr->kaslr_offset;
	strscpy(info->clock, range->restored ? range->old_clock : range->hdr->clock,
		sizeof(info->clock));
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_range_info);

/**
 * rbt_in_range - is @buffer's memory a range given to rbt_alloc_in()?
 * @buffer: the buffer
 *
 * Return: true for a buffer of rbt_alloc_in().
 */
bool rbt_in_range(struct rbt_buffer *buffer)
{
	return buffer->range;
}
EXPORT_SYMBOL_GPL(rbt_in_range);
