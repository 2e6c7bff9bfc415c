// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace tracepoint events: probes attached at run time to the running
 * kernel's tracepoints (seed 004), writing records laid out exactly as
 * the kernel's own events of the same names, so that a format file of
 * rbtrace reads like tracefs's (same fields, offsets, sizes, signedness
 * and print fmt) and libtraceevent and trace-cmd parse the records alike.
 *
 *	sched		sched_switch sched_wakeup sched_waking sched_process_fork
 *			sched_process_exec sched_process_exit
 *	irq		irq_handler_entry irq_handler_exit softirq_entry softirq_exit
 *	timer		hrtimer_expire_entry hrtimer_expire_exit
 *	workqueue	workqueue_execute_start workqueue_execute_end
 *	raw_syscalls	sys_enter sys_exit
 *
 * Tracepoints are found by name among the kernel's own
 * (for_each_kernel_tracepoint()) at load; one this kernel lacks leaves
 * its event out, with one line in the log. A probe is registered only
 * while its event is enabled (its enable file, set_event): a disabled
 * event costs the kernel nothing but the tracepoint's static branch.
 * Unload unregisters them all and waits for the probes in flight
 * (tracepoint_synchronize_unregister()) before the buffer goes away.
 *
 * Probes run in any context the tracepoint fires in (the scheduler with
 * its run-queue lock held, hard IRQ, softirq): they take no lock, never
 * allocate, never sleep, are notrace, and only reserve, fill and commit a
 * record. The paired events also consult the duration filter
 * (tracing_thresh): see rb_duration.c for its design.
 */
#include <linux/binfmts.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/syscall.h>
#include <rbtrace/rbtrace.h>
#include "rb_events.h"
#include "rb_debugfs.h"
#include "rb_tracepoints.h"

/* ---- records: the kernel's layouts (include/trace/events/) ------------- */

#define RB_COMM_LEN	16	/* TASK_COMM_LEN, spelt out in field names */

struct rb_rec_sched_switch {
	struct rb_entry	ent;
	char		prev_comm[RB_COMM_LEN];
	pid_t		prev_pid;
	int		prev_prio;
	long		prev_state;
	char		next_comm[RB_COMM_LEN];
	pid_t		next_pid;
	int		next_prio;
};

/* sched_wakeup, sched_waking */
struct rb_rec_sched_wakeup {
	struct rb_entry	ent;
	char		comm[RB_COMM_LEN];
	pid_t		pid;
	int		prio;
	int		target_cpu;
};

struct rb_rec_sched_fork {
	struct rb_entry	ent;
	char		parent_comm[RB_COMM_LEN];
	pid_t		parent_pid;
	char		child_comm[RB_COMM_LEN];
	pid_t		child_pid;
};

struct rb_rec_sched_exec {
	struct rb_entry	ent;
	u32		filename;	/* __data_loc: (len << 16) | offset */
	pid_t		pid;
	pid_t		old_pid;
	char		data[];
};

struct rb_rec_sched_exit {
	struct rb_entry	ent;
	char		comm[RB_COMM_LEN];
	pid_t		pid;
	int		prio;
};

struct rb_rec_irq_entry {
	struct rb_entry	ent;
	int		irq;
	u32		name;		/* __data_loc */
	char		data[];
};

struct rb_rec_irq_exit {
	struct rb_entry	ent;
	int		irq;
	int		ret;
};

/* softirq_entry, softirq_exit */
struct rb_rec_softirq {
	struct rb_entry	ent;
	unsigned int	vec;
};

struct rb_rec_hrtimer_entry {
	struct rb_entry	ent;
	void		*hrtimer;
	s64		now;
	void		*function;
};

struct rb_rec_hrtimer_exit {
	struct rb_entry	ent;
	void		*hrtimer;
};

/* workqueue_execute_start, workqueue_execute_end */
struct rb_rec_work {
	struct rb_entry	ent;
	void		*work;
	void		*function;
};

struct rb_rec_sys_enter {
	struct rb_entry	ent;
	long		id;
	unsigned long	args[6];
};

struct rb_rec_sys_exit {
	struct rb_entry	ent;
	long		id;
	long		ret;
};

/*
 * The duration filter's events (rb_duration.c): one per kept pair, at the
 * exit, with the start time and the duration (buffer clock), then the
 * entry's and the exit's fields.
 */
struct rb_rec_irq_dur {
	struct rb_entry	ent;
	u64		start;
	u64		duration;
	int		irq;
	int		ret;
	u32		name;		/* __data_loc */
	char		data[];
};

struct rb_rec_softirq_dur {
	struct rb_entry	ent;
	u64		start;
	u64		duration;
	unsigned int	vec;
};

struct rb_rec_hrtimer_dur {
	struct rb_entry	ent;
	u64		start;
	u64		duration;
	void		*hrtimer;
	s64		now;
	void		*function;
};

struct rb_rec_work_dur {
	struct rb_entry	ent;
	u64		start;
	u64		duration;
	void		*work;
	void		*function;
};

struct rb_rec_sys_dur {
	struct rb_entry	ent;
	u64		start;
	u64		duration;
	long		id;
	unsigned long	args[6];
	long		ret;
};

/* ---- fields: what the format files list --------------------------------- */

/*
 * An array or a __data_loc (record member @e): signed as its element type
 * @elem, as the kernel's __array() and __dynamic_array() (char is signed
 * on 6.1, unsigned since 6.2's -funsigned-char: this build's compiler
 * knows which).
 */
#define RB_TP_ARRAY(e, elem, t, n, k) {					\
	.type = (t), .name = (n), .offset = (size_t)&(e),		\
	.size = sizeof(e), .is_signed = is_signed_type(elem), .kind = (k) }

/* A comm: char[TASK_COMM_LEN], shown as a string. */
#define RB_TP_COMM(e, n)	RB_TP_ARRAY(e, char, "char", n, RB_FIELD_CHARS)

#define N	RB_FIELD_NUM
#define H	RB_FIELD_HEX
#define S	RB_FIELD_STRLOC

static const struct rb_field rb_f_sched_switch[] = {
	RB_TP_COMM(RB_REC(struct rb_rec_sched_switch)->prev_comm, "prev_comm[16]"),
	RB_FIELD(RB_REC(struct rb_rec_sched_switch)->prev_pid, "pid_t", "prev_pid", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_switch)->prev_prio, "int", "prev_prio", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_switch)->prev_state, "long", "prev_state", N),
	RB_TP_COMM(RB_REC(struct rb_rec_sched_switch)->next_comm, "next_comm[16]"),
	RB_FIELD(RB_REC(struct rb_rec_sched_switch)->next_pid, "pid_t", "next_pid", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_switch)->next_prio, "int", "next_prio", N),
};

static const struct rb_field rb_f_sched_wakeup[] = {
	RB_TP_COMM(RB_REC(struct rb_rec_sched_wakeup)->comm, "comm[16]"),
	RB_FIELD(RB_REC(struct rb_rec_sched_wakeup)->pid, "pid_t", "pid", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_wakeup)->prio, "int", "prio", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_wakeup)->target_cpu, "int", "target_cpu", N),
};

