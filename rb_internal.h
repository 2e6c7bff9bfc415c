/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace internals shared by the frontend (synchronisation: reserve,
 * commit, time stamps, reader swap) and the backend (pages and their
 * list). Not for other modules: they use <rbtrace/rbtrace.h>.
 */
#ifndef _RB_INTERNAL_H
#define _RB_INTERNAL_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/wait.h>
#include <asm/local.h>
#include <asm/local64.h>
#include <asm/page.h>
#include <rbtrace/rbtrace.h>
#include <rbtrace/rbtrace_mmap.h>
#include "rb_format.h"
#include "rb_hooks.h"

/*
 * The write index and the entry count of a page carry an "updater" count
 * above the index: the writer that moves the tail onto a page adds
 * RB_WRITE_INTCNT and then cmpxchg()es the index back to zero, keeping
 * the count. An interrupt that reserves in between changes the word, so
 * the reset fails instead of wiping the interrupt's reservation.
 *
 * The index must never carry into the count. It holds at most a full
 * page plus one reservation in flight per writer on the CPU (each writer
 * that runs past the end takes its length back before it retries, and
 * the recursion guard admits one writer per context bit, RB_CTX_MAX),
 * each at most a full page with its 8-byte stamp: under
 * (RB_CTX_MAX + 1) * (PAGE_SIZE << RB_MAX_ORDER), checked below. The
 * count only has to differ from what the resetting writer's add returned:
 * it may wrap.
 */
#define RB_WRITE_BITS		(BITS_PER_LONG == 64 ? 32 : 27)
#define RB_WRITE_MASK		(BIT(RB_WRITE_BITS) - 1)
#define RB_WRITE_INTCNT		BIT(RB_WRITE_BITS)

/*
 * Flags in the low bits of a page's list.next pointer (descriptors are at
 * least 4-byte aligned). HEAD marks the pointer to the head page; UPDATE
 * marks it while a writer is pushing the head forward.
 */
#define RB_PAGE_NORMAL		0UL
#define RB_PAGE_HEAD		1UL
#define RB_PAGE_UPDATE		2UL
#define RB_FLAG_MASK		3UL
#define RB_PAGE_MOVED		4UL	/* return value only: a reader moved it */

/* Bounds on retry loops: hitting one is a bug, reported and recording stops. */
#define RB_MAX_RESERVE_LOOPS	1000
#define RB_MAX_SWAP_LOOPS	3
#define RB_MAX_PEEK_LOOPS	3	/* a stamp or extend, its event, once more */

/*
 * How long a reader waits for a writer of another CPU to finish a head
 * push or a page crossing (by ktime_get_mono_fast_ns()). Not a bug bound:
 * a writer can legitimately be held that long (a long NMI, a preempted
 * vCPU); the reader gives up that attempt, without a warning, and the
 * next retries.
 */
#define RB_READER_WAIT_NS	NSEC_PER_SEC
/* Laps of the head page search before it waits by that bound too. */
#define RB_MAX_HEAD_LAPS	3

/*
 * How long the outermost commit goes on publishing what interrupts write
 * meanwhile (by ktime_get_mono_fast_ns(), counted from the first lap an
 * interrupt caused). Not a bug bound either: an interrupt storm is load.
 * At the bound the commit stops looking, without a warning, and leaves
 * the rest to the next commit on the CPU (rb_set_commit_to_write()).
 */
#define RB_COMMIT_WAIT_NS	NSEC_PER_SEC

/* Bit of record_disabled owned by rbt_record_off()/rbt_record_on(). */
#define RB_BUFFER_OFF		BIT(20)
/*
 * A CPU's refuse word (rb_cpu_buffer.refuse), the one thing the writer
 * reads before it reserves: zero for the common case. Below
 * RB_REFUSE_ABS, a count of reasons to refuse the event: this CPU's own
 * (rbt_record_disable(), a reset or resize that quiesces it, a failed
 * validation) and one for each reason of the whole buffer, mirrored into
 * every CPU's word by rb_refuse_all() (each count of the buffer's
 * record_disabled, and its RB_BUFFER_OFF bit). RB_REFUSE_ABS is no
 * refusal: absolute mode, the slow reservation.
 */
