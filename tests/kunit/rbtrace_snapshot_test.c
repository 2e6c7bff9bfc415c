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
 *  - The lazy wait (snapshot.c): writers on both CPUs inside an event,
 *    meeting there; the first swaps once or twice (the buffer they are in
 *    becomes the snapshot, or the snapshot and live again) while both are
 *    inside, and checks that the RCU state the swap noted has not elapsed
 *    (it cannot while a writer of the old buffer is inside). Every event
 *    is then whole, once, in the buffer it was reserved in.
 *  - A reader opening the snapshot (rbtr_reader_open()) while a writer
 *    that read the old live pointer is still inside its event does not
 *    return before that writer's commit, and finds its event whole.
 *  - rbtr_snapshot_take() timed one call at a time (local_clock(),
 *    preemption off): its median and 99th percentile are printed.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/hardirq.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
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
	int			idx;		/* lazy_state's w[idx] */
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

#define LAZY_ROUNDS	1000
#define LAZY_WAIT_NS	(1000 * NSEC_PER_MSEC)	/* the most one waits inside */

/* Spin, preemption off, until *@v >= @want or LAZY_WAIT_NS: false then. */
static bool snap_spin_until(atomic_t *v, int want)
{
	u64 t0 = local_clock();

	while (atomic_read_acquire(v) < want) {
		if (local_clock() - t0 > LAZY_WAIT_NS)
			return false;
		cpu_relax();
	}
	return true;
}

struct lazy_state {
	struct snap_writer	w[2];
	atomic_t		arrived;	/* writers inside, over the rounds */
	atomic_t		swapped;	/* rounds whose swaps are done */
	atomic_t		both;		/* rounds with both writers inside */
	atomic_t		gp_early;	/* swap state elapsed while inside */
};

/*
 * Writer @i of round r: reserve in the live buffer, meet the other writer
 * inside (both events reserved), writer 0 swaps 1 + r % 2 times, writer 1
 * waits for it; then both commit into the buffer they reserved in.
 */
static int lazy_writer_fn(void *arg)
{
	struct snap_writer *w = arg;
	struct lazy_state *ls = container_of(w - w->idx, struct lazy_state, w[0]);
	struct rbt_buffer *buf;
	struct snap_payload *p;
	int r, k, met;

	for (r = 1; r <= LAZY_ROUNDS; r++) {
		preempt_disable();
		buf = rbtr_live_buffer(w->tr);
		p = rbt_reserve(buf, sizeof(*p));
		preempt_enable();
		/* Not expected (1 MiB per CPU); the other one must not wait. */
		if (!p) {
			w->nest_err++;
			atomic_inc(&ls->arrived);
			if (w->idx)
				snap_spin_until(&ls->swapped, r);
			else
				atomic_set_release(&ls->swapped, r);
			continue;
		}
		p->magic = SNAP_MAGIC;
		p->cpu = w->cpu;
		p->seq = r;
		atomic_inc(&ls->arrived);
		met = snap_spin_until(&ls->arrived, 2 * r);
		if (!w->idx) {
			for (k = 0; k < 1 + r % 2; k++)
				atomic_inc(rbtr_snapshot_take(w->tr) ?
					   &w->swaps_busy : &w->swaps_ok);
			/* Inside an event of the old buffer: cannot have elapsed. */
			if (poll_state_synchronize_rcu(READ_ONCE(w->tr->snap.gp)))
				atomic_inc(&ls->gp_early);
			if (met)
				atomic_inc(&ls->both);
			atomic_set_release(&ls->swapped, r);
		} else {
			snap_spin_until(&ls->swapped, r);
		}
		w->home[r] = buf;
		w->state[r] = 2;
		p->check = snap_check(w->cpu, r);
		rbt_unlock_commit(buf);
		cond_resched();
	}
	complete(&w->done);
	return 0;
}

static int snap_two_cpus(int *cpus)
{
	int cpu, n = 0;

	for_each_online_cpu(cpu)
		if (n < 2)
			cpus[n++] = cpu;
	return n;
}

