/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace tracepoint events: one description per event, in the manner of
 * the kernel's TRACE_EVENT() (include/trace/events/). This header has no
 * include guard: it is included several times, each time with other
 * meanings of the macros below, and expands into
 *
 *	tp_format.h	the record structs (struct rbtr_rec_<class>) and
 *			enum rbtr_tp_id (RBTR_TP_<event>)
 *	tp_format.c	each class's field table, print fmt and text printer,
 *			and the descriptions rbtr_tp_descs[], rbtr_dur_descs[]
 *	tp_probes.c	each probe's declaration, checked at build time
 *			against the kernel's prototype of its tracepoint,
 *			and the table of probes
 *
 * RBTR_TP_CLASS(class, TP_STRUCT__entry(...), TP_printk(fmt, args...))
 *	A record layout and how it reads, as DECLARE_EVENT_CLASS(). The
 *	fields follow the common ones, in this order:
 *	  __field(type, item)		an integer or a pointer ("void *"
 *					shows in hex in the generic text)
 *	  __array(type, item, len)	type item[len]; len a literal (it is
 *					spelt in the format file); a char
 *					array holds a NUL-terminated string
 *	  __string(item)		a __data_loc char[]: the string
 *					follows the fixed part
 *	TP_printk() is the kernel's, written with its macros (__entry,
 *	__get_str(), __print_flags(), __print_symbolic()): stringified, it
 *	is the format file's print fmt, as the kernel's own is; compiled,
 *	it prints the record's text ("name: " in front, "\n" after), which
 *	therefore cannot drift from the print fmt.
 *
 * RBTR_TP_EVENT(name, class, system, pair, is_exit, TP_PROTO(...), TP_ARGS(...))
 *	An event fed by the kernel's tracepoint of its name, in the order
 *	of enum rbtr_tp_id; its probe is rbtr_probe_<name> (tp_probes.c),
 *	of the tracepoint's TP_PROTO(), which calls the event's code,
 *	rbtr_tp_body_<name>(), with TP_ARGS() and preemption off. @pair is
 *	the duration filter's pair it belongs to (enum rbtr_pair_id) or
 *	RBTR_NO_PAIR, @is_exit whether it ends the pair.
 *
 * RBTR_DUR_EVENT(name, class, system, pair)
 *	The duration filter's event of @pair, written at the exit of a kept
 *	pair (duration.c): u64 start and duration, then the entry's and
 *	the exit's fields.
 *
 * An includer defines those it needs (the others expand to nothing),
 * includes this file, and finds all three undefined again after it. A
 * stage names the arguments it has no use for in RBTR_TP_UNUSED(). The
 * print fmts must be the kernel's byte for byte: 30-tp-formats.tc
 * compares them with the running kernel's, 30-tp-vs-ftrace.tc the text.
 */

#ifndef RBTR_TP_CLASS
#define RBTR_TP_CLASS(...)
#endif
#ifndef RBTR_TP_EVENT
#define RBTR_TP_EVENT(...)
#endif
#ifndef RBTR_DUR_EVENT
#define RBTR_DUR_EVENT(...)
#endif
#ifndef RBTR_TP_UNUSED
#define RBTR_TP_UNUSED(...)
#endif

/*
 * show_softirq_name() of include/trace/events/irq.h, with the values of
 * HI_SOFTIRQ ... RCU_SOFTIRQ spelt out as the kernel's format file shows
 * them (tp_format.c checks them).
 */
#ifndef rbtr_show_softirq_name
#define rbtr_show_softirq_name(val)					\
	__print_symbolic(val, { 0, "HI" }, { 1, "TIMER" }, { 2, "NET_TX" }, \
			 { 3, "NET_RX" }, { 4, "BLOCK" }, { 5, "IRQ_POLL" }, \
			 { 6, "TASKLET" }, { 7, "SCHED" }, { 8, "HRTIMER" }, \
			 { 9, "RCU" })
/* The kernel's "(unsigned long long) __entry->now", space and all. */
#define RBTR_ULL (unsigned long long)
#endif

/*
 * Why these are written by hand, when every other event of the kernel is
 * recorded from its own definition (kn_stage.h) or through perf:
 *
 *  - the pairs of the duration filter (irq, softirq, hrtimer, workqueue,
 *    raw_syscalls): their probes keep the entry's state per CPU or per
 *    task and decide at the exit (duration.c), which a compiled probe
 *    cannot be told to do;
 *  - sched_switch: the kernel's assignment calls
 *    __trace_sched_switch_state(), which its header defines only for
 *    CREATE_TRACE_POINTS, so that it compiles nowhere but in the kernel;
 *    and the pid filter's probes bracket it (pid_probes.c);
 *  - sched_process_exec: a filename longer than a record can hold is cut
 *    to what it holds, where the kernel's assignment (and ftrace) loses
 *    the record (events/tp-exec-long-path).
 *
 * The kernel's other sched events and irq_vectors:irq_work_exit, written
 * here before, are the compiled route's now (one description per event).
 */

