// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace pid filters: set_event_pid, set_event_notrace_pid (the events),
 * set_ftrace_pid, set_ftrace_notrace_pid (the function tracers), and
 * options/event-fork, options/function-fork, with ftrace's syntax and
 * semantics (kernel/trace/trace_events.c, ftrace.c, pid_list.c):
 *
 *  - a write adds its pids to the list ("echo P >>"); opening with O_TRUNC
 *    empties it first ("echo P >"); a write that leaves the list empty
 *    removes it ("echo >"). Pids are words separated by white space,
 *    read with kstrtoul(base 0); a bad word is -EINVAL, a value at or
 *    above 2^30 (ftrace's MAX_PID) -EPERM, and the list stays as it was;
 *  - reading lists the pids in increasing order; the function files say
 *    "no pid" when they have no list, the event files say nothing;
 *  - a task is left out if a list exists and does not hold its pid, or
 *    the notrace list holds it (ftrace's trace_ignore_this_task());
 *  - with a fork option on, a child of a listed task is listed at its
 *    fork, and a task is taken off the lists when freed.
 *
 * The writers of records never read a list. Probes keep per CPU whether
 * the task running there is left out: on sched_switch (the task switched
 * in) and on the wakeups, as ftrace's ignore_pid and ftrace_ignore_pid,
 * and a change of a list recomputes it on every CPU (on_each_cpu()). An
 * event tests that flag only while its condition word has RBTR_EVC_PID,
 * set on every event while an event list exists; the function tracers
 * test rbtr_pid_fn_on first (pid.h).
 *
 * Lists are replaced whole under rbtr_pid_mutex and published with RCU;
 * the probes read them under sched-RCU (tracepoint probes run with
 * preemption disabled) and the fork and free probes change the bits of
 * the published list in place with atomic bit operations, as ftrace's.
 * An old list is freed after tracepoint_synchronize_unregister().
 *
 * Lock order: rbtr_pid_mutex, then the event registry's mutex
 * (rbtr_events_lock()) or the kernel's tracepoints_mutex.
 */
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "events.h"
#include "pid.h"
#include "options.h"
#include "stack.h"
#include "trace.h"

/* ftrace's MAX_PID (pid_list.h): a pid at or above it is refused, -EPERM. */
#define RBTR_PID_MAX		BIT(30)
/* ftrace's PID_BUF_SIZE: a longer word does not fit its parser, -EINVAL. */
#define RBTR_PID_WORD_MAX	127
/* Taken at once from a write; the rest is written again (rbtr_write_cut()). */
#define RBTR_PID_WRITE_MAX	4096
#define RBTR_PID_SEPS		" \t\n\v\f\r"

/* The pid stored for the function tracers when the running task is left out. */
#define RBTR_PID_FN_IGNORE	(-1)

enum rbtr_pid_kind {
	RBTR_PID_EV,		/* set_event_pid */
	RBTR_PID_EV_NO,		/* set_event_notrace_pid */
	RBTR_PID_FN,		/* set_ftrace_pid */
	RBTR_PID_FN_NO,		/* set_ftrace_notrace_pid */
	RBTR_PID_NR_KINDS,
};

static const char *const rbtr_pid_file_names[RBTR_PID_NR_KINDS] = {
	[RBTR_PID_EV]		= "set_event_pid",
	[RBTR_PID_EV_NO]	= "set_event_notrace_pid",
	[RBTR_PID_FN]		= "set_ftrace_pid",
	[RBTR_PID_FN_NO]	= "set_ftrace_notrace_pid",
};

/*
 * struct rbtr_pid_list - one list of pids
 * @bits: the pids a task can have, below PID_MAX_LIMIT: the probes test them
 * @high: the pids from PID_MAX_LIMIT to RBTR_PID_MAX, sorted: no task has
 *        them, but ftrace takes and lists them
 * @nr_high: their number
 */
struct rbtr_pid_list {
	unsigned long	*bits;
	u32		*high;
	unsigned int	nr_high;
};

static struct rbtr_pid_list __rcu *rbtr_pid_lists[RBTR_PID_NR_KINDS];
static DEFINE_MUTEX(rbtr_pid_mutex);

DEFINE_PER_CPU(bool, rbtr_pid_ev_ignore);
DEFINE_PER_CPU(int, rbtr_pid_fn_pid);
int rbtr_pid_fn_on;

/* options/event-fork, options/function-fork, under rbtr_pid_mutex; read by the probes. */
enum { RBTR_PID_OPT_EVENT, RBTR_PID_OPT_FUNC, RBTR_PID_NR_OPTS };
static bool rbtr_pid_fork_opt[RBTR_PID_NR_OPTS];
static const char *const rbtr_pid_opt_names[RBTR_PID_NR_OPTS] = {
	"event-fork", "function-fork",
};

/* RBTR_EVC_PID is set on the events: changed under rbtr_events_lock(). */
static bool rbtr_pid_ev_active;

/* ---- the lists ---------------------------------------------------------- */

static bool rbtr_pid_has(const struct rbtr_pid_list *l, pid_t pid)
{
	return (unsigned int)pid < PID_MAX_LIMIT && test_bit(pid, l->bits);
}

static void rbtr_pid_list_free(struct rbtr_pid_list *l)
{
	if (!l)
		return;
	vfree(l->bits);
	kfree(l->high);
	kfree(l);
}

/* A copy of @old (or an empty list) with room for @more high pids. */
static struct rbtr_pid_list *rbtr_pid_list_dup(const struct rbtr_pid_list *old,
					       unsigned int more)
{
	unsigned int nr_high = old ? old->nr_high : 0;
	struct rbtr_pid_list *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return NULL;
	l->bits = vzalloc(BITS_TO_LONGS(PID_MAX_LIMIT) * sizeof(long));
	if (nr_high + more)
		l->high = kcalloc(nr_high + more, sizeof(*l->high), GFP_KERNEL);
	if (!l->bits || (nr_high + more && !l->high)) {
		rbtr_pid_list_free(l);
		return NULL;
	}
	if (old) {
		bitmap_copy(l->bits, old->bits, PID_MAX_LIMIT);
		memcpy(l->high, old->high, nr_high * sizeof(*l->high));
		l->nr_high = nr_high;
	}
	return l;
}

/* Add @pid to a list not yet published; room was made for the high ones. */
static void rbtr_pid_list_add(struct rbtr_pid_list *l, u32 pid)
{
	unsigned int i;

	if (pid < PID_MAX_LIMIT) {
		__set_bit(pid, l->bits);
		return;
	}
	for (i = 0; i < l->nr_high && l->high[i] < pid; i++)
		;
	if (i < l->nr_high && l->high[i] == pid)
		return;
	memmove(&l->high[i + 1], &l->high[i], (l->nr_high - i) * sizeof(*l->high));
	l->high[i] = pid;
	l->nr_high++;
}

static bool rbtr_pid_list_empty(const struct rbtr_pid_list *l)
{
	return !l->nr_high && bitmap_empty(l->bits, PID_MAX_LIMIT);
}

static struct rbtr_pid_list *rbtr_pid_get(enum rbtr_pid_kind kind)
{
	return rcu_dereference_protected(rbtr_pid_lists[kind],
					 lockdep_is_held(&rbtr_pid_mutex));
}

/* ---- the probes ------------------------------------------------------------ */

/*
 * Under sched-RCU (a probe, or an IPI of on_each_cpu()). @yes/@no: the
 * list and the notrace list, or NULL: ftrace's trace_ignore_this_task().
 */
static bool rbtr_pid_ignore_task(const struct rbtr_pid_list *yes, const struct rbtr_pid_list *no,
				 const struct task_struct *t)
{
	return (yes && !rbtr_pid_has(yes, t->pid)) || (no && rbtr_pid_has(no, t->pid));
}

static bool rbtr_pid_ignore(enum rbtr_pid_kind yes, const struct task_struct *t)
{
	return rbtr_pid_ignore_task(rcu_dereference_sched(rbtr_pid_lists[yes]),
				    rcu_dereference_sched(rbtr_pid_lists[yes + 1]), t);
}

/*
 * sched_switch, before every other probe: a switch is recorded if either
 * task is, as ftrace's: both must be left out by a list, or both listed
 * in a notrace list, for it to be ignored.
 */
static void notrace rbtr_pid_switch_pre(void *data, bool preempt, struct task_struct *prev,
					struct task_struct *next, unsigned int prev_state)
{
	const struct rbtr_pid_list *yes = rcu_dereference_sched(rbtr_pid_lists[RBTR_PID_EV]);
	const struct rbtr_pid_list *no = rcu_dereference_sched(rbtr_pid_lists[RBTR_PID_EV_NO]);
	bool ignore;

	ignore = (rbtr_pid_ignore_task(NULL, no, prev) && rbtr_pid_ignore_task(NULL, no, next)) ||
		 (rbtr_pid_ignore_task(yes, NULL, prev) && rbtr_pid_ignore_task(yes, NULL, next));
	this_cpu_write(rbtr_pid_ev_ignore, ignore);
}

/* sched_switch, after every other probe: from now on, the task switched in decides. */
static void notrace rbtr_pid_switch_post(void *data, bool preempt, struct task_struct *prev,
					 struct task_struct *next, unsigned int prev_state)
{
	this_cpu_write(rbtr_pid_ev_ignore, rbtr_pid_ignore(RBTR_PID_EV, next));
}

/* A wakeup, before the others: recorded if the woken task is listed. */
static void notrace rbtr_pid_wakeup_pre(void *data, struct task_struct *task)
{
	if (!this_cpu_read(rbtr_pid_ev_ignore))
		return;
	this_cpu_write(rbtr_pid_ev_ignore, rbtr_pid_ignore(RBTR_PID_EV, task));
}

/* A wakeup, after the others: the current task decides again. */
static void notrace rbtr_pid_wakeup_post(void *data, struct task_struct *task)
{
	if (this_cpu_read(rbtr_pid_ev_ignore))
		return;
	this_cpu_write(rbtr_pid_ev_ignore, rbtr_pid_ignore(RBTR_PID_EV, current));
}

/* The function tracers: the pid of the task switched in, if it is traced. */
static void notrace rbtr_pid_fn_switch(void *data, bool preempt, struct task_struct *prev,
				       struct task_struct *next, unsigned int prev_state)
{
	this_cpu_write(rbtr_pid_fn_pid,
		       rbtr_pid_ignore(RBTR_PID_FN, next) ? RBTR_PID_FN_IGNORE : next->pid);
}

/*
 * A fork: the child of a listed task is listed (ftrace's
 * trace_filter_add_remove_task()). In place, on the published list: a
 * write that copied it a moment before misses the child, as ftrace's.
 */
static void rbtr_pid_follow(enum rbtr_pid_kind kind, struct task_struct *self,
			    struct task_struct *task)
{
	struct rbtr_pid_list *l = rcu_dereference_sched(rbtr_pid_lists[kind]);

	if (!l || (unsigned int)task->pid >= PID_MAX_LIMIT)
		return;
	if (!self)
		clear_bit(task->pid, l->bits);
	else if (rbtr_pid_has(l, self->pid))
		set_bit(task->pid, l->bits);
}

static void rbtr_pid_follow_all(struct task_struct *self, struct task_struct *task)
{
	if (READ_ONCE(rbtr_pid_fork_opt[RBTR_PID_OPT_EVENT])) {
		rbtr_pid_follow(RBTR_PID_EV, self, task);
		rbtr_pid_follow(RBTR_PID_EV_NO, self, task);
	}
	if (READ_ONCE(rbtr_pid_fork_opt[RBTR_PID_OPT_FUNC])) {
		rbtr_pid_follow(RBTR_PID_FN, self, task);
		rbtr_pid_follow(RBTR_PID_FN_NO, self, task);
	}
}

static void notrace rbtr_pid_fork(void *data, struct task_struct *self, struct task_struct *task)
{
	rbtr_pid_follow_all(self, task);
}

/* sched_process_free: from an RCU callback, once the task is gone. */
static void notrace rbtr_pid_free(void *data, struct task_struct *task)
{
	rbtr_pid_follow_all(NULL, task);
}

/* ---- probe registration ----------------------------------------------------- */

enum rbtr_pid_tp {
	RBTR_PID_TP_SWITCH, RBTR_PID_TP_WAKEUP, RBTR_PID_TP_WAKEUP_NEW,
	RBTR_PID_TP_WAKING, RBTR_PID_TP_FORK, RBTR_PID_TP_FREE, RBTR_PID_NR_TPS,
};

static const char *const rbtr_pid_tp_names[RBTR_PID_NR_TPS] = {
	"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_waking",
	"sched_process_fork", "sched_process_free",
};

static struct tracepoint *rbtr_pid_tps[RBTR_PID_NR_TPS];

struct rbtr_pid_probe {
	enum rbtr_pid_tp	tp;
	void			*fn;
	int			prio;
};

/*
 * A set of probes, registered and unregistered together. The events'
 * "pre" probes run before the events' own (TRACEPOINT_DEFAULT_PRIO), the
 * "post" ones after, as ftrace orders its own.
 */
struct rbtr_pid_probes {
	const struct rbtr_pid_probe	*probes;
	unsigned int			nr;
	bool				on;
};

static const struct rbtr_pid_probe rbtr_pid_ev_probe_list[] = {
	{ RBTR_PID_TP_SWITCH, rbtr_pid_switch_pre, INT_MAX },
	{ RBTR_PID_TP_SWITCH, rbtr_pid_switch_post, 0 },
	{ RBTR_PID_TP_WAKEUP, rbtr_pid_wakeup_pre, INT_MAX },
	{ RBTR_PID_TP_WAKEUP, rbtr_pid_wakeup_post, 0 },
	{ RBTR_PID_TP_WAKEUP_NEW, rbtr_pid_wakeup_pre, INT_MAX },
	{ RBTR_PID_TP_WAKEUP_NEW, rbtr_pid_wakeup_post, 0 },
	{ RBTR_PID_TP_WAKING, rbtr_pid_wakeup_pre, INT_MAX },
	{ RBTR_PID_TP_WAKING, rbtr_pid_wakeup_post, 0 },
};

static const struct rbtr_pid_probe rbtr_pid_fn_probe_list[] = {
	{ RBTR_PID_TP_SWITCH, rbtr_pid_fn_switch, TRACEPOINT_DEFAULT_PRIO },
};

/* The child is listed after the other probes of the fork; freed, first. */
static const struct rbtr_pid_probe rbtr_pid_fork_probe_list[] = {
	{ RBTR_PID_TP_FORK, rbtr_pid_fork, INT_MIN },
	{ RBTR_PID_TP_FREE, rbtr_pid_free, INT_MAX },
};

static struct rbtr_pid_probes rbtr_pid_ev_probes = {
	.probes = rbtr_pid_ev_probe_list, .nr = ARRAY_SIZE(rbtr_pid_ev_probe_list),
};

static struct rbtr_pid_probes rbtr_pid_fn_probes = {
	.probes = rbtr_pid_fn_probe_list, .nr = ARRAY_SIZE(rbtr_pid_fn_probe_list),
};

static struct rbtr_pid_probes rbtr_pid_fork_probes = {
	.probes = rbtr_pid_fork_probe_list, .nr = ARRAY_SIZE(rbtr_pid_fork_probe_list),
};

static void rbtr_pid_tp_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < RBTR_PID_NR_TPS; i++)
		if (!rbtr_pid_tps[i] && !strcmp(tp->name, rbtr_pid_tp_names[i]))
			rbtr_pid_tps[i] = tp;
}

