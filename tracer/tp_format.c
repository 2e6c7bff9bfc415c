// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace tracepoint events: how their records read. Each format file
 * must be the kernel's own for the event of that name, byte for byte but
 * for its ID (fields, offsets, sizes, signedness, print fmt), so that
 * libtraceevent and trace-cmd parse rbtrace's records as the kernel's;
 * each text line must be what the kernel's trace file shows. The guest
 * scenario events/tp-formats compares the format files with the running
 * kernel's, events/tp-vs-ftrace the records and their text with ftrace's.
 *
 * The duration filter's events (duration.c) have fields and text of
 * their own: the start time and the duration, then the entry's and the
 * exit's fields.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include "tp_format.h"

/* ---- fields: what the format files list --------------------------------- */

/*
 * An array or a __data_loc (record member @e): signed as its element type
 * @elem, as the kernel's __array() and __dynamic_array() (char is signed
 * on 6.1, unsigned since 6.2's -funsigned-char: this build's compiler
 * knows which).
 */
#define RBTR_TP_ARRAY(e, elem, t, n, k) {					\
	.type = (t), .name = (n), .offset = (size_t)&(e),		\
	.size = sizeof(e), .is_signed = is_signed_type(elem), .kind = (k) }

/* A comm: char[TASK_COMM_LEN], shown as a string. */
#define RBTR_TP_COMM(e, n)	RBTR_TP_ARRAY(e, char, "char", n, RBTR_FIELD_CHARS)

#define N	RBTR_FIELD_NUM
#define H	RBTR_FIELD_HEX
#define S	RBTR_FIELD_STRLOC

static const struct rbtr_field rbtr_f_sched_switch[] = {
	RBTR_TP_COMM(RBTR_REC(struct rbtr_rec_sched_switch)->prev_comm, "prev_comm[16]"),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_switch)->prev_pid, "pid_t", "prev_pid", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_switch)->prev_prio, "int", "prev_prio", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_switch)->prev_state, "long", "prev_state", N),
	RBTR_TP_COMM(RBTR_REC(struct rbtr_rec_sched_switch)->next_comm, "next_comm[16]"),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_switch)->next_pid, "pid_t", "next_pid", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_switch)->next_prio, "int", "next_prio", N),
};

static const struct rbtr_field rbtr_f_sched_wakeup[] = {
	RBTR_TP_COMM(RBTR_REC(struct rbtr_rec_sched_wakeup)->comm, "comm[16]"),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_wakeup)->pid, "pid_t", "pid", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_wakeup)->prio, "int", "prio", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_wakeup)->target_cpu, "int", "target_cpu", N),
};

static const struct rbtr_field rbtr_f_sched_fork[] = {
	RBTR_TP_COMM(RBTR_REC(struct rbtr_rec_sched_fork)->parent_comm, "parent_comm[16]"),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_fork)->parent_pid, "pid_t", "parent_pid", N),
	RBTR_TP_COMM(RBTR_REC(struct rbtr_rec_sched_fork)->child_comm, "child_comm[16]"),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_fork)->child_pid, "pid_t", "child_pid", N),
};

static const struct rbtr_field rbtr_f_sched_exec[] = {
	RBTR_TP_ARRAY(RBTR_REC(struct rbtr_rec_sched_exec)->filename, char,
		      "__data_loc char[]", "filename", S),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_exec)->pid, "pid_t", "pid", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_exec)->old_pid, "pid_t", "old_pid", N),
};

static const struct rbtr_field rbtr_f_sched_exit[] = {
	RBTR_TP_COMM(RBTR_REC(struct rbtr_rec_sched_exit)->comm, "comm[16]"),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_exit)->pid, "pid_t", "pid", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sched_exit)->prio, "int", "prio", N),
};

static const struct rbtr_field rbtr_f_irq_entry[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_entry)->irq, "int", "irq", N),
	RBTR_TP_ARRAY(RBTR_REC(struct rbtr_rec_irq_entry)->name, char, "__data_loc char[]", "name",
		      S),
};

static const struct rbtr_field rbtr_f_irq_exit[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_exit)->irq, "int", "irq", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_exit)->ret, "int", "ret", N),
};

static const struct rbtr_field rbtr_f_softirq[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_softirq)->vec, "unsigned int", "vec", N),
};

static const struct rbtr_field rbtr_f_hrtimer_entry[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_entry)->hrtimer, "void *", "hrtimer", H),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_entry)->now, "s64", "now", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_entry)->function, "void *", "function", H),
};