#define RB_REFUSE_ABS		BIT(24)
#define RB_MAX_ORDER		RBT_MAX_SUBBUF_ORDER	/* see RB_WRITE_MASK */

/*
 * Descriptor of one sub-buffer. list must come first (see RB_PAGE_HEAD).
 * One cache line: rb_alloc_page_order() rounds it up to one, so a field
 * more than fits doubles the slab of every page (72 bytes took 128).
 */
struct rb_page {
	struct list_head	list;
	local_t			write;		/* index of next write + updaters */
	local_t			entries;	/* events on the page + updaters */
	struct rb_data_page	*page;
	unsigned long		seq;		/* previous page's + 1 (tail move) */
	unsigned int		read;		/* index of next read */
	unsigned int		real_end;	/* end of data before padding */
	unsigned int		id;		/* index in a user mapping */
	bool			in_range;	/* memory of rbt_alloc_in(): not ours */
};

static_assert(sizeof(struct rb_page) <= 64, "struct rb_page: one cache line");

/*
 * Recursion guard: one bit per context, ordered so that a deeper context
 * has a lower bit. TRANSITION absorbs the one level of apparent recursion
 * seen when an interrupt fires before preempt_count says so.
 */
enum {
	RB_CTX_TRANSITION,
	RB_CTX_NMI,
	RB_CTX_IRQ,
	RB_CTX_SOFTIRQ,
	RB_CTX_NORMAL,
	RB_CTX_MAX
};

static_assert((RB_CTX_MAX + 1) * (PAGE_SIZE << RB_MAX_ORDER) <= RB_WRITE_MASK,
	      "a page's write index must hold a reservation of every nested writer");

/* What an event being reserved needs in front of it. */
enum {
	RB_ADD_STAMP_NONE	= 0,
	RB_ADD_STAMP_EXTEND	= BIT(1),	/* delta does not fit 27 bits */
	RB_ADD_STAMP_ABSOLUTE	= BIT(2),	/* buffer-wide absolute mode */
	RB_ADD_STAMP_FORCE	= BIT(3),	/* interrupted a time update */
};

/* Scratch state of one reservation, on the writer's stack. */
struct rb_event_info {
	u64		ts;
	u64		delta;
	u64		before;
	u64		after;
	unsigned long	length;
	struct rb_page	*tail_page;
	int		add_timestamp;
	bool		ts_lost;	/* delta forced to 0, see rb_ts_settle() */
};

/*
 * Readers sleeping for data. Writers cannot wake anyone directly (they
 * may be in NMI), so they queue @work, an irq_work, when a reader has said
 * it is waiting.
 */
struct rb_waitq {
	wait_queue_head_t	waitq;
	struct irq_work		work;
	atomic_t		wakeup_seq;	/* bumped by rbt_wake_waiters() */
	/* Both flags in one load for the writer (rb_wakeups()). */
	union {
		struct {
			bool	waiters_pending;
			bool	full_waiters_pending;
		};
		u16		any_pending;
	};
};

