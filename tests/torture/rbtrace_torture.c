// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace_torture: prove that nothing is lost or corrupted.
 *
 * One writer thread per CPU writes events of varying size that carry
 * (cpu, context, sequence, checksum); an hrtimer per CPU interrupts it
 * and writes from hard IRQ, and raises an NMI on its own CPU that writes
 * too; the reader thread sends function-call IPIs that write from hard
 * IRQ as well. Readers run at the same time: a consuming reader, a
 * raw-page reader (the splice path) and an iterator, on whatever CPU the
 * scheduler gives them, while the buffer is resized and switched between
 * overwrite and producer/consumer mode, and while CPUs are taken offline
 * and brought back (remove_cpu(), add_cpu()). Every event read is
 * checked; at the end the buffer is drained and, per CPU,
 *
 *	written == read + overrun + dropped + commit_overrun	(exactly)
 *	committed == read + overrun				(exactly)
 *	the gaps in the sequences read == overrun		(exactly)
 *	recursion == too_big == 0
 *	sequences strictly increase per (cpu, context); stamps never go back
 *	bytes after the data of every raw page are zero
 *
 * "written" counts every rbt_lock_reserve() call. A resize refuses
 * events on purpose without counting them (the CPU is quiesced), so the
 * writers of a CPU being resized do not call it: see tort_resize().
 *
 * The result is printed as KTAP, one test per CPU plus one for hotplug,
 * followed by a table of the counters.
 */
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/hrtimer.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/crc32.h>
#include <linux/cpu.h>
#include <asm/nmi.h>
#include <asm/apic.h>
#include <rbtrace/rbtrace.h>

static unsigned int seconds = 20;
module_param(seconds, uint, 0400);
MODULE_PARM_DESC(seconds, "how long to run (default 20)");
static unsigned int buffer_kb = 64;
module_param(buffer_kb, uint, 0400);
MODULE_PARM_DESC(buffer_kb, "per-CPU buffer size, small to force wrapping (default 64)");
static unsigned int max_size = 120;
module_param(max_size, uint, 0400);
MODULE_PARM_DESC(max_size, "largest payload in bytes, at least 16 (default 120)");
static bool overwrite = true;
module_param(overwrite, bool, 0400);
MODULE_PARM_DESC(overwrite, "start in overwrite mode (default y)");
static bool nmi = true;
module_param(nmi, bool, 0400);
MODULE_PARM_DESC(nmi, "write from NMI too (default y)");
static unsigned int irq_us = 100;
module_param(irq_us, uint, 0400);
MODULE_PARM_DESC(irq_us, "hrtimer period in microseconds (default 100)");
static bool churn = true;
module_param(churn, bool, 0400);
MODULE_PARM_DESC(churn, "resize and switch modes while running (default y)");
static bool hotplug = true;
module_param(hotplug, bool, 0400);
MODULE_PARM_DESC(hotplug, "take CPUs offline and online while running (default y)");
static unsigned int hotplug_ms = 1000;
module_param(hotplug_ms, uint, 0400);
MODULE_PARM_DESC(hotplug_ms, "time between CPU offline/online cycles (default 1000)");

enum { CTX_TASK, CTX_IRQ, CTX_NMI, NR_CTX };
static const char * const ctx_names[] = { "task", "irq", "nmi" };

struct tort_rec {
	u16 cpu;
	u8 ctx;
	u8 len;		/* payload bytes, header included */
	u32 seq;
	u32 csum;
	u8 data[];
};

struct tort_stream {
	u32 rng;		/* xorshift32 state: sizes, NMI-safe */
	u32 next_seq;		/* writer side */
	u64 attempts;
	u64 committed;
	u32 last_seq;		/* reader side */
	bool seen;
};

/*
 * A stream (cpu, ctx) is written by one context of one CPU at a time:
 * task writers run with preemption off, the hrtimer and the IPI are both
 * hard IRQs (which do not nest), the NMI is alone. So its counters need
 * no atomics, and its sequence is in buffer order.
 */

struct tort_cpu {
	struct tort_stream s[NR_CTX];
	struct mutex check_lock;	/* one checking reader at a time */
	u64 read;
	u64 gaps;		/* sequence numbers never read */
	u64 last_ts;
	u64 bad_csum, bad_seq, bad_ts, bad_stale, bad_cpu;
	u64 iter_events, iter_bad, iter_overruns;
	u64 pages, pages_swapped;
	struct hrtimer timer;
	bool nmi_pending;
	bool pause;		/* being resized: do not write */
	unsigned int offlined;	/* times this CPU was taken offline */
	struct task_struct *writer;
};

