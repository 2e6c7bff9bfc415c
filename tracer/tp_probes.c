// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace tracepoint events: probes attached at run time to the running
 * kernel's tracepoints (seed 004), writing records laid out exactly as
 * the kernel's own events of the same names, so that a format file of
 * rbtrace reads like tracefs's (same fields, offsets, sizes, signedness
 * and print fmt) and libtraceevent and trace-cmd parse the records alike.
 *
 *	sched		sched_switch sched_process_exec
 *	irq		irq_handler_entry irq_handler_exit softirq_entry softirq_exit
 *	timer		hrtimer_expire_entry hrtimer_expire_exit
 *	workqueue	workqueue_execute_start workqueue_execute_end
 *	raw_syscalls	sys_enter sys_exit
 *
 * The probes are attached to the kernel's tracepoints, found by name,
 * and their events registered, by tp_attach.c.
 *
 * Probes run in any context the tracepoint fires in (the scheduler with
 * its run-queue lock held, hard IRQ, softirq): they take no lock, never
 * allocate, never sleep, are notrace, and only reserve, fill and commit a
 * record. The paired events also consult the duration filter
 * (tracing_thresh): see duration.c for its design.
 *
 * (tp_events.h says why these are written by hand.) Each event is
 * described once, in tp_events.h: its record, how it reads
 * (format file, text: tp_format.h, tp_format.c), its tracepoint's
 * prototype and its duration-filter pair, which give the probes'
 * declarations and the table of probes below.
 */
#include <linux/binfmts.h>
#include <linux/build_bug.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/syscall.h>
#include <asm/trace/irq_vectors.h>
/* The tracepoints' declarations, for their prototypes only (see below). */
#include <trace/events/irq.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/timer.h>
#include <trace/events/workqueue.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "trace.h"
#include "tp.h"
#include "tp_format.h"
#include "tp_internal.h"

/* ---- the event table --------------------------------------------------- */

/*
 * Each probe is declared from its event's TP_PROTO() in tp_events.h, so
 * that its definition below must match it, and that prototype is checked
 * against the kernel's: the tracepoint's header declares, on every kernel
 * (6.1 and 6.12, tracepoints configured or not), a static inline
 * register_trace_<name>() taking a probe of exactly the tracepoint's
 * type. It is only named in typeof here, never called: no symbol of the
 * kernel is referenced. A tracepoint whose prototype changes fails the
 * build instead of having its arguments read wrongly (and trapping under
 * kCFI) at run time.
 */
