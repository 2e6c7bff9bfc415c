// SPDX-License-Identifier: GPL-2.0
/*
 * A test hook linked into rbtrace.ko by test builds only (make tests,
 * RBT_HOOKS=1; Kbuild): a second tracer made and destroyed in a loop
 * through rbtr_events_instance_add() and rbtr_events_instance_remove(),
 * the way instances use them, to provoke the race of an event file
 * removed while its probe fires on every CPU (events/evfile-race). It
 * lives in tests/hooks/, not tracer/, because it is a test of the tracer
 * and no part of the product: it uses the tracer's own headers, which
 * only the tracer and its test hooks may (scripts/check-layout.py).
 *
 * Each cycle enables the sched, irq, timer and raw_syscalls events in it
 * (the timer system's generic events too: their perf counters' handler
 * records into every tracer that has them on), and the kprobes system's
 * if there is one, with a filter on two of them, waits @evfile_hold_ms
 * while they fire, checks that records arrived, and removes the tracer;
 * its buffer is freed right after the removal, so that a probe still
 * writing into it would be a use after free that KASAN reports.
 *
 * "echo N > /sys/module/rbtrace/parameters/evfile_cycles" runs N cycles
 * in the writer's context and logs one line with the counts.
 */
#ifdef RBTRACE_TEST_HOOKS
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <rbtrace/rbtrace.h>
#include "../../tracer/event.h"
#include "../../tracer/filter.h"
#include "../../tracer/trace.h"

static unsigned int evfile_hold_ms = 5;
module_param(evfile_hold_ms, uint, 0600);
MODULE_PARM_DESC(evfile_hold_ms, "test builds: how long each evfile_cycles tracer records");

/* Set @text as the filter of events/@system/@name of @tr. */
static int rbtr_evtest_filter(struct rbtr_trace *tr, const char *system, const char *name,
			      const char *text)
{
	struct rbtr_event_file *file;

	rbtr_events_lock();
	file = rbtr_event_file_lookup(tr, system, name);
	rbtr_events_unlock();
	/* Only this thread removes @tr: the file stays. */
	return file ? rbtr_filter_set_event(file, text) : -ENOENT;
}

static u64 rbtr_evtest_entries(struct rbt_buffer *buffer)
{
	struct rbt_cpu_stats st;
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		if (!rbt_cpu_stats(buffer, cpu, &st))
			n += st.written;
	return n;
}

/* One cycle: @*written gets the records the tracer took. */
static int rbtr_evtest_cycle(struct dentry *parent, u64 *written)
{
	static const char * const systems[] = { "sched", "irq", "timer", "raw_syscalls" };
	struct rbtr_event_match m = { };
	struct rbt_buffer *buffer;
	struct rbtr_trace *tr;
	unsigned int i;
	int ret;

	tr = kzalloc(sizeof(*tr), GFP_KERNEL);
	buffer = rbt_alloc(64 << 10, RBT_FL_OVERWRITE, 0);
	ret = -ENOMEM;
	if (!tr || !buffer)
		goto free;
	ret = rbtr_trace_init(tr, buffer);
	if (ret)
		goto free;
	ret = rbtr_events_instance_add(tr, parent);
	if (ret)
		goto exit;
	for (i = 0; i < ARRAY_SIZE(systems) && !ret; i++) {
		m.system = systems[i];
		ret = rbtr_event_set_match(tr, &m, true, false);
	}
	/* kprobe events, if the scenario defined some (-EINVAL: none). */
	m.system = "kprobes";
	if (!ret && rbtr_event_set_match(tr, &m, true, false) == -EINVAL)
		ret = 0;
	if (!ret)
		ret = rbtr_evtest_filter(tr, "raw_syscalls", "sys_enter", "id != -1");
	if (!ret)
		ret = rbtr_evtest_filter(tr, "sched", "sched_switch", "prev_pid >= 0");
	if (!ret)
		msleep(READ_ONCE(evfile_hold_ms));
	/* Removed with every event still enabled and firing. */
	rbtr_events_instance_remove(tr);
	*written = rbtr_evtest_entries(buffer);
exit:
	rbtr_trace_exit(tr);
free:
	if (buffer)
		rbt_free(buffer);
	kfree(tr);
	return ret;
}

static int rbtr_evtest_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i, empty = 0;
	struct dentry *parent;
	u64 written, total = 0;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	parent = debugfs_create_dir("evfile-test", rbtr_global_trace.dir);
	if (IS_ERR(parent))
		return PTR_ERR(parent);
	for (i = 0; i < n; i++) {
		written = 0;
		ret = rbtr_evtest_cycle(parent, &written);
		if (ret)
			break;
		total += written;
		empty += !written;
	}
	debugfs_remove(parent);
	pr_info("rbtrace: evfile_cycles: %u of %u cycles done, %llu records, %u cycles without any (%d)\n",
		i, n, total, empty, ret);
	return ret;
}

static const struct kernel_param_ops rbtr_evtest_ops = {
	.set = rbtr_evtest_set,
};
module_param_cb(evfile_cycles, &rbtr_evtest_ops, NULL, 0200);
MODULE_PARM_DESC(evfile_cycles,
		 "test builds: make and remove a second tracer recording events N times");
#endif /* RBTRACE_TEST_HOOKS */
