/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace test hooks: named points in the write and read paths where a
 * KUnit case can run code (nest a write, hold the writer or a reader). The calls compile out of
 * normal builds; RBTRACE_TEST_HOOKS builds (make tests) have them.
 */
#ifndef _RB_HOOKS_H
#define _RB_HOOKS_H

#include <linux/atomic.h>

struct rbt_buffer;

enum rbt_hook_point {
	RBT_HOOK_A,	/* after reading the write index */
	RBT_HOOK_B,	/* after setting before_stamp */
	RBT_HOOK_C,	/* after reserving */
	RBT_HOOK_D,	/* after setting write_stamp */
	RBT_HOOK_E,	/* slow path: after reading write_stamp */
	RBT_HOOK_COMMIT,	/* before the outermost commit publishes */
	RBT_HOOK_HEAD_UPDATE,	/* a writer set UPDATE on the pointer to the head */
	RBT_HOOK_ALLOC_READ_PAGE,	/* rbt_alloc_read_page(), cpu_buffer->lock held */
	RBT_HOOK_READ_PAGE,	/* rbt_read_page(), before reader_lock (may sleep) */
	RBT_HOOK_ITER_START,	/* rbt_iter_start(), before reader_lock (may sleep) */
	RBT_HOOK_COMMIT_LAP,	/* the outermost commit published and looks again */
	RBT_HOOK_HEAD_SEARCH,	/* rb_set_head_page(), before each page it looks at */
	RBT_HOOK_MAX
};

#ifdef RBTRACE_TEST_HOOKS
extern void (*rbt_test_hook)(struct rbt_buffer *buffer, int point);
extern atomic_t rbt_test_warns_expected;

/*
 * A test that breaks a ring on purpose expects RB_WARN_ON() to stop
 * recording: it sets rbt_test_warns_expected, and each expected warning
 * is counted off it instead of printed (a WARNING fails the boot's log
 * scan). Recording stops all the same.
 */
static __always_inline bool rb_hook_warn_expected(void)
{
	return atomic_dec_if_positive(&rbt_test_warns_expected) >= 0;
}

static __always_inline void rb_hook(struct rbt_buffer *buffer, int point)
{
	void (*hook)(struct rbt_buffer *buffer, int point) = READ_ONCE(rbt_test_hook);

	if (unlikely(hook))
		hook(buffer, point);
}
#else
static __always_inline void rb_hook(struct rbt_buffer *buffer, int point)
{
}

static __always_inline bool rb_hook_warn_expected(void)
{
	return false;
}
#endif

#endif /* _RB_HOOKS_H */