static void rbtr_pid_unreg_first(const struct rbtr_pid_probes *p, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tracepoint_probe_unregister(rbtr_pid_tps[p->probes[i].tp],
						  p->probes[i].fn, NULL);
		if (ret)
			pr_warn("rbtrace: %s: cannot unregister a pid probe (%d)\n",
				rbtr_pid_tp_names[p->probes[i].tp], ret);
	}
}

/* Register or unregister @p as @on says; under rbtr_pid_mutex. */
static int rbtr_pid_probes_set(struct rbtr_pid_probes *p, bool on)
{
	unsigned int i;
	int ret = 0;

	lockdep_assert_held(&rbtr_pid_mutex);
	if (p->on == on)
		return 0;
	if (!on) {
		rbtr_pid_unreg_first(p, p->nr);
		p->on = false;
		return 0;
	}
	for (i = 0; i < p->nr; i++) {
		const struct rbtr_pid_probe *pr = &p->probes[i];

		ret = rbtr_pid_tps[pr->tp] ?
			tracepoint_probe_register_prio(rbtr_pid_tps[pr->tp], pr->fn, NULL,
						       pr->prio) : -ENODEV;
		if (ret) {
			rbtr_pid_unreg_first(p, i);
			return ret;
		}
	}
	p->on = true;
	return 0;
}

