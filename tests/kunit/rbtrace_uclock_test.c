// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the user-space reader of the latch clock, rbtrace_clock_read() of
 * <uapi/rbtrace/clock_page.h>, when updates land in the middle of a read.
 * Made certain rather than hoped for (under TCG two vCPUs rarely meet
 * inside a read of four loads): every load the reader makes through
 * RBTRACE_CLOCK_LOAD goes through a hook defined here, before the header,
 * which at the first load of a try runs updates of a page of the test's
 * own, on this CPU, as a slow reader would see them from another:
 *
 *   one miss   the update that moves seq from s to s + 1, then the next
 *              one's U2 begun over slot[s & 1], the slot being read, with
 *              poison: the try reads poison, R4 sees seq moved, the second
 *              try reads the new slot. The poison was read (the hook saw
 *              it loaded) and not returned: R4's retry is what kept it out.
 *   fallback   an update at every try: three misses, then F returns the
 *              current slot's ns, exactly.
 *   no update  the line's time at the reader's count.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/types.h>
#include <asm/timex.h>

static void rbt_uc_hook(void);
static void rbt_uc_seen(u64 v);

#define RBTRACE_CLOCK_LOAD(x) ({				\
	__auto_type __p = &(x);				\
	__unqual_scalar_typeof(*__p) __v;			\
	rbt_uc_hook();						\
	__v = __atomic_load_n(__p, __ATOMIC_RELAXED);		\
	rbt_uc_seen((u64)__v);					\
	__v;							\
})
#include <uapi/rbtrace/clock_page.h>

#define RBT_UC_POISON_NS	0x5a5a5a5a5a5a5a5aULL
#define RBT_UC_NS0		1000000000000ULL	/* the line's time at its anchor */
#define RBT_UC_MULT		BIT(22)			/* 1 ns a count */

static struct rbtrace_clock_page *rbt_uc_page;
static enum { RBT_UC_OFF, RBT_UC_ONE_MISS, RBT_UC_EVERY_TRY } rbt_uc_mode;
static unsigned int rbt_uc_loads;	/* slot loads of this try: 1 is its first */
static unsigned int rbt_uc_fired;	/* updates the hook ran */
static bool rbt_uc_poison_read;
static u64 rbt_uc_last_ns;		/* the ns of the last slot published */
static u64 rbt_uc_c0;			/* the line's first anchor, at NS0 */

/* U2 and U3 of rb_clock.c, over the test's page: a line through (cycles, ns). */
static void rbt_uc_publish(u64 cycles, u64 ns)
{
	struct rbtrace_clock_slot *next = &rbt_uc_page->slot[(rbt_uc_page->seq + 1) & 1];

	WRITE_ONCE(next->cycles, cycles);
	WRITE_ONCE(next->ns, ns);
	WRITE_ONCE(next->frac, 0);
	WRITE_ONCE(next->mult, RBT_UC_MULT);
	rbt_uc_last_ns = ns;
	/* U3: the slot before seq; seq before the next U2 (rb_clock.c's pairs) */
	smp_wmb();
	WRITE_ONCE(rbt_uc_page->seq, rbt_uc_page->seq + 1);
	smp_wmb();	/* see above */
}

/* The next update's U2 begun over slot[seq + 1] (the one read before the flip). */
static void rbt_uc_poison_next(void)
{
	struct rbtrace_clock_slot *next = &rbt_uc_page->slot[(rbt_uc_page->seq + 1) & 1];

	WRITE_ONCE(next->cycles, 0);
	WRITE_ONCE(next->ns, RBT_UC_POISON_NS);
	WRITE_ONCE(next->frac, ~0U);
	WRITE_ONCE(next->mult, ~0U);
}

/* The line moved along itself to now: the same time at every count. */
static void rbt_uc_update(void)
{
	const struct rbtrace_clock_slot *cur = &rbt_uc_page->slot[rbt_uc_page->seq & 1];
	u64 now = rdtsc_ordered();

	if (now < cur->cycles)
		now = cur->cycles;
	rbt_uc_publish(now, cur->ns + (now - cur->cycles));
}

static void rbt_uc_hook(void)
{
	/* A try's loads: cycles, ns, frac, mult, then R4's seq. */
	if (rbt_uc_loads++ % 5)
		return;
	switch (rbt_uc_mode) {
	case RBT_UC_OFF:
		break;
	case RBT_UC_ONE_MISS:
		rbt_uc_mode = RBT_UC_OFF;
		rbt_uc_update();
		rbt_uc_poison_next();
		rbt_uc_fired++;
		break;
	case RBT_UC_EVERY_TRY:
		/* Each try, not F's load after them. */
		if (rbt_uc_fired < RBTRACE_CLOCK_READ_TRIES) {
			rbt_uc_update();
			rbt_uc_fired++;
		}
		break;
	}
}