#define RBTR_TP_EVENT(name, class, system, pair, is_exit, proto, args)	\
	static void notrace rbtr_probe_##name(void *data, proto);		\
	static_assert(__same_type(&register_trace_##name,			\
				  int (*)(typeof(rbtr_probe_##name) *, void *)), \
		      "rbtr_probe_" #name "() is not of the tracepoint's type"); \
	RBTR_TP_UNUSED(class, system, pair, is_exit, args)
#include "tp_events.h"

/* The duration filter's events, one per pair. */
struct rbtr_event_type rbtr_dur_types[RBTR_PAIR_NR];

/* ---- writing records ----------------------------------------------------- */

/*
 * The duration filter's records: only the top tracer's events go through
 * the filter (rbtr_dur_on()), and its records have no file (no condition).
 */
static __always_inline void *rbtr_tp_dur_reserve(struct rbt_buffer **buf,
						 const struct rbtr_event_type *type,
						 unsigned int size)
{
	*buf = rbtr_live_buffer(&rbtr_global_trace);
	return rbtr_event_reserve_type(&rbtr_global_trace, *buf, type, size, rbtr_tp_ctx());
}

static __always_inline void rbtr_tp_dur_commit(struct rbt_buffer *buf, void *rec)
{
	rbtr_event_commit_type(buf, rec);
}

/*
 * Append the string @str at @off of a record reserved with room for it
 * (@n bytes with its NUL), zero the bytes up to the next four-byte
 * boundary (the buffer rounds records up; readers must not see old data
 * there), and return its __data_loc.
 */
static __always_inline u32 rbtr_tp_put_str(void *rec, unsigned int off, const char *str,
					   unsigned int n)
{
	unsigned int end = ALIGN(off + n, 4);

	memcpy(rec + off, str, n - 1);
	memset(rec + off + n - 1, 0, end - (off + n - 1));
	return (n << 16) | off;
}

/*
 * A record whose string ends before this offset fits in any sub-buffer
 * (a page at least), so that the probes ask the buffer for its limit only
 * for longer ones.
 */
#define RBTR_TP_STR_FITS	256

/*
 * The bytes of a string of @len characters kept by a record whose fixed
 * part is @off bytes: what the largest record holds (as the marker's text
 * is cut), at most what the length half of a __data_loc holds. A
 * sub-buffer size changed in between only makes the reservation fail.
 */
static noinline notrace size_t rbtr_tp_str_cut(struct rbtr_trace *tr, unsigned int off,
					       size_t len)
{
	unsigned int max = rbt_max_event_size(rbtr_live_buffer(tr));

	len = min_t(size_t, len, U16_MAX - 1);
	/* The fixed part, the characters, their NUL. */
	if (off + len + 1 > max)
		len = max > off + 1 ? max - off - 1 : 0;
	return len;
}

/*
 * strlen + 1, with the kernel's "(null)" for a NULL string, for a string
 * that follows @off bytes of a record: cut to what the record can hold.
 */
static __always_inline const char *rbtr_tp_str_src(struct rbtr_trace *tr, const char *str,
						   unsigned int off, unsigned int *n)
{
	size_t len;

	BUILD_BUG_ON(PAGE_SIZE < 2 * RBTR_TP_STR_FITS);
	if (!str)
		str = "(null)";
	len = strlen(str);
	if (unlikely(off + len + 1 > RBTR_TP_STR_FITS))
		len = rbtr_tp_str_cut(tr, off, len);
	*n = len + 1;
	return str;
}

/* __trace_sched_switch_state() of include/trace/events/sched.h */
static __always_inline long rbtr_switch_state(bool preempt, unsigned int prev_state,
					      struct task_struct *p)
{
	unsigned int state;

	if (preempt)
		return TASK_REPORT_MAX;
	state = __task_state_index(prev_state, p->exit_state);
	return state ? (1 << (state - 1)) : state;
}

/* ---- the duration filter, as the probes use it --------------------------- */

/* The buffer's clock: the one the event stamps are read from. */
static __always_inline u64 rbtr_dur_now(void)
{
	return rbt_time_stamp(rbtr_live_buffer(&rbtr_global_trace));
}

/*
 * The filter's state for pair @p: its threshold (0: filter off for it) and
 * the generation it goes with, taken together as a seqcount reader (see
 * rbtr_dur_update_locked()); a generation of 0 when a change was under way.
 */
static __always_inline u64 rbtr_dur_state(const struct rbtr_dur_pair *p, unsigned int *gen)
{
	unsigned int g;
	u64 thresh;

	/* The generation before the threshold. Pairs with smp_store_release(). */
	g = smp_load_acquire(&rbtr_dur_gen);
	thresh = READ_ONCE(p->thresh);
	/* The threshold before the check. Pairs with smp_wmb() of the writer. */
	smp_rmb();
	if ((g & 1) || READ_ONCE(rbtr_dur_gen) != g)
		g = 0;
	*gen = g;
	return thresh;
}

/* Return value of the exit hooks when the filter is off: record the exit. */
#define RBTR_DUR_OFF	(-1)

/* An entry of a per-CPU pair. Return: true when the filter took it. */
static __always_inline bool rbtr_dur_cpu_entry(void *data, enum rbtr_pair_id id, unsigned long key,
					       unsigned long d0, unsigned long d1)
{
	struct rbtr_dur_pair *p = &rbtr_dur_pairs[id];
	unsigned int gen;

	/* The filter's state first: while it is off, that is all the cost. */
	if (!rbtr_dur_state(p, &gen) || !rbtr_dur_on(data))
		return false;
	rbtr_dur_cpu_enter(rbtr_dur_cpu_slot(p->cpu), key, rbtr_dur_now(), gen, d0, d1);
	return true;
}

/* An exit of a per-CPU pair. Return: RBTR_DUR_OFF or the verdict. */
static __always_inline int rbtr_dur_cpu_exit_hook(void *data, enum rbtr_pair_id id,
						  unsigned long key,
						  struct rbtr_dur_match *m)
{
	struct rbtr_dur_pair *p = &rbtr_dur_pairs[id];
	enum rbtr_dur_verdict v;
	unsigned int gen;
	u64 now, thresh;

	thresh = rbtr_dur_state(p, &gen);
	if (!thresh || !rbtr_dur_on(data))
		return RBTR_DUR_OFF;
	now = rbtr_dur_now();
	v = rbtr_dur_cpu_exit(rbtr_dur_cpu_slot(p->cpu), key, now, gen, thresh, m);
	this_cpu_inc(p->stats->n[v]);
	return v;
}

static __always_inline void rbtr_dur_tkey_init(struct rbtr_dur_tkey *k, unsigned long key)
{
	k->pid = current->pid;
	k->cookie = current->start_time;
	k->key = key;
}

/* An entry of a per-task pair. Return: true when the filter took it. */
static __always_inline bool rbtr_dur_task_entry(void *data, enum rbtr_pair_id id,
						unsigned long key,
						const unsigned long *vals, unsigned int n)
{
	struct rbtr_dur_pair *p = &rbtr_dur_pairs[id];
	struct rbtr_dur_tkey k;
	unsigned int gen;

	/* The filter's state first: while it is off, that is all the cost. */
	if (!rbtr_dur_state(p, &gen) || !rbtr_dur_on(data))
		return false;
	if (!gen)
		return true;
	rbtr_dur_tkey_init(&k, key);
	if (rbtr_dur_task_enter(&p->table, &k, rbtr_dur_now(), gen, vals, n))
		this_cpu_inc(p->stats->collisions);
	return true;
}

/* An exit of a per-task pair. Return: RBTR_DUR_OFF or the verdict. */
static __always_inline int rbtr_dur_task_exit_hook(void *data, enum rbtr_pair_id id,
						   unsigned long key,
						   struct rbtr_dur_match *m, unsigned int n)
{
	struct rbtr_dur_pair *p = &rbtr_dur_pairs[id];
	enum rbtr_dur_verdict v;
	struct rbtr_dur_tkey k;
	unsigned int gen;
	u64 now, thresh;

	thresh = rbtr_dur_state(p, &gen);
	if (!thresh || !rbtr_dur_on(data))
		return RBTR_DUR_OFF;
	now = rbtr_dur_now();
	rbtr_dur_tkey_init(&k, key);
	v = rbtr_dur_task_exit(&p->table, &k, now, gen, thresh, m, n);
	this_cpu_inc(p->stats->n[v]);
	return v;
}

/* ---- probes: sched -------------------------------------------------------- */

static __always_inline void rbtr_tp_body_sched_switch(void *data, bool preempt,
						      struct task_struct *prev,
						      struct task_struct *next,
						      unsigned int prev_state)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_sched_switch *r;

	r = rbtr_tp_reserve(&buf, data, sizeof(*r));
	if (!r)
		return;
	memcpy(r->prev_comm, prev->comm, RBTR_COMM_LEN);
	r->prev_pid = prev->pid;
	r->prev_prio = prev->prio;
	r->prev_state = rbtr_switch_state(preempt, prev_state, prev);
	memcpy(r->next_comm, next->comm, RBTR_COMM_LEN);
	r->next_pid = next->pid;
	r->next_prio = next->prio;
	rbtr_tp_commit(buf, data, r, sizeof(*r));
}

static __always_inline void rbtr_tp_body_sched_process_exec(void *data, struct task_struct *p,
							    pid_t old_pid,
							    struct linux_binprm *bprm)
{
	struct rbt_buffer *buf;
	const unsigned int off = offsetof(struct rbtr_rec_sched_process_exec, __data);
	struct rbtr_rec_sched_process_exec *r;
	const char *name;
	unsigned int n;

	name = rbtr_tp_str_src(rbtr_tp_tr(data), bprm->filename, off, &n);
	r = rbtr_tp_reserve(&buf, data, off + n);
	if (!r)
		return;
	r->filename = rbtr_tp_put_str(r, off, name, n);
	r->pid = p->pid;
	r->old_pid = old_pid;
	rbtr_tp_commit(buf, data, r, off + n);
}

/* ---- probes: irq ----------------------------------------------------------- */

static __always_inline void rbtr_tp_body_irq_handler_entry(void *data, int irq,
							   struct irqaction *action)
{
	struct rbt_buffer *buf;
	const unsigned int off = offsetof(struct rbtr_rec_irq_handler_entry, __data);
	struct rbtr_rec_irq_handler_entry *r;
	const char *name;
	unsigned int n;

	if (rbtr_dur_cpu_entry(data, RBTR_PAIR_IRQ, irq, 0, 0))
		return;
	name = rbtr_tp_str_src(rbtr_tp_tr(data), action->name, off, &n);
	r = rbtr_tp_reserve(&buf, data, off + n);
	if (!r)
		return;
	r->irq = irq;
	r->name = rbtr_tp_put_str(r, off, name, n);
	rbtr_tp_commit(buf, data, r, off + n);
}

static void notrace rbtr_write_irq_dur(int irq, struct irqaction *action, int ret,
				       const struct rbtr_dur_match *m)
{
	struct rbt_buffer *buf;
	const unsigned int off = offsetof(struct rbtr_rec_irq_handler_duration, __data);
	struct rbtr_rec_irq_handler_duration *r;
	const char *name;
	unsigned int n;

	name = rbtr_tp_str_src(&rbtr_global_trace, action->name, off, &n);
	r = rbtr_tp_dur_reserve(&buf, &rbtr_dur_types[RBTR_PAIR_IRQ], off + n);
	if (!r)
		return;
	r->start = m->start;
	r->duration = m->delta;
	r->irq = irq;
	r->ret = ret;
	r->name = rbtr_tp_put_str(r, off, name, n);
	rbtr_tp_dur_commit(buf, r);
}

static __always_inline void rbtr_tp_body_irq_handler_exit(void *data, int irq,
							  struct irqaction *action, int ret)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_irq_handler_exit *r;
	struct rbtr_dur_match m;

	switch (rbtr_dur_cpu_exit_hook(data, RBTR_PAIR_IRQ, irq, &m)) {
	case RBTR_DUR_OFF:
		break;
	case RBTR_DUR_KEEP:
		rbtr_write_irq_dur(irq, action, ret, &m);
		return;
	default:
		return;
	}
	r = rbtr_tp_reserve(&buf, data, sizeof(*r));
	if (!r)
		return;
	r->irq = irq;
	r->ret = ret;
	rbtr_tp_commit(buf, data, r, sizeof(*r));
}

static __always_inline void rbtr_write_softirq(struct rbtr_event_file *file, unsigned int vec)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_softirq *r;

	r = rbtr_tp_reserve(&buf, file, sizeof(*r));
	if (!r)
		return;
	r->vec = vec;
	rbtr_tp_commit(buf, file, r, sizeof(*r));
}

static __always_inline void rbtr_tp_body_softirq_entry(void *data, unsigned int vec)
{
	if (rbtr_dur_cpu_entry(data, RBTR_PAIR_SOFTIRQ, vec, 0, 0))
		return;
	rbtr_write_softirq(data, vec);
}

static __always_inline void rbtr_tp_body_softirq_exit(void *data, unsigned int vec)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_softirq_duration *r;
	struct rbtr_dur_match m;

	switch (rbtr_dur_cpu_exit_hook(data, RBTR_PAIR_SOFTIRQ, vec, &m)) {
	case RBTR_DUR_OFF:
		rbtr_write_softirq(data, vec);
		return;
	case RBTR_DUR_KEEP:
		break;
	default:
		return;
	}
	r = rbtr_tp_dur_reserve(&buf, &rbtr_dur_types[RBTR_PAIR_SOFTIRQ],
				offsetofend(typeof(*r), vec));
	if (!r)
		return;
	r->start = m.start;
	r->duration = m.delta;
	r->vec = vec;
	rbtr_tp_dur_commit(buf, r);
}

