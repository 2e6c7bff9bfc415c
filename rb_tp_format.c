// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace tracepoint events: how their records read. Each format file
 * must be the kernel's own for the event of that name, byte for byte but
 * for its ID (fields, offsets, sizes, signedness, print fmt), so that
 * libtraceevent and trace-cmd parse rbtrace's records as the kernel's;
 * each text line must be what the kernel's trace file shows. The guest
 * test 30-tp-formats.tc compares the format files with the running
 * kernel's, 30-tp-vs-ftrace.tc the records and their text with ftrace's.
 *
 * The duration filter's events (rb_duration.c) have fields and text of
 * their own: the start time and the duration, then the entry's and the
 * exit's fields.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include "rb_tp_format.h"

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

/* ---- print fmt: the kernel's, byte for byte ---------------------------- */

#define RB_SOFTIRQ_SYMBOLS						\
	"__print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" })"

/* sizeof, not ARRAY_SIZE(): @_f appears once outside sizeof. */
#define RB_DESC(_id, _sys, _name, _f, _pf, _print)			\
	[_id] = {							\
		.system = _sys, .name = _name,				\
		.fields = _f,						\
		.nr_fields = sizeof(_f) / sizeof((_f)[0]),		\
		.print_fmt = _pf, .print = _print,			\
	}

const struct rb_tp_desc rb_tp_descs[RB_TP_NR] = {
	/*
	 * The kernel's TP_printk() arguments, with its macros: the
	 * preprocessor expands and stringifies them as it does for the
	 * kernel (include/trace/events/sched.h), so the text follows this
	 * kernel's task state bits.
	 */
	RB_DESC(RB_TP_SCHED_SWITCH, "sched", "sched_switch", rb_f_sched_switch,
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
		rb_print_sched_switch),
	RB_DESC(RB_TP_SCHED_WAKEUP, "sched", "sched_wakeup", rb_f_sched_wakeup,
		"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
		rb_print_sched_wakeup),
	RB_DESC(RB_TP_SCHED_WAKING, "sched", "sched_waking", rb_f_sched_wakeup,
		"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
		rb_print_sched_wakeup),
	RB_DESC(RB_TP_SCHED_FORK, "sched", "sched_process_fork", rb_f_sched_fork,
		"\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid",
		rb_print_sched_fork),
	RB_DESC(RB_TP_SCHED_EXEC, "sched", "sched_process_exec", rb_f_sched_exec,
		"\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid",
		rb_print_sched_exec),
	RB_DESC(RB_TP_SCHED_EXIT, "sched", "sched_process_exit", rb_f_sched_exit,
		"\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio",
		rb_print_sched_exit),
	RB_DESC(RB_TP_IRQ_ENTRY, "irq", "irq_handler_entry", rb_f_irq_entry,
		"\"irq=%d name=%s\", REC->irq, __get_str(name)",
		rb_print_irq_entry),
	RB_DESC(RB_TP_IRQ_EXIT, "irq", "irq_handler_exit", rb_f_irq_exit,
		"\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"",
		rb_print_irq_exit),
	RB_DESC(RB_TP_SOFTIRQ_ENTRY, "irq", "softirq_entry", rb_f_softirq,
		"\"vec=%u [action=%s]\", REC->vec, " RB_SOFTIRQ_SYMBOLS,
		rb_print_softirq),
	RB_DESC(RB_TP_SOFTIRQ_EXIT, "irq", "softirq_exit", rb_f_softirq,
		"\"vec=%u [action=%s]\", REC->vec, " RB_SOFTIRQ_SYMBOLS,
		rb_print_softirq),
	RB_DESC(RB_TP_HRTIMER_ENTRY, "timer", "hrtimer_expire_entry", rb_f_hrtimer_entry,
		"\"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, (unsigned long long) REC->now",
		rb_print_hrtimer_entry),
	RB_DESC(RB_TP_HRTIMER_EXIT, "timer", "hrtimer_expire_exit", rb_f_hrtimer_exit,
		"\"hrtimer=%p\", REC->hrtimer",
		rb_print_hrtimer_exit),
	RB_DESC(RB_TP_WORK_START, "workqueue", "workqueue_execute_start", rb_f_work,
		"\"work struct %p: function %ps\", REC->work, REC->function",
		rb_print_work),
	RB_DESC(RB_TP_WORK_END, "workqueue", "workqueue_execute_end", rb_f_work,
		"\"work struct %p: function %ps\", REC->work, REC->function",
		rb_print_work),
	RB_DESC(RB_TP_SYS_ENTER, "raw_syscalls", "sys_enter", rb_f_sys_enter,
		"\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]",
		rb_print_sys_enter),
	RB_DESC(RB_TP_SYS_EXIT, "raw_syscalls", "sys_exit", rb_f_sys_exit,
		"\"NR %ld = %ld\", REC->id, REC->ret",
		rb_print_sys_exit),
};

/* The duration events': the entry's and exit's, then start and duration. */
const struct rb_tp_desc rb_dur_descs[RB_PAIR_NR] = {
	RB_DESC(RB_PAIR_IRQ, "irq", "irq_handler_duration", rb_f_irq_dur,
		"\"irq=%d name=%s ret=%s start=%llu duration=%llu\", REC->irq, __get_str(name), REC->ret ? \"handled\" : \"unhandled\", REC->start, REC->duration",
		rb_print_irq_dur),
	RB_DESC(RB_PAIR_SOFTIRQ, "irq", "softirq_duration", rb_f_softirq_dur,
		"\"vec=%u [action=%s] start=%llu duration=%llu\", REC->vec, " RB_SOFTIRQ_SYMBOLS
		", REC->start, REC->duration",
		rb_print_softirq_dur),
	RB_DESC(RB_PAIR_HRTIMER, "timer", "hrtimer_expire_duration", rb_f_hrtimer_dur,
		"\"hrtimer=%p function=%ps now=%llu start=%llu duration=%llu\", REC->hrtimer, REC->function, (unsigned long long) REC->now, REC->start, REC->duration",
		rb_print_hrtimer_dur),
	RB_DESC(RB_PAIR_WORK, "workqueue", "workqueue_execute_duration", rb_f_work_dur,
		"\"work struct %p: function %ps start=%llu duration=%llu\", REC->work, REC->function, REC->start, REC->duration",
		rb_print_work_dur),
	RB_DESC(RB_PAIR_SYSCALL, "raw_syscalls", "sys_duration", rb_f_sys_dur,
		"\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx) = %ld start=%llu duration=%llu\", REC->id, REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5], REC->ret, REC->start, REC->duration",
		rb_print_sys_dur),
};
