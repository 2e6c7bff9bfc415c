// SPDX-License-Identifier: GPL-2.0
/*
 * The top tracer's buffer in memory reserved at boot, so that it survives
 * a reboot: the module parameters persist=NAME (a reserve_mem=SIZE:ALIGN:NAME
 * region, kernels with reserve_mem_find_by_name(), 6.12) or
 * persist_addr=PHYS persist_size=SIZE (a range reserved with
 * memmap=SIZE$PHYS, any kernel; never System RAM). The ring buffer does the rest
 * (rbt_alloc_in()): it finds the previous boot's pages, validates them,
 * shows them read-only until "echo > trace", and stops recording on a
 * panic or an oops.
 */
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <rbtrace/rbtrace.h>
#include "persist.h"

static char *persist;
module_param(persist, charp, 0400);
MODULE_PARM_DESC(persist,
		 "put the buffer in the reserve_mem= region of this name (kernels 6.12 and later)");

/*
 * A physical range rbtrace maps and writes: hardware parameters, which
 * lockdown refuses (LOCKDOWN_MODULE_PARAMETERS), as it refuses any
 * driver's iomem= or io=.
 */
static unsigned long long persist_addr;
module_param_hw(persist_addr, ullong, iomem, 0400);
MODULE_PARM_DESC(persist_addr,
		 "put the buffer at this physical address (reserved with memmap=SIZE$ADDR; not System RAM)");

static unsigned long persist_size;
module_param_hw(persist_size, ulong, iomem, 0400);
MODULE_PARM_DESC(persist_size, "bytes at persist_addr");

#ifdef RBTRACE_TEST_HOOKS
static char *persist_corrupt;
module_param(persist_corrupt, charp, 0400);
MODULE_PARM_DESC(persist_corrupt,
		 "test builds: at unload damage sub-buffers for the next boot: CPU:N:HOW[,...] (HOW 0 random page, 1 bad commit, 2 random events)");

/* Damage the pages the next boot will validate: its tests' input. */
static void rbtr_persist_corrupt(struct rbt_buffer *buffer)
{
	unsigned int cpu, nr, how;
	const char *p = persist_corrupt;
	int ret;

	while (p && *p) {
		if (sscanf(p, "%u:%u:%u", &cpu, &nr, &how) != 3) {
			pr_warn("rbtrace: persist_corrupt=%s: CPU:N:HOW expected\n",
				persist_corrupt);
			return;
		}
		ret = rbt_range_corrupt(buffer, cpu, nr, how);
		pr_info("rbtrace: persist_corrupt: %d sub-buffers of CPU %u damaged (%u)\n",
			ret, cpu, how);
		p = strchr(p, ',');
		if (p)
			p++;
	}
}
#else
static inline void rbtr_persist_corrupt(struct rbt_buffer *buffer)
{
}
#endif

/**
 * rbtr_persist_wanted - was a persistent buffer asked for?
 *
 * Return: true if persist= or persist_addr= is set.
 */
bool rbtr_persist_wanted(void)
{
	return persist || persist_addr || persist_size;
}

/* The range the parameters name, or an errno. */
static int rbtr_persist_range(phys_addr_t *start, phys_addr_t *size)
{
	if (persist && (persist_addr || persist_size)) {
		pr_err("rbtrace: persist= and persist_addr= exclude each other\n");
		return -EINVAL;
	}
	if (persist) {
#ifdef RBT_HAVE_RESERVE_MEM
		if (!reserve_mem_find_by_name(persist, start, size)) {
			pr_err("rbtrace: persist=%s: no reserve_mem= region of that name\n",
			       persist);
			return -ENOENT;
		}
		return 0;
#else
		pr_err("rbtrace: persist=%s: this kernel has no reserve_mem=; use memmap= and persist_addr=\n",
		       persist);
		return -EOPNOTSUPP;
#endif
	}
	if (!persist_addr || !persist_size) {
		pr_err("rbtrace: persist_addr= and persist_size= go together\n");
		return -EINVAL;
	}
	/*
	 * memremap(MEMREMAP_WB) of System RAM is its direct map: the memory
	 * of whoever owns it, which the header set-up would then clear. A
	 * memmap=SIZE$ADDR range is E820 reserved, not System RAM; a
	 * reserve_mem= region is System RAM, taken from memblock, and comes
	 * by its name (persist=), never here.
	 */
	if (persist_addr + persist_size < persist_addr ||
	    region_intersects(persist_addr, persist_size, IORESOURCE_SYSTEM_RAM,
			      IORES_DESC_NONE) != REGION_DISJOINT) {
		pr_warn("rbtrace: persist_addr=%#llx persist_size=%#lx: the range is System RAM in use (or wraps); reserve it with memmap=SIZE$ADDR\n",
			persist_addr, persist_size);
		return -EINVAL;
	}
	*start = persist_addr;
	*size = persist_size;
	return 0;
}

/**
 * rbtr_persist_alloc - the top tracer's buffer in the reserved range
 * @flags: rbt_alloc() flags (the mode parameter)
 * @order: the sub-buffer order (subbuf_order); the range sets the size
 *
 * Return: the buffer, or an ERR_PTR(): -EINVAL for inconsistent
 * parameters or a persist_addr= range that is System RAM, -ENOENT for an
 * unknown region, -EOPNOTSUPP for persist= on a kernel without
 * reserve_mem=, -ENOMEM when the range cannot hold the buffer or be
 * mapped.
 */
struct rbt_buffer *rbtr_persist_alloc(unsigned int flags, unsigned int order)
{
	phys_addr_t start = 0, size = 0;
	struct rbt_buffer *buffer;
	int ret;

	ret = rbtr_persist_range(&start, &size);
	if (ret)
		return ERR_PTR(ret);
	buffer = rbt_alloc_in(start, size, flags, order);
	if (!buffer) {
		pr_err("rbtrace: cannot place the buffer at %pa (%pa bytes): too small for 3 sub-buffers per CPU, not page aligned, or not mappable\n",
		       &start, &size);
		return ERR_PTR(-ENOMEM);
	}
	return buffer;
}

/**
 * rbtr_persist_free - free the top tracer's buffer, persistent or not
 * @buffer: the buffer
 */
void rbtr_persist_free(struct rbt_buffer *buffer)
{
	if (rbt_in_range(buffer)) {
		rbtr_persist_meta_exit();
		rbtr_persist_corrupt(buffer);
	}
	rbt_free(buffer);
}
