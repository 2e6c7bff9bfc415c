// SPDX-License-Identifier: GPL-2.0
/*
 * function_graph's text (trace, trace_pipe): ftrace's print_graph_*()
 * of kernel/trace/trace_functions_graph.c, with its options
 * (options/funcgraph-*, below; by default funcgraph-cpu, -overhead and
 * -duration on, -proc, -abstime, -tail, -overrun and -retval off), line
 * for line:
 *
 *	 ------------------------------------------
 *	 1)   sh-212     =>   sh-213
 *	 ------------------------------------------
 *
 *	 1)               |  ksys_read() {
 *	 1)   4.250 us    |    vfs_read();
 *	 1)               |    /-* hello *-/
 *	 1) + 12.375 us   |  }
 *
 * - an entry whose next record on its CPU is its own return (same task,
 *   same function) is a leaf, one "func();" line: the reader looks one
 *   record ahead (rbtr_graph_is_leaf()) and hands both records over;
 * - a return whose entry the reader did not print at that depth on that
 *   CPU says whose it is: "} /-* func *-/";
 * - a change of task on a CPU prints the banner above first;
 * - any other record but a function entry or a stack trace (those get
 *   the ordinary line) is a comment at the current depth: a marker's
 *   text alone, else the event's own text.
 *
 * The state (last task, depth, the entries printed) is a reader's own, as
 * ftrace's fgraph_data is its iterator's: two readers do not disturb each
 * other's comments or banners.
 */
/* seq_buf_printf() only: 6.1 exports neither seq_buf_puts() nor seq_buf_putc(). */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "function_graph.h"
#include "trace.h"

/* ftrace's TRACE_GRAPH_INDENT, TRACE_GRAPH_PROCINFO_LENGTH */
#define RBTR_GRAPH_INDENT	2
#define RBTR_GRAPH_PROC_LEN	14
/* ftrace's TRACE_STACK: shown as the ordinary line, as TRACE_FN */
#define RBTR_GRAPH_STACK_ID	4

/*
 * ftrace's funcgraph-* options (its TRACE_GRAPH_PRINT_* flags), read once
 * per record by the printers: a change shows from the next line on, as
 * in ftrace. funcgraph-irqs is the recorder's (rbtr_graph_skip_irqs()):
 * off, no call in hard interrupt (or NMI) context is traced, but for the
 * functions of set_graph_function, as ftrace's. ftrace's
 * interrupt arrows mark calls of functions in .irqentry.text, which
 * x86-64's interrupt entry (idtentry) no longer uses: rbtrace prints none.
 * -retval and -retval-hex where the records carry the return value.
 */
enum rbtr_graph_opt {
	RBTR_GRAPH_OVERRUN,
	RBTR_GRAPH_CPU,
	RBTR_GRAPH_OVERHEAD,
	RBTR_GRAPH_PROC,
	RBTR_GRAPH_DURATION,
	RBTR_GRAPH_ABSTIME,
	RBTR_GRAPH_IRQS,
	RBTR_GRAPH_TAIL,
	RBTR_GRAPH_RETVAL,
	RBTR_GRAPH_RETVAL_HEX,
	RBTR_GRAPH_NR_OPTS,
};

static const char *const rbtr_graph_opt_names[RBTR_GRAPH_NR_OPTS] = {
	[RBTR_GRAPH_OVERRUN]	= "funcgraph-overrun",
	[RBTR_GRAPH_CPU]	= "funcgraph-cpu",
	[RBTR_GRAPH_OVERHEAD]	= "funcgraph-overhead",
	[RBTR_GRAPH_PROC]	= "funcgraph-proc",
	[RBTR_GRAPH_DURATION]	= "funcgraph-duration",
	[RBTR_GRAPH_ABSTIME]	= "funcgraph-abstime",
	[RBTR_GRAPH_IRQS]	= "funcgraph-irqs",
	[RBTR_GRAPH_TAIL]	= "funcgraph-tail",
	[RBTR_GRAPH_RETVAL]	= "funcgraph-retval",
	[RBTR_GRAPH_RETVAL_HEX]	= "funcgraph-retval-hex",
};

static unsigned long rbtr_graph_opts = BIT(RBTR_GRAPH_CPU) | BIT(RBTR_GRAPH_OVERHEAD) |
				       BIT(RBTR_GRAPH_DURATION) | BIT(RBTR_GRAPH_IRQS);

