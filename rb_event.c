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
