// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace stack traces: ftrace's kernel_stack record, written after each
 * event while options/stacktrace is 1 (what "trace-cmd record -T" turns
 * on), and printed as ftrace prints it:
 *
 *	<stack trace>
 *	 => caller
 *	 => its caller
 *
 * The record is ftrace's struct stack_entry (int size; unsigned long
 * caller[size]), with ftrace's id (TRACE_STACK), format file and size:
 * as many callers as were saved, not the eight the format file names.
 *
 * A stack is saved in any context an event fires in, NMI included: with
 * stack_trace_save() into a per-CPU area of one slot per nesting level
 * (task, softirq, hard IRQ, NMI), as ftrace's ftrace_stacks, without a
 * lock or an allocation. The frames of rbtrace itself (the probe, the
 * commit, this file) are left out.
 */
#include <linux/kernel.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/stacktrace.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "function.h"
#include "pid.h"
#include "stack.h"
#include "trace.h"

/* ftrace's TRACE_STACK and FTRACE_STACK_ENTRIES (the format's caller[8]) */
#define RBTR_STACK_ID		4
#define RBTR_STACK_ENTRIES	8
/* Saved frames per stack, and nesting levels (ftrace: 4 of 512). */
#define RBTR_STACK_MAX		64
#define RBTR_STACK_NESTING	4

/* ftrace's struct stack_entry */
struct rbtr_stack_entry {
	struct rbtr_entry	ent;
	int			size;
	unsigned long		caller[];
};

/* trace_export.c's F_printk(): the format file's print fmt of an ftrace event */
#define RBTR_F_PRINTK(fmt, args...)	__stringify(fmt) ", " __stringify(args)

struct rbtr_stack_area {
	unsigned long	calls[RBTR_STACK_NESTING][RBTR_STACK_MAX];
};

DEFINE_STATIC_KEY_FALSE(rbtr_stacktrace_key);

static struct rbtr_stack_area __percpu *rbtr_stack_areas;
static DEFINE_PER_CPU(int, rbtr_stack_depth);
static DEFINE_MUTEX(rbtr_stack_mutex);
static bool rbtr_stack_on;
static bool rbtr_stack_registered;

static const struct rbtr_field rbtr_stack_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_stack_entry)->size, "int", "size", RBTR_FIELD_NUM),
	{ .type = "unsigned long", .name = "caller[8]",
	  .offset = offsetof(struct rbtr_stack_entry, caller),
	  .size = RBTR_STACK_ENTRIES * sizeof(unsigned long), .kind = RBTR_FIELD_BYTES },
};

/*
 * ftrace's FTRACE_TRAMPOLINE_MARKER (kernel/trace/trace.h): the frame of
 * the function tracer's trampoline, written so in a stack since 6.9
 * (Kbuild: RBT_FTRACE_TRAMP_MARKER).
 */
#define RBTR_TRAMP_MARKER	((unsigned long)INT_MAX)
#ifdef RBT_FTRACE_TRAMP_MARKER
#define RBTR_TRAMP_MARKED	true
#else
#define RBTR_TRAMP_MARKED	false
#endif

/* ftrace's "%ps" of a stack line: kallsyms_lookup(), no " [module]". */
static void rbtr_stack_print_ip(struct seq_buf *s, unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];

	if (RBTR_TRAMP_MARKED && ip == RBTR_TRAMP_MARKER) {
		seq_buf_printf(s, "[FTRACE TRAMPOLINE]");
		return;
	}

	sprint_symbol_no_offset(sym, ip);
	sym[strcspn(sym, " ")] = '\0';
	if (*sym && strncmp(sym, "0x", 2))
		seq_buf_printf(s, "%s", sym);
	else
		seq_buf_printf(s, "0x%08lx", ip);
}

static void rbtr_stack_print(struct seq_buf *s, const struct rbtr_event_type *type,
			     const void *rec, unsigned int len)
{
	const struct rbtr_stack_entry *e = rec;
	unsigned int i, n = 0;
	unsigned long ip;

	if (len >= sizeof(*e))
		n = (len - sizeof(*e)) / sizeof(unsigned long);
	seq_buf_printf(s, "<stack trace>\n");
	for (i = 0; i < n; i++) {
		memcpy(&ip, &e->caller[i], sizeof(ip));
		if (ip == ULONG_MAX)
			break;
		seq_buf_printf(s, " => ");
		rbtr_stack_print_ip(s, ip);
		seq_buf_printf(s, "\n");
	}
}

