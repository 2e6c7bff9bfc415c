/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The snapshot of a tracer (snapshot.c): a spare buffer of the live one's
 * geometry, swapped with it in one step for every CPU, as ftrace's
 * max_buffer is by "echo 1 > snapshot".
 */
#ifndef _RBTR_SNAPSHOT_H
#define _RBTR_SNAPSHOT_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/seq_file.h>
#include <linux/types.h>

struct rbt_buffer;
struct dentry;
struct rbtr_trace;

/**
 * struct rbtr_snap - a tracer's snapshot state
 * @spare: the snapshot buffer (not recorded into), NULL when freed.
 *         Written under the tracer's files_mutex and @lock
 * @bufs: the tracer's buffers, live or spare, whatever their role now:
 *        what @pins counts against
 * @pins: readers bound to each of @bufs (rbtr_reader_open(), moved by
 *        rbtr_reader_follow()), and polls registered on them
 *        (rbtr_reader_poll_pin()); a pinned spare is not freed. Under
 *        files_mutex
 * @armed: snapshot triggers set (rbtr_snapshot_get()): the spare is not
 *         freed while > 0, as ftrace's tr->snapshot count
 * @wake: wakes the readers sleeping on the buffer a swap made the
 *        snapshot, so that they follow the live one (from any context)
 * @lock: 0 or 1: held by a swap, or by a change that applies to both
 *        buffers; taken with a cmpxchg, never waited for in a swap
 * @mapped: mappings of a trace_pipe_raw of the tracer: no swap while > 0
 * @stop_count: opens of trace pausing recording (pause-on-trace), applied
 *              to both buffers. Under files_mutex and @lock
 * @gp: the RCU state at the last swap (get_state_synchronize_rcu()): the
 *      writers that read @spare as the live buffer have committed once a
 *      grace period has elapsed since. Under @lock
 * @taken: swaps done
 * @missed: swaps given up because @lock was held
 */
struct rbtr_snap {
	struct rbt_buffer	*spare;
	struct rbt_buffer	*bufs[2];
	unsigned int		pins[2];
	atomic_t		armed;
	struct irq_work		wake;
	atomic_t		lock;
	atomic_t		mapped;
	unsigned int		stop_count;
	unsigned long		gp;
	atomic_long_t		taken;
	atomic_long_t		missed;
};

int rbtr_snapshot_take(struct rbtr_trace *tr);
int rbtr_snapshot_alloc(struct rbtr_trace *tr);
struct rbt_buffer *rbtr_snapshot_spare(struct rbtr_trace *tr, unsigned long *gp);
int rbtr_snapshot_get(struct rbtr_trace *tr);
void rbtr_snapshot_put(struct rbtr_trace *tr);
void rbtr_snapshot_init(struct rbtr_trace *tr);
void rbtr_snapshot_exit(struct rbtr_trace *tr);

/* For the files that change what applies to both buffers (snapshot.c) */
void rbtr_reset(struct rbtr_trace *tr, int cpu);
void rbtr_reset_buffer(struct rbtr_trace *tr, struct rbt_buffer *buffer, int cpu);
int rbtr_buffers_resize(struct rbtr_trace *tr, unsigned long size, int cpu);
int rbtr_buffers_set_subbuf_order(struct rbtr_trace *tr, unsigned int order);
int rbtr_buffers_set_clock(struct rbtr_trace *tr, u64 (*clock)(void));
void rbtr_buffers_set_on(struct rbtr_trace *tr, bool on);
void rbtr_buffers_set_overwrite(struct rbtr_trace *tr, bool on);
void rbtr_pause(struct rbtr_trace *tr);
void rbtr_unpause(struct rbtr_trace *tr);
int rbtr_snapshot_map_get(struct rbtr_trace *tr);
void rbtr_snapshot_map_put(struct rbtr_trace *tr);

/* A reader binds to one buffer at open, pinned. */
struct rbt_buffer *rbtr_reader_open(struct rbtr_trace *tr, bool snapshot);
void rbtr_reader_close(struct rbtr_trace *tr, struct rbt_buffer *buffer);

/* Consuming readers of the live buffer follow it across swaps. */
struct rbt_buffer *rbtr_reader_follow(struct rbtr_trace *tr, struct rbt_buffer *buffer);
void rbtr_reader_pin(struct rbtr_trace *tr, struct rbt_buffer *buffer);
void rbtr_reader_unpin(struct rbtr_trace *tr, struct rbt_buffer *buffer);
void rbtr_reader_poll_pin(struct rbtr_trace *tr, struct rbt_buffer *buffer,
			  unsigned int *polled);
void rbtr_reader_poll_unpin(struct rbtr_trace *tr, unsigned int polled);

void rbtr_snapshot_help(struct seq_file *m, struct rbtr_trace *tr, int cpu);
int rbtr_snap_cmd(struct rbtr_trace *tr, int cpu, unsigned long val);
void rbtr_snapshot_files(struct rbtr_trace *tr);
void rbtr_snapshot_cpu_files(struct rbtr_trace *tr, struct dentry *dir, int cpu);

#endif /* _RBTR_SNAPSHOT_H */
