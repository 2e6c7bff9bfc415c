/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace's function tracers: current_tracer, the function tracer
 * (function.c, through ftrace_ops) and the function graph tracer
 * (function_graph.c, through fprobe), with ftrace's records and files.
 */
#ifndef _RBTR_FUNCTION_H
#define _RBTR_FUNCTION_H

#include <linux/ftrace.h>
#include <linux/list.h>
#include <linux/types.h>

struct dentry;
struct seq_buf;
struct seq_file;
struct rbtr_trace;

/* ftrace's enum trace_type: the ids tools know these records by. */
#define RBTR_TRACE_FN_ID	1	/* TRACE_FN: ftrace:function */
#define RBTR_TRACE_GRAPH_RET_ID	10	/* TRACE_GRAPH_RET: ftrace:funcgraph_exit */
#define RBTR_TRACE_GRAPH_ENT_ID	11	/* TRACE_GRAPH_ENT: ftrace:funcgraph_entry */

/* Tracers of current_tracer. */
enum rbtr_tracer {
	RBTR_TRACER_NOP,
	RBTR_TRACER_FUNCTION,
	RBTR_TRACER_GRAPH,
};

/* function_filter.c: the filter files, and what they select */
enum rbtr_fn_kind {
	RBTR_FN_FILTER,		/* set_ftrace_filter */
	RBTR_FN_NOTRACE,	/* set_ftrace_notrace */
	RBTR_FN_GRAPH,		/* set_graph_function */
	RBTR_FN_STACK,		/* stack_trace_filter */
	RBTR_FN_GRAPH_NOTRACE,	/* set_graph_notrace */
	RBTR_FN_NR_KINDS,
};

/**
 * struct rbtr_fsel_ent - one function of the kernel's list
 * @idx: its line, from 0: the list's order
 * @ip: its address, 0 where the kernel does not say (before 6.5)
 * @name: as the line says it: "name" or "name [mod]"
 */
struct rbtr_fsel_ent {
	unsigned int	idx;
	unsigned long	ip;
	char		*name;
};

/**
 * struct rbtr_fsel - functions of the kernel's list, in increasing idx
 * @ent: the functions
 * @nr: their number
 * @cap: room in @ent
 */
struct rbtr_fsel {
	struct rbtr_fsel_ent	*ent;
	unsigned int		nr;
	unsigned int		cap;
};

int rbtr_fn_match(char *glob, struct rbtr_fsel *found);
int rbtr_fn_match_ips(char *glob, unsigned int lookup_max, unsigned long **ips,
		      unsigned int *nr);
void rbtr_fsel_free(struct rbtr_fsel *s);

struct rbtr_fn_tracer;

/* What a filter file of a tracer keeps in i_private: @kind of @ft. */
struct rbtr_fn_file_id {
	struct rbtr_fn_tracer	*ft;
	enum rbtr_fn_kind	kind;
};

/**
 * struct rbtr_fn_tracer - one tracer's function tracer (the top's and each
 * instance's), as ftrace keeps it per trace_array
 * @ops: the function tracer's ftrace_ops, registered while current_tracer
 *       is "function"; its filter and notrace hashes are set_ftrace_filter's
 *       and set_ftrace_notrace's. Its callback finds @tr from it.
 * @tr: the tracer it writes into
 * @cur: what current_tracer names; changed under function.c's mutex,
 *       read with READ_ONCE() by the text output
 * @func_stack: options/func_stack_trace, READ_ONCE() by the callback
 * @sel: the selections of the filter files (function_filter.c), under
 *       its mutex; the stack tracer's and the graph's are the top's only
 * @files: what each filter file keeps in i_private
 * @graph: its function_graph while it runs (function_graph.c)
 * @cmd_nr: its function commands (function_cmd.c), under
 *          rbtr_events_lock(), read with READ_ONCE() by the read back
 * @cmd_snap_held: its snapshot commands hold its spare, once; under
 *                 rbtr_events_lock()
 * @list: on function.c's list of every tracer's, for the unload
 */
struct rbtr_fn_tracer {
	struct ftrace_ops	ops;
	struct rbtr_trace	*tr;
	enum rbtr_tracer	cur;
	bool			func_stack;
	struct rbtr_fsel	sel[RBTR_FN_NR_KINDS];
	struct rbtr_fn_file_id	files[RBTR_FN_NR_KINDS];
	struct rbtr_graph_run	*graph;
	unsigned int		cmd_nr;
	bool			cmd_snap_held;
	struct list_head	list;
};