/* A stack of the previous boot (persist_meta.c): each frame, up to the end mark. */
static void rbtr_stack_fix_addrs(void *rec, unsigned int len, rbtr_fix_ip_fn fix)
{
	struct rbtr_stack_entry *e = rec;
	unsigned int i, n = 0;
	unsigned long ip;

	if (len >= sizeof(*e))
		n = (len - sizeof(*e)) / sizeof(unsigned long);
	for (i = 0; i < n; i++) {
		memcpy(&ip, &e->caller[i], sizeof(ip));
		if (ip == ULONG_MAX)
			break;
		if (RBTR_TRAMP_MARKED && ip == RBTR_TRAMP_MARKER)
			continue;
		ip = fix(ip);
		memcpy(&e->caller[i], &ip, sizeof(ip));
	}
}

static struct rbtr_event_type rbtr_stack_type = {
	.system		= "ftrace",
	.name		= "kernel_stack",
	.id		= RBTR_STACK_ID,
	.fields		= rbtr_stack_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_stack_fields),
	/* The kernel's F_printk() of kernel_stack, stringified as the kernel does. */
	.print_fmt	= RBTR_F_PRINTK("\t=> %ps\n\t=> %ps\n\t=> %ps\n"
					"\t=> %ps\n\t=> %ps\n\t=> %ps\n"
					"\t=> %ps\n\t=> %ps\n",
					(void *)REC->caller[0], (void *)REC->caller[1],
					(void *)REC->caller[2], (void *)REC->caller[3],
					(void *)REC->caller[4], (void *)REC->caller[5],
					(void *)REC->caller[6], (void *)REC->caller[7]),
	.print		= rbtr_stack_print,
	.fix_addrs	= rbtr_stack_fix_addrs,
};

/*
 * Write one record from this CPU's slot of nesting level @level:
 * reserve its exact size, copy. Committed with rbt_unlock_commit(), not
 * rbtr_event_commit(): a stack record gets no stack record of its own.
 */
static void rbtr_stack_emit(struct rbt_buffer *buffer, unsigned int ctx,
			    const unsigned long *calls, unsigned int nr)
{
	struct rbtr_stack_entry *e;

	/* No tracing_cpumask: the record it follows passed its tracer's. */
	e = rbtr_event_reserve_type(NULL, buffer, &rbtr_stack_type,
				    sizeof(*e) + nr * sizeof(unsigned long), ctx);
	if (!e)
		return;
	e->size = nr;
	memcpy(e->caller, calls, nr * sizeof(unsigned long));
	rbt_unlock_commit(buffer);
}

/*
 * The first frame in the function of @ip, made @ip (6.1's unwinder gives
 * the probed function's frame after kprobes' ftrace trampoline, with an
 * address of its own): its bounds from sprint_symbol()'s "+off/size".
 */
static unsigned int rbtr_stack_find_func(unsigned long *calls, unsigned int nr,
					 unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN], *plus;
	unsigned long off, size, start;
	unsigned int i;

	sprint_symbol(sym, ip);
	plus = strrchr(sym, '+');
	if (!plus || sscanf(plus, "+%lx/%lx", &off, &size) != 2)
		return nr;
	start = ip - off;
	for (i = 0; i < nr; i++) {
		if (calls[i] >= start && calls[i] < start + size) {
			calls[i] = ip;
			return i;
		}
	}
	return nr;
}

/*
 * Where the stack of the probed code starts in @calls, as
 * stack_trace_save_regs() (not exported) would begin it: at @ip if the
 * unwinder went through the exception frame of an int3 kprobe; else, at
 * a function's entry (an ftrace-based kprobe), at its return address
 * @caller, with @ip put in the slot before it (a frame of rbtrace or of
 * kprobes). Return: the index, or @nr when neither is found.
 */