/* ---- a change of a list ------------------------------------------------------ */

/* On each CPU, for the task running there: ftrace's ignore_task_cpu(). */
static void rbtr_pid_cpu_update(void *unused)
{
	this_cpu_write(rbtr_pid_ev_ignore, rbtr_pid_ignore(RBTR_PID_EV, current));
	this_cpu_write(rbtr_pid_fn_pid, rbtr_pid_ignore(RBTR_PID_FN, current) ?
		       RBTR_PID_FN_IGNORE : current->pid);
}

/* Set or clear RBTR_EVC_PID on every event; rbtr_event_register() follows it. */
static void rbtr_pid_ev_cond(bool on)
{
	if (rbtr_pid_ev_active == on)
		return;
	rbtr_events_lock();
	WRITE_ONCE(rbtr_pid_ev_active, on);
	if (on)
		rbtr_event_cond_update_all(RBTR_EVC_PID, 0);
	else
		rbtr_event_cond_update_all(0, RBTR_EVC_PID);
	rbtr_events_unlock();
}

/*
 * Replace list @kind by @new (NULL: no list), under rbtr_pid_mutex. Steps:
 * A the probes the lists need, registered before anything depends on them
 * (the only step that can fail: @new is then freed, nothing changed);
 * B the new list published; C every CPU's flags recomputed, the per-CPU
 * writes done before on_each_cpu() returns; D the writers told to look at
 * the flags (after C: a flag they read is never older than the lists);
 * or told not to, before E unregisters the probes no longer needed; F the
 * old list freed once no probe can still read it.
 */
