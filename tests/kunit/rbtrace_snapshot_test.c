// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the snapshot's swap (tracer/snapshot.c) taken from NMI and hard
 * IRQ while writers on two CPUs record numbered events, and the cost of
 * one rbtr_snapshot_take().
 *
 *  - A writer on each of two CPUs reserves an event in the live buffer
 *    (rbtr_live_buffer()), fills half of it, and every SNAP_EVERY events
 *    takes a swap nested in an interrupt right there: on the first CPU an
 *    NMI (the local APIC's self-NMI), on the second an hrtimer in hard
 *    IRQ (rbt_nest() has one user per kind at a time). The interrupt
 *    writes a numbered event of its own to the new live buffer. Then the
 *    writer fills the other half and commits to the buffer it reserved
 *    in, now the snapshot. Afterwards both buffers are drained: every
 *    event committed is in exactly one of them, whole (its two halves
 *    agree), the interrupted ones in the buffer they were reserved in,
 *    nothing else is anywhere.
 *  - rbtr_snapshot_take() timed one call at a time (local_clock(),
 *    preemption off): its median and 99th percentile are printed.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/hardirq.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/sort.h>
#include "rbt_kunit.h"
#include "tracer/trace.h"

#define SNAP_MAGIC	0x736e6170U	/* "snap" */
#define SNAP_EVENTS	20000		/* per writer */
#define SNAP_EVERY	200		/* a swap every this many events */
#define SNAP_NESTED	BIT(30)		/* seq of an interrupt's own event */
#define SNAP_SIZE	SZ_1M		/* per CPU: nothing dropped */
#define SNAP_TIMES	2000		/* takes timed */

struct snap_payload {
	u32	magic;
	u32	cpu;
	u32	seq;
	u32	check;		/* written after the swap of an interrupted one */
};

static u32 snap_check(u32 cpu, u32 seq)
{
	return (seq * 2654435761U) ^ cpu;
}

struct snap_writer {
	struct rbtr_trace	*tr;
	int			cpu;
	enum rbt_nest_kind	kind;
	struct task_struct	*task;
	struct completion	done;
	/* per seq: 0 not committed, 1 committed, 2 interrupted by a swap */
	u8			*state;
	struct rbt_buffer	**home;		/* where an interrupted one went */
	u32			nested;		/* the interrupts' own events */
	int			nest_err;
	atomic_t		swaps_ok;
	atomic_t		swaps_busy;
	atomic_t		wrong_ctx;
};

/* In the interrupt: the swap, then an event of the interrupt's own. */
static void snap_in_irq(void *arg)
{
	struct snap_writer *w = arg;
	struct snap_payload p;
	int ret;

	if (w->kind == RBT_NEST_NMI ? !in_nmi() : !in_hardirq())
		atomic_inc(&w->wrong_ctx);
	ret = rbtr_snapshot_take(w->tr);
	atomic_inc(ret ? &w->swaps_busy : &w->swaps_ok);
	p.magic = SNAP_MAGIC;
	p.cpu = w->cpu;
	p.seq = SNAP_NESTED | (w->nested + 1);
	p.check = snap_check(p.cpu, p.seq);
	if (!rbt_write(rbtr_live_buffer(w->tr), sizeof(p), &p))
		w->nested++;
}

static int snap_writer_fn(void *arg)
{
	struct snap_writer *w = arg;
	struct rbt_buffer *buf;
	struct snap_payload *p;
	u32 seq;
	int ret;

	for (seq = 1; seq <= SNAP_EVENTS; seq++) {
		/* rbt_reserve() keeps preemption off to the commit. */
		preempt_disable();
		buf = rbtr_live_buffer(w->tr);
		p = rbt_reserve(buf, sizeof(*p));
		preempt_enable();
		if (!p)
			continue;
		p->magic = SNAP_MAGIC;
		p->cpu = w->cpu;
		p->seq = seq;
		if (!(seq % SNAP_EVERY)) {
			ret = rbt_nest(w->kind, snap_in_irq, w);
			if (ret && !w->nest_err)
				w->nest_err = ret;
			w->home[seq] = buf;
			w->state[seq] = 2;
		} else {
			w->state[seq] = 1;
		}
		p->check = snap_check(w->cpu, seq);
		rbt_unlock_commit(buf);
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

/* Drain @buf; count each event in @seen, the interrupted ones' home. */
static void snap_drain(struct kunit *test, struct snap_writer *w, int nw,
		       struct rbt_buffer *buf, u8 **seen, u8 **nseen)
{
	struct snap_payload *p;
	struct rbt_event *ev;
	int cpu, i;
	u32 s;

	for_each_online_cpu(cpu) {
		while ((ev = rbt_consume(buf, cpu, NULL, NULL))) {
			p = rbt_event_data(ev);
			KUNIT_ASSERT_EQ(test, rbt_event_length(ev), (unsigned int)sizeof(*p));
			KUNIT_ASSERT_EQ(test, p->magic, SNAP_MAGIC);
			KUNIT_EXPECT_EQ_MSG(test, p->check, snap_check(p->cpu, p->seq),
					    "cpu %u seq %#x split or torn", p->cpu, p->seq);
			for (i = 0; i < nw && w[i].cpu != p->cpu; i++)
				;
			KUNIT_ASSERT_LT(test, i, nw);
			KUNIT_EXPECT_EQ(test, (u32)cpu, p->cpu);
			if (p->seq & SNAP_NESTED) {
				s = p->seq & ~SNAP_NESTED;
				KUNIT_ASSERT_LE(test, s, SNAP_EVENTS / SNAP_EVERY);
				nseen[i][s]++;
				continue;
			}
			KUNIT_ASSERT_LE(test, p->seq, (u32)SNAP_EVENTS);
			seen[i][p->seq]++;
			if (w[i].state[p->seq] == 2)
				KUNIT_EXPECT_PTR_EQ_MSG(test, buf, w[i].home[p->seq],
							"cpu %u seq %u not where it was reserved",
							p->cpu, p->seq);
		}
	}
}

static struct rbtr_trace *snap_trace(struct kunit *test)
{
	struct rbtr_trace *tr = kunit_kzalloc(test, sizeof(*tr), GFP_KERNEL);
	struct rbt_buffer *buf;

	KUNIT_ASSERT_NOT_NULL(test, tr);
	buf = rbt_alloc(SNAP_SIZE, 0, 0);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, rbtr_trace_init(tr, buf), 0);
	KUNIT_ASSERT_EQ(test, rbtr_snapshot_alloc(tr), 0);
	return tr;
}

/* rbtr_trace_exit() frees the spare; the live one, either, is ours. */
static void snap_trace_free(struct rbtr_trace *tr)
{
	struct rbt_buffer *live = tr->buffer;

	rbtr_trace_exit(tr);
	rbt_free(live);
}

static void rbtrace_snapshot_swap_in_nmi_and_irq(struct kunit *test)
{
	struct snap_writer w[2] = {};
	u8 *seen[2], *nseen[2];
	struct rbtr_trace *tr;
	int cpus[2], n = 0, cpu, i, s, bad = 0;

	for_each_online_cpu(cpu)
		if (n < 2)
			cpus[n++] = cpu;
	if (n < 2)
		kunit_skip(test, "needs two CPUs");
	tr = snap_trace(test);
	for (i = 0; i < 2; i++) {
		w[i].tr = tr;
		w[i].cpu = cpus[i];
		w[i].kind = i ? RBT_NEST_HRTIMER : RBT_NEST_NMI;
		init_completion(&w[i].done);
		w[i].state = kunit_kzalloc(test, SNAP_EVENTS + 1, GFP_KERNEL);
		w[i].home = kunit_kcalloc(test, SNAP_EVENTS + 1, sizeof(*w[i].home), GFP_KERNEL);
		seen[i] = kunit_kzalloc(test, SNAP_EVENTS + 1, GFP_KERNEL);
		nseen[i] = kunit_kzalloc(test, SNAP_EVENTS / SNAP_EVERY + 1, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, w[i].state && w[i].home && seen[i] && nseen[i]);
		w[i].task = kthread_create_on_cpu(snap_writer_fn, &w[i], w[i].cpu,
						  "rbt_snap_writer/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(w[i].task));
	}
	for (i = 0; i < 2; i++)
		wake_up_process(w[i].task);
	for (i = 0; i < 2; i++)
		wait_for_completion(&w[i].done);

	snap_drain(test, w, 2, tr->buffer, seen, nseen);
	snap_drain(test, w, 2, tr->snap.spare, seen, nseen);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_EQ(test, w[i].nest_err, 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&w[i].wrong_ctx), 0);
		/* The only other swapper is on the other CPU, rarely at once. */
		KUNIT_EXPECT_GT(test, atomic_read(&w[i].swaps_ok), SNAP_EVENTS / SNAP_EVERY / 2);
		for (s = 1; s <= SNAP_EVENTS; s++)
			if (seen[i][s] != !!w[i].state[s] && bad++ < 10)
				KUNIT_FAIL(test, "cpu %d seq %d: committed %d, found %d times",
					   w[i].cpu, s, !!w[i].state[s], seen[i][s]);
		for (s = 1; s <= SNAP_EVENTS / SNAP_EVERY; s++)
			if (nseen[i][s] != !!(s <= w[i].nested) && bad++ < 10)
				KUNIT_FAIL(test, "cpu %d nested %d: found %d times",
					   w[i].cpu, s, nseen[i][s]);
		kunit_info(test, "cpu %d (%s): %d swaps, %d busy, %u nested events",
			   w[i].cpu, i ? "hrtimer" : "NMI", atomic_read(&w[i].swaps_ok),
			   atomic_read(&w[i].swaps_busy), w[i].nested);
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&tr->snap.taken),
			(long)(atomic_read(&w[0].swaps_ok) + atomic_read(&w[1].swaps_ok)));
	snap_trace_free(tr);
}