static const struct rb_field rb_f_sched_fork[] = {
	RB_TP_COMM(RB_REC(struct rb_rec_sched_fork)->parent_comm, "parent_comm[16]"),
	RB_FIELD(RB_REC(struct rb_rec_sched_fork)->parent_pid, "pid_t", "parent_pid", N),
	RB_TP_COMM(RB_REC(struct rb_rec_sched_fork)->child_comm, "child_comm[16]"),
	RB_FIELD(RB_REC(struct rb_rec_sched_fork)->child_pid, "pid_t", "child_pid", N),
};

static const struct rb_field rb_f_sched_exec[] = {
	RB_TP_ARRAY(RB_REC(struct rb_rec_sched_exec)->filename, char,
		    "__data_loc char[]", "filename", S),
	RB_FIELD(RB_REC(struct rb_rec_sched_exec)->pid, "pid_t", "pid", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_exec)->old_pid, "pid_t", "old_pid", N),
};

static const struct rb_field rb_f_sched_exit[] = {
	RB_TP_COMM(RB_REC(struct rb_rec_sched_exit)->comm, "comm[16]"),
	RB_FIELD(RB_REC(struct rb_rec_sched_exit)->pid, "pid_t", "pid", N),
	RB_FIELD(RB_REC(struct rb_rec_sched_exit)->prio, "int", "prio", N),
};

static const struct rb_field rb_f_irq_entry[] = {
	RB_FIELD(RB_REC(struct rb_rec_irq_entry)->irq, "int", "irq", N),
	RB_TP_ARRAY(RB_REC(struct rb_rec_irq_entry)->name, char, "__data_loc char[]", "name", S),
};

static const struct rb_field rb_f_irq_exit[] = {
	RB_FIELD(RB_REC(struct rb_rec_irq_exit)->irq, "int", "irq", N),
	RB_FIELD(RB_REC(struct rb_rec_irq_exit)->ret, "int", "ret", N),
};

static const struct rb_field rb_f_softirq[] = {
	RB_FIELD(RB_REC(struct rb_rec_softirq)->vec, "unsigned int", "vec", N),
};

static const struct rb_field rb_f_hrtimer_entry[] = {
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_entry)->hrtimer, "void *", "hrtimer", H),
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_entry)->now, "s64", "now", N),
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_entry)->function, "void *", "function", H),
};

static const struct rb_field rb_f_hrtimer_exit[] = {
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_exit)->hrtimer, "void *", "hrtimer", H),
};

static const struct rb_field rb_f_work[] = {
	RB_FIELD(RB_REC(struct rb_rec_work)->work, "void *", "work", H),
	RB_FIELD(RB_REC(struct rb_rec_work)->function, "void *", "function", H),
};

static const struct rb_field rb_f_sys_enter[] = {
	RB_FIELD(RB_REC(struct rb_rec_sys_enter)->id, "long", "id", N),
	RB_TP_ARRAY(RB_REC(struct rb_rec_sys_enter)->args, unsigned long,
		    "unsigned long", "args[6]", RB_FIELD_BYTES),
};

static const struct rb_field rb_f_sys_exit[] = {
	RB_FIELD(RB_REC(struct rb_rec_sys_exit)->id, "long", "id", N),
	RB_FIELD(RB_REC(struct rb_rec_sys_exit)->ret, "long", "ret", N),
};

static const struct rb_field rb_f_irq_dur[] = {
	RB_FIELD(RB_REC(struct rb_rec_irq_dur)->start, "u64", "start", N),
	RB_FIELD(RB_REC(struct rb_rec_irq_dur)->duration, "u64", "duration", N),
	RB_FIELD(RB_REC(struct rb_rec_irq_dur)->irq, "int", "irq", N),
	RB_FIELD(RB_REC(struct rb_rec_irq_dur)->ret, "int", "ret", N),
	RB_TP_ARRAY(RB_REC(struct rb_rec_irq_dur)->name, char, "__data_loc char[]", "name", S),
};

static const struct rb_field rb_f_softirq_dur[] = {
	RB_FIELD(RB_REC(struct rb_rec_softirq_dur)->start, "u64", "start", N),
	RB_FIELD(RB_REC(struct rb_rec_softirq_dur)->duration, "u64", "duration", N),
	RB_FIELD(RB_REC(struct rb_rec_softirq_dur)->vec, "unsigned int", "vec", N),
};

static const struct rb_field rb_f_hrtimer_dur[] = {
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_dur)->start, "u64", "start", N),
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_dur)->duration, "u64", "duration", N),
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_dur)->hrtimer, "void *", "hrtimer", H),
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_dur)->now, "s64", "now", N),
	RB_FIELD(RB_REC(struct rb_rec_hrtimer_dur)->function, "void *", "function", H),
};

static const struct rb_field rb_f_work_dur[] = {
	RB_FIELD(RB_REC(struct rb_rec_work_dur)->start, "u64", "start", N),
	RB_FIELD(RB_REC(struct rb_rec_work_dur)->duration, "u64", "duration", N),
	RB_FIELD(RB_REC(struct rb_rec_work_dur)->work, "void *", "work", H),
	RB_FIELD(RB_REC(struct rb_rec_work_dur)->function, "void *", "function", H),
};

static const struct rb_field rb_f_sys_dur[] = {
	RB_FIELD(RB_REC(struct rb_rec_sys_dur)->start, "u64", "start", N),
	RB_FIELD(RB_REC(struct rb_rec_sys_dur)->duration, "u64", "duration", N),
	RB_FIELD(RB_REC(struct rb_rec_sys_dur)->id, "long", "id", N),
	RB_TP_ARRAY(RB_REC(struct rb_rec_sys_dur)->args, unsigned long,
		    "unsigned long", "args[6]", RB_FIELD_BYTES),
	RB_FIELD(RB_REC(struct rb_rec_sys_dur)->ret, "long", "ret", N),
};

#undef N
#undef H
#undef S

/* ---- print fmt: the kernel's, byte for byte ---------------------------- */

enum rb_tp_id {
	RB_TP_SCHED_SWITCH,
	RB_TP_SCHED_WAKEUP,
	RB_TP_SCHED_WAKING,
	RB_TP_SCHED_FORK,
	RB_TP_SCHED_EXEC,
	RB_TP_SCHED_EXIT,
	RB_TP_IRQ_ENTRY,
	RB_TP_IRQ_EXIT,
	RB_TP_SOFTIRQ_ENTRY,
	RB_TP_SOFTIRQ_EXIT,
	RB_TP_HRTIMER_ENTRY,
	RB_TP_HRTIMER_EXIT,
	RB_TP_WORK_START,
	RB_TP_WORK_END,
	RB_TP_SYS_ENTER,
	RB_TP_SYS_EXIT,
	RB_TP_NR
};

