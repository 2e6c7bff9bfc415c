// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace_bench: write cost of rbtrace against the kernel's own ring
 * buffer (ftrace's), measured with the same loop in the same boot, and
 * against the limit: the same bytes and the same clock read stored into
 * a per-CPU array with no atomics and no nesting support.
 *
 * Results are printed, one line per measurement, as
 *   rbtrace_bench: impl=<rbtrace|ftrace|limit|rbtrace_latch|rbtrace_write|ftrace_write|
 *                        rbtrace_persist>
 *                  size=<payload> writers=<n>
 *                  reader=<0|1> events=<n> ns_per_event=<x.y>
 * Run it under QEMU -icount shift=0,align=off,sleep=off for figures that
 * repeat across boots (guest time counts instructions).
 *
 * With persist_addr= and persist_size= (a range reserved with memmap=) it
 * also measures rbtrace on a buffer placed there (rbt_alloc_in(): the
 * persistent buffer's write path, which notes each commit in the range's
 * header for a later boot), beside the ordinary one.
 *
 * With hold_kb=N it measures nothing: it allocates hold_count buffers of
 * each kind named by impls (rbtrace, ftrace), N KiB per CPU, and frees
 * them at unload, so that the memory a buffer takes beyond its data
 * pages can be read from /proc/slabinfo and /proc/meminfo around the load.
 */
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/percpu.h>
#include <linux/vmalloc.h>
#include <rbtrace/rbtrace.h>

static unsigned int events = 200000;
module_param(events, uint, 0400);
MODULE_PARM_DESC(events, "events written per writer per measurement (default 200000)");

static char *impls =
	"rbtrace,ftrace,limit,rbtrace_latch,rbtrace_write,ftrace_write,rbtrace_persist";
module_param(impls, charp, 0400);
MODULE_PARM_DESC(impls, "comma-separated implementations to measure");

static unsigned int hold_kb;
module_param(hold_kb, uint, 0400);
MODULE_PARM_DESC(hold_kb, "if set, measure nothing: allocate the impls' buffers of hold_kb KiB per CPU and hold them until unload (memory accounting)");

#define BENCH_HOLD_MAX	256
static unsigned int hold_count = 1;
module_param(hold_count, uint, 0400);
MODULE_PARM_DESC(hold_count, "with hold_kb: how many buffers of each impl (1 to 256)");

static unsigned long long persist_addr;
module_param(persist_addr, ullong, 0400);
MODULE_PARM_DESC(persist_addr, "physical address of a range reserved with memmap=: measure rbtrace_persist there");

static unsigned long persist_size;
module_param(persist_size, ulong, 0400);
MODULE_PARM_DESC(persist_size, "bytes at persist_addr");

static struct rbt_buffer *hold_rbt[BENCH_HOLD_MAX];
static struct trace_buffer *hold_ftb[BENCH_HOLD_MAX];

static unsigned int sizes[] = { 4, 10, 64, 256 };

#define BENCH_BUF_SIZE	(4UL << 20)	/* per CPU: wraps, overwrite mode */

/*
 * rbtrace_latch: rbtrace stamping with its latch clock (a TSC clock the
 * write path inlines) instead of the default local clock; rbtrace_write
 * and ftrace_write: one call that copies a record, rbt_write() against
 * ring_buffer_write(). One writer, no reader only, beside the others.
 */
enum bench_impl { IMPL_RBTRACE, IMPL_FTRACE, IMPL_LIMIT, IMPL_RBTRACE_LATCH,
		  IMPL_RBTRACE_WRITE, IMPL_FTRACE_WRITE, IMPL_RBTRACE_PERSIST };
static const char * const impl_names[] = { "rbtrace", "ftrace", "limit", "rbtrace_latch",
					   "rbtrace_write", "ftrace_write", "rbtrace_persist" };

/* The limit: records packed one after the other in a per-CPU array. */
struct limit_cpu {
	u8 *base;
	unsigned long pos;
};

struct limit_rec {
	u64 ts;
	u32 len;
	u8 data[];
} __packed;

static struct limit_cpu __percpu *limit_buf;
static struct rbt_buffer *rbt;
static struct rbt_buffer *rbt_latch;
static struct rbt_buffer *rbt_persist;
static const struct rbt_clock *latch_clock;
static struct trace_buffer *ftb;

struct bench_run {
	enum bench_impl impl;
	unsigned int size;
	unsigned int nr_writers;
	bool reader;
	atomic_t ready;
	atomic_t done;
	bool stop_reader;
	struct completion go;
	u64 *start;		/* per CPU: when each writer started */
	u64 *end;		/* and ended */
	u64 consumed;
};

static u8 payload[256];

static __always_inline void limit_write(unsigned int size)
{
	unsigned long len = ALIGN(sizeof(struct limit_rec) + size, 4);
	struct limit_cpu *lc;
	struct limit_rec *rec;

	preempt_disable_notrace();
	lc = this_cpu_ptr(limit_buf);
	if (unlikely(lc->pos + len > BENCH_BUF_SIZE))
		lc->pos = 0;
	rec = (struct limit_rec *)(lc->base + lc->pos);
	lc->pos += len;
	rec->ts = trace_clock_local();
	rec->len = size;
	memcpy(rec->data, payload, size);
	preempt_enable_notrace();
}

static __always_inline void ftrace_write(unsigned int size)
{
	struct ring_buffer_event *event;

	event = ring_buffer_lock_reserve(ftb, size);
	if (!event)
		return;
	memcpy(ring_buffer_event_data(event), payload, size);
#ifdef RB_BENCH_COMMIT_NO_EVENT
	ring_buffer_unlock_commit(ftb);
#else
	ring_buffer_unlock_commit(ftb, event);
#endif
}

static __always_inline void rbtrace_write(struct rbt_buffer *b, unsigned int size)
{
	void *data;

	data = rbt_reserve(b, size);
	if (!data)
		return;
	memcpy(data, payload, size);
	rbt_unlock_commit(b);
}

static noinline void bench_loop(enum bench_impl impl, unsigned int size)
{
	unsigned int i;

	switch (impl) {
	case IMPL_RBTRACE:
		for (i = 0; i < events; i++)
			rbtrace_write(rbt, size);
		break;
	case IMPL_RBTRACE_LATCH:
		for (i = 0; i < events; i++)
			rbtrace_write(rbt_latch, size);
		break;
	case IMPL_RBTRACE_PERSIST:
		for (i = 0; i < events; i++)
			rbtrace_write(rbt_persist, size);
		break;
	case IMPL_FTRACE:
		for (i = 0; i < events; i++)
			ftrace_write(size);
		break;
	case IMPL_LIMIT:
		for (i = 0; i < events; i++)
			limit_write(size);
		break;
	case IMPL_RBTRACE_WRITE:
		for (i = 0; i < events; i++)
			rbt_write(rbt, size, payload);
		break;
	case IMPL_FTRACE_WRITE:
		for (i = 0; i < events; i++)
			ring_buffer_write(ftb, size, payload);
		break;
	}
}

static int bench_writer(void *arg)
{
	struct bench_run *run = arg;
	int cpu = raw_smp_processor_id();

	atomic_inc(&run->ready);
	wait_for_completion(&run->go);
	run->start[cpu] = ktime_get_ns();
	bench_loop(run->impl, run->size);
	run->end[cpu] = ktime_get_ns();
	atomic_inc(&run->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static u64 bench_consume_all(struct bench_run *run, int cpu)
{
	u64 n = 0;

	switch (run->impl) {
	case IMPL_RBTRACE:
		while (rbt_consume(rbt, cpu, NULL, NULL))
			n++;
		break;
	case IMPL_FTRACE:
		while (ring_buffer_consume(ftb, cpu, NULL, NULL))
			n++;
		break;
	case IMPL_LIMIT:
	case IMPL_RBTRACE_LATCH:
		break;
	}
	run->consumed += n;
	return n;
}

static int bench_reader(void *arg)
{
	struct bench_run *run = arg;
	int cpu;

	/*
	 * A reader that finds nothing naps, as a real one blocks: under
	 * -icount every instruction of a spinning reader would be charged
	 * to the writers' clock.
	 */
	while (!READ_ONCE(run->stop_reader)) {
		u64 n = 0;

		for_each_online_cpu(cpu)
			n += bench_consume_all(run, cpu);
		if (!n)
			usleep_range(20, 50);
		cond_resched();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void bench_reset(void)
{
	if (rbt)
		rbt_reset(rbt);
	if (rbt_latch)
		rbt_reset(rbt_latch);
	if (ftb)
		ring_buffer_reset(ftb);
}

static void bench_one(enum bench_impl impl, unsigned int size,
		      unsigned int nr_writers, bool reader)
{
	struct task_struct **writers;
	struct task_struct *rd = NULL;
	struct bench_run *run;
	unsigned int n = 0;
	u64 total, first = U64_MAX, last = 0;
	int cpu;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	writers = kcalloc(nr_cpu_ids, sizeof(*writers), GFP_KERNEL);
	if (run) {
		run->start = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
		run->end = kcalloc(nr_cpu_ids, sizeof(u64), GFP_KERNEL);
	}
	if (!run || !writers || !run->start || !run->end)
		goto out_free;
	run->impl = impl;
	run->size = size;
	run->nr_writers = nr_writers;
	run->reader = reader;
	init_completion(&run->go);
	bench_reset();

	/* One writer runs on the last CPU, the reader on CPU 0. */
	for_each_online_cpu(cpu) {
		if (n == nr_writers)
			break;
		if (nr_writers == 1)
			cpu = num_online_cpus() - 1;
		writers[n] = kthread_create_on_cpu(bench_writer, run, cpu, "rbt_bench/%u");
		if (IS_ERR(writers[n])) {
			writers[n] = NULL;
			goto out;
		}
		wake_up_process(writers[n]);
		n++;
	}
	if (reader) {
		rd = kthread_create_on_cpu(bench_reader, run, 0, "rbt_bench_rd/%u");
		if (IS_ERR(rd)) {
			rd = NULL;
			goto out;
		}
		wake_up_process(rd);
	}
	while (atomic_read(&run->ready) < n)
		usleep_range(1000, 2000);
	complete_all(&run->go);
	while (atomic_read(&run->done) < n)
		msleep(20);
	WRITE_ONCE(run->stop_reader, true);

	/*
	 * From the first start to the last end, per event written by all:
	 * under -icount this is instructions per event whether the vCPUs
	 * ran in parallel or took turns.
	 */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!run->end[cpu])
			continue;
		first = min(first, run->start[cpu]);
		last = max(last, run->end[cpu]);
	}
	total = last - first;
	pr_info("rbtrace_bench: impl=%s size=%u writers=%u reader=%d events=%u ns_per_event=%llu.%03llu consumed=%llu\n",
		impl_names[impl], size, n, reader, events,
		div64_u64(total, (u64)n * events),
		div64_u64(total * 1000, (u64)n * events) % 1000,
		run->consumed);
out:
	if (rd)
		kthread_stop(rd);
	for (cpu = 0; cpu < n; cpu++)
		if (writers[cpu])
			kthread_stop(writers[cpu]);
out_free:
	if (run) {
		kfree(run->start);
		kfree(run->end);
	}
	kfree(writers);
	kfree(run);
}

static void limit_free(void)
{
	int cpu;

	if (!limit_buf)
		return;
	for_each_possible_cpu(cpu)
		vfree(per_cpu_ptr(limit_buf, cpu)->base);
	free_percpu(limit_buf);
}

static int limit_alloc(void)
{
	int cpu;

	limit_buf = alloc_percpu(struct limit_cpu);
	if (!limit_buf)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		per_cpu_ptr(limit_buf, cpu)->base = vzalloc(BENCH_BUF_SIZE);
		if (!per_cpu_ptr(limit_buf, cpu)->base)
			return -ENOMEM;
	}
	return 0;
}

static bool impl_wanted(enum bench_impl impl)
{
	return strstr(impls, impl_names[impl]);
}

static void bench_free(void)
{
	if (ftb)
		ring_buffer_free(ftb);
	ftb = NULL;
	rbt_free(rbt);
	rbt = NULL;
	rbt_free(rbt_latch);
	rbt_latch = NULL;
	rbt_free(rbt_persist);
	rbt_persist = NULL;
	if (latch_clock)
		rbt_clock_put(latch_clock);
	latch_clock = NULL;
	limit_free();
	limit_buf = NULL;
}

static void bench_hold_free(void)
{
	unsigned int i;

	for (i = 0; i < BENCH_HOLD_MAX; i++) {
		if (hold_ftb[i])
			ring_buffer_free(hold_ftb[i]);
		hold_ftb[i] = NULL;
		rbt_free(hold_rbt[i]);
		hold_rbt[i] = NULL;
	}
}

static int bench_hold(void)
{
	unsigned long size = (unsigned long)hold_kb << 10;
	unsigned int i;

	if (!hold_count || hold_count > BENCH_HOLD_MAX)
		return -EINVAL;
	for (i = 0; i < hold_count; i++) {
		if (impl_wanted(IMPL_RBTRACE)) {
			hold_rbt[i] = rbt_alloc(size, RBT_FL_OVERWRITE, 0);
			if (!hold_rbt[i])
				goto nomem;
		}
		if (impl_wanted(IMPL_FTRACE)) {
			hold_ftb[i] = ring_buffer_alloc(size, RB_FL_OVERWRITE);
			if (!hold_ftb[i])
				goto nomem;
		}
	}
	pr_info("rbtrace_bench: holding %u buffers of %u KiB per CPU of %s\n",
		hold_count, hold_kb, impls);
	return 0;
nomem:
	bench_hold_free();
	return -ENOMEM;
}

static int __init bench_init(void)
{
	unsigned int i, impl;
	bool reader;
	int ret;

	if (hold_kb)
		return bench_hold();
	memset(payload, 0x5a, sizeof(payload));
	ret = limit_alloc();
	rbt = rbt_alloc(BENCH_BUF_SIZE, RBT_FL_OVERWRITE, 0);
	ftb = ring_buffer_alloc(BENCH_BUF_SIZE, RB_FL_OVERWRITE);
	if (ret || !rbt || !ftb) {
		ret = -ENOMEM;
		pr_err("rbtrace_bench: cannot allocate the buffers\n");
		goto out;
	}
	if (impl_wanted(IMPL_RBTRACE_LATCH)) {
		latch_clock = rbt_clock_find("latch");
		rbt_latch = rbt_alloc(BENCH_BUF_SIZE, RBT_FL_OVERWRITE, 0);
		if (!latch_clock || !rbt_latch) {
			ret = -ENOMEM;
			latch_clock = NULL;
			goto out;
		}
		rbt_clock_get(latch_clock);
		rbt_set_clock(rbt_latch, latch_clock->read);
	}
	if (persist_addr && persist_size) {
		rbt_persist = rbt_alloc_in(persist_addr, persist_size, RBT_FL_OVERWRITE, 0);
		if (!rbt_persist) {
			ret = -ENOMEM;
			pr_err("rbtrace_bench: cannot place a buffer at %#llx\n", persist_addr);
			goto out;
		}
		/* A previous run's data: shown read-only until reset. */
		rbt_reset(rbt_persist);
	}

	pr_info("rbtrace_bench: start events=%u cpus=%u\n", events, num_online_cpus());
	for (reader = false; ; reader = true) {
		for (i = 0; i < ARRAY_SIZE(sizes); i++)
			for (impl = IMPL_RBTRACE; impl <= IMPL_LIMIT; impl++)
				if (impl_wanted(impl) && !(reader && impl == IMPL_LIMIT))
					bench_one(impl, sizes[i], 1, reader);
		if (reader)
			break;
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		for (impl = IMPL_RBTRACE; impl <= IMPL_LIMIT; impl++)
			if (impl_wanted(impl))
				bench_one(impl, sizes[i], num_online_cpus(), false);
	for (impl = IMPL_RBTRACE_LATCH; impl <= IMPL_RBTRACE_PERSIST; impl++)
		for (i = 0; i < ARRAY_SIZE(sizes); i++)
			if (impl_wanted(impl) && (impl != IMPL_RBTRACE_PERSIST || rbt_persist))
				bench_one(impl, sizes[i], 1, false);
	pr_info("rbtrace_bench: done\n");
	ret = 0;
out:
	bench_free();
	return ret;
}

/* The measurements ran and freed everything at load; hold_kb's buffers remain. */
static void __exit bench_exit(void)
{
	bench_hold_free();
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rbtrace: write-cost benchmark against ftrace's ring buffer");
