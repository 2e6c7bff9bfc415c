// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace duration filter: tracing_thresh for the paired tracepoint
 * events, and the state the probes of tp_probes.c share.
 *
 * tracing_thresh holds microseconds, as ftrace's; 0 turns the filter off.
 * While it is set, a pair whose two events are both enabled
 *
 *	irq_handler_entry / irq_handler_exit		irq:irq_handler_duration
 *	softirq_entry / softirq_exit			irq:softirq_duration
 *	hrtimer_expire_entry / hrtimer_expire_exit	timer:hrtimer_expire_duration
 *	workqueue_execute_start / workqueue_execute_end	workqueue:workqueue_execute_duration
 *	sys_enter / sys_exit				raw_syscalls:sys_duration
 *
 * is recorded only when it lasted at least the threshold, as ONE event
 * written at the exit (right column), carrying the entry's fields, the
 * exit's fields, the start time and the duration. Shorter pairs leave
 * nothing in the buffer. An event of a pair enabled alone is recorded as
 * usual: there is no duration to filter on.
 *
 * Why one event at the exit, and not the entry and exit events:
 *
 *  - The ring buffer stamps an event when it is reserved, and stamps only
 *    go forward on a CPU (seed 000's before/write stamps). An entry event
 *    written at the exit would carry the exit's time: a reader computing
 *    exit - entry would find ~0 for exactly the pairs kept for being
 *    long, and nested events (the IRQ inside the softirq) would appear
 *    outside their parent. The start time has to travel as data.
 *  - Recording the entry at the entry and taking it back later is what
 *    seed 003 forbids: the entry is not the last event any more once
 *    anything else (another pair, another task) has written after it,
 *    and a syscall can sleep for seconds; rbt_discard_commit() can only
 *    drop the event still reserved.
 *  - It is what ftrace does for function_graph with tracing_thresh: the
 *    entry records nothing and the return event carries calltime and
 *    rettime.
 *
 * The duration events have format files like any other (trace-cmd and
 * libtraceevent read them), live in the system of their pair so that
 * "trace-cmd record -e irq" saves their format, and have no enable file:
 * they appear while the filter applies to their pair.
 *
 * How an entry finds its exit (duration.h): per-CPU slots by context
 * level for IRQs, softirqs and hrtimers; a hash by pid for work items and
 * syscalls, which sleep and migrate. Every change of tracing_thresh or of
 * an event's enable state bumps a generation number that entries carry,
 * so an exit never pairs with an entry saved before the change: pairs in
 * flight across a change are dropped, never mismeasured. The time is the
 * buffer's clock (that of the event stamps); the threshold compares with
 * it in nanoseconds (with trace_clock "counter", in counts).
 *
 * Costs: an entry is a clock read and a few stores (per task: one
 * cmpxchg); an exit the same plus the event when kept. No lock, no
 * allocation, no waiting. tracing_thresh_stats counts, per pair, the
 * exits kept, too short, unmatched (no entry saved: enabled mid-pair, a
 * change of settings) and lost (the entry was evicted by another task's
 * hashed to the same slot, or torn), and the per-task entries that found
 * their slot busy or evicted another's (collisions).
 *
 * The function graph tracer (function_graph.c) applies the same threshold to
 * every traced call, the same way: one funcgraph_exit written at the exit,
 * with calltime and rettime, and no entry (rbtr_dur_thresh_ns()).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "trace.h"
#include "tp.h"
#include "function.h"

/* Per-task tables: syscalls are many (sleepers), work items fewer. */
#define RBTR_DUR_SYSCALL_BITS	12
#define RBTR_DUR_WORK_BITS	9

/* Largest threshold whose nanoseconds fit in a u64. */
#define RBTR_DUR_MAX_US		div_u64(U64_MAX, NSEC_PER_USEC)

struct rbtr_dur_pair rbtr_dur_pairs[RBTR_PAIR_NR] = {
	[RBTR_PAIR_IRQ]		= { .name = "irq_handler" },
	[RBTR_PAIR_SOFTIRQ]	= { .name = "softirq" },
	[RBTR_PAIR_HRTIMER]	= { .name = "hrtimer_expire" },
	[RBTR_PAIR_WORK]		= { .name = "workqueue_execute" },
	[RBTR_PAIR_SYSCALL]	= { .name = "sys" },
};

/*
 * The filter's generation: even and never 0 while stable, odd while the
 * thresholds change (a sequence count). See rbtr_dur_update_locked().
 */
unsigned int rbtr_dur_gen = 2;

static DEFINE_MUTEX(rbtr_dur_mutex);	/* thresholds, enable states */
static u64 rbtr_dur_thresh_us;		/* tracing_thresh as written */
static struct dentry *rbtr_dur_files[2];

/*
 * Publish the threshold each pair applies under a new generation, as a
 * seqcount writer: odd while the thresholds change. A probe takes the
 * generation and the threshold of its pair together or not at all
 * (rbtr_dur_state() in tp_probes.c): a probe that runs during the
 * change sees generation 0, which no entry is saved under and no exit
 * matches, so a pair in flight across a change is dropped, never paired
 * with an entry saved under other settings.
 */
static void rbtr_dur_update_locked(void)
{
	u64 ns = rbtr_dur_thresh_us * NSEC_PER_USEC;
	unsigned int gen = rbtr_dur_gen;
	int i;

	WRITE_ONCE(rbtr_dur_gen, gen + 1);
	/* Odd before the thresholds. Pairs with smp_rmb() in rbtr_dur_state(). */
	smp_wmb();
	for (i = 0; i < RBTR_PAIR_NR; i++) {
		struct rbtr_dur_pair *p = &rbtr_dur_pairs[i];

		WRITE_ONCE(p->thresh, p->entry_on && p->exit_on ? ns : 0);
	}
	gen += 2;
	if (!gen)
		gen = 2;
	/* The thresholds before even. Pairs with smp_load_acquire(). */
	smp_store_release(&rbtr_dur_gen, gen);
}

/**
 * rbtr_dur_pair_set - one event of a pair was enabled or disabled
 * @id: the pair
 * @is_exit: the exit event (else the entry)
 * @on: its new state
 *
 * Called from the event's reg (after its probe is registered) and unreg
 * (before its probe is unregistered).
 */
void rbtr_dur_pair_set(enum rbtr_pair_id id, bool is_exit, bool on)
{
	struct rbtr_dur_pair *p = &rbtr_dur_pairs[id];

	mutex_lock(&rbtr_dur_mutex);
	if (is_exit)
		p->exit_on = on;
	else
		p->entry_on = on;
	rbtr_dur_update_locked();
	mutex_unlock(&rbtr_dur_mutex);
}

/**
 * rbtr_dur_thresh_ns - tracing_thresh for the function graph tracer
 *
 * Its exits compare a duration of the buffer's clock with it, as the
 * pairs above do; no generation: a call spans at most one change.
 *
 * Return: the threshold in nanoseconds (0: off).
 */
u64 rbtr_dur_thresh_ns(void)
{
	return READ_ONCE(rbtr_dur_thresh_us) * NSEC_PER_USEC;
}

/* tracing_thresh: microseconds, as ftrace's. */
static ssize_t rbtr_thresh_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(rbtr_dur_thresh_us));
}