#define RB_SOFTIRQ_SYMBOLS						\
	"__print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" })"

static const char * const rb_tp_print_fmt[RB_TP_NR] = {
	/*
	 * The kernel's TP_printk() arguments, with its macros: the
	 * preprocessor expands and stringifies them as it does for the
	 * kernel (include/trace/events/sched.h), so the text follows this
	 * kernel's task state bits.
	 */
	[RB_TP_SCHED_SWITCH] =
		"\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
		__stringify(REC->prev_comm, REC->prev_pid, REC->prev_prio,
			    (REC->prev_state & (TASK_REPORT_MAX - 1)) ?
			    __print_flags(REC->prev_state & (TASK_REPORT_MAX - 1), "|",
					  { TASK_INTERRUPTIBLE, "S" },
					  { TASK_UNINTERRUPTIBLE, "D" },
					  { __TASK_STOPPED, "T" },
					  { __TASK_TRACED, "t" },
					  { EXIT_DEAD, "X" },
					  { EXIT_ZOMBIE, "Z" },
					  { TASK_PARKED, "P" },
					  { TASK_DEAD, "I" }) :
			    "R",
			    REC->prev_state & TASK_REPORT_MAX ? "+" : "",
			    REC->next_comm, REC->next_pid, REC->next_prio),
	[RB_TP_SCHED_WAKEUP] =
		"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
	[RB_TP_SCHED_WAKING] =
		"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
	[RB_TP_SCHED_FORK] =
		"\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid",
	[RB_TP_SCHED_EXEC] =
		"\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid",
	[RB_TP_SCHED_EXIT] =
		"\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio",
	[RB_TP_IRQ_ENTRY] =
		"\"irq=%d name=%s\", REC->irq, __get_str(name)",
	[RB_TP_IRQ_EXIT] =
		"\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"",
	[RB_TP_SOFTIRQ_ENTRY] =
		"\"vec=%u [action=%s]\", REC->vec, " RB_SOFTIRQ_SYMBOLS,
	[RB_TP_SOFTIRQ_EXIT] =
		"\"vec=%u [action=%s]\", REC->vec, " RB_SOFTIRQ_SYMBOLS,
	[RB_TP_HRTIMER_ENTRY] =
		"\"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, (unsigned long long) REC->now",
	[RB_TP_HRTIMER_EXIT] =
		"\"hrtimer=%p\", REC->hrtimer",
	[RB_TP_WORK_START] =
		"\"work struct %p: function %ps\", REC->work, REC->function",
	[RB_TP_WORK_END] =
		"\"work struct %p: function %ps\", REC->work, REC->function",
	[RB_TP_SYS_ENTER] =
		"\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]",
	[RB_TP_SYS_EXIT] =
		"\"NR %ld = %ld\", REC->id, REC->ret",
};

/* The duration events': the entry's and exit's, then start and duration. */
static const char * const rb_dur_print_fmt[RB_PAIR_NR] = {
	[RB_PAIR_IRQ] =
		"\"irq=%d name=%s ret=%s start=%llu duration=%llu\", REC->irq, __get_str(name), REC->ret ? \"handled\" : \"unhandled\", REC->start, REC->duration",
	[RB_PAIR_SOFTIRQ] =
		"\"vec=%u [action=%s] start=%llu duration=%llu\", REC->vec, " RB_SOFTIRQ_SYMBOLS
		", REC->start, REC->duration",
	[RB_PAIR_HRTIMER] =
		"\"hrtimer=%p function=%ps now=%llu start=%llu duration=%llu\", REC->hrtimer, REC->function, (unsigned long long) REC->now, REC->start, REC->duration",
	[RB_PAIR_WORK] =
		"\"work struct %p: function %ps start=%llu duration=%llu\", REC->work, REC->function, REC->start, REC->duration",
	[RB_PAIR_SYSCALL] =
		"\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx) = %ld start=%llu duration=%llu\", REC->id, REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5], REC->ret, REC->start, REC->duration",
};

/* ---- text: what the kernel's trace file shows for each ----------------- */

/* A record shorter than its fixed part (never written so): say so. */
static bool rb_tp_short(struct seq_buf *s, const struct rb_event_type *type,
			unsigned int len, unsigned int need)
{
	if (len >= need)
		return false;
	seq_buf_printf(s, "%s: (short record: %u bytes)\n", type->name, len);
	return true;
}

/* A __data_loc string of @rec, or a placeholder when it does not fit. */
static const char *rb_tp_str(const void *rec, unsigned int len, u32 loc, int *n)
{
	unsigned int off = loc & 0xffff, size = loc >> 16;

	if (!size || off + size > len) {
		*n = 5;
		return "(bad)";
	}
	*n = strnlen(rec + off, size);
	return rec + off;
}

/* __print_flags() of the task states, then "+" when preempted. */
static void rb_print_prev_state(struct seq_buf *s, long state)
{
	static const struct { unsigned int bit; char c; } flags[] = {
		{ TASK_INTERRUPTIBLE, 'S' }, { TASK_UNINTERRUPTIBLE, 'D' },
		{ __TASK_STOPPED, 'T' }, { __TASK_TRACED, 't' },
		{ EXIT_DEAD, 'X' }, { EXIT_ZOMBIE, 'Z' },
		{ TASK_PARKED, 'P' }, { TASK_DEAD, 'I' },
	};
	unsigned long left = state & (TASK_REPORT_MAX - 1);
	const char *delim = "";
	unsigned int i;

	if (!left)
		seq_buf_printf(s, "R");
	for (i = 0; i < ARRAY_SIZE(flags) && left; i++) {
		if ((left & flags[i].bit) != flags[i].bit)
			continue;
		seq_buf_printf(s, "%s%c", delim, flags[i].c);
		delim = "|";
		left &= ~flags[i].bit;
	}
	if (left)
		seq_buf_printf(s, "%s0x%lx", delim, left);
	if (state & TASK_REPORT_MAX)
		seq_buf_printf(s, "+");
}

static void rb_print_sched_switch(struct seq_buf *s, const struct rb_event_type *type,
				  const void *rec, unsigned int len)
{
	const struct rb_rec_sched_switch *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: prev_comm=%.*s prev_pid=%d prev_prio=%d prev_state=",
		       type->name, RB_COMM_LEN, r->prev_comm, r->prev_pid, r->prev_prio);
	rb_print_prev_state(s, r->prev_state);
	seq_buf_printf(s, " ==> next_comm=%.*s next_pid=%d next_prio=%d\n",
		       RB_COMM_LEN, r->next_comm, r->next_pid, r->next_prio);
}

static void rb_print_sched_wakeup(struct seq_buf *s, const struct rb_event_type *type,
				  const void *rec, unsigned int len)
{
	const struct rb_rec_sched_wakeup *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: comm=%.*s pid=%d prio=%d target_cpu=%03d\n", type->name,
		       RB_COMM_LEN, r->comm, r->pid, r->prio, r->target_cpu);
}

