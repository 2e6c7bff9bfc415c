/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event sources: kernel tracepoints (the probes in tp_probes.c,
 * attached by tp_attach.c) and the duration filter they apply when
 * tracing_thresh is set (duration.c).
 */
#ifndef _RBTR_TP_H
#define _RBTR_TP_H

#include <linux/types.h>
#include "duration.h"

struct dentry;
struct rbtr_trace;

/*
 * Per CPU: what became of the exits while the filter was on (by verdict),
 * and the entries that could not be saved or evicted another task's.
 */
struct rbtr_dur_stats {
	unsigned long	n[RBTR_DUR_NR_VERDICTS];
	unsigned long	collisions;
};

/**
 * struct rbtr_dur_pair - the filter's state for one kind of pair
 * @name: its name in tracing_thresh_stats
 * @thresh: the threshold in ns while the filter applies to the pair
 *          (tracing_thresh set and both events enabled), else 0; read by
 *          the probes
 * @entry_on: the entry event is enabled (under the filter's mutex)
 * @exit_on: the exit event is enabled (under the filter's mutex)
 * @cpu: per-CPU slots (irq, softirq, hrtimer), or NULL
 * @table: per-task slots (work items, syscalls); .slot NULL if per CPU
 * @stats: per-CPU counters of verdicts
 */
struct rbtr_dur_pair {
	const char			*name;
	u64				thresh;
	bool				entry_on;
	bool				exit_on;
	struct rbtr_dur_cpu __percpu	*cpu;
	struct rbtr_dur_table		table;
	struct rbtr_dur_stats __percpu	*stats;
};

extern struct rbtr_dur_pair rbtr_dur_pairs[RBTR_PAIR_NR];
extern unsigned int rbtr_dur_gen;

/* Duration filter (duration.c) */
int rbtr_duration_init(struct dentry *top);
void rbtr_duration_exit(void);
void rbtr_dur_pair_set(enum rbtr_pair_id id, bool is_exit, bool on);

/* Tracepoint events (tp_attach.c), called at module load and unload */
int rbtr_tracepoints_init(struct rbtr_trace *tr);
void rbtr_tracepoints_exit(void);
struct tracepoint *rbtr_tp_find(const char *name);
struct module;
struct tracepoint *rbtr_tp_find_in_module(struct module *mod, const char *name);
struct rbtr_event_type;
bool rbtr_tp_own(const struct rbtr_event_type *type);

#endif /* _RBTR_TP_H */