static unsigned int rbtr_stack_find_regs(unsigned long *calls, unsigned int nr,
					 unsigned long ip, unsigned long caller)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (calls[i] == ip)
			return i;
	for (i = 1; caller && i < nr; i++) {
		if (calls[i] == caller) {
			calls[i - 1] = ip;
			return i - 1;
		}
	}
	return rbtr_stack_find_func(calls, nr, ip);
}

/*
 * The frame a function record's stack starts at (@ret: the traced
 * function's address after its fentry call, the frame of the traced
 * function), as ftrace's fixed skips land (function_stack_trace_call():
 * STACK_SKIP; ftrace_stacktrace(): FTRACE_STACK_SKIP; one more in
 * __ftrace_trace_stack() without ORC), which count the frames of the
 * callback and of what called it:
 *
 *                      func_stack_trace        FUNC:stacktrace (@probe)
 *   ORC, ops alone     the trampoline (i-1)    i-1
 *   ORC, several ops   arch_ftrace_ops_list_func (i-2)    ftrace_call (i-1)
 *   FP,  ops alone     the traced function (i) i
 *   FP,  several ops   ftrace_call (i-1)       the traced function (i)
 *
 * "Several ops" is ftrace's list function calling the callback: the
 * frame two before the traced function's is not rbtrace's. A command's
 * stack alone on its function comes through ftrace's assist function
 * (FTRACE_OPS_FL_RCU) and starts as with several ops: ftrace's own
 * skips there leave out the traced function (FP) or keep the assist
 * function's frame. @nr if @ret is not on the stack.
 */
static unsigned int notrace rbtr_stack_find_fn(const unsigned long *calls, unsigned int nr,
					       unsigned long ret, bool probe)
{
	bool orc = IS_ENABLED(CONFIG_UNWINDER_ORC), alone;
	unsigned int i;

	for (i = 1; i < nr; i++) {
		if (calls[i] != ret)
			continue;
		if (probe)
			return orc ? i - 1 : i;
		alone = i < 2 || within_module(calls[i - 2], THIS_MODULE);
		if (orc)
			return alone ? i - 1 : i - 2;
		return alone ? i : i - 1;
	}
	return nr;
}

/*
 * Since 6.9 ftrace writes the frames in its function tracer's trampoline
 * as RBTR_TRAMP_MARKER (__ftrace_trace_stack(): tr->ops's trampoline);
 * so does func_stack_trace here, for its tracer's ops (@ops).
 */
static void notrace rbtr_stack_mark_tramp(const struct ftrace_ops *ops, unsigned long *calls,
					  unsigned int nr)
{
	unsigned long start = ops->trampoline;
	unsigned long end = start + ops->trampoline_size;
	unsigned int i;

	if (!RBTR_TRAMP_MARKED || !start)
		return;
	for (i = 0; i < nr; i++)
		if (calls[i] >= start && calls[i] < end)
			calls[i] = RBTR_TRAMP_MARKER;
}

static void notrace rbtr_stack_save(struct rbt_buffer *buffer, unsigned int ctx,
				    unsigned int skip, struct pt_regs *regs,
				    unsigned long caller, bool probe,
				    const struct ftrace_ops *tramp)
{
	unsigned long *calls;
	unsigned int nr, first = 0;
	int level;

	if (!rbtr_stack_areas)
		return;
	preempt_disable_notrace();
	/*
	 * Step 1: claim a level. An interrupt coming in between sees the
	 * count before or after the increment and restores it before it
	 * returns, so each level has one user at a time; barrier(): the
	 * compiler keeps the slot's use between the claim and the release.
	 */
	level = __this_cpu_inc_return(rbtr_stack_depth) - 1;
	barrier();
	if (level >= RBTR_STACK_NESTING)
		goto out;
	calls = this_cpu_ptr(rbtr_stack_areas)->calls[level];
	/* Step 2: save, leave out rbtrace's own frames (and kprobes'), then @skip more. */
	nr = stack_trace_save(calls, RBTR_STACK_MAX, 0);
	if (regs)
		first = rbtr_stack_find_regs(calls, nr, instruction_pointer(regs), caller);
	else if (caller)
		first = rbtr_stack_find_fn(calls, nr, caller, probe);
	if ((!regs && !caller) || first == nr) {
		first = 0;
		while (first < nr && within_module(calls[first], THIS_MODULE))
			first++;
	}
	first = min(first + skip, nr);
	if (tramp)
		rbtr_stack_mark_tramp(tramp, calls + first, nr - first);
	rbtr_stack_emit(buffer, ctx, calls + first, nr - first);
out:
	/* Step 3: release the level (pairs with step 1). */
	barrier();
	__this_cpu_dec(rbtr_stack_depth);
	preempt_enable_notrace();
}