static void rb_print_sched_fork(struct seq_buf *s, const struct rb_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rb_rec_sched_fork *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: comm=%.*s pid=%d child_comm=%.*s child_pid=%d\n", type->name,
		       RB_COMM_LEN, r->parent_comm, r->parent_pid, RB_COMM_LEN, r->child_comm,
		       r->child_pid);
}

static void rb_print_sched_exec(struct seq_buf *s, const struct rb_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rb_rec_sched_exec *r = rec;
	const char *str;
	int n;

	if (rb_tp_short(s, type, len, offsetof(typeof(*r), data)))
		return;
	str = rb_tp_str(rec, len, r->filename, &n);
	seq_buf_printf(s, "%s: filename=%.*s pid=%d old_pid=%d\n", type->name, n, str,
		       r->pid, r->old_pid);
}

static void rb_print_sched_exit(struct seq_buf *s, const struct rb_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rb_rec_sched_exit *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: comm=%.*s pid=%d prio=%d\n", type->name,
		       RB_COMM_LEN, r->comm, r->pid, r->prio);
}

static void rb_print_irq_entry(struct seq_buf *s, const struct rb_event_type *type,
			       const void *rec, unsigned int len)
{
	const struct rb_rec_irq_entry *r = rec;
	const char *str;
	int n;

	if (rb_tp_short(s, type, len, offsetof(typeof(*r), data)))
		return;
	str = rb_tp_str(rec, len, r->name, &n);
	seq_buf_printf(s, "%s: irq=%d name=%.*s\n", type->name, r->irq, n, str);
}

static void rb_print_irq_exit(struct seq_buf *s, const struct rb_event_type *type,
			      const void *rec, unsigned int len)
{
	const struct rb_rec_irq_exit *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: irq=%d ret=%s\n", type->name, r->irq,
		       r->ret ? "handled" : "unhandled");
}

/* show_softirq_name(): __print_symbolic() of the vector. */
static void rb_print_vec(struct seq_buf *s, unsigned int vec)
{
	static const char * const names[] = {
		"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL",
		"TASKLET", "SCHED", "HRTIMER", "RCU",
	};

	if (vec < ARRAY_SIZE(names))
		seq_buf_printf(s, "vec=%u [action=%s]", vec, names[vec]);
	else
		seq_buf_printf(s, "vec=%u [action=0x%x]", vec, vec);
}

static void rb_print_softirq(struct seq_buf *s, const struct rb_event_type *type,
			     const void *rec, unsigned int len)
{
	const struct rb_rec_softirq *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: ", type->name);
	rb_print_vec(s, r->vec);
	seq_buf_printf(s, "\n");
}

static void rb_print_hrtimer_entry(struct seq_buf *s, const struct rb_event_type *type,
				   const void *rec, unsigned int len)
{
	const struct rb_rec_hrtimer_entry *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: hrtimer=%p function=%ps now=%llu\n", type->name,
		       r->hrtimer, r->function, (unsigned long long)r->now);
}

static void rb_print_hrtimer_exit(struct seq_buf *s, const struct rb_event_type *type,
				  const void *rec, unsigned int len)
{
	const struct rb_rec_hrtimer_exit *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: hrtimer=%p\n", type->name, r->hrtimer);
}

static void rb_print_work(struct seq_buf *s, const struct rb_event_type *type,
			  const void *rec, unsigned int len)
{
	const struct rb_rec_work *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: work struct %p: function %ps\n", type->name, r->work,
		       r->function);
}

static void rb_print_args(struct seq_buf *s, const unsigned long *args)
{
	seq_buf_printf(s, "(%lx, %lx, %lx, %lx, %lx, %lx)", args[0], args[1], args[2],
		       args[3], args[4], args[5]);
}

static void rb_print_sys_enter(struct seq_buf *s, const struct rb_event_type *type,
			       const void *rec, unsigned int len)
{
	const struct rb_rec_sys_enter *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: NR %ld ", type->name, r->id);
	rb_print_args(s, r->args);
	seq_buf_printf(s, "\n");
}

static void rb_print_sys_exit(struct seq_buf *s, const struct rb_event_type *type,
			      const void *rec, unsigned int len)
{
	const struct rb_rec_sys_exit *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: NR %ld = %ld\n", type->name, r->id, r->ret);
}

static void rb_print_dur(struct seq_buf *s, u64 start, u64 duration)
{
	seq_buf_printf(s, " start=%llu duration=%llu\n", start, duration);
}

static void rb_print_irq_dur(struct seq_buf *s, const struct rb_event_type *type,
			     const void *rec, unsigned int len)
{
	const struct rb_rec_irq_dur *r = rec;
	const char *str;
	int n;

	if (rb_tp_short(s, type, len, offsetof(typeof(*r), data)))
		return;
	str = rb_tp_str(rec, len, r->name, &n);
	seq_buf_printf(s, "%s: irq=%d name=%.*s ret=%s", type->name, r->irq, n, str,
		       r->ret ? "handled" : "unhandled");
	rb_print_dur(s, r->start, r->duration);
}

static void rb_print_softirq_dur(struct seq_buf *s, const struct rb_event_type *type,
				 const void *rec, unsigned int len)
{
	const struct rb_rec_softirq_dur *r = rec;

	if (rb_tp_short(s, type, len, offsetofend(typeof(*r), vec)))
		return;
	seq_buf_printf(s, "%s: ", type->name);
	rb_print_vec(s, r->vec);
	rb_print_dur(s, r->start, r->duration);
}

static void rb_print_hrtimer_dur(struct seq_buf *s, const struct rb_event_type *type,
				 const void *rec, unsigned int len)
{
	const struct rb_rec_hrtimer_dur *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: hrtimer=%p function=%ps now=%llu", type->name,
		       r->hrtimer, r->function, (unsigned long long)r->now);
	rb_print_dur(s, r->start, r->duration);
}

static void rb_print_work_dur(struct seq_buf *s, const struct rb_event_type *type,
			      const void *rec, unsigned int len)
{
	const struct rb_rec_work_dur *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: work struct %p: function %ps", type->name, r->work,
		       r->function);
	rb_print_dur(s, r->start, r->duration);
}

