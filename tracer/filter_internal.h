/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event filters: the compiled form, shared by the parser
 * (filter.c), the matcher (filter_match.c) and the KUnit suite.
 */
#ifndef _RBTR_FILTER_INTERNAL_H
#define _RBTR_FILTER_INTERNAL_H

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>

/* Longest string operand, ftrace's MAX_FILTER_STR_VAL. */
#define RBTR_FILTER_MAX_STR	256

/* ftrace's enum filter_op_ids, in its order. */
enum rbtr_fop {
	RBTR_FOP_GLOB, RBTR_FOP_NE, RBTR_FOP_EQ, RBTR_FOP_LE, RBTR_FOP_LT,
	RBTR_FOP_GE, RBTR_FOP_GT, RBTR_FOP_BAND,
};

/* ftrace's filter parse errors, with its texts (rbtr_filter_err_text()). */
enum rbtr_fe {
	RBTR_FE_NONE, RBTR_FE_INVALID_OP, RBTR_FE_TOO_MANY_OPEN, RBTR_FE_TOO_MANY_CLOSE,
	RBTR_FE_MISSING_QUOTE, RBTR_FE_OPERAND_TOO_LONG, RBTR_FE_EXPECT_STRING,
	RBTR_FE_EXPECT_DIGIT, RBTR_FE_ILLEGAL_FIELD_OP, RBTR_FE_FIELD_NOT_FOUND,
	RBTR_FE_ILLEGAL_INTVAL, RBTR_FE_BAD_SUBSYS_FILTER, RBTR_FE_TOO_MANY_PREDS,
	RBTR_FE_INVALID_FILTER, RBTR_FE_INVALID_VALUE, RBTR_FE_ERRNO, RBTR_FE_NO_FILTER,
};

/* What a predicate reads (ftrace's filter types). */
enum rbtr_fpred_kind {
	RBTR_FP_NUM,	/* an integer field of 1, 2, 4 or 8 bytes (others: never true) */
	RBTR_FP_CPU,	/* the CPU the event is written on */
	RBTR_FP_COMM,	/* current->comm */
	RBTR_FP_STR,	/* char array */
	RBTR_FP_DYNSTR,	/* __data_loc char[] */
	RBTR_FP_RELSTR,	/* __rel_loc char[] */
	RBTR_FP_PTRSTR,	/* const char *, read with strncpy_from_kernel_nofault() */
};

/* How a string operand is compared (ftrace's enum regex_type). */
enum rbtr_fmatch {
	RBTR_FM_FULL, RBTR_FM_FRONT, RBTR_FM_MIDDLE, RBTR_FM_END, RBTR_FM_GLOB,
};

/**
 * struct rbtr_fpred - one "FIELD OP VALUE"
 * @kind: RBTR_FP_*
 * @op: RBTR_FOP_*
 * @match: RBTR_FM_*, for strings
 * @not: the result is inverted ("!=", "~ \"!x\"")
 * @is_signed: the field's sign
 * @offset: the field's offset in the record
 * @size: the field's size
 * @plen: length of @pattern
 * @val: the number compared with
 * @pattern: the string compared with, NUL-terminated
 */
struct rbtr_fpred {
	u8		kind;
	u8		op;
	u8		match;
	bool		not;
	bool		is_signed;
	u16		offset;
	u16		size;
	u16		plen;
	u64		val;
	char		*pattern;
};

/* Program entries: below RBTR_FPROG_NOT, the index of a predicate. */
#define RBTR_FPROG_NOT		0xfffc
#define RBTR_FPROG_AND		0xfffd
#define RBTR_FPROG_OR		0xfffe
#define RBTR_FPROG_LPAREN	0xffff	/* parser only */

/**
 * struct rbtr_filter - a compiled filter
 * @nr_preds: number of predicates
 * @nr_prog: entries of @prog
 * @preds: the predicates
 * @prog: postfix program over @preds
 * @text: the text as written
 * @fast: the one predicate of a filter that is one number compare on a
 *        field of the event's own (not a common field), else NULL:
 *        rbtr_filter_match_fast() decides it without the program, and
 *        the record's common fields need not be filled before (see
 *        rbtr_event_reserve_fast())
 */
struct rbtr_filter {
	unsigned int		nr_preds;
	unsigned int		nr_prog;
	struct rbtr_fpred	*preds;
	u16			*prog;
	char			*text;
	const struct rbtr_fpred	*fast;
};

/*
 * ftrace's comparisons, on the field's value widened with its sign:
 * @cmp is the order of the two (-1, 0, 1) as the field's type orders
 * them, @band their bitwise and.
 */
static __always_inline bool rbtr_fm_cmp(u8 op, int cmp, bool band)
{
	switch (op) {
	case RBTR_FOP_EQ:
	case RBTR_FOP_NE:
		return !cmp;
	case RBTR_FOP_LT:
		return cmp < 0;
	case RBTR_FOP_LE:
		return cmp <= 0;
	case RBTR_FOP_GT:
		return cmp > 0;
	case RBTR_FOP_GE:
		return cmp >= 0;
	case RBTR_FOP_BAND:
		return band;
	}
	return false;
}

/*
 * A number field: its value and the operand both cut to the field's size
 * (ftrace casts the operand to the field's type), then widened with the
 * field's sign. Other sizes have no comparison in ftrace: never true.
 */
static __always_inline bool rbtr_fm_num(const struct rbtr_fpred *p, const u8 *rec,
					unsigned int size)
{
	const void *a = rec + p->offset;
	union { u8 b; u16 h; u32 w; u64 q; } x;
	u64 uv, v = p->val;
	s64 sv, s;
	int cmp;
	bool r;

	if (p->offset + p->size > size)
		return false;
	switch (p->size) {
	case 1:
		memcpy(&x.b, a, 1);
		uv = x.b, s = (s8)x.b, sv = (s8)v, v = (u8)v;
		break;
	case 2:
		memcpy(&x.h, a, 2);
		uv = x.h, s = (s16)x.h, sv = (s16)v, v = (u16)v;
		break;
	case 4:
		memcpy(&x.w, a, 4);
		uv = x.w, s = (s32)x.w, sv = (s32)v, v = (u32)v;
		break;
	case 8:
		memcpy(&x.q, a, 8);
		uv = x.q, s = (s64)x.q, sv = (s64)v;
		break;
	default:
		return false;
	}
	if (p->is_signed)
		cmp = (s > sv) - (s < sv);
	else
		cmp = (uv > v) - (uv < v);
	r = rbtr_fm_cmp(p->op, cmp, p->is_signed ? !!(s & sv) : !!(uv & v));
	return r != p->not;
}

/**
 * rbtr_filter_match_fast - rbtr_filter_match() of a filter with @f->fast
 * @f: the filter, @f->fast set
 * @rec: the record; its common fields may be unset
 * @size: its size
 *
 * The same comparison rbtr_filter_match() makes of that predicate
 * (rbtr_fm_num()), without the program's walk and its calls: the
 * writers' reject path (rbtr_event_cond_commit()). The KUnit suite
 * checks the two agree on every operator, size and sign.
 *
 * Return: true to keep the record.
 */
static __always_inline bool rbtr_filter_match_fast(const struct rbtr_filter *f,
						   const void *rec, unsigned int size)
{
	return rbtr_fm_num(f->fast, rec, size);
}

const char *rbtr_filter_err_text(int code);
bool rbtr_filter_glob(const char *pat, const char *str, size_t len);

#endif /* _RBTR_FILTER_INTERNAL_H */
