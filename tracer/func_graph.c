// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's function graph tracer: the entry and the exit of the functions
 * of set_graph_function (else of set_ftrace_filter; never those of
 * set_ftrace_notrace), through the exported fprobe interface: an entry
 * handler and an exit handler sharing per-call entry_data. Debian's 6.1
 * has no fprobe (CONFIG_FPROBE unset): there function_graph is refused
 * (function.c).
 *
 * Records: ftrace's funcgraph_entry (TRACE_GRAPH_ENT: func, depth) and
 * funcgraph_exit (TRACE_GRAPH_RET: func, [retval,] depth, overrun,
 * calltime, rettime), packed, with this kernel's layout (retval only with
 * CONFIG_FUNCTION_GRAPH_RETVAL, as its format file says).
 *
 * Depth: the number of this fprobe's return hooks already on the task's
 * rethook list when the entry handler runs (fprobe pushes the call's own
 * after the handler): the traced functions this call is nested in, on
 * this task, as ftrace's curr_ret_depth counts them. The entry handler
 * keeps it, and the call time, in entry_data for the exit.
 *
 * tracing_thresh (duration.c): while set, the entry writes nothing and the
 * exit writes one funcgraph_exit, carrying calltime and rettime, only
 * when the call lasted at least the threshold: a shorter call leaves
 * nothing in the buffer, and nothing is ever taken back (seed 003's
 * lesson, and what ftrace's trace_graph_thresh_return() does).
 *
 * Text (trace, trace_pipe): ftrace's graph lines ("CPU) DURATION | func() {",
 * "}", "} /-* func *-/" on a closing brace whose entry the reader did not
 * just print). Differences from ftrace, which reads ahead: a leaf is
 * printed as "func() {" and "}" rather than "func();", and no context
 * switch banner is printed.
 */
#include <linux/debugfs.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/percpu.h>
#include <linux/rethook.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "events.h"
#include "function.h"
#include "trace.h"

/* ftrace's TRACE_GRAPH_INDENT and FTRACE_RETFUNC_DEPTH */
#define RBTR_GRAPH_INDENT	2
#define RBTR_GRAPH_MAX_DEPTH	50
/* Return hooks in flight at once, over the CPUs (fprobe's nr_maxactive). */
#define RBTR_GRAPH_MAX_ACTIVE	4096
/* Every function: every sleeping task holds its call chain's hooks. */
#define RBTR_GRAPH_MAX_ACTIVE_ALL	32768

/* ftrace's struct ftrace_graph_ent_entry */
struct rbtr_graph_ent_entry {
	struct rbtr_entry	ent;
	unsigned long		func;
	int			depth;
} __packed;

/* ftrace's struct ftrace_graph_ret_entry */
struct rbtr_graph_ret_entry {
	struct rbtr_entry	ent;
	unsigned long		func;
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	unsigned long		retval;
#endif
	int			depth;
	unsigned int		overrun;
	unsigned long long	calltime;
	unsigned long long	rettime;
} __packed;

static void rbtr_graph_print_ent(struct seq_buf *s, const struct rbtr_event_type *type,
				 const void *rec, unsigned int len);
static void rbtr_graph_print_ret(struct seq_buf *s, const struct rbtr_event_type *type,
				 const void *rec, unsigned int len);

static const struct rbtr_field rbtr_graph_ent_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ent_entry)->func,
		   "unsigned long", "func", RBTR_FIELD_HEX),
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ent_entry)->depth,
		   "int", "depth", RBTR_FIELD_NUM),
};

static const struct rbtr_field rbtr_graph_ret_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ret_entry)->func,
		   "unsigned long", "func", RBTR_FIELD_HEX),
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ret_entry)->retval,
		   "unsigned long", "retval", RBTR_FIELD_HEX),