static void rb_print_sys_dur(struct seq_buf *s, const struct rb_event_type *type,
			     const void *rec, unsigned int len)
{
	const struct rb_rec_sys_dur *r = rec;

	if (rb_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: NR %ld ", type->name, r->id);
	rb_print_args(s, r->args);
	seq_buf_printf(s, " = %ld", r->ret);
	rb_print_dur(s, r->start, r->duration);
}

/* ---- the event table --------------------------------------------------- */

/**
 * struct rb_tp_event - an event fed by a kernel tracepoint of its name
 * @type: the registry's type; type.name is the tracepoint's name
 * @probe: the probe, of the tracepoint's prototype
 * @tp: the tracepoint, if this kernel has it
 * @pair: the duration-filter pair it belongs to, or -1
 * @is_exit: the pair's exit event (else its entry)
 * @registered: in the registry (from load to unload)
 */
struct rb_tp_event {
	struct rb_event_type	type;
	void			*probe;
	struct tracepoint	*tp;
	int			pair;
	bool			is_exit;
	bool			registered;
};

/* Defined below, with the probes it names. */
static struct rb_tp_event rb_tp_events[RB_TP_NR];
static struct rb_event_type rb_dur_types[RB_PAIR_NR];
static bool rb_dur_registered[RB_PAIR_NR];

/* ---- writing records ----------------------------------------------------- */

/*
 * The context of the traced code: without the preemption the tracepoint
 * disabled around its probes, as ftrace's tracing_gen_ctx_dec() for its
 * own events, so that common_preempt_count reads as the kernel's.
 */
static __always_inline unsigned int rb_tp_ctx(void)
{
	unsigned int ctx = rb_trace_ctx();

	if (IS_ENABLED(CONFIG_PREEMPTION) && (ctx & 0xf))
		ctx--;
	return ctx;
}

static __always_inline void *rb_tp_reserve(const struct rb_event_type *type,
					   unsigned int size)
{
	return rb_event_reserve(rb_fs_buffer, type, size, rb_tp_ctx());
}

static __always_inline void rb_tp_commit(void)
{
	rb_event_commit(rb_fs_buffer);
}

/*
 * Append the string @str at @off of a record reserved with room for it
 * (@n bytes with its NUL), zero the bytes up to the next four-byte
 * boundary (the buffer rounds records up; readers must not see old data
 * there), and return its __data_loc.
 */
static __always_inline u32 rb_tp_put_str(void *rec, unsigned int off, const char *str,
					 unsigned int n)
{
	unsigned int end = ALIGN(off + n, 4);

	memcpy(rec + off, str, n - 1);
	memset(rec + off + n - 1, 0, end - (off + n - 1));
	return (n << 16) | off;
}

/* strlen + 1, with the kernel's "(null)" for a NULL string. */
static __always_inline const char *rb_tp_str_src(const char *str, unsigned int *n)
{
	if (!str)
		str = "(null)";
	*n = strlen(str) + 1;
	return str;
}

/* __trace_sched_switch_state() of include/trace/events/sched.h */
static __always_inline long rb_switch_state(bool preempt, unsigned int prev_state,
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
static __always_inline u64 rb_dur_now(void)
{
	return rbt_time_stamp(rb_fs_buffer);
}

/*
 * The filter's state for pair @p: its threshold (0: filter off for it) and
 * the generation it goes with, taken together as a seqcount reader (see
 * rb_dur_update_locked()); a generation of 0 when a change was under way.
 */
static __always_inline u64 rb_dur_state(const struct rb_dur_pair *p, unsigned int *gen)
{
	unsigned int g;
	u64 thresh;

	/* The generation before the threshold. Pairs with smp_store_release(). */
	g = smp_load_acquire(&rb_dur_gen);
	thresh = READ_ONCE(p->thresh);
	/* The threshold before the check. Pairs with smp_wmb() of the writer. */
	smp_rmb();
	if ((g & 1) || READ_ONCE(rb_dur_gen) != g)
		g = 0;
	*gen = g;
	return thresh;
}

/* Return value of the exit hooks when the filter is off: record the exit. */
#define RB_DUR_OFF	(-1)

/* An entry of a per-CPU pair. Return: true when the filter took it. */
static __always_inline bool rb_dur_cpu_entry(enum rb_pair_id id, unsigned long key,
					     unsigned long d0, unsigned long d1)
{
	struct rb_dur_pair *p = &rb_dur_pairs[id];
	unsigned int gen;

	if (!rb_dur_state(p, &gen))
		return false;
	rb_dur_cpu_enter(rb_dur_cpu_slot(p->cpu), key, rb_dur_now(), gen, d0, d1);
	return true;
}

/* An exit of a per-CPU pair. Return: RB_DUR_OFF or the verdict. */
static __always_inline int rb_dur_cpu_exit_hook(enum rb_pair_id id, unsigned long key,
						struct rb_dur_match *m)
{
	struct rb_dur_pair *p = &rb_dur_pairs[id];
	enum rb_dur_verdict v;
	unsigned int gen;
	u64 now, thresh;

	now = rb_dur_now();
	thresh = rb_dur_state(p, &gen);
	if (!thresh)
		return RB_DUR_OFF;
	v = rb_dur_cpu_exit(rb_dur_cpu_slot(p->cpu), key, now, gen, thresh, m);
	this_cpu_inc(p->stats->n[v]);
	return v;
}

static __always_inline void rb_dur_tkey_init(struct rb_dur_tkey *k, unsigned long key)
{
	k->pid = current->pid;
	k->cookie = current->start_time;
	k->key = key;
}

/* An entry of a per-task pair. Return: true when the filter took it. */
static __always_inline bool rb_dur_task_entry(enum rb_pair_id id, unsigned long key,
					      const unsigned long *data, unsigned int n)
{
	struct rb_dur_pair *p = &rb_dur_pairs[id];
	struct rb_dur_tkey k;
	unsigned int gen;

	if (!rb_dur_state(p, &gen))
		return false;
	if (!gen)
		return true;
	rb_dur_tkey_init(&k, key);
	if (rb_dur_task_enter(&p->table, &k, rb_dur_now(), gen, data, n))
		this_cpu_inc(p->stats->collisions);
	return true;
}

/* An exit of a per-task pair. Return: RB_DUR_OFF or the verdict. */
static __always_inline int rb_dur_task_exit_hook(enum rb_pair_id id, unsigned long key,
						 struct rb_dur_match *m, unsigned int n)
{
	struct rb_dur_pair *p = &rb_dur_pairs[id];
	enum rb_dur_verdict v;
	struct rb_dur_tkey k;
	unsigned int gen;
	u64 now, thresh;

	now = rb_dur_now();
	thresh = rb_dur_state(p, &gen);
	if (!thresh)
		return RB_DUR_OFF;
	rb_dur_tkey_init(&k, key);
	v = rb_dur_task_exit(&p->table, &k, now, gen, thresh, m, n);
	this_cpu_inc(p->stats->n[v]);
	return v;
}

/* ---- probes: sched -------------------------------------------------------- */

static void notrace rb_probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
					  struct task_struct *next, unsigned int prev_state)
{
	struct rb_rec_sched_switch *r;

	r = rb_tp_reserve(&rb_tp_events[RB_TP_SCHED_SWITCH].type, sizeof(*r));
	if (!r)
		return;
	memcpy(r->prev_comm, prev->comm, RB_COMM_LEN);
	r->prev_pid = prev->pid;
	r->prev_prio = prev->prio;
	r->prev_state = rb_switch_state(preempt, prev_state, prev);
	memcpy(r->next_comm, next->comm, RB_COMM_LEN);
	r->next_pid = next->pid;
	r->next_prio = next->prio;
	rb_tp_commit();
}

static __always_inline void rb_write_wakeup(enum rb_tp_id id, struct task_struct *p)
{
	struct rb_rec_sched_wakeup *r;

	r = rb_tp_reserve(&rb_tp_events[id].type, sizeof(*r));
	if (!r)
		return;
	memcpy(r->comm, p->comm, RB_COMM_LEN);
	r->pid = p->pid;
	r->prio = p->prio;
	r->target_cpu = task_cpu(p);
	rb_tp_commit();
}

static void notrace rb_probe_sched_wakeup(void *data, struct task_struct *p)
{
	rb_write_wakeup(RB_TP_SCHED_WAKEUP, p);
}

static void notrace rb_probe_sched_waking(void *data, struct task_struct *p)
{
	rb_write_wakeup(RB_TP_SCHED_WAKING, p);
}

static void notrace rb_probe_sched_fork(void *data, struct task_struct *parent,
					struct task_struct *child)
{
	struct rb_rec_sched_fork *r;

	r = rb_tp_reserve(&rb_tp_events[RB_TP_SCHED_FORK].type, sizeof(*r));
	if (!r)
		return;
	memcpy(r->parent_comm, parent->comm, RB_COMM_LEN);
	r->parent_pid = parent->pid;
	memcpy(r->child_comm, child->comm, RB_COMM_LEN);
	r->child_pid = child->pid;
	rb_tp_commit();
}

static void notrace rb_probe_sched_exec(void *data, struct task_struct *p, pid_t old_pid,
					struct linux_binprm *bprm)
{
	const unsigned int off = offsetof(struct rb_rec_sched_exec, data);
	struct rb_rec_sched_exec *r;
	const char *name;
	unsigned int n;

	name = rb_tp_str_src(bprm->filename, &n);
	r = rb_tp_reserve(&rb_tp_events[RB_TP_SCHED_EXEC].type, off + n);
	if (!r)
		return;
	r->filename = rb_tp_put_str(r, off, name, n);
	r->pid = p->pid;
	r->old_pid = old_pid;
	rb_tp_commit();
}

static void notrace rb_probe_sched_exit(void *data, struct task_struct *p)
{
	struct rb_rec_sched_exit *r;

	r = rb_tp_reserve(&rb_tp_events[RB_TP_SCHED_EXIT].type, sizeof(*r));
	if (!r)
		return;
	memcpy(r->comm, p->comm, RB_COMM_LEN);
	r->pid = p->pid;
	r->prio = p->prio;
	rb_tp_commit();
}

/* ---- probes: irq ----------------------------------------------------------- */

static void notrace rb_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	const unsigned int off = offsetof(struct rb_rec_irq_entry, data);
	struct rb_rec_irq_entry *r;
	const char *name;
	unsigned int n;

	if (rb_dur_cpu_entry(RB_PAIR_IRQ, irq, 0, 0))
		return;
	name = rb_tp_str_src(action->name, &n);
	r = rb_tp_reserve(&rb_tp_events[RB_TP_IRQ_ENTRY].type, off + n);
	if (!r)
		return;
	r->irq = irq;
	r->name = rb_tp_put_str(r, off, name, n);
	rb_tp_commit();
}

