// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: rbtrace's counters account for every event.
 *
 * An event a writer asks for ends in exactly one place: written (and then
 * read, still in the buffer, or overwritten: overrun), dropped (the buffer
 * was full in producer/consumer mode), commit_overrun (an interrupt storm
 * wrapped onto data not yet committed), recursion or too_big. The tests
 * count what they asked for and what a reader really drains (every
 * payload carries a sequence number) and hold the counters to it:
 *
 *	asked   == written + dropped + commit_overrun
 *	written == entries + overrun + read,
 *	where read is what the reader got, and the lost events it was told
 *	of are the gaps in the sequence numbers it saw.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "rbt_kunit.h"

struct acc_payload {
	u32	seq;
	u32	len;
	u8	fill[];
};

#define ACC_MAX_LEN	512

static unsigned int acc_fill(u8 *raw, u32 seq, unsigned int len)
{
	struct acc_payload *p = (void *)raw;
	unsigned int i;

	p->seq = seq;
	p->len = len;
	for (i = 0; i < len - sizeof(*p); i++)
		p->fill[i] = seq + i;
	return len;
}

static bool acc_intact(const struct acc_payload *p)
{
	unsigned int i;

	if (p->len < sizeof(*p) || p->len > ACC_MAX_LEN)
		return false;
	for (i = 0; i < p->len - sizeof(*p); i++)
		if (p->fill[i] != (u8)(p->seq + i))
			return false;
	return true;
}

