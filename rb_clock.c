// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace trace clocks.
 *
 * Most are the kernel's NMI-safe clocks under ftrace's names. One is
 * rbtrace's own: "latch", a TSC clock readable from NMI and from any
 * context without a lock and without a retry that can spin forever
 * (after Mathieu Desnoyers' "monotonic accurate time" design):
 *
 *	struct rb_time_info { cycles, ns, mult, shift }
 *	slot[2], seq
 *
 *	updater (one, every RB_LATCH_PERIOD)	reader (any context)
 *	------------------------------------	--------------------
 *	next = &slot[(seq + 1) & 1]		s = READ_ONCE(seq)
 *	fill next from slot[seq & 1]		smp_rmb()
 *	smp_wmb()				t = slot[s & 1]; now = rdtsc
 *	WRITE_ONCE(seq, seq + 1)		smp_rmb()
 *						valid if seq - s < 2
 *
 * The updater only ever writes the slot readers are not told to use,
 * but the update after next rewrites the slot of sequence s while the
 * sequence is still s + 1: so a read is good only if the sequence did
 * not move while it read. Updates are 100 ms apart (or at a switch of
 * clock), a read takes nanoseconds: a retry is rare, two in a row need
 * a reader stalled across updates. After three failed tries the reader
 * takes the monotonic clock instead (NMI-safe, never torn), which the
 * latch clock started from and runs at the rate of.
 *
 * Each update extrapolates the new slot from the old one at the same
 * instant, so the clock is continuous across updates and never steps
 * back; the multiplier comes from tsc_khz.
 */
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>
#include <linux/workqueue.h>
#include <linux/module.h>
#include <asm/timex.h>
#include "rb_clock.h"

#define RB_LATCH_PERIOD		(HZ / 10)	/* 100 ms */
#define RB_LATCH_SHIFT		22
#define RB_LATCH_READ_TRIES	3

struct rb_time_info {
	u64	cycles;
	u64	ns;
	u32	mult;
	u32	shift;
};

static struct {
	struct rb_time_info	slot[2];
	unsigned long		seq;
} rb_latch ____cacheline_aligned;

static DEFINE_MUTEX(rb_latch_mutex);	/* serialises updates and users */
static unsigned int rb_latch_users;
static void rb_latch_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(rb_latch_work, rb_latch_work_fn);

#ifdef RBTRACE_TEST_HOOKS
typeof(rbt_latch_hook) rbt_latch_hook;
EXPORT_SYMBOL_GPL(rbt_latch_hook);

static __always_inline void rb_latch_hook(int point)
{
	void (*hook)(int point) = READ_ONCE(rbt_latch_hook);

	if (unlikely(hook))
		hook(point);
}
#else
static __always_inline void rb_latch_hook(int point)
{
}
#endif

static u64 rb_latch_ns(const struct rb_time_info *t, u64 cycles)
{
	return t->ns + mul_u64_u32_shr(cycles - t->cycles, t->mult, t->shift);
}

/* cycles -> ns multiplier: ns = cycles * 10^6 / tsc_khz. */
static u32 rb_latch_mult(void)
{
	unsigned int khz = READ_ONCE(tsc_khz);

	return div_u64((u64)NSEC_PER_MSEC << RB_LATCH_SHIFT, khz ? khz : 1000000);
}

/* Write the slot readers do not use, then publish it. Caller: the mutex. */
static void rb_latch_update(void)
{
	unsigned long seq = rb_latch.seq;
	struct rb_time_info *cur = &rb_latch.slot[seq & 1];
	struct rb_time_info *next = &rb_latch.slot[(seq + 1) & 1];
	u64 now = get_cycles();

	next->ns = rb_latch_ns(cur, now);
	next->cycles = now;
	next->mult = rb_latch_mult();
	next->shift = RB_LATCH_SHIFT;
	rb_latch_hook(RBT_LATCH_HOOK_PUBLISH);
	/* Slot contents before the new sequence: pairs with the reader's smp_rmb(). */
	smp_wmb();
	WRITE_ONCE(rb_latch.seq, seq + 1);
}

static void rb_latch_work_fn(struct work_struct *work)
{
	mutex_lock(&rb_latch_mutex);
	if (rb_latch_users) {
		rb_latch_update();
		schedule_delayed_work(&rb_latch_work, RB_LATCH_PERIOD);
	}
	mutex_unlock(&rb_latch_mutex);
}

/**
 * rbt_latch_clock - read the latch clock
 *
 * Lock-free and wait-free in practice: see the top of this file. NMI-safe.
 *
 * Return: nanoseconds since the clock was first started.
 */
u64 rbt_latch_clock(void)
{
	struct rb_time_info t;
	unsigned long seq;
	u64 now;
	int i;

	for (i = 0; i < RB_LATCH_READ_TRIES; i++) {
		seq = READ_ONCE(rb_latch.seq);
		/* seq before the slot: pairs with the updater's smp_wmb(). */
		smp_rmb();
		t = rb_latch.slot[seq & 1];
		now = get_cycles();
		rb_latch_hook(RBT_LATCH_HOOK_READ);
		/* The slot before the re-check of seq: same pairing. */
		smp_rmb();
		if (READ_ONCE(rb_latch.seq) == seq)
			return rb_latch_ns(&t, now);
	}
	/* Stalled across updates three times in a row: see the top. */
	return ktime_get_mono_fast_ns();
}
EXPORT_SYMBOL_GPL(rbt_latch_clock);

#ifdef RBTRACE_TEST_HOOKS
/**
 * rbt_latch_update - force an update of the latch clock (tests only)
 */
void rbt_latch_update(void)
{
	mutex_lock(&rb_latch_mutex);
	rb_latch_update();
	mutex_unlock(&rb_latch_mutex);
}
EXPORT_SYMBOL_GPL(rbt_latch_update);

/**
 * rbt_latch_inject - publish a slot of the caller's choosing (tests only)
 * @cycles: the slot's cycle count
 * @ns: its time
 *
 * The rate stays that of tsc_khz. The next update continues from it.
 */
void rbt_latch_inject(u64 cycles, u64 ns)
{
	struct rb_time_info *next;

	mutex_lock(&rb_latch_mutex);
	next = &rb_latch.slot[(rb_latch.seq + 1) & 1];
	next->cycles = cycles;
	next->ns = ns;
	next->mult = rb_latch_mult();
	next->shift = RB_LATCH_SHIFT;
	/* As in rb_latch_update(). */
	smp_wmb();
	WRITE_ONCE(rb_latch.seq, rb_latch.seq + 1);
	mutex_unlock(&rb_latch_mutex);
}
EXPORT_SYMBOL_GPL(rbt_latch_inject);
#endif

static atomic64_t rb_counter = ATOMIC64_INIT(0);

static u64 rb_counter_clock(void)
{
	return atomic64_inc_return(&rb_counter);
}

const struct rb_clock rb_clocks[] = {
	{ "local",	trace_clock_local,	true },
	{ "global",	trace_clock_global,	true },
	{ "mono",	ktime_get_mono_fast_ns,	true },
	{ "mono_raw",	ktime_get_raw_fast_ns,	true },
	{ "boot",	ktime_get_boot_fast_ns,	true },
	{ "counter",	rb_counter_clock,	false },
	{ "latch",	rbt_latch_clock,	true },
};

const unsigned int rb_nr_clocks = ARRAY_SIZE(rb_clocks);

/**
 * rb_clock_find - the clock called @name
 * @name: as written to trace_clock (a trailing newline is ignored)
 *
 * Return: the clock, or NULL.
 */
const struct rb_clock *rb_clock_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < rb_nr_clocks; i++)
		if (sysfs_streq(name, rb_clocks[i].name))
			return &rb_clocks[i];
	return NULL;
}

