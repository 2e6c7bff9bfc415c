// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace user mappings: one CPU's ring mapped read-only into user space,
 * with the ABI of Linux 6.10's trace_mmap.h (see rbtrace_mmap.h).
 *
 * A mapping shows the sub-buffers in place, so while one exists the ring
 * keeps its pages:
 *
 *  - every sub-buffer gets an id, its index in the mapping: the reader
 *    page 0, then the ring in order from the head. The id belongs to the
 *    page descriptor and travels with it through reader swaps, so that
 *    reader.id always names the page user space may read;
 *  - the mapping is the CPU's only consumer: rbt_read_page() (read and
 *    splice of trace_pipe_raw, on any descriptor) refuses with -EBUSY,
 *    so that no swap puts the page GET_READER handed out back into the
 *    ring, nor swaps a data page out of it;
 *  - rbt_resize() and rbt_set_subbuf_order() refuse with -EBUSY.
 *
 * Locking: mapping_lock serialises map, unmap and the meta page's users;
 * the first map and the last unmap also take buffer->mutex, which resize
 * holds, so that user_mapped never changes under a resize. The reader
 * swap itself stays lockless against writers (rb_reader.c); ids are
 * assigned under reader_lock and the swap lock, with no swap in flight,
 * and user_mapped is set in the same section (rb_map_first()).
 *
 * Lifetime: a VMA holds its file, the file holds the module (.owner), so
 * rmmod waits for the last munmap(). The VMA is VM_PFNMAP (rb_map_vma()):
 * its ptes hold no page references. A page stays because nothing frees
 * or swaps out a page of the ring while user_mapped > 0 (above), and
 * user_mapped drops to 0 in the last rbt_unmap(), from vm_ops->close
 * once the VMA's ptes are gone; the meta page is freed there too.
 */
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <rbtrace/rbtrace.h>
#include "rb_internal.h"

static_assert(sizeof(struct rbt_buffer_meta) == 80,
	      "struct rbt_buffer_meta must match struct trace_buffer_meta");