static u32 acc_rand(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

enum acc_mode { ACC_OVERWRITE, ACC_CONSUMER, ACC_SWITCHED };

static const enum acc_mode acc_modes[] = { ACC_OVERWRITE, ACC_CONSUMER, ACC_SWITCHED };

static void acc_mode_desc(const enum acc_mode *m, char *desc)
{
	static const char * const names[] = {
		"overwrite", "producer/consumer", "consumer, then overwrite",
	};

	strscpy(desc, names[*m], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(acc_modes, acc_modes, acc_mode_desc);
static const enum acc_mode acc_two[] = { ACC_OVERWRITE, ACC_CONSUMER };

KUNIT_ARRAY_PARAM(acc_two_modes, acc_two, acc_mode_desc);

/* What the writer asked for and what the reader got, so far. */
struct acc_tally {
	u64	asked;
	u64	ok;		/* sequence number of the next event */
	u64	failed;
	u64	reads;
	u64	lost;		/* lost events the reader was told of */
	s64	last;		/* last sequence number read */
	u64	gap_errors;
	u64	corrupt;
	/* the first gap error: what was read, after what, with what lost */
	u64	bad_seq;
	s64	bad_last;
	u64	bad_lost;
};

/* Read one event and check it continues the sequence. */
static bool acc_read_one(struct acc_tally *t, struct rbt_buffer *buf, int cpu,
			 bool peek_first)
{
	struct acc_payload *p;
	unsigned long lost = 0, plost = 0;
	struct rbt_event *ev, *pev = NULL;
	u64 ts, pts = 0;

	if (peek_first)
		pev = rbt_peek(buf, cpu, &pts, &plost);
	ev = rbt_consume(buf, cpu, &ts, &lost);
	if (!ev)
		return false;
	p = rbt_event_data(ev);
	/* A writer on another CPU may have added the event after the peek. */
	if (pev && (pev != ev || pts != ts || plost != lost))
		t->corrupt++;
	if (!acc_intact(p) || rbt_event_length(ev) < p->len)
		t->corrupt++;
	if ((s64)p->seq <= t->last || (u64)(p->seq - t->last - 1) != lost) {
		if (!t->gap_errors++) {
			t->bad_seq = p->seq;
			t->bad_last = t->last;
			t->bad_lost = lost;
		}
	}
	t->lost += lost;
	t->last = p->seq;
	t->reads++;
	return true;
}

static bool acc_check(struct kunit *test, struct rbt_buffer *buf, int cpu,
		      const struct acc_tally *t, const char *when)
{
	struct rbt_cpu_stats st = rbt_stats(test, buf, cpu);
	bool ok = st.written == t->ok && st.dropped + st.commit_overrun == t->failed &&
		  st.entries + st.overrun + st.read == st.written && st.read == t->reads &&
		  t->lost <= st.overrun && !t->gap_errors && !t->corrupt;

	KUNIT_EXPECT_EQ_MSG(test, st.written, t->ok, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st.dropped + st.commit_overrun, t->failed, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st.entries + st.overrun + st.read, st.written, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, st.read, t->reads, "%s", when);
	KUNIT_EXPECT_LE_MSG(test, t->lost, st.overrun, "%s", when);
	KUNIT_EXPECT_EQ_MSG(test, t->gap_errors, 0ULL,
			    "%s: lost events != gaps; first: seq %llu after %lld with %llu lost",
			    when, t->bad_seq, t->bad_last, t->bad_lost);
	KUNIT_EXPECT_EQ_MSG(test, t->corrupt, 0ULL, "%s: events read back wrong", when);
	KUNIT_EXPECT_EQ_MSG(test, st.recursion + st.too_big, 0ULL, "%s", when);
	return ok;
}

/*
 * Rounds of writes (random sizes) and partial reads on a 4-page ring,
 * the ring overflowing again and again; the counters checked after
 * every round and after the final drain.
 */
static void rbtrace_accounting_counters_match_reader(struct kunit *test)
{
	enum acc_mode mode = *(const enum acc_mode *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE,
						 mode == ACC_OVERWRITE ? RBT_FL_OVERWRITE : 0, 0);
	struct acc_tally t = { .last = -1 };
	int cpu = rbt_kunit_pin(test);
	u8 raw[ACC_MAX_LEN];
	struct rbt_cpu_stats st;
	u32 x = 12345;
	int round, i, n;

	for (round = 0; round < 30; round++) {
		if (mode == ACC_SWITCHED && round == 15)
			rbt_set_overwrite(buf, true);
		n = 50 + acc_rand(&x) % 150;
		for (i = 0; i < n; i++) {
			unsigned int len = acc_fill(raw, t.ok, 8 + acc_rand(&x) % 200);

			t.asked++;
			if (rbt_write(buf, len, raw))
				t.failed++;
			else
				t.ok++;
		}
		n = acc_rand(&x) % 120;
		for (i = 0; i < n; i++)
			if (!acc_read_one(&t, buf, cpu, !(i % 7)))
				break;
		if (!acc_check(test, buf, cpu, &t, "after a round"))
			return;
	}
	while (acc_read_one(&t, buf, cpu, false))
		;
	acc_check(test, buf, cpu, &t, "after draining");

	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
	KUNIT_EXPECT_TRUE(test, rbt_empty_cpu(buf, cpu));
	KUNIT_EXPECT_EQ(test, t.lost, st.overrun);
	KUNIT_EXPECT_EQ(test, t.last, (s64)t.ok - 1);
	KUNIT_EXPECT_EQ(test, t.asked, t.ok + t.failed);
	/* The modes did what they are for, or the test proved nothing. */
	if (mode == ACC_OVERWRITE) {
		KUNIT_EXPECT_GT(test, st.overrun, 0ULL);
		KUNIT_EXPECT_EQ(test, st.dropped, 0ULL);
	} else {
		KUNIT_EXPECT_GT(test, st.dropped, 0ULL);
	}
	if (mode == ACC_CONSUMER)
		KUNIT_EXPECT_EQ(test, st.overrun, 0ULL);
	if (mode == ACC_SWITCHED)
		KUNIT_EXPECT_GT(test, st.overrun, 0ULL);
}

/*
 * An interrupt storm inside one long commit: an irq_work writes until the
 * 2-page ring wraps onto the page the task's event (not committed yet)
 * is on. What does not fit is refused and counted as commit_overrun; the
 * task's event and everything that fitted are kept.
 */
struct acc_storm {
	struct rbt_buffer	*buf;
	u32			asked;
	u32			ok;
};

static void acc_storm_fn(void *arg)
{
	struct acc_storm *s = arg;
	u8 raw[400];
	int i;

	for (i = 0; i < 24; i++) {
		s->asked++;
		if (!rbt_write(s->buf, acc_fill(raw, s->ok + 1, sizeof(raw)), raw))
			s->ok++;
	}
}

static void rbtrace_accounting_interrupt_storm_commit_overrun(struct kunit *test)
{
	enum acc_mode mode = *(const enum acc_mode *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 1,
						 mode == ACC_OVERWRITE ? RBT_FL_OVERWRITE : 0, 0);
	struct acc_storm s = { .buf = buf };
	struct acc_tally t = { .last = -1 };
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st;
	struct rbt_event *ev;

	ev = rbt_lock_reserve(buf, 16);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	acc_fill(rbt_event_data(ev), 0, 16);
	KUNIT_EXPECT_EQ(test, rbt_nest(RBT_NEST_IRQ_WORK, acc_storm_fn, &s), 0);
	rbt_unlock_commit(buf);

	t.asked = s.asked + 1;
	t.ok = s.ok + 1;
	t.failed = s.asked - s.ok;
	/* Two pages hold 19 such events besides the task's. */
	KUNIT_EXPECT_EQ(test, s.ok, 19U);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.commit_overrun, (u64)(s.asked - s.ok));
	KUNIT_EXPECT_EQ(test, st.dropped, 0ULL);
	KUNIT_EXPECT_EQ(test, st.overrun, 0ULL);

	while (acc_read_one(&t, buf, cpu, false))
		;
	acc_check(test, buf, cpu, &t, "after draining");
	KUNIT_EXPECT_EQ(test, t.last, (s64)s.ok);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);

	/* And the ring works on. */
	KUNIT_EXPECT_EQ(test, rbt_write(buf, 16, &s), 0);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).written, t.ok + 1);
}

