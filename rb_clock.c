// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace trace clocks.
 *
 * Most are the kernel's NMI-safe clocks under ftrace's names. One is
 * rbtrace's own: "latch", a TSC clock readable from NMI and from any
 * context without a lock and without a retry that can spin (after
 * Mathieu Desnoyers' "monotonic accurate time" design), and from user
 * space without a system call: it lives in one page that
 * trace_clock_page maps read-only, laid out as the user ABI
 * (include/uapi/rbtrace/clock_page.h, whose rbtrace_clock_read() is
 * R1..R5 and F below). Two slots, each a line through an anchor, and a
 * latch sequence, a plain u32 with seqcount_latch_t's barriers, that says
 * which slot is current:
 *
 *	struct rbtrace_clock_page {
 *		struct rbtrace_clock_slot { cycles, ns, frac, mult } slot[2];
 *		seq; version; counter; shift (22);
 *	}
 *
 *	time(t, c) = t.ns + ((t.frac + max(c - t.cycles, 0) * t.mult) >> 22)
 *
 * t.ns + t.frac / 2^22 is the time at the anchor t.cycles, to 2^-22 ns:
 * an update moves the anchor along the line exactly, so with the same
 * mult both slots give the same time at every count (no rounding step).
 *
 *	updater (mutex held, IRQs off)		reader (any context)
 *	------------------------------		--------------------
 *	U1 smp_mb()				R1 s = READ_ONCE(seq)
 *	   a = max(counter, cur.cycles)		R2 t = slot[s & 1]
 *	U2 next = slot[(s + 1) & 1]:		R3 c = counter (ordered)
 *	   cur's line moved to a, new mult	R4 retry if seq != s (3 tries)
 *	U3 as raw_write_seqcount_latch():	   (smp_rmb(); READ_ONCE(seq))
 *	   smp_wmb(); seq++; smp_wmb()		R5 return time(t, c)
 *						F  after 3 misses: return
 *						   slot[seq & 1].ns
 *
 * The counter is rdtsc_ordered() on x86: RDTSC after the loads before
 * it (else it may run ahead of R1 and R2 and read a count from before
 * the anchor it is applied to); user space does LFENCE; RDTSC, as
 * rdtsc_ordered() does on Intel and on AMD since Zen. Elsewhere
 * get_cycles(), as ordered as the architecture makes it, and the page
 * says RBTRACE_CLOCK_COUNTER_NONE: user space cannot read it.
 *
 * In user space C does not promise R1 -> R2's address dependency; the
 * user reader's R1 is an acquire load instead (a plain MOV on x86), its
 * R4 an acquire fence (the smp_rmb(): a compiler barrier on x86).
 *
 * Barriers and their partners:
 *  - U3's first smp_wmb() (slot U2 before seq) pairs with R1 -> R2, an
 *    address dependency: a reader that sees s + 1 sees the slot U2 wrote.
 *  - U3's second smp_wmb() (seq before the next update's U2) pairs with
 *    the smp_rmb() in R4: the next update but one rewrites slot[s & 1]
 *    while seq is s + 1; a reader that read any of that in R2 sees seq
 *    moved in R4 and retries. This is why one move of seq fails a try.
 *  - U1's smp_mb() (the last update's seq before this anchor's count)
 *    pairs with R1 through F: see the fallback below.
 *  - R3's ordering (after R1 and R2) pairs with U1 -> U2, a data
 *    dependency: the count a reader applies to a slot is not below the
 *    slot's anchor, but for TSC skew between the two CPUs.
 *
 * The races, and why each is harmless:
 *  - An update while a reader reads (R1..R4): the reader retries; it
 *    never uses a slot that was written while it read it.
 *  - A reader in NMI (or any interrupt) on the updater's CPU, between
 *    U2 and U3: seq has not moved, it reads the current slot, which
 *    nobody writes; it succeeds in one try and never waits for the
 *    updater it interrupted.
 *  - A count below the slot's anchor: the reader's TSC lags the
 *    updater's, or the updater moved to a CPU whose TSC lags. Both clamp
 *    the delta to 0 (the reader returns the anchor's time, the updater
 *    keeps the old anchor): a pause of at most the skew, never a delta
 *    of 2^64 cycles.
 *  - Three misses in a row: updates published during each try (the
 *    reader was stalled three update periods, 200 ms or more, unless
 *    updates are forced). F returns the current slot's ns, one u64 that
 *    cannot tear. It lies on the clock's line (not on another clock's)
 *    and at or after every count this CPU read before the call: the
 *    first try saw s1, so update s1 + 1 was not yet visible when the
 *    call began, and U1 of update s1 + 2 took its anchor after that
 *    publication was visible everywhere; F reads a slot of update
 *    s1 + 3 or later. It is no later than now: an anchor is a past count.
 *
 * The rule (Documentation/rbtrace.rst, Clocks): per CPU the clock never
 * goes back; across CPUs, a read that comes after another (ordered by
 * memory: it saw a store made after that read) is at most the TSC skew
 * between their CPUs earlier. The exceptions: F, which is at most the
 * skew between the reader's and the updater's CPUs earlier than the
 * reader's last read; and a change of tsc_khz: an update that lowers
 * mult puts the new line below the old one after its anchor, and a read
 * of the old slot between U1 and the reader seeing U3 may be above a
 * later read of the new one by (that window) x (the change of rate).
 *
 * Updates are 100 ms apart, while the clock has users (a tracer's
 * trace_clock, a mapping of trace_clock_page), or at a switch of clock;
 * they follow changes of tsc_khz. On a constant, nonstop TSC its rate
 * never changes; the kernel may still refine tsc_khz once after boot
 * (tsc_refine_calibration_work(), about a second after boot, before the
 * module usually loads): the next update takes the new rate. Where the
 * TSC's rate follows the CPU's frequency (no constant_tsc), a cpufreq
 * transition notifier updates the slots at once, after the kernel's own
 * notifier has set the new tsc_khz (CONFIG_CPU_FREQ; inert otherwise).
 */
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/gfp.h>
#include <linux/cpufreq.h>
#include <linux/cpufeature.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>
#include <linux/workqueue.h>
#include <linux/module.h>
#include <asm/timex.h>
#include "rb_clock.h"