/**
 * rbt_set_clock_by_name - stamp a buffer's events with a trace clock
 * @buffer: the buffer
 * @name: local, global, mono, mono_raw, boot, counter or latch (a
 *        trailing newline is ignored)
 *
 * Every clock is callable from any context, NMI included. The latch clock
 * runs without more ado; it follows changes of tsc_khz while the debugfs
 * trace_clock file has selected it. As with rbt_set_clock(), stamps of
 * two clocks do not compare: reset the buffer after switching.
 *
 * Return: 0, or -EINVAL for an unknown name.
 */
int rbt_set_clock_by_name(struct rbt_buffer *buffer, const char *name)
{
	const struct rb_clock *clock = rb_clock_find(name);

	if (!clock)
		return -EINVAL;
	return rbt_set_clock(buffer, clock->read);
}
EXPORT_SYMBOL_GPL(rbt_set_clock_by_name);

/**
 * rb_clock_of - the clock whose read function is @read
 * @read: a buffer's clock
 *
 * Return: the clock, or NULL for a clock a module set by hand.
 */
const struct rb_clock *rb_clock_of(u64 (*read)(void))
{
	unsigned int i;

	for (i = 0; i < rb_nr_clocks; i++)
		if (rb_clocks[i].read == read)
			return &rb_clocks[i];
	return NULL;
}

/**
 * rb_clock_init - start the latch clock at the monotonic clock's time
 *
 * Without periodic updates it still runs, extrapolating from here; the
 * updates (while a buffer uses it) follow changes of tsc_khz.
 */
void rb_clock_init(void)
{
	struct rb_time_info *t = &rb_latch.slot[0];

	t->cycles = get_cycles();
	t->ns = ktime_get_mono_fast_ns();
	t->mult = rb_latch_mult();
	t->shift = RB_LATCH_SHIFT;
	rb_latch.slot[1] = *t;
	rb_latch.seq = 0;
}

/**
 * rb_clock_get - start using a clock (the latch clock starts updating)
 * @clock: the clock
 *
 * Return: 0.
 */
int rb_clock_get(const struct rb_clock *clock)
{
	if (clock->read != rbt_latch_clock)
		return 0;
	mutex_lock(&rb_latch_mutex);
	if (!rb_latch_users++) {
		rb_latch_update();
		schedule_delayed_work(&rb_latch_work, RB_LATCH_PERIOD);
	}
	mutex_unlock(&rb_latch_mutex);
	return 0;
}

/**
 * rb_clock_put - stop using a clock
 * @clock: the clock
 */
void rb_clock_put(const struct rb_clock *clock)
{
	if (clock->read != rbt_latch_clock)
		return;
	mutex_lock(&rb_latch_mutex);
	if (!WARN_ON_ONCE(!rb_latch_users))
		rb_latch_users--;
	mutex_unlock(&rb_latch_mutex);
}

/**
 * rb_clock_exit - stop the latch updates for good (module unload)
 */
void rb_clock_exit(void)
{
	mutex_lock(&rb_latch_mutex);
	rb_latch_users = 0;
	mutex_unlock(&rb_latch_mutex);
	cancel_delayed_work_sync(&rb_latch_work);
}
