// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the duration filter (tracing_thresh) keeps exactly the pairs that
 * lasted at least the threshold.
 *
 * The filter's matching is pure functions over slots (rbtr_duration.h):
 * the cases drive them with a scripted clock, so every duration is known.
 *
 *  - edges: a pair of threshold - 1 is dropped, of threshold and
 *    threshold + 1 kept, with its start time and entry fields.
 *  - matching: wrong instance, wrong generation, a second exit, a clock
 *    that went back, another task hashed to the same slot (collision),
 *    a busy slot, a reused pid: never a kept pair.
 *  - script: a syscall, in it a softirq, in it a soft hrtimer, in it a
 *    hard IRQ and a hard hrtimer, on two CPUs, with a syscall and a work
 *    item that migrate and a work item that sleeps while another runs:
 *    the exact verdict and duration of every exit.
 *  - random: random well-nested pairs on several CPUs and tasks, with
 *    durations around the threshold, against an oracle that knows each.
 *  - real contexts: the slot of a per-CPU pair is chosen by the context
 *    the probe runs in: a softirq, and a hard IRQ nested in it, on this
 *    CPU, each with its own slot while the task's syscall is pending.
 *  - other CPUs: a writer on another CPU hammers the shared per-task
 *    table (its own pids and pids colliding with ours) and its own
 *    per-CPU slots while this CPU runs pairs: every kept pair carries its
 *    own start and fields (no torn copy), pairs of pids nobody collides
 *    with are all judged exactly, and collisions are only ever losses.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "rbt_kunit.h"
#include "tracer/duration.h"

#define DUR_THRESH	100
#define DUR_GEN		2

/* ---- helpers ------------------------------------------------------------ */

static struct rbtr_dur_table *dur_table(struct kunit *test, unsigned int bits)
{
	struct rbtr_dur_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->bits = bits;
	t->slot = kunit_kcalloc(test, 1U << bits, sizeof(*t->slot), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->slot);
	return t;
}

static struct rbtr_dur_tkey dur_key(pid_t pid, u64 cookie, unsigned long key)
{
	return (struct rbtr_dur_tkey){ .pid = pid, .cookie = cookie, .key = key };
}

/* A pid other than @pid in the same slot of @t. */
static pid_t dur_colliding_pid(struct rbtr_dur_table *t, pid_t pid)
{
	pid_t p;

	for (p = pid + 1; p < pid + 100000; p++)
		if (rbtr_dur_tslot_of(t, p) == rbtr_dur_tslot_of(t, pid))
			return p;
	return 0;
}

/* ---- edges and matching -------------------------------------------------- */

static void dur_edges(struct kunit *test)
{
	static const struct { u64 d; enum rbtr_dur_verdict v; } cases[] = {
		{ 0, RBTR_DUR_SHORT }, { DUR_THRESH - 1, RBTR_DUR_SHORT },
		{ DUR_THRESH, RBTR_DUR_KEEP }, { DUR_THRESH + 1, RBTR_DUR_KEEP },
		{ 1000000, RBTR_DUR_KEEP },
	};
	struct rbtr_dur_table *t = dur_table(test, 4);
	const unsigned long data[2] = { 0xf00d, 42 };
	struct rbtr_dur_slot s = {};
	struct rbtr_dur_match m;
	struct rbtr_dur_tkey k;
	unsigned int i;
	u64 start;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		start = 1000 * (i + 1);
		memset(&m, 0, sizeof(m));
		rbtr_dur_cpu_enter(&s, 7, start, DUR_GEN, data[0], data[1]);
		KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 7, start + cases[i].d, DUR_GEN,
							DUR_THRESH, &m), cases[i].v);
		KUNIT_EXPECT_EQ(test, m.start, start);
		KUNIT_EXPECT_EQ(test, m.delta, cases[i].d);
		KUNIT_EXPECT_EQ(test, m.data[0], data[0]);
		KUNIT_EXPECT_EQ(test, m.data[1], data[1]);

		k = dur_key(300 + i, 5, 0);
		memset(&m, 0, sizeof(m));
		KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &k, start, DUR_GEN, data, 2), 0);
		KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &k, start + cases[i].d, DUR_GEN,
							 DUR_THRESH, &m, 2), cases[i].v);
		KUNIT_EXPECT_EQ(test, m.start, start);
		KUNIT_EXPECT_EQ(test, m.delta, cases[i].d);
		KUNIT_EXPECT_EQ(test, m.data[0], data[0]);
		KUNIT_EXPECT_EQ(test, m.data[1], data[1]);
	}
}

