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

/* Test hook points of the latch clock; the calls compile out of normal builds. */
enum rbt_latch_hook_point {
	RBT_LATCH_HOOK_READ,	/* reader: slot and cycles read, seq not re-checked */
	RBT_LATCH_HOOK_PUBLISH,	/* updater: next slot written, not published */
};

#ifdef RBTRACE_TEST_HOOKS
extern void (*rbt_latch_hook)(int point);
void rbt_latch_update(void);
void rbt_latch_inject(u64 cycles, u64 ns);
#endif

#endif /* _RB_CLOCK_H */
