/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace: a per-CPU lockless tracing ring buffer, loadable as a module.
 *
 * This is the API other modules record and read through. Every function
 * is exported GPL-only and documented where it is defined. The event and
 * page layouts are byte-compatible with ftrace's ring buffer, so pages
 * read from rbtrace can be handed to libtraceevent's kbuffer unchanged.
 */
#ifndef _RBTRACE_RBTRACE_H
#define _RBTRACE_RBTRACE_H

#include <linux/bits.h>
#include <linux/types.h>

struct rbt_buffer;
struct rbt_iter;

/**
 * struct rbt_event - header of one record in the buffer (ftrace's layout)
 * @type_len: 0: length in @array[0]; 1..28: length is 4 * @type_len;
 *            29: padding; 30: time extend; 31: absolute time stamp
 * @time_delta: time since the previous event on this CPU, 27 bits
 * @array: payload, or the length (type_len 0) followed by the payload
 */
struct rbt_event {
	u32 type_len:5, time_delta:27;
	u32 array[];
};

/**
 * rbt_event_data - the payload of a data event
 * @event: an event returned by rbt_lock_reserve(), rbt_peek(), rbt_consume()
 *         or rbt_iter_peek()
 *
 * Inline: it is on every writer's path, and the layout is ftrace's ABI.
 * An event returned by rbt_lock_reserve() may start with an 8-byte time
 * extend or absolute stamp (type_len 30 or 31) in front of the data event.
 *
 * Return: the payload.
 */
static inline void *rbt_event_data(struct rbt_event *event)
{
	if (event->type_len >= 30)
		event = (struct rbt_event *)&event->array[1];
	return event->type_len ? &event->array[0] : &event->array[1];
}

/* rbt_alloc() flags */
#define RBT_FL_OVERWRITE	BIT(0)	/* flight recorder: overwrite oldest */
#define RBT_FL_ABS_TS		BIT(1)	/* every event carries an absolute stamp */
#define RBT_FL_VALID		(RBT_FL_OVERWRITE | RBT_FL_ABS_TS)

/*
 * A sub-buffer as rbt_read_page() hands it out: a header (u64 time stamp,
 * local_t commit) of RBT_PAGE_HDR_SIZE bytes, then the events. Sub-buffers
 * are PAGE_SIZE << order bytes, order 0 to RBT_MAX_SUBBUF_ORDER.
 */
#define RBT_PAGE_HDR_SIZE	(sizeof(u64) + sizeof(long))
#define RBT_MAX_SUBBUF_ORDER	7

/* rbt_resize() and friends: apply to every CPU */
#define RBT_ALL_CPUS		(-1)

/**
 * struct rbt_cpu_stats - counters of one per-CPU buffer
 * @entries: events in the buffer not yet read or overwritten
 * @written: events committed since the last reset
 * @bytes: bytes of events in the buffer not yet read
 * @overrun: events lost because the writer overwrote them (overwrite mode)
 * @commit_overrun: events lost because an interrupt storm wrapped the
 *                  buffer onto data not yet committed
 * @dropped: events refused because the buffer was full (producer/consumer)
 * @read: events consumed by readers
 * @recursion: reservations refused as true recursion in one context
 * @too_big: reservations refused as larger than a sub-buffer can hold
 * @ts_lost: events whose time stamp had to repeat the previous one's: an
 *           interrupt reserved an event between this one's first look at
 *           the tail (step A) and its reservation (C), and another came
 *           before it could check the stamps again (F); or the clock read
 *           earlier than the previous event's stamp (it stepped back)
 * @discarded: events dropped by rbt_discard_commit() or rbt_discard() after
 *             their reservation (a tracer's filter rejected them)
 * @reclaimed: of those, the ones whose space was given back (the event was
 *             still the last one written); the others became padding
 * @pages_touched: sub-buffers the writer has moved onto
 * @oldest_ts: time stamp of the oldest unread page
 */
struct rbt_cpu_stats {
	u64 entries;
	u64 written;
	u64 bytes;
	u64 overrun;
	u64 commit_overrun;
	u64 dropped;
	u64 read;
	u64 recursion;
	u64 too_big;
	u64 ts_lost;
	u64 discarded;
	u64 reclaimed;
	u64 pages_touched;
	u64 oldest_ts;
};

