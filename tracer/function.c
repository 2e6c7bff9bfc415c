// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's function tracer and current_tracer.
 *
 * current_tracer picks one of "nop", "function" and "function_graph"
 * (available_tracers), as ftrace's. The function tracer is one ftrace_ops
 * per tracer (struct rbtr_fn_tracer: the top's, and each instance's, as
 * ftrace's trace_array has its own ops) registered with
 * register_ftrace_function(); its callback finds its tracer from the ops
 * and writes ftrace's own record, ftrace:function (TRACE_FN, ip and
 * parent_ip), so that libtraceevent and trace-cmd read it as ftrace's.
 * function_graph is an fprobe per tracer (function_graph.c).
 *
 * The filter files (set_ftrace_filter, set_ftrace_notrace,
 * set_graph_function, available_filter_functions) are function_filter.c's: it
 * keeps each tracer's selections and programs its ops' filter and notrace
 * hashes with them.
 *
 * set_ftrace_pid and set_ftrace_notrace_pid are pid.c's, each tracer's:
 * the callbacks test rbtr_fn_pid_ignored() (ftrace's own pid filter,
 * FTRACE_OPS_FL_PID, is not for modules' ops).
 *
 * Recursion: every callback takes ftrace_test_recursion_trylock() (the ops
 * do not say FTRACE_OPS_FL_RECURSION, which asks ftrace for that
 * protection through its assist function, one more call on every traced
 * call and one more frame in func_stack_trace's stacks: ftrace's
 * trampoline calls rbtr_fn_call() directly); a refusal is counted per
 * CPU and shown in function_stats. rbtrace itself is built without fentry calls (Kbuild),
 * so nothing the callback calls in rbtrace can come back into it.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_recursion.h>
#include <linux/uaccess.h>
#include "event.h"
#include "function.h"
#include "pid.h"
#include "stack.h"
#include "trace.h"

/* ftrace's struct ftrace_entry */
struct rbtr_fn_entry {
	struct rbtr_entry	ent;
	unsigned long		ip;
	unsigned long		parent_ip;
};

/*
 * current_tracer of every tracer: serialises every change of one, and the
 * list of the tracers' function state (rbtr_fn_trs).
 */
static DEFINE_MUTEX(rbtr_fn_mutex);
static LIST_HEAD(rbtr_fn_trs);
/* Set at unload (rbtr_function_exit()): no tracer starts after it. */
static bool rbtr_fn_closed;
static DEFINE_PER_CPU(unsigned long, rbtr_fn_recursion);

static void rbtr_fn_call(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs);

static void rbtr_fn_print(struct seq_buf *s, const struct rbtr_event_type *type,
			  const void *rec, unsigned int len);

/* A record of the previous boot (persist_meta.c): its two addresses. */
static void rbtr_fn_fix_addrs(void *rec, unsigned int len, rbtr_fix_ip_fn fix)
{
	struct rbtr_fn_entry *e = rec;

	if (len < sizeof(*e))
		return;
	e->ip = fix(e->ip);
	e->parent_ip = fix(e->parent_ip);
}

static const struct rbtr_field rbtr_fn_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_fn_entry)->ip, "unsigned long", "ip", RBTR_FIELD_HEX),
	RBTR_FIELD(RBTR_REC(struct rbtr_fn_entry)->parent_ip, "unsigned long", "parent_ip",
		   RBTR_FIELD_HEX),
};

static struct rbtr_event_type rbtr_fn_type = {
	.system		= "ftrace",
	.name		= "function",
	.id		= RBTR_TRACE_FN_ID,
	.fields		= rbtr_fn_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_fn_fields),
	.print_fmt	= "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip",
	.print		= rbtr_fn_print,
	.fix_addrs	= rbtr_fn_fix_addrs,
};

/*
 * The function tracer's callback. notrace is implied: the whole module is
 * built without fentry calls. Steps: A refuse recursion (counted); the
 * trylock also disables preemption until the unlock, so B-D need no
 * preempt_disable() of their own. B the pid filter and tracing_cpumask.
 * C the context: ftrace's tracing_gen_ctx_dec(), the trylock's own
 * preemption level taken off, so that the flags read as ftrace's. D the
 * record, reserved directly by rbt_reserve(), which returns where the
 * payload goes (rbtr_event_reserve() would disable preemption once
 * more): the cost per call is the benchmark's. E the stack after it,
 * with options/func_stack_trace (stack.c), in the same context.
 */