#endif
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ret_entry)->depth,
		   "int", "depth", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ret_entry)->overrun,
		   "unsigned int", "overrun", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ret_entry)->calltime,
		   "unsigned long long", "calltime", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct rbtr_graph_ret_entry)->rettime,
		   "unsigned long long", "rettime", RBTR_FIELD_NUM),
};

static struct rbtr_event_type rbtr_graph_ent_type = {
	.system		= "ftrace",
	.name		= "funcgraph_entry",
	.id		= RBTR_TRACE_GRAPH_ENT_ID,
	.fields		= rbtr_graph_ent_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_graph_ent_fields),
	.print_fmt	= "\"--> %ps (%d)\", (void *)REC->func, REC->depth",
	.print		= rbtr_graph_print_ent,
};

/* funcgraph_exit's print fmt, as trace_entries.h makes it */
#define RBTR_RET_FMT	"\"<-- %ps (%d) (start: %llx  end: %llx) over: %d"
#define RBTR_RET_ARGS	"(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth"

static struct rbtr_event_type rbtr_graph_ret_type = {
	.system		= "ftrace",
	.name		= "funcgraph_exit",
	.id		= RBTR_TRACE_GRAPH_RET_ID,
	.fields		= rbtr_graph_ret_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_graph_ret_fields),
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	.print_fmt	= RBTR_RET_FMT " retval: %lx\", " RBTR_RET_ARGS ", REC->retval",
#else
	.print_fmt	= RBTR_RET_FMT "\", " RBTR_RET_ARGS,
#endif
	.print		= rbtr_graph_print_ret,
};

/* Outside the graph text (another tracer current): ftrace's print fmt. */
static void rbtr_graph_print_ent(struct seq_buf *s, const struct rbtr_event_type *type,
				 const void *rec, unsigned int len)
{
	const struct rbtr_graph_ent_entry *e = rec;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "(short funcgraph_entry record)\n");
		return;
	}
	seq_buf_printf(s, "--> %ps (%d)\n", (void *)e->func, e->depth);
}

static void rbtr_graph_print_ret(struct seq_buf *s, const struct rbtr_event_type *type,
				 const void *rec, unsigned int len)
{
	const struct rbtr_graph_ret_entry *e = rec;

	if (len < sizeof(*e)) {
		seq_buf_printf(s, "(short funcgraph_exit record)\n");
		return;
	}
	seq_buf_printf(s, "<-- %ps (%d) (start: %llx  end: %llx) over: %d\n",
		       (void *)e->func, e->depth, e->calltime, e->rettime, e->depth);
}

/*
 * What the last graph line printed on each CPU was, for the closing
 * brace's comment: shared by all readers (two readers at once may see a
 * comment too many or too few; the records are not affected).
 */
struct rbtr_graph_cpu_text {
	unsigned long	enter_funcs[RBTR_GRAPH_MAX_DEPTH];
};

static struct rbtr_graph_cpu_text __percpu *rbtr_graph_text;

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