/**
 * struct rbt_clock - a trace clock events can be stamped with
 * @name: its name in trace_clock
 * @read: reads it; callable from any context, NMI included
 * @in_ns: counts nanoseconds (else a plain counter)
 */
struct rbt_clock {
	const char	*name;
	u64		(*read)(void);
	bool		in_ns;
};

/**
 * struct rbt_range_info - what a buffer of rbt_alloc_in() found in its range
 * @start: the range's physical address
 * @size: its bytes
 * @restored: a previous boot's buffer was there (else it started empty)
 * @old: its data is still shown, writers refused, until rbt_reset()
 * @pages: sub-buffers of the CPU in the range, its reader page included
 * @pages_data: of those, the ones read back with events
 * @pages_bad: the ones that failed validation: counted, emptied, not read
 * @events: data events in @pages_data
 * @head: the previous boot's head page, an index in the CPU's part
 * @commit: its commit page (noted when the commit page moved)
 * @reader: its reader page
 * @kaslr_offset: the previous boot's KASLR offset, 0 if not recorded
 * @clock: the name of the clock its events were stamped with
 */
struct rbt_range_info {
	phys_addr_t	start;
	size_t		size;
	bool		restored;
	bool		old;
	unsigned long	pages;
	unsigned long	pages_data;
	unsigned long	pages_bad;
	unsigned long	events;
	u32		head;
	u32		commit;
	u32		reader;
	u64		kaslr_offset;
	char		clock[16];
};

/*
 * The ring buffer's load and unload, for the module that holds it only
 * (tracer/module.c); not exported.
 */
int rbt_init(void);
void rbt_exit(void);

/* Allocation and configuration */
struct rbt_buffer *rbt_alloc(unsigned long size, unsigned int flags,
			     unsigned int order);
void rbt_free(struct rbt_buffer *buffer);
struct rbt_buffer *rbt_alloc_in(phys_addr_t start, size_t size,
				unsigned int flags, unsigned int order);
int rbt_range_info(struct rbt_buffer *buffer, int cpu, struct rbt_range_info *info);
bool rbt_in_range(struct rbt_buffer *buffer);
size_t rbt_range_meta_size(struct rbt_buffer *buffer);
int rbt_range_meta_write(struct rbt_buffer *buffer, const void *data, size_t len);
ssize_t rbt_range_meta_read(struct rbt_buffer *buffer, void *data, size_t len);
#ifdef RBTRACE_TEST_HOOKS
int rbt_range_corrupt(struct rbt_buffer *buffer, int cpu, unsigned int nr,
		      unsigned int how);
#endif
int rbt_resize(struct rbt_buffer *buffer, unsigned long size, int cpu);
int rbt_set_subbuf_order(struct rbt_buffer *buffer, unsigned int order);
unsigned long rbt_size(struct rbt_buffer *buffer, int cpu);
unsigned int rbt_subbuf_size(struct rbt_buffer *buffer);
unsigned int rbt_max_event_size(struct rbt_buffer *buffer);
int rbt_set_clock(struct rbt_buffer *buffer, u64 (*clock)(void));
int rbt_set_clock_by_name(struct rbt_buffer *buffer, const char *name);
u64 rbt_latch_clock(void);
const struct rbt_clock *rbt_clock_find(const char *name);
const struct rbt_clock *rbt_clock_by_index(unsigned int i);
const struct rbt_clock *rbt_buffer_clock(struct rbt_buffer *buffer);
int rbt_clock_get(const struct rbt_clock *clock);
void rbt_clock_put(const struct rbt_clock *clock);
struct rbtrace_clock_page;	/* <uapi/rbtrace/clock_page.h> */
const struct rbtrace_clock_page *rbt_clock_page(void);
void rbt_set_overwrite(struct rbt_buffer *buffer, bool overwrite);
bool rbt_overwrite(struct rbt_buffer *buffer);
void rbt_set_time_stamp_abs(struct rbt_buffer *buffer, bool abs);

/* Recording */
struct rbt_event *rbt_lock_reserve(struct rbt_buffer *buffer,
				   unsigned long length);