/*
 * Resize while a writer bound to another CPU writes without pause: grow,
 * shrink to the minimum, grow, for that CPU and for all. Committed events
 * survive or are counted as overrun, and those lost are the oldest: the
 * drained sequence numbers are one run, up to the last event written.
 */
struct acc_writer {
	struct rbt_buffer	*buf;
	struct task_struct	*task;
	struct completion	started;
	unsigned long		ok;
	unsigned long		failed;
};

static int acc_writer_fn(void *arg)
{
	struct acc_writer *w = arg;
	u8 raw[ACC_MAX_LEN];

	complete(&w->started);
	while (!kthread_should_stop()) {
		unsigned int len = acc_fill(raw, w->ok, 8 + (w->ok * 7 + w->failed) % 120);

		if (rbt_write(w->buf, len, raw))
			w->failed++;
		else
			w->ok++;
		if (!((w->ok + w->failed) % 64))
			cond_resched();
	}
	return 0;
}

static void acc_writer_stop(void *arg)
{
	struct acc_writer *w = arg;

	if (w->task)
		kthread_stop(w->task);
	w->task = NULL;
}

static void rbtrace_accounting_resize_while_other_cpu_writes(struct kunit *test)
{
	static const struct { unsigned int pages; bool all; } steps[] = {
		{ 8, false }, { 2, false }, { 16, false }, { 3, false }, { 6, true },
		{ 2, true }, { 12, false },
	};
	enum acc_mode mode = *(const enum acc_mode *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE,
						 mode == ACC_OVERWRITE ? RBT_FL_OVERWRITE : 0, 0);
	struct acc_writer *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	unsigned long sub = rbt_subbuf_size(buf), n = 0, gaps = 0, lost_sum = 0, lost;
	int cpu = rbt_kunit_pin(test), wcpu, i;
	struct rbt_cpu_stats st;
	s64 first = -1, prev = -1;
	struct rbt_event *ev;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second online CPU for the writer");
	KUNIT_ASSERT_NOT_NULL(test, w);
	wcpu = cpumask_any_but(cpu_online_mask, cpu);
	KUNIT_ASSERT_LT(test, wcpu, (int)nr_cpu_ids);
	w->buf = buf;
	init_completion(&w->started);
	w->task = kthread_create_on_cpu(acc_writer_fn, w, wcpu, "rbt_acc_writer/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w->task);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, acc_writer_stop, w), 0);
	wake_up_process(w->task);
	wait_for_completion(&w->started);

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		msleep(20);
		KUNIT_EXPECT_EQ_MSG(test, rbt_resize(buf, steps[i].pages * sub,
						     steps[i].all ? RBT_ALL_CPUS : wcpu), 0,
				    "resize %d to %u pages", i, steps[i].pages);
		KUNIT_EXPECT_EQ(test, rbt_size(buf, wcpu), steps[i].pages * sub);
		if (steps[i].all)
			KUNIT_EXPECT_EQ(test, rbt_size(buf, cpu), steps[i].pages * sub);
	}
	msleep(20);
	acc_writer_stop(w);

	while ((ev = rbt_consume(buf, wcpu, NULL, &lost))) {
		struct acc_payload *p = rbt_event_data(ev);

		if (!acc_intact(p))
			gaps++;
		if (first < 0)
			first = p->seq;
		else if (p->seq != prev + 1)
			gaps++;
		prev = p->seq;
		lost_sum += lost;
		n++;
	}
	st = rbt_stats(test, buf, wcpu);
	KUNIT_EXPECT_GT(test, w->ok, 1000UL);
	KUNIT_EXPECT_EQ(test, st.written, (u64)w->ok);
	KUNIT_EXPECT_EQ(test, (u64)n + st.overrun, (u64)w->ok);
	KUNIT_EXPECT_EQ_MSG(test, gaps, 0UL, "events missing or broken inside the drained run");
	KUNIT_EXPECT_EQ_MSG(test, first, (s64)st.overrun, "the events lost are not the oldest");
	KUNIT_EXPECT_EQ(test, prev, (s64)w->ok - 1);
	KUNIT_EXPECT_EQ(test, (u64)lost_sum, st.overrun);
	KUNIT_EXPECT_EQ(test, st.commit_overrun, 0ULL);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.read, (u64)n);
	/* Refusals while a CPU is resized are not counted anywhere. */
	KUNIT_EXPECT_LE(test, st.dropped, (u64)w->failed);
	if (mode == ACC_OVERWRITE)
		KUNIT_EXPECT_EQ(test, st.dropped, 0ULL);
}