static void notrace rb_write_irq_dur(int irq, struct irqaction *action, int ret,
				     const struct rb_dur_match *m)
{
	const unsigned int off = offsetof(struct rb_rec_irq_dur, data);
	struct rb_rec_irq_dur *r;
	const char *name;
	unsigned int n;

	name = rb_tp_str_src(action->name, &n);
	r = rb_tp_reserve(&rb_dur_types[RB_PAIR_IRQ], off + n);
	if (!r)
		return;
	r->start = m->start;
	r->duration = m->delta;
	r->irq = irq;
	r->ret = ret;
	r->name = rb_tp_put_str(r, off, name, n);
	rb_tp_commit();
}

static void notrace rb_probe_irq_exit(void *data, int irq, struct irqaction *action, int ret)
{
	struct rb_rec_irq_exit *r;
	struct rb_dur_match m;

	switch (rb_dur_cpu_exit_hook(RB_PAIR_IRQ, irq, &m)) {
	case RB_DUR_OFF:
		break;
	case RB_DUR_KEEP:
		rb_write_irq_dur(irq, action, ret, &m);
		return;
	default:
		return;
	}
	r = rb_tp_reserve(&rb_tp_events[RB_TP_IRQ_EXIT].type, sizeof(*r));
	if (!r)
		return;
	r->irq = irq;
	r->ret = ret;
	rb_tp_commit();
}

static __always_inline void rb_write_softirq(enum rb_tp_id id, unsigned int vec)
{
	struct rb_rec_softirq *r;

	r = rb_tp_reserve(&rb_tp_events[id].type, sizeof(*r));
	if (!r)
		return;
	r->vec = vec;
	rb_tp_commit();
}

static void notrace rb_probe_softirq_entry(void *data, unsigned int vec)
{
	if (rb_dur_cpu_entry(RB_PAIR_SOFTIRQ, vec, 0, 0))
		return;
	rb_write_softirq(RB_TP_SOFTIRQ_ENTRY, vec);
}

static void notrace rb_probe_softirq_exit(void *data, unsigned int vec)
{
	struct rb_rec_softirq_dur *r;
	struct rb_dur_match m;

	switch (rb_dur_cpu_exit_hook(RB_PAIR_SOFTIRQ, vec, &m)) {
	case RB_DUR_OFF:
		rb_write_softirq(RB_TP_SOFTIRQ_EXIT, vec);
		return;
	case RB_DUR_KEEP:
		break;
	default:
		return;
	}
	r = rb_tp_reserve(&rb_dur_types[RB_PAIR_SOFTIRQ], offsetofend(typeof(*r), vec));
	if (!r)
		return;
	r->start = m.start;
	r->duration = m.delta;
	r->vec = vec;
	rb_tp_commit();
}

/* ---- probes: timer --------------------------------------------------------- */

static void notrace rb_probe_hrtimer_entry(void *data, struct hrtimer *hrtimer, ktime_t *now)
{
	struct rb_rec_hrtimer_entry *r;

	if (rb_dur_cpu_entry(RB_PAIR_HRTIMER, (unsigned long)hrtimer,
			     (unsigned long)hrtimer->function, (unsigned long)*now))
		return;
	r = rb_tp_reserve(&rb_tp_events[RB_TP_HRTIMER_ENTRY].type, sizeof(*r));
	if (!r)
		return;
	r->hrtimer = hrtimer;
	r->now = *now;
	r->function = hrtimer->function;
	rb_tp_commit();
}

static void notrace rb_write_hrtimer_dur(struct hrtimer *hrtimer, const struct rb_dur_match *m)
{
	struct rb_rec_hrtimer_dur *r;

	r = rb_tp_reserve(&rb_dur_types[RB_PAIR_HRTIMER], sizeof(*r));
	if (!r)
		return;
	r->start = m->start;
	r->duration = m->delta;
	r->hrtimer = hrtimer;
	r->function = (void *)m->data[0];
	r->now = (s64)m->data[1];
	rb_tp_commit();
}