/**
 * rbtr_stack_write_regs - a kernel_stack record of the code a kprobe hit
 * @buffer: the buffer
 * @ctx: the context of the probe's event
 * @regs: the registers at the probe
 * @caller: at a function's entry, its return address (else 0)
 *
 * As ftrace's stack of a kprobe event, which starts at the probed
 * address; if that is not found on the stack, as rbtr_stack_write().
 * Not tested against tracing_cpumask: the event it follows was.
 */
void notrace rbtr_stack_write_regs(struct rbt_buffer *buffer, unsigned int ctx,
				   struct pt_regs *regs, unsigned long caller)
{
	rbtr_stack_save(buffer, ctx, 0, regs, caller, false, NULL);
}

/**
 * rbtr_stack_write - write a kernel_stack record of the current stack
 * @buffer: the buffer
 * @ctx: rbtr_trace_ctx() of the event the stack goes with
 * @skip: frames to leave out after rbtrace's own
 *
 * Safe in any context, NMI included: no lock, no allocation. A fifth
 * nesting level on one CPU (cannot happen: task, softirq, IRQ, NMI)
 * writes nothing. Not tested against tracing_cpumask: the caller does
 * (the event it follows passed it, or trigger.c tests it).
 */
void notrace rbtr_stack_write(struct rbt_buffer *buffer, unsigned int ctx, unsigned int skip)
{
	rbtr_stack_save(buffer, ctx, skip, NULL, 0, false, NULL);
}

/**
 * rbtr_stack_write_fn - the stack after a function record (func_stack_trace)
 * @buffer: the buffer
 * @ctx: the function record's context
 * @ret: the traced function's address after its fentry call
 * @ops: the function tracer's ops: the frames in their trampoline are
 *       written as ftrace's marker (from 6.9)
 *
 * As ftrace's function_stack_trace_call(): from the frame its skip lands
 * on (rbtr_stack_find_fn()) out; if the traced function is not found on
 * the stack, from the first frame not rbtrace's.
 */
void notrace rbtr_stack_write_fn(struct rbt_buffer *buffer, unsigned int ctx,
				 unsigned long ret, const struct ftrace_ops *ops)
{
	rbtr_stack_save(buffer, ctx, 0, NULL, ret, false, ops);
}

/**
 * rbtr_stack_write_probe - the stack of a function command (FUNC:stacktrace)
 * @buffer: the buffer
 * @ctx: the context of the traced function's call
 * @ret: the traced function's address after its fentry call
 *
 * As ftrace's ftrace_stacktrace(): from the frame its skip lands on
 * (rbtr_stack_find_fn()) out; if the traced function is not found on the
 * stack, from the first frame not rbtrace's.
 */
void notrace rbtr_stack_write_probe(struct rbt_buffer *buffer, unsigned int ctx,
				    unsigned long ret)
{
	rbtr_stack_save(buffer, ctx, 0, NULL, ret, true, NULL);
}

/**
 * rbtr_stack_after_event - the options/stacktrace record after an event
 * @buffer: the buffer the event was committed to
 *
 * Called by rbtr_event_commit() when rbtr_stacktrace_key is on. The
 * context is the caller's, as ftrace's tracing_gen_ctx_dec() sees it
 * for its events: without the preemption the probe's caller disabled.
 */
void notrace rbtr_stack_after_event(struct rbt_buffer *buffer)
{
	unsigned int ctx = rbtr_trace_ctx();

	if (IS_ENABLED(CONFIG_PREEMPTION) && (ctx & 0xf))
		ctx--;
	rbtr_stack_write(buffer, ctx, 0);
}

/* ---- options/stacktrace ------------------------------------------------- */

