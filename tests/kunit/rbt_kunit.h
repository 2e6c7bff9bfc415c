/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the rbtrace KUnit suites, defined in rbt_kunit.c.
 * Every suite (*_test.c) is linked with it into one test module,
 * rbtrace_test.ko, which registers one NMI handler for all of them.
 *
 *  - Clocks the tests control: a fake clock that moves only when the test
 *    sets it, and a ticking clock that returns a new, larger value on
 *    every read, from any context (NMI included). No two events can get
 *    the same true stamp from the ticking clock, so two equal decoded
 *    stamps can only come from a delta the writer forced to zero.
 *  - rbt_nest(): run a function nested on this CPU in softirq, hard IRQ
 *    (hrtimer or irq_work) or NMI context, and wait until it has run.
 *  - rbt_walk(): decode a data page word by word the way libtraceevent's
 *    kbuffer does, independently of rbtrace's own reader.
 *  - A scenario engine for the reserve-path test hook (RBT_HOOK_A ..
 *    RBT_HOOK_COMMIT): writers at each context level, interrupts fired at
 *    chosen steps, every event's clock window recorded, then the buffer
 *    drained and each decoded stamp checked against its window.
 */
#ifndef _RBT_KUNIT_H
#define _RBT_KUNIT_H

#include <kunit/test.h>
#include <kunit/resource.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif
#include "rb_internal.h"

/* ---- clocks ---------------------------------------------------------- */

extern u64 rbt_fake_ns;

u64 rbt_fake_clock(void);

void rbt_fake_set(u64 ns);

#define RBT_TICK_NS	1000

extern atomic64_t rbt_tick_ns;

u64 rbt_tick_clock(void);

/* ---- buffers and CPUs ------------------------------------------------ */

/* A buffer freed when the test case ends, however it ends. */
struct rbt_buffer *rbt_kunit_alloc(struct kunit *test, unsigned long size,
				   unsigned int flags, unsigned int order);

/*
 * Pin the test's thread to the CPU it runs on, so that what it writes
 * and what it reads are on one per-CPU ring. KUnit runs every case in a
 * thread of its own, so the pin dies with the case.
 */
int rbt_kunit_pin(struct kunit *test);

struct rb_cpu_buffer *rbt_cpu(struct rbt_buffer *buf, int cpu);

/* Bytes already written on the tail page of @cpu. */
unsigned long rbt_tail_write(struct rbt_buffer *buf, int cpu);

struct rbt_cpu_stats rbt_stats(struct kunit *test, struct rbt_buffer *buf,
			       int cpu);

/*
 * Print the state of one CPU's ring (for a failing case): where head,
 * tail, commit and reader pages are, and each page's counts.
 */
void rbt_dump_cpu(struct kunit *test, struct rbt_buffer *buf, int cpu);

/*
 * Bytes ftrace's rb_calculate_event_length() reserves for a payload of
 * @len on x86 (no forced 8-byte alignment): written out from ftrace's
 * rules, not taken from rbtrace, so that it can disagree.
 */
unsigned int rbt_ftrace_event_bytes(unsigned int len);

/* ---- running a function nested in an interrupt on this CPU ------------- */

enum rbt_nest_kind {
	RBT_NEST_SOFTIRQ,	/* a tasklet, run by local_bh_enable() */
	RBT_NEST_HRTIMER,	/* hard IRQ: an hrtimer in HARD mode */
	RBT_NEST_IRQ_WORK,	/* hard IRQ: irq_work's self-IPI */
	RBT_NEST_NMI,		/* NMI: self-NMI through the local APIC */
	RBT_NEST_NR
};

enum { RBT_SLOT_IDLE, RBT_SLOT_ARMED, RBT_SLOT_RUNNING, RBT_SLOT_DONE };

struct rbt_nest_slot {
	atomic_t	state;
	void		(*fn)(void *arg);
	void		*arg;
	int		cpu;	/* where it ran */
	int		level;	/* interrupt_context_level() it ran at */
};

struct rbt_nester {
	struct rbt_nest_slot	slot[RBT_NEST_NR];
	struct tasklet_struct	tasklet;
	struct hrtimer		timer;
	struct irq_work		work;
	bool			nmi_registered;
};

extern struct rbt_nester rbt_nester;

/* 2 s: QEMU TCG is slow, but an interrupt that takes longer never comes. */
#define RBT_NEST_TIMEOUT_NS	(2 * NSEC_PER_SEC)

/* The context level (as interrupt_context_level()) each kind runs at. */
int rbt_nest_level(enum rbt_nest_kind kind);

/* For a suite's suite_init: set up every kind of interrupt once. */
int rbt_nest_init(void);

void rbt_nest_exit(void);