/* vm_flags became read-only, with helpers to change it, in 6.3. */
static void rb_vma_flags_mod(struct vm_area_struct *vma, vm_flags_t set, vm_flags_t clear)
{
#ifdef RBT_HAVE_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

static unsigned int rb_map_subbuf_bytes(struct rbt_buffer *buffer)
{
	return PAGE_SIZE << buffer->subbuf_order;
}

/**
 * rb_map_update_meta - show the ring's state in the meta page, if mapped
 * @cpu_buffer: the per-CPU buffer, reader_lock held
 *
 * After a swap by GET_READER and after a reset (rb_reset_cpu_locked()).
 */
void rb_map_update_meta(struct rb_cpu_buffer *cpu_buffer)
{
	struct rbt_buffer_meta *meta = cpu_buffer->meta_page;

	if (!meta)
		return;
	meta->reader.read = cpu_buffer->reader_page->read;
	meta->reader.id = cpu_buffer->reader_page->id;
	meta->reader.lost_events = cpu_buffer->lost_events;
	meta->entries = local_read(&cpu_buffer->entries);
	meta->overrun = local_read(&cpu_buffer->overrun);
	meta->read = cpu_buffer->read;
	/* Caches that do not snoop user mappings see the new values. */
	flush_kernel_vmap_range(meta, PAGE_SIZE);
}

/*
 * Give every sub-buffer its id and fill the meta page. Called with
 * reader_lock and the swap lock held: the ring cannot turn under us.
 */
static void rb_setup_ids(struct rb_cpu_buffer *cpu_buffer, unsigned long *ids)
{
	struct rbt_buffer_meta *meta = cpu_buffer->meta_page;
	unsigned int nr = cpu_buffer->nr_pages + 1, id = 0;
	struct rb_page *first, *bpage;

	ids[id] = (unsigned long)cpu_buffer->reader_page->page;
	cpu_buffer->reader_page->id = id++;
	/*
	 * Ids only name the pages: any page of the ring may take id 1. The
	 * head is the natural first; when writers pushing it kept the
	 * search from finding it within its bound (rb_set_head_page(): that
	 * is load, not a broken ring, and a ring with no head has warned
	 * there already), the last head seen does as well. It is a page of
	 * the ring: only a reader swap takes pages out, and we hold
	 * reader_lock.
	 */
	first = rb_set_head_page(cpu_buffer) ?: cpu_buffer->head_page;
	bpage = first;
	/* No page at all: a ring that was never set up, warned above. */
	if (bpage) {
		do {
			if (RB_WARN_ON(cpu_buffer, id >= nr))
				break;
			ids[id] = (unsigned long)bpage->page;
			bpage->id = id++;
			rb_inc_page(&bpage);
		} while (bpage != first);
	}
	cpu_buffer->subbuf_ids = ids;
	meta->meta_struct_len = sizeof(*meta);
	meta->nr_subbufs = nr;
	meta->subbuf_size = rb_map_subbuf_bytes(cpu_buffer->buffer);
	/* Sub-buffer 0 starts one sub-buffer in, aligned as the others. */
	meta->meta_page_size = meta->subbuf_size;
	rb_map_update_meta(cpu_buffer);
}

/* Map @nr pages of one physically contiguous block, from @page, at @addr. */
static int rb_map_block(struct vm_area_struct *vma, unsigned long addr,
			struct page *page, unsigned long nr)
{
	return remap_pfn_range(vma, addr, page_to_pfn(page), nr << PAGE_SHIFT,
			       vma->vm_page_prot);
}

/*
 * Map the pages of @vma: the meta page (then zero pages up to one
 * sub-buffer) at offset 0, then the sub-buffers in id order.
 *
 * remap_pfn_range() makes the VMA VM_IO | VM_PFNMAP and its ptes special:
 * no struct page of it is looked at by the mm. madvise()'s LRU advice
 * (MADV_COLD and MADV_PAGEOUT: can_madv_lru_vma()) and MADV_DONTNEED,
 * MADV_FREE and MADV_DOFORK are refused with -EINVAL, get_user_pages()
 * with -EFAULT. With vm_insert_pages() the sub-buffers were compound
 * pages the LRU walk tries to split when advised in part, and on a
 * kernel without THP that split "succeeds" without splitting: the walk
 * retried the same pte forever, deaf to SIGKILL.
 */
static int rb_map_vma(struct rb_cpu_buffer *cpu_buffer, struct vm_area_struct *vma)
{
	unsigned int order = cpu_buffer->buffer->subbuf_order;
	unsigned long subbuf_pages = 1UL << order, pgoff = vma->vm_pgoff;
	unsigned long nr_subbufs = cpu_buffer->nr_pages + 1;
	unsigned long addr = vma->vm_start, nr_pages, s = 0, n;
	int err = 0;

	/* Read-only and shared; never writable or executable later. */
	if ((vma->vm_flags & (VM_WRITE | VM_EXEC)) || !(vma->vm_flags & VM_MAYSHARE))
		return -EPERM;
	if (pgoff % subbuf_pages)
		return -EINVAL;
	nr_pages = (nr_subbufs + 1) << order;	/* + the meta "sub-buffer" */
	if (pgoff >= nr_pages || !vma_pages(vma) || vma_pages(vma) > nr_pages - pgoff)
		return -EINVAL;
	/* Nor by mprotect() later: its contents are steered by trace_marker. */
	rb_vma_flags_mod(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP,
			 VM_MAYWRITE | VM_MAYEXEC);

	if (!pgoff) {
		err = rb_map_block(vma, addr, virt_to_page(cpu_buffer->meta_page), 1);
		addr += PAGE_SIZE;
		for (n = 1; !err && n < subbuf_pages && addr < vma->vm_end; n++) {
			err = rb_map_block(vma, addr, ZERO_PAGE(addr), 1);
			addr += PAGE_SIZE;
		}
	} else {
		s = pgoff / subbuf_pages - 1;
	}
	while (!err && addr < vma->vm_end) {
		if (RB_WARN_ON(cpu_buffer, s >= nr_subbufs)) {
			err = -EINVAL;
			break;
		}
		n = min(subbuf_pages, (vma->vm_end - addr) >> PAGE_SHIFT);
		err = rb_map_block(vma, addr,
				   virt_to_page((void *)cpu_buffer->subbuf_ids[s++]), n);
		addr += n << PAGE_SHIFT;
	}
	/* No pte of a failed mapping may outlive the pages we free then. */
	if (err)
		zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
	return err;
}

#ifdef RBTRACE_TEST_HOOKS
/*
 * Test builds: a first mapping waits in rb_map_first() with its ids set
 * and the ring not mapped yet, while map_window_ms is not 0 (at most that
 * long), so that raw/mmap-races splices inside that window every time:
 * issue 11 item 5's race, where a splice there gave a page the ids name
 * to a pipe. map_window_waits counts the waits begun (the scenario's cue).
 */
static unsigned int map_window_ms;
module_param(map_window_ms, uint, 0600);
MODULE_PARM_DESC(map_window_ms,
		 "test builds: a first mmap() of a CPU waits up to this long, its sub-buffer ids set, before it maps them (until set to 0)");

static unsigned int map_window_waits;
module_param(map_window_waits, uint, 0400);
MODULE_PARM_DESC(map_window_waits, "test builds: waits of map_window_ms begun");

static void rb_map_window(void)
{
	unsigned int ms = READ_ONCE(map_window_ms);
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	if (!ms)
		return;
	WRITE_ONCE(map_window_waits, map_window_waits + 1);
	while (READ_ONCE(map_window_ms) && time_before(jiffies, end))
		msleep(20);
}
#else
static inline void rb_map_window(void)
{
}
#endif

/* The first mapping: meta page, ids, and resize off. */
static int rb_map_first(struct rb_cpu_buffer *cpu_buffer, struct vm_area_struct *vma)
{
	struct rbt_buffer *buffer = cpu_buffer->buffer;
	unsigned long flags, *ids;
	int err = -ENOMEM;

	mutex_lock(&buffer->mutex);
	cpu_buffer->meta_page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!cpu_buffer->meta_page)
		goto out;
	ids = kcalloc(cpu_buffer->nr_pages + 1, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		goto out_meta;

	/*
	 * The ids and user_mapped in one locked section: from here no
	 * reader swaps a page out of the ring (rbt_read_page() refuses),
	 * so the ids stay true while rb_map_vma() sleeps. Until it is
	 * done the 1 counts a mapping in progress: only this path can see
	 * it, the others that count mappings take mapping_lock, and those
	 * that only test it (resize, rbt_read_page()) must refuse already.
	 */
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	arch_spin_lock(&cpu_buffer->lock);
	rb_setup_ids(cpu_buffer, ids);
	cpu_buffer->user_mapped = 1;
	arch_spin_unlock(&cpu_buffer->lock);
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);

	rb_map_window();
	err = rb_map_vma(cpu_buffer, vma);
	if (!err)
		goto out;
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	cpu_buffer->user_mapped = 0;
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	kfree(ids);
	cpu_buffer->subbuf_ids = NULL;
out_meta:
	free_page((unsigned long)cpu_buffer->meta_page);
	cpu_buffer->meta_page = NULL;
out:
	mutex_unlock(&buffer->mutex);
	return err;
}