#define RB_LATCH_PERIOD		(HZ / 10)	/* 100 ms */

/* The page of the clock (rb_clock.h), from rb_clock_init() to unload. */
struct rbtrace_clock_page *rb_latch;

static DEFINE_MUTEX(rb_latch_mutex);	/* serialises updates and users */
static unsigned int rb_latch_users;
static void rb_latch_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(rb_latch_work, rb_latch_work_fn);

#ifdef RBTRACE_TEST_HOOKS
typeof(rbt_latch_hook) rbt_latch_hook;
EXPORT_SYMBOL_GPL(rbt_latch_hook);
#endif

/* cycles -> ns multiplier: ns = cycles * 10^6 / tsc_khz. */
static u32 rb_latch_mult(void)
{
	unsigned int khz = READ_ONCE(tsc_khz);

	return div_u64((u64)NSEC_PER_MSEC << RB_LATCH_SHIFT, khz ? khz : 1000000);
}

/* Fill the slot readers do not use (U2) and publish it (U3). IRQs off. */
static void rb_latch_publish(u64 cycles, u64 ns, u32 frac, u32 mult)
{
	struct rbtrace_clock_page *p = rb_latch;
	u32 seq = p->seq;	/* only the updater writes it: the mutex */
	struct rbtrace_clock_slot *next = &p->slot[(seq + 1) & 1];

	/*U2*/
	WRITE_ONCE(next->cycles, cycles);
	WRITE_ONCE(next->ns, ns);
	WRITE_ONCE(next->frac, frac);
	WRITE_ONCE(next->mult, mult);
	rb_latch_hook(RBT_LATCH_HOOK_PUBLISH);
	/*
	 * U3, as raw_write_seqcount_latch(). The slot before seq: pairs with
	 * R1 -> R2 (the user reader's acquire of seq).
	 */
	smp_wmb();
	WRITE_ONCE(p->seq, seq + 1);
	/*
	 * Seq before the next update's U2, which rewrites the slot readers
	 * use now: pairs with the smp_rmb() of R4.
	 */
	smp_wmb();
}

/*
 * Move the current slot's line to now, with the multiplier of now, into
 * the other slot. Caller: the mutex. IRQs are off from the count to the
 * publication, which keeps short the window in which a reader may read
 * the old slot at a count past the new anchor (it matters only when
 * mult changes: see the top).
 */