static struct rbt_buffer *buf;
static struct tort_cpu *tc;
static bool stopping;
static u8 *page_copy;
/* The CPUs online at load: written, read and checked, offline or not. */
static cpumask_var_t tort_cpus;
static atomic_t ipis_in_flight = ATOMIC_INIT(0);
static u64 ipis_sent;
static unsigned int hp_cycles, hp_failed;
static u64 paused_writes;	/* skipped during resizes, not "written" */
static u64 resizes, paused_ns;

static u32 tort_csum(const struct tort_rec *r)
{
	return crc32_le(r->seq ^ (r->cpu << 16) ^ (r->ctx << 8), r->data,
			r->len - sizeof(*r));
}

/* Write one event in context @ctx on this CPU (preemption is off). */
static void tort_write(int ctx)
{
	int cpu = smp_processor_id();
	struct tort_stream *s = &tc[cpu].s[ctx];
	struct rbt_event *event;
	struct tort_rec *r;
	unsigned int i, len;

	/*
	 * W1: no write while a resize may refuse it uncounted. Acquire:
	 * pairs with the release in tort_resize() (R4), so that once we
	 * see the pause over we also see the resize's re-enabling of the
	 * CPU's recording (read in rbt_lock_reserve(), W2).
	 */
	if (smp_load_acquire(&tc[cpu].pause)) {
		WRITE_ONCE(paused_writes, paused_writes + 1);	/* statistic only */
		return;
	}
	/*
	 * Not get_random_u32_below(): its batched entropy takes a local
	 * lock, which an NMI must not (lockdep: {INITIAL USE} -> {IN-NMI}).
	 */
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	len = sizeof(*r) + s->rng % (max_size - sizeof(*r) + 1);
	s->attempts++;
 /*W2*/	event = rbt_lock_reserve(buf, len);
	if (!event)
		return;
	r = rbt_event_data(event);
	r->cpu = cpu;
	r->ctx = ctx;
	r->len = len;
	r->seq = s->next_seq++;
	for (i = 0; i < len - sizeof(*r); i++)
		r->data[i] = r->seq + i;
	r->csum = tort_csum(r);
	s->committed++;
	rbt_unlock_commit(buf);
}

static int tort_nmi(unsigned int type, struct pt_regs *regs)
{
	struct tort_cpu *c = &tc[smp_processor_id()];

	if (!READ_ONCE(c->nmi_pending))
		return NMI_DONE;
	WRITE_ONCE(c->nmi_pending, false);
	tort_write(CTX_NMI);
	return NMI_HANDLED;
}

static DEFINE_PER_CPU(unsigned int, tort_fires);

static enum hrtimer_restart tort_timer(struct hrtimer *t)
{
	/*
	 * The CPU we run on, not the timer's owner: tort_nmi() looks at the
	 * flag of the CPU the NMI lands on. (Timers are cancelled before
	 * their CPU goes offline, so they are not migrated; this holds even
	 * if one were.)
	 */
	struct tort_cpu *c = &tc[smp_processor_id()];