struct rb_cpu_buffer {
	int			cpu;
	atomic_t		refuse;		/* RB_REFUSE_ABS */
	struct rbt_buffer	*buffer;
	raw_spinlock_t		reader_lock;	/* serialises readers */
	arch_spinlock_t		lock;		/* the reader-page swap */
	struct list_head	*pages;
	struct rb_page		*head_page;	/* read from head */
	struct rb_page		*tail_page;	/* write to tail */
	struct rb_page		*commit_page;	/* committed pages */
	struct rb_page		*reader_page;
	unsigned long		nr_pages;
	unsigned long		current_context;	/* a bitmap: bitops */
	local_t			entries_bytes;
	local_t			entries;
	local_t			overrun;
	local_t			commit_overrun;
	local_t			dropped;
	local_t			recursion;
	local_t			too_big;
	local_t			ts_lost;
	local_t			discarded;
	local_t			reclaimed;
	local_t			committing;
	local_t			commits;
	local_t			pages_touched;
	local_t			pages_lost;
	local_t			pages_read;
	local64_t		before_stamp;	/* set by every writer at B */
	local64_t		write_stamp;	/* set by uninterrupted writers at D */
	unsigned long		read;
	unsigned long		read_bytes;
	u64			read_stamp;
	unsigned long		lost_events;
	unsigned long		last_overrun;
	unsigned long		last_pages_touch;
	unsigned long		validate_failed;
	unsigned long		reset_seq;	/* iterators notice resets */
	atomic_t		iterators;	/* resize waits for none */
	struct rb_data_page	*free_page;	/* spare read page */
	struct rb_waitq		wq;
	/* User mappings of the ring (rb_mmap.c), under mapping_lock. */
	struct mutex		mapping_lock;
	unsigned int		user_mapped;	/* VMAs; pages stay while > 0 */
	struct rbt_buffer_meta	*meta_page;
	unsigned long		*subbuf_ids;	/* id -> data page address */
	/* A buffer in a given memory range (rb_range.c), else NULL. */
	struct rb_range_cpu	*range_cpu;	/* its positions in the header */
	void			*range_base;	/* its first sub-buffer */
};

struct rbt_buffer {
	unsigned int		flags;
	int			cpus;
	atomic_t		record_disabled;
	atomic_t		resizing;	/* sub-buffer size change under way */
	struct mutex		mutex;		/* serialises resize and hotplug */
	cpumask_var_t		cpumask;
	struct rb_cpu_buffer	**buffers;
	unsigned long		nr_pages;	/* per CPU, for CPUs added later */
	u64			(*clock)(void);
	bool			time_stamp_abs;
	unsigned int		subbuf_order;
	unsigned int		subbuf_size;	/* data bytes of a sub-buffer */
	unsigned int		max_data_size;	/* largest event payload */
	struct rb_waitq		wq;		/* waiters on all CPUs */
	struct rb_range		*range;		/* rbt_alloc_in(), else NULL */
};

/*
 * RB_WARN_ON - check an invariant; when it fails, stop recording on the
 * whole buffer (a broken buffer must not be written into) and warn once.
 * Evaluates to the condition, for use in if ().
 */
#define RB_WARN_ON(b, cond)						\
	({								\
		typeof(b) _rb_b = (b);					\
		int _rb_ret = unlikely(cond);				\
									\
		if (_rb_ret)						\
			rb_warn_disable(__same_type(*_rb_b, struct rb_cpu_buffer) ? \
					((struct rb_cpu_buffer *)(void *)_rb_b)->buffer : \
					(struct rbt_buffer *)(void *)_rb_b); \
		_rb_ret;						\
	})

/**
 * rb_refuse_all - add @delta to the refuse word of every CPU of @buffer
 * @buffer: the buffer
 * @delta: 1 for a reason of the whole buffer to refuse events, -1 when
 *         it is gone
 *
 * The writer reads only its CPU's word (rbt_lock_reserve()), so each
 * change of the buffer's record_disabled is mirrored here. Counts, not
 * bits: concurrent changes commute. Any context (RB_WARN_ON() in an NMI).
 * A CPU whose ring is not allocated yet (rbt_alloc() failing) is skipped.
 */
static inline void rb_refuse_all(struct rbt_buffer *buffer, int delta)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (buffer->buffers && buffer->buffers[cpu])
			atomic_add(delta, &buffer->buffers[cpu]->refuse);
}

/**
 * rb_valid_cpu - is @cpu a CPU of @buffer?
 * @buffer: the buffer
 * @cpu: any int, from the user or a caller
 */
static inline bool rb_valid_cpu(struct rbt_buffer *buffer, int cpu)
{
	return cpu >= 0 && cpu < nr_cpu_ids && cpumask_test_cpu(cpu, buffer->cpumask);
}