static int rbtr_pid_replace(enum rbtr_pid_kind kind, struct rbtr_pid_list *new)
{
	struct rbtr_pid_list *old = rbtr_pid_get(kind);
	bool ev_on, fn_on;
	int ret;

	lockdep_assert_held(&rbtr_pid_mutex);
	if (!old && !new)
		return 0;
	ev_on = kind == RBTR_PID_EV || kind == RBTR_PID_EV_NO ?
		new || rbtr_pid_get(kind ^ 1) : rbtr_pid_ev_probes.on;
	fn_on = kind == RBTR_PID_FN || kind == RBTR_PID_FN_NO ?
		new || rbtr_pid_get(kind ^ 1) : rbtr_pid_fn_probes.on;
	/*A*/
	ret = ev_on ? rbtr_pid_probes_set(&rbtr_pid_ev_probes, true) : 0;
	if (!ret && fn_on)
		ret = rbtr_pid_probes_set(&rbtr_pid_fn_probes, true);
	if (ret) {
		rbtr_pid_list_free(new);
		return ret;
	}
	/*B*/
	rcu_assign_pointer(rbtr_pid_lists[kind], new);
	/*C*/
	on_each_cpu(rbtr_pid_cpu_update, NULL, 1);
	/*D*/
	rbtr_pid_ev_cond(ev_on);
	WRITE_ONCE(rbtr_pid_fn_on, fn_on);
	/*E*/
	rbtr_pid_probes_set(&rbtr_pid_ev_probes, ev_on);
	rbtr_pid_probes_set(&rbtr_pid_fn_probes, fn_on);
	/*F*/
	if (old) {
		tracepoint_synchronize_unregister();
		rbtr_pid_list_free(old);
	}
	return 0;
}