static void rbtr_fn_call(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct rbtr_fn_tracer *ft = container_of(op, struct rbtr_fn_tracer, ops);
	struct rbtr_trace *tr = ft->tr;
	struct rbtr_fn_entry *e;
	struct rbt_buffer *buffer;
	unsigned int ctx;
	int bit;

	/*A*/
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		this_cpu_inc(rbtr_fn_recursion);
		return;
	}
	/*B*/
	if (rbtr_fn_pid_ignored(tr) || !rbtr_cpu_traced(tr, smp_processor_id()))
		goto out;
	/*C*/
	ctx = rbtr_trace_ctx();
	if (ctx & 0xf)
		ctx--;
	/*D: the live buffer read under the trylock's preemption off (snapshot.c) */
	rbtr_cmdline_save();
	buffer = rbtr_live_buffer(tr);
	e = rbt_reserve(buffer, sizeof(*e));
	if (!e)
		goto out;
	e->ent.type = RBTR_TRACE_FN_ID;
	e->ent.flags = ctx >> 16;
	e->ent.preempt_count = ctx & 0xff;
	e->ent.pid = current->pid;
	e->ip = ip;
	e->parent_ip = parent_ip;
	rbt_unlock_commit(buffer);
	/*E: options/func_stack_trace, as ftrace's function_stack_trace_call() */
	if (READ_ONCE(ft->func_stack))
		rbtr_stack_write_fn(buffer, ctx, ip + MCOUNT_INSN_SIZE, op);
out:
	ftrace_test_recursion_unlock(bit);
}

/**
 * rbtr_fn_print_sym - a function's name, as ftrace's seq_print_ip_sym()
 * @s: where to print
 * @ip: an address in it
 *
 * The name without offset and without the " [module]" of "%ps", as the
 * kernel's kallsyms_lookup() gives it to ftrace.
 */
void rbtr_fn_print_sym(struct seq_buf *s, unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];

	snprintf(sym, sizeof(sym), "%ps", (void *)ip);
	seq_buf_printf(s, "%.*s", (int)strcspn(sym, " "), sym);
}

/* "vfs_read <-ksys_read": ftrace's trace_fn_trace() with print-parent. */
static void rbtr_fn_print(struct seq_buf *s, const struct rbtr_event_type *type,
			  const void *rec, unsigned int len)
{
	const struct rbtr_fn_entry *e = rec;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "(short function record)\n");
		return;
	}
	rbtr_fn_print_sym(s, e->ip);
	if (e->parent_ip) {
		seq_buf_printf(s, " <-");
		rbtr_fn_print_sym(s, e->parent_ip);
	}
	seq_buf_printf(s, "\n");
}

/* ---- current_tracer, available_tracers -------------------------------- */

static const char *const rbtr_tracer_names[] = {
	[RBTR_TRACER_NOP]	= "nop",
	[RBTR_TRACER_FUNCTION]	= "function",
	[RBTR_TRACER_GRAPH]	= "function_graph",
};

/**
 * rbtr_current_tracer - the tracer current_tracer names
 * @tr: the tracer of the directory
 *
 * Return: it; read without the lock by the text output.
 */
enum rbtr_tracer rbtr_current_tracer(const struct rbtr_trace *tr)
{
	return tr->fn ? READ_ONCE(tr->fn->cur) : RBTR_TRACER_NOP;
}

/**
 * rbtr_current_tracer_name - its name, for the trace file's header
 * @tr: the tracer of the directory
 *
 * Return: the name.
 */
const char *rbtr_current_tracer_name(const struct rbtr_trace *tr)
{
	return rbtr_tracer_names[rbtr_current_tracer(tr)];
}

/* Under rbtr_fn_mutex. */
static void rbtr_tracer_stop_locked(struct rbtr_fn_tracer *ft)
{
	switch (ft->cur) {
	case RBTR_TRACER_FUNCTION:
		unregister_ftrace_function(&ft->ops);
		break;
	case RBTR_TRACER_GRAPH:
		rbtr_graph_stop(ft);
		break;
	default:
		break;
	}
	WRITE_ONCE(ft->cur, RBTR_TRACER_NOP);
}

/*
 * Which tracers a tracer offers: ftrace's instances take the tracers
 * with allow_instances (function; function_graph from 6.9, whose fgraph
 * has several users). rbtrace's function_graph is an fprobe per tracer:
 * every tracer has it where the kernel has fprobe (6.12), Debian's 6.1
 * none.
 */
static bool rbtr_tracer_offered(const struct rbtr_trace *tr, enum rbtr_tracer t)
{
	return t != RBTR_TRACER_GRAPH || rbtr_graph_supported();
}

