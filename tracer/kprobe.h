/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace dynamic probes (kprobe_events): what kprobe.c, which owns the
 * probes and the kprobe_events file, and kprobe_event.c, their handlers
 * and event type, share with kprobe_args.c, which parses event names and
 * fetch arguments, describes the arguments as fields and fetches them.
 */
#ifndef _RBTR_KPROBE_H
#define _RBTR_KPROBE_H

#include <linux/types.h>

struct pt_regs;
struct seq_buf;
struct seq_file;
struct rbtr_field;
struct rbtr_trace;

/* ftrace's MAX_TRACE_ARGS and MAX_EVENT_NAME_LEN */
#define RBTR_KP_MAX_ARGS	128
#define RBTR_KP_NAME_MAX	64
/* Nested +OFF(...) of one argument, as ftrace's FETCH_INSN_MAX allows. */
#define RBTR_KP_MAX_DEREF	8
/* A record's body is built in a per-CPU area of this size (see kprobe.c). */
#define RBTR_KP_SCRATCH		4096
/* A fetched string is cut to this many bytes, its NUL included. */
#define RBTR_KP_STR_MAX		1024

/* Where an argument's value starts from. */
enum rbtr_kp_base {
	RBTR_KP_REG,		/* %reg: a pt_regs member */
	RBTR_KP_ARG,		/* $argN: the Nth argument at function entry */
	RBTR_KP_RETVAL,		/* $retval */
	RBTR_KP_STACK,		/* $stack: the stack pointer */
	RBTR_KP_STACKN,		/* $stackN: the Nth word on the stack */
	RBTR_KP_COMM,		/* $comm: current->comm */
	RBTR_KP_IMM,		/* \IMM: a constant */
};

/**
 * struct rbtr_kp_ftype - a fetch type (":u32"), as ftrace's fetch_type
 * @name: its suffix
 * @fmttype: the field's type in the format file
 * @fmt: its conversion in the print fmt
 * @size: bytes in the record
 * @is_signed: the format file's "signed:"
 * @is_hex: shown as 0x...
 * @is_string: a __data_loc string
 */
struct rbtr_kp_ftype {
	const char	*name;
	const char	*fmttype;
	const char	*fmt;
	unsigned int	size;
	bool		is_signed;
	bool		is_hex;
	bool		is_string;
};

/**
 * struct rbtr_kp_arg - one fetch argument of a probe
 * @name: its field name ("arg1" unless NAME= was given)
 * @comm: its text after "NAME=", as kprobe_events reads it back
 * @base: where the value starts
 * @param: register offset in pt_regs, N of $argN/$stackN, or the constant
 * @nr_deref: number of +OFF(...) around the base, innermost last in @off
 * @off: their offsets, @off[0] the outermost
 * @type: its fetch type
 * @offset: the field's offset in the record
 */
struct rbtr_kp_arg {
	char				*name;
	char				*comm;
	enum rbtr_kp_base		base;
	unsigned long			param;
	unsigned int			nr_deref;
	long				off[RBTR_KP_MAX_DEREF];
	const struct rbtr_kp_ftype	*type;
	unsigned int			offset;
};

int rbtr_kp_parse_head(const char *head, bool *is_return, int *maxactive, char **group,
		       char **name);
char *rbtr_kp_default_name(bool is_return, const char *symbol, unsigned long off);
int rbtr_kp_parse_arg(struct rbtr_kp_arg *arg, const char *text, unsigned int idx,
		      bool is_return, bool at_entry);
void rbtr_kp_free_arg(struct rbtr_kp_arg *arg);
void rbtr_kp_arg_field(const struct rbtr_kp_arg *arg, struct rbtr_field *f);
char *rbtr_kp_print_fmt(const struct rbtr_kp_arg *args, unsigned int nr, bool is_return);
unsigned int rbtr_kp_fetch_args(const struct rbtr_kp_arg *args, unsigned int nr,
				struct pt_regs *regs, void *rec, unsigned int fixed,
				unsigned int room);
void rbtr_kp_print_args(struct seq_buf *s, const struct rbtr_kp_arg *args,
			unsigned int nr, const void *rec, unsigned int len);

/* kprobe_events and the probes' lifetime (kprobe.c): none without kretprobes */
#ifdef CONFIG_KRETPROBES
void rbtr_kprobes_files(struct rbtr_trace *tr);
void rbtr_kprobes_exit(void);
#else
static inline void rbtr_kprobes_files(struct rbtr_trace *tr)
{
}

static inline void rbtr_kprobes_exit(void)
{
}
#endif

#endif /* _RBTR_KPROBE_H */
