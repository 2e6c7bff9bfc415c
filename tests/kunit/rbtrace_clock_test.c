// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: rbtrace's trace clocks.
 *
 *  - Every clock stamps events that never go back in buffer order on a
 *    CPU, with writers nested in hard IRQ and NMI.
 *  - The latch clock never goes backwards while an updater on one CPU
 *    races readers in task context and NMI on another.
 *  - "global" is ordered across CPUs: a value read after another CPU's
 *    read (ordered by a handoff) is not smaller.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/delay.h>
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

struct latch_race {
	bool stop;
	unsigned long updates;
	u64 last_task;
	u64 last_nmi;
	unsigned long backwards;
	unsigned long reads;
};

static int latch_updater(void *arg)
{
	struct latch_race *r = arg;

	while (!READ_ONCE(r->stop)) {
		rbt_latch_update();
		r->updates++;
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void latch_read_nmi(void *arg)
{
	struct latch_race *r = arg;
	u64 now = rbt_latch_clock();

	if (now < r->last_nmi || now < r->last_task)
		r->backwards++;
	r->last_nmi = now;
	r->reads++;
}

static void rbtrace_clock_latch_vs_updater(struct kunit *test)
{
	struct latch_race r = {};
	struct task_struct *t;
	int cpu, other, i;
	u64 now, deadline;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	cpu = rbt_kunit_pin(test);
	other = cpumask_any_but(cpu_online_mask, cpu);
	t = kthread_create_on_cpu(latch_updater, &r, other, "rbt_latch_upd");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wake_up_process(t);

	/* Read until the updater has switched slots many times (3 s at most). */
	deadline = ktime_get_mono_fast_ns() + 3 * NSEC_PER_SEC;
	for (i = 0; READ_ONCE(r.updates) < 500 && ktime_get_mono_fast_ns() < deadline; i++) {
		now = rbt_latch_clock();
		if (now < r.last_task || now < r.last_nmi)
			r.backwards++;
		r.last_task = now;
		r.reads++;
		if (i % 200 == 0)
			KUNIT_ASSERT_EQ(test, rbt_nest(RBT_NEST_NMI, latch_read_nmi, &r), 0);
		if (i % 1000 == 0)
			cond_resched();
	}
	WRITE_ONCE(r.stop, true);
	kthread_stop(t);

	KUNIT_EXPECT_EQ(test, r.backwards, 0UL);
	KUNIT_EXPECT_GE(test, r.updates, 500UL);
	/* One NMI read every 200 task reads, all counted. */
	KUNIT_EXPECT_EQ(test, r.reads, (unsigned long)i + (i + 199) / 200);
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
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
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
	KUNIT_CASE(rbtrace_clock_latch_vs_updater),
	KUNIT_CASE(rbtrace_clock_latch_rate),
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