	tort_write(CTX_IRQ);
	if (nmi && !(this_cpu_inc_return(tort_fires) & 3) && !READ_ONCE(c->nmi_pending)) {
		WRITE_ONCE(c->nmi_pending, true);
		/* send_IPI_mask: x2APIC's self-IPI cannot deliver an NMI. */
		apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	}
	if (READ_ONCE(stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(irq_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* A function-call IPI: one more hard-IRQ writer, on the CPU it lands on. */
static void tort_ipi(void *unused)
{
	tort_write(CTX_IRQ);
	/* After the write: tort_init() waits for this before the drain. */
	atomic_dec(&ipis_in_flight);
}

static void tort_arm(void *timer)
{
	hrtimer_start(timer, ns_to_ktime(irq_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int tort_writer(void *arg)
{
	unsigned int n = 0;

	while (!kthread_should_stop()) {
		preempt_disable();
		tort_write(CTX_TASK);
		preempt_enable();
		if (!(++n & 63))
			cond_resched();
	}
	return 0;
}

/* Check one event read in buffer order from @cpu's ring. */
static void tort_check(int cpu, struct tort_rec *r, unsigned int size, u64 ts)
{
	struct tort_cpu *c = &tc[cpu];
	struct tort_stream *s;

	c->read++;
	if (size < sizeof(*r) || r->len < sizeof(*r) || r->len > size ||
	    r->cpu != cpu || r->ctx >= NR_CTX) {
		c->bad_cpu++;
		return;
	}
	if (tort_csum(r) != r->csum)
		c->bad_csum++;
	s = &c->s[r->ctx];
	if (s->seen && r->seq <= s->last_seq)
		c->bad_seq++;
	else	/* events of this stream overwritten before we got to them */
		c->gaps += r->seq - (s->seen ? s->last_seq + 1 : 0);
	s->seen = true;
	s->last_seq = r->seq;
	if (ts < c->last_ts)
		c->bad_ts++;
	c->last_ts = ts;
}

static unsigned int tort_consume(int cpu, unsigned int max)
{
	struct rbt_event *event;
	unsigned int n = 0;
	u64 ts;

	mutex_lock(&tc[cpu].check_lock);
	while (n < max && (event = rbt_consume(buf, cpu, &ts, NULL))) {
		tort_check(cpu, rbt_event_data(event), rbt_event_length(event), ts);
		n++;
	}
	mutex_unlock(&tc[cpu].check_lock);
	return n;
}

/* Decode a raw page as libtraceevent would, checking every event. */
static void tort_check_page(int cpu, const u8 *page, unsigned int subbuf)
{
	struct tort_cpu *c = &tc[cpu];
	u64 ts = *(const u64 *)page;
	unsigned long commit = *(const unsigned long *)(page + 8);
	unsigned long size = commit & ~(3UL << 30);
	const u8 *data = page + 16;
	unsigned long i = 0, end = size;

	if (commit & (1UL << 30))
		end += sizeof(long);
	for (; end < subbuf; end++)
		if (data[end]) {
			c->bad_stale++;
			break;
		}
	while (i < size) {
		const u32 *ev = (const u32 *)(data + i);
		u32 type_len = ev[0] & 31, delta = ev[0] >> 5, len;

		if (type_len == 29) {		/* padding */
			if (!delta)
				break;
			ts += delta;		/* a discarded event's delta */
			len = ev[1] + 4;
		} else if (type_len == 30) {	/* time extend */
			ts += ((u64)ev[1] << 27) + delta;
			len = 8;
		} else if (type_len == 31) {	/* absolute stamp */
			ts = ((u64)ev[1] << 27) + delta;
			len = 8;
		} else {
			unsigned int plen = type_len ? type_len * 4 : ev[1] - 4;
			const void *payload = type_len ? &ev[1] : &ev[2];

			ts += delta;
			len = type_len ? plen + 4 : ev[1] + 4;
			tort_check(cpu, (struct tort_rec *)payload, plen, ts);
		}
		i += len;
	}
}

static void tort_read_page(int cpu)
{
	struct rbt_read_page *rp = rbt_alloc_read_page(buf, cpu);
	unsigned int subbuf = rbt_subbuf_size(buf);
	int ret;

	if (IS_ERR(rp))
		return;
	mutex_lock(&tc[cpu].check_lock);
	ret = rbt_read_page(buf, rp, subbuf + 16, cpu, false);
	if (ret > 0) {
		memcpy(page_copy, rbt_read_page_data(rp), subbuf + 16);
		tc[cpu].pages++;
		tort_check_page(cpu, page_copy, subbuf);
	}
	mutex_unlock(&tc[cpu].check_lock);
	rbt_free_read_page(buf, cpu, rp);
}

static void tort_iterate(int cpu)
{
	struct rbt_iter *it = rbt_iter_start(buf, cpu, GFP_KERNEL);
	struct rbt_event *event;
	unsigned int n = 0;
	u64 ts;

	if (!it)
		return;
	while (n++ < 256 && (event = rbt_iter_peek(it, &ts))) {
		struct tort_rec *r = rbt_event_data(event);

		tc[cpu].iter_events++;
		if (r->len < sizeof(*r) || r->len > rbt_event_length(event) ||
		    tort_csum(r) != r->csum)
			tc[cpu].iter_bad++;
		rbt_iter_advance(it);
	}
	if (rbt_iter_dropped(it))
		tc[cpu].iter_overruns++;
	rbt_iter_finish(it);
}

/* The CPU of tort_cpus after @cpu, round robin (-1: the first). */
static int tort_next_cpu(int cpu)
{
	cpu = cpumask_next(cpu, tort_cpus);
	return cpu < nr_cpu_ids ? cpu : cpumask_first(tort_cpus);
}

static int tort_reader(void *arg)
{
	unsigned long round = 0;
	int cpu, target = -1;

	while (!kthread_should_stop()) {
		/* Offline CPUs too: their rings keep what was written. */
		for_each_cpu(cpu, tort_cpus) {
			switch (round % 4) {
			case 0:
			case 1:
				tort_consume(cpu, 512);
				break;
			case 2:
				tort_read_page(cpu);
				break;
			case 3:
				tort_iterate(cpu);
				break;
			}
		}
		/* One IPI writer per round, round robin; offline CPUs refuse. */
		target = tort_next_cpu(target);
		atomic_inc(&ipis_in_flight);
		if (smp_call_function_single(target, tort_ipi, NULL, 0))
			atomic_dec(&ipis_in_flight);
		else
			ipis_sent++;
		round++;
		usleep_range(200, 400);
	}
	return 0;
}

/*
 * Resize @cpu's ring (RBT_ALL_CPUS: every ring) with its writers paused.
 * rbt_resize() quiesces each CPU it resizes (recording off, then
 * synchronize_rcu()) and refuses the events written meanwhile without
 * counting them: by design, but it would make the accounting identity
 * inexact. So:
 *
 *  R1: set the CPU's pause flag;
 *  R2: synchronize_rcu(): every writer that may have read the flag
 *      clear at W1 has finished (task writers run with preemption off;
 *      hrtimer, IPI and NMI handlers are RCU readers too). Writers from
 *      now on see it set and skip;
 *  R3: rbt_resize(): record_disabled up, splice, record_disabled down;
 *  R4: clear the flag with release: pairs with W1's acquire, so a
 *      writer that sees it clear sees R3's record_disabled back down.
 *
 * Writers of the other CPUs go on writing, and readers on reading.
 */
static void tort_resize(unsigned long size, int cpu)
{
	u64 t0 = ktime_get_ns();
	int i;

	for_each_cpu(i, tort_cpus)
		if (cpu == RBT_ALL_CPUS || i == cpu)
 /*R1*/			WRITE_ONCE(tc[i].pause, true);
 /*R2*/	synchronize_rcu();
 /*R3*/	rbt_resize(buf, size, cpu);
	for_each_cpu(i, tort_cpus) {
		/* R4: release, pairs with the acquire at W1 (tort_write()). */
		smp_store_release(&tc[i].pause, false);
	}
	resizes++;
	paused_ns += ktime_get_ns() - t0;
}

static int tort_churn(void *arg)
{
	unsigned long round = 0;
	int cpu = -1;

	/* One CPU's ring at a time; all of them every fourth resize. */
	while (!kthread_should_stop()) {
		msleep(150);
		if (round % 3 == 0) {
			cpu = round % 4 ? tort_next_cpu(cpu) : RBT_ALL_CPUS;
			tort_resize((round & 2 ? 2 : 1) * buffer_kb * 1024UL, cpu);
		}
		if (round % 5 == 4)
			rbt_set_overwrite(buf, !rbt_overwrite(buf));
		round++;
	}
	return 0;
}

/* Start @cpu's writer thread and hrtimer (the CPU is online). */
static int tort_cpu_start(int cpu)
{
	struct task_struct *t;

	t = kthread_create_on_cpu(tort_writer, NULL, cpu, "rbt_tort/%u");
	if (IS_ERR(t))
		return PTR_ERR(t);
	tc[cpu].writer = t;
	wake_up_process(t);
	/* A pinned timer is armed on its own CPU. */
	return smp_call_function_single(cpu, tort_arm, &tc[cpu].timer, 1);
}

/* Stop @cpu's writer thread and hrtimer; the CPU may then go offline. */
static void tort_cpu_stop(int cpu)
{
	if (tc[cpu].writer)
		kthread_stop(tc[cpu].writer);
	tc[cpu].writer = NULL;
	hrtimer_cancel(&tc[cpu].timer);
}

/*
 * CPU hotplug: take each CPU but the first offline in turn, for half a
 * period, with its writer and timer stopped (they are pinned to it), and
 * bring it back. Its ring stays, and the readers go on reading it.
 */
static int tort_hotplug(void *arg)
{
	int cpu = cpumask_first(tort_cpus), ret;

	while (!kthread_should_stop()) {
		msleep(hotplug_ms / 2);
		cpu = tort_next_cpu(cpu);
		if (cpu == cpumask_first(tort_cpus))
			cpu = tort_next_cpu(cpu);
		tort_cpu_stop(cpu);
		ret = remove_cpu(cpu);
		if (ret) {
			pr_info("# rbtrace_torture: remove_cpu(%d): %d\n", cpu, ret);
			hp_failed++;
		} else {
			tc[cpu].offlined++;
			msleep(hotplug_ms / 2);
			ret = add_cpu(cpu);
			if (ret) {
				pr_err("rbtrace_torture: add_cpu(%d): %d\n", cpu, ret);
				hp_failed++;
				break;
			}
			hp_cycles++;
		}
		ret = tort_cpu_start(cpu);
		if (ret) {
			pr_err("rbtrace_torture: cannot restart cpu%d: %d\n", cpu, ret);
			hp_failed++;
			break;
		}
	}
	/* Wait for kthread_stop(): it must find us. */
	while (!kthread_should_stop())
		msleep(20);
	return 0;
}

static int tort_report(void)
{
	unsigned int tests = 0, failed = 0, ncpus = cpumask_weight(tort_cpus);
	bool hp_test = hotplug && ncpus > 1;
	struct rbt_cpu_stats st;
	int cpu, ctx;

	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", ncpus + hp_test);
	for_each_cpu(cpu, tort_cpus) {
		struct tort_cpu *c = &tc[cpu];
		u64 att = 0, com = 0;
		bool ok;

		rbt_cpu_stats(buf, cpu, &st);
		for (ctx = 0; ctx < NR_CTX; ctx++) {
			struct tort_stream *s = &c->s[ctx];

			att += s->attempts;
			com += s->committed;
			/* Committed after the last event read, never read. */
			c->gaps += s->next_seq - (s->seen ? s->last_seq + 1 : 0);
		}
		ok = att == c->read + st.overrun + st.dropped + st.commit_overrun &&
		     com == c->read + st.overrun && c->gaps == st.overrun &&
		     st.entries == 0 && c->read == st.read && st.written == com &&
		     !st.recursion && !st.too_big &&
		     !c->bad_csum && !c->bad_seq && !c->bad_ts && !c->bad_stale &&
		     !c->bad_cpu && !c->iter_bad;
		tests++;
		failed += !ok;
		pr_info("# cpu%d: written %llu committed %llu (stats written %llu) read %llu (stats read %llu) overrun %llu dropped %llu commit_overrun %llu gaps %llu entries %llu recursion %llu too_big %llu ts_lost %llu offlined %u\n",
			cpu, att, com, st.written, c->read, st.read, st.overrun,
			st.dropped, st.commit_overrun, c->gaps, st.entries,
			st.recursion, st.too_big, st.ts_lost, c->offlined);
		for (ctx = 0; ctx < NR_CTX; ctx++)
			pr_info("# cpu%d %-4s: written %llu committed %llu\n", cpu,
				ctx_names[ctx], c->s[ctx].attempts, c->s[ctx].committed);
		pr_info("# cpu%d: corrupted %llu sequence errors %llu time inversions %llu stale bytes %llu foreign %llu; pages %llu; iterator events %llu bad %llu overruns %llu\n",
			cpu, c->bad_csum, c->bad_seq, c->bad_ts, c->bad_stale, c->bad_cpu,
			c->pages, c->iter_events, c->iter_bad, c->iter_overruns);
		pr_info("%s %u cpu%d\n", ok ? "ok" : "not ok", tests, cpu);
	}
	if (hp_test) {
		bool ok = hp_cycles && !hp_failed && cpumask_subset(tort_cpus, cpu_online_mask);

		tests++;
		failed += !ok;
		pr_info("# hotplug: %u offline/online cycles, %u failed\n", hp_cycles, hp_failed);
		pr_info("%s %u hotplug\n", ok ? "ok" : "not ok", tests);
	}
	pr_info("# resizes %llu, their writers paused for them %llu ms of %u s (%llu writes skipped), IPIs sent %llu\n",
		resizes, paused_ns / NSEC_PER_MSEC, seconds, READ_ONCE(paused_writes),
		ipis_sent);
	pr_info("# %-5s %12s %12s %12s %12s %12s %14s\n", "cpu", "written", "read",
		"overrun", "dropped", "commit_overrun", "identity");
	for_each_cpu(cpu, tort_cpus) {
		struct tort_cpu *c = &tc[cpu];
		u64 att = 0;

		rbt_cpu_stats(buf, cpu, &st);
		for (ctx = 0; ctx < NR_CTX; ctx++)
			att += c->s[ctx].attempts;
		pr_info("# cpu%-2d %12llu %12llu %12llu %12llu %12llu %14s\n", cpu,
			att, c->read, st.overrun, st.dropped, st.commit_overrun,
			att == c->read + st.overrun + st.dropped + st.commit_overrun ?
			"holds" : "BROKEN");
	}
	pr_info("# rbtrace_torture: %u passed, %u failed\n", tests - failed, failed);
	return failed ? -EIO : 0;
}

static int __init tort_init(void)
{
	struct task_struct *reader = NULL, *churner = NULL, *hotplugger = NULL;
	unsigned int subbuf;
	int cpu, ret = -ENOMEM;

	if (max_size < sizeof(struct tort_rec) || max_size > 255) {
		pr_err("rbtrace_torture: max_size must be 16 to 255\n");
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&tort_cpus, GFP_KERNEL))
		return -ENOMEM;
	tc = kcalloc(nr_cpu_ids, sizeof(*tc), GFP_KERNEL);
	buf = rbt_alloc(buffer_kb * 1024UL, overwrite ? RBT_FL_OVERWRITE : 0, 0);
	if (!tc || !buf)
		goto out;
	subbuf = rbt_subbuf_size(buf);
	page_copy = kmalloc(subbuf + 16, GFP_KERNEL);
	if (!page_copy)
		goto out;
	for_each_possible_cpu(cpu) {
		int ctx;

		for (ctx = 0; ctx < NR_CTX; ctx++)
			tc[cpu].s[ctx].rng = get_random_u32() | 1;
		mutex_init(&tc[cpu].check_lock);
		hrtimer_init(&tc[cpu].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		tc[cpu].timer.function = tort_timer;
	}
	if (nmi) {
		ret = register_nmi_handler(NMI_LOCAL, tort_nmi, 0, "rbtrace_torture");
		if (ret)
			goto out;
	}

	/* No CPU comes or goes but ours from here (tort_hotplug()). */
	cpus_read_lock();
	cpumask_copy(tort_cpus, cpu_online_mask);
	cpus_read_unlock();
	for_each_cpu(cpu, tort_cpus)
		if (tort_cpu_start(cpu))
			goto stop;
	reader = kthread_run(tort_reader, NULL, "rbt_tort_rd");
	if (churn)
		churner = kthread_run(tort_churn, NULL, "rbt_tort_churn");
	if (hotplug && cpumask_weight(tort_cpus) > 1)
		hotplugger = kthread_run(tort_hotplug, NULL, "rbt_tort_hp");
	msleep(seconds * 1000);
stop:
	/* Every CPU back online and no resize in progress. */
	if (hotplugger && !IS_ERR(hotplugger))
		kthread_stop(hotplugger);
	if (churner && !IS_ERR(churner))
		kthread_stop(churner);
	WRITE_ONCE(stopping, true);
	for_each_cpu(cpu, tort_cpus)
		tort_cpu_stop(cpu);
	if (reader && !IS_ERR(reader))
		kthread_stop(reader);
	/* The last IPI writers: no event may come after the drain. */
	while (atomic_read(&ipis_in_flight))
		usleep_range(1000, 2000);
	if (nmi) {
		/* Let any NMI in flight finish before the handler goes. */
		synchronize_rcu();
		unregister_nmi_handler(NMI_LOCAL, "rbtrace_torture");
	}
	for_each_cpu(cpu, tort_cpus)
		while (tort_consume(cpu, 4096))
			;
	/* The verdict is in the KTAP output; the load itself succeeds. */
	tort_report();
	ret = 0;
out:
	rbt_free(buf);
	buf = NULL;
	kfree(page_copy);
	kfree(tc);
	free_cpumask_var(tort_cpus);
	return ret;
}

/* Everything ran and was freed at load. */
static void __exit tort_exit(void)
{
}

module_init(tort_init);
module_exit(tort_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rbtrace: torture test");
