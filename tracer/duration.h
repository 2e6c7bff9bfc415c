/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace duration filter: matching the entry and the exit of a pair of
 * events (IRQ handler, softirq, hrtimer callback, work item, syscall).
 *
 * Only pure functions and the tables they work on are here, so that KUnit
 * can drive them with a scripted clock; the probes that call them and the
 * tracing_thresh file are in tp_probes.c and duration.c, whose
 * header comment gives the design.
 *
 * Terms:
 *   gen       the filter's generation: bumped on every change of the
 *             threshold or of which events are enabled. An entry saved
 *             under one generation never matches an exit under another,
 *             so nothing saved before a change can pair with an exit
 *             after it. 0 marks an empty slot, and is what a probe that
 *             ran during a change gets: it matches nothing.
 *   key       what tells two instances of a pair apart at the exit, as
 *             the exit tracepoint sees it: the IRQ number, softirq
 *             vector, hrtimer or work item. Syscalls need none (a task
 *             is in one at a time) and have no reliable one: the exit of
 *             rt_sigreturn sees the restored orig_ax (-1), not its number.
 *
 * Two kinds of tables:
 *
 *   per CPU   (irq, softirq, hrtimer) one slot per interrupt context
 *             level (task, softirq, hard IRQ, NMI). A pair begins and
 *             ends on one CPU at one level, and two instances of one
 *             kind never nest at one level, so the slot of a level has a
 *             single writer and reader: the CPU, at that level. A soft
 *             hrtimer (softirq level) interrupted by a hard one (hard IRQ
 *             level) uses two slots.
 *
 *   per task  (work items, syscalls) which sleep and migrate: a fixed
 *             hash table indexed by pid. Slots are shared between CPUs
 *             and tasks whose pids collide, so each has a sequence count
 *             (odd while a writer owns it): writers claim it with one
 *             cmpxchg and never wait (a busy slot is a collision), and
 *             readers copy it and check the count did not move (a torn
 *             copy is a collision). A task is named by its pid and its
 *             start time, so a pid reused by a new task does not match
 *             the entry of a task that died inside a syscall.
 */
#ifndef _RBTR_DURATION_H
#define _RBTR_DURATION_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/types.h>

enum rbtr_pair_id {
	RBTR_PAIR_IRQ,		/* irq_handler_entry, irq_handler_exit */
	RBTR_PAIR_SOFTIRQ,	/* softirq_entry, softirq_exit */
	RBTR_PAIR_HRTIMER,	/* hrtimer_expire_entry, hrtimer_expire_exit */
	RBTR_PAIR_WORK,		/* workqueue_execute_start, workqueue_execute_end */
	RBTR_PAIR_SYSCALL,	/* sys_enter, sys_exit */
	RBTR_PAIR_NR
};

/* What became of an exit while the filter was on. */
enum rbtr_dur_verdict {
	RBTR_DUR_KEEP,		/* matched; lasted at least the threshold */
	RBTR_DUR_SHORT,		/* matched; shorter: nothing kept */
	RBTR_DUR_UNMATCHED,	/* no entry saved for it (enabled mid-pair, ...) */
	RBTR_DUR_COLLISION,	/* its entry was lost to another task's */
	RBTR_DUR_NR_VERDICTS
};

#define RBTR_DUR_LEVELS	4	/* interrupt_context_level() 0 .. 3 */
#define RBTR_DUR_DATA	7	/* entry fields kept: sys_enter's id and arguments */
#define RBTR_DUR_CPU_DATA	2	/* ... for the per-CPU pairs: hrtimer's */

/* A matched pair: when it began, how long it lasted, its entry's fields. */
struct rbtr_dur_match {
	u64		start;
	u64		delta;
	unsigned long	data[RBTR_DUR_DATA];
};

/* ---- per-CPU pairs ---------------------------------------------------- */

struct rbtr_dur_slot {
	u64		start;
	unsigned long	key;
	unsigned long	data[RBTR_DUR_CPU_DATA];
	unsigned int	gen;		/* 0: empty */
};

struct rbtr_dur_cpu {
	struct rbtr_dur_slot	level[RBTR_DUR_LEVELS];
};