/*
 * rbt_nest - run @fn(@arg) in an interrupt of @kind on this CPU, now
 *
 * Returns once @fn has run, so that it is nested exactly where the caller
 * stands. The caller must run at a shallower context than @kind, and
 * with interrupts enabled (preemption may be off).
 *
 * Return: 0; -EINVAL when @kind cannot nest here; -EBUSY when that kind
 * is already in use; -ETIMEDOUT when the interrupt never came; -EIO when
 * it ran on another CPU or at another context level than it should.
 */
int rbt_nest(enum rbt_nest_kind kind, void (*fn)(void *arg),
	     void *arg);

/* ---- decoding a page as libtraceevent's kbuffer does ------------------ */

/* One record of a page: a data event or padding, with its stamp prefix. */
struct rbt_kev {
	unsigned int	off;		/* offset of its first word (prefix included) */
	unsigned int	type_len;	/* of the record itself */
	unsigned int	prefix;		/* 0, or the type of a stamp in front */
	unsigned int	bytes;		/* bytes in the page, prefix included */
	u32		delta;		/* time_delta of the record itself */
	u64		ts;		/* decoded stamp */
	void		*data;		/* payload of a data event */
};

/*
 * Decode @page up to @commit into @kev (at most @max records). Like
 * kbuffer: an absolute stamp sets the time, a time extend and every other
 * record (padding included) add their delta; a null padding (type 29,
 * delta 0) ends the page.
 *
 * Return: the number of records, or -EINVAL for a page that does not
 * decode (a length that runs past @commit, or a stamp without a record).
 */
int rbt_walk(struct rb_data_page *page, unsigned long commit,
	     struct rbt_kev *kev, int max);

/* ---- the scenario engine for the reserve-path hook ---------------------- */

#define RBT_SCN_LEVELS	4		/* task, softirq, hard IRQ, NMI */
#define RBT_SCN_MAGIC	0x73746272	/* "rbts" */

struct rbt_scn_payload {
	u32	magic;
	u32	id;
	u64	t_before;
};

/* One event a scenario wrote, or tried to. */
struct rbt_scn_rec {
	u64	t_before;	/* clock read just before rbt_lock_reserve() */
	u64	t_after;	/* clock read just after the commit or discard */
	u64	ts;		/* stamp rbt_consume() decoded */
	int	parent;		/* record of the writer it interrupted, or -1 */
	int	level;		/* interrupt_context_level() it was written at */
	int	pos;		/* position in the drained stream, or -1 */
	int	fired;		/* hook points at which it was interrupted */
	bool	reserved;
	bool	discarded;
};

enum rbt_scn_op {
	RBT_SCN_WRITE,		/* write an event */
	RBT_SCN_DISCARD,	/* reserve an event and discard it */
	RBT_SCN_JUMP,		/* move the ticking clock 2^28 ns ahead */
};

#define RBT_SCN_JUMP_NS	BIT_ULL(28)	/* more than a 27-bit delta holds */

struct rbt_scn {
	struct rbt_buffer	*buf;
	u64			(*clock)(void);
	int			cpu;
	/* A writer at level L interrupted at the hook points in fire[L] ... */
	unsigned int		fire[RBT_SCN_LEVELS];
	/* ... by an interrupt of kind[L], whose writer does body[] */
	enum rbt_nest_kind	kind[RBT_SCN_LEVELS];
	const enum rbt_scn_op	*body;
	int			body_len;
	/* or, if storm is set, at random points by random kinds */
	bool			storm;
	u32			prng;
	int			active[RBT_SCN_LEVELS];
	struct rbt_scn_rec	*rec;
	int			nrec;
	int			max_rec;
	int			fired;
	int			errors;		/* interrupts that did not come right */
	int			first_error;
	/* filled by rbt_scn_drain() */
	int			streamed;
	int			foreign;	/* events that are not ours */
	int			backwards;	/* stamps lower than the one before */
	int			zero_deltas;	/* stamps equal to the one before */
	unsigned long		lost;
};

extern struct rbt_scn *rbt_scn_cur;

void rbt_scn_init(struct kunit *test, struct rbt_scn *s,
		  struct rbt_buffer *buf, int cpu,
		  u64 (*clock)(void), int max_rec);

/*
 * Write one event of @len payload bytes (at least a struct rbt_scn_payload)
 * at the current context level; with @discard, reserve it and discard it.
 */
int rbt_scn_write(struct rbt_scn *s, unsigned int len, bool discard);

/* Install the hook for @s until the case ends (however it ends). */
void rbt_scn_hook_on(struct kunit *test, struct rbt_scn *s);

/* Consume every event of the scenario's CPU and match it to its record. */
void rbt_scn_drain(struct rbt_scn *s);

/*
 * The checks every scenario must pass, after rbt_scn_drain(). @strict
 * (ticking clock): stamps lie strictly inside their windows, and the
 * events one nested writer wrote have strictly increasing stamps. With a
 * real clock two reads may be equal, so only <= is asked.
 */
void rbt_scn_check(struct kunit *test, struct rbt_scn *s, bool strict);

#endif /* _RBT_KUNIT_H */