/**
 * rbtr_graph_skip_irqs - is funcgraph-irqs off?
 *
 * Any context: the graph tracer's entry asks it at each call, as
 * ftrace's ftrace_graph_ignore_irqs(); a change applies from the next.
 *
 * Return: true if calls in hard interrupt context are not to be traced.
 */
bool rbtr_graph_skip_irqs(void)
{
	return !(READ_ONCE(rbtr_graph_opts) & BIT(RBTR_GRAPH_IRQS));
}

/* Is option @o offered on this kernel? */
static bool rbtr_graph_opt_offered(unsigned int o)
{
	if (o == RBTR_GRAPH_RETVAL || o == RBTR_GRAPH_RETVAL_HEX)
		return IS_ENABLED(CONFIG_FUNCTION_GRAPH_RETVAL);
	return true;
}

#define RBTR_GRAPH_ON(f, o)	((f) & BIT(RBTR_GRAPH_##o))

/* ftrace's struct fgraph_cpu_data, for one reader and one CPU */
struct rbtr_graph_cpu_text {
	int		last_pid;	/* -1: no line printed yet */
	int		depth;		/* comments go one deeper */
	unsigned long	enter_funcs[RBTR_GRAPH_MAX_DEPTH];
};

struct rbtr_graph_text {
	unsigned int			nr_cpus;
	struct rbtr_graph_cpu_text	cpu[] __counted_by(nr_cpus);
};

/**
 * rbtr_graph_text_reset - forget what was printed, as at a new open
 * @gt: a reader's state
 */
void rbtr_graph_text_reset(struct rbtr_graph_text *gt)
{
	unsigned int cpu;

	for (cpu = 0; cpu < gt->nr_cpus; cpu++) {
		memset(&gt->cpu[cpu], 0, sizeof(gt->cpu[cpu]));
		gt->cpu[cpu].last_pid = -1;
	}
}

/**
 * rbtr_graph_text_alloc - a reader's graph text state
 *
 * Return: the state, reset, or NULL.
 */
struct rbtr_graph_text *rbtr_graph_text_alloc(void)
{
	struct rbtr_graph_text *gt;

	gt = kvzalloc(struct_size(gt, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!gt)
		return NULL;
	gt->nr_cpus = nr_cpu_ids;
	rbtr_graph_text_reset(gt);
	return gt;
}

/**
 * rbtr_graph_text_free - free rbtr_graph_text_alloc()'s state
 * @gt: the state, or NULL
 */
void rbtr_graph_text_free(struct rbtr_graph_text *gt)
{
	kvfree(gt);
}

/**
 * rbtr_graph_leaf_wanted - should the reader look at the next record?
 * @tr: the tracer whose buffer it reads
 * @rec: the record about to be printed
 * @len: its size
 *
 * Return: true if function_graph is current and @rec is a function
 * entry: the next record on its CPU may be its return
 * (rbtr_graph_is_leaf()).
 */
bool rbtr_graph_leaf_wanted(const struct rbtr_trace *tr, const void *rec, unsigned int len)
{
	const struct rbtr_entry *ent = rec;

	return rbtr_current_tracer(tr) == RBTR_TRACER_GRAPH &&
	       len >= sizeof(struct rbtr_graph_ent_entry) &&
	       ent->type == RBTR_TRACE_GRAPH_ENT_ID;
}

/**
 * rbtr_graph_is_leaf - is @next the return of the entry @rec?
 * @rec: a function entry (rbtr_graph_leaf_wanted() said so)
 * @len: its size
 * @next: the record after it on the same CPU
 * @next_len: its size
 *
 * As ftrace's get_return_for_leaf(): same task, same function.
 *
 * Return: true if the two are one leaf call, one line.
 */
bool rbtr_graph_is_leaf(const void *rec, unsigned int len, const void *next,
			unsigned int next_len)
{
	const struct rbtr_graph_ent_entry *e = rec;
	const struct rbtr_graph_ret_entry *r = next;

	BUILD_BUG_ON(sizeof(*r) > RBTR_GRAPH_LEAF_MAX);
	return len >= sizeof(*e) && next_len >= sizeof(*r) &&
	       r->ent.type == RBTR_TRACE_GRAPH_RET_ID &&
	       r->ent.pid == e->ent.pid && r->func == e->func;
}

/* ftrace's trace_find_mark(): the overhead sign before a duration. */
static char rbtr_graph_mark(u64 d)
{
	static const struct { u64 val; char sym; } mark[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' }, { 10000000ULL, '*' },
		{ 1000000ULL, '#' }, { 100000ULL, '!' }, { 10000ULL, '+' },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mark); i++)
		if (d > mark[i].val)
			return mark[i].sym;
	return ' ';
}