/* ---- probes: timer --------------------------------------------------------- */

static __always_inline void rbtr_tp_body_hrtimer_expire_entry(void *data, struct hrtimer *hrtimer,
							      ktime_t *now)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_hrtimer_expire_entry *r;

	if (rbtr_dur_cpu_entry(data, RBTR_PAIR_HRTIMER, (unsigned long)hrtimer,
			       (unsigned long)hrtimer->function, (unsigned long)*now))
		return;
	r = rbtr_tp_reserve(&buf, data, sizeof(*r));
	if (!r)
		return;
	r->hrtimer = hrtimer;
	r->now = *now;
	r->function = hrtimer->function;
	rbtr_tp_commit(buf, data, r, sizeof(*r));
}

static void notrace rbtr_write_hrtimer_dur(struct hrtimer *hrtimer, const struct rbtr_dur_match *m)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_hrtimer_expire_duration *r;

	r = rbtr_tp_dur_reserve(&buf, &rbtr_dur_types[RBTR_PAIR_HRTIMER], sizeof(*r));
	if (!r)
		return;
	r->start = m->start;
	r->duration = m->delta;
	r->hrtimer = hrtimer;
	r->function = (void *)m->data[0];
	r->now = (s64)m->data[1];
	rbtr_tp_dur_commit(buf, r);
}