/*
 * rbtr_dur_cpu_slot - this CPU's slot for the current context level
 * @pc: the per-CPU table of one kind of pair
 *
 * Called with preemption disabled (tracepoint probes are).
 */
static __always_inline struct rbtr_dur_slot *rbtr_dur_cpu_slot(struct rbtr_dur_cpu __percpu *pc)
{
	return &raw_cpu_ptr(pc)->level[interrupt_context_level()];
}

/* The verdict on a pair that began at @start and ends at @now. */
static inline enum rbtr_dur_verdict rbtr_dur_judge(u64 start, u64 now, u64 thresh,
						   struct rbtr_dur_match *m)
{
	/* A clock that went back (trace_clock changed mid-pair): no pair. */
	if (now < start)
		return RBTR_DUR_UNMATCHED;
	m->start = start;
	m->delta = now - start;
	return m->delta >= thresh ? RBTR_DUR_KEEP : RBTR_DUR_SHORT;
}

/*
 * rbtr_dur_cpu_enter - save an entry in a per-CPU slot
 * @s: rbtr_dur_cpu_slot() of the entry's CPU and level
 * @key: the instance, as the exit will name it
 * @now: the clock at the entry
 * @gen: the filter's generation
 * @d0: entry field kept for the exit's record
 * @d1: another one
 *
 * Overwrites whatever the slot held: an entry whose exit never came.
 */
static inline void rbtr_dur_cpu_enter(struct rbtr_dur_slot *s, unsigned long key, u64 now,
				      unsigned int gen, unsigned long d0, unsigned long d1)
{
	s->key = key;
	s->start = now;
	s->data[0] = d0;
	s->data[1] = d1;
	s->gen = gen;
}

/*
 * rbtr_dur_cpu_exit - match an exit with the entry in its per-CPU slot
 * @s: rbtr_dur_cpu_slot() of the exit's CPU and level
 * @key: the instance
 * @now: the clock at the exit
 * @gen: the filter's generation
 * @thresh: the threshold, in the clock's units
 * @m: filled on RBTR_DUR_KEEP and RBTR_DUR_SHORT
 *
 * A matched entry is consumed: a second exit does not match it.
 *
 * Return: RBTR_DUR_KEEP, RBTR_DUR_SHORT or RBTR_DUR_UNMATCHED.
 */
static inline enum rbtr_dur_verdict rbtr_dur_cpu_exit(struct rbtr_dur_slot *s, unsigned long key,
						      u64 now, unsigned int gen, u64 thresh,
						      struct rbtr_dur_match *m)
{
	if (!gen || s->gen != gen || s->key != key)
		return RBTR_DUR_UNMATCHED;
	s->gen = 0;
	m->data[0] = s->data[0];
	m->data[1] = s->data[1];
	return rbtr_dur_judge(s->start, now, thresh, m);
}

/* ---- per-task pairs --------------------------------------------------- */

/* Names one instance of a per-task pair. */
struct rbtr_dur_tkey {
	pid_t		pid;
	u64		cookie;		/* the task's start_time */
	unsigned long	key;		/* work item; 0 for syscalls */
};

struct rbtr_dur_tslot {
	atomic_t	seq;		/* odd while a writer owns the slot */
	unsigned int	gen;		/* 0: empty */
	pid_t		pid;
	u64		cookie;
	u64		start;
	unsigned long	key;
	unsigned long	data[RBTR_DUR_DATA];
};

struct rbtr_dur_table {
	struct rbtr_dur_tslot	*slot;
	unsigned int		bits;	/* 1 << bits slots */
};

static inline struct rbtr_dur_tslot *rbtr_dur_tslot_of(const struct rbtr_dur_table *t, pid_t pid)
{
	return &t->slot[hash_32((u32)pid, t->bits)];
}

/*
 * rbtr_dur_task_enter - save a task's entry in its hash slot
 * @t: the table
 * @k: the task and instance
 * @now: the clock at the entry
 * @gen: the filter's generation
 * @data: entry fields kept for the exit's record
 * @n: their number, at most RBTR_DUR_DATA
 *
 * Never waits: a slot another writer owns right now (another CPU, or a
 * context this one interrupted) is left alone.
 *
 * Return: 0 saved; 1 saved over another task's pending entry, which is
 * lost (a collision); -EBUSY not saved (a collision).
 */