/*
 * A reader on this CPU consumes while a writer bound to another CPU
 * writes without pause: every event read is intact and continues the
 * sequence, every gap is announced as lost events, and what was neither
 * read nor announced is still there when the writer stops.
 *
 * The race this exposes most is the writer leaving the reader page: it
 * publishes the page's last commit, then moves commit_page on. A reader
 * that saw the old commit but the new commit_page recycles the page with
 * events on it unread and uncounted. It needs the reader's two loads to
 * straddle the writer's two stores, so the run is long: one second.
 */
static void rbtrace_accounting_concurrent_reader_sees_all_or_loss(struct kunit *test)
{
	enum acc_mode mode = *(const enum acc_mode *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE,
						 mode == ACC_OVERWRITE ? RBT_FL_OVERWRITE : 0, 0);
	struct acc_writer *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct acc_tally t = { .last = -1 };
	int cpu = rbt_kunit_pin(test), wcpu, i = 0;
	unsigned long deadline;
	struct rbt_cpu_stats st;
	u64 concurrent;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second online CPU for the writer");
	KUNIT_ASSERT_NOT_NULL(test, w);
	wcpu = cpumask_any_but(cpu_online_mask, cpu);
	KUNIT_ASSERT_LT(test, wcpu, (int)nr_cpu_ids);
	w->buf = buf;
	init_completion(&w->started);
	w->task = kthread_create_on_cpu(acc_writer_fn, w, wcpu, "rbt_acc_writer/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, w->task);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, acc_writer_stop, w), 0);
	wake_up_process(w->task);
	wait_for_completion(&w->started);

	deadline = jiffies + msecs_to_jiffies(1000);
	while (time_before(jiffies, deadline) && !t.gap_errors && !t.corrupt) {
		if (!acc_read_one(&t, buf, wcpu, !(i++ % 5)))
			cpu_relax();
	}
	concurrent = t.reads;
	acc_writer_stop(w);
	while (acc_read_one(&t, buf, wcpu, false))
		;

	st = rbt_stats(test, buf, wcpu);
	KUNIT_EXPECT_GT_MSG(test, concurrent, 100ULL, "too few reads while the writer ran");
	KUNIT_EXPECT_EQ_MSG(test, t.gap_errors, 0ULL,
			    "lost events != gaps; first: seq %llu after %lld with %llu lost",
			    t.bad_seq, t.bad_last, t.bad_lost);
	KUNIT_EXPECT_EQ_MSG(test, t.corrupt, 0ULL, "events read back wrong");
	KUNIT_EXPECT_EQ(test, st.written, (u64)w->ok);
	KUNIT_EXPECT_EQ(test, st.read, t.reads);
	KUNIT_EXPECT_EQ(test, t.reads + st.overrun, (u64)w->ok);
	KUNIT_EXPECT_EQ(test, t.lost, st.overrun);
	KUNIT_EXPECT_EQ(test, t.last, (s64)w->ok - 1);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, st.dropped + st.commit_overrun, (u64)w->failed);
	if (mode == ACC_OVERWRITE)
		KUNIT_EXPECT_EQ(test, st.dropped, 0ULL);
	else
		KUNIT_EXPECT_EQ(test, st.overrun, 0ULL);
	if (st.entries || t.gap_errors)
		rbt_dump_cpu(test, buf, wcpu);
}

