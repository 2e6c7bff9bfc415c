/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace trace clocks: the names trace_clock offers, and the latch clock.
 */
#ifndef _RB_CLOCK_H
#define _RB_CLOCK_H

#include <linux/types.h>
#include <rbtrace/rbtrace.h>

/**
 * struct rb_clock - a clock events can be stamped with
 * @name: its name in trace_clock
 * @read: reads it; callable from any context, NMI included
 * @in_ns: counts nanoseconds (else a plain counter)
 */
struct rb_clock {
	const char	*name;
	u64		(*read)(void);
	bool		in_ns;
};

extern const struct rb_clock rb_clocks[];
extern const unsigned int rb_nr_clocks;

const struct rb_clock *rb_clock_find(const char *name);
const struct rb_clock *rb_clock_of(u64 (*read)(void));
int rb_clock_get(const struct rb_clock *clock);
void rb_clock_put(const struct rb_clock *clock);
void rb_clock_init(void);
void rb_clock_exit(void);

#ifdef RBTRACE_TEST_HOOKS
void rbt_latch_update(void);
#endif

#endif /* _RB_CLOCK_H */