static void dur_cpu_matching(struct kunit *test)
{
	struct rbtr_dur_slot s = {};
	struct rbtr_dur_match m;

	/* Nothing saved. */
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 500, DUR_GEN, 1, &m), RBTR_DUR_UNMATCHED);
	/* Another instance's exit leaves the entry to its own. */
	rbtr_dur_cpu_enter(&s, 1, 100, DUR_GEN, 0, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 2, 500, DUR_GEN, 1, &m), RBTR_DUR_UNMATCHED);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 500, DUR_GEN, 1, &m), RBTR_DUR_KEEP);
	/* Consumed: a second exit does not match. */
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 600, DUR_GEN, 1, &m), RBTR_DUR_UNMATCHED);
	/* Saved under another generation, or matched during a change (gen 0). */
	rbtr_dur_cpu_enter(&s, 1, 100, DUR_GEN, 0, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 500, DUR_GEN + 2, 1, &m),
			RBTR_DUR_UNMATCHED);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 500, 0, 1, &m), RBTR_DUR_UNMATCHED);
	rbtr_dur_cpu_enter(&s, 1, 100, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 500, 0, 1, &m), RBTR_DUR_UNMATCHED);
	/* A clock that went back. */
	rbtr_dur_cpu_enter(&s, 1, 100, DUR_GEN, 0, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 99, DUR_GEN, 1, &m), RBTR_DUR_UNMATCHED);
	/* A newer entry at the same level replaces one whose exit never came. */
	rbtr_dur_cpu_enter(&s, 1, 100, DUR_GEN, 0, 0);
	rbtr_dur_cpu_enter(&s, 1, 300, DUR_GEN, 0, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_cpu_exit(&s, 1, 450, DUR_GEN, DUR_THRESH, &m),
			RBTR_DUR_KEEP);
	KUNIT_EXPECT_EQ(test, m.delta, 150ULL);
}

static void dur_task_matching(struct kunit *test)
{
	struct rbtr_dur_table *t = dur_table(test, 4);
	struct rbtr_dur_tkey a = dur_key(100, 11, 0), b, reused, w;
	struct rbtr_dur_tslot *slot;
	enum rbtr_dur_verdict v;
	struct rbtr_dur_match m;
	pid_t other;

	other = dur_colliding_pid(t, 100);
	KUNIT_ASSERT_NE(test, other, 0);
	b = dur_key(other, 12, 0);

	/* Nothing saved. */
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &a, 500, DUR_GEN, 1, &m, 0),
			RBTR_DUR_UNMATCHED);
	/* b's entry replaces a's: a's exit is a loss, b's is kept. */
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &a, 100, DUR_GEN, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &b, 200, DUR_GEN, NULL, 0), 1);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &a, 500, DUR_GEN, 1, &m, 0),
			RBTR_DUR_COLLISION);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &b, 500, DUR_GEN, 1, &m, 0), RBTR_DUR_KEEP);
	KUNIT_EXPECT_EQ(test, m.start, 200ULL);
	/* Consumed, and an entry of an older generation is no collision. */
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &b, 600, DUR_GEN, 1, &m, 0),
			RBTR_DUR_UNMATCHED);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &a, 100, DUR_GEN, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &b, 200, DUR_GEN + 2, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &b, 300, DUR_GEN, 1, &m, 0),
			RBTR_DUR_UNMATCHED);
	/*
	 * A task that died in a syscall; its pid reused by a new task, whose
	 * first record is an exit (a child returning from fork).
	 */
	reused = dur_key(100, 99, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &a, 100, DUR_GEN, NULL, 0), 0);
	v = rbtr_dur_task_exit(t, &reused, 900, DUR_GEN, 1, &m, 0);
	KUNIT_EXPECT_TRUE(test, v == RBTR_DUR_UNMATCHED || v == RBTR_DUR_COLLISION);
	/* Another work item's end does not match this one's start. */
	w = dur_key(100, 11, 0xabc0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &w, 100, DUR_GEN, NULL, 0), 0);
	w.key = 0xdef0;
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &w, 900, DUR_GEN, 1, &m, 0),
			RBTR_DUR_UNMATCHED);
	/* A slot owned by a writer right now (odd count): no wait, a loss. */
	slot = rbtr_dur_tslot_of(t, 100);
	atomic_inc(&slot->seq);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &a, 100, DUR_GEN, NULL, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &a, 900, DUR_GEN, 1, &m, 0),
			RBTR_DUR_COLLISION);
	atomic_inc(&slot->seq);
	/* Released: usable again. */
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(t, &a, 100, DUR_GEN, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(t, &a, 900, DUR_GEN, 1, &m, 0), RBTR_DUR_KEEP);
}

/* ---- the scripted sequence ----------------------------------------------- */

#define NCPU	2