void *rbt_reserve(struct rbt_buffer *buffer, unsigned long length);
unsigned int rbt_event_length(struct rbt_event *event);
int rbt_unlock_commit(struct rbt_buffer *buffer);
void rbt_discard_commit(struct rbt_buffer *buffer, struct rbt_event *event);
void rbt_discard(struct rbt_buffer *buffer, void *payload, unsigned long length);
int rbt_write(struct rbt_buffer *buffer, unsigned long length,
	      const void *data);

/* Switches and counters */
void rbt_record_on(struct rbt_buffer *buffer);
void rbt_record_off(struct rbt_buffer *buffer);
bool rbt_record_is_on(struct rbt_buffer *buffer);
void rbt_record_disable(struct rbt_buffer *buffer);
void rbt_record_enable(struct rbt_buffer *buffer);
int rbt_cpu_stats(struct rbt_buffer *buffer, int cpu,
		  struct rbt_cpu_stats *stats);
u64 rbt_entries(struct rbt_buffer *buffer);
void rbt_reset_cpu(struct rbt_buffer *buffer, int cpu);
void rbt_reset(struct rbt_buffer *buffer);

/* Consuming reads */
struct rbt_event *rbt_peek(struct rbt_buffer *buffer, int cpu, u64 *ts,
			   unsigned long *lost_events);
struct rbt_event *rbt_consume(struct rbt_buffer *buffer, int cpu, u64 *ts,
			      unsigned long *lost_events);
bool rbt_empty_cpu(struct rbt_buffer *buffer, int cpu);

/*
 * Whole sub-buffers, in ftrace's page format (struct { u64 time_stamp;
 * local_t commit; u8 data[]; }), for splice and raw reads.
 */
struct rbt_read_page;
struct rbt_read_page *rbt_alloc_read_page(struct rbt_buffer *buffer, int cpu);
void rbt_free_read_page(struct rbt_buffer *buffer, int cpu,
			struct rbt_read_page *page);
void *rbt_read_page_data(struct rbt_read_page *page);
struct page *rbt_read_page_page(struct rbt_read_page *page);
int rbt_read_page(struct rbt_buffer *buffer, struct rbt_read_page *page,
		  size_t len, int cpu, bool full);
size_t rbt_read_page_size(struct rbt_buffer *buffer);

/* The format, as tracefs's events/header_page and header_event print it */
struct seq_file;
void rbt_print_page_header(struct rbt_buffer *buffer, struct seq_file *m);
void rbt_print_entry_header(struct seq_file *m);
int rbt_print_cpu_stats(struct rbt_buffer *buffer, int cpu, bool in_ns,
			struct seq_file *m);

/* A CPU's ring mapped into user space (ABI: rbtrace_mmap.h) */
struct vm_area_struct;
int rbt_map(struct rbt_buffer *buffer, int cpu, struct vm_area_struct *vma);
void rbt_map_dup(struct rbt_buffer *buffer, int cpu);
int rbt_unmap(struct rbt_buffer *buffer, int cpu);
int rbt_map_get_reader(struct rbt_buffer *buffer, int cpu);
bool rbt_cpu_mapped(struct rbt_buffer *buffer, int cpu);

/* Non-consuming reads, correct while writers run */
struct rbt_iter *rbt_iter_start(struct rbt_buffer *buffer, int cpu, gfp_t gfp);
void rbt_iter_finish(struct rbt_iter *iter);
struct rbt_event *rbt_iter_peek(struct rbt_iter *iter, u64 *ts);
void rbt_iter_advance(struct rbt_iter *iter);
bool rbt_iter_empty(struct rbt_iter *iter);
void rbt_iter_reset(struct rbt_iter *iter);
bool rbt_iter_dropped(struct rbt_iter *iter);

/* Waiting for data */
struct file;
struct poll_table_struct;
int rbt_wait(struct rbt_buffer *buffer, int cpu, int full);
__poll_t rbt_poll_wait(struct rbt_buffer *buffer, int cpu, struct file *filp,
		       struct poll_table_struct *pt, int full);
void rbt_wake_waiters(struct rbt_buffer *buffer, int cpu);
u64 rbt_time_stamp(struct rbt_buffer *buffer);

#endif /* _RBTRACE_RBTRACE_H */
