// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's stack tracer, as ftrace's (kernel/trace/trace_stack.c,
 * Documentation/trace/ftrace.rst, "Stack trace"): at the entry of every
 * traced function, how deep the task's kernel stack is; the deepest seen,
 * and the frames that made it, kept until the next deeper one.
 *
 * Files, in the top directory, under ftrace's names:
 *  - stack_tracer_enabled (0600): 1 registers the callback on every
 *    function (or stack_trace_filter's), 0 unregisters it. ftrace's is
 *    the sysctl kernel.stack_tracer_enabled, which a module cannot own.
 *  - stack_max_size (0600): the deepest, in bytes; a write sets it (0
 *    starts over).
 *  - stack_trace (0400): ftrace's table: "Depth Size Location" per frame,
 *    from the traced function out to the first frame of the stack.
 *  - stack_trace_filter (0600): the functions checked, in
 *    set_ftrace_filter's grammar (function_filter.c, RBTR_FN_STACK).
 *
 * The depth of a hit: the bytes from the callback's own frame (the
 * address of a local) to the top of the task's stack, less the frames of
 * the callback and of ftrace's trampoline below the traced function
 * (rbtr_stk.tracer_frame, learnt at the first new maximum). A hit on an
 * interrupt stack (not the task's) or in NMI is not looked at, as in
 * ftrace.
 *
 * A new maximum, rare, is taken under rbtr_stk.lock, an arch spinlock with
 * interrupts off (a raw or lockdep-tracked lock would call traced
 * functions inside the callback): the stack saved (stack_trace_save()),
 * the entries below the traced function's return address dropped, and
 * each remaining return address found in the stack memory, from the
 * callback's frame up: its distance to the top is its frame's depth
 * (a frame's size is its depth less the next one's). An entry not found
 * in the stack (an unwinder's guess) is dropped.
 *
 * Recursion: the callback runs with preemption off and a per-CPU count,
 * so that a traced function called by the callback itself, or by the
 * lock's holder on this CPU (the files take the same count), returns at
 * once. The callback takes preemption off, the count, interrupts off,
 * the lock; a file interrupts off (which keeps it on its CPU), the count,
 * the lock.
 *
 * Races (every one of them harmless):
 *  - Two CPUs see a deeper stack at once: the lock serialises them; the
 *    second finds the maximum raised and leaves (the depth is compared
 *    again under the lock).
 *  - A write to stack_max_size while a CPU checks: under the lock too; a
 *    check that read the old maximum before the lock compares again.
 *  - The unlocked first compare reads a stale maximum: the worst case is
 *    a trip to the lock for nothing, or one hit not taken that a later
 *    deeper one is taken for.
 *  - stack_tracer_enabled written while callbacks run: register and
 *    unregister_ftrace_function() wait for the callbacks in flight
 *    (unregister's synchronize), under rbtr_stk_mutex; the arrays are
 *    static, never freed.
 */
#include <linux/debugfs.h>
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include "function.h"
#include "trace.h"

/* ftrace's STACK_TRACE_ENTRIES */
#define RBTR_STK_ENTRIES	500

#ifndef MCOUNT_INSN_SIZE
#define MCOUNT_INSN_SIZE	0
#endif

/**
 * struct rbtr_stk - the deepest stack seen, under @lock
 * @lock: serialises a new maximum, stack_max_size's writes and the reads
 *        of the table; taken with interrupts off and the per-CPU count
 * @max_size: the deepest, in bytes (read without the lock first)
 * @nr: entries in @ip and @depth
 * @tracer_frame: bytes of the callback's and the trampoline's frames,
 *                learnt at the first maximum (0: not yet)
 * @ip: the return addresses of the frames, innermost first
 * @depth: per frame, the bytes from its return address to the stack's top
 */
struct rbtr_stk {
	arch_spinlock_t	lock;
	unsigned long	max_size;
	unsigned int	nr;
	int		tracer_frame;
	unsigned long	ip[RBTR_STK_ENTRIES];
	unsigned int	depth[RBTR_STK_ENTRIES];
};

static struct rbtr_stk rbtr_stk = {
	.lock	= (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED,
};

/* Per CPU: the callback or a file is on this CPU's lock path. */
static DEFINE_PER_CPU(int, rbtr_stk_busy);
/* stack_tracer_enabled: the callback registered, under rbtr_stk_mutex. */
static DEFINE_MUTEX(rbtr_stk_mutex);
static bool rbtr_stk_on;

static void rbtr_stk_call(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);

/* The ops stack_trace_filter programs (function_filter.c). */
struct ftrace_ops rbtr_stack_ops = {
	.func	= rbtr_stk_call,
};

/* Take the lock as the callback does: the count, interrupts off, the lock. */
static unsigned long rbtr_stk_lock(void)
{
	unsigned long flags;

	local_irq_save(flags);
	__this_cpu_inc(rbtr_stk_busy);
	arch_spin_lock(&rbtr_stk.lock);
	return flags;
}

static void rbtr_stk_unlock(unsigned long flags)
{
	arch_spin_unlock(&rbtr_stk.lock);
	__this_cpu_dec(rbtr_stk_busy);
	local_irq_restore(flags);
}

/*
 * Under the lock, @size deeper than the maximum: save the stack, keep the
 * frames from @ret (the traced function's return address) out, each with
 * its depth found in the stack memory from @frame up.
 */
static void notrace rbtr_stk_take(unsigned long ret, unsigned long *frame, unsigned long size)
{
	unsigned long *top = (unsigned long *)(((unsigned long)frame & ~(THREAD_SIZE - 1)) +
					       THREAD_SIZE);
	unsigned int n, i, x = 0;
	unsigned long *p = frame;

	n = stack_trace_save(rbtr_stk.ip, RBTR_STK_ENTRIES - 1, 0);
	/*
	 * max_size and tracer_frame are written under the lock and read
	 * without it by rbtr_stk_check()'s first compare (WRITE_ONCE()
	 * here, READ_ONCE() there: no tearing, no ordering needed, a stale
	 * value only costs a trip to the lock, which compares again).
	 */
	/* The callback's and the trampoline's entries first: skip them. */
	for (i = 0; i < n && rbtr_stk.ip[i] != ret; i++)
		;
	if (i == n)
		i = 0;
	WRITE_ONCE(rbtr_stk.max_size, size);
	for (; i < n; i++) {
		unsigned long *q;

		/* KASAN: the words above this frame are another's, on purpose. */
		for (q = p; q < top && READ_ONCE_NOCHECK(*q) != rbtr_stk.ip[i]; q++)
			;
		if (q == top)
			continue;
		if (!rbtr_stk.tracer_frame && !x) {
			/* The frames below the traced function's are ours. */
			WRITE_ONCE(rbtr_stk.tracer_frame, (q - frame) * sizeof(long));
			WRITE_ONCE(rbtr_stk.max_size, rbtr_stk.max_size - rbtr_stk.tracer_frame);
		}
		rbtr_stk.ip[x] = rbtr_stk.ip[i];
		rbtr_stk.depth[x++] = (top - q) * sizeof(long);
		p = q + 1;
	}
	rbtr_stk.nr = x;
}

static void notrace rbtr_stk_check(unsigned long ret, unsigned long *frame)
{
	unsigned long size, flags;

	size = THREAD_SIZE - ((unsigned long)frame & (THREAD_SIZE - 1));
	/* Unlocked: pairs with rbtr_stk_take()'s WRITE_ONCE()s, see there. */
	size -= READ_ONCE(rbtr_stk.tracer_frame);
	if (size <= READ_ONCE(rbtr_stk.max_size))
		return;
	/* An interrupt stack, not the task's: not measured, as in ftrace. */
	if (!object_is_on_stack(frame))
		return;
	local_irq_save(flags);
	arch_spin_lock(&rbtr_stk.lock);
	/* Another CPU may have raised it, or set tracer_frame, meanwhile. */
	size = THREAD_SIZE - ((unsigned long)frame & (THREAD_SIZE - 1)) - rbtr_stk.tracer_frame;
	if (size > rbtr_stk.max_size)
		rbtr_stk_take(ret, frame, size);
	arch_spin_unlock(&rbtr_stk.lock);
	local_irq_restore(flags);
}

static void notrace rbtr_stk_call(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned long frame;

	preempt_disable_notrace();
	/* Only this CPU writes its count: no atomic needed. */
	if (__this_cpu_inc_return(rbtr_stk_busy) == 1 && !in_nmi() && rcu_is_watching())
		rbtr_stk_check(ip + MCOUNT_INSN_SIZE, &frame);
	__this_cpu_dec(rbtr_stk_busy);
	preempt_enable_notrace();
}

/* ---- files ---------------------------------------------------------------- */

static ssize_t rbtr_stk_enabled_read(struct file *filp, char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(rbtr_stk_on));
}

static ssize_t rbtr_stk_enabled_write(struct file *filp, const char __user *ubuf,
				      size_t cnt, loff_t *ppos)
{
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	mutex_lock(&rbtr_stk_mutex);
	if (on && !rbtr_stk_on)
		ret = register_ftrace_function(&rbtr_stack_ops);
	else if (!on && rbtr_stk_on)
		ret = unregister_ftrace_function(&rbtr_stack_ops);
	if (!ret)
		WRITE_ONCE(rbtr_stk_on, on);
	mutex_unlock(&rbtr_stk_mutex);
	if (ret) {
		pr_warn_ratelimited("rbtrace: stack_tracer_enabled %d: failed (%d)\n", on, ret);
		return ret;
	}
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_stk_enabled_fops = {
	.owner	= THIS_MODULE,
	.open	= rbtr_open_generic,
	.read	= rbtr_stk_enabled_read,
	.write	= rbtr_stk_enabled_write,
	.llseek	= default_llseek,
};

static ssize_t rbtr_stk_max_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(rbtr_stk.max_size));
}

static ssize_t rbtr_stk_max_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	unsigned long val, flags;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	flags = rbtr_stk_lock();
	WRITE_ONCE(rbtr_stk.max_size, val);	/* read unlocked: rbtr_stk_take() */
	rbtr_stk_unlock(flags);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_stk_max_fops = {
	.owner	= THIS_MODULE,
	.open	= rbtr_open_generic,
	.read	= rbtr_stk_max_read,
	.write	= rbtr_stk_max_write,
	.llseek	= default_llseek,
};

/*
 * stack_trace: a copy of the table taken under the lock, printed after
 * (no symbol lookup with interrupts off), as ftrace's t_show() prints it.
 */
static int rbtr_stk_show(struct seq_file *m, void *v)
{
	struct rbtr_stk *c = kmalloc(sizeof(*c), GFP_KERNEL);
	unsigned long flags, size;
	unsigned int i;

	if (!c)
		return -ENOMEM;
	flags = rbtr_stk_lock();
	c->nr = rbtr_stk.nr;
	c->max_size = rbtr_stk.max_size;
	memcpy(c->ip, rbtr_stk.ip, c->nr * sizeof(c->ip[0]));
	memcpy(c->depth, rbtr_stk.depth, c->nr * sizeof(c->depth[0]));
	rbtr_stk_unlock(flags);

	seq_printf(m, "        Depth    Size   Location    (%u entries)\n"
		   "        -----    ----   --------\n", c->nr);
	if (!READ_ONCE(rbtr_stk_on) && !c->max_size)
		seq_puts(m, "#\n#  Stack tracer disabled\n#\n"
			 "# To enable the stack tracer, 'echo 1 > stack_tracer_enabled'\n"
			 "# in rbtrace's directory\n#\n");
	for (i = 0; i < c->nr; i++) {
		size = i + 1 == c->nr ? c->depth[i] : c->depth[i] - c->depth[i + 1];
		seq_printf(m, "%3u) %8u   %5lu   %pS\n", i, c->depth[i], size, (void *)c->ip[i]);
	}
	kfree(c);
	return 0;
}

static int rbtr_stk_open(struct inode *inode, struct file *file)
{
	return rbtr_check_open() ?: single_open(file, rbtr_stk_show, NULL);
}

static const struct file_operations rbtr_stk_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_stk_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * rbtr_stack_tracer_files - the stack tracer's files in the top directory
 * @top: the top directory
 */
void rbtr_stack_tracer_files(struct dentry *top)
{
	debugfs_create_file("stack_tracer_enabled", 0600, top, NULL, &rbtr_stk_enabled_fops);
	debugfs_create_file("stack_max_size", 0600, top, NULL, &rbtr_stk_max_fops);
	debugfs_create_file("stack_trace", 0400, top, NULL, &rbtr_stk_trace_fops);
}

/**
 * rbtr_stack_tracer_exit - unregister the callback, if on
 *
 * At unload: no file is open (each holds the module).
 */
void rbtr_stack_tracer_exit(void)
{
	if (rbtr_stk_on)
		unregister_ftrace_function(&rbtr_stack_ops);
	rbtr_stk_on = false;
	ftrace_free_filter(&rbtr_stack_ops);
}