static int rbtr_tracer_set(struct rbtr_fn_tracer *ft, const char *name)
{
	struct rbtr_trace *tr = ft->tr;
	enum rbtr_tracer t;
	int ret = 0;

	for (t = 0; t < ARRAY_SIZE(rbtr_tracer_names); t++)
		if (!strcmp(name, rbtr_tracer_names[t]))
			break;
	if (t == ARRAY_SIZE(rbtr_tracer_names)) {
		pr_warn_ratelimited("rbtrace: current_tracer: no tracer '%.32s'\n", name);
		return -EINVAL;
	}
	if (!rbtr_tracer_offered(tr, t)) {
		pr_warn_ratelimited("rbtrace: function_graph needs fprobe (CONFIG_FPROBE), which this kernel lacks\n");
		return -EOPNOTSUPP;
	}
	mutex_lock(&rbtr_fn_mutex);
	if (rbtr_fn_closed) {
		ret = -ENODEV;
		goto out;
	}
	if (t == ft->cur)
		goto out;
	rbtr_tracer_stop_locked(ft);
	/* As ftrace's tracer_init(): a new tracer starts on an empty buffer. */
	mutex_lock(&tr->files_mutex);
	rbtr_reset(tr, RBT_ALL_CPUS);
	mutex_unlock(&tr->files_mutex);
	if (t == RBTR_TRACER_FUNCTION)
		ret = register_ftrace_function(&ft->ops);
	else if (t == RBTR_TRACER_GRAPH)
		ret = rbtr_graph_start(ft);
	if (!ret)
		WRITE_ONCE(ft->cur, t);
	else
		pr_warn_ratelimited("rbtrace: cannot start %s (%d)\n", name, ret);
out:
	mutex_unlock(&rbtr_fn_mutex);
	return ret;
}

static ssize_t rbtr_tracer_read(struct file *filp, char __user *ubuf, size_t cnt,
				loff_t *ppos)
{
	char buf[32];
	struct rbtr_trace *tr = filp->private_data;
	int r = scnprintf(buf, sizeof(buf), "%s\n", rbtr_current_tracer_name(tr));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, r);
}

static ssize_t rbtr_tracer_write(struct file *filp, const char __user *ubuf, size_t cnt,
				 loff_t *ppos)
{
	struct rbtr_trace *tr = filp->private_data;
	char buf[32];
	int ret;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	ret = rbtr_tracer_set(tr->fn, strim(buf));
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_tracer_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.read		= rbtr_tracer_read,
	.write		= rbtr_tracer_write,
	.llseek		= generic_file_llseek,
	.release	= rbtr_release_tr,
};

/* As ftrace: the last registered first. */
static int rbtr_avail_tracers_show(struct seq_file *m, void *v)
{
	if (rbtr_tracer_offered(rbtr_seq_data(m), RBTR_TRACER_GRAPH))
		seq_puts(m, "function_graph ");
	seq_puts(m, "function nop\n");
	return 0;
}

static int rbtr_avail_tracers_open(struct inode *inode, struct file *file)
{
	struct rbtr_trace *tr = rbtr_file_trace(inode);

	return rbtr_single_open_tr(file, tr, rbtr_avail_tracers_show, tr);
}

static const struct file_operations rbtr_avail_tracers_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_avail_tracers_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rbtr_single_release_tr,
};

/* ---- function_stats ----------------------------------------------------- */

/* Calls refused as recursive, summed over the CPUs; the graph's misses. */
static int rbtr_fn_stats_show(struct seq_file *m, void *v)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(rbtr_fn_recursion, cpu);
	seq_printf(m, "function recursion: %lu\n", sum);
	/* The top's graph run is freed under the mutex (current_tracer). */
	mutex_lock(&rbtr_fn_mutex);
	rbtr_graph_show_stats(m);
	mutex_unlock(&rbtr_fn_mutex);
	return 0;
}
RBTR_DEFINE_SHOW_ATTRIBUTE(rbtr_fn_stats);

/**
 * rbtr_function_files - the function tracers' files of a tracer
 * @tr: the tracer (the top, or an instance being made)
 *
 * An instance has current_tracer, available_tracers, set_ftrace_filter,
 * set_ftrace_notrace, set_ftrace_pid, set_ftrace_notrace_pid,
 * options/function-fork (and func_stack_trace) of its own, and the
 * funcgraph-* options files, as ftrace's; set_graph_function,
 * set_graph_notrace, max_graph_depth, the stack tracer's files and
 * function_stats are the top's (ftrace's top-level files).
 */