static ssize_t rbtr_thresh_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	u64 us;

	/* Garbage, a sign, an overflow: -EINVAL, and nothing changes. */
	if (!cnt || cnt > 32 || kstrtoull_from_user(ubuf, cnt, 10, &us))
		return -EINVAL;
	if (us > RBTR_DUR_MAX_US)
		return -EINVAL;
	mutex_lock(&rbtr_dur_mutex);
	WRITE_ONCE(rbtr_dur_thresh_us, us);
	rbtr_dur_update_locked();
	mutex_unlock(&rbtr_dur_mutex);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_thresh_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_generic,
	.read		= rbtr_thresh_read,
	.write		= rbtr_thresh_write,
	.llseek		= default_llseek,
};

/*
 * tracing_thresh_stats: per pair, summed over the CPUs, the exits kept,
 * too short, unmatched, and lost (their entry was evicted by another
 * task's, or torn), and the per-task entries that collided.
 */
static int rbtr_thresh_stats_show(struct seq_file *m, void *v)
{
	unsigned long n[RBTR_DUR_NR_VERDICTS], coll;
	int i, j, cpu;

	seq_printf(m, "# %-18s %10s %10s %10s %10s %10s\n", "pair", "kept", "short",
		   "unmatched", "lost", "collisions");
	for (i = 0; i < RBTR_PAIR_NR; i++) {
		struct rbtr_dur_pair *p = &rbtr_dur_pairs[i];

		memset(n, 0, sizeof(n));
		coll = 0;
		for_each_possible_cpu(cpu) {
			struct rbtr_dur_stats *st = per_cpu_ptr(p->stats, cpu);

			for (j = 0; j < RBTR_DUR_NR_VERDICTS; j++)
				n[j] += READ_ONCE(st->n[j]);
			coll += READ_ONCE(st->collisions);
		}
		seq_printf(m, "%-20s %10lu %10lu %10lu %10lu %10lu\n", p->name,
			   n[RBTR_DUR_KEEP], n[RBTR_DUR_SHORT], n[RBTR_DUR_UNMATCHED],
			   n[RBTR_DUR_COLLISION], coll);
	}
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_thresh_stats);