/*
 * A reader that took the page the writer is on leaves the writer outside
 * the ring, on the reader page. Shrinking and growing the ring then must
 * neither lose the events on that page nor break the ring.
 */
static void rbtrace_accounting_resize_with_writer_on_reader_page(struct kunit *test)
{
	enum acc_mode mode = *(const enum acc_mode *)test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE,
						 mode == ACC_OVERWRITE ? RBT_FL_OVERWRITE : 0, 0);
	unsigned long sub = rbt_subbuf_size(buf);
	struct acc_tally t = { .last = -1 };
	int cpu = rbt_kunit_pin(test);
	struct rb_cpu_buffer *cb = rbt_cpu(buf, cpu);
	static const unsigned int pages[] = { 2, 8, 3 };
	struct rbt_cpu_stats st;
	u8 raw[32];
	int i, j;

	for (i = 0; i < 3; i++, t.ok++, t.asked++)
		KUNIT_ASSERT_EQ(test, rbt_write(buf, acc_fill(raw, t.ok, 16), raw), 0);
	KUNIT_ASSERT_TRUE(test, acc_read_one(&t, buf, cpu, false));
	KUNIT_ASSERT_PTR_EQ_MSG(test, READ_ONCE(cb->tail_page), cb->reader_page,
				"the writer should be on the reader page now");

	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		KUNIT_EXPECT_EQ(test, rbt_resize(buf, pages[i] * sub, cpu), 0);
		KUNIT_EXPECT_EQ(test, rbt_size(buf, cpu), pages[i] * sub);
		/* The events on the reader page are still there to read. */
		KUNIT_EXPECT_TRUE(test, acc_read_one(&t, buf, cpu, false));
		for (j = 0; j < 400; j++) {
			t.asked++;
			if (rbt_write(buf, acc_fill(raw, t.ok, 8 + j % 24), raw))
				t.failed++;
			else
				t.ok++;
		}
		if (!acc_check(test, buf, cpu, &t, "after a resize and writes"))
			return;
	}
	while (acc_read_one(&t, buf, cpu, false))
		;
	acc_check(test, buf, cpu, &t, "after draining");
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.entries, 0ULL);
	KUNIT_EXPECT_EQ(test, st.bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, t.lost, st.overrun);
	KUNIT_EXPECT_EQ(test, t.last, (s64)t.ok - 1);
}

/*
 * True recursion (a third reservation in one context, after the one the
 * transition bit allows) is refused and counted, in task and in hard IRQ
 * context; the writes around it are kept with their stamps.
 */
struct acc_recur {
	struct rbt_buffer	*buf;
	u64			t;
	int			got;	/* reservations granted */
	int			refused;
};

static void acc_recurse(void *arg)
{
	struct acc_recur *r = arg;
	struct rbt_event *e1, *e2, *e3;

	rbt_fake_set(r->t);
	e1 = rbt_lock_reserve(r->buf, 8);
	rbt_fake_set(r->t + 10);
	e2 = rbt_lock_reserve(r->buf, 8);
	e3 = rbt_lock_reserve(r->buf, 8);
	r->got = !!e1 + !!e2 + !!e3;
	r->refused = !e3;
	if (e3)
		rbt_unlock_commit(r->buf);
	if (e2) {
		acc_fill(rbt_event_data(e2), r->t + 10, 8);
		rbt_unlock_commit(r->buf);
	}
	if (e1) {
		acc_fill(rbt_event_data(e1), r->t, 8);
		rbt_unlock_commit(r->buf);
	}
}

static void rbtrace_accounting_recursion_refused_and_counted(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, 0, 0);
	static const u64 times[] = { 100, 110, 200, 300, 310, 400 };
	struct acc_recur r = { .buf = buf, .t = 100 };
	int cpu = rbt_kunit_pin(test);
	struct acc_payload *p;
	int pc = preempt_count();
	struct rbt_cpu_stats st;
	struct rbt_event *ev;
	u8 raw[8];
	u64 ts;
	int i;

	KUNIT_ASSERT_EQ(test, rbt_set_clock(buf, rbt_fake_clock), 0);
	acc_recurse(&r);
	KUNIT_EXPECT_EQ(test, r.got, 2);
	KUNIT_EXPECT_EQ(test, r.refused, 1);
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).recursion, 1ULL);

	/* The context bits are clear again: a plain write goes through. */
	rbt_fake_set(200);
	KUNIT_EXPECT_EQ(test, rbt_write(buf, acc_fill(raw, 200, 8), raw), 0);

	r.t = 300;
	KUNIT_EXPECT_EQ(test, rbt_nest(RBT_NEST_IRQ_WORK, acc_recurse, &r), 0);
	KUNIT_EXPECT_EQ(test, r.got, 2);
	KUNIT_EXPECT_EQ(test, r.refused, 1);
	rbt_fake_set(400);
	KUNIT_EXPECT_EQ(test, rbt_write(buf, acc_fill(raw, 400, 8), raw), 0);

	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, st.recursion, 2ULL);
	KUNIT_EXPECT_EQ(test, st.written, 6ULL);
	for (i = 0; i < ARRAY_SIZE(times); i++) {
		ev = rbt_consume(buf, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		p = rbt_event_data(ev);
		KUNIT_EXPECT_EQ(test, (u64)p->seq, times[i]);
		KUNIT_EXPECT_EQ(test, ts, times[i]);
	}
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
}

