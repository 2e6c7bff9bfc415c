/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace dynamic probes: what the probes' definition and lifetime
 * (kprobe.c) and a probe in use (kprobe_event.c) share, and nothing
 * else uses: the probe object, the handlers' scratch area, and the
 * calls from one to the other; and an argument's parsed type, which the
 * fetch types (kprobe_types.c) and the arguments (kprobe_args.c) share.
 */
#ifndef _RBTR_KPROBE_INTERNAL_H
#define _RBTR_KPROBE_INTERNAL_H

#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/string.h>
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

/*
 * The fetch types (kprobe_types.c): an argument's type as parsed, which
 * its fetch (kprobe_args.c) and its printing share.
 */
/* How a type is fetched and printed, beyond its size and sign. */
enum rbtr_kp_kind {
	RBTR_KP_K_INT,		/* an integer, "%u", "%d" or "0x%x" */
	RBTR_KP_K_CHAR,		/* a u8 printed as '%c' */
	RBTR_KP_K_SYMBOL,	/* an unsigned long printed as %pS */
	RBTR_KP_K_STRING,	/* a string, in user memory below TASK_SIZE */
	RBTR_KP_K_USTRING,	/* a string in user memory */
	RBTR_KP_K_SYMSTR,	/* an address stored as its "sym+off/size" */
};

/**
 * struct rbtr_kp_xtype - the type of one argument, as parsed
 * @t: what kprobe.h's users see: the table's entry, but @t.size the
 *     whole field's and, for an array, @t.fmt its "{%u,%u}"
 * @kind: how it is fetched and printed
 * @esize: the size of one element (of the container for a bitfield)
 * @count: elements of an array (:TYPE[N]), 0 if not one
 * @lshift: a bitfield's shifts, as ftrace's FETCH_OP_MOD_BF
 * @rshift: see @lshift; 0 with @lshift 0: not a bitfield
 * @fname: the format file's field name ("a[]"), NULL: the argument's
 * @ftype: the format file's type of a string array, NULL: @t.fmttype
 * @afmt: an array's print fmt conversions, which @t.fmt points at
 *
 * Every argument has one of its own, allocated: ftrace keeps the count
 * and the shifts per argument too (probe_arg, fetch_insn), and
 * struct rbtr_kp_arg has no room for them.
 */
struct rbtr_kp_xtype {
	struct rbtr_kp_ftype	t;
	enum rbtr_kp_kind	kind;
	unsigned int		esize;
	unsigned int		count;
	u8			lshift;
	u8			rshift;
	char			*fname;
	char			*ftype;
	char			*afmt;
};

/* The type of @arg, whose arg->type is its @t. */
static inline const struct rbtr_kp_xtype *rbtr_kp_x(const struct rbtr_kp_arg *arg)
{
	return container_of(arg->type, struct rbtr_kp_xtype, t);
}

/* The integer of @size bytes at @p, sign-extended if @sign. */
static inline u64 rbtr_kp_load(const void *p, unsigned int size, bool sign)
{
	union { s8 b; s16 h; s32 w; u64 d; } u = { .d = 0 };

	memcpy(&u, p, size);
	switch (size) {
	case 1:
		return sign ? (u64)(s64)u.b : (u8)u.b;
	case 2:
		return sign ? (u64)(s64)u.h : (u16)u.h;
	case 4:
		return sign ? (u64)(s64)u.w : (u32)u.w;
	default:
		return u.d;
	}
}

int rbtr_kp_parse_type(struct rbtr_kp_arg *arg, char *t);
void rbtr_kp_free_type(struct rbtr_kp_arg *arg);

#endif /* _RBTR_KPROBE_INTERNAL_H */