static __always_inline void rbtr_tp_body_hrtimer_expire_exit(void *data, struct hrtimer *hrtimer)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_hrtimer_class *r;
	struct rbtr_dur_match m;

	switch (rbtr_dur_cpu_exit_hook(data, RBTR_PAIR_HRTIMER, (unsigned long)hrtimer, &m)) {
	case RBTR_DUR_OFF:
		break;
	case RBTR_DUR_KEEP:
		rbtr_write_hrtimer_dur(hrtimer, &m);
		return;
	default:
		return;
	}
	r = rbtr_tp_reserve(&buf, data, sizeof(*r));
	if (!r)
		return;
	r->hrtimer = hrtimer;
	rbtr_tp_commit(buf, data, r, sizeof(*r));
}

/* ---- probes: workqueue ----------------------------------------------------- */

static __always_inline void rbtr_write_work(struct rbtr_event_file *file, struct work_struct *work,
					    work_func_t function)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_workqueue_execute *r;

	r = rbtr_tp_reserve(&buf, file, sizeof(*r));
	if (!r)
		return;
	r->work = work;
	r->function = function;
	rbtr_tp_commit(buf, file, r, sizeof(*r));
}

static __always_inline void rbtr_tp_body_workqueue_execute_start(void *data,
								 struct work_struct *work)
{
	if (rbtr_dur_task_entry(data, RBTR_PAIR_WORK, (unsigned long)work, NULL, 0))
		return;
	rbtr_write_work(data, work, work->func);
}

