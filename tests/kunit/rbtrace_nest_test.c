// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: stamps of events written by interrupts that nest in a writer.
 *
 * The reserve path has a test hook at each labelled step of seed 000's
 * algorithm (RBT_HOOK_A .. RBT_HOOK_E, and RBT_HOOK_COMMIT before the
 * outermost commit publishes). A task-context writer (the parent) is
 * interrupted there by a softirq, an hrtimer, an irq_work or an NMI whose
 * handler writes two events of its own. Every writer reads the clock just
 * before reserving and just after committing; after the run the buffer is
 * drained and each decoded stamp must lie inside its own window and inside
 * its parent's, nested events must have increasing stamps, and the stream
 * must never go backwards.
 *
 * With the ticking clock no two events share a true stamp, so a decoded
 * stamp equal to the one before it can only be a delta the writer forced
 * to zero: their number must equal the ts_lost counter. Where the parent is
 * interrupted decides how many there are (seed 000):
 *
 *  A       between reading the stamps and B. The nested events complete,
 *          then the parent sets before_stamp to its older stamp; in the
 *          slow path (its index moved) before != write_stamp, so the
 *          stamp of the event in front of it is unknown: delta 0. 1 lost.
 *  B       between B and C. The nested writer sees before != write and
 *          takes an absolute stamp; it leaves before == write == its own
 *          stamp, which the parent's slow path finds consistent: an exact
 *          delta. 0 lost.
 *  C, D    after the reservation: the parent's delta was fixed at A from
 *          the event physically before it. The nested events follow it
 *          (absolute at C, where before != write). 0 lost.
 *  B+E     B forces the slow path, then E interrupts it after it read
 *          write_stamp: the reservation after ours shows at F, so the
 *          parent repeats the stamp in front of it. 1 lost.
 *  COMMIT  everything settled: plain deltas. 0 lost.
 *
 * The same runs with trace_clock_local() check the windows on real time.
 * "cross" runs make the parent's event too big for what is left of the
 * tail page, so that the interrupts land inside the page crossing.
 * "first" runs have no event before the parent's: it starts the page, and
 * so may the nested ones. "jump" runs move the clock 2^28 ns on after the
 * nested events: a delta that needs a time extend. At B the parent's slow
 * path finds it, with no room reserved for an extend: it repeats the stamp
 * in front of it instead (1 lost); elsewhere the extend is reserved at A.
 * "abs" runs use a buffer in absolute-stamp mode: every event carries its
 * own stamp, so none is ever lost, wherever it is interrupted.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "rbt_kunit.h"

#define NEST_BUF_SIZE	(64 * 1024)
#define NEST_MAX_RECS	64
#define NEST_PARENT_LEN	16	/* the parent's payload */
#define NEST_CROSS_LEN	200	/* ... when it must cross the page */
#define NEST_CROSS_ROOM	100	/* room left on the tail page then */

static const enum rbt_scn_op nest_body_two[] = { RBT_SCN_WRITE, RBT_SCN_WRITE };
static const enum rbt_scn_op nest_body_jump[] = {
	RBT_SCN_WRITE, RBT_SCN_WRITE, RBT_SCN_JUMP,
};

struct nest_param {
	const char	*name;
	unsigned int	points;		/* hook points the parent is interrupted at */
	bool		tick;		/* ticking clock, else trace_clock_local() */
	bool		cross;		/* the parent's event crosses the page */
	int		ts_lost;	/* expected, or -1: not predicted */
	int		before;		/* nested events expected before the parent */
	bool		first;		/* no leader: the parent starts the page */
	bool		jump;		/* nested writers move the clock 2^28 on */
	bool		abs;		/* absolute-stamp mode */
};

#define P(pt)		BIT(RBT_HOOK_##pt)
#define NEST_PARAM(n, pts, t, c, lost, bef) \
	{ .name = n, .points = pts, .tick = t, .cross = c, .ts_lost = lost, .before = bef }
#define NEST_FIRST(n, pts, lost, bef) \
	{ .name = n, .points = pts, .tick = true, .ts_lost = lost, .before = bef, .first = true }
#define NEST_JUMP(n, pts, lost, bef) \
	{ .name = n, .points = pts, .tick = true, .ts_lost = lost, .before = bef, .jump = true }
