// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace_torture: prove that nothing is lost or corrupted.
 *
 * One writer thread per CPU writes events of varying size that carry
 * (cpu, context, sequence, checksum); an hrtimer per CPU interrupts it
 * and writes from hard IRQ, and raises an NMI on its own CPU that writes
 * too. Readers run at the same time: a consuming reader, a raw-page
 * reader (the splice path) and an iterator, on whatever CPU the scheduler
 * gives them, while the buffer is resized and switched between overwrite
 * and producer/consumer mode. Every event read is checked; at the end the
 * buffer is drained and, per CPU,
 *
 *	committed == read + overrun		(exactly)
 *	attempts - committed >= dropped + commit_overrun
 *	sequences strictly increase per (cpu, context); stamps never go back
 *	bytes after the data of every raw page are zero
 *
 * The result is printed as KTAP, one test per CPU plus the global checks,
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
	u32 next_seq;		/* writer side */
	u64 attempts;
	u64 committed;
	u32 last_seq;		/* reader side */
	bool seen;
};

struct tort_cpu {
	struct tort_stream s[NR_CTX];
	struct mutex check_lock;	/* one checking reader at a time */
	u64 read;
	u64 last_ts;
	u64 bad_csum, bad_seq, bad_ts, bad_stale, bad_cpu;
	u64 iter_events, iter_bad, iter_overruns;
	u64 pages, pages_swapped;
	struct hrtimer timer;
	bool nmi_pending;
	struct task_struct *writer;
};

static struct rbt_buffer *buf;
static struct tort_cpu *tc;
static bool stopping;
static u8 *page_copy;

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
	unsigned int len = sizeof(struct tort_rec) +
			   get_random_u32_below(max_size - sizeof(struct tort_rec) + 1);
	struct rbt_event *event;
	struct tort_rec *r;
	unsigned int i;

	s->attempts++;
	event = rbt_lock_reserve(buf, len);
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
	struct tort_cpu *c = container_of(t, struct tort_cpu, timer);

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

static int tort_reader(void *arg)
{
	unsigned long round = 0;
	int cpu;

	while (!kthread_should_stop()) {
		for_each_online_cpu(cpu) {
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
		round++;
		usleep_range(200, 400);
	}
	return 0;
}

static int tort_churn(void *arg)
{
	unsigned long round = 0;

	while (!kthread_should_stop()) {
		msleep(150);
		if (round % 3 == 0)
			rbt_resize(buf, (round & 2 ? 2 : 1) * buffer_kb * 1024UL, RBT_ALL_CPUS);
		if (round % 5 == 4)
			rbt_set_overwrite(buf, !rbt_overwrite(buf));
		round++;
	}
	return 0;
}

static int tort_report(void)
{
	unsigned int tests = 0, failed = 0;
	int cpu, ctx;

	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", num_online_cpus());
	for_each_online_cpu(cpu) {
		struct tort_cpu *c = &tc[cpu];
		struct rbt_cpu_stats st;
		u64 att = 0, com = 0, lost;
		bool ok;

		rbt_cpu_stats(buf, cpu, &st);
		for (ctx = 0; ctx < NR_CTX; ctx++) {
			att += c->s[ctx].attempts;
			com += c->s[ctx].committed;
		}
		lost = st.dropped + st.commit_overrun;
		ok = com == c->read + st.overrun && st.entries == 0 &&
		     c->read == st.read && att - com >= lost &&
		     !c->bad_csum && !c->bad_seq && !c->bad_ts && !c->bad_stale &&
		     !c->bad_cpu && !c->iter_bad;
		tests++;
		failed += !ok;
		pr_info("# cpu%d: attempts %llu committed %llu read %llu (stats read %llu) overrun %llu dropped %llu commit_overrun %llu entries %llu ts_lost %llu\n",
			cpu, att, com, c->read, st.read, st.overrun, st.dropped,
			st.commit_overrun, st.entries, st.ts_lost);
		for (ctx = 0; ctx < NR_CTX; ctx++)
			pr_info("# cpu%d %-4s: attempts %llu committed %llu\n", cpu,
				ctx_names[ctx], c->s[ctx].attempts, c->s[ctx].committed);
		pr_info("# cpu%d: corrupted %llu sequence errors %llu time inversions %llu stale bytes %llu foreign %llu; pages %llu; iterator events %llu bad %llu overruns %llu\n",
			cpu, c->bad_csum, c->bad_seq, c->bad_ts, c->bad_stale, c->bad_cpu,
			c->pages, c->iter_events, c->iter_bad, c->iter_overruns);
		pr_info("%s %u cpu%d\n", ok ? "ok" : "not ok", tests, cpu);
	}
	pr_info("# rbtrace_torture: %u passed, %u failed\n", tests - failed, failed);
	return failed ? -EIO : 0;
}

static int __init tort_init(void)
{
	struct task_struct *reader = NULL, *churner = NULL;
	unsigned int subbuf;
	int cpu, ret = -ENOMEM;

	if (max_size < sizeof(struct tort_rec) || max_size > 255) {
		pr_err("rbtrace_torture: max_size must be 16 to 255\n");
		return -EINVAL;
	}
	tc = kcalloc(nr_cpu_ids, sizeof(*tc), GFP_KERNEL);
	buf = rbt_alloc(buffer_kb * 1024UL, overwrite ? RBT_FL_OVERWRITE : 0, 0);
	if (!tc || !buf)
		goto out;
	subbuf = rbt_subbuf_size(buf);
	page_copy = kmalloc(subbuf + 16, GFP_KERNEL);
	if (!page_copy)
		goto out;
	for_each_possible_cpu(cpu)
		mutex_init(&tc[cpu].check_lock);
	if (nmi) {
		ret = register_nmi_handler(NMI_LOCAL, tort_nmi, 0, "rbtrace_torture");
		if (ret)
			goto out;
	}

	for_each_online_cpu(cpu) {
		tc[cpu].writer = kthread_create_on_cpu(tort_writer, NULL, cpu, "rbt_tort/%u");
		if (IS_ERR(tc[cpu].writer)) {
			tc[cpu].writer = NULL;
			goto stop;
		}
		wake_up_process(tc[cpu].writer);
	}
	/* A pinned timer is armed on its own CPU. */
	for_each_online_cpu(cpu) {
		hrtimer_init(&tc[cpu].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		tc[cpu].timer.function = tort_timer;
		smp_call_function_single(cpu, tort_arm, &tc[cpu].timer, 1);
	}
	reader = kthread_run(tort_reader, NULL, "rbt_tort_rd");
	if (churn)
		churner = kthread_run(tort_churn, NULL, "rbt_tort_churn");
	msleep(seconds * 1000);
stop:
	WRITE_ONCE(stopping, true);
	if (churner && !IS_ERR(churner))
		kthread_stop(churner);
	for_each_online_cpu(cpu) {
		if (tc[cpu].writer)
			kthread_stop(tc[cpu].writer);
		hrtimer_cancel(&tc[cpu].timer);
	}
	if (reader && !IS_ERR(reader))
		kthread_stop(reader);
	if (nmi) {
		/* Let any NMI in flight finish before the handler goes. */
		synchronize_rcu();
		unregister_nmi_handler(NMI_LOCAL, "rbtrace_torture");
	}
	for_each_online_cpu(cpu)
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
