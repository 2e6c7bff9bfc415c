// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: rbtrace's trace clocks.
 *
 *  - Every clock stamps events that never go back in buffer order on a
 *    CPU, with writers nested in hard IRQ and NMI.
 *  - The latch clock never goes backwards (per CPU) nor jumps forward
 *    while an updater on one CPU races readers in task context and NMI
 *    on the others, and a read that has seen another CPU's is not
 *    earlier than it.
 *  - Latch corner cases with injected slots and hooks: a slot ahead of
 *    the counter (negative delta) counts as no time; a reader overtaken
 *    by updates in every try gives up after a bounded number of tries
 *    and stays on the clock's timeline; an NMI that interrupts the
 *    updater reads in one try.
 *  - The page user space maps (trace_clock_page): its ABI constants; the
 *    uapi reader over it on every CPU during forced updates never goes
 *    back and lies between the kernel's reads around it; a refined
 *    tsc_khz is taken at the next update.
 *  - "global" is ordered across CPUs: a value read after another CPU's
 *    read (ordered by a handoff) is not smaller.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/timex.h>
#include "rbt_kunit.h"
#include "rb_clock.h"

static const char * const clock_names[] = {
	"local", "global", "mono", "mono_raw", "boot", "counter", "latch",
};

struct nest_ctx {
	struct rbt_buffer *buf;
	u32 seq;
};

static void write_one(struct nest_ctx *c)
{
	u32 seq = c->seq++;

	rbt_write(c->buf, sizeof(seq), &seq);
}

static void nested_write(void *arg)
{
	write_one(arg);
}

/* Task writes; an hrtimer and an NMI write inside; stamps must not go back. */
static void rbtrace_clock_monotonic_nested(struct kunit *test)
{
	unsigned int i, k, n;

	for (k = 0; k < ARRAY_SIZE(clock_names); k++) {
		struct nest_ctx c = {};
		struct rbt_event *event;
		u64 ts, last = 0;
		int cpu;

		c.buf = rbt_kunit_alloc(test, 64 * 1024, 0, 0);
		KUNIT_ASSERT_EQ(test, rbt_set_clock_by_name(c.buf, clock_names[k]), 0);
		cpu = rbt_kunit_pin(test);
		for (i = 0; i < 50; i++) {
			write_one(&c);
			KUNIT_ASSERT_EQ(test, rbt_nest(RBT_NEST_HRTIMER, nested_write, &c), 0);
			if (i % 5 == 0)
				KUNIT_ASSERT_EQ(test, rbt_nest(RBT_NEST_NMI, nested_write, &c), 0);
		}
		n = 0;
		while ((event = rbt_consume(c.buf, cpu, &ts, NULL))) {
			KUNIT_EXPECT_GE_MSG(test, ts, last, "clock %s, event %u",
					    clock_names[k], n);
			KUNIT_EXPECT_EQ(test, *(u32 *)rbt_event_data(event), n);
			last = ts;
			n++;
		}
		KUNIT_EXPECT_EQ_MSG(test, n, c.seq, "clock %s", clock_names[k]);
		KUNIT_EXPECT_GT(test, c.seq, 100U);
	}
}

static void rbtrace_clock_by_name(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 8192, 0, 0);

	KUNIT_EXPECT_EQ(test, rbt_set_clock_by_name(buf, "latch\n"), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)buf->clock, (void *)rbt_latch_clock);
	KUNIT_EXPECT_EQ(test, rbt_set_clock_by_name(buf, "global"), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)buf->clock, (void *)trace_clock_global);
	/* Unknown names change nothing. */
	KUNIT_EXPECT_EQ(test, rbt_set_clock_by_name(buf, "perf"), -EINVAL);
	KUNIT_EXPECT_EQ(test, rbt_set_clock_by_name(buf, ""), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, (void *)buf->clock, (void *)trace_clock_global);
}

/* ---- the latch clock against its updater ----------------------------- */

#define LATCH_RACE_NS	(3 * NSEC_PER_SEC)
/* A read may come later than the last by its own elapsed time plus this. */
#define LATCH_JUMP_NS	NSEC_PER_SEC
/*
 * Across CPUs the latch clock is ordered within the TSC skew between
 * them (rbtrace.rst, Clocks); QEMU's vCPUs read one host clock.
 */