static inline void rb_warn_disable(struct rbt_buffer *buffer)
{
	atomic_inc(&buffer->record_disabled);
	rb_refuse_all(buffer, 1);
	if (!rb_hook_warn_expected())
		WARN_ON_ONCE(1);
}

static inline unsigned long rb_page_write(struct rb_page *bpage)
{
	return local_read(&bpage->write) & RB_WRITE_MASK;
}

static inline unsigned long rb_page_entries(struct rb_page *bpage)
{
	return local_read(&bpage->entries) & RB_WRITE_MASK;
}

static inline unsigned long rb_page_commit(struct rb_page *bpage)
{
	return local_read(&bpage->page->commit);
}

static inline unsigned long rb_page_size(struct rb_page *bpage)
{
	return rb_page_commit(bpage) & ~RB_MISSED_FLAGS;
}

static inline void *rb_page_index(struct rb_page *bpage, unsigned int index)
{
	return bpage->page->data + index;
}

/*
 * rb_is_head_page - the flag of @list->next if it points to @page, or
 * RB_PAGE_MOVED if it does not (a reader swapped @page out).
 */
static inline int rb_is_head_page(struct rb_page *page, struct list_head *list)
{
	unsigned long val = (unsigned long)READ_ONCE(list->next);

	if ((val & ~RB_FLAG_MASK) != (unsigned long)&page->list)
		return RB_PAGE_MOVED;
	return val & RB_FLAG_MASK;
}

/*
 * A page handed to a reader ends its data at real_end, before the padding
 * the writer left at the end: the commit word says so, which leaves room
 * for the count of missed events after the data.
 */
static inline void rb_commit_to_real_end(struct rb_page *bpage,
					 struct rb_data_page *data)
{
	if (bpage->real_end)
		local_set(&data->commit, bpage->real_end);
}

/*
 * rb_skip_padding - should a reader that got @event look again?
 * Padding (a discarded event) is skipped. A writer discarding faster than
 * the reader skips could keep it there: after RB_MAX_RESERVE_LOOPS of
 * them the reader gives up (*@event = NULL) and its caller comes back.
 */
static inline bool rb_skip_padding(struct rbt_event **event, unsigned int *paddings)
{
	if (!*event || (*event)->type_len != RB_TYPE_PADDING)
		return false;
	if (++*paddings > RB_MAX_RESERVE_LOOPS) {
		*event = NULL;
		return false;
	}
	return true;
}

/* A list pointer with its flags cleared. */
static inline struct list_head *rb_list_head(struct list_head *list)
{
	return (struct list_head *)((unsigned long)list & ~RB_FLAG_MASK);
}

/* Advance a page pointer to the next page in the ring. */
static inline void rb_inc_page(struct rb_page **bpage)
{
	struct list_head *p = rb_list_head((*bpage)->list.next);

	*bpage = list_entry(p, struct rb_page, list);
}

/* The reader page is outside the ring: its neighbour does not point back. */
static inline bool rb_is_reader_page(struct rb_page *page)
{
	struct list_head *list = page->list.prev;

	return rb_list_head(list->next) != &page->list;
}

/* Page list primitives (rb_pages.c) */
bool rb_reader_may_wait(struct rb_cpu_buffer *cpu_buffer, u64 *deadline);
struct rb_page *rb_set_head_page(struct rb_cpu_buffer *cpu_buffer);
int rb_head_page_replace(struct rb_page *old, struct rb_page *new);
void rb_head_page_activate(struct rb_cpu_buffer *cpu_buffer);
void rb_head_page_deactivate(struct rb_cpu_buffer *cpu_buffer);
void rb_list_head_clear(struct list_head *list);
void rb_set_list_to_head(struct list_head *list);
int rb_head_page_set_update(struct rb_cpu_buffer *cpu_buffer,
			    struct rb_page *head, struct rb_page *prev,
			    int old_flag);
int rb_head_page_set_head(struct rb_cpu_buffer *cpu_buffer,
			  struct rb_page *head, struct rb_page *prev,
			  int old_flag);
