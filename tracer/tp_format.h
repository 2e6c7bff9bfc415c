/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace tracepoint events: the records, laid out as the kernel's own
 * events of the same names (include/trace/events/), and what describes
 * them to readers (tp_format.c). The probes that write them are in
 * tracepoints.c.
 */
#ifndef _RBTR_TP_FORMAT_H
#define _RBTR_TP_FORMAT_H

#include <linux/types.h>
#include "events.h"
#include "duration.h"

/* ---- records: the kernel's layouts (include/trace/events/) ------------- */

#define RBTR_COMM_LEN	16	/* TASK_COMM_LEN, spelt out in field names */

struct rbtr_rec_sched_switch {
	struct rbtr_entry	ent;
	char		prev_comm[RBTR_COMM_LEN];
	pid_t		prev_pid;
	int		prev_prio;
	long		prev_state;
	char		next_comm[RBTR_COMM_LEN];
	pid_t		next_pid;
	int		next_prio;
};

/* sched_wakeup, sched_waking */
struct rbtr_rec_sched_wakeup {
	struct rbtr_entry	ent;
	char		comm[RBTR_COMM_LEN];
	pid_t		pid;
	int		prio;
	int		target_cpu;
};

struct rbtr_rec_sched_fork {
	struct rbtr_entry	ent;
	char		parent_comm[RBTR_COMM_LEN];
	pid_t		parent_pid;
	char		child_comm[RBTR_COMM_LEN];
	pid_t		child_pid;
};

struct rbtr_rec_sched_exec {
	struct rbtr_entry	ent;
	u32		filename;	/* __data_loc: (len << 16) | offset */
	pid_t		pid;
	pid_t		old_pid;
	char		data[];
};

struct rbtr_rec_sched_exit {
	struct rbtr_entry	ent;
	char		comm[RBTR_COMM_LEN];
	pid_t		pid;
	int		prio;
};

struct rbtr_rec_irq_entry {
	struct rbtr_entry	ent;
	int		irq;
	u32		name;		/* __data_loc */
	char		data[];
};

struct rbtr_rec_irq_exit {
	struct rbtr_entry	ent;
	int		irq;
	int		ret;
};

/* softirq_entry, softirq_exit */
struct rbtr_rec_softirq {
	struct rbtr_entry	ent;
	unsigned int	vec;
};

struct rbtr_rec_hrtimer_entry {
	struct rbtr_entry	ent;
	void		*hrtimer;
	s64		now;
	void		*function;
};

struct rbtr_rec_hrtimer_exit {
	struct rbtr_entry	ent;
	void		*hrtimer;
};

/* workqueue_execute_start, workqueue_execute_end */
struct rbtr_rec_work {
	struct rbtr_entry	ent;
	void		*work;
	void		*function;
};

struct rbtr_rec_sys_enter {
	struct rbtr_entry	ent;
	long		id;
	unsigned long	args[6];
};

struct rbtr_rec_sys_exit {
	struct rbtr_entry	ent;
	long		id;
	long		ret;
};

/*
 * The duration filter's events (duration.c): one per kept pair, at the
 * exit, with the start time and the duration (buffer clock), then the
 * entry's and the exit's fields.
 */
struct rbtr_rec_irq_dur {
	struct rbtr_entry	ent;
	u64		start;
	u64		duration;
	int		irq;
	int		ret;
	u32		name;		/* __data_loc */
	char		data[];
};

struct rbtr_rec_softirq_dur {
	struct rbtr_entry	ent;
	u64		start;
	u64		duration;
	unsigned int	vec;
};

struct rbtr_rec_hrtimer_dur {
	struct rbtr_entry	ent;
	u64		start;
	u64		duration;
	void		*hrtimer;
	s64		now;
	void		*function;
};

struct rbtr_rec_work_dur {
	struct rbtr_entry	ent;
	u64		start;
	u64		duration;
	void		*work;
	void		*function;
};

struct rbtr_rec_sys_dur {
	struct rbtr_entry	ent;
	u64		start;
	u64		duration;
	long		id;
	unsigned long	args[6];
	long		ret;
};

/* ---- the events ------------------------------------------------------------ */

enum rbtr_tp_id {
	RBTR_TP_SCHED_SWITCH,
	RBTR_TP_SCHED_WAKEUP,
	RBTR_TP_SCHED_WAKING,
	RBTR_TP_SCHED_FORK,
	RBTR_TP_SCHED_EXEC,
	RBTR_TP_SCHED_EXIT,
	RBTR_TP_IRQ_ENTRY,
	RBTR_TP_IRQ_EXIT,
	RBTR_TP_SOFTIRQ_ENTRY,
	RBTR_TP_SOFTIRQ_EXIT,
	RBTR_TP_HRTIMER_ENTRY,
	RBTR_TP_HRTIMER_EXIT,
	RBTR_TP_WORK_START,
	RBTR_TP_WORK_END,
	RBTR_TP_SYS_ENTER,
	RBTR_TP_SYS_EXIT,
	RBTR_TP_NR
};

/**
 * struct rbtr_tp_desc - how an event's records read
 * @system: events/<system>/
 * @name: the event's name (for a tracepoint event, the tracepoint's)
 * @fields: its fields after the common ones, as its format file lists them
 * @nr_fields: their number
 * @print_fmt: its format file's print fmt
 * @print: its text in the trace files
 */
struct rbtr_tp_desc {
	const char		*system;
	const char		*name;
	const struct rbtr_field	*fields;
	unsigned int		nr_fields;
	const char		*print_fmt;
	rbtr_print_fn		print;
};

/* The tracepoint events, and the duration filter's, one per pair. */
extern const struct rbtr_tp_desc rbtr_tp_descs[RBTR_TP_NR];
extern const struct rbtr_tp_desc rbtr_dur_descs[RBTR_PAIR_NR];

#endif /* _RBTR_TP_FORMAT_H */