/* ftrace's print_graph_duration(): the overhead mark, the time. */
static void rbtr_graph_duration(struct seq_buf *s, u64 duration, unsigned long f)
{
	char usecs[24];
	u32 nsecs;
	int len, i;

	if (!RBTR_GRAPH_ON(f, DURATION))
		return;
	seq_buf_printf(s, "%c ", RBTR_GRAPH_ON(f, OVERHEAD) ? rbtr_graph_mark(duration) : ' ');
	duration = div_u64_rem(duration, 1000, &nsecs);
	len = scnprintf(usecs, sizeof(usecs), "%llu", duration);
	seq_buf_printf(s, "%s", usecs);
	/* At most seven digits: the nanoseconds only as room is left. */
	if (len < 7) {
		char ns[5];

		scnprintf(ns, min(sizeof(ns), (size_t)(8 - len)), "%03u", nsecs);
		seq_buf_printf(s, ".%s", ns);
		len += strlen(ns) + 1;
	}
	seq_buf_printf(s, " us ");
	for (i = len; i < 8; i++)
		seq_buf_printf(s, " ");
	seq_buf_printf(s, "|  ");
}

/* print_graph_duration()'s FLAGS_FILL_FULL: no time on this line. */
static void rbtr_graph_no_duration(struct seq_buf *s, unsigned long f)
{
	if (RBTR_GRAPH_ON(f, DURATION))
		seq_buf_printf(s, "              |  ");
}

/* ftrace's print_graph_cpu(): " 1) ", as wide as the highest CPU. */
static void rbtr_graph_cpu(struct seq_buf *s, int cpu)
{
	int w = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);

	seq_buf_printf(s, " %*d) ", w, cpu);
}

/* ftrace's print_graph_proc(): "comm-pid" centred in 14 columns. */
static void rbtr_graph_proc(struct seq_buf *s, int pid)
{
	char comm[TASK_COMM_LEN];
	int len, spaces = 0;

	rbtr_cmdline_find(pid, comm);
	comm[7] = '\0';
	len = strlen(comm) + snprintf(NULL, 0, "%d", pid) + 1;
	if (len < RBTR_GRAPH_PROC_LEN)
		spaces = RBTR_GRAPH_PROC_LEN - len;
	seq_buf_printf(s, "%*s%s-%d%*s", spaces / 2, "", comm, pid,
		       spaces - spaces / 2, "");
}

/*
 * ftrace's print_graph_prologue() with verif_pid(): the context switch
 * banner when the CPU's task changed since its last line, then the
 * columns of the options: the time (funcgraph-abstime, the record's
 * stamp in seconds and microseconds), the CPU, the task.
 */
static void rbtr_graph_prologue(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				const struct rbtr_entry *ent, int cpu, u64 ts, unsigned long f)
{
	int prev = c->last_pid;

	if (prev != ent->pid) {
		c->last_pid = ent->pid;
		if (prev != -1) {
			seq_buf_printf(s, " ------------------------------------------\n");
			rbtr_graph_cpu(s, cpu);
			rbtr_graph_proc(s, prev);
			seq_buf_printf(s, " => ");
			rbtr_graph_proc(s, ent->pid);
			seq_buf_printf(s, "\n ------------------------------------------\n\n");
		}
	}
	if (RBTR_GRAPH_ON(f, ABSTIME)) {
		u32 rem;
		u64 sec = div_u64_rem(ts, NSEC_PER_SEC, &rem);

		seq_buf_printf(s, "%5llu.%06u |  ", sec, rem / (u32)NSEC_PER_USEC);
	}
	if (RBTR_GRAPH_ON(f, CPU))
		rbtr_graph_cpu(s, cpu);
	if (RBTR_GRAPH_ON(f, PROC)) {
		rbtr_graph_proc(s, ent->pid);
		seq_buf_printf(s, " | ");
	}
}

static void rbtr_graph_indent(struct seq_buf *s, int depth)
{
	seq_buf_printf(s, "%*s", max(depth, 0) * RBTR_GRAPH_INDENT, "");
}

