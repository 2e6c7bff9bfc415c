/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace buffers in a given memory range, shared by its three files:
 * rb_range.c (the range, its header and its sub-buffers),
 * rb_range_alloc.c (rbt_alloc_in(): the making of the buffer over it)
 * and rb_range_meta.c (the client's metadata area beside them). The
 * layout is described in rb_range.c.
 */
#ifndef _RB_RANGE_H
#define _RB_RANGE_H

#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include "rb_internal.h"

#define RB_RANGE_MAGIC		0x50544252	/* "RBTP" */
/*
 * 2: the metadata area. Aligning the sub-buffers to their size needed no
 * new version: hdr_size says where CPU 0's start, and a range whose
 * hdr_size is not this load's is refused (rb_range_mismatch()).
 */
#define RB_RANGE_VERSION	2
#define RB_RANGE_CLOCK_LEN	16
#define RB_RANGE_META_HALF	8192

/*
 * Where a CPU's ring was, as sub-buffer indices in its part of the range,
 * noted as the buffer runs (the data itself is the sub-buffers' own
 * headers: their stamps and commit words). A later boot reports them;
 * the ring is rebuilt from the pages, which are what a crash leaves
 * consistent (see rb_range_cpu_pages()).
 */
struct rb_range_cpu {
	u32	head;
	u32	commit;
	u32	reader;
	u32	pad;
};

struct rb_range_hdr {
	u32			magic;
	u32			version;
	u32			hdr_size;	/* bytes before CPU 0's pages, aligned */
	u32			nr_cpus;
	u32			subbuf_bytes;	/* PAGE_SIZE << order */
	u32			subbuf_order;
	u32			nr_pages;	/* per CPU, the reader page included */
	u32			page_size;
	u64			range_size;
	u64			kaslr_offset;	/* 0: not known to a module */
	char			clock[RB_RANGE_CLOCK_LEN];
	u32			meta_cur;	/* the metadata half that is valid */
	u32			meta_pad;
	struct rb_range_cpu	cpu[];
};

/* One half of the metadata area: the client's bytes, opaque here. */
struct rb_range_meta {
	u32	len;
	u32	seq;		/* how many writes: the newer half */
	u8	data[];
};

#define RB_RANGE_META_MAX	(RB_RANGE_META_HALF - sizeof(struct rb_range_meta))

/* What a CPU's part held when the buffer was attached. */
struct rb_range_found {
	unsigned long	pages_data;
	unsigned long	pages_bad;
	unsigned long	events;
	struct rb_range_cpu pos;
};

struct rb_range {
	phys_addr_t		start;
	size_t			size;
	void			*vaddr;
	struct rb_range_hdr	*hdr;
	size_t			hdr_size;	/* this load's: CPU 0's pages, aligned */
	size_t			subbuf_bytes;
	unsigned int		nr_pages;
	bool			restored;	/* a previous boot's data found */
	atomic_t		old;		/* 1 while it is shown, writers refused */
	struct rb_range_found	*found;		/* per CPU */
	char			old_clock[RB_RANGE_CLOCK_LEN];	/* the data's */
	void			*old_meta;	/* the data's metadata, a copy */
	size_t			old_meta_len;
	struct mutex		meta_lock;	/* serializes metadata writers */
	struct rbt_buffer	*buffer;
	struct notifier_block	panic_nb;
	struct notifier_block	die_nb;
};

/* The header proper: the metadata area follows it. */
static inline size_t rb_range_hdr_only(void)
{
	return PAGE_ALIGN(sizeof(struct rb_range_hdr) +
			  nr_cpu_ids * sizeof(struct rb_range_cpu));
}

/*
 * The header and the two metadata halves: CPU 0's pages follow, at the
 * next multiple of the sub-buffer size (rb_range_map()).
 */
static inline size_t rb_range_hdr_size(void)
{
	return rb_range_hdr_only() + 2 * RB_RANGE_META_HALF;
}

/* Half @half of the metadata area. */
static inline struct rb_range_meta *rb_range_meta(struct rb_range *range, u32 half)
{
	return range->vaddr + rb_range_hdr_only() + half * RB_RANGE_META_HALF;
}

/*
 * The next boot reads DRAM, and no barrier orders a store with respect
 * to DRAM: smp_wmb() orders stores as the caches (other CPUs) see them,
 * while lines reach memory when they are evicted or cleaned, in any
 * order. So every "the next boot reads A before B" below rests on two
 * things: the smp_wmb() that puts A in the caches before B (on x86, a
 * compiler barrier: stores are seen in program order), and what carries
 * the caches' content to memory before the next boot reads it:
 *
 *  - x86: nothing to do. Its caches are coherent with memory for every
 *    agent, and the stores a warm reset (reboot, a panic's emergency
 *    restart) finds in them are what the next boot reads; ftrace 6.12
 *    relies on the same (its arch_ring_buffer_flush_range() is empty
 *    there). The tests' QEMU has no cache at all: what a CPU stored is
 *    in the guest's RAM, which a reset keeps.
 *  - elsewhere (arm64...): a clean of the lines to the point of
 *    persistence, arch_wb_cache_pmem() (on arm64 dcache_clean_pop(),
 *    what ftrace's arch_ring_buffer_flush_range() does on a panic):
 *    after A and before B where a write publishes (the header's magic,
 *    the metadata's index), and of the whole range on a panic or an oops
 *    (rb_range_stop()), once every writer is stopped. A reset without
 *    either (a reboot that is no panic) may lose lines still dirty, as
 *    ftrace's buffer may: the panic is what the range is for.
 *
 * An architecture with neither gets no range buffer (rbt_alloc_in()).
 */
#if defined(CONFIG_X86)
#define RB_RANGE_CAN_CLEAN	1
static inline void rb_range_clean(void *addr, size_t len)
{
}
#elif defined(CONFIG_ARCH_HAS_PMEM_API)
#define RB_RANGE_CAN_CLEAN	1
static inline void rb_range_clean(void *addr, size_t len)
{
	arch_wb_cache_pmem(addr, len);
}
#else
#define RB_RANGE_CAN_CLEAN	0
static inline void rb_range_clean(void *addr, size_t len)
{
}
#endif

void rb_range_take_meta(struct rb_range *range);

/* rb_range.c, for the making of a range buffer (rb_range_alloc.c) */
void rb_range_note_clock(struct rb_range *range, u64 (*clock)(void));
void rb_range_unmap(struct rb_range *range);
struct rb_data_page *rb_range_page(struct rb_range *range, int cpu,
				   unsigned int i);

#endif /* _RB_RANGE_H */