/* ftrace's print_graph_duration() with the overhead mark. */
static void rbtr_graph_duration(struct seq_buf *s, u64 duration)
{
	char usecs[24];
	u32 nsecs;
	int len, i;

	seq_buf_printf(s, "%c ", rbtr_graph_mark(duration));
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

static void rbtr_graph_cpu(struct seq_buf *s, int cpu)
{
	int w = snprintf(NULL, 0, "%u", nr_cpu_ids - 1);

	seq_buf_printf(s, " %*d) ", w, cpu);
}

static void rbtr_graph_indent(struct seq_buf *s, int depth)
{
	seq_buf_printf(s, "%*s", max(depth, 0) * RBTR_GRAPH_INDENT, "");
}

/**
 * rbtr_graph_print - a graph record as ftrace's function_graph shows it
 * @s: where to print, a whole line
 * @rec: the record
 * @len: its size
 * @cpu: its CPU
 *
 * Return: true if it was a graph record and function_graph is current.
 */
bool rbtr_graph_print(struct seq_buf *s, const void *rec, unsigned int len, int cpu)
{
	const struct rbtr_entry *ent = rec;
	struct rbtr_graph_cpu_text *t;
	bool match;

	if (rbtr_current_tracer() != RBTR_TRACER_GRAPH || !rbtr_graph_text ||
	    len < sizeof(*ent))
		return false;
	t = per_cpu_ptr(rbtr_graph_text, cpu);
	if (ent->type == RBTR_TRACE_GRAPH_ENT_ID && len >= sizeof(struct rbtr_graph_ent_entry)) {
		const struct rbtr_graph_ent_entry *e = rec;

		if (e->depth >= 0 && e->depth < RBTR_GRAPH_MAX_DEPTH)
			t->enter_funcs[e->depth] = e->func;
		rbtr_graph_cpu(s, cpu);
		seq_buf_printf(s, "              |  ");
		rbtr_graph_indent(s, e->depth);
		seq_buf_printf(s, "%ps() {\n", (void *)e->func);
		return true;
	}
	if (ent->type == RBTR_TRACE_GRAPH_RET_ID && len >= sizeof(struct rbtr_graph_ret_entry)) {
		const struct rbtr_graph_ret_entry *e = rec;

		match = false;
		if (e->depth >= 0 && e->depth < RBTR_GRAPH_MAX_DEPTH) {
			match = t->enter_funcs[e->depth] == e->func;
			t->enter_funcs[e->depth] = 0;
		}
		rbtr_graph_cpu(s, cpu);
		rbtr_graph_duration(s, e->rettime - e->calltime);
		rbtr_graph_indent(s, e->depth);
		if (match)
			seq_buf_printf(s, "}\n");
		else
			seq_buf_printf(s, "} /* %ps */\n", (void *)e->func);
		return true;
	}
	return false;
}

/**
 * rbtr_graph_print_header - the trace file's header under function_graph
 * @m: the trace file
 *
 * Return: true if function_graph is current (the header was printed).
 */
bool rbtr_graph_print_header(struct seq_file *m)
{
	int cpu;

	if (rbtr_current_tracer() != RBTR_TRACER_GRAPH)
		return false;
	if (rbtr_graph_text)
		for_each_possible_cpu(cpu)
			memset(per_cpu_ptr(rbtr_graph_text, cpu), 0, sizeof(*rbtr_graph_text));
	seq_puts(m, "# tracer: function_graph\n#\n");
	seq_puts(m, "# CPU  DURATION                  FUNCTION CALLS\n");
	seq_puts(m, "# |     |   |                     |   |   |   |\n");
	return true;
}

#if IS_ENABLED(CONFIG_FPROBE) && IS_ENABLED(CONFIG_RETHOOK)

/* What the entry handler leaves the exit handler. */
struct rbtr_graph_call {
	u64	calltime;
	int	depth;
	bool	entry_written;
};

static struct rbtr_trace *rbtr_graph_tr;
static DEFINE_PER_CPU(unsigned long, rbtr_graph_short);	/* exits under tracing_thresh */
static bool rbtr_graph_on;

static int rbtr_graph_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			    struct pt_regs *regs, void *data);
static void rbtr_graph_exit_handler(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
				    struct pt_regs *regs, void *data);

static struct fprobe rbtr_graph_fprobe = {
	.entry_handler	= rbtr_graph_entry,
	.exit_handler	= rbtr_graph_exit_handler,
	.entry_data_size = sizeof(struct rbtr_graph_call),
};

/* Our return hooks below this call on the task: its graph depth. */
static int rbtr_graph_depth(struct fprobe *fp)
{
	struct llist_node *n = current->rethooks.first;
	struct rethook_node *rh;
	int depth = 0;

	/*
	 * Interrupts on this CPU push and pop above the node we read first;
	 * the nodes below it are the task's and stay until it returns.
	 */
	while (n && depth < RBTR_GRAPH_MAX_DEPTH * 4) {
		rh = container_of(n, struct rethook_node, llist);
		if (rh->rethook == fp->rethook)
			depth++;
		n = READ_ONCE(n->next);
	}
	return depth;
}