#define NEST_ABS(n, pts, bef) \
	{ .name = n, .points = pts, .tick = true, .ts_lost = 0, .before = bef, .abs = true }

static const struct nest_param nest_params[] = {
	NEST_PARAM("A tick", P(A), true, false, 1, 2),
	NEST_PARAM("B tick", P(B), true, false, 0, 2),
	NEST_PARAM("C tick", P(C), true, false, 0, 0),
	NEST_PARAM("D tick", P(D), true, false, 0, 0),
	NEST_PARAM("B+E tick", P(B) | P(E), true, false, 1, 2),
	NEST_PARAM("COMMIT tick", P(COMMIT), true, false, 0, 0),
	NEST_PARAM("A local", P(A), false, false, 1, 2),
	NEST_PARAM("B local", P(B), false, false, 0, 2),
	NEST_PARAM("C local", P(C), false, false, 0, 0),
	NEST_PARAM("D local", P(D), false, false, 0, 0),
	NEST_PARAM("B+E local", P(B) | P(E), false, false, 1, 2),
	NEST_PARAM("COMMIT local", P(COMMIT), false, false, 0, 0),
	NEST_PARAM("A tick cross", P(A), true, true, -1, 2),
	NEST_PARAM("B tick cross", P(B), true, true, -1, 2),
	NEST_PARAM("C tick cross", P(C), true, true, -1, 2),
	NEST_PARAM("COMMIT tick cross", P(COMMIT), true, true, -1, 2),
	NEST_FIRST("A tick first", P(A), 1, 2),
	NEST_FIRST("B tick first", P(B), 0, 2),
	NEST_FIRST("C tick first", P(C), 0, 0),
	NEST_FIRST("D tick first", P(D), 0, 0),
	NEST_FIRST("B+E tick first", P(B) | P(E), 1, 2),
	NEST_FIRST("COMMIT tick first", P(COMMIT), 0, 0),
	NEST_JUMP("A tick jump", P(A), 1, 2),
	NEST_JUMP("B tick jump", P(B), 1, 2),
	NEST_JUMP("C tick jump", P(C), 0, 0),
	NEST_JUMP("D tick jump", P(D), 0, 0),
	NEST_JUMP("B+E tick jump", P(B) | P(E), 1, 2),
	NEST_JUMP("COMMIT tick jump", P(COMMIT), 0, 0),
	NEST_ABS("A tick abs", P(A), 2),
	NEST_ABS("B+E tick abs", P(B) | P(E), 2),
	NEST_ABS("C tick abs", P(C), 0),
};

static void nest_param_desc(const struct nest_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nest_points, nest_params, nest_param_desc);

/*
 * Leave exactly NEST_CROSS_ROOM bytes on the tail page, with one filler
 * event (recorded, so that it is matched when the buffer is drained).
 */
static void nest_fill_page(struct kunit *test, struct rbt_scn *s)
{
	unsigned long left = rbt_subbuf_size(s->buf) - rbt_tail_write(s->buf, s->cpu);
	unsigned long fill = left - NEST_CROSS_ROOM;	/* event bytes, long type */

	KUNIT_ASSERT_GT(test, fill, 124UL);
	rbt_scn_write(s, fill - 8, false);
	KUNIT_ASSERT_EQ(test, rbt_tail_write(s->buf, s->cpu),
			(unsigned long)rbt_subbuf_size(s->buf) - NEST_CROSS_ROOM);
}

/* The tail page, decoded: in absolute mode, every event stamped. */
static void nest_expect_all_stamped(struct kunit *test, struct rbt_scn *s)
{
	struct rbt_kev *kev = kunit_kcalloc(test, NEST_MAX_RECS, sizeof(*kev), GFP_KERNEL);
	struct rb_page *page = rbt_cpu(s->buf, s->cpu)->tail_page;
	int i, n;

	KUNIT_ASSERT_NOT_NULL(test, kev);
	n = rbt_walk(page->page, rb_page_commit(page), kev, NEST_MAX_RECS);
	KUNIT_EXPECT_EQ(test, n, s->nrec);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ_MSG(test, kev[i].prefix, (unsigned int)RB_TYPE_TIME_STAMP,
				    "event %d of the page", i);
}

