/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace tracepoint events: what the probes (tp_probes.c) and their
 * attachment (tp_attach.c) share, and nothing else uses: the table of
 * probes, the duration filter's events, and whose tracer a probe
 * records for.
 */
#ifndef _RBTR_TP_INTERNAL_H
#define _RBTR_TP_INTERNAL_H

#include <linux/compiler.h>
#include <linux/types.h>
#include "event.h"
#include "tp_format.h"
#include "trace.h"

struct tracepoint;

/**
 * struct rbtr_tp_event - an event fed by a kernel tracepoint of its name
 * @type: the registry's type; type.name is the tracepoint's name
 * @probe: the probe, of the tracepoint's prototype
 * @tp: the tracepoint, if this kernel has it
 * @pair: the duration-filter pair it belongs to, or -1
 * @is_exit: the pair's exit event (else its entry)
 * @registered: in the registry (from load to unload)
 */
struct rbtr_tp_event {
	struct rbtr_event_type	type;
	void			*probe;
	struct tracepoint	*tp;
	int			pair;
	bool			is_exit;
	bool			registered;
};

/* The events of tp_events.h with their probes, in its order (tp_probes.c). */
extern struct rbtr_tp_event rbtr_tp_events[RBTR_TP_NR];
/* The duration filter's events, one per pair (tp_probes.c). */
extern struct rbtr_event_type rbtr_dur_types[RBTR_PAIR_NR];

/* The tracer a probe records into: its data is the event's file there. */
static __always_inline struct rbtr_trace *rbtr_tp_tr(void *data)
{
	return ((struct rbtr_event_file *)data)->tr;
}

/*
 * The duration filter (tracing_thresh) is the top tracer's: the probes of
 * other tracers record both events of a pair as they come.
 */
static __always_inline bool rbtr_dur_on(void *data)
{
	return rbtr_tp_tr(data) == &rbtr_global_trace;
}

#endif /* _RBTR_TP_INTERNAL_H */
