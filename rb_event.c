// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace event format: lengths and time stamps of the records in a page.
 * The layout is ftrace's, byte for byte; see rb_internal.h for the types.
 */
#include "rb_internal.h"

/**
 * rb_event_length - bytes an event occupies in the page, header included
 * @event: the event
 *
 * Padding reports the space it fills (or the rest of the page for the
 * 4-byte null padding, which the caller handles); time extends and
 * absolute stamps are two words.
 */
unsigned int rb_event_length(struct rbt_event *event)
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
 * rb_event_ts_length - length of an event including a time extend before it
 * @event: the event, or the time extend that precedes it
 */
unsigned int rb_event_ts_length(struct rbt_event *event)
{
	unsigned int len = 0;

	if (event->type_len == RB_TYPE_TIME_EXTEND ||
	    event->type_len == RB_TYPE_TIME_STAMP) {
		len = RB_LEN_TIME_EXTEND;
		event = (void *)event + RB_LEN_TIME_EXTEND;
	}
	return len + rb_event_length(event);
}

/**
 * rb_event_time_stamp - the 59-bit value of a time extend or absolute stamp
 * @event: an event of type RB_TYPE_TIME_EXTEND or RB_TYPE_TIME_STAMP
 */
u64 rb_event_time_stamp(struct rbt_event *event)
{
	return ((u64)event->array[0] << RB_TS_SHIFT) + event->time_delta;
}

/**
 * rb_calculate_event_length - bytes to reserve for a payload of @length
 * @length: payload bytes (0 is treated as 1)
 *
 * A payload over RB_MAX_SMALL_DATA keeps its length in array[0]. A total
 * of 12 bytes is grown to 16 so that a discarded event can always be
 * turned into padding of at least RB_EVNT_MIN_SIZE.
 */
unsigned int rb_calculate_event_length(unsigned int length)
{
	if (!length)
		length = 1;
	if (length > RB_MAX_SMALL_DATA)
		length += sizeof(u32);
	length += RB_EVNT_HDR_SIZE;
	length = ALIGN(length, RB_ALIGNMENT);
	if (length == RB_EVNT_MIN_SIZE + RB_ALIGNMENT)
		length += RB_ALIGNMENT;
	return length;
}

/**
 * rbt_event_length - payload bytes of a data event
 * @event: an event returned by rbt_lock_reserve(), rbt_peek() or rbt_consume()
 *
 * The payload may be longer than what the writer asked for: it is rounded
 * up to a multiple of four bytes.
 */
unsigned int rbt_event_length(struct rbt_event *event)
{
	unsigned int length;

	if (event->type_len == RB_TYPE_TIME_EXTEND ||
	    event->type_len == RB_TYPE_TIME_STAMP)
		event = (void *)event + RB_LEN_TIME_EXTEND;

	length = rb_event_length(event) - RB_EVNT_HDR_SIZE;
	if (event->type_len == RB_TYPE_DATA_LONG)
		length -= sizeof(event->array[0]);
	return length;
}
EXPORT_SYMBOL_GPL(rbt_event_length);

/**
 * rbt_event_data - the payload of a data event
 * @event: an event returned by rbt_lock_reserve(), rbt_peek() or rbt_consume()
 */
void *rbt_event_data(struct rbt_event *event)
{
	if (event->type_len == RB_TYPE_TIME_EXTEND ||
	    event->type_len == RB_TYPE_TIME_STAMP)
		event = (void *)event + RB_LEN_TIME_EXTEND;

	if (event->type_len)
		return &event->array[0];
	return &event->array[1];
}
EXPORT_SYMBOL_GPL(rbt_event_data);
