// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's function graph tracer: the entry and the exit of the functions
 * of set_graph_function (else of the tracer's set_ftrace_filter; never
 * those of its set_ftrace_notrace), through the exported fprobe
 * interface: an entry handler and an exit handler sharing per-call
 * entry_data. Every tracer (the top and each instance) runs its own
 * (struct rbtr_graph_run: its fprobes, its overrun table), recording
 * into its own buffer, as ftrace's function_graph in an instance (6.9
 * on); set_graph_function, set_graph_notrace, max_graph_depth,
 * tracing_thresh and the funcgraph-* options are one set for all, as
 * ftrace's top-level files and tracer flags. Debian's 6.1 has no fprobe
 * (CONFIG_FPROBE unset): there function_graph is refused (function.c).
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
 * max_graph_depth: a call nested in that many traced calls (the depth
 * above) is not traced, as ftrace's: max_graph_depth 1 shows the
 * outermost calls alone.
 *
 * set_graph_notrace: its functions are not traced, nor the traced calls
 * made while one of them runs, as ftrace's. A second fprobe of the run
 * (nt_fp) sits on them with an exit hook and nothing
 * else: while one of its return hooks is on the task's rethook list, the
 * task is inside a notrace function, which the walk that counts the
 * depth sees (rbtr_graph_depth()). The functions themselves are left out
 * of the traced ones, or, when every function is traced, skipped by
 * their address (the run's nt_ips, sorted, kept from start to stop).
 *
 * Overrun: a call nested in RBTR_GRAPH_DEPTH_LIMIT traced calls of its
 * task is not traced, as ftrace's when the task's return stack is full,
 * and counted for the task: every exit record of the task carries the
 * count so far (ftrace's task->trace_overrun, zeroed when tracing starts).
 * The counts are in a small table by pid, looked at only once a task has
 * overrun.
 *
 * Text (trace, trace_pipe): function_graph_text.c.
 */
#include <linux/debugfs.h>
#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rethook.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "function_graph.h"
#include "pid.h"
#include "trace.h"

/*
 * Traced calls a call may be nested in (ftrace's return stack holds about
 * as many with one tracer): deeper ones are the task's overrun.
 */
#define RBTR_GRAPH_DEPTH_LIMIT	128
/* Tasks whose overrun is kept; more are counted in "graph overrun lost". */
#define RBTR_GRAPH_OVR_SLOTS	256
#define RBTR_GRAPH_OVR_PROBES	16

/* Return hooks in flight at once, over all tasks (fprobe's nr_maxactive). */
#define RBTR_GRAPH_MAX_ACTIVE	4096
/* Every function: every sleeping task holds its call chain's hooks. */
#define RBTR_GRAPH_MAX_ACTIVE_ALL	32768

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

/* Records of the previous boot (persist_meta.c): the function's address. */
static void rbtr_graph_fix_ent(void *rec, unsigned int len, rbtr_fix_ip_fn fix)
{
	struct rbtr_graph_ent_entry *e = rec;

	if (len >= sizeof(*e))
		e->func = fix(e->func);
}

static void rbtr_graph_fix_ret(void *rec, unsigned int len, rbtr_fix_ip_fn fix)
{
	struct rbtr_graph_ret_entry *e = rec;

	if (len >= sizeof(*e))
		e->func = fix(e->func);
}

static struct rbtr_event_type rbtr_graph_ent_type = {
	.system		= "ftrace",
	.name		= "funcgraph_entry",
	.id		= RBTR_TRACE_GRAPH_ENT_ID,
	.fields		= rbtr_graph_ent_fields,
	.nr_fields	= ARRAY_SIZE(rbtr_graph_ent_fields),
	.print_fmt	= "\"--> %ps (%d)\", (void *)REC->func, REC->depth",
	.print		= rbtr_graph_print_ent,
	.fix_addrs	= rbtr_graph_fix_ent,
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
	.fix_addrs	= rbtr_graph_fix_ret,
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
 * max_graph_depth (ftrace's fgraph_max_depth): a call nested in that many
 * traced calls of its task is not traced, silently (not an overrun); 0,
 * the default, sets no limit but RBTR_GRAPH_DEPTH_LIMIT's. Read once per
 * entry: a write takes effect at the next call.
 */
static unsigned int rbtr_graph_max_depth;

#if IS_ENABLED(CONFIG_FPROBE) && IS_ENABLED(CONFIG_RETHOOK)

/* What the entry handler leaves the exit handler. */
struct rbtr_graph_call {
	u64	calltime;
	int	depth;
	bool	entry_written;
};

static DEFINE_PER_CPU(unsigned long, rbtr_graph_short);	/* exits under tracing_thresh */

/*
 * A task's overrun, ftrace's task->trace_overrun: slot pid + 1 (0 is
 * free). Slots are claimed with cmpxchg() and never given back while the
 * tracer runs; a run starts with them cleared, no handler running.
 */
struct rbtr_graph_ovr {
	int		key;
	atomic_t	count;
};

/**
 * struct rbtr_graph_run - one tracer's function_graph while it runs
 * @fp: the graph's fprobe; its handlers find the run with container_of()
 * @nt_fp: set_graph_notrace's fprobe: only return hooks, marking the task
 * @tr: the tracer it records into
 * @nt_on: @nt_fp is registered (rbtr_graph_depth() looks for its hooks)
 * @none: every selected function taken out: no fprobe, nothing recorded
 * @by_gf: the functions are set_graph_function's (not the filter's, not
 *         all): funcgraph-irqs off does not skip them
 * @nt_ips: set_graph_notrace's addresses, sorted (every function probed)
 * @nt_nr: their number
 * @ovr: the tasks' overruns
 * @ovr_any: a slot was claimed: exits look
 * @ovr_lost: overruns of tasks with no slot
 *
 * Made by rbtr_graph_start(), freed by rbtr_graph_stop() after both
 * fprobes are gone and a grace period has passed: a return hook in
 * flight calls no handler after unregister_fprobe() (rethook_free()
 * clears it under RCU).
 */
struct rbtr_graph_run {
	struct fprobe		fp;
	struct fprobe		nt_fp;
	struct rbtr_trace	*tr;
	bool			nt_on;
	bool			none;
	bool			by_gf;
	unsigned long		*nt_ips;
	unsigned int		nt_nr;
	struct rbtr_graph_ovr	ovr[RBTR_GRAPH_OVR_SLOTS];
	atomic_t		ovr_any;
	atomic_long_t		ovr_lost;
};

/* The top's run, for function_stats; under function.c's mutex. */
static struct rbtr_graph_run *rbtr_graph_top_run;
static atomic_long_t rbtr_graph_ovr_lost_done;	/* of runs ended */

static int rbtr_graph_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			    struct pt_regs *regs, void *data);
static void rbtr_graph_exit_handler(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
				    struct pt_regs *regs, void *data);

static int rbtr_graph_nt_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			       struct pt_regs *regs, void *data)
{
	return 0;	/* only the return hook: the mark on the task's list */
}

static void rbtr_graph_nt_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			       struct pt_regs *regs, void *data)
{
}

#ifdef RBTRACE_TEST_HOOKS
static unsigned int graph_depth_limit;
module_param(graph_depth_limit, uint, 0600);
MODULE_PARM_DESC(graph_depth_limit,
		 "test builds: function_graph's depth limit (0: the normal one)");

static int rbtr_graph_depth_limit(void)
{
	unsigned int limit = READ_ONCE(graph_depth_limit);

	return limit && limit < RBTR_GRAPH_DEPTH_LIMIT ? limit : RBTR_GRAPH_DEPTH_LIMIT;
}
#else
static int rbtr_graph_depth_limit(void)
{
	return RBTR_GRAPH_DEPTH_LIMIT;
}
#endif

/* The task's slot in @g, claimed if @claim; NULL if none (table full). */
static struct rbtr_graph_ovr *rbtr_graph_ovr_slot(struct rbtr_graph_run *g, int pid,
						  bool claim)
{
	unsigned int h = hash_32(pid, ilog2(RBTR_GRAPH_OVR_SLOTS)), i;
	struct rbtr_graph_ovr *o;
	int key;

	/* Bounded: a few probes, then the count is lost (counted as such). */
	for (i = 0; i < RBTR_GRAPH_OVR_PROBES; i++) {
		o = &g->ovr[(h + i) % RBTR_GRAPH_OVR_SLOTS];
		key = READ_ONCE(o->key);
		if (key == pid + 1)
			return o;
		if (key)
			continue;
		if (!claim)
			return NULL;
		/* Lost to another task: look at the slot again for ours. */
		key = cmpxchg(&o->key, 0, pid + 1);
		if (!key || key == pid + 1)
			return o;
	}
	return NULL;
}

/* A call of the current task not traced: the depth limit. */
static void rbtr_graph_overrun(struct rbtr_graph_run *g)
{
	struct rbtr_graph_ovr *o = rbtr_graph_ovr_slot(g, current->pid, true);

	if (!o) {
		atomic_long_inc(&g->ovr_lost);
		return;
	}
	atomic_inc(&o->count);
	/* Pairs with the exits' atomic_read_acquire(): none of them looks before. */
	atomic_set_release(&g->ovr_any, 1);
}

/* The current task's overrun so far: 0 until some task overran. */
static unsigned int rbtr_graph_task_overrun(struct rbtr_graph_run *g)
{
	struct rbtr_graph_ovr *o;

	if (!atomic_read_acquire(&g->ovr_any))
		return 0;
	o = rbtr_graph_ovr_slot(g, current->pid, false);
	return o ? atomic_read(&o->count) : 0;
}

/*
 * Our return hooks below this call on the task: its graph depth, at most
 * @limit (the call is then too deep to trace); -1 if a hook of
 * set_graph_notrace's is among them (the call is inside one of its
 * functions: not traced). The walk stops at @limit: a notrace function
 * further down is not seen, and the call is an overrun, as deep.
 */
static int rbtr_graph_depth(struct rbtr_graph_run *g, int limit)
{
	struct rethook *nt = g->nt_on ? g->nt_fp.rethook : NULL;
	struct llist_node *n = current->rethooks.first;
	struct rethook *own = g->fp.rethook;
	struct rethook_node *rh;
	int depth = 0;

	/*
	 * Interrupts on this CPU push and pop above the node we read first;
	 * the nodes below it are the task's and stay until it returns.
	 */
	while (n && depth < limit) {
		rh = container_of(n, struct rethook_node, llist);
		if (rh->rethook == own)
			depth++;
		else if (nt && rh->rethook == nt)
			return -1;
		n = READ_ONCE(n->next);
	}
	return depth;
}

/* Is @ip one of set_graph_notrace's? Only when every function is probed. */
static bool rbtr_graph_nt_ip(const struct rbtr_graph_run *g, unsigned long ip)
{
	unsigned int lo = 0, hi = g->nt_nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->nt_ips[mid] == ip)
			return true;
		if (g->nt_ips[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * Entry, under fprobe's ftrace_test_recursion_trylock(). Returning
 * non-zero drops the exit: the task is not one of set_ftrace_pid's, or
 * the call is nested too deep (the task's overrun).
 */
static int rbtr_graph_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			    struct pt_regs *regs, void *data)
{
	struct rbtr_graph_run *g = container_of(fp, struct rbtr_graph_run, fp);
	struct rbtr_trace *tr = g->tr;
	struct rbt_buffer *buffer = rbtr_live_buffer(tr);
	struct rbtr_graph_call *c = data;
	struct rbtr_graph_ent_entry *e;
	int limit = rbtr_graph_depth_limit();
	unsigned int max;

	/*
	 * funcgraph-irqs off: nothing in hard interrupt context, unless the
	 * function is set_graph_function's, as ftrace's (its TRACE_IRQ_BIT:
	 * a set_graph_function called by an interrupt is traced).
	 */
	if (rbtr_fn_pid_ignored(tr) || rbtr_graph_nt_ip(g, ip) ||
	    (in_hardirq() && !g->by_gf && rbtr_graph_skip_irqs()))
		return 1;
	max = READ_ONCE(rbtr_graph_max_depth);
	c->depth = rbtr_graph_depth(g, max && max < limit ? max : limit);
	if (c->depth < 0 || (max && c->depth >= max))
		return 1;
	if (c->depth >= limit) {
		rbtr_graph_overrun(g);
		return 1;
	}
	c->entry_written = false;
	if (!rbtr_dur_thresh_ns()) {
		e = rbtr_event_reserve_type(tr, buffer, &rbtr_graph_ent_type,
					    sizeof(*e), rbtr_trace_ctx());
		if (e) {
			e->func = ip;
			e->depth = c->depth;
			rbtr_event_commit_type(buffer, e);
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
	struct rbtr_graph_run *g = container_of(fp, struct rbtr_graph_run, fp);
	struct rbt_buffer *buffer = rbtr_live_buffer(g->tr);
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
	e = rbtr_event_reserve_type(g->tr, buffer, &rbtr_graph_ret_type, sizeof(*e),
				    rbtr_trace_ctx());
	if (!e)
		return;
	e->func = ip;
#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	e->retval = regs_return_value(regs);
#endif
	e->depth = c->depth;
	e->overrun = rbtr_graph_task_overrun(g);
	e->calltime = c->calltime;
	e->rettime = rettime;
	rbtr_event_commit_type(buffer, e);
}

/* @sel (@n, sorted) less @no's entries (@nn, sorted): one merge pass. Return: those left. */
static unsigned int rbtr_graph_ips_less(unsigned long *sel, unsigned int n,
					const unsigned long *no, unsigned int nn)
{
	unsigned int i, j, k;

	for (i = j = k = 0; i < n; i++) {
		while (j < nn && no[j] < sel[i])
			j++;
		if (j < nn && no[j] == sel[i])
			continue;
		sel[k++] = sel[i];
	}
	return k;
}

/*
 * The functions to probe: set_graph_function's (the top's: ftrace's is
 * one for every tracer), else the tracer's filter; less its
 * set_ftrace_notrace's and set_graph_notrace's (@g's nt_ips, kept).
 * @nr 0: every function, unless @none (a selection all taken out).
 */
static int rbtr_graph_ips(struct rbtr_graph_run *g, unsigned long **ips, unsigned int *nr,
			  bool *none)
{
	struct rbtr_fn_tracer *top = rbtr_global_trace.fn, *ft = g->tr->fn;
	unsigned long *sel, *no;
	unsigned int n, nn, asked;
	int ret;

	ret = rbtr_fn_sel_ips(top, RBTR_FN_GRAPH, &sel, &n);
	g->by_gf = !ret && n;
	if (!ret && !n)
		ret = rbtr_fn_sel_ips(ft, RBTR_FN_FILTER, &sel, &n);
	if (ret)
		return ret;
	ret = rbtr_fn_sel_ips(ft, RBTR_FN_NOTRACE, &no, &nn);
	if (ret) {
		kvfree(sel);
		return ret;
	}
	asked = n;
	n = rbtr_graph_ips_less(sel, n, no, nn);
	kvfree(no);
	*ips = sel;
	*nr = n ? rbtr_graph_ips_less(sel, n, g->nt_ips, g->nt_nr) : 0;
	/*
	 * All of the selection in set_ftrace_notrace or set_graph_notrace:
	 * nothing to trace, not every function.
	 */
	*none = asked && !*nr;
	return 0;
}

/* set_graph_notrace's fprobe, when it has functions; its addresses kept. */
static int rbtr_graph_nt_start(struct rbtr_graph_run *g)
{
	int ret;

	ret = rbtr_fn_sel_ips(rbtr_global_trace.fn, RBTR_FN_GRAPH_NOTRACE, &g->nt_ips,
			      &g->nt_nr);
	if (ret || !g->nt_nr)
		return ret;
	g->nt_fp.entry_handler = rbtr_graph_nt_entry;
	g->nt_fp.exit_handler = rbtr_graph_nt_exit;
	g->nt_fp.nr_maxactive = RBTR_GRAPH_MAX_ACTIVE;
	ret = register_fprobe_ips(&g->nt_fp, g->nt_ips, g->nt_nr);
	if (ret)
		return ret;
	/*
	 * Read by rbtr_graph_depth() without a barrier of its own: set
	 * before the graph's own fprobe is registered, whose text patching
	 * orders it (and the rethook register_fprobe_ips() set above)
	 * before any entry handler of @g runs; never cleared while that
	 * fprobe is registered (rbtr_graph_stop()).
	 */
	g->nt_on = true;
	return 0;
}

/* After the graph's fprobe is gone: no entry handler reads @g any more. */
static void rbtr_graph_nt_stop(struct rbtr_graph_run *g)
{
	if (g->nt_on)
		unregister_fprobe(&g->nt_fp);
	g->nt_on = false;
}

static void rbtr_graph_run_free(struct rbtr_graph_run *g)
{
	kvfree(g->nt_ips);
	kfree(g);
}

/* Register @g's fprobe on @ips (@n), or on every function (@n 0). */
static int rbtr_graph_register(struct rbtr_graph_run *g, unsigned long *ips, unsigned int n)
{
	g->fp.entry_handler = rbtr_graph_entry;
	g->fp.exit_handler = rbtr_graph_exit_handler;
	g->fp.entry_data_size = sizeof(struct rbtr_graph_call);
	if (!n) {
		/*
		 * Nothing selected: every traceable function, as ftrace's
		 * function_graph (seed 003's three lines). The return hooks in
		 * flight are bounded by the pool; a call that finds it empty
		 * is counted in "graph missed" and not recorded.
		 */
		g->fp.nr_maxactive = RBTR_GRAPH_MAX_ACTIVE_ALL;
		return register_fprobe(&g->fp, "*", NULL);
	}
	/*
	 * Not two per function and CPU: fprobe takes a hook at every entry
	 * before set_ftrace_pid is looked at, and each task asleep in a
	 * traced call keeps its own: 20 readers blocked in ksys_read >
	 * vfs_read empty a pool of 8 (function/graph).
	 */
	g->fp.nr_maxactive = clamp_t(unsigned int, n * num_possible_cpus() * 2,
				     RBTR_GRAPH_MAX_ACTIVE, RBTR_GRAPH_MAX_ACTIVE_ALL);
	return register_fprobe_ips(&g->fp, ips, n);
}

/**
 * rbtr_graph_start - probe the selected functions for a tracer
 * @ft: the tracer's function state: its run is kept there
 *
 * Called under function.c's mutex, with no tracer of @ft running.
 *
 * With nothing selected (set_graph_function and the tracer's
 * set_ftrace_filter empty) every traceable function is probed, as
 * ftrace does.
 *
 * Return: 0, -ENOMEM, or fprobe's error.
 */
int rbtr_graph_start(struct rbtr_fn_tracer *ft)
{
	struct rbtr_graph_run *g;
	unsigned long *ips = NULL;
	unsigned int n;
	bool none;
	int ret;

	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	g->tr = ft->tr;
	ret = rbtr_graph_nt_start(g);
	if (!ret)
		ret = rbtr_graph_ips(g, &ips, &n, &none);
	/* Nothing left to trace is a tracer that records nothing, as ftrace's. */
	if (!ret && none)
		g->none = true;
	else if (!ret)
		ret = rbtr_graph_register(g, ips, n);
	kvfree(ips);
	if (ret) {
		rbtr_graph_nt_stop(g);
		rbtr_graph_run_free(g);
		return ret;
	}
	ft->graph = g;
	if (ft->tr == &rbtr_global_trace)
		rbtr_graph_top_run = g;
	return 0;
}

/**
 * rbtr_graph_stop - remove a tracer's probes; waits for the handlers in flight
 * @ft: the tracer's function state, its graph running
 */
void rbtr_graph_stop(struct rbtr_fn_tracer *ft)
{
	struct rbtr_graph_run *g = ft->graph;

	if (!g)
		return;
	if (!g->none)
		unregister_fprobe(&g->fp);
	rbtr_graph_nt_stop(g);
	ft->graph = NULL;
	if (rbtr_graph_top_run == g)
		rbtr_graph_top_run = NULL;
	atomic_long_add(atomic_long_read(&g->ovr_lost), &rbtr_graph_ovr_lost_done);
	/*
	 * unregister_fprobe() waited for the entry handlers; an exit whose
	 * return hook fires now finds its rethook's handler cleared under
	 * RCU (rethook_free()): after a grace period none reads @g.
	 */
	synchronize_rcu();
	rbtr_graph_run_free(g);
}

/**
 * rbtr_graph_show_stats - the graph tracer's counts, for function_stats
 * @m: the file
 *
 * Under function.c's mutex: the top's run does not go meanwhile.
 */
void rbtr_graph_show_stats(struct seq_file *m)
{
	struct rbtr_graph_run *g = rbtr_graph_top_run;
	unsigned long sum = 0;
	long lost;
	int cpu;

	seq_printf(m, "graph missed: %lu\n", g && !g->none ? READ_ONCE(g->fp.nmissed) : 0UL);
	for_each_possible_cpu(cpu)
		sum += per_cpu(rbtr_graph_short, cpu);
	seq_printf(m, "graph under tracing_thresh: %lu\n", sum);
	lost = atomic_long_read(&rbtr_graph_ovr_lost_done);
	if (g)
		lost += atomic_long_read(&g->ovr_lost);
	seq_printf(m, "graph overrun lost: %ld\n", lost);
}

#else /* !CONFIG_FPROBE */

int rbtr_graph_start(struct rbtr_fn_tracer *ft)
{
	return -EOPNOTSUPP;
}

void rbtr_graph_stop(struct rbtr_fn_tracer *ft)
{
}

void rbtr_graph_show_stats(struct seq_file *m)
{
}

#endif /* CONFIG_FPROBE */

static ssize_t rbtr_graph_max_depth_read(struct file *filp, char __user *ubuf,
					 size_t cnt, loff_t *ppos)
{
	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(rbtr_graph_max_depth));
}

/* As ftrace's: any number (a depth no call reaches is no limit). */
static ssize_t rbtr_graph_max_depth_write(struct file *filp, const char __user *ubuf,
					  size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = rbtr_write_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	if (val > UINT_MAX)
		return -EINVAL;
	WRITE_ONCE(rbtr_graph_max_depth, val);
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_graph_max_depth_fops = {
	.owner	= THIS_MODULE,
	.open	= rbtr_open_generic,
	.read	= rbtr_graph_max_depth_read,
	.write	= rbtr_graph_max_depth_write,
	.llseek	= default_llseek,
};

/**
 * rbtr_graph_files - the graph tracer's files: max_graph_depth
 * @top: the top directory
 */
void rbtr_graph_files(struct dentry *top)
{
	/* ftrace has it with the graph tracer only, as rbtrace (fprobe). */
	if (rbtr_graph_supported())
		debugfs_create_file("max_graph_depth", 0600, top, NULL,
				    &rbtr_graph_max_depth_fops);
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

	ret = rbtr_event_register(&rbtr_graph_ent_type);
	if (ret)
		return ret;
	ret = rbtr_event_register(&rbtr_graph_ret_type);
	if (ret)
		goto fail_ent;
	return 0;

fail_ent:
	rbtr_event_unregister(&rbtr_graph_ent_type);
	return ret;
}

/**
 * rbtr_graph_exit - undo rbtr_graph_init(); the tracer is stopped
 */
void rbtr_graph_exit(void)
{
	rbtr_event_unregister(&rbtr_graph_ret_type);
	rbtr_event_unregister(&rbtr_graph_ent_type);
}
