// SPDX-License-Identifier: GPL-2.0
/*
 * function_graph's text (trace, trace_pipe): ftrace's print_graph_*()
 * of kernel/trace/trace_functions_graph.c, with its default options
 * (funcgraph-cpu, -overhead, -duration on; -proc, -abstime, -tail,
 * -overrun, -retval off), line for line:
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
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "function_graph.h"

/* ftrace's TRACE_GRAPH_INDENT, TRACE_GRAPH_PROCINFO_LENGTH */
#define RBTR_GRAPH_INDENT	2
#define RBTR_GRAPH_PROC_LEN	14
/* ftrace's TRACE_STACK: shown as the ordinary line, as TRACE_FN */
#define RBTR_GRAPH_STACK_ID	4

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
 * @rec: the record about to be printed
 * @len: its size
 *
 * Return: true if function_graph is current and @rec is a function
 * entry: the next record on its CPU may be its return
 * (rbtr_graph_is_leaf()).
 */
bool rbtr_graph_leaf_wanted(const void *rec, unsigned int len)
{
	const struct rbtr_entry *ent = rec;

	return rbtr_current_tracer() == RBTR_TRACER_GRAPH &&
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

/* print_graph_duration()'s FLAGS_FILL_FULL: no time on this line. */
static void rbtr_graph_no_duration(struct seq_buf *s)
{
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
 * banner when the CPU's task changed since its last line, then the CPU.
 */
static void rbtr_graph_prologue(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				const struct rbtr_entry *ent, int cpu)
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
	rbtr_graph_cpu(s, cpu);
}

static void rbtr_graph_indent(struct seq_buf *s, int depth)
{
	seq_buf_printf(s, "%*s", max(depth, 0) * RBTR_GRAPH_INDENT, "");
}

static bool rbtr_graph_depth_ok(int depth)
{
	return depth >= 0 && depth < RBTR_GRAPH_MAX_DEPTH;
}

/* ftrace's print_graph_entry_leaf() and print_graph_entry_nested() */
static void rbtr_graph_print_entry(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				   const struct rbtr_graph_ent_entry *e,
				   const struct rbtr_graph_ret_entry *leaf, int cpu)
{
	rbtr_graph_prologue(c, s, &e->ent, cpu);
	if (leaf) {
		/* Comments after a leaf are at its own depth. */
		c->depth = e->depth - 1;
		if (rbtr_graph_depth_ok(e->depth))
			c->enter_funcs[e->depth] = 0;
		rbtr_graph_duration(s, leaf->rettime - leaf->calltime);
		rbtr_graph_indent(s, e->depth);
		seq_buf_printf(s, "%ps();\n", (void *)e->func);
		return;
	}
	c->depth = e->depth;
	if (rbtr_graph_depth_ok(e->depth))
		c->enter_funcs[e->depth] = e->func;
	rbtr_graph_no_duration(s);
	rbtr_graph_indent(s, e->depth);
	seq_buf_printf(s, "%ps() {\n", (void *)e->func);
}

/* ftrace's print_graph_return() */
static void rbtr_graph_print_return(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				    const struct rbtr_graph_ret_entry *r, int cpu)
{
	bool match = true;

	/* Comments after a return are at the closing brace's depth. */
	c->depth = r->depth - 1;
	if (rbtr_graph_depth_ok(r->depth)) {
		match = c->enter_funcs[r->depth] == r->func;
		c->enter_funcs[r->depth] = 0;
	}
	rbtr_graph_prologue(c, s, &r->ent, cpu);
	rbtr_graph_duration(s, r->rettime - r->calltime);
	rbtr_graph_indent(s, r->depth);
	if (match)
		seq_buf_printf(s, "}\n");
	else
		seq_buf_printf(s, "} /* %ps */\n", (void *)r->func);
}

/* ftrace's print_graph_comment(): "/-* text *-/", one deeper. */
static void rbtr_graph_print_comment(struct rbtr_graph_cpu_text *c, struct seq_buf *s,
				     const struct rbtr_entry *ent, unsigned int len,
				     int cpu)
{
	rbtr_graph_prologue(c, s, ent, cpu);
	rbtr_graph_no_duration(s);
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
 * @gt: the reader's state
 * @s: where to print, whole lines
 * @rec: the record
 * @len: its size
 * @leaf: with a function entry, its return if it came right after it on
 *        its CPU (rbtr_graph_is_leaf()), the reader having skipped it;
 *        else NULL
 * @cpu: its CPU
 *
 * Return: false if function_graph is not current or @rec gets the
 * ordinary line (a function entry, a stack trace): nothing printed.
 */
bool rbtr_graph_print(struct rbtr_graph_text *gt, struct seq_buf *s, const void *rec,
		      unsigned int len, const void *leaf, int cpu)
{
	const struct rbtr_entry *ent = rec;
	struct rbtr_graph_cpu_text *c;

	if (rbtr_current_tracer() != RBTR_TRACER_GRAPH || !gt || len < sizeof(*ent) ||
	    cpu < 0 || cpu >= gt->nr_cpus)
		return false;
	c = &gt->cpu[cpu];
	switch (ent->type) {
	case RBTR_TRACE_GRAPH_ENT_ID:
		if (len < sizeof(struct rbtr_graph_ent_entry))
			return false;
		rbtr_graph_print_entry(c, s, rec, leaf, cpu);
		return true;
	case RBTR_TRACE_GRAPH_RET_ID:
		if (len < sizeof(struct rbtr_graph_ret_entry))
			return false;
		rbtr_graph_print_return(c, s, rec, cpu);
		return true;
	case RBTR_TRACE_FN_ID:
	case RBTR_GRAPH_STACK_ID:
		return false;
	default:
		rbtr_graph_print_comment(c, s, ent, len, cpu);
		return true;
	}
}

/**
 * rbtr_graph_print_header - the trace file's header under function_graph
 * @m: the trace file
 *
 * Return: true if function_graph is current (the header was printed).
 */
bool rbtr_graph_print_header(struct seq_file *m)
{
	if (rbtr_current_tracer() != RBTR_TRACER_GRAPH)
		return false;
	seq_puts(m, "# tracer: function_graph\n#\n");
	seq_puts(m, "# CPU  DURATION                  FUNCTION CALLS\n");
	seq_puts(m, "# |     |   |                     |   |   |   |\n");
	return true;
}