/* Leader, parent (interrupted as @p says), follower; then drain and check. */
static void nest_run(struct kunit *test, enum rbt_nest_kind kind,
		     const struct nest_param *p)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, NEST_BUF_SIZE,
						 p->abs ? RBT_FL_ABS_TS : 0, 0);
	struct rbt_scn *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int cpu = rbt_kunit_pin(test);
	struct rbt_scn_rec *parent;
	struct rbt_cpu_stats st;
	int i, pid, nested = 0, before = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	rbt_scn_init(test, s, buf, cpu, p->tick ? rbt_tick_clock : trace_clock_local,
		     NEST_MAX_RECS);
	s->body = p->jump ? nest_body_jump : nest_body_two;
	s->body_len = p->jump ? ARRAY_SIZE(nest_body_jump) : ARRAY_SIZE(nest_body_two);
	rbt_scn_hook_on(test, s);

	if (!p->first)
		rbt_scn_write(s, 16, false);		/* leader */
	if (p->cross)
		nest_fill_page(test, s);
	s->fire[0] = p->points;
	s->kind[0] = kind;
	pid = rbt_scn_write(s, p->cross ? NEST_CROSS_LEN : NEST_PARENT_LEN, false);
	s->fire[0] = 0;
	rbt_scn_write(s, 16, false);			/* follower */

	st = rbt_stats(test, buf, cpu);
	if (p->abs)
		nest_expect_all_stamped(test, s);
	rbt_scn_drain(s);
	rbt_scn_check(test, s, p->tick);

	/* Every requested point was reached, and interrupted the parent. */
	KUNIT_EXPECT_EQ(test, s->rec[pid].fired, (int)p->points);
	parent = &s->rec[pid];
	for (i = 0; i < s->nrec; i++) {
		if (s->rec[i].parent != pid)
			continue;
		nested++;
		KUNIT_EXPECT_EQ_MSG(test, s->rec[i].level, rbt_nest_level(kind), "event %d", i);
		before += s->rec[i].pos >= 0 && s->rec[i].pos < parent->pos;
	}
	KUNIT_EXPECT_EQ(test, nested, 2 * hweight32(p->points));
	KUNIT_EXPECT_EQ_MSG(test, before, p->before,
			    "nested events placed in front of the parent's");

	KUNIT_EXPECT_EQ(test, st.written, (u64)s->nrec);
	KUNIT_EXPECT_EQ(test, st.recursion, 0ULL);
	if (p->ts_lost >= 0)
		KUNIT_EXPECT_EQ(test, st.ts_lost, (u64)p->ts_lost);
	/*
	 * Every event whose delta was forced to zero repeats the stamp in
	 * front of it; with the ticking clock nothing else can.
	 */
	if (p->tick)
		KUNIT_EXPECT_EQ(test, (u64)s->zero_deltas, st.ts_lost);
	else
		KUNIT_EXPECT_GE(test, (u64)s->zero_deltas, st.ts_lost);
}

static void rbtrace_nest_softirq_at_each_step(struct kunit *test)
{
	nest_run(test, RBT_NEST_SOFTIRQ, test->param_value);
}

static void rbtrace_nest_hrtimer_at_each_step(struct kunit *test)
{
	nest_run(test, RBT_NEST_HRTIMER, test->param_value);
}

static void rbtrace_nest_irq_work_at_each_step(struct kunit *test)
{
	nest_run(test, RBT_NEST_IRQ_WORK, test->param_value);
}

static void rbtrace_nest_nmi_at_each_step(struct kunit *test)
{
	KUNIT_ASSERT_TRUE_MSG(test, rbt_nester.nmi_registered,
			      "no NMI handler: this kernel cannot raise a self-NMI");
	nest_run(test, RBT_NEST_NMI, test->param_value);
}

/*
 * Interrupts that interrupt interrupts: task < softirq < hard IRQ < NMI.
 * The task's writer is interrupted at points[0] by kinds[0], whose writer
 * is interrupted at points[1] by kinds[1], and so on.
 */
struct nest_stack {
	const char		*name;
	unsigned int		points[3];
	enum rbt_nest_kind	kinds[3];
	int			depth;
};