static void notrace rb_probe_hrtimer_exit(void *data, struct hrtimer *hrtimer)
{
	struct rb_rec_hrtimer_exit *r;
	struct rb_dur_match m;

	switch (rb_dur_cpu_exit_hook(RB_PAIR_HRTIMER, (unsigned long)hrtimer, &m)) {
	case RB_DUR_OFF:
		break;
	case RB_DUR_KEEP:
		rb_write_hrtimer_dur(hrtimer, &m);
		return;
	default:
		return;
	}
	r = rb_tp_reserve(&rb_tp_events[RB_TP_HRTIMER_EXIT].type, sizeof(*r));
	if (!r)
		return;
	r->hrtimer = hrtimer;
	rb_tp_commit();
}

/* ---- probes: workqueue ----------------------------------------------------- */

static __always_inline void rb_write_work(enum rb_tp_id id, struct work_struct *work,
					  work_func_t function)
{
	struct rb_rec_work *r;

	r = rb_tp_reserve(&rb_tp_events[id].type, sizeof(*r));
	if (!r)
		return;
	r->work = work;
	r->function = function;
	rb_tp_commit();
}

static void notrace rb_probe_work_start(void *data, struct work_struct *work)
{
	if (rb_dur_task_entry(RB_PAIR_WORK, (unsigned long)work, NULL, 0))
		return;
	rb_write_work(RB_TP_WORK_START, work, work->func);
}

static void notrace rb_probe_work_end(void *data, struct work_struct *work,
				      work_func_t function)
{
	struct rb_rec_work_dur *r;
	struct rb_dur_match m;

	switch (rb_dur_task_exit_hook(RB_PAIR_WORK, (unsigned long)work, &m, 0)) {
	case RB_DUR_OFF:
		rb_write_work(RB_TP_WORK_END, work, function);
		return;
	case RB_DUR_KEEP:
		break;
	default:
		return;
	}
	r = rb_tp_reserve(&rb_dur_types[RB_PAIR_WORK], sizeof(*r));
	if (!r)
		return;
	r->start = m.start;
	r->duration = m.delta;
	r->work = work;
	r->function = function;
	rb_tp_commit();
}

/* ---- probes: raw_syscalls -------------------------------------------------- */

/*
 * The duration filter keeps sys_enter's id and arguments, in this order;
 * a task is in one syscall at a time: no key.
 */
#define RB_SYS_ID	0
#define RB_SYS_ARGS	1

static void notrace rb_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long e[RB_SYS_ARGS + 6];
	struct rb_rec_sys_enter *r;

	BUILD_BUG_ON(ARRAY_SIZE(e) > RB_DUR_DATA);
	e[RB_SYS_ID] = id;
	syscall_get_arguments(current, regs, &e[RB_SYS_ARGS]);
	if (rb_dur_task_entry(RB_PAIR_SYSCALL, 0, e, ARRAY_SIZE(e)))
		return;
	r = rb_tp_reserve(&rb_tp_events[RB_TP_SYS_ENTER].type, sizeof(*r));
	if (!r)
		return;
	r->id = id;
	memcpy(r->args, &e[RB_SYS_ARGS], sizeof(r->args));
	rb_tp_commit();
}

/* The syscall's number and arguments as sys_enter saw them. */
static void notrace rb_write_sys_dur(long ret, const struct rb_dur_match *m)
{
	struct rb_rec_sys_dur *r;

	r = rb_tp_reserve(&rb_dur_types[RB_PAIR_SYSCALL], sizeof(*r));
	if (!r)
		return;
	r->start = m->start;
	r->duration = m->delta;
	r->id = m->data[RB_SYS_ID];
	memcpy(r->args, &m->data[RB_SYS_ARGS], sizeof(r->args));
	r->ret = ret;
	rb_tp_commit();
}

static void notrace rb_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct rb_rec_sys_exit *r;
	struct rb_dur_match m;

	switch (rb_dur_task_exit_hook(RB_PAIR_SYSCALL, 0, &m, RB_SYS_ARGS + 6)) {
	case RB_DUR_OFF:
		break;
	case RB_DUR_KEEP:
		rb_write_sys_dur(ret, &m);
		return;
	default:
		return;
	}
	r = rb_tp_reserve(&rb_tp_events[RB_TP_SYS_EXIT].type, sizeof(*r));
	if (!r)
		return;
	r->id = syscall_get_nr(current, regs);
	r->ret = ret;
	rb_tp_commit();
}

/* ---- registration ----------------------------------------------------------- */

static int rb_tp_reg(struct rb_event_type *type)
{
	struct rb_tp_event *ev = container_of(type, struct rb_tp_event, type);
	int ret;

	ret = tracepoint_probe_register(ev->tp, ev->probe, NULL);
	if (ret)
		return ret;
	if (ev->pair >= 0)
		rb_dur_pair_set(ev->pair, ev->is_exit, true);
	return 0;
}

static void rb_tp_unreg(struct rb_event_type *type)
{
	struct rb_tp_event *ev = container_of(type, struct rb_tp_event, type);
	int ret;

	if (ev->pair >= 0)
		rb_dur_pair_set(ev->pair, ev->is_exit, false);
	ret = tracepoint_probe_unregister(ev->tp, ev->probe, NULL);
	if (ret)
		pr_warn("rbtrace: %s: cannot unregister the probe (%d)\n", type->name, ret);
}

/* sizeof, not ARRAY_SIZE(): @_f appears once outside sizeof. */
#define RB_TP(_id, _sys, _name, _f, _print, _probe, _pair, _exit)	\
	[_id] = {							\
		.type = {						\
			.system = _sys, .name = _name,			\
			.fields = _f,					\
			.nr_fields = sizeof(_f) / sizeof((_f)[0]),	\
			.print = _print,				\
			.reg = rb_tp_reg, .unreg = rb_tp_unreg,		\
		},							\
		.probe = _probe, .pair = _pair, .is_exit = _exit,	\
	}