static int snap_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void rbtrace_snapshot_take_cost(struct kunit *test)
{
	struct rbtr_trace *tr = snap_trace(test);
	u64 *ns = kunit_kcalloc(test, SNAP_TIMES, sizeof(*ns), GFP_KERNEL);
	int i, fails = 0;
	u64 t0;

	KUNIT_ASSERT_NOT_NULL(test, ns);
	for (i = 0; i < SNAP_TIMES; i++) {
		preempt_disable();
		t0 = local_clock();
		fails += !!rbtr_snapshot_take(tr);
		ns[i] = local_clock() - t0;
		preempt_enable();
	}
	KUNIT_EXPECT_EQ(test, fails, 0);
	sort(ns, SNAP_TIMES, sizeof(*ns), snap_cmp, NULL);
	kunit_info(test, "rbtr_snapshot_take(): %d calls, median %llu ns, p99 %llu ns, max %llu ns",
		   SNAP_TIMES, ns[SNAP_TIMES / 2], ns[SNAP_TIMES * 99 / 100], ns[SNAP_TIMES - 1]);
	snap_trace_free(tr);
}

static int rbtrace_snapshot_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_snapshot_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_snapshot_cases[] = {
	KUNIT_CASE_SLOW(rbtrace_snapshot_swap_in_nmi_and_irq),
	KUNIT_CASE(rbtrace_snapshot_take_cost),
	{}
};

static struct kunit_suite rbtrace_snapshot_suite = {
	.name = "rbtrace_snapshot",
	.suite_init = rbtrace_snapshot_suite_init,
	.suite_exit = rbtrace_snapshot_suite_exit,
	.test_cases = rbtrace_snapshot_cases,
};

kunit_test_suite(rbtrace_snapshot_suite);