static bool rbtr_graph_depth_ok(int depth)
{
	return depth >= 0 && depth < RBTR_GRAPH_MAX_DEPTH;
}

#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
/*
 * ftrace's print_graph_retval(): " = value" in the comment of a leaf or
 * of a closing brace; an error code (a negative errno, 32 or 64 bits) in
 * decimal, anything else in hex; all in hex with funcgraph-retval-hex.
 */
static void rbtr_graph_retval(struct seq_buf *s, unsigned long retval, bool leaf,
			      unsigned long func, unsigned long f)
{
	bool hex = RBTR_GRAPH_ON(f, RETVAL_HEX);
	unsigned long err = 0;

	if (retval && !hex) {
		if ((retval & BIT(31)) && !(((u64)retval) >> 32))
			err = (unsigned long)(s32)retval;
		else
			err = retval;
		if (!IS_ERR_VALUE(err))
			err = 0;
	}
	if (hex || !err)
		seq_buf_printf(s, leaf ? "%ps(); /* = 0x%lx */\n" : "} /* %ps = 0x%lx */\n",
			       (void *)func, retval);
	else
		seq_buf_printf(s, leaf ? "%ps(); /* = %ld */\n" : "} /* %ps = %ld */\n",
			       (void *)func, (long)err);
}

static bool rbtr_graph_print_retval(struct seq_buf *s, const struct rbtr_graph_ret_entry *r,
				    bool leaf, unsigned long f)
{
	if (!RBTR_GRAPH_ON(f, RETVAL))
		return false;
	rbtr_graph_retval(s, r->retval, leaf, r->func, f);
	return true;
}
#else
static bool rbtr_graph_print_retval(struct seq_buf *s, const struct rbtr_graph_ret_entry *r,
				    bool leaf, unsigned long f)
{
	return false;
}
#endif

/* ftrace's print_graph_entry_leaf() and print_graph_entry_nested() */
static void rbtr_graph_print_entry(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				   const struct rbtr_graph_ent_entry *e,
				   const struct rbtr_graph_ret_entry *leaf, int cpu, u64 ts,
				   unsigned long f)
{
	rbtr_graph_prologue(c, s, &e->ent, cpu, ts, f);
	if (leaf) {
		/* Comments after a leaf are at its own depth. */
		c->depth = e->depth - 1;
		if (rbtr_graph_depth_ok(e->depth))
			c->enter_funcs[e->depth] = 0;
		rbtr_graph_duration(s, leaf->rettime - leaf->calltime, f);
		rbtr_graph_indent(s, e->depth);
		if (!rbtr_graph_print_retval(s, leaf, true, f))
			seq_buf_printf(s, "%ps();\n", (void *)e->func);
		return;
	}
	c->depth = e->depth;
	if (rbtr_graph_depth_ok(e->depth))
		c->enter_funcs[e->depth] = e->func;
	rbtr_graph_no_duration(s, f);
	rbtr_graph_indent(s, e->depth);
	seq_buf_printf(s, "%ps() {\n", (void *)e->func);
}

/* ftrace's print_graph_return() */
static void rbtr_graph_print_return(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				    const struct rbtr_graph_ret_entry *r, int cpu, u64 ts,
				    unsigned long f)
{
	bool match = true;

	/* Comments after a return are at the closing brace's depth. */
	c->depth = r->depth - 1;
	if (rbtr_graph_depth_ok(r->depth)) {
		match = c->enter_funcs[r->depth] == r->func;
		c->enter_funcs[r->depth] = 0;
	}
	rbtr_graph_prologue(c, s, &r->ent, cpu, ts, f);
	rbtr_graph_duration(s, r->rettime - r->calltime, f);
	rbtr_graph_indent(s, r->depth);
	/* The function's name when its entry was not shown, or always (-tail). */
	if (!rbtr_graph_print_retval(s, r, false, f)) {
		if (match && !RBTR_GRAPH_ON(f, TAIL))
			seq_buf_printf(s, "}\n");
		else
			seq_buf_printf(s, "} /* %ps */\n", (void *)r->func);
	}
	if (RBTR_GRAPH_ON(f, OVERRUN))
		seq_buf_printf(s, " (Overruns: %u)\n", r->overrun);
}