static inline int rbtr_dur_task_enter(struct rbtr_dur_table *t, const struct rbtr_dur_tkey *k,
				      u64 now, unsigned int gen, const unsigned long *data,
				      unsigned int n)
{
	struct rbtr_dur_tslot *s = rbtr_dur_tslot_of(t, k->pid);
	int seq = atomic_read(&s->seq), ret = 0;
	unsigned int i;

	/* Claim: even -> odd. Fully ordered: before our stores below. */
	if ((seq & 1) || !atomic_try_cmpxchg(&s->seq, &seq, seq + 1))
		return -EBUSY;
	if (s->gen == gen && (s->pid != k->pid || s->cookie != k->cookie))
		ret = 1;
	WRITE_ONCE(s->pid, k->pid);
	WRITE_ONCE(s->cookie, k->cookie);
	WRITE_ONCE(s->key, k->key);
	WRITE_ONCE(s->start, now);
	for (i = 0; i < n; i++)
		WRITE_ONCE(s->data[i], data[i]);
	WRITE_ONCE(s->gen, gen);
	/* Publish: odd -> even, after the stores. Pairs with smp_rmb() below. */
	atomic_set_release(&s->seq, seq + 2);
	return ret;
}

/*
 * rbtr_dur_task_exit - match a task's exit with the entry in its hash slot
 * @t: the table
 * @k: the task and instance
 * @now: the clock at the exit
 * @gen: the filter's generation
 * @thresh: the threshold, in the clock's units
 * @m: filled on RBTR_DUR_KEEP and RBTR_DUR_SHORT (@n fields of data)
 * @n: entry fields to copy, at most RBTR_DUR_DATA
 *
 * The copy is checked against the sequence count, so a slot rewritten
 * while it was read is never taken for a match. A matched entry is
 * consumed, unless the slot changed hands meanwhile.
 *
 * Return: RBTR_DUR_KEEP, RBTR_DUR_SHORT, RBTR_DUR_UNMATCHED, or
 * RBTR_DUR_COLLISION when the slot was busy, torn, or holds another task's
 * entry of this generation (which replaced ours).
 */
static inline enum rbtr_dur_verdict rbtr_dur_task_exit(struct rbtr_dur_table *t,
						       const struct rbtr_dur_tkey *k, u64 now,
						       unsigned int gen, u64 thresh,
						       struct rbtr_dur_match *m, unsigned int n)
{
	struct rbtr_dur_tslot *s = rbtr_dur_tslot_of(t, k->pid);
	unsigned int sgen, i;
	unsigned long key;
	u64 cookie, start;
	pid_t pid;
	int seq;

	/*A*/
	seq = atomic_read_acquire(&s->seq);
	if (seq & 1)
		return RBTR_DUR_COLLISION;
	sgen = READ_ONCE(s->gen);
	pid = READ_ONCE(s->pid);
	cookie = READ_ONCE(s->cookie);
	key = READ_ONCE(s->key);
	start = READ_ONCE(s->start);
	for (i = 0; i < n; i++)
		m->data[i] = READ_ONCE(s->data[i]);
	/*B*/
	/* The copy before the check. Pairs with atomic_set_release() above. */
	smp_rmb();
	if (atomic_read(&s->seq) != seq)
		return RBTR_DUR_COLLISION;
	/*C*/
	if (!gen || sgen != gen)
		return RBTR_DUR_UNMATCHED;
	if (pid != k->pid || cookie != k->cookie)
		return RBTR_DUR_COLLISION;
	if (key != k->key)
		return RBTR_DUR_UNMATCHED;
	/*D*/
	/* Consume it; if another writer took the slot since B, it is theirs. */
	if (atomic_try_cmpxchg(&s->seq, &seq, seq + 1)) {
		WRITE_ONCE(s->gen, 0);
		atomic_set_release(&s->seq, seq + 2);
	}
	return rbtr_dur_judge(start, now, thresh, m);
}

#endif /* _RBTR_DURATION_H */