static const struct nest_stack nest_stacks[] = {
	{ "softirq@B hrtimer@C NMI@D", { P(B), P(C), P(D) },
	  { RBT_NEST_SOFTIRQ, RBT_NEST_HRTIMER, RBT_NEST_NMI }, 3 },
	{ "softirq@A irq_work@B NMI@C", { P(A), P(B), P(C) },
	  { RBT_NEST_SOFTIRQ, RBT_NEST_IRQ_WORK, RBT_NEST_NMI }, 3 },
	{ "softirq@D hrtimer@A NMI@B", { P(D), P(A), P(B) },
	  { RBT_NEST_SOFTIRQ, RBT_NEST_HRTIMER, RBT_NEST_NMI }, 3 },
	{ "irq_work@C NMI@A", { P(C), P(A) },
	  { RBT_NEST_IRQ_WORK, RBT_NEST_NMI }, 2 },
	{ "hrtimer@B+E NMI@B+E", { P(B) | P(E), P(B) | P(E) },
	  { RBT_NEST_HRTIMER, RBT_NEST_NMI }, 2 },
};

static void nest_stack_desc(const struct nest_stack *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nest_stacks, nest_stacks, nest_stack_desc);

static void rbtrace_nest_stacked_contexts(struct kunit *test)
{
	const struct nest_stack *p = test->param_value;
	struct rbt_buffer *buf = rbt_kunit_alloc(test, NEST_BUF_SIZE, 0, 0);
	struct rbt_scn *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st;
	int l, i, deepest = 0;

	KUNIT_ASSERT_NOT_NULL(test, s);
	if (p->kinds[p->depth - 1] == RBT_NEST_NMI)
		KUNIT_ASSERT_TRUE(test, rbt_nester.nmi_registered);
	rbt_scn_init(test, s, buf, cpu, rbt_tick_clock, NEST_MAX_RECS);
	s->body = nest_body_two;
	s->body_len = ARRAY_SIZE(nest_body_two);
	rbt_scn_hook_on(test, s);

	rbt_scn_write(s, 16, false);
	for (i = 0, l = 0; i < p->depth; l = rbt_nest_level(p->kinds[i++])) {
		s->fire[l] = p->points[i];
		s->kind[l] = p->kinds[i];
	}
	rbt_scn_write(s, NEST_PARENT_LEN, false);
	for (l = 0; l < RBT_SCN_LEVELS; l++) {
		KUNIT_EXPECT_EQ_MSG(test, s->fire[l], 0U,
				    "writer at level %d never interrupted", l);
		s->fire[l] = 0;
	}
	rbt_scn_write(s, 16, false);

	st = rbt_stats(test, buf, cpu);
	rbt_scn_drain(s);
	rbt_scn_check(test, s, true);
	for (i = 0; i < s->nrec; i++)
		deepest = max(deepest, s->rec[i].level);
	KUNIT_EXPECT_EQ(test, deepest, rbt_nest_level(p->kinds[p->depth - 1]));
	KUNIT_EXPECT_EQ(test, st.written, (u64)s->nrec);
	KUNIT_EXPECT_EQ(test, (u64)s->zero_deltas, st.ts_lost);
}

/*
 * Random interrupts at random steps, nesting up to NMI, over many events
 * and page crossings (the COMMIT hook also fires inside a crossing).
 */
#define NEST_STORM_EVENTS	400
#define NEST_STORM_RECS		4096

static void rbtrace_nest_storm_keeps_stamps_in_order(struct kunit *test)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 512 * 1024, 0, 0);
	struct rbt_scn *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats st;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_TRUE(test, rbt_nester.nmi_registered);
	rbt_scn_init(test, s, buf, cpu, rbt_tick_clock, NEST_STORM_RECS);
	s->storm = true;
	rbt_scn_hook_on(test, s);

	for (i = 0; i < NEST_STORM_EVENTS && !s->errors; i++)
		rbt_scn_write(s, 16 + 4 * (i % 40), false);
	WRITE_ONCE(rbt_scn_cur, NULL);

	st = rbt_stats(test, buf, cpu);
	rbt_scn_drain(s);
	rbt_scn_check(test, s, true);
	/* The storm did nest, and crossed pages while it did. */
	KUNIT_EXPECT_GT(test, s->nrec, NEST_STORM_EVENTS * 3 / 2);
	KUNIT_EXPECT_GT(test, st.pages_touched, 2ULL);
	KUNIT_EXPECT_EQ(test, st.written, (u64)s->nrec);
	KUNIT_EXPECT_EQ(test, st.dropped + st.commit_overrun + st.overrun, 0ULL);
	KUNIT_EXPECT_EQ(test, (u64)s->zero_deltas, st.ts_lost);
}