/* ftrace's print_graph_comment(): "/-* text *-/", one deeper. */
static void rbtr_graph_print_comment(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				     const struct rbtr_entry *ent, unsigned int len,
				     int cpu, u64 ts, unsigned long f)
{
	rbtr_graph_prologue(c, s, ent, cpu, ts, f);
	rbtr_graph_no_duration(s, f);
	/* ftrace indents only from depth 1 on (its "if (depth > 0)"). */
	if (c->depth > 0)
		rbtr_graph_indent(s, c->depth + 1);
	seq_buf_printf(s, "/* ");
	if (!rbtr_marker_print_msg(s, ent, len))
		rbtr_event_print(s, ent, len);
	if (seq_buf_has_overflowed(s))
		return;
	/* The text's own newline goes: the comment ends the line. */
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	seq_buf_printf(s, " */\n");
}

/**
 * rbtr_graph_print - a record as ftrace's function_graph shows it
 * @tr: the tracer whose buffer it comes from
 * @gt: the reader's state
 * @s: where to print, whole lines
 * @rec: the record
 * @len: its size
 * @leaf: with a function entry, its return if it came right after it on
 *        its CPU (rbtr_graph_is_leaf()), the reader having skipped it;
 *        else NULL
 * @cpu: its CPU
 * @ts: its stamp (funcgraph-abstime)
 *
 * Return: false if function_graph is not current or @rec gets the
 * ordinary line (a function entry, a stack trace): nothing printed.
 */
bool rbtr_graph_print(const struct rbtr_trace *tr, struct rbtr_graph_text *gt,
		      struct seq_buf *s, const void *rec,
		      unsigned int len, const void *leaf, int cpu, u64 ts)
{
	unsigned long f = READ_ONCE(rbtr_graph_opts);
	const struct rbtr_entry *ent = rec;
	struct rbtr_graph_cpu_text *c;

	if (rbtr_current_tracer(tr) != RBTR_TRACER_GRAPH || !gt || len < sizeof(*ent) ||
	    cpu < 0 || cpu >= gt->nr_cpus)
		return false;
	c = &gt->cpu[cpu];
	switch (ent->type) {
	case RBTR_TRACE_GRAPH_ENT_ID:
		if (len < sizeof(struct rbtr_graph_ent_entry))
			return false;
		rbtr_graph_print_entry(c, s, rec, leaf, cpu, ts, f);
		return true;
	case RBTR_TRACE_GRAPH_RET_ID:
		if (len < sizeof(struct rbtr_graph_ret_entry))
			return false;
		rbtr_graph_print_return(c, s, rec, cpu, ts, f);
		return true;
	case RBTR_TRACE_FN_ID:
	case RBTR_GRAPH_STACK_ID:
		return false;
	default:
		rbtr_graph_print_comment(c, s, ent, len, cpu, ts, f);
		return true;
	}
}

/**
 * rbtr_graph_print_header - the trace file's header under function_graph
 * @m: the trace file
 * @tr: its tracer
 *
 * Return: true if function_graph is current (the header was printed).
 */
bool rbtr_graph_print_header(struct seq_file *m, const struct rbtr_trace *tr)
{
	unsigned long f = READ_ONCE(rbtr_graph_opts);

	if (rbtr_current_tracer(tr) != RBTR_TRACER_GRAPH)
		return false;
	seq_puts(m, "# tracer: function_graph\n#\n");
	/* ftrace's __print_graph_headers_flags(): a column per option. */
	seq_printf(m, "#%s%s%s%s               FUNCTION CALLS\n",
		   RBTR_GRAPH_ON(f, ABSTIME) ? "     TIME       " : "",
		   RBTR_GRAPH_ON(f, CPU) ? " CPU" : "",
		   RBTR_GRAPH_ON(f, PROC) ? "  TASK/PID       " : "",
		   RBTR_GRAPH_ON(f, DURATION) ? "  DURATION   " : "");
	seq_printf(m, "#%s%s%s%s               |   |   |   |\n",
		   RBTR_GRAPH_ON(f, ABSTIME) ? "      |         " : "",
		   RBTR_GRAPH_ON(f, CPU) ? " |  " : "",
		   RBTR_GRAPH_ON(f, PROC) ? "   |    |        " : "",
		   RBTR_GRAPH_ON(f, DURATION) ? "   |   |      " : "");
	return true;
}

/* ---- options/funcgraph-* ---------------------------------------------------- */

/*
 * An options/ file's option: its name. Its inode keeps its tracer (held
 * while the file is open: an instance's rmdir is -EBUSY meanwhile).
 */
