/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace tracepoint events: the records, laid out as the kernel's own
 * events of the same names (include/trace/events/), and what describes
 * them to readers (tp_format.c), all expanded from one description per
 * event in tp_events.h. The probes that write them are in tp_probes.c.
 */
#ifndef _RBTR_TP_FORMAT_H
#define _RBTR_TP_FORMAT_H

#include <linux/types.h>
#include "event.h"
#include "duration.h"

#define RBTR_COMM_LEN	16	/* TASK_COMM_LEN, spelt out in field names */
#define RBTR_NO_PAIR	(-1)	/* an event outside the duration filter's pairs */

/* ---- records: the kernel's layouts (include/trace/events/) ------------- */

/*
 * struct rbtr_rec_<class>: the common header, then the fields of the
 * class in tp_events.h; a __string() field holds a __data_loc ((len << 16)
 * | offset), its text in __data[] after the fixed part. Each member is
 * alone in an anonymous struct (which lays it out as a plain member) and
 * begins with the semicolon that ends the one before it.
 */
#define TP_STRUCT__entry(args...)	args
#define __field(type, item)		; struct { type item; }
#define __array(type, item, len)	; struct { type item[len]; }
#define __string(item)			; struct { u32 item; }
#define RBTR_TP_CLASS(class, tstruct, print)				\
	struct rbtr_rec_##class {					\
		struct rbtr_entry	ent				\
		tstruct;						\
		char			__data[];			\
	}; RBTR_TP_UNUSED(print)
#include "tp_events.h"
#undef TP_STRUCT__entry
#undef __field
#undef __array
#undef __string

/* ---- the events ------------------------------------------------------------ */

/* RBTR_TP_<event>: the tracepoint events, in the order of tp_events.h. */
enum rbtr_tp_id {
#define RBTR_TP_EVENT(name, ...)	RBTR_TP_##name,
#include "tp_events.h"
	RBTR_TP_NR
};

/**
 * struct rbtr_tp_desc - how an event's records read
 * @system: events/<system>/
 * @name: the event's name (for a tracepoint event, the tracepoint's)
 * @fields: returns its fields after the common ones, as its format file
 *          lists them, and their number in @nr (a function: the table of
 *          a class is laid out in a scope that knows its record)
 * @print_fmt: its format file's print fmt
 * @print: its text in the trace files
 */
struct rbtr_tp_desc {
	const char		*system;
	const char		*name;
	const struct rbtr_field	*(*fields)(unsigned int *nr);
	const char		*print_fmt;
	rbtr_print_fn		print;
};

/* The tracepoint events, and the duration filter's, one per pair. */
extern const struct rbtr_tp_desc rbtr_tp_descs[RBTR_TP_NR];
extern const struct rbtr_tp_desc rbtr_dur_descs[RBTR_PAIR_NR];

#endif /* _RBTR_TP_FORMAT_H */
