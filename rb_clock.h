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
#include <asm/barrier.h>
#include <asm/timex.h>
#include <rbtrace/rbtrace.h>
#include <uapi/rbtrace/clock_page.h>

extern const struct rbt_clock rb_clocks[];
extern const unsigned int rb_nr_clocks;

const struct rbt_clock *rb_clock_of(u64 (*read)(void));
int rb_clock_init(void);
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
#define RB_LATCH_READ_TRIES	RBTRACE_CLOCK_READ_TRIES

/*
 * The clock lives in one zeroed page (rb_clock_init()) laid out as the
 * user ABI struct rbtrace_clock_page, which trace_clock_page maps
 * read-only: the two slots, each a line of the clock (the time at count
 * cycles is ns + frac / 2^22 ns, and it advances mult / 2^22 ns per
 * count), then the sequence, a plain u32 (seqcount_latch_t's layout
 * changes with lockdep: no ABI), written and read with the barriers of
 * raw_write_seqcount_latch() and raw_read_seqcount_latch(). The slots and
 * the sequence fill one cache line. Set before any reader can run, never
 * changed until module unload: the readers' one load more than a static.
 */
extern struct rbtrace_clock_page *rb_latch;

/* R1: raw_read_seqcount_latch() on the page's u32. */
static __always_inline u32 rb_latch_seq(const struct rbtrace_clock_page *p)
{
	return READ_ONCE(p->seq);
}

/* R4: raw_read_seqcount_latch_retry() on the page's u32. */
static __always_inline bool rb_latch_seq_retry(const struct rbtrace_clock_page *p, u32 start)
{
	/* The slot's loads before seq's, pairs with U3's second smp_wmb(). */
	smp_rmb();
	return unlikely(READ_ONCE(p->seq) != start);
}

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

/*
 * R2 loads a slot's frac and mult (adjacent u32s, 8-aligned) as one u64:
 * one register fewer live across R3 than four loads, so that on x86-64
 * the reader needs no frame and costs only the page's address more than
 * a static latch did. A load that mixes an old and a new half is of a
 * slot being written: R4 retries it.
 */
static __always_inline u64 rb_latch_fm(const struct rbtrace_clock_slot *slot)
{
	return READ_ONCE(*(const u64 *)&slot->frac);
}

static __always_inline u32 rb_latch_fm_frac(u64 fm)
{
#ifdef __LITTLE_ENDIAN
	return (u32)fm;
#else
	return fm >> 32;
#endif
}

static __always_inline u32 rb_latch_fm_mult(u64 fm)
{
#ifdef __LITTLE_ENDIAN
	return fm >> 32;
#else
	return (u32)fm;
#endif
}

/* R1 to R5 and F: the body of rbt_latch_clock(), inlined where it is read. */
static __always_inline u64 rb_latch_read(void)
{
	const struct rbtrace_clock_page *p = rb_latch;
	const struct rbtrace_clock_slot *slot;
	u64 cycles, ns, fm, now, delta;
	unsigned int seq;
	int i;

	for (i = 0; i < RB_LATCH_READ_TRIES; i++) {
		/*R1*/
		seq = rb_latch_seq(p);
		/*R2: the slot, by an address dependency on seq (U3's first smp_wmb()) */
		slot = &p->slot[seq & 1];
		cycles = READ_ONCE(slot->cycles);
		ns = READ_ONCE(slot->ns);
		fm = rb_latch_fm(slot);
		/*R3: after R1 and R2 */
		now = rb_latch_counter();
		rb_latch_hook(RBT_LATCH_HOOK_READ);
		/*R4: smp_rmb(), then seq again; pairs with U3's second smp_wmb() */
		if (likely(!rb_latch_seq_retry(p, seq))) {
			/*R5: a count before the anchor counts as the anchor */
			delta = now > cycles ? now - cycles : 0;
			return ns + rb_latch_scale(delta, rb_latch_fm_mult(fm),
						   rb_latch_fm_frac(fm), NULL);
		}
	}
	/*F: three updates overtook this reader; see rb_clock.c. */
	seq = rb_latch_seq(p);
	return READ_ONCE(p->slot[seq & 1].ns);
}

#endif /* _RB_CLOCK_H */
