// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace buffers in a given memory range, their making: rbt_alloc_in()
 * maps the range, keeps a previous boot's header or writes a new one,
 * builds the buffer over it (rb_alloc_buffer()) and registers the
 * notifiers that stop it on a panic or an oops (rbt_record_off()); and,
 * in test builds, rbt_range_corrupt(), which stops it to damage its
 * sub-buffers for the next boot to find.
 *
 * This is the one part of the range that calls the buffer's own files,
 * and it is its own file for that: rb_range.c (the range's sub-buffers
 * and positions while the buffer runs, and rb_range_free(), the range
 * part of rbt_free()) is called by the buffer, the commit and the reader
 * and calls none of them, so the ring buffer's files form layers with no
 * circle. The layout of the range is described in rb_range.c; the
 * declarations the range's files share are in rb_range.h.
 */
#include <linux/io.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "rb_internal.h"
#include "rb_range.h"

/* Why the range holds no buffer of ours, or NULL if it does. */
static const char *rb_range_mismatch(struct rb_range *range, unsigned int order)
{
	struct rb_range_hdr *hdr = range->hdr;

	if (hdr->magic != RB_RANGE_MAGIC)
		return "no rbtrace header";
	if (hdr->version != RB_RANGE_VERSION)
		return "another layout version";
	/*
	 * Sub-buffers at another offset: before they were aligned to their
	 * size, CPU 0's followed the metadata directly. At order 0 the two
	 * are one offset and such a range is read as any; above it, it is
	 * refused rather than read at the wrong places.
	 */
	if (hdr->hdr_size != range->hdr_size)
		return "sub-buffers at another offset (not aligned to their size)";
	if (hdr->nr_cpus != nr_cpu_ids ||
	    hdr->subbuf_order != order || hdr->subbuf_bytes != PAGE_SIZE << order ||
	    hdr->nr_pages != range->nr_pages || hdr->page_size != PAGE_SIZE ||
	    hdr->range_size != range->size)
		return "another geometry";
	return NULL;
}

static void rb_range_init_hdr(struct rb_range *range, unsigned int order)
{
	struct rb_range_hdr *hdr = range->hdr;

	WRITE_ONCE(hdr->magic, 0);
	rb_range_clean(&hdr->magic, sizeof(hdr->magic));
	/*
	 * An old magic (another geometry's header) goes first: no new field
	 * may be found under it. The partner is the next boot's check of the
	 * magic, as for the store of the new one below.
	 */
	smp_wmb();
	/* The metadata halves too: both empty, half 0 current. */
	memset(hdr, 0, rb_range_hdr_size());
	hdr->version = RB_RANGE_VERSION;
	hdr->hdr_size = range->hdr_size;
	hdr->nr_cpus = nr_cpu_ids;
	hdr->subbuf_bytes = PAGE_SIZE << order;
	hdr->subbuf_order = order;
	hdr->nr_pages = range->nr_pages;
	hdr->page_size = PAGE_SIZE;
	hdr->range_size = range->size;
	/*
	 * kaslr_offset() reads _text, which modules cannot link against on
	 * the kernels we build for: 0 says "not recorded".
	 */
	hdr->kaslr_offset = 0;
	rb_range_clean(hdr, rb_range_hdr_size());
	/*
	 * The magic last: a header is valid only once complete. Its partner
	 * is no reader of this boot but the next boot's check of the magic
	 * before the rest (rb_range_mismatch()), through memory: the
	 * smp_wmb() puts the header in the caches before the magic, the
	 * clean (elsewhere than x86, see rb_range_clean()) in memory. A
	 * crash between these stores leaves no magic, never a magic over a
	 * half-made header.
	 */
	smp_wmb();
	WRITE_ONCE(hdr->magic, RB_RANGE_MAGIC);
	rb_range_clean(&hdr->magic, sizeof(hdr->magic));
}

/*
 * A panic or an oops: stop every writer, so that the pages a later boot
 * reads hold still from here, and note the positions once more. Writers
 * that passed their check already finish their event or are stopped by
 * the panic's NMI: either way each page stays consistent (its commit
 * word covers complete events only, each page's smp_wmb() before it).
 * Then the range goes to memory (rb_range_clean(): nothing on x86; on a
 * panic the other CPUs are stopped before the notifiers run, so the
 * clean comes after their last store).
 */
static void rb_range_stop(struct rb_range *range)
{
	int cpu;

	rbt_record_off(range->buffer);
	for_each_cpu(cpu, range->buffer->cpumask)
		rb_range_note_commit(range->buffer->buffers[cpu]);
	rb_range_clean(range->vaddr, range->size);
}