static unsigned int rbtr_graph_opt_of(struct file *filp)
{
	const char *name = filp->f_path.dentry->d_name.name;
	unsigned int o;

	for (o = 0; o < RBTR_GRAPH_NR_OPTS; o++)
		if (!strcmp(name, rbtr_graph_opt_names[o]))
			break;
	return o;
}

static ssize_t rbtr_graph_opt_read(struct file *filp, char __user *ubuf, size_t cnt,
				   loff_t *ppos)
{
	unsigned int o = rbtr_graph_opt_of(filp);

	if (o >= RBTR_GRAPH_NR_OPTS)
		return -EINVAL;
	return rbtr_read_u64(ubuf, cnt, ppos, !!(READ_ONCE(rbtr_graph_opts) & BIT(o)));
}

/*
 * Atomic bit operations: two writers of different options keep each
 * other's bit. The printers' READ_ONCE() of the word needs no ordering:
 * each line is printed whole with the options it read.
 */
static void rbtr_graph_opt_set(unsigned int o, bool on)
{
	if (on)
		set_bit(o, &rbtr_graph_opts);
	else
		clear_bit(o, &rbtr_graph_opts);
}

/* ftrace's trace_options_write(): 0 or 1, else -EINVAL. */
static ssize_t rbtr_graph_opt_write(struct file *filp, const char __user *ubuf, size_t cnt,
				    loff_t *ppos)
{
	unsigned int o = rbtr_graph_opt_of(filp);
	bool on;
	int ret;

	if (o >= RBTR_GRAPH_NR_OPTS)
		return -EINVAL;
	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	rbtr_graph_opt_set(o, on);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_graph_opt_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_tr,
	.release	= rbtr_release_tr,
	.read		= rbtr_graph_opt_read,
	.write		= rbtr_graph_opt_write,
	.llseek		= generic_file_llseek,
};

/**
 * rbtr_graph_option_files - options/funcgraph-* in a tracer's options/
 * @tr: the tracer (the options are one set for every tracer, as
 *      ftrace's tracer flags: each tracer's files show and set them)
 */
void rbtr_graph_option_files(struct rbtr_trace *tr)
{
	struct dentry *dir = rbtr_options_dir(tr);
	unsigned long o;

	if (IS_ERR(dir) || !rbtr_graph_supported())
		return;
	for (o = 0; o < RBTR_GRAPH_NR_OPTS; o++)
		if (rbtr_graph_opt_offered(o))
			debugfs_create_file(rbtr_graph_opt_names[o], 0600, dir, tr,
					    &rbtr_graph_opt_fops);
}

/**
 * rbtr_graph_options_show - the funcgraph-* lines of trace_options
 * @m: a tracer's trace_options
 * @tr: the tracer
 *
 * As ftrace's: a tracer's options are listed while it is the current one.
 */
void rbtr_graph_options_show(struct seq_file *m, const struct rbtr_trace *tr)
{
	unsigned long f = READ_ONCE(rbtr_graph_opts);
	unsigned int o;

	if (rbtr_current_tracer(tr) != RBTR_TRACER_GRAPH)
		return;
	for (o = 0; o < RBTR_GRAPH_NR_OPTS; o++)
		if (rbtr_graph_opt_offered(o))
			seq_printf(m, "%s%s\n", f & BIT(o) ? "" : "no", rbtr_graph_opt_names[o]);
}

/**
 * rbtr_graph_option_set - a trace_options write naming a funcgraph-* option
 * @tr: the tracer of the trace_options written (the options are one set
 *      for every tracer, as ftrace's tracer flags)
 * @name: the name, "no" stripped
 * @on: its new value
 *
 * As ftrace's set_tracer_option(): only while function_graph is current.
 *
 * Return: 0, or -ENOENT if @name is none of them (or the tracer is not
 * function_graph).
 */
int rbtr_graph_option_set(const struct rbtr_trace *tr, const char *name, bool on)
{
	unsigned int o;

	if (rbtr_current_tracer(tr) != RBTR_TRACER_GRAPH)
		return -ENOENT;
	for (o = 0; o < RBTR_GRAPH_NR_OPTS; o++) {
		if (rbtr_graph_opt_offered(o) && !strcmp(name, rbtr_graph_opt_names[o])) {
			rbtr_graph_opt_set(o, on);
			return 0;
		}
	}
	return -ENOENT;
}