/* ---- sched ----------------------------------------------------------------- */

RBTR_TP_CLASS(sched_switch,
	      TP_STRUCT__entry(__array(char, prev_comm, RBTR_COMM_LEN)
			       __field(pid_t, prev_pid)
			       __field(int, prev_prio)
			       __field(long, prev_state)
			       __array(char, next_comm, RBTR_COMM_LEN)
			       __field(pid_t, next_pid)
			       __field(int, next_prio)),
	      TP_printk("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d",
			__entry->prev_comm, __entry->prev_pid, __entry->prev_prio,
			(__entry->prev_state & (TASK_REPORT_MAX - 1)) ?
			__print_flags(__entry->prev_state & (TASK_REPORT_MAX - 1), "|",
				      { TASK_INTERRUPTIBLE, "S" },
				      { TASK_UNINTERRUPTIBLE, "D" },
				      { __TASK_STOPPED, "T" },
				      { __TASK_TRACED, "t" },
				      { EXIT_DEAD, "X" },
				      { EXIT_ZOMBIE, "Z" },
				      { TASK_PARKED, "P" },
				      { TASK_DEAD, "I" }) :
			"R",
			__entry->prev_state & TASK_REPORT_MAX ? "+" : "",
			__entry->next_comm, __entry->next_pid, __entry->next_prio))

RBTR_TP_CLASS(sched_process_exec,
	      TP_STRUCT__entry(__string(filename)
			       __field(pid_t, pid)
			       __field(pid_t, old_pid)),
	      TP_printk("filename=%s pid=%d old_pid=%d", __get_str(filename),
			__entry->pid, __entry->old_pid))

RBTR_TP_EVENT(sched_switch, sched_switch, sched, RBTR_NO_PAIR, false,
	      TP_PROTO(bool preempt, struct task_struct *prev, struct task_struct *next,
		       unsigned int prev_state),
	      TP_ARGS(preempt, prev, next, prev_state))
RBTR_TP_EVENT(sched_process_exec, sched_process_exec, sched, RBTR_NO_PAIR, false,
	      TP_PROTO(struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm),
	      TP_ARGS(p, old_pid, bprm))

/* ---- irq ------------------------------------------------------------------- */

RBTR_TP_CLASS(irq_handler_entry,
	      TP_STRUCT__entry(__field(int, irq)
			       __string(name)),
	      TP_printk("irq=%d name=%s", __entry->irq, __get_str(name)))

RBTR_TP_CLASS(irq_handler_exit,
	      TP_STRUCT__entry(__field(int, irq)
			       __field(int, ret)),
	      TP_printk("irq=%d ret=%s",
			__entry->irq, __entry->ret ? "handled" : "unhandled"))

RBTR_TP_CLASS(softirq,
	      TP_STRUCT__entry(__field(unsigned int, vec)),
	      TP_printk("vec=%u [action=%s]", __entry->vec,
			rbtr_show_softirq_name(__entry->vec)))

RBTR_TP_EVENT(irq_handler_entry, irq_handler_entry, irq, RBTR_PAIR_IRQ, false,
	      TP_PROTO(int irq, struct irqaction *action),
	      TP_ARGS(irq, action))
RBTR_TP_EVENT(irq_handler_exit, irq_handler_exit, irq, RBTR_PAIR_IRQ, true,
	      TP_PROTO(int irq, struct irqaction *action, int ret),
	      TP_ARGS(irq, action, ret))
RBTR_TP_EVENT(softirq_entry, softirq, irq, RBTR_PAIR_SOFTIRQ, false,
	      TP_PROTO(unsigned int vec_nr),
	      TP_ARGS(vec_nr))
RBTR_TP_EVENT(softirq_exit, softirq, irq, RBTR_PAIR_SOFTIRQ, true,
	      TP_PROTO(unsigned int vec_nr),
	      TP_ARGS(vec_nr))

/* ---- timer ----------------------------------------------------------------- */

RBTR_TP_CLASS(hrtimer_expire_entry,
	      TP_STRUCT__entry(__field(void *, hrtimer)
			       __field(s64, now)
			       __field(void *, function)),
	      TP_printk("hrtimer=%p function=%ps now=%llu",
			__entry->hrtimer, __entry->function, RBTR_ULL __entry->now))

RBTR_TP_CLASS(hrtimer_class,
	      TP_STRUCT__entry(__field(void *, hrtimer)),
	      TP_printk("hrtimer=%p", __entry->hrtimer))

RBTR_TP_EVENT(hrtimer_expire_entry, hrtimer_expire_entry, timer, RBTR_PAIR_HRTIMER, false,
	      TP_PROTO(struct hrtimer *hrtimer, ktime_t *now),
	      TP_ARGS(hrtimer, now))
RBTR_TP_EVENT(hrtimer_expire_exit, hrtimer_class, timer, RBTR_PAIR_HRTIMER, true,
	      TP_PROTO(struct hrtimer *hrtimer),
	      TP_ARGS(hrtimer))

