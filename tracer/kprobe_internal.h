/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace dynamic probes: what the probes' definition and lifetime
 * (kprobe.c) and a probe in use (kprobe_event.c) share, and nothing
 * else uses: the probe object, the handlers' scratch area, and the
 * calls from one to the other.
 */
#ifndef _RBTR_KPROBE_INTERNAL_H
#define _RBTR_KPROBE_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/types.h>
#include "event.h"
#include "kprobe.h"

struct pt_regs;
struct rbtr_trace;

/**
 * struct rbtr_kprobe - one probe of kprobe_events
 * @list: in rbtr_kprobes or, being removed, in a list of rbtr_kp_release()'s
 *        (under rbtr_kp_mutex)
 * @type: its event type
 * @rp: the kretprobe; rp.kp the kprobe of either kind
 * @is_return: a kretprobe
 * @at_entry: at a function's entry
 * @dying: being removed: enabling it is refused (under the registry mutex)
 * @files: its enabled files, one per tracer that has it on, which the
 *         handler records into (NULL: enabled nowhere, disarmed);
 *         updated under the registry mutex, read by the handler under
 *         sched-RCU
 * @group: its system
 * @name: its event name
 * @symbol: the probed symbol
 * @nr_args: number of fetch arguments
 * @args: the fetch arguments
 * @fields: __probe_ip (or __probe_func, __probe_ret_ip) and the arguments
 * @print_fmt: its format file's print fmt
 * @fixed: size of the record without its strings
 * @was_in: the tracers it was ever enabled in (rbtr_kp_reg()), compared,
 *          never followed: an instance removed since may have left a
 *          pointer that a new one reuses, which costs a needless reset
 * @nr_was_in: their number
 * @was_anywhere: @was_in could not grow: empty every tracer at removal
 * @rcu: frees it after the readers that may be printing its records
 */
struct rbtr_kprobe {
	struct list_head	list;
	struct rbtr_event_type	type;
	struct kretprobe	rp;
	bool			is_return;
	bool			at_entry;
	bool			dying;
	struct rbtr_file_set __rcu *files;
	char			*group;
	char			*name;
	char			*symbol;
	unsigned int		nr_args;
	struct rbtr_kp_arg	*args;
	struct rbtr_field	*fields;
	char			*print_fmt;
	unsigned int		fixed;
	struct rbtr_trace	**was_in;
	unsigned int		nr_was_in;
	bool			was_anywhere;
	struct rcu_head		rcu;
};

/* The handlers' per-CPU scratch area, RBTR_KP_SCRATCH bytes (kprobe.c). */
extern void __percpu *rbtr_kp_scratch;

/* A probe in use (kprobe_event.c) */
int rbtr_kp_handler(struct kprobe *p, struct pt_regs *regs);
int rbtr_kretp_handler(struct kretprobe_instance *ri, struct pt_regs *regs);
int rbtr_kp_make_fields(struct rbtr_kprobe *tk);

#endif /* _RBTR_KPROBE_INTERNAL_H */