static void rbtr_stack_set(bool on)
{
	mutex_lock(&rbtr_stack_mutex);
	if (on != rbtr_stack_on) {
		if (on)
			static_branch_enable(&rbtr_stacktrace_key);
		else
			static_branch_disable(&rbtr_stacktrace_key);
		WRITE_ONCE(rbtr_stack_on, on);
	}
	mutex_unlock(&rbtr_stack_mutex);
}

/*
 * The option of this file: its name, value and setter. (func_stack_trace,
 * each tracer's, is options.c's.)
 */
struct rbtr_stack_opt {
	const char	*name;
	bool		*on;
	void		(*set)(bool on);
};

static const struct rbtr_stack_opt rbtr_stack_opts[] = {
	{ "stacktrace", &rbtr_stack_on, rbtr_stack_set },
};

/* The option of an options/ file: its inode's private data. */
static ssize_t rbtr_stack_opt_read(struct file *filp, char __user *ubuf, size_t cnt,
				   loff_t *ppos)
{
	const struct rbtr_stack_opt *o = filp->private_data;

	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(*o->on));
}

/* ftrace's trace_options_core_write(): 0 or 1, else -EINVAL. */
static ssize_t rbtr_stack_opt_write(struct file *filp, const char __user *ubuf, size_t cnt,
				    loff_t *ppos)
{
	const struct rbtr_stack_opt *o = filp->private_data;
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	o->set(on);
	*ppos += cnt;
	return cnt;
}

/**
 * rbtr_stack_options_show - the line of stacktrace
 * @m: the seq_file of the top's trace_options
 */
void rbtr_stack_options_show(struct seq_file *m)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rbtr_stack_opts); i++)
		seq_printf(m, "%s%s\n", READ_ONCE(*rbtr_stack_opts[i].on) ? "" : "no",
			   rbtr_stack_opts[i].name);
}

/**
 * rbtr_stack_option_set - a trace_options write naming one of ours
 * @name: the option's name, "no" stripped
 * @on: its new value
 *
 * Return: 0, or -ENOENT if @name is not "stacktrace".
 */
int rbtr_stack_option_set(const char *name, bool on)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rbtr_stack_opts); i++) {
		if (!strcmp(name, rbtr_stack_opts[i].name)) {
			rbtr_stack_opts[i].set(on);
			return 0;
		}
	}
	return -ENOENT;
}

static const struct file_operations rbtr_stack_opt_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_generic,
	.read		= rbtr_stack_opt_read,
	.write		= rbtr_stack_opt_write,
	.llseek		= generic_file_llseek,
};

/**
 * rbtr_stack_files - create options/stacktrace and options/func_stack_trace
 * @tr: the tracer
 */
void rbtr_stack_files(struct rbtr_trace *tr)
{
	struct dentry *dir = rbtr_options_dir(tr);
	unsigned int i;

	if (IS_ERR(dir))
		return;
	for (i = 0; i < ARRAY_SIZE(rbtr_stack_opts); i++)
		debugfs_create_file(rbtr_stack_opts[i].name, 0600, dir,
				    (void *)&rbtr_stack_opts[i], &rbtr_stack_opt_fops);
}

/**
 * rbtr_stack_init - register ftrace:kernel_stack, allocate the stack areas
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rbtr_stack_init(void)
{
	int ret;

	rbtr_stack_areas = alloc_percpu(struct rbtr_stack_area);
	if (!rbtr_stack_areas)
		return -ENOMEM;
	ret = rbtr_event_register(&rbtr_stack_type);
	if (ret) {
		free_percpu(rbtr_stack_areas);
		rbtr_stack_areas = NULL;
		return ret;
	}
	rbtr_stack_registered = true;
	return 0;
}

/**
 * rbtr_stack_exit - undo rbtr_stack_init(), once no event can be written
 */
void rbtr_stack_exit(void)
{
	if (static_key_enabled(&rbtr_stacktrace_key))
		static_branch_disable(&rbtr_stacktrace_key);
	rbtr_stack_on = false;
	if (rbtr_stack_registered)
		rbtr_event_unregister(&rbtr_stack_type);
	rbtr_stack_registered = false;
	free_percpu(rbtr_stack_areas);
	rbtr_stack_areas = NULL;
}
