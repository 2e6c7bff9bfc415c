/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace test hooks: named points in the write path where a KUnit case
 * can run code (nest a write, hold the writer). The calls compile out of
 * normal builds; RBTRACE_TEST_HOOKS builds (make tests) have them.
 */
#ifndef _RB_HOOKS_H
#define _RB_HOOKS_H

struct rbt_buffer;

enum rbt_hook_point {
	RBT_HOOK_A,	/* after reading the write index */
	RBT_HOOK_B,	/* after setting before_stamp */
	RBT_HOOK_C,	/* after reserving */
	RBT_HOOK_D,	/* after setting write_stamp */
	RBT_HOOK_E,	/* slow path: after reading write_stamp */
	RBT_HOOK_COMMIT,	/* before the outermost commit publishes */
	RBT_HOOK_MAX
};

#ifdef RBTRACE_TEST_HOOKS
extern void (*rbt_test_hook)(struct rbt_buffer *buffer, int point);

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
#endif

#endif /* _RB_HOOKS_H */