static void rb_latch_update(void)
{
	const struct rbtrace_clock_slot *cur = &rb_latch->slot[rb_latch->seq & 1];
	unsigned long flags;
	u64 now, ns;
	u32 frac;

	local_irq_save(flags);
	/*
	 * U1: the last update's seq++ visible to all before this anchor's
	 * count, pairs with R1 of a reader that falls back to F.
	 */
	smp_mb();
	now = rb_latch_counter();
	/* On a CPU whose TSC lags the last updater's: keep the anchor. */
	if (now < cur->cycles)
		now = cur->cycles;
	ns = cur->ns + rb_latch_scale(now - cur->cycles, cur->mult, cur->frac, &frac);
	rb_latch_publish(now, ns, frac, rb_latch_mult());
	local_irq_restore(flags);
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
 * Lock-free and wait-free: at most three tries, then the current slot's
 * time (see the top of this file). NMI-safe. Per CPU it never goes
 * back; across CPUs it is ordered within their TSC skew.
 *
 * Return: nanoseconds since the clock was first started.
 */
u64 rbt_latch_clock(void)
{
	return rb_latch_read();
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
 * @cycles: the slot's anchor
 * @ns: its time
 *
 * The rate stays that of tsc_khz. The next update continues from it.
 */
void rbt_latch_inject(u64 cycles, u64 ns)
{
	unsigned long flags;

	mutex_lock(&rb_latch_mutex);
	local_irq_save(flags);
	rb_latch_publish(cycles, ns, 0, rb_latch_mult());
	local_irq_restore(flags);
	mutex_unlock(&rb_latch_mutex);
}
EXPORT_SYMBOL_GPL(rbt_latch_inject);
#endif

static atomic64_t rb_counter = ATOMIC64_INIT(0);

static u64 rb_counter_clock(void)
{
	return atomic64_inc_return(&rb_counter);
}

const struct rbt_clock rb_clocks[] = {
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
 * rbt_clock_find - the clock called @name
 * @name: as written to trace_clock (a trailing newline is ignored)
 *
 * Return: the clock, or NULL.
 */
const struct rbt_clock *rbt_clock_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < rb_nr_clocks; i++)
		if (sysfs_streq(name, rb_clocks[i].name))
			return &rb_clocks[i];
	return NULL;
}
EXPORT_SYMBOL_GPL(rbt_clock_find);

/**
 * rbt_clock_by_index - the clocks trace_clock lists, one by one
 * @i: 0, 1, ...
 *
 * Return: the @i-th clock, or NULL past the last one.
 */
const struct rbt_clock *rbt_clock_by_index(unsigned int i)
{
	return i < rb_nr_clocks ? &rb_clocks[i] : NULL;
}
EXPORT_SYMBOL_GPL(rbt_clock_by_index);

/**
 * rb_clock_of - the clock whose read function is @read
 * @read: a buffer's clock
 *
 * Return: the clock, or NULL for a clock a module set by hand.
 */
const struct rbt_clock *rb_clock_of(u64 (*read)(void))
{
	unsigned int i;

	for (i = 0; i < rb_nr_clocks; i++)
		if (rb_clocks[i].read == read)
			return &rb_clocks[i];
	return NULL;
}

/*
 * Where the TSC's rate follows the CPU's frequency (no constant_tsc), the
 * kernel's own notifier (time_cpufreq_notifier(), priority 0) sets the
 * new tsc_khz at each transition; this one runs after it (a lower
 * priority) and moves the slots to the new rate at once rather than at
 * the next 100 ms update. Transition notifiers run in process context.
 */
#ifdef CONFIG_CPU_FREQ
static int rb_latch_cpufreq(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val != CPUFREQ_POSTCHANGE)
		return NOTIFY_DONE;
	mutex_lock(&rb_latch_mutex);
	if (rb_latch_users)
		rb_latch_update();
	mutex_unlock(&rb_latch_mutex);
	return NOTIFY_OK;
}

static struct notifier_block rb_latch_cpufreq_nb = {
	.notifier_call	= rb_latch_cpufreq,
	.priority	= -1,
};

