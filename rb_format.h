/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace page and event format: ftrace's, byte for byte, so that
 * libtraceevent's kbuffer reads rbtrace's pages unchanged. What a
 * sub-buffer holds (struct rb_data_page), what an event header says
 * (struct rbt_event, in <rbtrace/rbtrace.h>) and the inline helpers that
 * measure and stamp events. header_page and header_event describe the
 * same to tools (rb_format.c).
 */
#ifndef _RB_FORMAT_H
#define _RB_FORMAT_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/local.h>
#include <rbtrace/rbtrace.h>

/*
 * Event types, in type_len. 1..28 are data events whose length is
 * 4 * type_len; 0 is a data event whose length sits in array[0].
 */
#define RB_TYPE_DATA_LONG	0
#define RB_TYPE_DATA_MAX	28
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31

#define RB_ALIGNMENT		4U
#define RB_MAX_SMALL_DATA	(RB_ALIGNMENT * RB_TYPE_DATA_MAX)
#define RB_EVNT_HDR_SIZE	4U
#define RB_EVNT_MIN_SIZE	8U	/* two words */
#define RB_LEN_TIME_EXTEND	8U
#define RB_LEN_TIME_STAMP	8U

/* Deltas are 27 bits; absolute stamps 59 bits (27 + 32). */
#define RB_TS_SHIFT		27
#define RB_TS_MASK		((1ULL << RB_TS_SHIFT) - 1)
#define RB_TS_DELTA_TEST	(~RB_TS_MASK)
#define RB_TS_MSB		(0xf8ULL << 56)
#define RB_ABS_TS_MASK		(~RB_TS_MSB)

/*
 * commit word of a data page, as ftrace: the low bits are the length of
 * the committed data; a reader handing a page out sets MISSED_EVENTS when
 * events were lost before it, and MISSED_STORED when the count of lost
 * events is stored (as a long) right after the data.
 */
#define RB_MISSED_EVENTS	BIT(31)
#define RB_MISSED_STORED	BIT(30)
#define RB_MISSED_FLAGS		(RB_MISSED_EVENTS | RB_MISSED_STORED)

/* The page handed to readers and to user space: ftrace's buffer_data_page. */
struct rb_data_page {
	u64		time_stamp;	/* stamp of the first event */
	local_t		commit;		/* bytes committed (+ missed flags) */
	unsigned char	data[];		/* events */
};

#define RB_PAGE_HDR_SIZE	offsetof(struct rb_data_page, data)
static_assert(RB_PAGE_HDR_SIZE == RBT_PAGE_HDR_SIZE);

static inline bool rb_null_event(struct rbt_event *event)
{
	return event->type_len == RB_TYPE_PADDING && !event->time_delta;
}

/**
 * rb_event_length - bytes an event occupies in the page, header included
 * @event: the event
 *
 * Padding reports the space it fills (or the rest of the page for the
 * 4-byte null padding, which the caller handles); time extends and
 * absolute stamps are two words.
 */
static inline unsigned int rb_event_length(struct rbt_event *event)
{
	switch (event->type_len) {
	case RB_TYPE_PADDING:
		if (rb_null_event(event))
			return RB_EVNT_HDR_SIZE;	/* caller: rest of page */
		return event->array[0] + RB_EVNT_HDR_SIZE;
	case RB_TYPE_TIME_EXTEND:
		return RB_LEN_TIME_EXTEND;
	case RB_TYPE_TIME_STAMP:
		return RB_LEN_TIME_STAMP;
	case RB_TYPE_DATA_LONG:
		return event->array[0] + RB_EVNT_HDR_SIZE;
	default:
		return event->type_len * RB_ALIGNMENT + RB_EVNT_HDR_SIZE;
	}
}

/**
 * rb_event_time_stamp - the 59-bit value of a time extend or absolute stamp
 * @event: an event of type RB_TYPE_TIME_EXTEND or RB_TYPE_TIME_STAMP
 */
static inline u64 rb_event_time_stamp(struct rbt_event *event)
{
	return ((u64)event->array[0] << RB_TS_SHIFT) + event->time_delta;
}

/*
 * rb_event_skip_stamp - the data event behind @event: @event itself, or
 * the event after the 8-byte time extend or absolute stamp in front of it.
 * (rbt_event_data() in <rbtrace/rbtrace.h> does the same for modules.)
 */
static inline struct rbt_event *rb_event_skip_stamp(struct rbt_event *event)
{
	if (event->type_len == RB_TYPE_TIME_EXTEND ||
	    event->type_len == RB_TYPE_TIME_STAMP)
		return (void *)event + RB_LEN_TIME_EXTEND;
	return event;
}

/**
 * rb_event_ts_length - length of an event including a time extend before it
 * @event: the event, or the time extend that precedes it
 */
static inline unsigned int rb_event_ts_length(struct rbt_event *event)
{
	struct rbt_event *data = rb_event_skip_stamp(event);

	return (void *)data - (void *)event + rb_event_length(data);
}

/*
 * rb_calculate_event_length - bytes to reserve for a payload of @length
 * (at least 1). A payload over RB_MAX_SMALL_DATA keeps its length in
 * array[0]. A total of 12 bytes is grown to 16 so that a discarded event
 * can always be turned into padding of at least RB_EVNT_MIN_SIZE.
 */
static __always_inline unsigned int rb_calculate_event_length(unsigned int length)
{
	if (length > RB_MAX_SMALL_DATA)
		length += sizeof(u32);
	length += RB_EVNT_HDR_SIZE;
	length = ALIGN(length, RB_ALIGNMENT);
	if (length == RB_EVNT_MIN_SIZE + RB_ALIGNMENT)
		length += RB_ALIGNMENT;
	return length;
}

/*
 * Write an event's first word in one store. The layout is ftrace's
 * bitfield u32 type_len:5, time_delta:27; on little-endian bitfields
 * type_len is the low five bits, which is what kbuffer decodes.
 */
static __always_inline void rb_event_set_header(struct rbt_event *event,
						u32 type_len, u32 delta)
{
#ifdef __LITTLE_ENDIAN_BITFIELD
	*(u32 *)event = type_len | (delta << 5);
#else
	event->type_len = type_len;
	event->time_delta = delta;
#endif
}

/*
 * rb_event_next_ts - the stamp after @event, given the stamp @ts before it,
 * adding up as libtraceevent's kbuffer does. Padding counts its delta: a
 * discarded event that could not give its space back keeps its delta,
 * and the events after it are stamped relative to it (null padding and
 * the padding at a page's end have 0 and 1, with nothing after them).
 */
static inline u64 rb_event_next_ts(u64 ts, struct rbt_event *event)
{
	switch (event->type_len) {
	case RB_TYPE_TIME_EXTEND:
		return ts + rb_event_time_stamp(event);
	case RB_TYPE_TIME_STAMP:
		return rb_event_time_stamp(event);
	default:
		return ts + event->time_delta;
	}
}

#endif /* _RB_FORMAT_H */