static const struct rbtr_field rbtr_f_hrtimer_exit[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_exit)->hrtimer, "void *", "hrtimer", H),
};

static const struct rbtr_field rbtr_f_work[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_work)->work, "void *", "work", H),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_work)->function, "void *", "function", H),
};

static const struct rbtr_field rbtr_f_sys_enter[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_enter)->id, "long", "id", N),
	RBTR_TP_ARRAY(RBTR_REC(struct rbtr_rec_sys_enter)->args, unsigned long,
		      "unsigned long", "args[6]", RBTR_FIELD_BYTES),
};

static const struct rbtr_field rbtr_f_sys_exit[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_exit)->id, "long", "id", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_exit)->ret, "long", "ret", N),
};

static const struct rbtr_field rbtr_f_irq_dur[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_dur)->start, "u64", "start", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_dur)->duration, "u64", "duration", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_dur)->irq, "int", "irq", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_irq_dur)->ret, "int", "ret", N),
	RBTR_TP_ARRAY(RBTR_REC(struct rbtr_rec_irq_dur)->name, char, "__data_loc char[]", "name",
		      S),
};

static const struct rbtr_field rbtr_f_softirq_dur[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_softirq_dur)->start, "u64", "start", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_softirq_dur)->duration, "u64", "duration", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_softirq_dur)->vec, "unsigned int", "vec", N),
};

static const struct rbtr_field rbtr_f_hrtimer_dur[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_dur)->start, "u64", "start", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_dur)->duration, "u64", "duration", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_dur)->hrtimer, "void *", "hrtimer", H),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_dur)->now, "s64", "now", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_hrtimer_dur)->function, "void *", "function", H),
};

static const struct rbtr_field rbtr_f_work_dur[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_work_dur)->start, "u64", "start", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_work_dur)->duration, "u64", "duration", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_work_dur)->work, "void *", "work", H),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_work_dur)->function, "void *", "function", H),
};

static const struct rbtr_field rbtr_f_sys_dur[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_dur)->start, "u64", "start", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_dur)->duration, "u64", "duration", N),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_dur)->id, "long", "id", N),
	RBTR_TP_ARRAY(RBTR_REC(struct rbtr_rec_sys_dur)->args, unsigned long,
		      "unsigned long", "args[6]", RBTR_FIELD_BYTES),
	RBTR_FIELD(RBTR_REC(struct rbtr_rec_sys_dur)->ret, "long", "ret", N),
};

#undef N
#undef H
#undef S

/* ---- text: what the kernel's trace file shows for each ----------------- */

/* A record shorter than its fixed part (never written so): say so. */
static bool rbtr_tp_short(struct seq_buf *s, const struct rbtr_event_type *type,
			  unsigned int len, unsigned int need)
{
	if (len >= need)
		return false;
	seq_buf_printf(s, "%s: (short record: %u bytes)\n", type->name, len);
	return true;
}

/* A __data_loc string of @rec, or a placeholder when it does not fit. */
static const char *rbtr_tp_str(const void *rec, unsigned int len, u32 loc, int *n)
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
static void rbtr_print_prev_state(struct seq_buf *s, long state)
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

static void rbtr_print_sched_switch(struct seq_buf *s, const struct rbtr_event_type *type,
				    const void *rec, unsigned int len)
{
	const struct rbtr_rec_sched_switch *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: prev_comm=%.*s prev_pid=%d prev_prio=%d prev_state=",
		       type->name, RBTR_COMM_LEN, r->prev_comm, r->prev_pid, r->prev_prio);
	rbtr_print_prev_state(s, r->prev_state);
	seq_buf_printf(s, " ==> next_comm=%.*s next_pid=%d next_prio=%d\n",
		       RBTR_COMM_LEN, r->next_comm, r->next_pid, r->next_prio);
}

static void rbtr_print_sched_wakeup(struct seq_buf *s, const struct rbtr_event_type *type,
				    const void *rec, unsigned int len)
{
	const struct rbtr_rec_sched_wakeup *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: comm=%.*s pid=%d prio=%d target_cpu=%03d\n", type->name,
		       RBTR_COMM_LEN, r->comm, r->pid, r->prio, r->target_cpu);
}

static void rbtr_print_sched_fork(struct seq_buf *s, const struct rbtr_event_type *type,
				  const void *rec, unsigned int len)
{
	const struct rbtr_rec_sched_fork *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: comm=%.*s pid=%d child_comm=%.*s child_pid=%d\n", type->name,
		       RBTR_COMM_LEN, r->parent_comm, r->parent_pid, RBTR_COMM_LEN, r->child_comm,
		       r->child_pid);
}