struct dur_env {
	struct rbtr_dur_cpu	cpu[RBTR_PAIR_NR][NCPU];
	struct rbtr_dur_table	*task[RBTR_PAIR_NR];
	u64			thresh;
	unsigned int		gen;
};

/* One event of a script: an entry or an exit of one pair. */
struct dur_step {
	u64			t;
	bool			exit;
	enum rbtr_pair_id		pair;
	int			cpu;		/* per-CPU pairs: where */
	int			level;		/* ... at which context level */
	pid_t			pid;		/* per-task pairs: which task */
	unsigned long		key;		/* IRQ, vector, hrtimer, work */
	/* exits: what the filter must say */
	enum rbtr_dur_verdict	verdict;
	u64			delta;
};

static bool dur_per_task(enum rbtr_pair_id pair)
{
	return pair == RBTR_PAIR_WORK || pair == RBTR_PAIR_SYSCALL;
}

static void dur_env_init(struct kunit *test, struct dur_env *env, u64 thresh)
{
	int i;

	memset(env->cpu, 0, sizeof(env->cpu));
	for (i = 0; i < RBTR_PAIR_NR; i++)
		env->task[i] = dur_per_task(i) ? dur_table(test, 8) : NULL;
	env->thresh = thresh;
	env->gen = DUR_GEN;
}

/*
 * Run one step as the probes would. An entry keeps fields derived from
 * its key and start, so that an exit can check it got its own entry's.
 */
static enum rbtr_dur_verdict dur_run(struct dur_env *env, const struct dur_step *s,
				     struct rbtr_dur_match *m)
{
	unsigned long data[RBTR_DUR_DATA];
	struct rbtr_dur_tkey k;
	unsigned int i;

	for (i = 0; i < RBTR_DUR_DATA; i++)
		data[i] = s->key * 1000 + s->pid + i;
	if (dur_per_task(s->pair)) {
		/* The pid's start time: the same task all along. */
		k = dur_key(s->pid, 1000000 + s->pid, s->key);
		if (!s->exit) {
			rbtr_dur_task_enter(env->task[s->pair], &k, s->t, env->gen, data,
					    RBTR_DUR_DATA);
			return RBTR_DUR_NR_VERDICTS;
		}
		return rbtr_dur_task_exit(env->task[s->pair], &k, s->t, env->gen, env->thresh,
					m, RBTR_DUR_DATA);
	}
	if (!s->exit) {
		rbtr_dur_cpu_enter(&env->cpu[s->pair][s->cpu].level[s->level], s->key, s->t,
				   env->gen, data[0], data[1]);
		return RBTR_DUR_NR_VERDICTS;
	}
	return rbtr_dur_cpu_exit(&env->cpu[s->pair][s->cpu].level[s->level], s->key, s->t,
			       env->gen, env->thresh, m);
}

/* Check one exit's verdict, duration, start and entry fields. */
static void dur_check(struct kunit *test, const struct dur_step *s, int i,
		      enum rbtr_dur_verdict v, const struct rbtr_dur_match *m)
{
	unsigned int n = dur_per_task(s->pair) ? RBTR_DUR_DATA : RBTR_DUR_CPU_DATA, j;

	KUNIT_EXPECT_EQ_MSG(test, v, s->verdict, "step %d (pair %d, t %llu)", i, s->pair, s->t);
	if (v != s->verdict || (v != RBTR_DUR_KEEP && v != RBTR_DUR_SHORT))
		return;
	KUNIT_EXPECT_EQ_MSG(test, m->delta, s->delta, "step %d", i);
	KUNIT_EXPECT_EQ_MSG(test, m->start, s->t - s->delta, "step %d", i);
	for (j = 0; j < n; j++)
		KUNIT_EXPECT_EQ_MSG(test, m->data[j], s->key * 1000 + s->pid + j,
				    "step %d: entry field %u", i, j);
}