static void rbtr_dur_free(void)
{
	int i;

	for (i = 0; i < RBTR_PAIR_NR; i++) {
		struct rbtr_dur_pair *p = &rbtr_dur_pairs[i];

		free_percpu(p->cpu);
		p->cpu = NULL;
		free_percpu(p->stats);
		p->stats = NULL;
		kvfree(p->table.slot);
		p->table.slot = NULL;
	}
}

static int rbtr_dur_alloc_table(struct rbtr_dur_table *t, unsigned int bits)
{
	t->bits = bits;
	t->slot = kvcalloc(1U << bits, sizeof(*t->slot), GFP_KERNEL);
	return t->slot ? 0 : -ENOMEM;
}

static int rbtr_dur_alloc(void)
{
	int i;

	for (i = 0; i < RBTR_PAIR_NR; i++) {
		struct rbtr_dur_pair *p = &rbtr_dur_pairs[i];

		p->stats = alloc_percpu(struct rbtr_dur_stats);
		if (!p->stats)
			return -ENOMEM;
		if (i == RBTR_PAIR_WORK || i == RBTR_PAIR_SYSCALL)
			continue;
		p->cpu = alloc_percpu(struct rbtr_dur_cpu);
		if (!p->cpu)
			return -ENOMEM;
	}
	if (rbtr_dur_alloc_table(&rbtr_dur_pairs[RBTR_PAIR_WORK].table, RBTR_DUR_WORK_BITS))
		return -ENOMEM;
	return rbtr_dur_alloc_table(&rbtr_dur_pairs[RBTR_PAIR_SYSCALL].table,
				    RBTR_DUR_SYSCALL_BITS);
}

/**
 * rbtr_duration_init - the filter's tables and its files
 * @top: the rbtrace debugfs directory
 *
 * Return: 0 or -ENOMEM; nothing is left behind on failure.
 */
int rbtr_duration_init(struct dentry *top)
{
	int ret;

	ret = rbtr_dur_alloc();
	if (ret) {
		rbtr_dur_free();
		return ret;
	}
	rbtr_dur_files[0] = debugfs_create_file("tracing_thresh", 0600, top, NULL,
						&rbtr_thresh_fops);
	rbtr_dur_files[1] = debugfs_create_file("tracing_thresh_stats", 0400, top, NULL,
						&rbtr_thresh_stats_fops);
	return 0;
}

/**
 * rbtr_duration_exit - remove the files and free the tables
 *
 * Called after every probe is unregistered and tracepoint_synchronize_unregister().
 */
void rbtr_duration_exit(void)
{
	debugfs_remove(rbtr_dur_files[1]);
	debugfs_remove(rbtr_dur_files[0]);
	rbtr_dur_files[0] = NULL;
	rbtr_dur_files[1] = NULL;
	rbtr_dur_free();
}