static void rbtr_print_sched_exec(struct seq_buf *s, const struct rbtr_event_type *type,
				  const void *rec, unsigned int len)
{
	const struct rbtr_rec_sched_exec *r = rec;
	const char *str;
	int n;

	if (rbtr_tp_short(s, type, len, offsetof(typeof(*r), data)))
		return;
	str = rbtr_tp_str(rec, len, r->filename, &n);
	seq_buf_printf(s, "%s: filename=%.*s pid=%d old_pid=%d\n", type->name, n, str,
		       r->pid, r->old_pid);
}

static void rbtr_print_sched_exit(struct seq_buf *s, const struct rbtr_event_type *type,
				  const void *rec, unsigned int len)
{
	const struct rbtr_rec_sched_exit *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: comm=%.*s pid=%d prio=%d\n", type->name,
		       RBTR_COMM_LEN, r->comm, r->pid, r->prio);
}

static void rbtr_print_irq_entry(struct seq_buf *s, const struct rbtr_event_type *type,
				 const void *rec, unsigned int len)
{
	const struct rbtr_rec_irq_entry *r = rec;
	const char *str;
	int n;

	if (rbtr_tp_short(s, type, len, offsetof(typeof(*r), data)))
		return;
	str = rbtr_tp_str(rec, len, r->name, &n);
	seq_buf_printf(s, "%s: irq=%d name=%.*s\n", type->name, r->irq, n, str);
}

static void rbtr_print_irq_exit(struct seq_buf *s, const struct rbtr_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rbtr_rec_irq_exit *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: irq=%d ret=%s\n", type->name, r->irq,
		       r->ret ? "handled" : "unhandled");
}

/* show_softirq_name(): __print_symbolic() of the vector. */
static void rbtr_print_vec(struct seq_buf *s, unsigned int vec)
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

static void rbtr_print_softirq(struct seq_buf *s, const struct rbtr_event_type *type,
			       const void *rec, unsigned int len)
{
	const struct rbtr_rec_softirq *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: ", type->name);
	rbtr_print_vec(s, r->vec);
	seq_buf_printf(s, "\n");
}

static void rbtr_print_hrtimer_entry(struct seq_buf *s, const struct rbtr_event_type *type,
				     const void *rec, unsigned int len)
{
	const struct rbtr_rec_hrtimer_entry *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: hrtimer=%p function=%ps now=%llu\n", type->name,
		       r->hrtimer, r->function, (unsigned long long)r->now);
}

static void rbtr_print_hrtimer_exit(struct seq_buf *s, const struct rbtr_event_type *type,
				    const void *rec, unsigned int len)
{
	const struct rbtr_rec_hrtimer_exit *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: hrtimer=%p\n", type->name, r->hrtimer);
}

static void rbtr_print_work(struct seq_buf *s, const struct rbtr_event_type *type,
			    const void *rec, unsigned int len)
{
	const struct rbtr_rec_work *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: work struct %p: function %ps\n", type->name, r->work,
		       r->function);
}

static void rbtr_print_args(struct seq_buf *s, const unsigned long *args)
{
	seq_buf_printf(s, "(%lx, %lx, %lx, %lx, %lx, %lx)", args[0], args[1], args[2],
		       args[3], args[4], args[5]);
}

static void rbtr_print_sys_enter(struct seq_buf *s, const struct rbtr_event_type *type,
				 const void *rec, unsigned int len)
{
	const struct rbtr_rec_sys_enter *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: NR %ld ", type->name, r->id);
	rbtr_print_args(s, r->args);
	seq_buf_printf(s, "\n");
}

static void rbtr_print_sys_exit(struct seq_buf *s, const struct rbtr_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rbtr_rec_sys_exit *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: NR %ld = %ld\n", type->name, r->id, r->ret);
}

static void rbtr_print_dur(struct seq_buf *s, u64 start, u64 duration)
{
	seq_buf_printf(s, " start=%llu duration=%llu\n", start, duration);
}

static void rbtr_print_irq_dur(struct seq_buf *s, const struct rbtr_event_type *type,
			       const void *rec, unsigned int len)
{
	const struct rbtr_rec_irq_dur *r = rec;
	const char *str;
	int n;

	if (rbtr_tp_short(s, type, len, offsetof(typeof(*r), data)))
		return;
	str = rbtr_tp_str(rec, len, r->name, &n);
	seq_buf_printf(s, "%s: irq=%d name=%.*s ret=%s", type->name, r->irq, n, str,
		       r->ret ? "handled" : "unhandled");
	rbtr_print_dur(s, r->start, r->duration);
}