#define LATCH_SKEW_NS	1000

struct latch_race;

/* One reading CPU: the task there and the NMIs it raises share @last. */
struct latch_reader {
	struct latch_race *race;
	u64 last, last_mono;
	unsigned long reads, back, jumps, behind;
	u64 max_back, max_jump, max_behind;
	int cpu;
};

struct latch_race {
	bool stop;
	unsigned long updates;
	u64 upd_last;		/* the updater's read after its latest update */
	struct latch_reader *rd;	/* per CPU */
};

/* One read on @rd's CPU, judged against the one before and the updater's. */
static void latch_check(struct latch_reader *rd)
{
	/* Pairs with the updater's release: its read before this one. */
	u64 upd = smp_load_acquire(&rd->race->upd_last);
	u64 mono = ktime_get_mono_fast_ns();
	u64 now = rbt_latch_clock();
	/*
	 * The time between this read and the last is at most the time from
	 * the monotonic read before the last one to the one after this one:
	 * a vCPU stalled between two reads (a loaded host) is no jump.
	 */
	u64 mono_after = ktime_get_mono_fast_ns();

	if (rd->reads && now < rd->last) {
		rd->back++;
		rd->max_back = max(rd->max_back, rd->last - now);
	} else if (rd->reads && now - rd->last > mono_after - rd->last_mono + LATCH_JUMP_NS) {
		rd->jumps++;
		rd->max_jump = max(rd->max_jump, now - rd->last);
	}
	/* Read after the updater's read was seen: not earlier than it. */
	if (now + LATCH_SKEW_NS < upd) {
		rd->behind++;
		rd->max_behind = max(rd->max_behind, upd - now);
	}
	rd->last = now;
	rd->last_mono = mono;
	rd->reads++;
}

static void latch_check_nmi(void *arg)
{
	latch_check(arg);
}

/*
 * A reader stalled in its read: every other read of each reader spends
 * 3 us between reading the slot and re-checking the sequence, so that
 * updates overtake it (under TCG, vCPUs time-sliced on a busy host
 * almost never overlap a read of nanoseconds otherwise).
 */
static DEFINE_PER_CPU(bool, latch_stall);

static void latch_hook_stall(int point)
{
	if (point == RBT_LATCH_HOOK_READ && this_cpu_read(latch_stall))
		ndelay(3000);
}

/*
 * Put the latch clock 10 s ahead of the monotonic clock, never back. The
 * two drift apart anyway (the latch clock runs at tsc_khz, the monotonic
 * one at the NTP-corrected clocksource rate: 50 ppm is 4 s a day); this
 * makes a switch of timeline plain. It stays ahead.
 */
static void latch_ahead_of_mono(void)
{
	u64 target = ktime_get_mono_fast_ns() + 10 * NSEC_PER_SEC;

	if (rbt_latch_clock() < target)
		rbt_latch_inject(get_cycles(), target);
}

/*
 * The threads of a clock race: an updater on @upd_cpu and a reader on
 * every other online CPU but @cpu (the test's own, which reads in the
 * test's loop), created parked; clock_race_go() wakes them. A reader
 * that cannot be made is left out (the race only needs the updater).
 * @rd_args is an array of one argument per CPU, @rd_size bytes each.
 */
struct clock_race_threads {
	struct task_struct **t;
};