void rbtr_function_files(struct rbtr_trace *tr)
{
	struct dentry *dir = tr->dir;

	debugfs_create_file("current_tracer", 0600, dir, tr, &rbtr_tracer_fops);
	debugfs_create_file("available_tracers", 0400, dir, tr, &rbtr_avail_tracers_fops);
	rbtr_fn_filter_files(tr);
	rbtr_pid_fn_files(tr);
	rbtr_graph_option_files(tr);
	if (tr != &rbtr_global_trace)
		return;
	debugfs_create_file("function_stats", 0400, dir, NULL, &rbtr_fn_stats_fops);
	rbtr_graph_files(dir);
	rbtr_stack_tracer_files(dir);
}

/**
 * rbtr_fn_tr_init - a tracer's function state: nop, nothing selected
 * @tr: the tracer, being made (rbtr_trace_init())
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rbtr_fn_tr_init(struct rbtr_trace *tr)
{
	struct rbtr_fn_tracer *ft = kzalloc(sizeof(*ft), GFP_KERNEL);
	int k, ret;

	if (!ft)
		return -ENOMEM;
	ft->tr = tr;
	ft->ops.func = rbtr_fn_call;
	for (k = 0; k < RBTR_FN_NR_KINDS; k++)
		ft->files[k] = (struct rbtr_fn_file_id){ .ft = ft, .kind = k };
	/* Give the ops their hashes: the filter files program them. */
	ret = ftrace_set_filter(&ft->ops, NULL, 0, 1);
	if (!ret)
		ret = ftrace_set_notrace(&ft->ops, NULL, 0, 1);
	if (ret) {
		ftrace_free_filter(&ft->ops);
		kfree(ft);
		return ret;
	}
	mutex_lock(&rbtr_fn_mutex);
	list_add_tail(&ft->list, &rbtr_fn_trs);
	mutex_unlock(&rbtr_fn_mutex);
	tr->fn = ft;
	return 0;
}

/**
 * rbtr_fn_tr_exit - undo rbtr_fn_tr_init(): its tracer stopped, freed
 * @tr: the tracer (rbtr_trace_exit()), no file of it open
 *
 * unregister_ftrace_function() waits for the callbacks in flight: none
 * reads @tr or writes its buffer after this.
 */
void rbtr_fn_tr_exit(struct rbtr_trace *tr)
{
	struct rbtr_fn_tracer *ft = tr->fn;

	if (!ft)
		return;
	/* Its commands: those on its events went with them (rmdir). */
	rbtr_fn_cmd_tr_gone(tr);
	mutex_lock(&rbtr_fn_mutex);
	rbtr_tracer_stop_locked(ft);
	list_del(&ft->list);
	mutex_unlock(&rbtr_fn_mutex);
	tr->fn = NULL;
	ftrace_free_filter(&ft->ops);
	rbtr_fn_filter_free(ft);
	kfree(ft);
}

/**
 * rbtr_function_init - register the tracers' records; nothing traced yet
 * @tr: the top tracer, its function state made (rbtr_trace_init())
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rbtr_function_init(struct rbtr_trace *tr)
{
	int ret;

	mutex_lock(&rbtr_fn_mutex);
	rbtr_fn_closed = false;
	mutex_unlock(&rbtr_fn_mutex);
	ret = rbtr_event_register(&rbtr_fn_type);
	if (ret)
		return ret;
	ret = rbtr_graph_init(tr);
	if (ret) {
		rbtr_event_unregister(&rbtr_fn_type);
		return ret;
	}
	return 0;
}

/**
 * rbtr_function_exit - stop every tracer's function tracer
 *
 * unregister_ftrace_function() and unregister_fprobe() wait for the
 * callbacks in flight, so none runs in the module's text after this.
 * The instances' function state is freed with them (rbtr_fn_tr_exit()),
 * later in the unload: no current_tracer starts one again in between.
 */
void rbtr_function_exit(void)
{
	struct rbtr_fn_tracer *ft;

	/* The pid filters first: their conditions are on events still registered. */
	rbtr_pid_exit();
	mutex_lock(&rbtr_fn_mutex);
	/*
	 * The commands hold events in soft mode: released while they
	 * exist. Lock order: this mutex, then rbtr_events_lock() and the
	 * tracer's files_mutex (the snapshot's hold given back).
	 */
	list_for_each_entry(ft, &rbtr_fn_trs, list)
		rbtr_fn_cmd_tr_gone(ft->tr);
	rbtr_fn_cmd_exit();
	rbtr_fn_closed = true;
	list_for_each_entry(ft, &rbtr_fn_trs, list)
		rbtr_tracer_stop_locked(ft);
	mutex_unlock(&rbtr_fn_mutex);
	rbtr_graph_exit();
	rbtr_stack_tracer_exit();
	rbtr_event_unregister(&rbtr_fn_type);
}