/**
 * rbt_map - map one CPU's ring into a VMA
 * @buffer: the buffer
 * @cpu: the CPU
 * @vma: a shared, read-only VMA; its offset and length in whole sub-buffers
 *       (the meta page counts as one), within the ring
 *
 * Called from a file's mmap(). While any mapping of the CPU exists its
 * pages stay in place and the mapping is the CPU's only consumer through
 * read pages: rbt_resize() and rbt_read_page() refuse. The VMA becomes
 * VM_IO | VM_PFNMAP, never writable nor executable.
 * Each VMA must be matched by one rbt_unmap() (from vm_ops->close) and a
 * duplicated VMA announced with rbt_map_dup() (from vm_ops->open).
 *
 * Return: 0; -ENODEV for a buffer of rbt_alloc_in() (its pages are a
 * reserved range, not the page allocator's); -EINVAL for a bad CPU,
 * offset or length; -EPERM for a writable, executable or private
 * mapping; -ENOMEM; -EBUSY when the count of mappings would overflow.
 */
int rbt_map(struct rbt_buffer *buffer, int cpu, struct vm_area_struct *vma)
{
	struct rb_cpu_buffer *cpu_buffer;
	int err;

	if (!rb_valid_cpu(buffer, cpu))
		return -EINVAL;
	/* A range's pages are not the page allocator's: as ftrace, -ENODEV. */
	if (buffer->range)
		return -ENODEV;
	cpu_buffer = buffer->buffers[cpu];
	mutex_lock(&cpu_buffer->mapping_lock);
	if (!cpu_buffer->user_mapped) {
		err = rb_map_first(cpu_buffer, vma);
	} else if (cpu_buffer->user_mapped == UINT_MAX) {
		err = -EBUSY;
	} else {
		err = rb_map_vma(cpu_buffer, vma);
		if (!err)
			cpu_buffer->user_mapped++;
	}
	mutex_unlock(&cpu_buffer->mapping_lock);
	return err;
}
EXPORT_SYMBOL_GPL(rbt_map);