/* Count the words of @buf; -EINVAL if one is too long for ftrace's parser. */
static int rbtr_pid_count_words(const char *buf, unsigned int *nr)
{
	size_t len;

	*nr = 0;
	for (;;) {
		buf += strspn(buf, RBTR_PID_SEPS);
		len = strcspn(buf, RBTR_PID_SEPS);
		if (!len)
			return 0;
		if (len > RBTR_PID_WORD_MAX)
			return -EINVAL;
		(*nr)++;
		buf += len;
	}
}

/* ftrace's trace_pid_write(): every word a pid, or the write fails. */
static int rbtr_pid_parse(char *buf, struct rbtr_pid_list *l)
{
	unsigned long v;
	char *word;
	u32 pid;

	while ((word = strsep(&buf, RBTR_PID_SEPS)) != NULL) {
		if (!*word)
			continue;
		if (kstrtoul(word, 0, &v))
			return -EINVAL;
		/* As ftrace: the value taken as a pid_t, then checked against MAX_PID. */
		pid = (u32)(pid_t)v;
		if (pid >= (u32)RBTR_PID_MAX)
			return -EPERM;
		rbtr_pid_list_add(l, pid);
	}
	return 0;
}

static int rbtr_pid_write_locked(enum rbtr_pid_kind kind, char *buf)
{
	struct rbtr_pid_list *new;
	unsigned int nr;
	int ret;

	ret = rbtr_pid_count_words(buf, &nr);
	if (ret)
		return ret;
	new = rbtr_pid_list_dup(rbtr_pid_get(kind), nr);
	if (!new)
		return -ENOMEM;
	ret = rbtr_pid_parse(buf, new);
	if (ret) {
		rbtr_pid_list_free(new);
		return ret;
	}
	/* No pid at all, old or new: the list is removed, as ftrace's. */
	if (rbtr_pid_list_empty(new)) {
		rbtr_pid_list_free(new);
		new = NULL;
	}
	return rbtr_pid_replace(kind, new);
}

