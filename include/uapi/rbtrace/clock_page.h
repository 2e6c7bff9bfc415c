/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * rbtrace's latch clock, read from user space without a system call.
 *
 * /sys/kernel/debug/rbtrace/trace_clock_page maps (read-only, shared, one
 * page at offset 0) the page the kernel's latch clock lives in: the two
 * slots and the sequence its own readers use (rb_clock.c has the design:
 * updater steps U1..U3, reader steps R1..R5 and F). rbtrace_clock_read()
 * below is that reader, step for step, so that a stamp taken here lies on
 * the timeline of the events stamped with trace_clock "latch":
 *
 *	int fd = open("/sys/kernel/debug/rbtrace/trace_clock_page", O_RDONLY);
 *	const struct rbtrace_clock_page *p =
 *		mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
 *
 *	if (p != MAP_FAILED && rbtrace_clock_usable(p))
 *		ns = rbtrace_clock_read(p);
 *
 * No library, no lock, no system call: a few loads, one counter read,
 * a bounded retry. Only the __u32/__u64 of <linux/types.h>.
 */
#ifndef _UAPI_RBTRACE_CLOCK_PAGE_H
#define _UAPI_RBTRACE_CLOCK_PAGE_H

#include <linux/types.h>

#define RBTRACE_CLOCK_PAGE_VERSION	1

/* What the cycle counter of the slots is (the page's @counter). */
#define RBTRACE_CLOCK_COUNTER_NONE	0	/* not readable from user space */
#define RBTRACE_CLOCK_COUNTER_X86_TSC	1	/* x86 RDTSC, ordered by LFENCE */

/* Tries before the fallback F, as the kernel's reader. */
#define RBTRACE_CLOCK_READ_TRIES	3

/**
 * struct rbtrace_clock_slot - one line of the clock
 * @cycles: the anchor, a count of the cycle counter
 * @ns: the time at @cycles, whole nanoseconds
 * @frac: and the fraction of a nanosecond, in 2^-@shift
 * @mult: the rate: @mult / 2^@shift ns per count
 */
struct rbtrace_clock_slot {
	__u64	cycles;
	__u64	ns;
	__u32	frac;
	__u32	mult;
};

/**
 * struct rbtrace_clock_page - the start of trace_clock_page (one page)
 * @slot: the two slots; @seq & 1 is the current one
 * @seq: the latch sequence: moves by one at each update
 * @version: RBTRACE_CLOCK_PAGE_VERSION; a reader refuses another
 * @counter: RBTRACE_CLOCK_COUNTER_*
 * @shift: the scale of @frac and @mult (22)
 *
 * The rest of the page is zero. Only the kernel writes it.
 */
struct rbtrace_clock_page {
	struct rbtrace_clock_slot	slot[2];
	__u32	seq;
	__u32	version;
	__u32	counter;
	__u32	shift;
};

/*
 * The cycle counter after the loads before it (R3): LFENCE waits for the
 * earlier loads to complete before RDTSC executes, as the kernel's
 * rdtsc_ordered(). Without it RDTSC may run ahead of the slot's loads and
 * read a count from before the anchor it is applied to.
 */
static __inline__ __u64 rbtrace_clock_counter(void)
{
#ifdef __x86_64__
	__u32 lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return ((__u64)hi << 32) | lo;
#else
	return 0;
#endif
}

/**
 * rbtrace_clock_usable - can rbtrace_clock_read() read this page here?
 * @p: the mapped page
 *
 * Return: 1 if the page's layout and counter are known to this header,
 * on this architecture (x86-64 only, for now); else 0: there
 * rbtrace_clock_read() would return only the times of the updates (F).
 */
static __inline__ int rbtrace_clock_usable(const struct rbtrace_clock_page *p)
{
#ifdef __x86_64__
	return p->version == RBTRACE_CLOCK_PAGE_VERSION &&
	       p->counter == RBTRACE_CLOCK_COUNTER_X86_TSC &&
	       p->shift > 0 && p->shift < 32;
#else
	return 0;
#endif
}

/*
 * (@frac + @delta * @mult) >> @shift, exactly as the kernel's
 * rb_latch_scale(): the 96-bit product in two 32-bit halves; the low half
 * plus @frac fits in 64 bits.
 */
static __inline__ __u64 rbtrace_clock_scale(__u64 delta, __u32 mult, __u32 frac,
					    __u32 shift)
{
	__u64 lo = (__u64)(__u32)delta * mult + frac;
	__u64 hi = (delta >> 32) * mult;

	return (lo >> shift) + (hi << (32 - shift));
}

/*
 * A load the compiler makes once, whole, where it is written. A test may
 * define its own first (KUnit rbtrace_uclock: an update in the middle of
 * a read, at a load of its choosing).
 */
#ifndef RBTRACE_CLOCK_LOAD
#define RBTRACE_CLOCK_LOAD(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif

/**
 * rbtrace_clock_read - the latch clock now, as the kernel would read it
 * @p: the mapped page (rbtrace_clock_usable() true)
 *
 * R1: the sequence, an acquire load (the kernel's reader relies on the
 * address dependency of R2 on it; C does not promise that ordering, the
 * acquire does, at no cost on x86). R2: the slot it names. R3: the
 * counter after them. R4: a read fence, then the sequence again: if it
 * moved, an update may have rewritten the slot while it was read; retry,
 * at most RBTRACE_CLOCK_READ_TRIES times. R5: the slot's line at the
 * count, a count before the anchor (another CPU's TSC ahead of this
 * one's) counting as the anchor. F: after three misses, the current
 * slot's ns: no later than now, on the clock's line.
 *
 * Return: nanoseconds on the timeline of trace_clock "latch".
 */
static __inline__ __u64 rbtrace_clock_read(const struct rbtrace_clock_page *p)
{
	const struct rbtrace_clock_slot *s;
	__u64 cycles, ns, now, delta;
	__u32 seq, frac, mult;
	int i;

	for (i = 0; i < RBTRACE_CLOCK_READ_TRIES; i++) {
		/*R1: pairs with U3's first smp_wmb() */
		seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
		/*R2*/
		s = &p->slot[seq & 1];
		cycles = RBTRACE_CLOCK_LOAD(s->cycles);
		ns = RBTRACE_CLOCK_LOAD(s->ns);
		frac = RBTRACE_CLOCK_LOAD(s->frac);
		mult = RBTRACE_CLOCK_LOAD(s->mult);
		/*R3: after R1 and R2 */
		now = rbtrace_clock_counter();
		/*R4: smp_rmb(), then seq again; pairs with U3's second smp_wmb() */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (RBTRACE_CLOCK_LOAD(p->seq) == seq) {
			/*R5*/
			delta = now > cycles ? now - cycles : 0;
			return ns + rbtrace_clock_scale(delta, mult, frac, p->shift);
		}
	}
	/*F*/
	seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
	return RBTRACE_CLOCK_LOAD(p->slot[seq & 1].ns);
}

#endif /* _UAPI_RBTRACE_CLOCK_PAGE_H */