/**
 * rbt_map_dup - count a VMA duplicated from a mapped one
 * @buffer: the buffer
 * @cpu: the CPU
 *
 * For vm_ops->open (mremap() copies a VMA before it closes the old one).
 */
void rbt_map_dup(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;

	if (!rb_valid_cpu(buffer, cpu))
		return;
	cpu_buffer = buffer->buffers[cpu];
	mutex_lock(&cpu_buffer->mapping_lock);
	if (!WARN_ON_ONCE(!cpu_buffer->user_mapped || cpu_buffer->user_mapped == UINT_MAX))
		cpu_buffer->user_mapped++;
	mutex_unlock(&cpu_buffer->mapping_lock);
}
EXPORT_SYMBOL_GPL(rbt_map_dup);

/*
 * The CPU's ring, with mapping_lock held, if it is mapped; else
 * ERR_PTR(-EINVAL) for a bad CPU or ERR_PTR(-ENODEV), unlocked.
 */
static struct rb_cpu_buffer *rb_lock_mapped(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;

	if (!rb_valid_cpu(buffer, cpu))
		return ERR_PTR(-EINVAL);
	cpu_buffer = buffer->buffers[cpu];
	mutex_lock(&cpu_buffer->mapping_lock);
	if (!cpu_buffer->user_mapped) {
		mutex_unlock(&cpu_buffer->mapping_lock);
		return ERR_PTR(-ENODEV);
	}
	return cpu_buffer;
}

/**
 * rbt_unmap - a VMA of one CPU's ring went away
 * @buffer: the buffer
 * @cpu: the CPU
 *
 * The last one frees the meta page and lets the ring change again. For
 * vm_ops->close, after zap_vma_ptes() of the whole VMA: its ptes hold no
 * page references.
 *
 * Return: 0, -EINVAL for a bad CPU, -ENODEV when the CPU is not mapped.
 */