/* ---- the files ------------------------------------------------------------- */

static int rbtr_pid_show(struct seq_file *m, void *v)
{
	enum rbtr_pid_kind kind = (long)m->private;
	const struct rbtr_pid_list *l;
	unsigned long pid;
	unsigned int i;

	mutex_lock(&rbtr_pid_mutex);
	l = rbtr_pid_get(kind);
	if (l) {
		for_each_set_bit(pid, l->bits, PID_MAX_LIMIT)
			seq_printf(m, "%lu\n", pid);
		for (i = 0; i < l->nr_high; i++)
			seq_printf(m, "%u\n", l->high[i]);
	} else if (kind == RBTR_PID_FN || kind == RBTR_PID_FN_NO) {
		/* ftrace's fpid_show(); its event files show nothing. */
		seq_puts(m, "no pid\n");
	}
	mutex_unlock(&rbtr_pid_mutex);
	return 0;
}

static int rbtr_pid_open(struct inode *inode, struct file *file)
{
	long kind = (long)inode->i_private;
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rbtr_pid_mutex);
		rbtr_pid_replace(kind, NULL);
		mutex_unlock(&rbtr_pid_mutex);
	}
	return single_open(file, rbtr_pid_show, (void *)kind);
}

static ssize_t rbtr_pid_write(struct file *file, const char __user *ubuf, size_t cnt,
			      loff_t *ppos)
{
	enum rbtr_pid_kind kind = (long)file_inode(file)->i_private;
	size_t len;
	char *buf;
	int ret;

	if (!cnt)
		return 0;
	buf = rbtr_write_cut(ubuf, cnt, RBTR_PID_WRITE_MAX, RBTR_PID_SEPS, &len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&rbtr_pid_mutex);
	ret = rbtr_pid_write_locked(kind, buf);
	mutex_unlock(&rbtr_pid_mutex);
	if (ret)
		pr_warn_ratelimited("rbtrace: %s: not a list of pids (%d)\n",
				    rbtr_pid_file_names[kind], ret);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += len;
	return len;
}