static int rb_range_panic(struct notifier_block *nb, unsigned long event, void *data)
{
	rb_range_stop(container_of(nb, struct rb_range, panic_nb));
	return NOTIFY_DONE;
}

static int rb_range_die(struct notifier_block *nb, unsigned long event, void *data)
{
	if (event == DIE_OOPS)
		rb_range_stop(container_of(nb, struct rb_range, die_nb));
	return NOTIFY_DONE;
}

/*
 * Map the range and size it. A range that is RAM (reserve_mem= keeps it
 * in the memory map, as reserved memblock) is given back as the direct
 * map by memremap(); other ranges (memmap=SIZE$START) are mapped
 * write-back.
 *
 * CPU 0's first sub-buffer is the first address after the header and
 * the metadata aligned to the sub-buffer size, and every sub-buffer after
 * it is a whole number of sizes further: each one naturally aligned, as
 * the page allocator's are. rb_event_index(), rb_try_to_discard() and
 * rb_decrement_entry() find an event's sub-buffer by masking its address
 * (ftrace aligns its range's sub-buffers the same way:
 * rb_range_align_subbuf()). The alignment is of the virtual address,
 * which is what they mask. It gives the same offset in the range every
 * boot: the direct map keeps addresses congruent to the physical ones
 * modulo far more than a sub-buffer, and an ioremap()ed range starts at
 * an address aligned to its size rounded up to a power of two (capped at
 * IOREMAP_MAX_ORDER, at least 512 KiB: the largest sub-buffer, order 7).
 * The header records the offset (hdr_size); another one is another
 * geometry.
 */
static struct rb_range *rb_range_map(phys_addr_t start, size_t size,
				     unsigned int order)
{
	size_t hdr = rb_range_hdr_size(), subbuf = PAGE_SIZE << order, per_cpu = 0;
	struct rb_range *range;

	if (!size || !PAGE_ALIGNED(start) || size <= hdr)
		return NULL;
	range = kzalloc(sizeof(*range), GFP_KERNEL);
	if (!range)
		return NULL;
	range->found = kcalloc(nr_cpu_ids, sizeof(*range->found), GFP_KERNEL);
	range->vaddr = memremap(start, size, MEMREMAP_WB);
	if (range->vaddr) {
		hdr = PTR_ALIGN(range->vaddr + hdr, subbuf) - range->vaddr;
		if (hdr < size)
			per_cpu = (size - hdr) / nr_cpu_ids / subbuf;
	}
	/* A reader page and a ring of two at least. */
	if (!range->found || !range->vaddr || per_cpu < 3 || per_cpu > U32_MAX) {
		if (range->vaddr)
			memunmap(range->vaddr);
		kfree(range->found);
		kfree(range);
		return NULL;
	}
	range->start = start;
	range->size = size;
	range->hdr = range->vaddr;
	range->hdr_size = hdr;
	range->subbuf_bytes = subbuf;
	range->nr_pages = per_cpu;
	return range;
}

static void rb_range_report(struct rb_range *range, const char *why)
{
	unsigned long data = 0, bad = 0, events = 0;
	int cpu;

	if (why) {
		pr_info("rbtrace: buffer at %pa (%zu bytes): %s, starting empty\n",
			&range->start, range->size, why);
		return;
	}
	for_each_possible_cpu(cpu) {
		data += range->found[cpu].pages_data;
		bad += range->found[cpu].pages_bad;
		events += range->found[cpu].events;
	}
	pr_info("rbtrace: buffer at %pa (%zu bytes): the previous boot's, %lu events in %lu sub-buffers, %lu sub-buffers refused, clock %.*s; read-only until cleared\n",
		&range->start, range->size, events, data, bad,
		RB_RANGE_CLOCK_LEN, range->old_clock);
}

/**
 * rbt_alloc_in - allocate a buffer whose pages are a given physical range
 * @start: physical address of the range, page aligned (memory reserved at
 *         boot: reserve_mem=, memmap=)
 * @size: bytes of the range
 * @flags: as rbt_alloc()
 * @order: as rbt_alloc(); with the range's size and the number of
 *         possible CPUs it sets how many sub-buffers each CPU gets
 *
 * The first page(s) of the range hold a header (magic, version, geometry,
 * the clock's name, the positions of each CPU's ring). If the header is
 * a previous boot's with the same geometry, the buffer is rebuilt from
 * its pages: every sub-buffer is validated, those that fail are counted
 * (rbt_range_info()) and emptied, never read; the others are readable as
 * any buffer's, and writers are refused until rbt_reset() clears the old
 * data. Otherwise the range is set up empty (one pr_info line says why).
 *
 * The buffer stops recording on a panic and an oops (notifiers), so
 * that a later boot reads the events up to there. Its size and sub-buffer
 * size are fixed (rbt_resize() and rbt_set_subbuf_order() refuse with
 * -EBUSY) and it cannot be mapped to user space (rbt_map(): -ENODEV).
 *
 * Sub-buffers are aligned to their size (the header and the metadata are
 * followed by a gap up to it), so a range needs room for that too.
 *
 * Return: the buffer, freed with rbt_free(), or NULL for a range too small
 * for three sub-buffers per CPU, not page aligned, that cannot be mapped,
 * a failed allocation, or an architecture whose caches this file cannot
 * clean to memory (see rb_range_clean()).
 */