static void clock_race_start(struct kunit *test, struct clock_race_threads *th, int cpu,
			     int upd_cpu, int (*upd_fn)(void *), void *upd_arg,
			     const char *upd_name, int (*rd_fn)(void *), void *rd_args,
			     size_t rd_size, const char *rd_name)
{
	int c;

	th->t = kunit_kcalloc(test, nr_cpu_ids, sizeof(*th->t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, th->t);
	th->t[upd_cpu] = kthread_create_on_cpu(upd_fn, upd_arg, upd_cpu, upd_name);
	KUNIT_ASSERT_FALSE(test, IS_ERR(th->t[upd_cpu]));
	for_each_online_cpu(c) {
		if (c == cpu || c == upd_cpu)
			continue;
		th->t[c] = kthread_create_on_cpu(rd_fn, rd_args + c * rd_size, c, rd_name);
		if (IS_ERR(th->t[c]))
			th->t[c] = NULL;
	}
}

static void clock_race_go(struct clock_race_threads *th)
{
	int c;

	for_each_online_cpu(c)
		if (th->t[c])
			wake_up_process(th->t[c]);
}

/* After the race's stop flag is set. */
static void clock_race_stop(struct clock_race_threads *th)
{
	int c;

	for_each_online_cpu(c)
		if (th->t[c])
			kthread_stop(th->t[c]);
}

/* A test thread's end: it waits to be stopped, as kthread_stop() needs. */
static int clock_race_park(void)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Updates back to back, each followed by a read the readers compare with. */
static int latch_updater(void *arg)
{
	struct latch_race *r = arg;
	unsigned long n = 0;

	while (!READ_ONCE(r->stop)) {
		rbt_latch_update();
		/* Pairs with latch_check()'s acquire. */
		smp_store_release(&r->upd_last, rbt_latch_clock());
		WRITE_ONCE(r->updates, ++n);
		if (!(n & 63))
			cond_resched();
	}
	return clock_race_park();
}

static int latch_reader_fn(void *arg)
{
	struct latch_reader *rd = arg;

	while (!READ_ONCE(rd->race->stop)) {
		this_cpu_write(latch_stall, rd->reads & 1);
		latch_check(rd);
		this_cpu_write(latch_stall, false);
		if (!(rd->reads & 1023))
			cond_resched();
	}
	return clock_race_park();
}

/*
 * An updater forcing slot updates back to back on one CPU; readers on
 * every other CPU (this task, with an NMI read every 256 reads, and a
 * thread on each further CPU) for LATCH_RACE_NS, every other read
 * stalled (latch_hook_stall()). Per CPU no read is
 * earlier than the one before or later than it by more than the time
 * between them plus a second; no read is earlier than the updater's
 * read that it has seen.
 */
static void rbtrace_clock_latch_vs_updater(struct kunit *test)
{
	struct clock_race_threads th;
	struct latch_race r = {};
	struct latch_reader *me;
	int cpu, upd_cpu, c;
	u64 deadline;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	r.rd = kunit_kcalloc(test, nr_cpu_ids, sizeof(*r.rd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.rd);
	cpu = rbt_kunit_pin(test);
	upd_cpu = cpumask_any_but(cpu_online_mask, cpu);
	for_each_online_cpu(c) {
		r.rd[c].race = &r;
		r.rd[c].cpu = c;
	}
	clock_race_start(test, &th, cpu, upd_cpu, latch_updater, &r, "rbt_latch_upd",
			 latch_reader_fn, r.rd, sizeof(*r.rd), "rbt_latch_rd/%u");

	me = &r.rd[cpu];
	latch_ahead_of_mono();
	WRITE_ONCE(rbt_latch_hook, latch_hook_stall);
	clock_race_go(&th);
	deadline = ktime_get_mono_fast_ns() + LATCH_RACE_NS;
	while (ktime_get_mono_fast_ns() < deadline) {
		int rc;

		this_cpu_write(latch_stall, me->reads & 1);
		latch_check(me);
		this_cpu_write(latch_stall, false);
		/* No assertion here: the threads must be stopped first. */
		rc = me->reads & 255 ? 0 : rbt_nest(RBT_NEST_NMI, latch_check_nmi, me);
		KUNIT_EXPECT_EQ(test, rc, 0);
		if (rc)
			break;
		if (!(me->reads & 1023))
			cond_resched();
	}
	WRITE_ONCE(r.stop, true);
	WRITE_ONCE(rbt_latch_hook, NULL);
	clock_race_stop(&th);

	kunit_info(test, "%lu updates", r.updates);
	for_each_online_cpu(c) {
		struct latch_reader *rd = &r.rd[c];

		if (!rd->reads)
			continue;
		kunit_info(test, "cpu%d: %lu reads, %lu back (max %llu ns), %lu jumps (max %llu ns), %lu behind the updater (max %llu ns)",
			   c, rd->reads, rd->back, rd->max_back, rd->jumps, rd->max_jump,
			   rd->behind, rd->max_behind);
		KUNIT_EXPECT_EQ_MSG(test, rd->back, 0UL, "cpu%d: steps back", c);
		KUNIT_EXPECT_EQ_MSG(test, rd->jumps, 0UL, "cpu%d: steps forward", c);
		KUNIT_EXPECT_EQ_MSG(test, rd->behind, 0UL, "cpu%d: behind the updater", c);
	}
	KUNIT_EXPECT_GE(test, r.updates, 1000UL);
	KUNIT_EXPECT_GE(test, me->reads, 1000UL);
}

/* Cycles per 100 ms, the most a TSC could lag another's here. */
static u64 latch_cycles_100ms(void)
{
	return (u64)(tsc_khz ? tsc_khz : 1000000) * 100;
}

/*
 * A slot whose cycle count is ahead of this CPU's counter (written by an
 * updater whose TSC leads this one's, or read by an RDTSC that ran before
 * the loads of the slot): the delta is negative and must count as 0, not
 * as 2^64 cycles.
 */
static void rbtrace_clock_latch_negative_delta(struct kunit *test)
{
	u64 m0 = ktime_get_mono_fast_ns();
	u64 v0 = rbt_latch_clock();
	u64 v1, v2;

	rbt_latch_inject(get_cycles() + latch_cycles_100ms(), v0);
	v1 = rbt_latch_clock();
	v2 = rbt_latch_clock();
	/* Back on the clock's line, from where it stood. */
	rbt_latch_inject(get_cycles(), v0 + (ktime_get_mono_fast_ns() - m0));
	KUNIT_EXPECT_GE(test, v1, v0);
	KUNIT_EXPECT_LE_MSG(test, v1, v0 + LATCH_JUMP_NS, "%llu ns ahead", v1 - v0);
	KUNIT_EXPECT_GE(test, v2, v1);
	KUNIT_EXPECT_LE(test, v2, v0 + LATCH_JUMP_NS);
}

/* What the latch hooks do, for one task. */
static struct latch_hook_ctx {
	struct task_struct *task;
	unsigned int reads;	/* tries by the task */
	unsigned int nmi_reads;	/* tries in NMI */
	bool nested;
	int nest_rc;
	u64 nmi_val;
} latch_hook_ctx;

/* Every try of the task's read sees an update: the sequence moves. */
static void latch_hook_miss(int point)
{
	struct latch_hook_ctx *c = &latch_hook_ctx;

	if (point != RBT_LATCH_HOOK_READ || !in_task() || current != c->task)
		return;
	c->reads++;
	rbt_latch_update();
}

/*
 * A reader stalled across updates (here: one update in every try) tries
 * a bounded number of times and then returns a time on the clock's own
 * line, not the monotonic clock's (latch_ahead_of_mono()).
 */
static void rbtrace_clock_latch_fallback(struct kunit *test)
{
	struct latch_hook_ctx *c = &latch_hook_ctx;
	u64 v1, v2, v3;

	latch_ahead_of_mono();
	v1 = rbt_latch_clock();
	memset(c, 0, sizeof(*c));
	c->task = current;
	WRITE_ONCE(rbt_latch_hook, latch_hook_miss);
	v2 = rbt_latch_clock();
	WRITE_ONCE(rbt_latch_hook, NULL);
	v3 = rbt_latch_clock();

	KUNIT_EXPECT_GE(test, c->reads, 1U);
	KUNIT_EXPECT_LE(test, c->reads, 3U);
	KUNIT_EXPECT_GE_MSG(test, v2, v1, "%lld ns back", (s64)(v1 - v2));
	KUNIT_EXPECT_LE(test, v2, v1 + LATCH_JUMP_NS);
	KUNIT_EXPECT_GE_MSG(test, v3, v2, "%lld ns back", (s64)(v2 - v3));
	KUNIT_EXPECT_LE(test, v3, v2 + LATCH_JUMP_NS);
}

static void latch_nmi_read(void *arg)
{
	struct latch_hook_ctx *c = arg;

	c->nmi_val = rbt_latch_clock();
}

/* In the updater's window, an NMI on its CPU reads the clock. */
static void latch_hook_nmi(int point)
{
	struct latch_hook_ctx *c = &latch_hook_ctx;

	if (point == RBT_LATCH_HOOK_READ) {
		if (in_nmi())
			c->nmi_reads++;
		return;
	}
	if (in_task() && current == c->task && !c->nested) {
		c->nested = true;
		c->nest_rc = rbt_nest(RBT_NEST_NMI, latch_nmi_read, c);
	}
}

/*
 * An NMI that interrupts the updater between its slot writes and the
 * publication reads the slot the updater is not writing: one try, no
 * spin, a time between the reads before and after the update.
 */
static void rbtrace_clock_latch_nmi_in_update(struct kunit *test)
{
	struct latch_hook_ctx *c = &latch_hook_ctx;
	u64 v0, v1;

	rbt_kunit_pin(test);
	memset(c, 0, sizeof(*c));
	c->task = current;
	v0 = rbt_latch_clock();
	WRITE_ONCE(rbt_latch_hook, latch_hook_nmi);
	rbt_latch_update();
	WRITE_ONCE(rbt_latch_hook, NULL);
	v1 = rbt_latch_clock();

	KUNIT_ASSERT_TRUE(test, c->nested);
	KUNIT_ASSERT_EQ(test, c->nest_rc, 0);
	KUNIT_EXPECT_EQ(test, c->nmi_reads, 1U);
	KUNIT_EXPECT_GE(test, c->nmi_val, v0);
	KUNIT_EXPECT_LE(test, c->nmi_val, v1);
	KUNIT_EXPECT_LE(test, v1, v0 + LATCH_JUMP_NS);
}

/* The latch clock runs at the rate of the monotonic clock (within 1%). */
static void rbtrace_clock_latch_rate(struct kunit *test)
{
	u64 l0, m0, l1, m1, dl, dm;

	l0 = rbt_latch_clock();
	m0 = ktime_get_mono_fast_ns();
	msleep(200);
	rbt_latch_update();
	l1 = rbt_latch_clock();
	m1 = ktime_get_mono_fast_ns();
	dl = l1 - l0;
	dm = m1 - m0;
	KUNIT_EXPECT_GT(test, dl, dm - dm / 100);
	KUNIT_EXPECT_LT(test, dl, dm + dm / 100);
}

/* ---- the latch clock read from user space (the uapi reader) ----------- */

/*
 * The page as user space maps it: the ABI's constants, and zero past the
 * struct (a mapping shows the whole page).
 */
static void rbtrace_clock_page_layout(struct kunit *test)
{
	const struct rbtrace_clock_page *p = rbt_clock_page();

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(p));
	KUNIT_EXPECT_EQ(test, p->version, (u32)RBTRACE_CLOCK_PAGE_VERSION);
	KUNIT_EXPECT_EQ(test, p->shift, (u32)RB_LATCH_SHIFT);
	KUNIT_EXPECT_EQ(test, p->counter, IS_ENABLED(CONFIG_X86) ?
			(u32)RBTRACE_CLOCK_COUNTER_X86_TSC : (u32)RBTRACE_CLOCK_COUNTER_NONE);
	KUNIT_EXPECT_EQ(test, offsetof(struct rbtrace_clock_page, seq), (size_t)48);
	KUNIT_EXPECT_EQ(test, sizeof(*p), (size_t)64);
	KUNIT_EXPECT_NULL(test, memchr_inv(p + 1, 0, PAGE_SIZE - sizeof(*p)));
	KUNIT_EXPECT_EQ(test, rbtrace_clock_usable(p), IS_ENABLED(CONFIG_X86_64));
}

#define UCLOCK_RACE_NS	(2 * NSEC_PER_SEC)

struct uclock_race;

struct uclock_reader {
	struct uclock_race *race;
	u64 last;
	unsigned long reads, raced, back, outside;
	u64 max_back, max_out;
};

struct uclock_race {
	bool stop;
	unsigned long updates;
	struct uclock_reader *rd;	/* per CPU */
};

/*
 * One user-space read on this CPU, between two of the kernel's: it must
 * lie between them (one CPU's counter, one line: exactly) and not before
 * the last one here. The sequence before and after tells whether an
 * update ran during it (a retry or F).
 */
static void uclock_check(struct uclock_reader *rd)
{
	const struct rbtrace_clock_page *p = rbt_clock_page();
	u32 s0 = READ_ONCE(p->seq);
	u64 before = rbt_latch_clock();
	u64 u = rbtrace_clock_read(p);
	u64 after = rbt_latch_clock();

	if (READ_ONCE(p->seq) != s0)
		rd->raced++;
	if (u < before || u > after) {
		rd->outside++;
		rd->max_out = max(rd->max_out, u < before ? before - u : u - after);
	}
	if (rd->reads && u < rd->last) {
		rd->back++;
		rd->max_back = max(rd->max_back, rd->last - u);
	}
	rd->last = u;
	rd->reads++;
}

/* Updates back to back, a user read after each on the updater's CPU. */
static int uclock_updater(void *arg)
{
	struct uclock_reader *rd = arg;
	struct uclock_race *r = rd->race;
	unsigned long n = 0;

	while (!READ_ONCE(r->stop)) {
		rbt_latch_update();
		uclock_check(rd);
		WRITE_ONCE(r->updates, ++n);
		if (!(n & 63))
			cond_resched();
	}
	return clock_race_park();
}

static int uclock_reader_fn(void *arg)
{
	struct uclock_reader *rd = arg;

	while (!READ_ONCE(rd->race->stop)) {
		uclock_check(rd);
		if (!(rd->reads & 1023))
			cond_resched();
	}
	return clock_race_park();
}

/*
 * rbtrace_clock_read() of the uapi header, over the kernel's page, on
 * every CPU while one forces updates back to back (rbt_latch_update()):
 * per CPU it never goes back, and it lies between rbt_latch_clock() read
 * just before and just after it.
 */
static void rbtrace_clock_user_reader(struct kunit *test)
{
	struct clock_race_threads th;
	struct uclock_race r = {};
	int cpu, upd_cpu, c;
	u64 deadline;

	if (!rbtrace_clock_usable(rbt_clock_page()))
		kunit_skip(test, "no user-readable counter here");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	r.rd = kunit_kcalloc(test, nr_cpu_ids, sizeof(*r.rd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r.rd);
	cpu = rbt_kunit_pin(test);
	upd_cpu = cpumask_any_but(cpu_online_mask, cpu);
	for_each_online_cpu(c)
		r.rd[c].race = &r;
	clock_race_start(test, &th, cpu, upd_cpu, uclock_updater, &r.rd[upd_cpu],
			 "rbt_uclock_upd", uclock_reader_fn, r.rd, sizeof(*r.rd), "rbt_uclock/%u");
	clock_race_go(&th);
	deadline = ktime_get_mono_fast_ns() + UCLOCK_RACE_NS;
	while (ktime_get_mono_fast_ns() < deadline) {
		uclock_check(&r.rd[cpu]);
		if (!(r.rd[cpu].reads & 1023))
			cond_resched();
	}
	WRITE_ONCE(r.stop, true);
	clock_race_stop(&th);

	kunit_info(test, "%lu updates", r.updates);
	for_each_online_cpu(c) {
		struct uclock_reader *rd = &r.rd[c];

		kunit_info(test, "cpu%d: %lu user reads, %lu during an update, %lu back (max %llu ns), %lu outside the kernel's reads (max %llu ns)",
			   c, rd->reads, rd->raced, rd->back, rd->max_back, rd->outside,
			   rd->max_out);
		KUNIT_EXPECT_GE_MSG(test, rd->reads, 1000UL, "cpu%d", c);
		KUNIT_EXPECT_EQ_MSG(test, rd->back, 0UL, "cpu%d: steps back", c);
		KUNIT_EXPECT_EQ_MSG(test, rd->outside, 0UL, "cpu%d: off the kernel's clock", c);
	}
	KUNIT_EXPECT_GE(test, r.updates, 1000UL);
}

#ifdef CONFIG_X86
/*
 * tsc_khz refined after boot (tsc_refine_calibration_work(); a constant
 * TSC has no other change of rate): the slots keep the old rate until
 * the next update, which takes the new one from there on, continuing
 * the line; a user reader follows. The refinement is simulated, 0.1% up,
 * and undone.
 */
static void rbtrace_clock_latch_tsc_refined(struct kunit *test)
{
	const struct rbtrace_clock_page *p = rbt_clock_page();
	unsigned int khz = tsc_khz, refined = khz + khz / 1000;
	u32 m0, m1, m2, want;
	u64 v0, v1, v2, v3;

	if (!khz)
		kunit_skip(test, "tsc_khz unknown");
	want = div_u64((u64)NSEC_PER_MSEC << RB_LATCH_SHIFT, refined);
	rbt_latch_update();
	m0 = p->slot[p->seq & 1].mult;
	v0 = rbtrace_clock_read(p);
	WRITE_ONCE(tsc_khz, refined);
	m1 = p->slot[p->seq & 1].mult;
	v1 = rbtrace_clock_read(p);
	rbt_latch_update();
	m2 = p->slot[p->seq & 1].mult;
	v2 = rbtrace_clock_read(p);
	WRITE_ONCE(tsc_khz, khz);
	rbt_latch_update();
	v3 = rbtrace_clock_read(p);

	KUNIT_EXPECT_EQ_MSG(test, m1, m0, "the rate changed before an update");
	KUNIT_EXPECT_EQ(test, m2, want);
	KUNIT_EXPECT_LT(test, m2, m0);
	KUNIT_EXPECT_GE(test, v1, v0);
	KUNIT_EXPECT_GE(test, v2, v1);
	KUNIT_EXPECT_GE(test, v3, v2);
	KUNIT_EXPECT_LE(test, v3, v0 + LATCH_JUMP_NS);
	KUNIT_EXPECT_EQ(test, p->slot[p->seq & 1].mult, m0);
}
#endif

/* ---- global: ordered across CPUs ---------------------------------------- */

struct handoff {
	atomic_t turn;		/* even: CPU A reads, odd: CPU B reads */
	u64 last;
	unsigned long inversions;
	unsigned int rounds;
};

static int global_b(void *arg)
{
	struct handoff *h = arg;
	unsigned int i;

	for (i = 0; i < h->rounds; i++) {
		u64 now;

		while (!(atomic_read_acquire(&h->turn) & 1))
			cpu_relax();
		now = trace_clock_global();
		if (now < h->last)
			h->inversions++;
		h->last = now;
		atomic_inc_return_release(&h->turn);
	}
	return clock_race_park();
}

static void rbtrace_clock_global_ordered(struct kunit *test)
{
	struct handoff h = { .rounds = 500 };
	struct task_struct *t;
	int cpu, other;
	unsigned int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	cpu = rbt_kunit_pin(test);
	other = cpumask_any_but(cpu_online_mask, cpu);
	t = kthread_create_on_cpu(global_b, &h, other, "rbt_global_b");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wake_up_process(t);
	for (i = 0; i < h.rounds; i++) {
		u64 now;

		while (atomic_read_acquire(&h.turn) & 1)
			cpu_relax();
		now = trace_clock_global();
		if (now < h.last)
			h.inversions++;
		h.last = now;
		atomic_inc_return_release(&h.turn);
	}
	while (atomic_read_acquire(&h.turn) != 2 * h.rounds)
		cpu_relax();
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, h.inversions, 0UL);
}

static int rbtrace_clock_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_clock_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_clock_cases[] = {
	KUNIT_CASE(rbtrace_clock_by_name),
	KUNIT_CASE(rbtrace_clock_monotonic_nested),
	KUNIT_CASE(rbtrace_clock_latch_negative_delta),
	KUNIT_CASE(rbtrace_clock_latch_fallback),
	KUNIT_CASE(rbtrace_clock_latch_nmi_in_update),
	KUNIT_CASE_SLOW(rbtrace_clock_latch_vs_updater),
	KUNIT_CASE(rbtrace_clock_latch_rate),
	KUNIT_CASE(rbtrace_clock_page_layout),
	KUNIT_CASE_SLOW(rbtrace_clock_user_reader),
#ifdef CONFIG_X86
	KUNIT_CASE(rbtrace_clock_latch_tsc_refined),
#endif
	KUNIT_CASE(rbtrace_clock_global_ordered),
	{}
};

static struct kunit_suite rbtrace_clock_suite = {
	.name = "rbtrace_clock",
	.suite_init = rbtrace_clock_suite_init,
	.suite_exit = rbtrace_clock_suite_exit,
	.test_cases = rbtrace_clock_cases,
};

kunit_test_suite(rbtrace_clock_suite);

