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
#include <linux/build_bug.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include "tp_format.h"

/* What tp_events.h spells out of the kernel's constants. */
static_assert(RBTR_COMM_LEN == TASK_COMM_LEN);
static_assert(HI_SOFTIRQ == 0 && TIMER_SOFTIRQ == 1 && NET_TX_SOFTIRQ == 2 &&
	      NET_RX_SOFTIRQ == 3 && BLOCK_SOFTIRQ == 4 && IRQ_POLL_SOFTIRQ == 5 &&
	      TASKLET_SOFTIRQ == 6 && SCHED_SOFTIRQ == 7 && HRTIMER_SOFTIRQ == 8 &&
	      RCU_SOFTIRQ == 9 && NR_SOFTIRQS == 10);

/* ---- fields and print fmt: what the format files say ------------------- */

/*
 * rbtr_tp_fields_<class>() returns the class's field table, laid out from
 * its record (the local @entry names its type): offset, size and sign
 * come from the member itself. An array or a __data_loc is signed as its
 * element, as the kernel's __array() and __dynamic_array() (char is signed
 * on 6.1, unsigned since 6.2's -funsigned-char: this build's compiler
 * knows which).
 */
#define RBTR_TP_F(_type, _name, _e, _elem, _kind) {			\
	.type = (_type), .name = (_name),				\
	.offset = (size_t)&(_e), .size = sizeof(_e),			\
	.is_signed = is_signed_type(_elem), .kind = (_kind) },
#define RBTR_TP_M(item)		((*RBTR_REC(typeof(entry))).item)

/* A pointer shows in hex in the generic text, other integers in decimal. */
#define RBTR_TP_KIND(type)						\
	(__builtin_types_compatible_p(type, void *) ? RBTR_FIELD_HEX : RBTR_FIELD_NUM)

/*
 * rbtr_tp_fmt_<class>: the print fmt, as the kernel makes it
 * (include/trace/stages/stage7_class_define.h): the format and its
 * arguments stringified, __entry read as REC and the kernel's macros in
 * them (task state bits) expanded; __get_str(), __print_flags() and
 * __print_symbolic() are no macros here.
 */