static const struct file_operations rbtr_pid_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_pid_open,
	.read		= seq_read,
	.write		= rbtr_pid_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static ssize_t rbtr_pid_opt_read(struct file *file, char __user *ubuf, size_t cnt,
				 loff_t *ppos)
{
	long opt = (long)file_inode(file)->i_private;

	return rbtr_read_u64(ubuf, cnt, ppos, READ_ONCE(rbtr_pid_fork_opt[opt]));
}

/* Switch fork option @opt; the fork probes follow. */
static int rbtr_pid_opt_set(long opt, bool on)
{
	int ret;

	mutex_lock(&rbtr_pid_mutex);
	WRITE_ONCE(rbtr_pid_fork_opt[opt], on);
	/* Kept registered while either option is on, as ftrace's per option. */
	ret = rbtr_pid_probes_set(&rbtr_pid_fork_probes,
				  rbtr_pid_fork_opt[RBTR_PID_OPT_EVENT] ||
				  rbtr_pid_fork_opt[RBTR_PID_OPT_FUNC]);
	if (ret)
		WRITE_ONCE(rbtr_pid_fork_opt[opt], false);
	mutex_unlock(&rbtr_pid_mutex);
	return ret;
}

/* ftrace's trace_options_core_write(): 0 or 1, else -EINVAL. */
static ssize_t rbtr_pid_opt_write(struct file *file, const char __user *ubuf, size_t cnt,
				  loff_t *ppos)
{
	long opt = (long)file_inode(file)->i_private;
	bool on;
	int ret;

	ret = rbtr_write_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	ret = rbtr_pid_opt_set(opt, on);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

void rbtr_pid_options_show(struct seq_file *m)
{
	int i;

	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		seq_printf(m, "%s%s\n", READ_ONCE(rbtr_pid_fork_opt[i]) ? "" : "no",
			   rbtr_pid_opt_names[i]);
}

int rbtr_pid_option_set(const char *name, bool on)
{
	long i;

	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		if (!strcmp(name, rbtr_pid_opt_names[i]))
			return rbtr_pid_opt_set(i, on);
	return -ENOENT;
}

static const struct file_operations rbtr_pid_opt_fops = {
	.owner	= THIS_MODULE,
	.open	= rbtr_open_generic,
	.read	= rbtr_pid_opt_read,
	.write	= rbtr_pid_opt_write,
	.llseek	= generic_file_llseek,
};

bool rbtr_pid_events_on(void)
{
	return READ_ONCE(rbtr_pid_ev_active);
}

void rbtr_pid_files(struct rbtr_trace *tr)
{
	struct dentry *opts = rbtr_options_dir(tr);
	long i;

	for_each_kernel_tracepoint(rbtr_pid_tp_lookup, NULL);
	for (i = 0; i < RBTR_PID_NR_KINDS; i++)
		debugfs_create_file(rbtr_pid_file_names[i], 0600, tr->dir, (void *)i,
				    &rbtr_pid_fops);
	if (IS_ERR(opts))
		return;
	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		debugfs_create_file(rbtr_pid_opt_names[i], 0600, opts, (void *)i,
				    &rbtr_pid_opt_fops);
}

void rbtr_pid_exit(void)
{
	int i;

	mutex_lock(&rbtr_pid_mutex);
	rbtr_pid_ev_cond(false);
	WRITE_ONCE(rbtr_pid_fn_on, false);
	rbtr_pid_probes_set(&rbtr_pid_ev_probes, false);
	rbtr_pid_probes_set(&rbtr_pid_fn_probes, false);
	rbtr_pid_probes_set(&rbtr_pid_fork_probes, false);
	for (i = 0; i < RBTR_PID_NR_OPTS; i++)
		rbtr_pid_fork_opt[i] = false;
	tracepoint_synchronize_unregister();
	for (i = 0; i < RBTR_PID_NR_KINDS; i++) {
		rbtr_pid_list_free(rbtr_pid_get(i));
		RCU_INIT_POINTER(rbtr_pid_lists[i], NULL);
	}
	mutex_unlock(&rbtr_pid_mutex);
}