static void rbtr_print_softirq_dur(struct seq_buf *s, const struct rbtr_event_type *type,
				   const void *rec, unsigned int len)
{
	const struct rbtr_rec_softirq_dur *r = rec;

	if (rbtr_tp_short(s, type, len, offsetofend(typeof(*r), vec)))
		return;
	seq_buf_printf(s, "%s: ", type->name);
	rbtr_print_vec(s, r->vec);
	rbtr_print_dur(s, r->start, r->duration);
}

static void rbtr_print_hrtimer_dur(struct seq_buf *s, const struct rbtr_event_type *type,
				   const void *rec, unsigned int len)
{
	const struct rbtr_rec_hrtimer_dur *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: hrtimer=%p function=%ps now=%llu", type->name,
		       r->hrtimer, r->function, (unsigned long long)r->now);
	rbtr_print_dur(s, r->start, r->duration);
}

static void rbtr_print_work_dur(struct seq_buf *s, const struct rbtr_event_type *type,
				const void *rec, unsigned int len)
{
	const struct rbtr_rec_work_dur *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: work struct %p: function %ps", type->name, r->work,
		       r->function);
	rbtr_print_dur(s, r->start, r->duration);
}

static void rbtr_print_sys_dur(struct seq_buf *s, const struct rbtr_event_type *type,
			       const void *rec, unsigned int len)
{
	const struct rbtr_rec_sys_dur *r = rec;

	if (rbtr_tp_short(s, type, len, sizeof(*r)))
		return;
	seq_buf_printf(s, "%s: NR %ld ", type->name, r->id);
	rbtr_print_args(s, r->args);
	seq_buf_printf(s, " = %ld", r->ret);
	rbtr_print_dur(s, r->start, r->duration);
}

/* ---- print fmt: the kernel's, byte for byte ---------------------------- */