/*
 * An interrupt storm inside the outermost commit. Each interrupt that
 * writes while the outermost writer publishes (RBT_HOOK_COMMIT, then
 * RBT_HOOK_COMMIT_LAP after each of its stores) leaves its event to it,
 * and it looks again: one more lap. More than a thousand laps is load,
 * not a broken ring: recording must stay on and every event be read.
 * A storm that outlasts RB_COMMIT_WAIT_NS makes the outermost writer stop
 * looking, quietly: what it left is published by the next commit.
 */
#define CL_STORM_NESTS	1100	/* more than the old bound of 1000 laps */
#define CL_MAGIC	0x636c6170	/* "clap" */

struct cl_storm {
	struct rbt_buffer	*buf;
	enum rbt_nest_kind	kind;
	int			nests;		/* interrupts to raise */
	int			fired;		/* raised so far */
	int			spin_at;	/* at this one, outlast the bound */
	int			errors;
	int			first_error;
	u32			next_id;
};

static struct cl_storm *cl_cur;

static void cl_write(struct rbt_buffer *buf, u32 id)
{
	u32 payload[4] = { CL_MAGIC, id, ~id, 0 };

	rbt_write(buf, sizeof(payload), payload);
}

static void cl_nested(void *arg)
{
	struct cl_storm *st = arg;

	cl_write(st->buf, st->next_id++);
}

static void cl_hook(struct rbt_buffer *buffer, int point)
{
	struct cl_storm *st = READ_ONCE(cl_cur);
	u64 t0;
	int err;

	if (!st || buffer != st->buf || interrupt_context_level() ||
	    (point != RBT_HOOK_COMMIT && point != RBT_HOOK_COMMIT_LAP) ||
	    st->fired >= st->nests)
		return;
	st->fired++;
	err = rbt_nest(st->kind, cl_nested, st);
	if (err && !st->errors++)
		st->first_error = err;
	if (st->fired != st->spin_at)
		return;
	/* An interrupt-bound CPU, for longer than the commit's bound. */
	t0 = ktime_get_mono_fast_ns();
	while (ktime_get_mono_fast_ns() - t0 < RB_COMMIT_WAIT_NS + RB_COMMIT_WAIT_NS / 10)
		cpu_relax();
}

static void cl_unhook(void *unused)
{
	WRITE_ONCE(rbt_test_hook, NULL);
	WRITE_ONCE(cl_cur, NULL);
}

/* Consume @cpu: how many of our events, each id once, in order. */
static int cl_drain(struct kunit *test, struct rbt_buffer *buf, int cpu,
		    u32 *next)
{
	struct rbt_event *ev;
	const u32 *p;
	int n = 0;

	while ((ev = rbt_consume(buf, cpu, NULL, NULL))) {
		p = rbt_event_data(ev);
		if (rbt_event_length(ev) < 16 || p[0] != CL_MAGIC)
			continue;
		KUNIT_EXPECT_EQ(test, p[2], ~p[1]);
		KUNIT_EXPECT_EQ_MSG(test, p[1], *next, "event %d", n);
		*next = p[1] + 1;
		n++;
	}
	return n;
}