/*
 * Recording off refuses events without touching the buffer or a counter;
 * on again, writing resumes. A reset empties the ring and zeroes every
 * counter.
 */
static void rbtrace_accounting_record_off_and_reset(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 4 * PAGE_SIZE, RBT_FL_OVERWRITE, 0);
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st, zero = {};
	int pc = preempt_count();
	struct rbt_event *ev;
	u8 raw[16];
	int i;

	for (i = 0; i < 2000; i++)	/* 40 kB into 5 pages */
		KUNIT_ASSERT_EQ(test, rbt_write(buf, acc_fill(raw, i, 16), raw), 0);
	st = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_GT(test, st.overrun, 0ULL);

	rbt_record_off(buf);
	KUNIT_EXPECT_FALSE(test, rbt_record_is_on(buf));
	KUNIT_EXPECT_EQ(test, rbt_write(buf, 16, raw), -EBUSY);
	KUNIT_EXPECT_NULL(test, rbt_lock_reserve(buf, 16));
	KUNIT_EXPECT_EQ(test, preempt_count(), pc);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).written, st.written);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).too_big, 0ULL);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).dropped, 0ULL);
	rbt_record_on(buf);
	KUNIT_EXPECT_TRUE(test, rbt_record_is_on(buf));
	KUNIT_EXPECT_EQ(test, rbt_write(buf, acc_fill(raw, 300, 16), raw), 0);
	KUNIT_EXPECT_EQ(test, rbt_stats(test, buf, cpu).written, st.written + 1);

	rbt_reset_cpu(buf, cpu);
	st = rbt_stats(test, buf, cpu);
	st.oldest_ts = 0;
	KUNIT_EXPECT_EQ(test, memcmp(&st, &zero, sizeof(st)), 0);
	KUNIT_EXPECT_TRUE(test, rbt_empty_cpu(buf, cpu));
	KUNIT_EXPECT_NULL(test, rbt_consume(buf, cpu, NULL, NULL));
	KUNIT_EXPECT_EQ(test, rbt_write(buf, acc_fill(raw, 7, 16), raw), 0);
	ev = rbt_consume(buf, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, ((struct acc_payload *)rbt_event_data(ev))->seq, 7U);
}

static int rbtrace_accounting_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_accounting_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_accounting_cases[] = {
	KUNIT_CASE_PARAM(rbtrace_accounting_counters_match_reader, acc_modes_gen_params),
	KUNIT_CASE_PARAM(rbtrace_accounting_interrupt_storm_commit_overrun,
			 acc_two_modes_gen_params),
	KUNIT_CASE_PARAM(rbtrace_accounting_resize_while_other_cpu_writes,
			 acc_two_modes_gen_params),
	KUNIT_CASE_PARAM(rbtrace_accounting_concurrent_reader_sees_all_or_loss,
			 acc_two_modes_gen_params),
	KUNIT_CASE_PARAM(rbtrace_accounting_resize_with_writer_on_reader_page,
			 acc_two_modes_gen_params),
	KUNIT_CASE(rbtrace_accounting_recursion_refused_and_counted),
	KUNIT_CASE(rbtrace_accounting_record_off_and_reset),
	{}
};

static struct kunit_suite rbtrace_accounting_suite = {
	.name = "rbtrace_accounting",
	.suite_init = rbtrace_accounting_suite_init,
	.suite_exit = rbtrace_accounting_suite_exit,
	.test_cases = rbtrace_accounting_cases,
};

kunit_test_suite(rbtrace_accounting_suite);

