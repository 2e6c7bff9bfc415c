/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event sources: kernel tracepoints (rb_tracepoints.c) and the
 * duration filter they apply when tracing_thresh is set (rb_duration.c).
 */
#ifndef _RB_TRACEPOINTS_H
#define _RB_TRACEPOINTS_H

#include <linux/types.h>
#include "rb_duration.h"

struct dentry;

/*
 * Per CPU: what became of the exits while the filter was on (by verdict),
 * and the entries that could not be saved or evicted another task's.
 */
struct rb_dur_stats {
	unsigned long	n[RB_DUR_NR_VERDICTS];
	unsigned long	collisions;
};

/**
 * struct rb_dur_pair - the filter's state for one kind of pair
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
struct rb_dur_pair {
	const char			*name;
	u64				thresh;
	bool				entry_on;
	bool				exit_on;
	struct rb_dur_cpu __percpu	*cpu;
	struct rb_dur_table		table;
	struct rb_dur_stats __percpu	*stats;
};

extern struct rb_dur_pair rb_dur_pairs[RB_PAIR_NR];
extern unsigned int rb_dur_gen;

/* Duration filter (rb_duration.c) */
int rb_duration_init(struct dentry *top);
void rb_duration_exit(void);
void rb_dur_pair_set(enum rb_pair_id id, bool is_exit, bool on);

/* Tracepoint events (rb_tracepoints.c), called at module load and unload */
int rb_tracepoints_init(void);
void rb_tracepoints_exit(void);

#endif /* _RB_TRACEPOINTS_H */