#define ENTER_C(_t, _p, _c, _l, _k) \
	{ .t = _t, .pair = RBTR_PAIR_##_p, .cpu = _c, .level = _l, .key = _k }
#define EXIT_C(_t, _p, _c, _l, _k, _v, _d) \
	{ .t = _t, .exit = true, .pair = RBTR_PAIR_##_p, .cpu = _c, .level = _l, .key = _k, \
	  .verdict = RBTR_DUR_##_v, .delta = _d }
#define ENTER_T(_t, _p, _pid, _k) \
	{ .t = _t, .pair = RBTR_PAIR_##_p, .pid = _pid, .key = _k }
#define EXIT_T(_t, _p, _pid, _k, _v, _d) \
	{ .t = _t, .exit = true, .pair = RBTR_PAIR_##_p, .pid = _pid, .key = _k, \
	  .verdict = RBTR_DUR_##_v, .delta = _d }

/* Threshold 100. Levels: 0 task, 1 softirq, 2 hard IRQ. */
static const struct dur_step dur_script[] = {
	/* CPU 0: task 10 in a syscall ... */
	ENTER_T(0, SYSCALL, 10, 0),
	/* CPU 1: task 20 in a syscall, which will end on CPU 0 */
	ENTER_T(12, SYSCALL, 20, 0),
	/* ... a softirq (TIMER) interrupts it on CPU 0 ... */
	ENTER_C(10, SOFTIRQ, 0, 1, 1),
	/* ... a hard IRQ in the softirq: 25, dropped */
	ENTER_C(15, IRQ, 0, 2, 4),
	EXIT_C(40, IRQ, 0, 2, 4, SHORT, 25),
	/* CPU 1: a hard hrtimer of exactly the threshold: kept */
	ENTER_C(30, HRTIMER, 1, 2, 0xa0),
	/* CPU 0: a soft hrtimer in the softirq ... */
	ENTER_C(45, HRTIMER, 0, 1, 0xc0),
	/* ... a hard IRQ in it: 99, dropped ... */
	ENTER_C(50, IRQ, 0, 2, 5),
	EXIT_C(149, IRQ, 0, 2, 5, SHORT, 99),
	/* ... a hard hrtimer in it: 100, kept (its own slot: level 2) */
	ENTER_C(60, HRTIMER, 0, 2, 0xd0),
	EXIT_C(130, HRTIMER, 1, 2, 0xa0, KEEP, 100),
	EXIT_C(160, HRTIMER, 0, 2, 0xd0, KEEP, 100),
	/* ... the soft hrtimer: 125, kept; the softirq: 170, kept */
	EXIT_C(170, HRTIMER, 0, 1, 0xc0, KEEP, 125),
	EXIT_C(180, SOFTIRQ, 0, 1, 1, KEEP, 170),
	/* task 20's syscall ends on CPU 0: 178, kept */
	EXIT_T(190, SYSCALL, 20, 0, KEEP, 178),
	/*
	 * CPU 1: kworker 30 starts a work item and sleeps; kworker 31 runs
	 * another: 50, dropped; 30 resumes on CPU 0: 101, kept
	 */
	ENTER_T(200, WORK, 30, 0xe0),
	ENTER_T(210, WORK, 31, 0xf0),
	EXIT_T(260, WORK, 31, 0xf0, SHORT, 50),
	EXIT_T(301, WORK, 30, 0xe0, KEEP, 101),
	/* an IRQ pair on CPU 1 just under the threshold */
	ENTER_C(310, IRQ, 1, 2, 9),
	EXIT_C(409, IRQ, 1, 2, 9, SHORT, 99),
	/* task 10's syscall: 400, kept; a second exit matches nothing */
	EXIT_T(400, SYSCALL, 10, 0, KEEP, 400),
	EXIT_T(410, SYSCALL, 10, 0, UNMATCHED, 0),
	/* exits whose entry was never seen (enabled mid-pair) */
	EXIT_C(420, IRQ, 1, 2, 9, UNMATCHED, 0),
	EXIT_C(430, SOFTIRQ, 1, 1, 3, UNMATCHED, 0),
	EXIT_T(440, WORK, 32, 0x100, UNMATCHED, 0),
	/* a child's first record is its return from fork: no entry */
	EXIT_T(450, SYSCALL, 21, 0, UNMATCHED, 0),
};

static void dur_scripted(struct kunit *test)
{
	struct dur_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	int i, kept = 0, want = 0;
	enum rbtr_dur_verdict v;
	struct rbtr_dur_match m;

	KUNIT_ASSERT_NOT_NULL(test, env);
	dur_env_init(test, env, DUR_THRESH);
	for (i = 0; i < ARRAY_SIZE(dur_script); i++) {
		const struct dur_step *s = &dur_script[i];

		memset(&m, 0, sizeof(m));
		v = dur_run(env, s, &m);
		if (!s->exit)
			continue;
		dur_check(test, s, i, v, &m);
		kept += v == RBTR_DUR_KEEP;
		want += s->verdict == RBTR_DUR_KEEP;
	}
	KUNIT_EXPECT_EQ(test, kept, want);
	KUNIT_EXPECT_EQ(test, want, 7);
}

/*
 * Random nesting: on each of NCPU simulated CPUs, a task in a syscall is
 * interrupted by softirqs holding soft hrtimers holding hard IRQs and
 * hard hrtimers; each pair lasts threshold - 2 .. threshold + 2. The
 * steps of all CPUs are interleaved by time, and every exit must get the
 * duration its pair was generated with.
 */
#define RND_STEPS	4096

struct rnd_gen {
	struct dur_step		*steps;
	int			n;
	struct rnd_state	rnd;
};

static u64 rnd_len(struct rnd_gen *g)
{
	return DUR_THRESH - 2 + prandom_u32_state(&g->rnd) % 5;
}

static void rnd_add(struct rnd_gen *g, const struct dur_step *s)
{
	if (g->n < RND_STEPS)
		g->steps[g->n++] = *s;
}

/*
 * Add a pair at @start lasting @len, and the pairs nested in it. Per-CPU
 * pairs of one kind never overlap at one level of one CPU, as in the
 * kernel: each nested pair ends before its parent does.
 */
static void rnd_pair(struct rnd_gen *g, enum rbtr_pair_id pair, int cpu, int level,
		     pid_t pid, unsigned long key, u64 start, u64 len)
{
	struct dur_step s = { .t = start, .pair = pair, .cpu = cpu, .level = level,
			      .pid = pid, .key = key };
	enum rbtr_pair_id inner[] = { RBTR_PAIR_IRQ, RBTR_PAIR_HRTIMER };
	u64 t = start + 1, l;

	rnd_add(g, &s);
	/*
	 * In a softirq or a soft hrtimer (level 1): a hard IRQ or a hard
	 * hrtimer (level 2); in a softirq, then a soft hrtimer after it.
	 */
	if (level == 1 && len > 8) {
		enum rbtr_pair_id p = inner[prandom_u32_state(&g->rnd) % 2];

		l = min(rnd_len(g), len - 4);
		rnd_pair(g, p, cpu, 2, 0, key * 16 + 2, t, l);
		if (pair == RBTR_PAIR_SOFTIRQ && len > l + 8)
			rnd_pair(g, RBTR_PAIR_HRTIMER, cpu, 1, 0, key * 16 + 1, t + l + 2,
				 min(rnd_len(g), len - l - 6));
	}
	s.t = start + len;
	s.exit = true;
	s.delta = len;
	s.verdict = len >= DUR_THRESH ? RBTR_DUR_KEEP : RBTR_DUR_SHORT;
	rnd_add(g, &s);
}

static int rnd_cmp(const void *a, const void *b)
{
	const struct dur_step *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* At one time, exits first: they end what began earlier. */
	return y->exit - x->exit;
}

static void dur_random(struct kunit *test)
{
	struct dur_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	struct rnd_gen g = {};
	int i, cpu, kept = 0, want = 0;
	enum rbtr_dur_verdict v;
	struct rbtr_dur_match m;
	u64 base;

	KUNIT_ASSERT_NOT_NULL(test, env);
	g.steps = kunit_kcalloc(test, RND_STEPS, sizeof(*g.steps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g.steps);
	prandom_seed_state(&g.rnd, 0x7242747261636500ULL);
	dur_env_init(test, env, DUR_THRESH);
	/* One task in syscalls and one kworker per CPU; no two share a slot. */
	KUNIT_ASSERT_PTR_NE(test, rbtr_dur_tslot_of(env->task[RBTR_PAIR_SYSCALL], 10),
			    rbtr_dur_tslot_of(env->task[RBTR_PAIR_SYSCALL], 20));
	KUNIT_ASSERT_PTR_NE(test, rbtr_dur_tslot_of(env->task[RBTR_PAIR_WORK], 11),
			    rbtr_dur_tslot_of(env->task[RBTR_PAIR_WORK], 21));
	for (cpu = 0; cpu < NCPU; cpu++) {
		pid_t sys_pid = 10 + 10 * cpu, work_pid = 11 + 10 * cpu;
		unsigned long key;

		for (base = 1000 * (cpu + 1), key = cpu << 20;
		     g.n < RND_STEPS / NCPU * (cpu + 1) - 64; base += 4 * DUR_THRESH, key++) {
			u64 len = 3 * DUR_THRESH + prandom_u32_state(&g.rnd) % 5 - 2;
			struct dur_step s;

			/* The syscall, a softirq tree in it, a work item after. */
			s = (struct dur_step)ENTER_T(base, SYSCALL, sys_pid, 0);
			rnd_add(&g, &s);
			rnd_pair(&g, RBTR_PAIR_SOFTIRQ, cpu, 1, 0, key * 16, base + 5,
				 min(rnd_len(&g) + DUR_THRESH, len - 10));
			s = (struct dur_step)EXIT_T(base + len, SYSCALL, sys_pid, 0, KEEP, len);
			rnd_add(&g, &s);
			rnd_pair(&g, RBTR_PAIR_WORK, cpu, 0, work_pid, key, base + len + 5,
				 rnd_len(&g));
		}
	}
	sort(g.steps, g.n, sizeof(*g.steps), rnd_cmp, NULL);
	for (i = 0; i < g.n; i++) {
		const struct dur_step *s = &g.steps[i];

		memset(&m, 0, sizeof(m));
		v = dur_run(env, s, &m);
		if (!s->exit)
			continue;
		dur_check(test, s, i, v, &m);
		kept += v == RBTR_DUR_KEEP;
		want += s->verdict == RBTR_DUR_KEEP;
		if (v != s->verdict)
			break;
	}
	KUNIT_EXPECT_EQ(test, kept, want);
	kunit_info(test, "%d steps, %d pairs kept", g.n, kept);
}

/* ---- real contexts: the slot follows the context level ------------------- */

struct ctx_run {
	struct rbtr_dur_cpu __percpu	*irq;
	struct rbtr_dur_cpu __percpu	*softirq;
	struct rbtr_dur_cpu __percpu	*hrtimer;
	struct rbtr_dur_table		*sys;
	struct kunit			*test;
	int				cpu;
	int				err;
	enum rbtr_dur_verdict		v_irq, v_hrtimer, v_softirq;
	struct rbtr_dur_match		m_irq, m_hrtimer, m_softirq;
	int				lvl_irq, lvl_softirq;
};

/* In a hard IRQ: an IRQ pair (50: dropped) and a hard hrtimer (150: kept). */
static void ctx_hardirq(void *arg)
{
	struct ctx_run *c = arg;
	struct rbtr_dur_slot *s = rbtr_dur_cpu_slot(c->irq);

	c->lvl_irq = s - raw_cpu_ptr(c->irq)->level;
	rbtr_dur_cpu_enter(s, 11, 1100, DUR_GEN, 0, 0);
	rbtr_dur_cpu_enter(rbtr_dur_cpu_slot(c->hrtimer), 0xb0, 1110, DUR_GEN, 0xfeed, 0);
	c->v_irq = rbtr_dur_cpu_exit(rbtr_dur_cpu_slot(c->irq), 11, 1150, DUR_GEN, DUR_THRESH,
				     &c->m_irq);
	c->v_hrtimer = rbtr_dur_cpu_exit(rbtr_dur_cpu_slot(c->hrtimer), 0xb0, 1260, DUR_GEN,
					 DUR_THRESH, &c->m_hrtimer);
}

/* In a softirq: a softirq pair (300: kept), a soft hrtimer around the IRQ. */
static void ctx_softirq(void *arg)
{
	struct ctx_run *c = arg;
	struct rbtr_dur_slot *s = rbtr_dur_cpu_slot(c->softirq);
	struct rbtr_dur_match m;

	c->lvl_softirq = s - raw_cpu_ptr(c->softirq)->level;
	rbtr_dur_cpu_enter(s, 1, 1000, DUR_GEN, 0, 0);
	/* A soft hrtimer pending at level 1 while the hard one runs at 2. */
	rbtr_dur_cpu_enter(rbtr_dur_cpu_slot(c->hrtimer), 0xa0, 1050, DUR_GEN, 0xcafe, 0);
	c->err = rbt_nest(RBT_NEST_IRQ_WORK, ctx_hardirq, c);
	if (rbtr_dur_cpu_exit(rbtr_dur_cpu_slot(c->hrtimer), 0xa0, 1290, DUR_GEN, DUR_THRESH,
			      &m) != RBTR_DUR_KEEP || m.delta != 240 || m.data[0] != 0xcafe)
		c->err = c->err ?: -EIO;
	c->v_softirq = rbtr_dur_cpu_exit(rbtr_dur_cpu_slot(c->softirq), 1, 1300, DUR_GEN,
					 DUR_THRESH, &c->m_softirq);
}

static void dur_real_contexts(struct kunit *test)
{
	struct ctx_run *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct rbtr_dur_tkey k;
	struct rbtr_dur_match m;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->test = test;
	c->irq = alloc_percpu(struct rbtr_dur_cpu);
	c->softirq = alloc_percpu(struct rbtr_dur_cpu);
	c->hrtimer = alloc_percpu(struct rbtr_dur_cpu);
	c->sys = dur_table(test, 6);
	if (!c->irq || !c->softirq || !c->hrtimer) {
		KUNIT_FAIL(test, "alloc_percpu failed");
		goto out;
	}
	c->cpu = rbt_kunit_pin(test);
	/* This task in a syscall, pending through all of it. */
	k = dur_key(current->pid, current->start_time, 0);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_enter(c->sys, &k, 900, DUR_GEN, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, rbt_nest(RBT_NEST_SOFTIRQ, ctx_softirq, c), 0);
	KUNIT_EXPECT_EQ(test, c->err, 0);
	KUNIT_EXPECT_EQ(test, c->lvl_softirq, 1);
	KUNIT_EXPECT_EQ(test, c->lvl_irq, 2);
	KUNIT_EXPECT_EQ(test, c->v_irq, RBTR_DUR_SHORT);
	KUNIT_EXPECT_EQ(test, c->m_irq.delta, 50ULL);
	KUNIT_EXPECT_EQ(test, c->v_hrtimer, RBTR_DUR_KEEP);
	KUNIT_EXPECT_EQ(test, c->m_hrtimer.delta, 150ULL);
	KUNIT_EXPECT_EQ(test, c->m_hrtimer.data[0], 0xfeedUL);
	KUNIT_EXPECT_EQ(test, c->v_softirq, RBTR_DUR_KEEP);
	KUNIT_EXPECT_EQ(test, c->m_softirq.delta, 300ULL);
	/* The task level's slots were never touched. */
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(c->irq, c->cpu)->level[0].gen, 0U);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(c->softirq, c->cpu)->level[0].gen, 0U);
	KUNIT_EXPECT_EQ(test, rbtr_dur_task_exit(c->sys, &k, 1400, DUR_GEN, DUR_THRESH, &m, 0),
			RBTR_DUR_KEEP);
	KUNIT_EXPECT_EQ(test, m.delta, 500ULL);
out:
	free_percpu(c->irq);
	free_percpu(c->softirq);
	free_percpu(c->hrtimer);
}

/* ---- writers on other CPUs -------------------------------------------------- */

#define RACE_ITERS	20000
#define RACE_PIDS	8

struct race_side {
	struct rbtr_dur_table		*t;
	struct rbtr_dur_cpu __percpu	*pc;
	pid_t				pid[RACE_PIDS];
	bool				shared[RACE_PIDS];	/* another side uses its slot */
	unsigned long			n[RBTR_DUR_NR_VERDICTS];
	unsigned long			busy, replaced, wrong, exact_miss, cpu_wrong;
	int				cpu;
	u32				salt;
	struct completion		*go;
	struct completion		done;
};

/*
 * Pairs of alternately threshold - 1 and threshold + iteration % 7, with
 * fields that name the pid, the iteration and the side: a kept pair must
 * show its own, whatever the other side wrote in the slot meanwhile.
 */
static void race_run(struct race_side *r)
{
	unsigned long data[RBTR_DUR_DATA];
	struct rbtr_dur_match m;
	enum rbtr_dur_verdict v;
	struct rbtr_dur_tkey k;
	unsigned int i, j, p;
	u64 start, d;
	int ret;

	for (i = 0; i < RACE_ITERS; i++) {
		p = i % RACE_PIDS;
		start = (u64)i * 1000 + r->salt;
		d = i & 1 ? DUR_THRESH + i % 7 : DUR_THRESH - 1;
		for (j = 0; j < RBTR_DUR_DATA; j++)
			data[j] = ((unsigned long)r->salt << 40) | ((unsigned long)i << 8) | j;
		k = dur_key(r->pid[p], r->salt, 0);
		preempt_disable();
		ret = rbtr_dur_task_enter(r->t, &k, start, DUR_GEN, data, RBTR_DUR_DATA);
		r->busy += ret == -EBUSY;
		r->replaced += ret == 1;
		memset(&m, 0, sizeof(m));
		v = rbtr_dur_task_exit(r->t, &k, start + d, DUR_GEN, DUR_THRESH, &m, RBTR_DUR_DATA);
		r->n[v]++;
		if (v == RBTR_DUR_KEEP || v == RBTR_DUR_SHORT) {
			if (m.start != start || m.delta != d ||
			    v != (d >= DUR_THRESH ? RBTR_DUR_KEEP : RBTR_DUR_SHORT))
				r->wrong++;
			for (j = 0; j < RBTR_DUR_DATA; j++)
				if (m.data[j] != data[j])
					r->wrong++;
		} else if (!r->shared[p]) {
			r->exact_miss++;
		}
		/* And a per-CPU pair on this CPU's own slot. */
		rbtr_dur_cpu_enter(rbtr_dur_cpu_slot(r->pc), i, start, DUR_GEN, r->salt, i);
		v = rbtr_dur_cpu_exit(rbtr_dur_cpu_slot(r->pc), i, start + d, DUR_GEN, DUR_THRESH,
				      &m);
		if (v != (d >= DUR_THRESH ? RBTR_DUR_KEEP : RBTR_DUR_SHORT) ||
		    m.data[0] != r->salt || m.data[1] != i)
			r->cpu_wrong++;
		preempt_enable();
		if (!(i % 256))
			cond_resched();
	}
}

static int race_thread(void *arg)
{
	struct race_side *r = arg;

	wait_for_completion(r->go);
	race_run(r);
	complete(&r->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static bool same_slot(struct rbtr_dur_table *t, pid_t a, pid_t b)
{
	return rbtr_dur_tslot_of(t, a) == rbtr_dur_tslot_of(t, b);
}

static void dur_other_cpus(struct kunit *test)
{
	struct race_side *me = kunit_kzalloc(test, sizeof(*me), GFP_KERNEL);
	struct race_side *other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	struct rbtr_dur_cpu __percpu *pc;
	struct completion go;
	struct task_struct *task;
	struct rbtr_dur_table *t;
	int cpu, ocpu, i;

	KUNIT_ASSERT_NOT_NULL(test, me);
	KUNIT_ASSERT_NOT_NULL(test, other);
	cpu = rbt_kunit_pin(test);
	ocpu = cpumask_any_but(cpu_online_mask, cpu);
	if (ocpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	/* A small table: 64 slots for 16 pids, 4 of them forced to collide. */
	t = dur_table(test, 6);
	pc = alloc_percpu(struct rbtr_dur_cpu);
	KUNIT_ASSERT_NOT_NULL(test, pc);
	init_completion(&go);
	for (i = 0; i < RACE_PIDS; i++) {
		me->pid[i] = 1000 + i;
		other->pid[i] = i < 4 ? dur_colliding_pid(t, me->pid[i]) : 5000 + i;
		KUNIT_ASSERT_NE(test, other->pid[i], 0);
	}
	/* Which pids share a slot by chance, beyond the four forced. */
	for (i = 0; i < RACE_PIDS; i++) {
		int j;

		for (j = 0; j < RACE_PIDS; j++) {
			if (same_slot(t, me->pid[i], other->pid[j])) {
				me->shared[i] = true;
				other->shared[j] = true;
			}
			if (j != i && same_slot(t, me->pid[i], me->pid[j]))
				me->shared[i] = true;
			if (j != i && same_slot(t, other->pid[i], other->pid[j]))
				other->shared[i] = true;
		}
	}
	me->t = t;
	other->t = t;
	me->pc = pc;
	other->pc = pc;
	me->salt = 1;
	other->salt = 2;
	me->cpu = cpu;
	other->cpu = ocpu;
	me->go = &go;
	other->go = &go;
	init_completion(&other->done);
	task = kthread_create_on_cpu(race_thread, other, ocpu, "rbt_dur_race/%u");
	if (IS_ERR(task)) {
		free_percpu(pc);
		KUNIT_FAIL(test, "kthread_create_on_cpu: %ld", PTR_ERR(task));
		return;
	}
	wake_up_process(task);
	complete_all(&go);
	race_run(me);
	wait_for_completion(&other->done);
	kthread_stop(task);
	free_percpu(pc);

	for (i = 0; i < 2; i++) {
		struct race_side *r = i ? other : me;

		kunit_info(test,
			   "cpu%d: kept %lu short %lu unmatched %lu lost %lu; busy %lu, replaced %lu",
			   r->cpu, r->n[RBTR_DUR_KEEP], r->n[RBTR_DUR_SHORT],
			   r->n[RBTR_DUR_UNMATCHED], r->n[RBTR_DUR_COLLISION], r->busy,
			   r->replaced);
		KUNIT_EXPECT_EQ_MSG(test, r->wrong, 0UL,
				    "cpu%d: a matched pair with another's data", r->cpu);
		KUNIT_EXPECT_EQ_MSG(test, r->exact_miss, 0UL,
				    "cpu%d: a pair of an unshared slot not judged", r->cpu);
		KUNIT_EXPECT_EQ_MSG(test, r->cpu_wrong, 0UL, "cpu%d: a per-CPU pair misjudged",
				    r->cpu);
		KUNIT_EXPECT_EQ(test, r->n[RBTR_DUR_KEEP] + r->n[RBTR_DUR_SHORT] +
				r->n[RBTR_DUR_UNMATCHED] + r->n[RBTR_DUR_COLLISION],
				(unsigned long)RACE_ITERS);
	}
}

static struct kunit_case dur_cases[] = {
	KUNIT_CASE(dur_edges),
	KUNIT_CASE(dur_cpu_matching),
	KUNIT_CASE(dur_task_matching),
	KUNIT_CASE(dur_scripted),
	KUNIT_CASE(dur_random),
	KUNIT_CASE(dur_real_contexts),
	KUNIT_CASE(dur_other_cpus),
	{}
};

static int dur_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void dur_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_suite dur_suite = {
	.name = "rbtrace_duration",
	.suite_init = dur_suite_init,
	.suite_exit = dur_suite_exit,
	.test_cases = dur_cases,
};

kunit_test_suite(dur_suite);

