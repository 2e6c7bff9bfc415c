/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace trace clocks: the table trace_clock offers, and the latch clock.
 * struct rbt_clock and the calls other modules use are in <rbtrace/rbtrace.h>.
 */
#ifndef _RB_CLOCK_H
#define _RB_CLOCK_H

#include <linux/types.h>
#include <rbtrace/rbtrace.h>

extern const struct rbt_clock rb_clocks[];
extern const unsigned int rb_nr_clocks;

const struct rbt_clock *rb_clock_of(u64 (*read)(void));
void rb_clock_init(void);
void rb_clock_exit(void);

#ifdef RBTRACE_TEST_HOOKS
void rbt_latch_update(void);
#endif

#endif /* _RB_CLOCK_H */