static void cl_run(struct kunit *test, enum rbt_nest_kind kind, int nests, int spin_at)
{
	struct rbt_buffer *buf = rbt_kunit_alloc(test, 256 * 1024, 0, 0);
	struct cl_storm *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	int cpu = rbt_kunit_pin(test);
	struct rbt_cpu_stats s;
	u64 t0, ns;
	u32 next = 0;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, st);
	if (kind == RBT_NEST_NMI)
		KUNIT_ASSERT_TRUE(test, rbt_nester.nmi_registered);
	cl_write(buf, 0);	/* a leader: the parent is not first on its page */
	*st = (struct cl_storm){ .buf = buf, .kind = kind, .nests = nests,
				 .spin_at = spin_at, .next_id = 2 };
	WRITE_ONCE(cl_cur, st);
	WRITE_ONCE(rbt_test_hook, cl_hook);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cl_unhook, NULL), 0);

	/* The parent: its commit is interrupted @nests times. */
	t0 = ktime_get_mono_fast_ns();
	cl_write(buf, 1);
	ns = ktime_get_mono_fast_ns() - t0;
	cl_unhook(NULL);
	kunit_info(test, "%d interrupts in the parent's commit, %llu us\n",
		   st->fired, ns / NSEC_PER_USEC);
	KUNIT_ASSERT_EQ_MSG(test, st->errors, 0, "an interrupt did not come right: %d",
			    st->first_error);
	KUNIT_EXPECT_EQ(test, st->fired, nests);
	KUNIT_EXPECT_TRUE_MSG(test, rbt_record_is_on(buf),
			      "an interrupt storm in a commit stopped recording for good");
	s = rbt_stats(test, buf, cpu);
	KUNIT_EXPECT_EQ(test, s.written, (u64)nests + 2);
	KUNIT_EXPECT_EQ(test, s.dropped + s.commit_overrun, 0ULL);

	n = cl_drain(test, buf, cpu, &next);
	if (!spin_at) {
		/* The outermost writer published every nested event. */
		KUNIT_EXPECT_EQ(test, n, nests + 2);
	} else {
		/*
		 * It stopped looking at the lap after the interrupt that
		 * outlasted the bound: that one's event waits for the next
		 * commit, which publishes it with its own.
		 */
		KUNIT_EXPECT_EQ(test, n, nests + 1);
		cl_write(buf, next + 1);
		KUNIT_EXPECT_EQ(test, cl_drain(test, buf, cpu, &next), 2);
	}
	KUNIT_EXPECT_TRUE(test, rbt_record_is_on(buf));
}

static const enum rbt_nest_kind cl_kinds[] = { RBT_NEST_IRQ_WORK, RBT_NEST_NMI };

static void cl_kind_desc(const enum rbt_nest_kind *k, char *desc)
{
	strscpy(desc, *k == RBT_NEST_NMI ? "NMI" : "irq_work", KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cl_kinds, cl_kinds, cl_kind_desc);

static void rbtrace_nest_commit_storm_keeps_recording(struct kunit *test)
{
	cl_run(test, *(const enum rbt_nest_kind *)test->param_value, CL_STORM_NESTS, 0);
}

static void rbtrace_nest_commit_storm_past_the_bound(struct kunit *test)
{
	cl_run(test, RBT_NEST_IRQ_WORK, 6, 6);
}

static int rbtrace_nest_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_nest_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_nest_cases[] = {
	KUNIT_CASE_PARAM(rbtrace_nest_softirq_at_each_step, nest_points_gen_params),
	KUNIT_CASE_PARAM(rbtrace_nest_hrtimer_at_each_step, nest_points_gen_params),
	KUNIT_CASE_PARAM(rbtrace_nest_irq_work_at_each_step, nest_points_gen_params),
	KUNIT_CASE_PARAM(rbtrace_nest_nmi_at_each_step, nest_points_gen_params),
	KUNIT_CASE_PARAM(rbtrace_nest_stacked_contexts, nest_stacks_gen_params),
	KUNIT_CASE(rbtrace_nest_storm_keeps_stamps_in_order),
	KUNIT_CASE_PARAM(rbtrace_nest_commit_storm_keeps_recording, cl_kinds_gen_params),
	KUNIT_CASE_SLOW(rbtrace_nest_commit_storm_past_the_bound),
	{}
};

static struct kunit_suite rbtrace_nest_suite = {
	.name = "rbtrace_nest",
	.suite_init = rbtrace_nest_suite_init,
	.suite_exit = rbtrace_nest_suite_exit,
	.test_cases = rbtrace_nest_cases,
};

kunit_test_suite(rbtrace_nest_suite);