/* A constant TSC's rate does not change with the CPU's: no notifier. */
static bool rb_latch_rate_varies(void)
{
#ifdef CONFIG_X86
	return !boot_cpu_has(X86_FEATURE_CONSTANT_TSC);
#else
	return true;
#endif
}

static bool rb_latch_cpufreq_on;

static void rb_latch_cpufreq_init(void)
{
	if (rb_latch_rate_varies() &&
	    !cpufreq_register_notifier(&rb_latch_cpufreq_nb, CPUFREQ_TRANSITION_NOTIFIER))
		rb_latch_cpufreq_on = true;
}

static void rb_latch_cpufreq_exit(void)
{
	if (rb_latch_cpufreq_on)
		cpufreq_unregister_notifier(&rb_latch_cpufreq_nb, CPUFREQ_TRANSITION_NOTIFIER);
	rb_latch_cpufreq_on = false;
}
#else
static void rb_latch_cpufreq_init(void)
{
}

static void rb_latch_cpufreq_exit(void)
{
}
#endif

/**
 * rb_clock_init - start the latch clock at the monotonic clock's time
 *
 * Allocates the clock's page, zeroed: past struct rbtrace_clock_page it
 * stays zero, as a mapping of it shows. Without periodic updates the
 * clock still runs, extrapolating from here; the updates (while a buffer
 * or a mapping uses it) follow changes of tsc_khz.
 *
 * Return: 0, or -ENOMEM.
 */
int rb_clock_init(void)
{
	struct rbtrace_clock_page *p = (void *)get_zeroed_page(GFP_KERNEL);
	struct rbtrace_clock_slot *t;

	if (!p)
		return -ENOMEM;
	t = &p->slot[0];
	t->cycles = rb_latch_counter();
	t->ns = ktime_get_mono_fast_ns();
	t->frac = 0;
	t->mult = rb_latch_mult();
	p->slot[1] = *t;
	p->version = RBTRACE_CLOCK_PAGE_VERSION;
	p->counter = IS_ENABLED(CONFIG_X86) ? RBTRACE_CLOCK_COUNTER_X86_TSC :
					      RBTRACE_CLOCK_COUNTER_NONE;
	p->shift = RB_LATCH_SHIFT;
	rb_latch = p;
	rb_latch_cpufreq_init();
	return 0;
}

/**
 * rbt_clock_page - the page the latch clock lives in
 *
 * Laid out as struct rbtrace_clock_page (<uapi/rbtrace/clock_page.h>),
 * the rest zero; valid until the module unloads. Only the latch
 * updater writes it: map it read-only, and hold the latch clock
 * (rbt_clock_get()) while it is mapped so that its slots follow tsc_khz.
 *
 * Return: the page's address (page aligned, in the linear map).
 */
const struct rbtrace_clock_page *rbt_clock_page(void)
{
	return rb_latch;
}
EXPORT_SYMBOL_GPL(rbt_clock_page);

/**
 * rbt_clock_get - start using a clock (the latch clock starts updating)
 * @clock: the clock, from rbt_clock_find() or rbt_clock_by_index()
 *
 * Pair each call with rbt_clock_put() once the clock is no longer used.
 *
 * Return: 0.
 */
int rbt_clock_get(const struct rbt_clock *clock)
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
EXPORT_SYMBOL_GPL(rbt_clock_get);

/**
 * rbt_clock_put - stop using a clock
 * @clock: the clock
 */
void rbt_clock_put(const struct rbt_clock *clock)
{
	if (clock->read != rbt_latch_clock)
		return;
	mutex_lock(&rb_latch_mutex);
	if (!WARN_ON_ONCE(!rb_latch_users))
		rb_latch_users--;
	mutex_unlock(&rb_latch_mutex);
}
EXPORT_SYMBOL_GPL(rbt_clock_put);

/**
 * rb_clock_exit - stop the latch updates for good and free the page
 *
 * At module unload (no file, so no mapping, is left: each holds a
 * module reference), or when the load fails.
 */
void rb_clock_exit(void)
{
	mutex_lock(&rb_latch_mutex);
	rb_latch_users = 0;
	mutex_unlock(&rb_latch_mutex);
	rb_latch_cpufreq_exit();
	cancel_delayed_work_sync(&rb_latch_work);
	free_page((unsigned long)rb_latch);
	rb_latch = NULL;
}
