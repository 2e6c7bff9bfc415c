/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace tracepoint events: what the probes (tp_probes.c), their
 * attachment (tp_attach.c) and the syscalls events' probes
 * (kevents_syscalls.c) share, and nothing else uses: the table of
 * probes, the duration filter's events, whose tracer a probe records
 * for, and how a probe reserves and commits a record.
 */
#ifndef _RBTR_TP_INTERNAL_H
#define _RBTR_TP_INTERNAL_H

#include <linux/compiler.h>
#include <linux/types.h>
#include "event.h"
#include "tp_format.h"
#include "trace.h"

struct rbt_buffer;
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

/*
 * The context of the traced code: without the level the probe took
 * (rbtr_probe_<name>(), tp_probes.c) nor the tracepoint's (rbtr_ctx_tp()).
 */
static __always_inline unsigned int rbtr_tp_ctx(void)
{
	return rbtr_ctx_tp(rbtr_trace_ctx_skip(1));
}

/*
 * A probe is registered once per tracer that has its event enabled, with
 * the event's file in that tracer as its data (rbtr_tp_reg()): the
 * tracepoint calls each; with one tracer, its static call goes straight
 * to the one probe.
 *
 * The live buffer of the file's tracer is read once per record, into
 * *@buf, and the commit goes to that buffer: a snapshot may swap the live
 * one in between (snapshot.c). Probes run with preemption disabled (their
 * own, rbtr_probe_<name>()) from here to the commit, which keeps the
 * buffer from being freed under them, and the file (freed after
 * tracepoint_synchronize_unregister()).
 *
 * The condition word is tested once here: without a bit that matters
 * before the record (the common case), rbtr_event_reserve_plain() tests
 * none; with one, rbtr_event_reserve_fast() looks. An event whose filter
 * is one number compare (RBTR_EVC_FAST) is written there without its
 * header into a scratch slot, tested at the commit and only then given
 * its context: a rejected hit costs neither the context nor the
 * reservation.
 */
static __always_inline void *rbtr_tp_reserve(struct rbt_buffer **buf,
					     struct rbtr_event_file *file,
					     unsigned int size)
{
	unsigned long cond = READ_ONCE(file->cond);

	*buf = rbtr_live_buffer(file->tr);
	if (unlikely(cond & RBTR_EVC_AT_RESERVE_ALL))
		return rbtr_event_reserve_fast(*buf, file, size);
	return rbtr_event_reserve_plain(*buf, file, size, rbtr_tp_ctx());
}

static __always_inline void rbtr_tp_commit(struct rbt_buffer *buf,
					   struct rbtr_event_file *file, void *rec,
					   unsigned int size)
{
	rbtr_event_commit(buf, file, rec, size);
}

#endif /* _RBTR_TP_INTERNAL_H */
