/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace tracepoint events: the records, laid out as the kernel's own
 * events of the same names (include/trace/events/), and what describes
 * them to readers (rb_tp_format.c). The probes that write them are in
 * rb_tracepoints.c.
 */
#ifndef _RB_TP_FORMAT_H
#define _RB_TP_FORMAT_H

#include <linux/types.h>
#include "rb_events.h"
#include "rb_duration.h"

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

/* ---- the events ------------------------------------------------------------ */

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

/**
 * struct rb_tp_desc - how an event's records read
 * @system: events/<system>/
 * @name: the event's name (for a tracepoint event, the tracepoint's)
 * @fields: its fields after the common ones, as its format file lists them
 * @nr_fields: their number
 * @print_fmt: its format file's print fmt
 * @print: its text in the trace files
 */
struct rb_tp_desc {
	const char		*system;
	const char		*name;
	const struct rb_field	*fields;
	unsigned int		nr_fields;
	const char		*print_fmt;
	rb_print_fn		print;
};

/* The tracepoint events, and the duration filter's, one per pair. */
extern const struct rb_tp_desc rb_tp_descs[RB_TP_NR];
extern const struct rb_tp_desc rb_dur_descs[RB_PAIR_NR];

#endif /* _RB_TP_FORMAT_H */