int rb_head_page_set_normal(struct rb_cpu_buffer *cpu_buffer,
			    struct rb_page *head, struct rb_page *prev,
			    int old_flag);
struct rb_page *rb_alloc_page_order(int cpu, unsigned int order, gfp_t gfp);
struct rb_page *rb_alloc_page(struct rbt_buffer *buffer, int cpu, gfp_t gfp);
void rb_free_page(struct rb_page *bpage);
int rb_alloc_pages_order(int cpu, unsigned int order, unsigned long nr_pages,
			 struct list_head *pages);
int rb_alloc_pages(struct rbt_buffer *buffer, int cpu, unsigned long nr_pages,
		   struct list_head *pages);
void rb_free_page_list(struct list_head *pages);
bool rb_check_pages(struct rb_cpu_buffer *cpu_buffer);

/* The write side's slow paths (rb_tail.c, rb_commit.c) */
struct rbt_event *rb_move_tail(struct rb_cpu_buffer *cpu_buffer,
			       unsigned long tail,
			       struct rb_event_info *info);
void rb_end_commit(struct rb_cpu_buffer *cpu_buffer);
void rb_end_commit_again(struct rb_cpu_buffer *cpu_buffer);
void rb_commit_stopped(struct rb_cpu_buffer *cpu_buffer);

/* Buffers (rb_buffer.c) */
void rb_reset_cpu_locked(struct rb_cpu_buffer *cpu_buffer);
struct rbt_buffer *rb_alloc_buffer(unsigned long size, unsigned int flags,
				   unsigned int order, struct rb_range *range);

/* Sizes, switches and counters (rb_control.c) */
unsigned long rb_num_of_entries(struct rb_cpu_buffer *cpu_buffer);

/* Time stamp validation (rb_timestamp.c) */
extern bool rb_validate;
DECLARE_STATIC_KEY_FALSE(rb_validate_key);
void rb_validate_tail(struct rb_cpu_buffer *cpu_buffer,
		      struct rb_event_info *info, struct rbt_event *event);
void __cold rb_ts_went_back(struct rb_cpu_buffer *cpu_buffer);

/* Reader (rb_reader.c) */
struct rb_page *rb_get_reader_page(struct rb_cpu_buffer *cpu_buffer);
void rb_advance_reader(struct rb_cpu_buffer *cpu_buffer);
bool rb_per_cpu_empty(struct rb_cpu_buffer *cpu_buffer);

static inline struct rbt_event *rb_reader_event(struct rb_cpu_buffer *cpu_buffer)
{
	return rb_page_index(cpu_buffer->reader_page, cpu_buffer->reader_page->read);
}

/* Whole pages for readers (rb_read_page.c) */
void rb_mark_missed(struct rbt_buffer *buffer, struct rb_data_page *bpage,
		    unsigned long missed);

/* User mappings (rb_mmap.c) */
void rb_map_update_meta(struct rb_cpu_buffer *cpu_buffer);

/* Buffers in a given memory range (rb_range.c) */
int rb_range_cpu_pages(struct rb_cpu_buffer *cpu_buffer, struct list_head *pages);
void rb_range_cpu_restore(struct rb_cpu_buffer *cpu_buffer);
void rb_range_note_commit(struct rb_cpu_buffer *cpu_buffer);
void rb_range_note_reader(struct rb_cpu_buffer *cpu_buffer);
void rb_range_reset_cpu(struct rb_cpu_buffer *cpu_buffer);
void rb_range_free(struct rbt_buffer *buffer);
void rb_range_set_clock(struct rbt_buffer *buffer);
void rb_range_clear_old(struct rbt_buffer *buffer);
bool rb_range_restored(struct rb_range *range);
unsigned long rb_range_nr_pages(struct rb_range *range);

/* Waiting (rb_wait.c) */
void rb_waitq_init(struct rb_waitq *wq);
void rb_waitq_sync(struct rb_waitq *wq);

#endif /* _RB_INTERNAL_H */