static struct rb_tp_event rb_tp_events[RB_TP_NR] = {
	RB_TP(RB_TP_SCHED_SWITCH, "sched", "sched_switch", rb_f_sched_switch,
	      rb_print_sched_switch, rb_probe_sched_switch, -1, false),
	RB_TP(RB_TP_SCHED_WAKEUP, "sched", "sched_wakeup", rb_f_sched_wakeup,
	      rb_print_sched_wakeup, rb_probe_sched_wakeup, -1, false),
	RB_TP(RB_TP_SCHED_WAKING, "sched", "sched_waking", rb_f_sched_wakeup,
	      rb_print_sched_wakeup, rb_probe_sched_waking, -1, false),
	RB_TP(RB_TP_SCHED_FORK, "sched", "sched_process_fork", rb_f_sched_fork,
	      rb_print_sched_fork, rb_probe_sched_fork, -1, false),
	RB_TP(RB_TP_SCHED_EXEC, "sched", "sched_process_exec", rb_f_sched_exec,
	      rb_print_sched_exec, rb_probe_sched_exec, -1, false),
	RB_TP(RB_TP_SCHED_EXIT, "sched", "sched_process_exit", rb_f_sched_exit,
	      rb_print_sched_exit, rb_probe_sched_exit, -1, false),
	RB_TP(RB_TP_IRQ_ENTRY, "irq", "irq_handler_entry", rb_f_irq_entry,
	      rb_print_irq_entry, rb_probe_irq_entry, RB_PAIR_IRQ, false),
	RB_TP(RB_TP_IRQ_EXIT, "irq", "irq_handler_exit", rb_f_irq_exit,
	      rb_print_irq_exit, rb_probe_irq_exit, RB_PAIR_IRQ, true),
	RB_TP(RB_TP_SOFTIRQ_ENTRY, "irq", "softirq_entry", rb_f_softirq,
	      rb_print_softirq, rb_probe_softirq_entry, RB_PAIR_SOFTIRQ, false),
	RB_TP(RB_TP_SOFTIRQ_EXIT, "irq", "softirq_exit", rb_f_softirq,
	      rb_print_softirq, rb_probe_softirq_exit, RB_PAIR_SOFTIRQ, true),
	RB_TP(RB_TP_HRTIMER_ENTRY, "timer", "hrtimer_expire_entry", rb_f_hrtimer_entry,
	      rb_print_hrtimer_entry, rb_probe_hrtimer_entry,
	      RB_PAIR_HRTIMER, false),
	RB_TP(RB_TP_HRTIMER_EXIT, "timer", "hrtimer_expire_exit", rb_f_hrtimer_exit,
	      rb_print_hrtimer_exit, rb_probe_hrtimer_exit,
	      RB_PAIR_HRTIMER, true),
	RB_TP(RB_TP_WORK_START, "workqueue", "workqueue_execute_start", rb_f_work,
	      rb_print_work, rb_probe_work_start, RB_PAIR_WORK, false),
	RB_TP(RB_TP_WORK_END, "workqueue", "workqueue_execute_end", rb_f_work,
	      rb_print_work, rb_probe_work_end, RB_PAIR_WORK, true),
	RB_TP(RB_TP_SYS_ENTER, "raw_syscalls", "sys_enter", rb_f_sys_enter,
	      rb_print_sys_enter, rb_probe_sys_enter, RB_PAIR_SYSCALL, false),
	RB_TP(RB_TP_SYS_EXIT, "raw_syscalls", "sys_exit", rb_f_sys_exit,
	      rb_print_sys_exit, rb_probe_sys_exit, RB_PAIR_SYSCALL, true),
};

/* No reg: always on, no enable file; written while the filter applies. */
#define RB_DUR(_id, _sys, _name, _f, _print)				\
	[_id] = {							\
		.system = _sys, .name = _name,				\
		.fields = _f,						\
		.nr_fields = sizeof(_f) / sizeof((_f)[0]),		\
		.print = _print,					\
	}

static struct rb_event_type rb_dur_types[RB_PAIR_NR] = {
	RB_DUR(RB_PAIR_IRQ, "irq", "irq_handler_duration", rb_f_irq_dur,
	       rb_print_irq_dur),
	RB_DUR(RB_PAIR_SOFTIRQ, "irq", "softirq_duration", rb_f_softirq_dur,
	       rb_print_softirq_dur),
	RB_DUR(RB_PAIR_HRTIMER, "timer", "hrtimer_expire_duration", rb_f_hrtimer_dur,
	       rb_print_hrtimer_dur),
	RB_DUR(RB_PAIR_WORK, "workqueue", "workqueue_execute_duration", rb_f_work_dur,
	       rb_print_work_dur),
	RB_DUR(RB_PAIR_SYSCALL, "raw_syscalls", "sys_duration", rb_f_sys_dur,
	       rb_print_sys_dur),
};

static void rb_tp_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < RB_TP_NR; i++)
		if (!rb_tp_events[i].tp && !strcmp(tp->name, rb_tp_events[i].type.name))
			rb_tp_events[i].tp = tp;
}

/* Both events of pair @id are in the registry. */
static bool rb_pair_present(enum rb_pair_id id)
{
	int i, n = 0;

	for (i = 0; i < RB_TP_NR; i++)
		if (rb_tp_events[i].pair == id && rb_tp_events[i].registered)
			n++;
	return n == 2;
}

static void rb_tp_unregister_all(void)
{
	int i;

	/* Probes first (an enabled event's unreg removes its probe) ... */
	for (i = 0; i < RB_TP_NR; i++) {
		if (!rb_tp_events[i].registered)
			continue;
		rb_event_unregister(&rb_tp_events[i].type);
		rb_tp_events[i].registered = false;
	}
	/* ... then wait for those still running, which use what follows. */
	tracepoint_synchronize_unregister();
	for (i = 0; i < RB_PAIR_NR; i++) {
		if (!rb_dur_registered[i])
			continue;
		rb_event_unregister(&rb_dur_types[i]);
		rb_dur_registered[i] = false;
	}
}

/**
 * rb_tracepoints_init - register the tracepoint events and tracing_thresh
 *
 * Called after rb_debugfs_init(). Events start disabled.
 *
 * Return: 0 or a negative errno; nothing is left behind on failure.
 */
int rb_tracepoints_init(void)
{
	int i, ret;

	ret = rb_duration_init(rb_debugfs_dir());
	if (ret)
		return ret;
	for_each_kernel_tracepoint(rb_tp_lookup, NULL);
	for (i = 0; i < RB_TP_NR; i++) {
		struct rb_tp_event *ev = &rb_tp_events[i];

		ev->type.print_fmt = rb_tp_print_fmt[i];
		if (!ev->tp) {
			pr_info("rbtrace: this kernel has no tracepoint %s: no event %s:%s\n",
				ev->type.name, ev->type.system, ev->type.name);
			continue;
		}
		ret = rb_event_register(&ev->type);
		if (ret)
			goto fail;
		ev->registered = true;
	}
	for (i = 0; i < RB_PAIR_NR; i++) {
		if (!rb_pair_present(i))
			continue;
		rb_dur_types[i].print_fmt = rb_dur_print_fmt[i];
		ret = rb_event_register(&rb_dur_types[i]);
		if (ret)
			goto fail;
		rb_dur_registered[i] = true;
	}
	return 0;
fail:
	pr_err("rbtrace: cannot register the tracepoint events (%d)\n", ret);
	rb_tp_unregister_all();
	rb_duration_exit();
	return ret;
}

/**
 * rb_tracepoints_exit - unregister every probe and event, remove tracing_thresh
 *
 * Called before rb_debugfs_exit() and before the buffer is freed: returns
 * once no probe runs any more.
 */
void rb_tracepoints_exit(void)
{
	rb_tp_unregister_all();
	rb_duration_exit();
}