#define RBTR_SOFTIRQ_SYMBOLS						\
	"__print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" }, { 2, \"NET_TX\" }, { 3, \"NET_RX\" }, { 4, \"BLOCK\" }, { 5, \"IRQ_POLL\" }, { 6, \"TASKLET\" }, { 7, \"SCHED\" }, { 8, \"HRTIMER\" }, { 9, \"RCU\" })"

/* sizeof, not ARRAY_SIZE(): @_f appears once outside sizeof. */
#define RBTR_DESC(_id, _sys, _name, _f, _pf, _print)			\
	[_id] = {							\
		.system = _sys, .name = _name,				\
		.fields = _f,						\
		.nr_fields = sizeof(_f) / sizeof((_f)[0]),		\
		.print_fmt = _pf, .print = _print,			\
	}

const struct rbtr_tp_desc rbtr_tp_descs[RBTR_TP_NR] = {
	/*
	 * The kernel's TP_printk() arguments, with its macros: the
	 * preprocessor expands and stringifies them as it does for the
	 * kernel (include/trace/events/sched.h), so the text follows this
	 * kernel's task state bits.
	 */
	RBTR_DESC(RBTR_TP_SCHED_SWITCH, "sched", "sched_switch", rbtr_f_sched_switch,
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
		rbtr_print_sched_switch),
	RBTR_DESC(RBTR_TP_SCHED_WAKEUP, "sched", "sched_wakeup", rbtr_f_sched_wakeup,
		  "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
		  rbtr_print_sched_wakeup),
	RBTR_DESC(RBTR_TP_SCHED_WAKING, "sched", "sched_waking", rbtr_f_sched_wakeup,
		  "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
		  rbtr_print_sched_wakeup),
	RBTR_DESC(RBTR_TP_SCHED_FORK, "sched", "sched_process_fork", rbtr_f_sched_fork,
		  "\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid",
		  rbtr_print_sched_fork),
	RBTR_DESC(RBTR_TP_SCHED_EXEC, "sched", "sched_process_exec", rbtr_f_sched_exec,
		  "\"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid",
		  rbtr_print_sched_exec),
	RBTR_DESC(RBTR_TP_SCHED_EXIT, "sched", "sched_process_exit", rbtr_f_sched_exit,
		  "\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio",
		  rbtr_print_sched_exit),
	RBTR_DESC(RBTR_TP_IRQ_ENTRY, "irq", "irq_handler_entry", rbtr_f_irq_entry,
		  "\"irq=%d name=%s\", REC->irq, __get_str(name)",
		  rbtr_print_irq_entry),
	RBTR_DESC(RBTR_TP_IRQ_EXIT, "irq", "irq_handler_exit", rbtr_f_irq_exit,
		  "\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"",
		  rbtr_print_irq_exit),
	RBTR_DESC(RBTR_TP_SOFTIRQ_ENTRY, "irq", "softirq_entry", rbtr_f_softirq,
		  "\"vec=%u [action=%s]\", REC->vec, " RBTR_SOFTIRQ_SYMBOLS,
		  rbtr_print_softirq),
	RBTR_DESC(RBTR_TP_SOFTIRQ_EXIT, "irq", "softirq_exit", rbtr_f_softirq,
		  "\"vec=%u [action=%s]\", REC->vec, " RBTR_SOFTIRQ_SYMBOLS,
		  rbtr_print_softirq),
	RBTR_DESC(RBTR_TP_HRTIMER_ENTRY, "timer", "hrtimer_expire_entry", rbtr_f_hrtimer_entry,
		  "\"hrtimer=%p function=%ps now=%llu\", REC->hrtimer, REC->function, (unsigned long long) REC->now",
		  rbtr_print_hrtimer_entry),
	RBTR_DESC(RBTR_TP_HRTIMER_EXIT, "timer", "hrtimer_expire_exit", rbtr_f_hrtimer_exit,
		  "\"hrtimer=%p\", REC->hrtimer",
		  rbtr_print_hrtimer_exit),
	RBTR_DESC(RBTR_TP_WORK_START, "workqueue", "workqueue_execute_start", rbtr_f_work,
		  "\"work struct %p: function %ps\", REC->work, REC->function",
		  rbtr_print_work),
	RBTR_DESC(RBTR_TP_WORK_END, "workqueue", "workqueue_execute_end", rbtr_f_work,
		  "\"work struct %p: function %ps\", REC->work, REC->function",
		  rbtr_print_work),
	RBTR_DESC(RBTR_TP_SYS_ENTER, "raw_syscalls", "sys_enter", rbtr_f_sys_enter,
		  "\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]",
		  rbtr_print_sys_enter),
	RBTR_DESC(RBTR_TP_SYS_EXIT, "raw_syscalls", "sys_exit", rbtr_f_sys_exit,
		  "\"NR %ld = %ld\", REC->id, REC->ret",
		  rbtr_print_sys_exit),
};

/* The duration events': the entry's and exit's, then start and duration. */
const struct rbtr_tp_desc rbtr_dur_descs[RBTR_PAIR_NR] = {
	RBTR_DESC(RBTR_PAIR_IRQ, "irq", "irq_handler_duration", rbtr_f_irq_dur,
		  "\"irq=%d name=%s ret=%s start=%llu duration=%llu\", REC->irq, __get_str(name), REC->ret ? \"handled\" : \"unhandled\", REC->start, REC->duration",
		  rbtr_print_irq_dur),
	RBTR_DESC(RBTR_PAIR_SOFTIRQ, "irq", "softirq_duration", rbtr_f_softirq_dur,
		  "\"vec=%u [action=%s] start=%llu duration=%llu\", REC->vec, " RBTR_SOFTIRQ_SYMBOLS
		  ", REC->start, REC->duration",
		  rbtr_print_softirq_dur),
	RBTR_DESC(RBTR_PAIR_HRTIMER, "timer", "hrtimer_expire_duration", rbtr_f_hrtimer_dur,
		  "\"hrtimer=%p function=%ps now=%llu start=%llu duration=%llu\", REC->hrtimer, REC->function, (unsigned long long) REC->now, REC->start, REC->duration",
		  rbtr_print_hrtimer_dur),
	RBTR_DESC(RBTR_PAIR_WORK, "workqueue", "workqueue_execute_duration", rbtr_f_work_dur,
		  "\"work struct %p: function %ps start=%llu duration=%llu\", REC->work, REC->function, REC->start, REC->duration",
		  rbtr_print_work_dur),
	RBTR_DESC(RBTR_PAIR_SYSCALL, "raw_syscalls", "sys_duration", rbtr_f_sys_dur,
		  "\"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx) = %ld start=%llu duration=%llu\", REC->id, REC->args[0], REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5], REC->ret, REC->start, REC->duration",
		  rbtr_print_sys_dur),
};