/*
 * Entry, under fprobe's ftrace_test_recursion_trylock(). Returning
 * non-zero drops the exit: the task is not one of set_ftrace_pid's.
 */
static int rbtr_graph_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			    struct pt_regs *regs, void *data)
{
	struct rbt_buffer *buffer = rbtr_graph_tr->buffer;
	struct rbtr_graph_call *c = data;
	struct rbtr_graph_ent_entry *e;

	if (rbtr_fn_pid_ignored())
		return 1;
	c->depth = rbtr_graph_depth(fp);
	c->entry_written = false;
	if (!rbtr_dur_thresh_ns()) {
		e = rbtr_event_reserve(buffer, &rbtr_graph_ent_type, sizeof(*e),
				       rbtr_trace_ctx());
		if (e) {
			e->func = ip;
			e->depth = c->depth;
			rbtr_event_commit(buffer);
			c->entry_written = true;
		}
	}
	/* After the entry's record: the duration excludes its writing. */
	c->calltime = rbt_time_stamp(buffer);
	return 0;
}

/* Exit: the record, unless tracing_thresh says the call was too short. */
static void rbtr_graph_exit_handler(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
				    struct pt_regs *regs, void *data)
{
	struct rbt_buffer *buffer = rbtr_graph_tr->buffer;
	struct rbtr_graph_call *c = data;
	struct rbtr_graph_ret_entry *e;
	u64 rettime = rbt_time_stamp(buffer), thresh;

	if (!c->entry_written) {
		thresh = rbtr_dur_thresh_ns();
		if (rettime < c->calltime || rettime - c->calltime < thresh) {
			this_cpu_inc(rbtr_graph_short);
			return;
		}
	}
	e = rbtr_event_reserve(buffer, &rbtr_graph_ret_type, sizeof(*e), rbtr_trace_ctx());
	if (!e)
		return;
	e->func = ip;
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	e->retval = regs_return_value(regs);
#endif
	e->depth = c->depth;
	e->overrun = 0;
	e->calltime = c->calltime;
	e->rettime = rettime;
	rbtr_event_commit(buffer);
}

/* The functions to probe: set_graph_function's, else the filter's; less notrace. */
static int rbtr_graph_ips(unsigned long **ips, unsigned int *nr)
{
	unsigned long *sel, *no;
	unsigned int n, nn, i, j, k;
	int ret;

	ret = rbtr_fn_sel_ips(RBTR_FN_GRAPH, &sel, &n);
	if (!ret && !n)
		ret = rbtr_fn_sel_ips(RBTR_FN_FILTER, &sel, &n);
	if (ret)
		return ret;
	ret = rbtr_fn_sel_ips(RBTR_FN_NOTRACE, &no, &nn);
	if (ret) {
		kvfree(sel);
		return ret;
	}
	/* Both sorted: one merge pass drops the notrace ones. */
	for (i = j = k = 0; i < n; i++) {
		while (j < nn && no[j] < sel[i])
			j++;
		if (j < nn && no[j] == sel[i])
			continue;
		sel[k++] = sel[i];
	}
	kvfree(no);
	*ips = sel;
	*nr = k;
	return 0;
}

/**
 * rbtr_graph_start - probe the selected functions
 *
 * Called under function.c's mutex, with no tracer running.
 *
 * With nothing selected (set_graph_function and set_ftrace_filter
 * empty) every traceable function is probed, as ftrace does.
 *
 * Return: 0, or fprobe's error.
 */
