/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event filters: the compiled form, shared by the parser
 * (filter.c), the matcher (filter_match.c) and the KUnit suite.
 */
#ifndef _RBTR_FILTER_INTERNAL_H
#define _RBTR_FILTER_INTERNAL_H

#include <linux/export.h>
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
 */
struct rbtr_filter {
	unsigned int		nr_preds;
	unsigned int		nr_prog;
	struct rbtr_fpred	*preds;
	u16			*prog;
	char			*text;
};

const char *rbtr_filter_err_text(int code);
bool rbtr_filter_glob(const char *pat, const char *str, size_t len);

#endif /* _RBTR_FILTER_INTERNAL_H */