#define TP_STRUCT__entry(args...)	args
#define __field(type, item)						\
	RBTR_TP_F(#type, #item, RBTR_TP_M(item), type, RBTR_TP_KIND(type))
#define __array(type, item, len)					\
	RBTR_TP_F(#type, #item "[" __stringify(len) "]", RBTR_TP_M(item), type, \
		  __builtin_types_compatible_p(type, char) ?		\
		  RBTR_FIELD_CHARS : RBTR_FIELD_BYTES)
#define __string(item)							\
	RBTR_TP_F("__data_loc char[]", #item, RBTR_TP_M(item), char, RBTR_FIELD_STRLOC)
#define __entry				REC
#define TP_printk(fmt, args...)		"\"" fmt "\", " __stringify(args)
#define RBTR_TP_CLASS(class, tstruct, print)				\
static const char rbtr_tp_fmt_##class[] = print;			\
									\
static const struct rbtr_field *rbtr_tp_fields_##class(unsigned int *nr) \
{									\
	struct rbtr_rec_##class entry __maybe_unused;			\
	static const struct rbtr_field fields[] = { tstruct };		\
									\
	*nr = ARRAY_SIZE(fields);					\
	return fields;							\
}

#include "tp_events.h"
#undef __field
#undef __array
#undef __string
#undef __entry
#undef TP_printk

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

/*
 * A __data_loc string of @rec: NUL-terminated inside the record (the
 * probes write it so), or a placeholder.
 */
static const char *rbtr_tp_get_str(const void *rec, unsigned int len, u32 loc)
{
	unsigned int off = loc & 0xffff, size = loc >> 16;

	if (!size || off + size > len || !memchr(rec + off, '\0', size))
		return "(bad)";
	return rec + off;
}

/* A value and its name, for __print_flags() and __print_symbolic(). */
struct rbtr_tp_sym {
	unsigned long	val;
	const char	*name;
};

/*
 * Room for the text of the __print_flags() and __print_symbolic() of one
 * line, each a NUL-terminated piece of @buf (trace_seq's tmp_seq in the
 * kernel); a piece that does not fit is cut.
 */
struct rbtr_tp_tmp {
	unsigned int	used;
	char		buf[64];
};

static const char *rbtr_tp_tmp_begin(struct rbtr_tp_tmp *t)
{
	t->buf[t->used] = '\0';
	return t->buf + t->used;
}

static __printf(2, 3) void rbtr_tp_tmp_add(struct rbtr_tp_tmp *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, sizeof(t->buf) - t->used, fmt, ap);
	va_end(ap);
	t->used = min_t(unsigned int, t->used + n, sizeof(t->buf) - 1);
}

/* The end of the piece that began at @start: the next one begins after it. */
static const char *rbtr_tp_tmp_end(struct rbtr_tp_tmp *t, const char *start)
{
	t->used = min_t(unsigned int, t->used + 1, sizeof(t->buf) - 1);
	return start;
}

/* trace_print_flags_seq(): the names of the bits set, then what is left. */
static const char *rbtr_tp_print_flags(struct rbtr_tp_tmp *t, unsigned long flags,
				       const char *delim, const struct rbtr_tp_sym *sym)
{
	const char *start = rbtr_tp_tmp_begin(t), *d = "";

	for (; sym->name && flags; sym++) {
		if ((flags & sym->val) != sym->val)
			continue;
		rbtr_tp_tmp_add(t, "%s%s", d, sym->name);
		flags &= ~sym->val;
		d = delim;
	}
	if (flags)
		rbtr_tp_tmp_add(t, "%s0x%lx", d, flags);
	return rbtr_tp_tmp_end(t, start);
}

/* trace_print_symbols_seq(): the name of @val, or its value in hex. */
static const char *rbtr_tp_print_symbolic(struct rbtr_tp_tmp *t, unsigned long val,
					  const struct rbtr_tp_sym *sym)
{
	const char *start;

	for (; sym->name; sym++)
		if (sym->val == val)
			return sym->name;
	start = rbtr_tp_tmp_begin(t);
	rbtr_tp_tmp_add(t, "0x%lx", val);
	return rbtr_tp_tmp_end(t, start);
}

/*
 * End each char array of @entry, a copy of a record of @class, with a NUL,
 * so that "%s" stops inside the record.
 */
static void rbtr_tp_end_strings(void *entry, const struct rbtr_field *f, unsigned int nr)
{
	for (; nr; nr--, f++)
		if (f->kind == RBTR_FIELD_CHARS)
			((char *)entry)[f->offset + f->size - 1] = '\0';
}

/*
 * rbtr_tp_print_<class>(): the record's text from its TP_printk(), as the
 * kernel's trace_raw_output_<class>() (stage3_trace_output.h). It reads a
 * copy of the fixed part (records are only four-byte aligned), with its
 * char arrays ended.
 */
#define __entry				(&entry)
#define __get_str(item)			rbtr_tp_get_str(rec, len, entry.item)
#define __print_flags(flag, delim, flag_array...) ({			\
	static const struct rbtr_tp_sym syms[] = { flag_array, { 0, NULL } }; \
	rbtr_tp_print_flags(&tmp, flag, delim, syms);			\
})
#define __print_symbolic(value, symbol_array...) ({			\
	static const struct rbtr_tp_sym syms[] = { symbol_array, { 0, NULL } }; \
	rbtr_tp_print_symbolic(&tmp, value, syms);			\
})
#define TP_printk(fmt, args...)						\
	seq_buf_printf(s, "%s: " fmt "\n", type->name, args)
#define RBTR_TP_CLASS(class, tstruct, print)				\
static void rbtr_tp_print_##class(struct seq_buf *s,			\
				  const struct rbtr_event_type *type,	\
				  const void *rec, unsigned int len)	\
{									\
	const unsigned int need = offsetof(struct rbtr_rec_##class, __data); \
	struct rbtr_tp_tmp tmp __maybe_unused = { .used = 0 };		\
	struct rbtr_rec_##class entry;					\
	const struct rbtr_field *f;					\
	unsigned int nr;						\
									\
	if (rbtr_tp_short(s, type, len, need))				\
		return;							\
	memcpy(&entry, rec, need);					\
	f = rbtr_tp_fields_##class(&nr);				\
	rbtr_tp_end_strings(&entry, f, nr);				\
	print;								\
} RBTR_TP_UNUSED(tstruct)
#include "tp_events.h"
#undef TP_STRUCT__entry
#undef __entry
#undef __get_str
#undef __print_flags
#undef __print_symbolic
#undef TP_printk

/* ---- the descriptions -------------------------------------------------- */

#define RBTR_TP_DESC(_class, _system, _name) {				\
	.system = #_system, .name = #_name,				\
	.fields = rbtr_tp_fields_##_class,				\
	.print_fmt = rbtr_tp_fmt_##_class,				\
	.print = rbtr_tp_print_##_class,				\
}

const struct rbtr_tp_desc rbtr_tp_descs[RBTR_TP_NR] = {
#define RBTR_TP_EVENT(name, class, system, ...)				\
	[RBTR_TP_##name] = RBTR_TP_DESC(class, system, name),
#include "tp_events.h"
};

/* The duration events': start and duration, the entry's and exit's fields. */
const struct rbtr_tp_desc rbtr_dur_descs[RBTR_PAIR_NR] = {
#define RBTR_DUR_EVENT(name, class, system, pair)			\
	[pair] = RBTR_TP_DESC(class, system, name),
#include "tp_events.h"
};