struct rbtr_graph_run;

/* function.c */
int rbtr_function_init(struct rbtr_trace *tr);
void rbtr_function_exit(void);
void rbtr_function_files(struct rbtr_trace *tr);
int rbtr_fn_tr_init(struct rbtr_trace *tr);
void rbtr_fn_tr_exit(struct rbtr_trace *tr);
enum rbtr_tracer rbtr_current_tracer(const struct rbtr_trace *tr);
const char *rbtr_current_tracer_name(const struct rbtr_trace *tr);
void rbtr_fn_print_sym(struct seq_buf *s, unsigned long ip);

/* function_filter.c */
void rbtr_fn_filter_files(struct rbtr_trace *tr);
void rbtr_fn_filter_free(struct rbtr_fn_tracer *ft);
int rbtr_fn_sel_ips(struct rbtr_fn_tracer *ft, enum rbtr_fn_kind kind,
		    unsigned long **ips, unsigned int *nr);

/* function_cmd.c: the commands of set_ftrace_filter ("FUNC:traceoff", ...) */
struct rbtr_event_file;
void rbtr_fn_cmd_exit(void);
void rbtr_fn_cmd_tr_gone(struct rbtr_trace *tr);
int rbtr_fn_cmd_write(struct rbtr_trace *tr, char *word);
bool rbtr_fn_cmd_known(const char *word);
unsigned int rbtr_fn_cmd_count(const struct rbtr_trace *tr);
bool rbtr_fn_cmd_show(struct seq_file *m, const struct rbtr_trace *tr, loff_t pos);
void rbtr_fn_cmd_file_gone(struct rbtr_event_file *file);

/**
 * rbtr_graph_supported - can function_graph run on this kernel?
 *
 * Return: true with fprobe (and the rethook it runs its exits on), the
 * condition function_graph.c is built with.
 */
static inline bool rbtr_graph_supported(void)
{
	return IS_ENABLED(CONFIG_FPROBE) && IS_ENABLED(CONFIG_RETHOOK);
}

/* function_graph.c: without fprobe (6.1) rbtr_graph_start() refuses. */
int rbtr_graph_init(struct rbtr_trace *tr);
void rbtr_graph_exit(void);
int rbtr_graph_start(struct rbtr_fn_tracer *ft);
void rbtr_graph_stop(struct rbtr_fn_tracer *ft);
void rbtr_graph_files(struct dentry *top);
void rbtr_graph_show_stats(struct seq_file *m);

/* function_graph_text.c: a reader's state, the leaf look-ahead, the text. */
struct rbtr_graph_text;
/* Room for a return record kept by a reader for a leaf line. */
#define RBTR_GRAPH_LEAF_MAX	64
struct rbtr_graph_text *rbtr_graph_text_alloc(void);
void rbtr_graph_text_free(struct rbtr_graph_text *gt);
void rbtr_graph_text_reset(struct rbtr_graph_text *gt);
bool rbtr_graph_leaf_wanted(const struct rbtr_trace *tr, const void *rec, unsigned int len);
bool rbtr_graph_is_leaf(const void *rec, unsigned int len, const void *next,
			unsigned int next_len);
bool rbtr_graph_print(const struct rbtr_trace *tr, struct rbtr_graph_text *gt,
		      struct seq_buf *s, const void *rec,
		      unsigned int len, const void *leaf, int cpu, u64 ts);
bool rbtr_graph_print_header(struct seq_file *m, const struct rbtr_trace *tr);
void rbtr_graph_option_files(struct rbtr_trace *tr);
void rbtr_graph_options_show(struct seq_file *m, const struct rbtr_trace *tr);
int rbtr_graph_option_set(const struct rbtr_trace *tr, const char *name, bool on);
bool rbtr_graph_skip_irqs(void);

/* stack_tracer.c: the stack tracer (stack_trace, stack_max_size, ...) */
extern struct ftrace_ops rbtr_stack_ops;
void rbtr_stack_tracer_files(struct dentry *top);
void rbtr_stack_tracer_exit(void);

/* duration.c: tracing_thresh in the buffer clock's units (0: off). */
u64 rbtr_dur_thresh_ns(void);

#endif /* _RBTR_FUNCTION_H */