static void rbtrace_snapshot_swap_twice_inside_writes(struct kunit *test)
{
	struct lazy_state *ls = kunit_kzalloc(test, sizeof(*ls), GFP_KERNEL);
	u8 *seen[2], *nseen[2];
	struct rbtr_trace *tr;
	int cpus[2], i, s, bad = 0;

	KUNIT_ASSERT_NOT_NULL(test, ls);
	if (snap_two_cpus(cpus) < 2)
		kunit_skip(test, "needs two CPUs");
	tr = snap_trace(test);
	for (i = 0; i < 2; i++) {
		struct snap_writer *w = &ls->w[i];

		w->tr = tr;
		w->cpu = cpus[i];
		w->idx = i;
		init_completion(&w->done);
		w->state = kunit_kzalloc(test, LAZY_ROUNDS + 1, GFP_KERNEL);
		w->home = kunit_kcalloc(test, LAZY_ROUNDS + 1, sizeof(*w->home), GFP_KERNEL);
		seen[i] = kunit_kzalloc(test, SNAP_EVENTS + 1, GFP_KERNEL);
		nseen[i] = kunit_kzalloc(test, SNAP_EVENTS / SNAP_EVERY + 1, GFP_KERNEL);
		KUNIT_ASSERT_TRUE(test, w->state && w->home && seen[i] && nseen[i]);
		w->task = kthread_create_on_cpu(lazy_writer_fn, w, w->cpu, "rbt_lazy/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(w->task));
	}
	for (i = 0; i < 2; i++)
		wake_up_process(ls->w[i].task);
	for (i = 0; i < 2; i++)
		wait_for_completion(&ls->w[i].done);

	snap_drain(test, ls->w, 2, tr->buffer, seen, nseen);
	snap_drain(test, ls->w, 2, tr->snap.spare, seen, nseen);
	for (i = 0; i < 2; i++)
		for (s = 1; s <= LAZY_ROUNDS; s++)
			if (seen[i][s] != !!ls->w[i].state[s] && bad++ < 10)
				KUNIT_FAIL(test, "cpu %d round %d: committed %d, found %d times",
					   cpus[i], s, !!ls->w[i].state[s], seen[i][s]);
	KUNIT_EXPECT_EQ(test, ls->w[0].nest_err + ls->w[1].nest_err, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ls->w[0].swaps_busy), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&ls->w[0].swaps_ok), LAZY_ROUNDS * 3 / 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&ls->gp_early), 0);
	/* Meeting needs both CPUs at once: on a loaded host, most rounds. */
	KUNIT_EXPECT_GT(test, atomic_read(&ls->both), 0);
	kunit_info(test, "%d rounds, %d with both writers inside at the swaps, %d swaps",
		   LAZY_ROUNDS, atomic_read(&ls->both), atomic_read(&ls->w[0].swaps_ok));
	snap_trace_free(tr);
}

#define OPEN_TRIES	5
#define OPEN_HOLD_NS	(50 * NSEC_PER_MSEC)

struct open_state {
	struct rbtr_trace	*tr;
	struct rbt_buffer	*home;		/* where the writer reserved */
	atomic_t		inside;		/* try n: the writer is inside */
	atomic_t		swapped;	/* try n: swapped, opening */
	atomic_t		committed;	/* try n: the writer is at its commit */
	atomic_t		provoked;	/* tries the opener came in time */
	struct completion	wdone, odone;
	int			opened;		/* tries swapped and opened */
	int			early;		/* opens returned before the commit */
	int			found;		/* the held event found whole */
};