static __always_inline void rbtr_tp_body_workqueue_execute_end(void *data, struct work_struct *work,
							       work_func_t function)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_workqueue_execute_duration *r;
	struct rbtr_dur_match m;

	switch (rbtr_dur_task_exit_hook(data, RBTR_PAIR_WORK, (unsigned long)work, &m, 0)) {
	case RBTR_DUR_OFF:
		rbtr_write_work(data, work, function);
		return;
	case RBTR_DUR_KEEP:
		break;
	default:
		return;
	}
	r = rbtr_tp_dur_reserve(&buf, &rbtr_dur_types[RBTR_PAIR_WORK], sizeof(*r));
	if (!r)
		return;
	r->start = m.start;
	r->duration = m.delta;
	r->work = work;
	r->function = function;
	rbtr_tp_dur_commit(buf, r);
}

/* ---- probes: raw_syscalls -------------------------------------------------- */

/*
 * The duration filter keeps sys_enter's id and arguments, in this order;
 * a task is in one syscall at a time: no key.
 */
#define RBTR_SYS_ID	0
#define RBTR_SYS_ARGS	1

static __always_inline void rbtr_tp_body_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct rbt_buffer *buf;
	unsigned long e[RBTR_SYS_ARGS + 6];
	struct rbtr_rec_sys_enter *r;

	BUILD_BUG_ON(ARRAY_SIZE(e) > RBTR_DUR_DATA);
	e[RBTR_SYS_ID] = id;
	syscall_get_arguments(current, regs, &e[RBTR_SYS_ARGS]);
	if (rbtr_dur_task_entry(data, RBTR_PAIR_SYSCALL, 0, e, ARRAY_SIZE(e)))
		return;
	r = rbtr_tp_reserve(&buf, data, sizeof(*r));
	if (!r)
		return;
	r->id = id;
	memcpy(r->args, &e[RBTR_SYS_ARGS], sizeof(r->args));
	rbtr_tp_commit(buf, data, r, sizeof(*r));
}