int rbt_unmap(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;
	unsigned long flags;

	cpu_buffer = rb_lock_mapped(buffer, cpu);
	if (IS_ERR(cpu_buffer))
		return PTR_ERR(cpu_buffer);
	if (cpu_buffer->user_mapped > 1) {
		cpu_buffer->user_mapped--;
		mutex_unlock(&cpu_buffer->mapping_lock);
		return 0;
	}
	mutex_lock(&cpu_buffer->buffer->mutex);
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	cpu_buffer->user_mapped = 0;
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	kfree(cpu_buffer->subbuf_ids);
	cpu_buffer->subbuf_ids = NULL;
	free_page((unsigned long)cpu_buffer->meta_page);
	cpu_buffer->meta_page = NULL;
	mutex_unlock(&cpu_buffer->buffer->mutex);
	mutex_unlock(&cpu_buffer->mapping_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_unmap);

/*
 * The reader page is user space's: note events lost before it as a read
 * of trace_pipe_raw does (rb_mark_missed()). Not while the writer is
 * still on the page: it owns commit then.
 */
static void rb_map_mark_missed(struct rb_cpu_buffer *cpu_buffer, unsigned long missed)
{
	struct rb_page *reader = cpu_buffer->reader_page;

	/* The writer moves commit_page on its CPU: one load, see rb_commit.c. */
	if (!missed || reader == READ_ONCE(cpu_buffer->commit_page))
		return;
	rb_commit_to_real_end(reader, reader->page);
	rb_mark_missed(cpu_buffer->buffer, reader->page, missed);
}

/**
 * rbt_map_get_reader - hand the next sub-buffer with data to user space
 * @buffer: the buffer
 * @cpu: the CPU, mapped
 *
 * What is on the current reader page is counted as read; if that was
 * already all, the head page is swapped in as the new reader page. The
 * meta page then names it (reader.id) and says how much of it is counted
 * read (reader.read), the events lost before it (reader.lost_events, also
 * marked in the page as for trace_pipe_raw; 0 when the page did not
 * change) and the ring's counters.
 *
 * Return: 0, -EINVAL for a bad CPU, -ENODEV when the CPU is not mapped.
 */
int rbt_map_get_reader(struct rbt_buffer *buffer, int cpu)
{
	struct rb_cpu_buffer *cpu_buffer;
	unsigned long flags, lost = 0;
	struct rb_page *reader;
	int loops = 0;

	cpu_buffer = rb_lock_mapped(buffer, cpu);
	if (IS_ERR(cpu_buffer))
		return PTR_ERR(cpu_buffer);
	raw_spin_lock_irqsave(&cpu_buffer->reader_lock, flags);
	/*
	 * Two laps at most: the first may only finish the current page,
	 * the second swaps in the next and counts it read.
	 */
	while (loops++ < 2 && !rb_per_cpu_empty(cpu_buffer)) {
		reader = cpu_buffer->reader_page;
		if (reader->read < rb_page_size(reader)) {
			/* Ends: every event is 4 bytes or more (rb_event_length()). */
			while (reader->read < rb_page_size(reader))
				rb_advance_reader(cpu_buffer);
			break;
		}
		reader = rb_get_reader_page(cpu_buffer);
		if (!reader)
			break;
		/* Reported once, with the page it was counted at. */
		lost = cpu_buffer->lost_events;
		cpu_buffer->lost_events = 0;
		rb_map_mark_missed(cpu_buffer, lost);
	}
	rb_map_update_meta(cpu_buffer);
	cpu_buffer->meta_page->reader.lost_events = lost;
	/* The page user space is about to read, seen as the CPU wrote it. */
	flush_kernel_vmap_range(cpu_buffer->reader_page->page,
				rb_map_subbuf_bytes(buffer));
	raw_spin_unlock_irqrestore(&cpu_buffer->reader_lock, flags);
	mutex_unlock(&cpu_buffer->mapping_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rbt_map_get_reader);

/**
 * rbt_cpu_mapped - is a CPU's ring mapped into user space?
 * @buffer: the buffer
 * @cpu: the CPU
 *
 * While it is, the mapping is the CPU's only consumer: rbt_peek(),
 * rbt_consume() and rbt_read_page() give nothing for it. A hint for
 * callers that want to say so (-EBUSY); it may change right after.
 *
 * Return: true while at least one mapping (or the first, being made)
 * exists.
 */
bool rbt_cpu_mapped(struct rbt_buffer *buffer, int cpu)
{
	return rb_valid_cpu(buffer, cpu) && READ_ONCE(buffer->buffers[cpu]->user_mapped);
}
EXPORT_SYMBOL_GPL(rbt_cpu_mapped);