/* ---- workqueue ------------------------------------------------------------- */

RBTR_TP_CLASS(workqueue_execute,
	      TP_STRUCT__entry(__field(void *, work)
			       __field(void *, function)),
	      TP_printk("work struct %p: function %ps", __entry->work, __entry->function))

RBTR_TP_EVENT(workqueue_execute_start, workqueue_execute, workqueue, RBTR_PAIR_WORK, false,
	      TP_PROTO(struct work_struct *work),
	      TP_ARGS(work))
RBTR_TP_EVENT(workqueue_execute_end, workqueue_execute, workqueue, RBTR_PAIR_WORK, true,
	      TP_PROTO(struct work_struct *work, work_func_t function),
	      TP_ARGS(work, function))

/* ---- raw_syscalls ---------------------------------------------------------- */

RBTR_TP_CLASS(sys_enter,
	      TP_STRUCT__entry(__field(long, id)
			       __array(unsigned long, args, 6)),
	      TP_printk("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", __entry->id,
			__entry->args[0], __entry->args[1], __entry->args[2],
			__entry->args[3], __entry->args[4], __entry->args[5]))

RBTR_TP_CLASS(sys_exit,
	      TP_STRUCT__entry(__field(long, id)
			       __field(long, ret)),
	      TP_printk("NR %ld = %ld", __entry->id, __entry->ret))

RBTR_TP_EVENT(sys_enter, sys_enter, raw_syscalls, RBTR_PAIR_SYSCALL, false,
	      TP_PROTO(struct pt_regs *regs, long id),
	      TP_ARGS(regs, id))
RBTR_TP_EVENT(sys_exit, sys_exit, raw_syscalls, RBTR_PAIR_SYSCALL, true,
	      TP_PROTO(struct pt_regs *regs, long ret),
	      TP_ARGS(regs, ret))

/* ---- the duration filter's events ------------------------------------------ */

RBTR_TP_CLASS(irq_handler_duration,
	      TP_STRUCT__entry(__field(u64, start)
			       __field(u64, duration)
			       __field(int, irq)
			       __field(int, ret)
			       __string(name)),
	      TP_printk("irq=%d name=%s ret=%s start=%llu duration=%llu",
			__entry->irq, __get_str(name),
			__entry->ret ? "handled" : "unhandled",
			__entry->start, __entry->duration))

RBTR_TP_CLASS(softirq_duration,
	      TP_STRUCT__entry(__field(u64, start)
			       __field(u64, duration)
			       __field(unsigned int, vec)),
	      TP_printk("vec=%u [action=%s] start=%llu duration=%llu", __entry->vec,
			rbtr_show_softirq_name(__entry->vec),
			__entry->start, __entry->duration))

RBTR_TP_CLASS(hrtimer_expire_duration,
	      TP_STRUCT__entry(__field(u64, start)
			       __field(u64, duration)
			       __field(void *, hrtimer)
			       __field(s64, now)
			       __field(void *, function)),
	      TP_printk("hrtimer=%p function=%ps now=%llu start=%llu duration=%llu",
			__entry->hrtimer, __entry->function, RBTR_ULL __entry->now,
			__entry->start, __entry->duration))

RBTR_TP_CLASS(workqueue_execute_duration,
	      TP_STRUCT__entry(__field(u64, start)
			       __field(u64, duration)
			       __field(void *, work)
			       __field(void *, function)),
	      TP_printk("work struct %p: function %ps start=%llu duration=%llu",
			__entry->work, __entry->function,
			__entry->start, __entry->duration))

RBTR_TP_CLASS(sys_duration,
	      TP_STRUCT__entry(__field(u64, start)
			       __field(u64, duration)
			       __field(long, id)
			       __array(unsigned long, args, 6)
			       __field(long, ret)),
	      TP_printk("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx) = %ld start=%llu duration=%llu",
			__entry->id,
			__entry->args[0], __entry->args[1], __entry->args[2],
			__entry->args[3], __entry->args[4], __entry->args[5],
			__entry->ret, __entry->start, __entry->duration))

RBTR_DUR_EVENT(irq_handler_duration, irq_handler_duration, irq, RBTR_PAIR_IRQ)
RBTR_DUR_EVENT(softirq_duration, softirq_duration, irq, RBTR_PAIR_SOFTIRQ)
RBTR_DUR_EVENT(hrtimer_expire_duration, hrtimer_expire_duration, timer, RBTR_PAIR_HRTIMER)
RBTR_DUR_EVENT(workqueue_execute_duration, workqueue_execute_duration, workqueue,
	       RBTR_PAIR_WORK)
RBTR_DUR_EVENT(sys_duration, sys_duration, raw_syscalls, RBTR_PAIR_SYSCALL)

#undef RBTR_TP_CLASS
#undef RBTR_TP_EVENT
#undef RBTR_DUR_EVENT