/* Try n: reserve, tell the opener, hold OPEN_HOLD_NS once it opens. */
static int open_writer_fn(void *arg)
{
	struct open_state *os = arg;
	struct snap_payload *p;
	struct rbt_buffer *buf;
	u64 t0;
	int n;

	for (n = 1; n <= OPEN_TRIES; n++) {
		preempt_disable();
		buf = rbtr_live_buffer(os->tr);
		p = rbt_reserve(buf, sizeof(*p));
		preempt_enable();
		if (!p) {
			atomic_set_release(&os->committed, n);
			wait_for_completion(&os->odone);
			continue;
		}
		p->magic = SNAP_MAGIC;
		p->cpu = raw_smp_processor_id();
		p->seq = n;
		os->home = buf;
		atomic_set_release(&os->inside, n);
		if (snap_spin_until(&os->swapped, n)) {
			atomic_inc(&os->provoked);
			t0 = local_clock();
			while (local_clock() - t0 < OPEN_HOLD_NS)
				cpu_relax();
		}
		p->check = snap_check(p->cpu, n);
		/*
		 * Still inside (preemption off until the commit): an open that
		 * sees this below n returned while the writer was inside.
		 */
		atomic_set_release(&os->committed, n);
		rbt_unlock_commit(buf);
		/* Let the opener read before the next try. */
		wait_for_completion(&os->odone);
	}
	complete(&os->wdone);
	return 0;
}

/* Try n: swap the writer's buffer away, open the snapshot, check. */
static int open_reader_fn(void *arg)
{
	struct open_state *os = arg;
	struct snap_payload *p;
	struct rbt_buffer *buf;
	struct rbt_event *ev;
	int n, cpu;

	for (n = 1; n <= OPEN_TRIES; n++) {
		while (atomic_read_acquire(&os->inside) < n &&
		       atomic_read_acquire(&os->committed) < n)
			cond_resched();
		if (atomic_read_acquire(&os->inside) == n && !rbtr_snapshot_take(os->tr)) {
			atomic_set_release(&os->swapped, n);
			os->opened++;
			buf = rbtr_reader_open(os->tr, true);
			if (atomic_read_acquire(&os->committed) < n)
				os->early++;
			for_each_online_cpu(cpu)
				while ((ev = rbt_consume(buf, cpu, NULL, NULL))) {
					p = rbt_event_data(ev);
					if (p->magic == SNAP_MAGIC && p->seq == n &&
					    p->check == snap_check(p->cpu, n) && buf == os->home)
						os->found++;
				}
			rbtr_reader_close(os->tr, buf);
		}
		while (atomic_read_acquire(&os->committed) < n)
			cond_resched();
		complete(&os->odone);
	}
	return 0;
}

static void rbtrace_snapshot_open_waits_for_writer(struct kunit *test)
{
	struct open_state *os = kunit_kzalloc(test, sizeof(*os), GFP_KERNEL);
	struct task_struct *wt, *rt;
	int cpus[2];

	KUNIT_ASSERT_NOT_NULL(test, os);
	if (snap_two_cpus(cpus) < 2)
		kunit_skip(test, "needs two CPUs");
	os->tr = snap_trace(test);
	init_completion(&os->wdone);
	init_completion(&os->odone);
	wt = kthread_create_on_cpu(open_writer_fn, os, cpus[0], "rbt_open_w/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(wt));
	rt = kthread_create_on_cpu(open_reader_fn, os, cpus[1], "rbt_open_r/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(rt));
	wake_up_process(wt);
	wake_up_process(rt);
	wait_for_completion(&os->wdone);
	KUNIT_EXPECT_EQ_MSG(test, os->early, 0, "the open returned with a writer inside");
	KUNIT_EXPECT_GT(test, atomic_read(&os->provoked), 0);
	KUNIT_EXPECT_EQ(test, os->found, os->opened);
	kunit_info(test, "%d tries, %d opened, %d with the writer inside at the open, %d found",
		   OPEN_TRIES, os->opened, atomic_read(&os->provoked), os->found);
	snap_trace_free(os->tr);
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
	KUNIT_CASE_SLOW(rbtrace_snapshot_swap_twice_inside_writes),
	KUNIT_CASE(rbtrace_snapshot_open_waits_for_writer),
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