struct rbt_buffer *rbt_alloc_in(phys_addr_t start, size_t size,
				unsigned int flags, unsigned int order)
{
	struct rbt_buffer *buffer;
	struct rb_range *range;
	const char *why;

	if (order > RB_MAX_ORDER)
		return NULL;
	if (!RB_RANGE_CAN_CLEAN) {
		pr_warn_once("rbtrace: no cache clean on this architecture: no buffer in a memory range\n");
		return NULL;
	}
	range = rb_range_map(start, size, order);
	if (!range)
		return NULL;
	why = rb_range_mismatch(range, order);
	range->restored = !why;
	if (range->restored) {
		int cpu;

		for_each_possible_cpu(cpu)
			range->found[cpu].pos = range->hdr->cpu[cpu];
		memcpy(range->old_clock, range->hdr->clock, RB_RANGE_CLOCK_LEN);
		range->old_clock[RB_RANGE_CLOCK_LEN - 1] = '\0';
		rb_range_take_meta(range);
	} else {
		rb_range_init_hdr(range, order);
	}

	mutex_init(&range->meta_lock);
	buffer = rb_alloc_buffer(0, flags, order, range);
	if (!buffer) {
		rb_range_unmap(range);
		return NULL;
	}
	range->buffer = buffer;
	rb_range_note_clock(range, buffer->clock);
	if (range->restored) {
		atomic_set(&range->old, 1);
		rb_refuse_all(buffer, 1);
	}
	rb_range_report(range, why);

	range->panic_nb.notifier_call = rb_range_panic;
	atomic_notifier_chain_register(&panic_notifier_list, &range->panic_nb);
	range->die_nb.notifier_call = rb_range_die;
	register_die_notifier(&range->die_nb);
	return buffer;
}
EXPORT_SYMBOL_GPL(rbt_alloc_in);

#ifdef RBTRACE_TEST_HOOKS
/**
 * rbt_range_corrupt - test builds: damage sub-buffers of a range buffer
 * @buffer: the buffer
 * @cpu: the CPU
 * @nr: how many sub-buffers with data, from the newest back
 * @how: 0 random bytes over the whole sub-buffer, header included;
 *       1 a commit word past the end; 2 random bytes over the events;
 *       3 a torn metadata update (@cpu and @nr unused): random bytes
 *       over the half that is not current, a length past its end, the
 *       index not flipped, as a crash inside rbt_range_meta_write()
 *
 * For the next boot's validation to find: recording is stopped first
 * (the writer would write over the damage).
 *
 * Return: the number of sub-buffers damaged, or -EINVAL.
 */
int rbt_range_corrupt(struct rbt_buffer *buffer, int cpu, unsigned int nr,
		      unsigned int how)
{
	struct rb_range *range = buffer->range;
	unsigned int i, done = 0;

	if (!range || !rb_valid_cpu(buffer, cpu) || how > 3)
		return -EINVAL;
	if (how == 3) {
		struct rb_range_meta *next;

		next = rb_range_meta(range, !(READ_ONCE(range->hdr->meta_cur) & 1));
		get_random_bytes(next, RB_RANGE_META_HALF);
		next->len = RB_RANGE_META_HALF;
		return 1;
	}
	rbt_record_off(buffer);
	synchronize_rcu();
	for (i = range->nr_pages; i-- > 0 && done < nr;) {
		struct rb_data_page *data = rb_range_page(range, cpu, i);
		unsigned long commit = local_read(&data->commit);

		if (!commit || commit > buffer->subbuf_size)
			continue;
		if (how == 0)
			get_random_bytes(data, range->subbuf_bytes);
		else if (how == 1)
			local_set(&data->commit, buffer->subbuf_size + 8);
		else
			get_random_bytes(data->data, commit);
		done++;
	}
	return done;
}
EXPORT_SYMBOL_GPL(rbt_range_corrupt);
#endif