/* The syscall's number and arguments as sys_enter saw them. */
static void notrace rbtr_write_sys_dur(long ret, const struct rbtr_dur_match *m)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_sys_duration *r;

	r = rbtr_tp_dur_reserve(&buf, &rbtr_dur_types[RBTR_PAIR_SYSCALL], sizeof(*r));
	if (!r)
		return;
	r->start = m->start;
	r->duration = m->delta;
	r->id = m->data[RBTR_SYS_ID];
	memcpy(r->args, &m->data[RBTR_SYS_ARGS], sizeof(r->args));
	r->ret = ret;
	rbtr_tp_dur_commit(buf, r);
}

static __always_inline void rbtr_tp_body_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct rbt_buffer *buf;
	struct rbtr_rec_sys_exit *r;
	struct rbtr_dur_match m;

	switch (rbtr_dur_task_exit_hook(data, RBTR_PAIR_SYSCALL, 0, &m, RBTR_SYS_ARGS + 6)) {
	case RBTR_DUR_OFF:
		break;
	case RBTR_DUR_KEEP:
		rbtr_write_sys_dur(ret, &m);
		return;
	default:
		return;
	}
	r = rbtr_tp_reserve(&buf, data, sizeof(*r));
	if (!r)
		return;
	r->id = syscall_get_nr(current, regs);
	r->ret = ret;
	rbtr_tp_commit(buf, data, r, sizeof(*r));
}

/* ---- the probes ------------------------------------------------------------------ */

/*
 * Each probe as the tracepoint calls it: the event's code with
 * preemption off. On 6.1 and 6.12 the tracepoint has it off already;
 * from Linux 7.0 it calls its probes under SRCU, preemptible, and the
 * code needs it off from the live buffer's read to the commit (the
 * buffer is freed a grace period after a snapshot swapped it out,
 * snapshot.c), for its per-CPU duration state (duration.c) and for the
 * file's condition and filter, read under sched-RCU. The context of the
 * record leaves this level out (rbtr_tp_ctx()).
 */
#define RBTR_TP_EVENT(name, class, system, pair, is_exit, proto, args)	\
	static void notrace rbtr_probe_##name(void *data, proto)		\
	{									\
		preempt_disable_notrace();					\
		rbtr_tp_body_##name(data, args);				\
		preempt_enable_notrace();					\
	}									\
	RBTR_TP_UNUSED(class, system, pair, is_exit)
#include "tp_events.h"

/* ---- the table of probes ----------------------------------------------------- */

/* The probes of the events of tp_events.h, in its order. */
struct rbtr_tp_event rbtr_tp_events[RBTR_TP_NR] = {
#define RBTR_TP_EVENT(name, class, system, _pair, _is_exit, proto, args)	\
	[RBTR_TP_##name] = {							\
		.probe = rbtr_probe_##name, .pair = (_pair), .is_exit = (_is_exit) \
	}, RBTR_TP_UNUSED(class, system, proto, args)
#include "tp_events.h"
};