int rbtr_graph_start(void)
{
	unsigned long *ips;
	unsigned int n;
	int ret;

	ret = rbtr_graph_ips(&ips, &n);
	if (ret)
		return ret;
	memset(&rbtr_graph_fprobe.ops, 0, sizeof(rbtr_graph_fprobe.ops));
	rbtr_graph_fprobe.nmissed = 0;
	rbtr_graph_fprobe.flags = 0;
	rbtr_graph_fprobe.rethook = NULL;
	if (!n) {
		/*
		 * Nothing selected: every traceable function, as ftrace's
		 * function_graph (seed 003's three lines). The return hooks in
		 * flight are bounded by the pool; a call that finds it empty
		 * is counted in "graph missed" and not recorded.
		 */
		rbtr_graph_fprobe.nr_maxactive = RBTR_GRAPH_MAX_ACTIVE_ALL;
		ret = register_fprobe(&rbtr_graph_fprobe, "*", NULL);
	} else {
		rbtr_graph_fprobe.nr_maxactive = min_t(unsigned int, RBTR_GRAPH_MAX_ACTIVE,
						       n * num_possible_cpus() * 2);
		ret = register_fprobe_ips(&rbtr_graph_fprobe, ips, n);
	}
	kvfree(ips);
	if (!ret)
		rbtr_graph_on = true;
	return ret;
}

/**
 * rbtr_graph_stop - remove the probes; waits for the handlers in flight
 */
void rbtr_graph_stop(void)
{
	if (!rbtr_graph_on)
		return;
	unregister_fprobe(&rbtr_graph_fprobe);
	rbtr_graph_on = false;
}

/**
 * rbtr_graph_supported - can function_graph run on this kernel?
 *
 * Return: true with fprobe.
 */
bool rbtr_graph_supported(void)
{
	return true;
}

/**
 * rbtr_graph_show_stats - the graph tracer's counts, for function_stats
 * @m: the file
 */
void rbtr_graph_show_stats(struct seq_file *m)
{
	unsigned long sum = 0;
	int cpu;

	seq_printf(m, "graph missed: %lu\n",
		   rbtr_graph_on ? READ_ONCE(rbtr_graph_fprobe.nmissed) : 0UL);
	for_each_possible_cpu(cpu)
		sum += per_cpu(rbtr_graph_short, cpu);
	seq_printf(m, "graph under tracing_thresh: %lu\n", sum);
}

static void rbtr_graph_set_tr(struct rbtr_trace *tr)
{
	rbtr_graph_tr = tr;
}

#else /* !CONFIG_FPROBE */

int rbtr_graph_start(void)
{
	return -EOPNOTSUPP;
}

void rbtr_graph_stop(void)
{
}

bool rbtr_graph_supported(void)
{
	return false;
}

void rbtr_graph_show_stats(struct seq_file *m)
{
}

static void rbtr_graph_set_tr(struct rbtr_trace *tr)
{
}

#endif /* CONFIG_FPROBE */

/**
 * rbtr_graph_files - the graph tracer's files (none of its own yet)
 * @top: the top directory
 */
void rbtr_graph_files(struct dentry *top)
{
}

/**
 * rbtr_graph_init - register the graph records
 * @tr: the tracer they write into
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rbtr_graph_init(struct rbtr_trace *tr)
{
	int ret;

	rbtr_graph_set_tr(tr);
	rbtr_graph_text = alloc_percpu(struct rbtr_graph_cpu_text);
	if (!rbtr_graph_text)
		return -ENOMEM;
	ret = rbtr_event_register(&rbtr_graph_ent_type);
	if (ret)
		goto fail_text;
	ret = rbtr_event_register(&rbtr_graph_ret_type);
	if (ret)
		goto fail_ent;
	return 0;

fail_ent:
	rbtr_event_unregister(&rbtr_graph_ent_type);
fail_text:
	free_percpu(rbtr_graph_text);
	rbtr_graph_text = NULL;
	return ret;
}

/**
 * rbtr_graph_exit - undo rbtr_graph_init(); the tracer is stopped
 */
void rbtr_graph_exit(void)
{
	rbtr_event_unregister(&rbtr_graph_ret_type);
	rbtr_event_unregister(&rbtr_graph_ent_type);
	free_percpu(rbtr_graph_text);
	rbtr_graph_text = NULL;
}
