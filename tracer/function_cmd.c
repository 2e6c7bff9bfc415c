// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's function commands: ftrace's "function probes", written to
 * set_ftrace_filter as "FUNC:COMMAND[:PARAM]" and run each time a
 * selected function is entered, whatever current_tracer is
 * (kernel/trace/trace_functions.c, trace.c, trace_events.c):
 *
 *   FUNC:traceon[:N]    FUNC:traceoff[:N]    FUNC:snapshot[:N]
 *   FUNC:stacktrace[:N] FUNC:enable_event:SYS:EV[:N]
 *   FUNC:disable_event:SYS:EV[:N]            FUNC:dump    FUNC:cpudump
 *
 * "!FUNC:COMMAND[:...]" removes the command from the functions FUNC
 * matches. As ftrace's, a command with a count and the same command
 * without one are two probes (each removed by its own form); a function
 * already in a probe is not added again, and a write that adds no
 * function is -EINVAL; removing from a probe that does not exist is
 * -ENODEV, matching no function of it -EINVAL; enable_event and
 * disable_event of an event that does not exist are -EINVAL. The
 * commands are listed after the selection when set_ftrace_filter is
 * read, one line per function and probe, in ftrace's words
 * ("schedule:traceoff:count=2", "schedule:stacktrace:unlimited",
 * "schedule:enable_event:sched:sched_switch:unlimited").
 *
 * dump and cpudump: ftrace prints its whole buffer (or this CPU's) to
 * the console, consuming it. rbtrace prints no buffer to the console;
 * they are refused with -EINVAL and a line in the log.
 *
 * The commands act on the tracer whose set_ftrace_filter they were
 * written to (the top or an instance), as ftrace's probes on their
 * trace_array: its tracing_on, snapshot, buffer and events. Each tracer
 * lists and removes its own; rmdir removes the instance's.
 *
 * How a hit finds its commands: one ftrace_ops (rbtr_fcmd_ops) whose
 * filter is the union of the functions of every probe, and a table of
 * the entries sorted by address, searched by the ip the callback gets.
 * The addresses come from available_filter_functions_addrs; a kernel
 * without it (before 6.5: Debian's 6.1) has them looked up with a
 * kprobe registered disabled at the name (function_match.c's
 * rbtr_fn_match_ips()). Such a kernel takes at most
 * RBTR_FCMD_LOOKUP_MAX functions a write.
 *
 * Synchronisation: every change (a write, an event going away, unload)
 * is under rbtr_events_lock(), which also guards the holds on enable_event
 * targets (rbtr_event_soft_get()). The callback takes no lock: the table
 * is published with rcu_assign_pointer() and read with
 * rcu_dereference_sched() with preemption disabled; the ops say
 * FTRACE_OPS_FL_RCU, so ftrace calls it only where RCU is watching, and
 * an old table, or an entry taken out, is freed after synchronize_rcu().
 * Counts are atomic_long_t taken with a cmpxchg (rbtr_fcmd_take()).
 */
#include <linux/atomic.h>
#include <linux/bsearch.h>
#include <linux/ftrace.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/trace_recursion.h>
#include "event.h"
#include "function.h"
#include "snapshot.h"
#include "stack.h"
#include "trace.h"

#ifndef MCOUNT_INSN_SIZE
#define MCOUNT_INSN_SIZE	0
#endif

/* Functions one write may look up by name (no available_filter_functions_addrs). */
#define RBTR_FCMD_LOOKUP_MAX	512

enum rbtr_fcmd_kind {
	RBTR_FCMD_TRACEON,
	RBTR_FCMD_TRACEOFF,
	RBTR_FCMD_SNAPSHOT,
	RBTR_FCMD_STACKTRACE,
	RBTR_FCMD_ENABLE,
	RBTR_FCMD_DISABLE,
	RBTR_FCMD_DUMP,
	RBTR_FCMD_CPUDUMP,
	RBTR_FCMD_NR,
};

static const char *const rbtr_fcmd_names[RBTR_FCMD_NR] = {
	[RBTR_FCMD_TRACEON]	= "traceon",
	[RBTR_FCMD_TRACEOFF]	= "traceoff",
	[RBTR_FCMD_SNAPSHOT]	= "snapshot",
	[RBTR_FCMD_STACKTRACE]	= "stacktrace",
	[RBTR_FCMD_ENABLE]	= "enable_event",
	[RBTR_FCMD_DISABLE]	= "disable_event",
	[RBTR_FCMD_DUMP]	= "dump",
	[RBTR_FCMD_CPUDUMP]	= "cpudump",
};

/*
 * A probe, as ftrace's struct ftrace_probe_ops: a command, with or
 * without a count. RBTR_FCMD_PROBE(kind, counted) numbers them.
 */
#define RBTR_FCMD_PROBE(kind, counted)	((kind) * 2 + (counted))
#define RBTR_FCMD_NR_PROBES		(RBTR_FCMD_NR * 2)

/**
 * struct rbtr_fcmd_ent - one function of one probe
 * @ip: the function's address, as ftrace's callback gets it
 * @probe: RBTR_FCMD_PROBE() of its command
 * @count: firings left, for a probe with a count (ftrace's long: a ":"
 *         without a number leaves -1, which traceon/traceoff and
 *         snapshot never fire with, as ftrace's)
 * @tr: the tracer it acts on
 * @target: enable_event/disable_event's event in @tr, held in soft mode
 *          (rbtr_event_soft_get()) while this entry lives
 * @list: in rbtr_fcmd_list, newest probe first
 */
struct rbtr_fcmd_ent {
	unsigned long		ip;
	unsigned int		probe;
	atomic_long_t		count;
	struct rbtr_trace	*tr;
	struct rbtr_event_file	*target;
	struct list_head	list;
};

/* What the callback searches: the entries in increasing ip, then probe. */
struct rbtr_fcmd_table {
	unsigned int		nr;
	struct rbtr_fcmd_ent	*ent[];
};

static struct rbtr_fcmd_table __rcu *rbtr_fcmd_table;
/*
 * Every entry of every tracer; the read back's order. Under
 * rbtr_events_lock(), as each tracer's count of them (its
 * rbtr_fn_tracer's cmd_nr) and its snapshot commands' one hold on its
 * spare (cmd_snap_held, rbtr_snapshot_get()).
 */
static LIST_HEAD(rbtr_fcmd_list);
static unsigned int rbtr_fcmd_nr;
static bool rbtr_fcmd_registered;

static void rbtr_fcmd_call(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs);

static struct ftrace_ops rbtr_fcmd_ops = {
	.func	= rbtr_fcmd_call,
	.flags	= FTRACE_OPS_FL_RCU,
};

/* ---- the hit (any context) ------------------------------------------------ */

/*
 * Take one firing of @e: false when its count is used up, at 0 or below
 * (@below: at 0 only, a negative count going on down). The count only
 * goes down, so each failed cmpxchg means another context took one: the
 * loop ends after at most as many retries as contexts racing.
 */
static bool notrace rbtr_fcmd_take_from(struct rbtr_fcmd_ent *e, bool below)
{
	long c;

	if (!(e->probe & 1))
		return true;
	c = atomic_long_read(&e->count);
	do {
		if (!c || (c < 0 && !below))
			return false;
	} while (!atomic_long_try_cmpxchg(&e->count, &c, c - 1));
	return true;
}

static bool notrace rbtr_fcmd_take(struct rbtr_fcmd_ent *e)
{
	return rbtr_fcmd_take_from(e, false);
}

/*
 * Run one entry. traceon/traceoff count only a firing that changes the
 * state, enable_event/disable_event only one that switches their target
 * (ftrace's update_traceon_count(), event_enable_count_probe()). Two
 * contexts may both see the old state, one takes the count and switches,
 * the other finds the count gone or switches to the same state: the
 * count is never taken twice for one change by the same context, and a
 * second switch to the state already set changes nothing.
 */
static void notrace rbtr_fcmd_fire(struct rbtr_fcmd_ent *e, unsigned long ip)
{
	struct rbtr_trace *tr = e->tr;
	struct rbt_buffer *buffer = rbtr_live_buffer(tr);
	unsigned int ctx;
	bool off;

	switch (e->probe / 2) {
	case RBTR_FCMD_TRACEON:
		if (!rbt_record_is_on(buffer) && rbtr_fcmd_take(e))
			rbt_record_on(buffer);
		break;
	case RBTR_FCMD_TRACEOFF:
		if (rbt_record_is_on(buffer) && rbtr_fcmd_take(e))
			rbt_record_off(buffer);
		break;
	case RBTR_FCMD_SNAPSHOT:
		/* -EBUSY (another swap, a mapping): none, as a trigger's. */
		if (rbtr_fcmd_take(e))
			rbtr_snapshot_take(tr);
		break;
	case RBTR_FCMD_STACKTRACE:
		/*
		 * ftrace_stacktrace_count(): a counted one only while
		 * recording, and it stops at 0 only (":" without a number,
		 * -1, fires every time, counting down).
		 */
		if ((e->probe & 1) && !rbt_record_is_on(buffer))
			break;
		if (!rbtr_cpu_traced(tr, smp_processor_id()) || !rbtr_fcmd_take_from(e, true))
			break;
		/* The callback's own preemption level off, as ftrace's tracing_gen_ctx_dec(). */
		ctx = rbtr_trace_ctx();
		if (ctx & 0xf)
			ctx--;
		rbtr_stack_write_probe(buffer, ctx, ip + MCOUNT_INSN_SIZE);
		break;
	case RBTR_FCMD_ENABLE:
	case RBTR_FCMD_DISABLE:
		off = READ_ONCE(e->target->cond) & RBTR_EVC_SOFT_OFF;
		if ((e->probe / 2 == RBTR_FCMD_ENABLE) != off || !rbtr_fcmd_take(e))
			break;
		if (off)
			set_mask_bits(&e->target->cond, RBTR_EVC_SOFT_OFF, 0);
		else
			set_mask_bits(&e->target->cond, 0, RBTR_EVC_SOFT_OFF);
		break;
	default:
		break;
	}
}

/* The first entry of @t at @ip or after it. */
static unsigned int notrace rbtr_fcmd_first(const struct rbtr_fcmd_table *t, unsigned long ip)
{
	unsigned int lo = 0, hi = t->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->ent[mid]->ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The callback, through ftrace's assist function (FTRACE_OPS_FL_RCU):
 * recursion is refused there, and RCU is watching. Preemption is
 * disabled for the sched-RCU read of the table and the entries.
 */
static void notrace rbtr_fcmd_call(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	const struct rbtr_fcmd_table *t;
	unsigned int i;

	preempt_disable_notrace();
	t = rcu_dereference_sched(rbtr_fcmd_table);
	if (t)
		for (i = rbtr_fcmd_first(t, ip); i < t->nr && t->ent[i]->ip == ip; i++)
			rbtr_fcmd_fire(t->ent[i], ip);
	preempt_enable_notrace();
}

/* ---- changing the entries (under rbtr_events_lock()) ---------------------- */

static int rbtr_fcmd_ent_cmp(const void *a, const void *b)
{
	const struct rbtr_fcmd_ent *x = *(const struct rbtr_fcmd_ent * const *)a;
	const struct rbtr_fcmd_ent *y = *(const struct rbtr_fcmd_ent * const *)b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if (x->tr != y->tr)
		return x->tr < y->tr ? -1 : 1;
	return x->probe < y->probe ? -1 : x->probe > y->probe;
}

/* A table of every entry on rbtr_fcmd_list, sorted; NULL for none or -ENOMEM. */
static struct rbtr_fcmd_table *rbtr_fcmd_table_build(int *err)
{
	struct rbtr_fcmd_table *t;
	struct rbtr_fcmd_ent *e;
	unsigned int n = 0;

	*err = 0;
	if (!rbtr_fcmd_nr)
		return NULL;
	t = kvmalloc(struct_size(t, ent, rbtr_fcmd_nr), GFP_KERNEL);
	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	list_for_each_entry(e, &rbtr_fcmd_list, list)
		t->ent[n++] = e;
	t->nr = n;
	sort(t->ent, n, sizeof(t->ent[0]), rbtr_fcmd_ent_cmp, NULL);
	return t;
}

/* Is @ip in an entry of rbtr_fcmd_list? */
static bool rbtr_fcmd_ip_used(unsigned long ip)
{
	struct rbtr_fcmd_ent *e;

	list_for_each_entry(e, &rbtr_fcmd_list, list)
		if (e->ip == ip)
			return true;
	return false;
}

static struct rbtr_fcmd_ent *rbtr_fcmd_find(struct rbtr_trace *tr, unsigned int probe,
					    unsigned long ip)
{
	struct rbtr_fcmd_ent *e;

	list_for_each_entry(e, &rbtr_fcmd_list, list)
		if (e->tr == tr && e->probe == probe && e->ip == ip)
			return e;
	return NULL;
}

/* An entry of @tr leaves the list: its count and the total. */
static void rbtr_fcmd_del(struct rbtr_fcmd_ent *e, struct list_head *gone)
{
	list_move_tail(&e->list, gone);
	WRITE_ONCE(rbtr_fcmd_nr, rbtr_fcmd_nr - 1);
	WRITE_ONCE(e->tr->fn->cmd_nr, e->tr->fn->cmd_nr - 1);
}

/* Release what @e holds and free it; no hit can see it any more. */
static void rbtr_fcmd_ent_free(struct rbtr_fcmd_ent *e)
{
	if (e->target)
		rbtr_event_soft_put(e->target);
	kfree(e);
}

/* Has @tr a snapshot command? */
static bool rbtr_fcmd_any_snapshot(struct rbtr_trace *tr)
{
	struct rbtr_fcmd_ent *e;

	list_for_each_entry(e, &rbtr_fcmd_list, list)
		if (e->tr == tr && e->probe / 2 == RBTR_FCMD_SNAPSHOT)
			return true;
	return false;
}

/*
 * Publish the entries on rbtr_fcmd_list with the new ones on @added
 * (each already holding what it needs), the ftrace filter following:
 * the new functions are added to the filter before the ops are
 * registered (an empty filter would be every function), and the ops
 * are unregistered before the last one leaves it. On failure nothing
 * of @added is published and the list is as before. Return: 0 or -errno.
 */
static int rbtr_fcmd_publish(struct list_head *added, unsigned int nr_added)
{
	struct rbtr_fcmd_table *t, *old;
	struct rbtr_fcmd_ent *e;
	int ret = 0;

	/* A function in the filter once, whatever the number of its probes. */
	list_for_each_entry(e, added, list) {
		if (rbtr_fcmd_ip_used(e->ip))
			continue;
		ret = ftrace_set_filter_ip(&rbtr_fcmd_ops, e->ip, 0, 0);
		if (ret)
			goto undo;
	}
	list_for_each_entry(e, added, list)
		WRITE_ONCE(e->tr->fn->cmd_nr, e->tr->fn->cmd_nr + 1);
	list_splice_init(added, &rbtr_fcmd_list);
	WRITE_ONCE(rbtr_fcmd_nr, rbtr_fcmd_nr + nr_added);
	t = rbtr_fcmd_table_build(&ret);
	if (ret)
		goto undo_list;
	if (!rbtr_fcmd_registered && t) {
		ret = register_ftrace_function(&rbtr_fcmd_ops);
		if (ret) {
			kvfree(t);
			goto undo_list;
		}
		rbtr_fcmd_registered = true;
	}
	old = rcu_replace_pointer(rbtr_fcmd_table, t, rbtr_events_lock_held());
	if (old) {
		synchronize_rcu();
		kvfree(old);
	}
	return 0;

undo_list:
	/* @added's entries are at the head of the list, in their order. */
	while (nr_added--) {
		e = list_first_entry(&rbtr_fcmd_list, struct rbtr_fcmd_ent, list);
		rbtr_fcmd_del(e, added);
	}
undo:
	/* Out of the filter again: each function not in another probe, up to the failure. */
	list_for_each_entry(e, added, list) {
		if (rbtr_fcmd_ip_used(e->ip))
			continue;
		if (ftrace_set_filter_ip(&rbtr_fcmd_ops, e->ip, 1, 0))
			break;
	}
	return ret;
}

/*
 * Take the entries on @gone (already off rbtr_fcmd_list) out of the
 * table and the filter, then free them once no hit can see them.
 */
static void rbtr_fcmd_unpublish(struct list_head *gone)
{
	struct rbtr_fcmd_table *t, *old;
	struct rbtr_fcmd_ent *e, *tmp;
	int err;

	if (list_empty(gone))
		return;
	t = rbtr_fcmd_table_build(&err);
	if (err) {
		/*
		 * No memory for the smaller table: the hits go on finding
		 * the old one, whose entries would be freed. Empty it for
		 * a grace period instead; the entries left are published
		 * again below when memory allows.
		 */
		old = rcu_replace_pointer(rbtr_fcmd_table, NULL, rbtr_events_lock_held());
	} else {
		old = rcu_replace_pointer(rbtr_fcmd_table, t, rbtr_events_lock_held());
	}
	if (!rbtr_fcmd_nr && rbtr_fcmd_registered) {
		/* Waits for the callbacks in flight. */
		unregister_ftrace_function(&rbtr_fcmd_ops);
		rbtr_fcmd_registered = false;
		ftrace_set_filter(&rbtr_fcmd_ops, NULL, 0, 1);
	} else {
		list_for_each_entry(e, gone, list)
			if (!rbtr_fcmd_ip_used(e->ip))
				ftrace_set_filter_ip(&rbtr_fcmd_ops, e->ip, 1, 0);
	}
	synchronize_rcu();
	kvfree(old);
	list_for_each_entry_safe(e, tmp, gone, list)
		rbtr_fcmd_ent_free(e);
	if (err) {
		t = rbtr_fcmd_table_build(&err);
		rcu_assign_pointer(rbtr_fcmd_table, t);
	}
}

/* ---- the words of set_ftrace_filter ---------------------------------------- */

/**
 * rbtr_fn_cmd_known - does @word name one of ftrace's commands?
 * @word: "GLOB:COMMAND[:...]"
 *
 * Return: true for the commands above and "mod".
 */
bool rbtr_fn_cmd_known(const char *word)
{
	const char *cmd = strchr(word, ':');
	size_t n;
	int k;

	if (!cmd++)
		return false;
	n = strcspn(cmd, ":");
	if (n == 3 && !strncmp(cmd, "mod", 3))
		return true;
	for (k = 0; k < RBTR_FCMD_NR; k++)
		if (strlen(rbtr_fcmd_names[k]) == n && !strncmp(cmd, rbtr_fcmd_names[k], n))
			return true;
	return false;
}

/* Is @word "GLOB:snapshot[:...]", a snapshot command to add? */
static bool rbtr_fcmd_word_arms(const char *word)
{
	const char *cmd = strchr(word, ':');

	return *word != '!' && cmd && !strncmp(cmd + 1, "snapshot", 8) &&
	       (!cmd[9] || cmd[9] == ':');
}

/* A parsed command word. */
struct rbtr_fcmd_req {
	char			*glob;
	unsigned int		kind;
	bool			counted;
	bool			remove;
	long			count;
	struct rbtr_event_file	*target;
};

/*
 * "GLOB:CMD[:PARAM]" as ftrace's ftrace_process_regex() and the commands'
 * callbacks split it. For enable_event/disable_event PARAM is "SYS:EV[:N]"
 * and an empty N is -EINVAL; for the others an empty N leaves a count of
 * -1. dump counts 1 (ftrace's "only dump once"), cpudump none. The
 * events are @tr's.
 */
static int rbtr_fcmd_parse(struct rbtr_trace *tr, char *word, struct rbtr_fcmd_req *req)
{
	char *param = word, *cmd, *number, *sys, *ev;
	unsigned int k;

	memset(req, 0, sizeof(*req));
	req->glob = strsep(&param, ":");
	cmd = strsep(&param, ":");
	req->remove = *req->glob == '!';
	if (req->remove)
		req->glob++;
	for (k = 0; k < RBTR_FCMD_NR; k++)
		if (!strcmp(cmd, rbtr_fcmd_names[k]))
			break;
	if (k == RBTR_FCMD_NR) {
		pr_warn_ratelimited("rbtrace: set_ftrace_filter: no command '%.32s'\n", cmd);
		return -EINVAL;
	}
	req->kind = k;
	req->count = -1;
	if (k == RBTR_FCMD_ENABLE || k == RBTR_FCMD_DISABLE) {
		sys = strsep(&param, ":");
		if (!param)
			return -EINVAL;
		ev = strsep(&param, ":");
		req->target = rbtr_event_file_lookup(tr, sys, ev);
		if (!req->target)
			return -EINVAL;
	}
	if (k == RBTR_FCMD_DUMP || k == RBTR_FCMD_CPUDUMP) {
		pr_warn_ratelimited("rbtrace: set_ftrace_filter: %s: rbtrace prints no buffer to the console\n",
				    rbtr_fcmd_names[k]);
		return -EINVAL;
	}
	req->counted = param;
	if (!param)
		return 0;
	number = strsep(&param, ":");
	if (!*number)
		return req->target ? -EINVAL : 0;
	/* ftrace's kstrtoul() into its long: "-1" is refused, a huge N is negative. */
	return kstrtoul(number, 0, (unsigned long *)&req->count);
}

/* Remove @tr's @req probe from the functions its glob matches. */
static int rbtr_fcmd_remove(struct rbtr_trace *tr, struct rbtr_fcmd_req *req)
{
	unsigned int probe = RBTR_FCMD_PROBE(req->kind, req->counted);
	struct rbtr_fcmd_ent *e, *tmp;
	char name[KSYM_SYMBOL_LEN];
	struct rbtr_fsel found;
	bool any = false, all;
	LIST_HEAD(gone);
	unsigned int i;
	int ret;

	list_for_each_entry(e, &rbtr_fcmd_list, list)
		any |= e->tr == tr && e->probe == probe;
	if (!any)
		return -ENODEV;
	/* ftrace's unregister_ftrace_function_probe_func(): "" and "*" are all. */
	all = !*req->glob || !strcmp(req->glob, "*");
	memset(&found, 0, sizeof(found));
	if (!all) {
		ret = rbtr_fn_match(req->glob, &found);
		if (ret)
			return ret;
	}
	list_for_each_entry_safe(e, tmp, &rbtr_fcmd_list, list) {
		if (e->tr != tr || e->probe != probe)
			continue;
		if (!all) {
			/* By name, as ftrace matches its kallsyms name. */
			snprintf(name, sizeof(name), "%ps", (void *)e->ip);
			for (i = 0; i < found.nr; i++)
				if (!strncmp(found.ent[i].name, name, strcspn(name, " ")) &&
				    strcspn(found.ent[i].name, " ") == strcspn(name, " "))
					break;
			if (i == found.nr)
				continue;
		}
		rbtr_fcmd_del(e, &gone);
	}
	rbtr_fsel_free(&found);
	if (list_empty(&gone))
		return -EINVAL;
	rbtr_fcmd_unpublish(&gone);
	return 0;
}

/* A new entry of @tr's @req at @ip, holding what its command needs. */
static struct rbtr_fcmd_ent *rbtr_fcmd_ent_new(struct rbtr_trace *tr,
					       const struct rbtr_fcmd_req *req,
					       unsigned long ip, int *err)
{
	struct rbtr_fcmd_ent *e = kzalloc(sizeof(*e), GFP_KERNEL);

	*err = -ENOMEM;
	if (!e)
		return NULL;
	e->ip = ip;
	e->tr = tr;
	e->probe = RBTR_FCMD_PROBE(req->kind, req->counted);
	atomic_long_set(&e->count, req->count);
	*err = 0;
	if (req->target) {
		*err = rbtr_event_soft_get(req->target);
		if (!*err)
			e->target = req->target;
	}
	if (*err) {
		kfree(e);
		return NULL;
	}
	return e;
}

/* Add @tr's @req probe to the functions its glob matches and it lacks. */
static int rbtr_fcmd_add(struct rbtr_trace *tr, struct rbtr_fcmd_req *req)
{
	unsigned int probe = RBTR_FCMD_PROBE(req->kind, req->counted);
	struct rbtr_fcmd_ent *e, *tmp;
	unsigned int i, nr, added = 0;
	unsigned long *ips;
	LIST_HEAD(new);
	int ret;

	ret = rbtr_fn_match_ips(req->glob, RBTR_FCMD_LOOKUP_MAX, &ips, &nr);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		if (rbtr_fcmd_find(tr, probe, ips[i]))
			continue;
		e = rbtr_fcmd_ent_new(tr, req, ips[i], &ret);
		if (!e)
			break;
		list_add_tail(&e->list, &new);
		added++;
	}
	kvfree(ips);
	/* ftrace's register_ftrace_function_probe(): nothing added is -EINVAL. */
	if (!ret && !added)
		ret = -EINVAL;
	if (!ret)
		ret = rbtr_fcmd_publish(&new, added);
	if (ret)
		list_for_each_entry_safe(e, tmp, &new, list)
			rbtr_fcmd_ent_free(e);
	return ret;
}

/**
 * rbtr_fn_cmd_write - one "FUNC:COMMAND[:PARAM]" word of a tracer's
 * set_ftrace_filter
 * @tr: the tracer (the top or an instance, held by the file's open)
 * @word: the word (cut up here)
 *
 * Sleeps: under the filter files' mutex; takes rbtr_events_lock().
 *
 * Return: 0 or a negative errno, as ftrace's for the same word.
 */
int rbtr_fn_cmd_write(struct rbtr_trace *tr, char *word)
{
	bool arm = rbtr_fcmd_word_arms(word), disarm = false;
	struct rbtr_fn_tracer *ft = tr->fn;
	struct rbtr_fcmd_req req;
	int ret;

	/*
	 * As ftrace's tracing_arm_snapshot(): the spare exists before a
	 * snapshot command can fire. A tracer's snapshot commands hold it
	 * once, taken and given back outside rbtr_events_lock(): its
	 * allocation takes the tracer's files_mutex (trigger.c's order).
	 */
	if (arm) {
		ret = rbtr_snapshot_get(tr);
		if (ret)
			return ret;
	}
	rbtr_events_lock();
	ret = rbtr_fcmd_parse(tr, word, &req);
	if (!ret)
		ret = req.remove ? rbtr_fcmd_remove(tr, &req) : rbtr_fcmd_add(tr, &req);
	if (arm && !ft->cmd_snap_held && rbtr_fcmd_any_snapshot(tr)) {
		ft->cmd_snap_held = true;
		arm = false;
	}
	if (ft->cmd_snap_held && !rbtr_fcmd_any_snapshot(tr)) {
		ft->cmd_snap_held = false;
		disarm = true;
	}
	rbtr_events_unlock();
	if (arm)
		rbtr_snapshot_put(tr);
	if (disarm)
		rbtr_snapshot_put(tr);
	return ret;
}

/* ---- the read back --------------------------------------------------------- */

/**
 * rbtr_fn_cmd_count - how many lines rbtr_fn_cmd_show() has for a tracer
 * @tr: the tracer
 *
 * Return: the number of its entries, read without the lock: an event
 * removed meanwhile leaves a line that shows nothing.
 */
unsigned int rbtr_fn_cmd_count(const struct rbtr_trace *tr)
{
	return READ_ONCE(tr->fn->cmd_nr);
}

/**
 * rbtr_fn_cmd_show - a tracer's commands, as its set_ftrace_filter lists
 * them after the functions
 * @m: the seq_file
 * @tr: the tracer
 * @pos: which line, from 0
 *
 * Return: true if there was a line @pos.
 */
bool rbtr_fn_cmd_show(struct seq_file *m, const struct rbtr_trace *tr, loff_t pos)
{
	struct rbtr_fcmd_ent *e;
	bool found = false;
	long c;

	rbtr_events_lock();
	list_for_each_entry(e, &rbtr_fcmd_list, list) {
		if (e->tr != tr || pos--)
			continue;
		found = true;
		seq_printf(m, "%ps:%s", (void *)e->ip, rbtr_fcmd_names[e->probe / 2]);
		if (e->target)
			seq_printf(m, ":%s:%s", e->target->type->system, e->target->type->name);
		c = atomic_long_read(&e->count);
		if (e->probe & 1)
			seq_printf(m, ":count=%ld\n", c);
		else
			seq_puts(m, ":unlimited\n");
		break;
	}
	rbtr_events_unlock();
	return found;
}

/**
 * rbtr_fn_cmd_file_gone - an event is being removed: the commands that
 * switch it go
 * @file: the event in its tracer
 *
 * Under rbtr_events_lock() (trigger.c's rbtr_triggers_file_gone()).
 */
void rbtr_fn_cmd_file_gone(struct rbtr_event_file *file)
{
	struct rbtr_fcmd_ent *e, *tmp;
	LIST_HEAD(gone);

	list_for_each_entry_safe(e, tmp, &rbtr_fcmd_list, list)
		if (e->target == file)
			rbtr_fcmd_del(e, &gone);
	rbtr_fcmd_unpublish(&gone);
}

/**
 * rbtr_fn_cmd_tr_gone - remove a tracer's commands
 * @tr: the tracer: an instance being removed (its events already gone,
 *      rbtr_fn_tr_exit()), or any tracer at unload
 *
 * Its hold on its spare is given back. Sleeps; takes rbtr_events_lock().
 */
void rbtr_fn_cmd_tr_gone(struct rbtr_trace *tr)
{
	struct rbtr_fcmd_ent *e, *tmp;
	bool held;
	LIST_HEAD(gone);

	rbtr_events_lock();
	list_for_each_entry_safe(e, tmp, &rbtr_fcmd_list, list)
		if (e->tr == tr)
			rbtr_fcmd_del(e, &gone);
	rbtr_fcmd_unpublish(&gone);
	held = tr->fn->cmd_snap_held;
	tr->fn->cmd_snap_held = false;
	rbtr_events_unlock();
	if (held)
		rbtr_snapshot_put(tr);
}

/**
 * rbtr_fn_cmd_exit - free the commands' filter
 *
 * At unload, every tracer's commands removed (rbtr_fn_cmd_tr_gone()),
 * before the events are unregistered: the holds on their files are
 * released there.
 */
void rbtr_fn_cmd_exit(void)
{
	WARN_ON_ONCE(rbtr_fcmd_nr);
	ftrace_free_filter(&rbtr_fcmd_ops);
}