static void rbt_uc_seen(u64 v)
{
	if (v == RBT_UC_POISON_NS)
		rbt_uc_poison_read = true;
}

static int rbt_uc_init(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_X86_64))
		kunit_skip(test, "the header's reader reads the TSC: x86-64 only");
	rbt_uc_page = (void *)get_zeroed_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rbt_uc_page);
	rbt_uc_page->version = RBTRACE_CLOCK_PAGE_VERSION;
	rbt_uc_page->counter = RBTRACE_CLOCK_COUNTER_X86_TSC;
	rbt_uc_page->shift = 22;
	rbt_uc_mode = RBT_UC_OFF;
	rbt_uc_c0 = rdtsc_ordered();
	/* Both slots on the line: the reader starts in either. */
	rbt_uc_publish(rbt_uc_c0, RBT_UC_NS0);
	rbt_uc_publish(rbt_uc_c0, RBT_UC_NS0);
	rbt_uc_loads = 0;
	rbt_uc_fired = 0;
	rbt_uc_poison_read = false;
	return 0;
}

static void rbt_uc_exit(struct kunit *test)
{
	free_page((unsigned long)rbt_uc_page);
	rbt_uc_page = NULL;
}

/* The line's time at a count: NS0 at its first anchor, 1 ns a count. */
static u64 rbt_uc_time_at(u64 cycles)
{
	return RBT_UC_NS0 + (cycles - rbt_uc_c0);
}

static void rbtrace_uclock_no_update(struct kunit *test)
{
	u64 before, t, after;

	KUNIT_ASSERT_TRUE(test, rbtrace_clock_usable(rbt_uc_page));
	before = rdtsc_ordered();
	t = rbtrace_clock_read(rbt_uc_page);
	after = rdtsc_ordered();
	KUNIT_EXPECT_EQ(test, rbt_uc_fired, 0);
	KUNIT_EXPECT_GE(test, t, rbt_uc_time_at(before));
	KUNIT_EXPECT_LE(test, t, rbt_uc_time_at(after));
}

static void rbtrace_uclock_one_miss(struct kunit *test)
{
	u32 seq0 = rbt_uc_page->seq;
	u64 before, t, after;

	rbt_uc_mode = RBT_UC_ONE_MISS;
	before = rdtsc_ordered();
	t = rbtrace_clock_read(rbt_uc_page);
	after = rdtsc_ordered();
	KUNIT_EXPECT_EQ(test, rbt_uc_fired, 1);
	KUNIT_EXPECT_EQ(test, rbt_uc_page->seq, seq0 + 1);
	/* The first try read the poison; R4's retry kept it out. */
	KUNIT_EXPECT_TRUE(test, rbt_uc_poison_read);
	KUNIT_EXPECT_NE(test, t, RBT_UC_POISON_NS);
	KUNIT_EXPECT_GE(test, t, rbt_uc_time_at(before));
	KUNIT_EXPECT_LE(test, t, rbt_uc_time_at(after));
	/* Two tries: five loads each, the second's first one the sixth. */
	KUNIT_EXPECT_EQ(test, rbt_uc_loads, 10);
}

static void rbtrace_uclock_fallback(struct kunit *test)
{
	u64 before, t;

	rbt_uc_mode = RBT_UC_EVERY_TRY;
	before = rdtsc_ordered();
	t = rbtrace_clock_read(rbt_uc_page);
	KUNIT_EXPECT_EQ(test, rbt_uc_fired, RBTRACE_CLOCK_READ_TRIES);
	/* F: the current slot's ns, that of the last update, no later than now. */
	KUNIT_EXPECT_EQ(test, t, rbt_uc_last_ns);
	KUNIT_EXPECT_GE(test, t, rbt_uc_time_at(before));
	KUNIT_EXPECT_LE(test, t, rbt_uc_time_at(rdtsc_ordered()));
}

static struct kunit_case rbtrace_uclock_cases[] = {
	KUNIT_CASE(rbtrace_uclock_no_update),
	KUNIT_CASE(rbtrace_uclock_one_miss),
	KUNIT_CASE(rbtrace_uclock_fallback),
	{}
};

static struct kunit_suite rbtrace_uclock_suite = {
	.name = "rbtrace_uclock",
	.init = rbt_uc_init,
	.exit = rbt_uc_exit,
	.test_cases = rbtrace_uclock_cases,
};

kunit_test_suite(rbtrace_uclock_suite);
