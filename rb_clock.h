/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace trace clocks: the table trace_clock offers, and the latch clock.
 * struct rbt_clock and the calls other modules use are in <rbtrace/rbtrace.h>.
 */
#ifndef _RB_CLOCK_H
#define _RB_CLOCK_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/math64.h>
#include <linux/seqlock.h>
#include <asm/timex.h>
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

static __always_inline void rb_latch_hook(int point)
{
	void (*hook)(int point) = READ_ONCE(rbt_latch_hook);

	if (unlikely(hook))
		hook(point);
}
#else
static __always_inline void rb_latch_hook(int point)
{
}
#endif

/*
 * The latch clock (rb_clock.c has its design, the steps U1..U3 and
 * R1..R5, F, and the barriers' partners). Its reader is here so that the
 * write path inlines it (rb_time_stamp()): a TSC read and a few loads
 * instead of a call.
 */
#define RB_LATCH_SHIFT		22
#define RB_LATCH_FRAC_MASK	((1U << RB_LATCH_SHIFT) - 1)
#define RB_LATCH_READ_TRIES	3

/*
 * One line of the clock: the time at count @cycles is @ns + @frac / 2^22
 * ns, and it advances @mult / 2^22 ns per count.
 */
struct rb_time_info {
	u64	cycles;
	u64	ns;
	u32	frac;
	u32	mult;
};

/* The slots first: with the sequence they fill one cache line. */
struct rb_latch {
	struct rb_time_info	slot[2];
	seqcount_latch_t	seq;
};

extern struct rb_latch rb_latch;

/* The cycle counter, read after the loads before it: see rb_clock.c. */
static __always_inline u64 rb_latch_counter(void)
{
#ifdef CONFIG_X86
	return rdtsc_ordered();
#else
	return get_cycles();
#endif
}

/*
 * (@frac + @delta * @mult) / 2^22: whole ns returned, the fraction left
 * in *@frac_out. The product needs 96 bits: two 32-bit halves, as the
 * generic mul_u64_u32_shr() does; the low half plus @frac fits in 64.
 */
static __always_inline u64 rb_latch_scale(u64 delta, u32 mult, u32 frac, u32 *frac_out)
{
	u64 lo = mul_u32_u32((u32)delta, mult) + frac;
	u64 hi = mul_u32_u32(delta >> 32, mult);

	if (frac_out)
		*frac_out = lo & RB_LATCH_FRAC_MASK;
	return (lo >> RB_LATCH_SHIFT) + (hi << (32 - RB_LATCH_SHIFT));
}

/* The time of @t at @cycles; a count before the anchor counts as the anchor. */
static __always_inline u64 rb_latch_ns(const struct rb_time_info *t, u64 cycles)
{
	u64 delta = cycles > t->cycles ? cycles - t->cycles : 0;

	return t->ns + rb_latch_scale(delta, t->mult, t->frac, NULL);
}

/* R1 to R5 and F: the body of rbt_latch_clock(), inlined where it is read. */
static __always_inline u64 rb_latch_read(void)
{
	const struct rb_time_info *slot;
	struct rb_time_info t;
	unsigned int seq;
	u64 now;
	int i;

	for (i = 0; i < RB_LATCH_READ_TRIES; i++) {
		/*R1*/
		seq = raw_read_seqcount_latch(&rb_latch.seq);
		/*R2: the slot, by an address dependency on seq (U3's first smp_wmb()) */
		slot = &rb_latch.slot[seq & 1];
		t.cycles = READ_ONCE(slot->cycles);
		t.ns = READ_ONCE(slot->ns);
		t.frac = READ_ONCE(slot->frac);
		t.mult = READ_ONCE(slot->mult);
		/*R3: after R1 and R2 */
		now = rb_latch_counter();
		rb_latch_hook(RBT_LATCH_HOOK_READ);
		/*R4: smp_rmb(), then seq again; pairs with U3's second smp_wmb() */
		if (likely(!raw_read_seqcount_latch_retry(&rb_latch.seq, seq)))
			return rb_latch_ns(&t, now);	/*R5*/
	}
	/*F: three updates overtook this reader; see rb_clock.c. */
	seq = raw_read_seqcount_latch(&rb_latch.seq);
	return READ_ONCE(rb_latch.slot[seq & 1].ns);
}

#endif /* _RB_CLOCK_H */
