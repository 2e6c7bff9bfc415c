// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the event filter parser and matcher (tracer/filter*.c).
 *
 * A fake event type has a field of every kind the filters know (integers
 * of each size and sign, char arrays, __data_loc and __rel_loc strings,
 * a const char *, the kernel events' kinds); records are built by hand.
 * Each operator is tried on each kind, the precedence of "&&", "||" and
 * '!' against a truth table, malformed texts (each refused with ftrace's
 * errno and error, nothing kept), page-long texts, deep nesting, and a
 * __data_loc pointing out of its record.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include "rbt_kunit.h"
#include "tracer/event.h"
#include "tracer/filter.h"
#include "tracer/filter_internal.h"

struct flt_rec {
	struct rbtr_entry ent;
	s64	s64v;
	u64	u64v;
	s32	s32v;
	u32	u32v;
	s16	s16v;
	u16	u16v;
	s8	s8v;
	u8	u8v;
	u8	x, y, z, pad;
	char	comm[16];
	char	kcomm[16];
	u32	dloc;		/* __data_loc char[] (rbtrace's kind) */
	u32	kdloc;		/* __data_loc char[] (a kernel event's kind) */
	u32	rloc;		/* __rel_loc char[] */
	u32	darr;		/* __data_loc int[]: numbers only, on the raw word */
	const char *ptr;	/* const char * */
	int	arr[3];		/* a fixed array: never true as a number */
	char	data[64];
};

/* Arrays by hand: RBTR_FIELD() takes the sign of scalars only. */
static const struct rbtr_field flt_fields[] = {
	RBTR_FIELD(RBTR_REC(struct flt_rec)->s64v, "s64", "s64v", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->u64v, "u64", "u64v", RBTR_FIELD_HEX),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->s32v, "s32", "s32v", RBTR_FIELD_K_INT),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->u32v, "u32", "u32v", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->s16v, "s16", "s16v", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->u16v, "u16", "u16v", RBTR_FIELD_K_INT),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->s8v, "s8", "s8v", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->u8v, "u8", "u8v", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->x, "u8", "x", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->y, "u8", "y", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->z, "u8", "z", RBTR_FIELD_NUM),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->dloc, "__data_loc char[]", "dloc", RBTR_FIELD_STRLOC),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->kdloc, "__data_loc char[]", "kdloc",
		   RBTR_FIELD_K_DYNSTR),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->rloc, "__rel_loc char[]", "rloc", RBTR_FIELD_K_RELSTR),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->darr, "__data_loc int[]", "darr", RBTR_FIELD_K_DYNARR),
	RBTR_FIELD(RBTR_REC(struct flt_rec)->ptr, "const char *", "ptr", RBTR_FIELD_K_PTRSTR),
	{ .type = "char", .name = "comm[16]", .offset = offsetof(struct flt_rec, comm),
	  .size = sizeof_field(struct flt_rec, comm), .is_signed = false,
	  .kind = RBTR_FIELD_CHARS },
	{ .type = "char", .name = "kcomm[16]", .offset = offsetof(struct flt_rec, kcomm),
	  .size = sizeof_field(struct flt_rec, kcomm), .is_signed = false,
	  .kind = RBTR_FIELD_K_STR },
	{ .type = "int", .name = "arr[3]", .offset = offsetof(struct flt_rec, arr),
	  .size = sizeof_field(struct flt_rec, arr), .is_signed = true,
	  .kind = RBTR_FIELD_K_ARRAY },
};

static const struct rbtr_event_type flt_type = {
	.system = "flt", .name = "test", .fields = flt_fields,
	.nr_fields = ARRAY_SIZE(flt_fields),
};

static const char flt_ptr_str[] = "pointed at";

/* The record every table case matches against. */
static void flt_fill(struct flt_rec *r)
{
	unsigned int off = offsetof(struct flt_rec, data);

	memset(r, 0, sizeof(*r));
	r->ent.type = 77;
	r->ent.flags = 0x09;
	r->ent.preempt_count = 2;
	r->ent.pid = 1234;
	r->s64v = -5;
	r->u64v = 0xffffffff00000000ULL;
	r->s32v = -7;
	r->u32v = 4000000000U;
	r->s16v = -300;
	r->u16v = 65000;
	r->s8v = -1;
	r->u8v = 200;
	strscpy(r->comm, "kworker/1:2", sizeof(r->comm));
	strscpy(r->kcomm, "kworker/1:2", sizeof(r->kcomm));
	/* "hello world\0" at data[0], "relative\0" at data[16] */
	strscpy(r->data, "hello world", 16);
	strscpy(r->data + 16, "relative", 16);
	r->dloc = (12 << 16) | off;
	r->kdloc = (12 << 16) | off;
	r->rloc = (9 << 16) | (off + 16 - (offsetof(struct flt_rec, rloc) + 4));
	r->darr = 0x00040000 | off;
	r->ptr = flt_ptr_str;
	r->arr[0] = 1;
}

static struct rbtr_filter *flt_parse(struct kunit *test, const char *text,
				     struct rbtr_filter_err *err)
{
	return rbtr_filter_parse_err(&flt_type, text, err);
}

/* Parse @text, which must parse, and match it against @r. */
static bool flt_match(struct kunit *test, const char *text, const struct flt_rec *r,
		      unsigned int size)
{
	struct rbtr_filter_err err;
	struct rbtr_filter *f = flt_parse(test, text, &err);
	bool hit;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "'%s' refused: %ld, %s at %u", text,
			       PTR_ERR(f), rbtr_filter_err_text(err.code), err.pos);
	KUNIT_EXPECT_STREQ(test, rbtr_filter_text(f), text);
	hit = rbtr_filter_match(f, r, size);
	rbtr_filter_free(f);
	return hit;
}

struct flt_case {
	const char	*text;
	bool		hit;
};

static const struct flt_case flt_cases[] = {
	/* 8 bytes, signed and unsigned */
	{ "s64v == -5", true }, { "s64v != -5", false }, { "s64v < 0", true },
	{ "s64v <= -6", false }, { "s64v > -6", true }, { "s64v >= -5", true },
	{ "s64v & 2", true }, { "s64v & 4", false },
	{ "u64v == 0xffffffff00000000", true }, { "u64v > 0x7fffffffffffffff", true },
	{ "u64v < 1", false }, { "u64v <= 18446744069414584320", true },
	{ "u64v >= 18446744069414584321", false }, { "u64v & 0x100000000", true },
	{ "u64v != 0", true },
	/* 4 bytes: a value cut to the field's size, as ftrace */
	{ "s32v == -7", true }, { "s32v == 0xfffffff9", true }, { "s32v < -6", true },
	{ "s32v > 0", false }, { "s32v & 1", true }, { "s32v >= -7", true },
	{ "u32v > 3000000000", true }, { "u32v <= 4000000000", true }, { "u32v < 5", false },
	{ "u32v != 4000000000", false }, { "u32v & 0x80000000", true },
	/* 2 and 1 bytes */
	{ "s16v < -299", true }, { "s16v == -300", true }, { "s16v > 0", false },
	{ "u16v >= 65000", true }, { "u16v == 65000", true }, { "u16v & 1", false },
	{ "s8v < 0", true }, { "s8v == 255", true }, { "s8v == -1", true }, { "s8v > -1", false },
	{ "u8v > 127", true }, { "u8v & 0x80", true }, { "u8v & 0x01", false },
	{ "u8v == 0310", true }, { "u8v != 200", false }, { "u8v <= 200", true },
	/* the common fields */
	{ "common_pid == 1234", true }, { "common_pid != 1234", false },
	{ "common_flags & 8", true }, { "common_flags == 9", true },
	{ "common_preempt_count == 2", true }, { "common_type == 77", true },
	{ "common_type > 77", false },
	/* a __data_loc int[] compares its raw word; a fixed array never */
	{ "darr != 0", true }, { "arr == 1", false }, { "arr != 1", false },
	/* char arrays, both kinds */
	{ "comm == \"kworker/1:2\"", true }, { "comm != \"kworker/1:2\"", false },
	{ "comm == 'kworker'", false }, { "comm ~ \"kworker\"", false },
	{ "comm ~ \"kworker*\"", true }, { "comm ~ \"*1:2\"", true }, { "comm ~ \"*ker/*\"", true },
	{ "comm ~ \"k?orker/[0-9]:*\"", true }, { "comm ~ \"k[!w]*\"", false },
	{ "comm ~ \"!kw*\"", false }, { "comm ~ \"!x*\"", true }, { "comm ~ \"*\"", true },
	{ "comm ~ \"*x*\"", false }, { "comm ~ \"*1\"", false }, { "comm ~ \"kworker/1:2\"", true },
	{ "kcomm == \"kworker/1:2\"", true }, { "kcomm ~ \"*orker*\"", true },
	{ "kcomm != \"x\"", true },
	/* __data_loc and __rel_loc strings */
	{ "dloc == \"hello world\"", true }, { "dloc != \"hello world\"", false },
	{ "dloc ~ \"hello*\"", true }, { "dloc ~ \"*world\"", true }, { "dloc ~ \"*lo w*\"", true },
	{ "dloc ~ \"h*o w?r[l]d\"", true }, { "dloc == \"hello\"", false },
	{ "kdloc == \"hello world\"", true }, { "kdloc ~ \"*xyz\"", false },
	{ "rloc == \"relative\"", true }, { "rloc ~ \"rel*\"", true },
	{ "rloc != \"relative\"", false },
	/* const char * */
	{ "ptr == \"pointed at\"", true }, { "ptr ~ \"*at\"", true },
	{ "ptr != \"pointed at\"", false },
	/* COMM is the current task's */
	{ "COMM != \"no such task\"", true }, { "comm != \"kworker/1:2\"", false },
	/* the event's own "comm" comes first; COMM is current's */
	{ "COMM == \"kworker/1:2\"", false },
	/* CPU & is never true in ftrace */
	{ "CPU & 1", false }, { "cpu >= 0", true }, { "common_cpu < 0", false },
	/* values */
	{ "s32v == -0x7", true }, { "u8v == 0xc8", true }, { "u8v == 0XC8", true },
};

static void rbtrace_filter_ops_on_every_kind(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	flt_fill(r);
	for (i = 0; i < ARRAY_SIZE(flt_cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, flt_match(test, flt_cases[i].text, r, sizeof(*r)),
				    flt_cases[i].hit, "'%s'", flt_cases[i].text);
}

/* CPU and COMM read the context the filter runs in. */
static void rbtrace_filter_cpu_and_comm(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	char buf[64];
	int cpu;

	KUNIT_ASSERT_NOT_NULL(test, r);
	flt_fill(r);
	/*
	 * Kept on this CPU, not made atomic: flt_match() parses, which
	 * allocates with GFP_KERNEL (get_cpu() here was a sleep in atomic
	 * context that only CONFIG_DEBUG_ATOMIC_SLEEP reports).
	 */
	migrate_disable();
	cpu = smp_processor_id();
	snprintf(buf, sizeof(buf), "CPU == %d", cpu);
	KUNIT_EXPECT_TRUE(test, flt_match(test, buf, r, sizeof(*r)));
	snprintf(buf, sizeof(buf), "CPU != %d || cpu > %d", cpu, cpu);
	KUNIT_EXPECT_FALSE(test, flt_match(test, buf, r, sizeof(*r)));
	snprintf(buf, sizeof(buf), "COMM == \"%s\"", current->comm);
	KUNIT_EXPECT_TRUE(test, flt_match(test, buf, r, sizeof(*r)));
	migrate_enable();
}

/* Precedence: "&&" over "||", '!' on the next operand, parentheses. */
struct flt_prec {
	const char	*text;
	bool		(*want)(bool x, bool y, bool z);
};

static bool p1(bool x, bool y, bool z) { return x || (y && z); }
static bool p2(bool x, bool y, bool z) { return (x || y) && z; }
static bool p3(bool x, bool y, bool z) { return !x && y; }
static bool p4(bool x, bool y, bool z) { return !(x && y) || z; }
static bool p5(bool x, bool y, bool z) { return x; }
static bool p6(bool x, bool y, bool z) { return x && !(y || !z); }
static bool p7(bool x, bool y, bool z) { return x || y || z; }
static bool p8(bool x, bool y, bool z) { return x && y && z; }
static bool p9(bool x, bool y, bool z) { return (x && y) || z; }
static bool p10(bool x, bool y, bool z) { return x || (!y && z); }
static bool p11(bool x, bool y, bool z) { return !x || (y && !z); }
static bool p12(bool x, bool y, bool z) { return !(x || y) && !z; }
static bool p13(bool x, bool y, bool z) { return (x && (y || z)) || (!x && !(y && z)); }
static bool p14(bool x, bool y, bool z) { return !x; }

static const struct flt_prec flt_precs[] = {
	{ "x == 1 || y == 1 && z == 1", p1 },
	{ "(x == 1 || y == 1) && z == 1", p2 },
	{ "!x == 1 && y == 1", p3 },
	{ "!(x == 1 && y == 1) || z == 1", p4 },
	{ "!!x == 1", p5 },
	{ "((((x == 1))))", p5 },
	{ "x == 1 && !(y == 1 || !z == 1)", p6 },
	{ "x==1||y==1||z==1", p7 },
	{ "x == 1 && y == 1 && z == 1", p8 },
	{ "x == 1 && y == 1 || z == 1", p9 },
	{ "x == 1 || !y == 1 && z == 1", p10 },
	{ "!(x == 1) || (y == 1 && !(z == 1))", p11 },
	{ "!(x == 1 || y == 1) && !z == 1", p12 },
	{ "(x == 1 && (y == 1 || z == 1)) || (!x == 1 && !(y == 1 && z == 1))", p13 },
	{ "x != 1", p14 },
	{ "!(!(!(x == 1)))", p14 },
};

static void rbtrace_filter_precedence(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int i, v;

	KUNIT_ASSERT_NOT_NULL(test, r);
	flt_fill(r);
	for (i = 0; i < ARRAY_SIZE(flt_precs); i++) {
		for (v = 0; v < 8; v++) {
			r->x = v & 1;
			r->y = !!(v & 2);
			r->z = !!(v & 4);
			KUNIT_EXPECT_EQ_MSG(test, flt_match(test, flt_precs[i].text, r, sizeof(*r)),
					    flt_precs[i].want(r->x, r->y, r->z),
					    "'%s' x=%d y=%d z=%d", flt_precs[i].text,
					    r->x, r->y, r->z);
		}
	}
}

/* Malformed texts: ftrace's errno (some odd) and error, with the position. */
struct flt_bad {
	const char	*text;
	int		err;
	int		code;
};

static const struct flt_bad flt_bads[] = {
	{ "", -EINVAL, RBTR_FE_NONE },
	{ "   ", -EINVAL, RBTR_FE_NONE },
	{ "()", -EINVAL, RBTR_FE_NONE },
	{ "&&", -EPERM, RBTR_FE_NONE },
	{ "||", -EPERM, RBTR_FE_NONE },
	{ "!", -EINVAL, RBTR_FE_NO_FILTER },
	{ "nosuch == 1", -EINVAL, RBTR_FE_FIELD_NOT_FOUND },
	{ "1 == u8v", -EINVAL, RBTR_FE_FIELD_NOT_FOUND },
	{ "u8v == 1 && nosuch == 2", -EINVAL, RBTR_FE_FIELD_NOT_FOUND },
	{ "comm16 == \"a\"", -EINVAL, RBTR_FE_FIELD_NOT_FOUND },
	{ "stacktrace == 1", -EINVAL, RBTR_FE_FIELD_NOT_FOUND },
	{ "u8v = 1", -EINVAL, RBTR_FE_INVALID_OP },
	{ "u8v", -EINVAL, RBTR_FE_INVALID_OP },
	{ "u8v == 1 && u8v", -EINVAL, RBTR_FE_INVALID_OP },
	{ "u8v =~ 1", -EINVAL, RBTR_FE_INVALID_OP },
	{ "u8v ==", -EINVAL, RBTR_FE_INVALID_VALUE },
	{ "u8v == abc", -EINVAL, RBTR_FE_INVALID_VALUE },
	{ "u8v ==== 1", -EINVAL, RBTR_FE_INVALID_VALUE },
	{ "u8v >== 1", -EINVAL, RBTR_FE_INVALID_VALUE },
	{ "comm ~ ", -EINVAL, RBTR_FE_INVALID_VALUE },
	{ "u8v == (1)", -EINVAL, RBTR_FE_INVALID_VALUE },
	{ "u8v == \"1\"", -EINVAL, RBTR_FE_EXPECT_DIGIT },
	{ "CPU == \"0\"", -EINVAL, RBTR_FE_EXPECT_DIGIT },
	{ "darr == \"x\"", -EINVAL, RBTR_FE_EXPECT_DIGIT },
	{ "comm == 1", -EINVAL, RBTR_FE_EXPECT_STRING },
	{ "ptr == 5", -EINVAL, RBTR_FE_EXPECT_STRING },
	{ "COMM == 0", -EINVAL, RBTR_FE_EXPECT_STRING },
	{ "dloc != -1", -EINVAL, RBTR_FE_EXPECT_STRING },
	{ "comm < \"a\"", -EINVAL, RBTR_FE_ILLEGAL_FIELD_OP },
	{ "dloc & \"a\"", -EINVAL, RBTR_FE_ILLEGAL_FIELD_OP },
	{ "u8v ~ 1", -EINVAL, RBTR_FE_ILLEGAL_FIELD_OP },
	{ "u8v == 1 &&", -EINVAL, RBTR_FE_INVALID_FILTER },
	{ "u8v == 1 ||", -EINVAL, RBTR_FE_INVALID_FILTER },
	{ "u8v == 1 && !", -EINVAL, RBTR_FE_INVALID_FILTER },
	{ "u8v == 99999999999999999999999", -EINVAL, RBTR_FE_ILLEGAL_INTVAL },
	{ "u8v == 0x", -EINVAL, RBTR_FE_ILLEGAL_INTVAL },
	{ "u64v == -1", -EINVAL, RBTR_FE_ILLEGAL_INTVAL },
	{ "u8v < -1", -EINVAL, RBTR_FE_ILLEGAL_INTVAL },
	{ "s8v == --1", -EINVAL, RBTR_FE_ILLEGAL_INTVAL },
	{ "s8v == 12abc", -EINVAL, RBTR_FE_ILLEGAL_INTVAL },
	{ "u8v == 12345678901234567890123456", -EINVAL, RBTR_FE_OPERAND_TOO_LONG },
	{ "&& u8v == 1", -EPERM, RBTR_FE_NONE },
	{ "u8v == 1 && ()", -EPERM, RBTR_FE_NONE },
	{ "u8v == 1 && (u8v == 2 || )", -EPERM, RBTR_FE_NONE },
	{ "u8v == 1 &&& u8v == 2", -EPERM, RBTR_FE_NONE },
	{ "u8v == 1 ||| u8v == 2", -EPERM, RBTR_FE_NONE },
	{ "!= 1", -EPERM, RBTR_FE_NONE },
	{ "==", -EPERM, RBTR_FE_NONE },
	{ "u8v == 1)", -EPERM, RBTR_FE_TOO_MANY_CLOSE },
	{ "u8v == 1)(", -EPERM, RBTR_FE_TOO_MANY_CLOSE },
	{ ")u8v == 1(", -EPERM, RBTR_FE_TOO_MANY_CLOSE },
	{ "u8v == 1 && (u8v == 2))", -EPERM, RBTR_FE_TOO_MANY_CLOSE },
	{ "u8v == 1 u8v == 2", -EPERM, RBTR_FE_TOO_MANY_PREDS },
	{ "u8v == 1 & u8v == 2", -EPERM, RBTR_FE_TOO_MANY_PREDS },
	{ "u8v == 1 | u8v == 2", -EPERM, RBTR_FE_TOO_MANY_PREDS },
	{ "u8v == 1 ! u8v == 1", -EPERM, RBTR_FE_TOO_MANY_PREDS },
	{ "comm == \"a\"b", -EPERM, RBTR_FE_TOO_MANY_PREDS },
	{ "(u8v == 1", -ENOENT, RBTR_FE_TOO_MANY_OPEN },
	{ "((u8v == 1) || (u8v == 2)", -ENOENT, RBTR_FE_TOO_MANY_OPEN },
	{ "comm == \"abc", -ESRCH, RBTR_FE_MISSING_QUOTE },
	{ "comm == 'abc\"", -ESRCH, RBTR_FE_MISSING_QUOTE },
};

static void rbtrace_filter_malformed_refused(struct kunit *test)
{
	struct rbtr_filter_err err;
	struct rbtr_filter *f;
	unsigned int i;

	KUNIT_EXPECT_GE(test, ARRAY_SIZE(flt_bads), 50);
	for (i = 0; i < ARRAY_SIZE(flt_bads); i++) {
		f = flt_parse(test, flt_bads[i].text, &err);
		KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(f), "'%s' parsed", flt_bads[i].text);
		if (!IS_ERR(f)) {
			rbtr_filter_free(f);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(f), (long)flt_bads[i].err, "'%s' (%s)",
				    flt_bads[i].text, rbtr_filter_err_text(err.code));
		KUNIT_EXPECT_EQ_MSG(test, err.code, flt_bads[i].code, "'%s': %s at %u",
				    flt_bads[i].text, rbtr_filter_err_text(err.code), err.pos);
		KUNIT_EXPECT_LE(test, err.pos, (unsigned int)strlen(flt_bads[i].text) + 1);
	}
}

/* A string operand of 256 characters is too long (ftrace's MAX_FILTER_STR_VAL). */
static void rbtrace_filter_long_operand(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	struct rbtr_filter_err err;
	struct rbtr_filter *f;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, "comm == \"", 512);
	memset(buf + 9, 'x', 255);
	strcat(buf, "\"");
	f = flt_parse(test, buf, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	rbtr_filter_free(f);
	buf[9 + 255] = 'x';
	strscpy(buf + 9 + 256, "\"", 8);
	f = flt_parse(test, buf, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR(f), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.code, RBTR_FE_OPERAND_TOO_LONG);
}

/* A page of predicates parses and matches; one character more is refused. */
static void rbtrace_filter_page_long(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	static const char and[] = "u8v == 200 && ", or[] = "s8v == 5 || ";
	struct rbtr_filter_err err;
	struct rbtr_filter *f;
	size_t len = 0;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	flt_fill(r);
	while (len + sizeof(and) + 16 < RBTR_FILTER_MAX_TEXT)
		len += sprintf(buf + len, "%s", and);
	len += sprintf(buf + len, "u8v == 200");
	KUNIT_EXPECT_TRUE(test, flt_match(test, buf, r, sizeof(*r)));
	/* the same length of "||": the last one decides */
	len = 0;
	while (len + sizeof(or) + 16 < RBTR_FILTER_MAX_TEXT)
		len += sprintf(buf + len, "%s", or);
	len += sprintf(buf + len, "u8v == 200");
	KUNIT_EXPECT_TRUE(test, flt_match(test, buf, r, sizeof(*r)));
	r->u8v = 1;
	KUNIT_EXPECT_FALSE(test, flt_match(test, buf, r, sizeof(*r)));
	while (len < RBTR_FILTER_MAX_TEXT)
		buf[len++] = ' ';
	buf[len] = '\0';
	f = flt_parse(test, buf, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	rbtr_filter_free(f);
	buf[len++] = ' ';
	buf[len] = '\0';
	f = flt_parse(test, buf, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR(f), -EINVAL);
}

/*
 * Deep nesting: 2000 parentheses round one predicate cost nothing at
 * match time; operands waiting on the matcher's stack are bounded by
 * RBTR_FILTER_MAX_DEPTH, past which the text is refused.
 */
static int flt_right_nested(char *buf, int n)
{
	int len = 0, i;

	for (i = 0; i < n; i++)
		len += sprintf(buf + len, "x == 1 %s (", i & 1 ? "&&" : "||");
	len += sprintf(buf + len, "u8v == 200");
	for (i = 0; i < n; i++)
		buf[len++] = ')';
	buf[len] = '\0';
	return len;
}

static void rbtrace_filter_deep_nesting(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, 32 * PAGE_SIZE, GFP_KERNEL);
	struct rbtr_filter_err err;
	struct rbtr_filter *f;
	int len = 0, i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	flt_fill(r);
	for (i = 0; i < 2000; i++)
		buf[len++] = '(';
	len += sprintf(buf + len, "u8v==200");
	for (i = 0; i < 2000; i++)
		buf[len++] = ')';
	buf[len] = '\0';
	KUNIT_EXPECT_TRUE(test, flt_match(test, buf, r, sizeof(*r)));
	buf[0] = '!';
	buf[len - 1] = '\0';
	KUNIT_EXPECT_FALSE(test, flt_match(test, buf, r, sizeof(*r)));

	/* x == 0: every "||" goes on, every "&&" stops: depth decides */
	flt_right_nested(buf, 200);
	KUNIT_EXPECT_FALSE(test, flt_match(test, buf, r, sizeof(*r)));
	r->x = 1;
	KUNIT_EXPECT_TRUE(test, flt_match(test, buf, r, sizeof(*r)));
	/* past the matcher's stack: refused, nothing kept */
	flt_right_nested(buf, RBTR_FILTER_MAX_DEPTH + 1);
	KUNIT_ASSERT_LT(test, strlen(buf), RBTR_FILTER_MAX_TEXT);
	f = flt_parse(test, buf, &err);
	KUNIT_EXPECT_EQ(test, PTR_ERR(f), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.code, RBTR_FE_TOO_MANY_PREDS);
}

/* A string out of the record, or a field past its end: the predicate is false. */
static void rbtrace_filter_data_loc_bounds(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int off = offsetof(struct flt_rec, data);

	KUNIT_ASSERT_NOT_NULL(test, r);
	flt_fill(r);
	KUNIT_EXPECT_TRUE(test, flt_match(test, "dloc == \"hello world\"", r, sizeof(*r)));
	/* the record ends inside the string */
	KUNIT_EXPECT_FALSE(test, flt_match(test, "dloc == \"hello world\"", r, off + 4));
	KUNIT_EXPECT_FALSE(test, flt_match(test, "dloc != \"x\"", r, off + 4));
	KUNIT_EXPECT_FALSE(test, flt_match(test, "dloc ~ \"*\"", r, off + 11));
	KUNIT_EXPECT_TRUE(test, flt_match(test, "dloc ~ \"*\"", r, off + 12));
	/* offset, length past the record */
	r->dloc = (12 << 16) | 0xfff0;
	KUNIT_EXPECT_FALSE(test, flt_match(test, "dloc ~ \"*\"", r, sizeof(*r)));
	r->dloc = (0xffff << 16) | off;
	KUNIT_EXPECT_FALSE(test, flt_match(test, "dloc ~ \"*\"", r, sizeof(*r)));
	r->rloc = (9 << 16) | 0xffff;
	KUNIT_EXPECT_FALSE(test, flt_match(test, "rloc ~ \"*\"", r, sizeof(*r)));
	/* fixed fields past the end */
	KUNIT_EXPECT_FALSE(test, flt_match(test, "u8v == 200", r, offsetof(struct flt_rec, u8v)));
	KUNIT_EXPECT_TRUE(test, flt_match(test, "u8v == 200", r,
					  offsetof(struct flt_rec, u8v) + 1));
	KUNIT_EXPECT_FALSE(test, flt_match(test, "comm ~ \"*\"", r,
					   offsetof(struct flt_rec, comm)));
	/* a pointer to nothing mapped */
	r->ptr = (const char *)16;
	KUNIT_EXPECT_FALSE(test, flt_match(test, "ptr ~ \"*\"", r, sizeof(*r)));
	/* a string without its NUL in the array */
	memset(r->comm, 'a', sizeof(r->comm));
	KUNIT_EXPECT_TRUE(test, flt_match(test, "comm == \"aaaaaaaaaaaaaaaa\"", r, sizeof(*r)));
	KUNIT_EXPECT_TRUE(test, flt_match(test, "comm ~ \"*aa\"", r, sizeof(*r)));
}

/* The glob itself. */
static void rbtrace_filter_glob(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("a*b?c", "axxbyc", 6));
	KUNIT_EXPECT_FALSE(test, rbtr_filter_glob("a*b?c", "axxbc", 5));
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("*[0-9]", "cpu7", 4));
	KUNIT_EXPECT_FALSE(test, rbtr_filter_glob("*[!0-9]", "cpu7", 4));
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("a\\*", "a*", 2));
	KUNIT_EXPECT_FALSE(test, rbtr_filter_glob("a\\*", "ab", 2));
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("**a**", "xxaxx", 5));
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("a*", "abc", 1));
	KUNIT_EXPECT_FALSE(test, rbtr_filter_glob("abc", "abc", 2));
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("[]]", "]", 1));
	KUNIT_EXPECT_TRUE(test, rbtr_filter_glob("", "", 0));
}

/* The matcher in NMI: the same verdicts as in the task. */
struct flt_nmi {
	const struct rbtr_filter	*f;
	const struct flt_rec		*r;
	bool				hit;
};

static void flt_nmi_fn(void *arg)
{
	struct flt_nmi *n = arg;

	n->hit = rbtr_filter_match(n->f, n->r, sizeof(*n->r));
}

static void rbtrace_filter_in_nmi(struct kunit *test)
{
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct flt_nmi n = { .r = r };
	struct rbtr_filter_err err;
	struct rbtr_filter *f;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, r);
	flt_fill(r);
	f = flt_parse(test, "dloc ~ \"*world\" && ptr == \"pointed at\" && u8v == 200", &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	n.f = f;
	preempt_disable();
	ret = rbt_nest(RBT_NEST_NMI, flt_nmi_fn, &n);
	preempt_enable();
	rbtr_filter_free(f);
	if (ret == -EINVAL)
		kunit_skip(test, "no self-NMI here");
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, n.hit);
}

/*
 * The writers' fast path (rbtr_filter_match_fast()): taken exactly by one
 * number compare on a field of the event's own of 1, 2, 4 or 8 bytes,
 * and of the same verdict as the program on every operator, size and
 * sign, over each field's edges, on whole and cut records.
 */
static const char * const flt_fast_names[] = {
	"s64v", "u64v", "s32v", "u32v", "s16v", "u16v", "s8v", "u8v", "darr",
};

static const struct rbtr_field *flt_field(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(flt_fields); i++)
		if (!strcmp(flt_fields[i].name, name))
			return &flt_fields[i];
	return NULL;
}

static const s64 flt_fast_vals[] = {
	0, 1, -1, 2, 7, -7, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768,
	65535, 65536, 0x7fffffff, 0x80000000LL, -0x80000000LL, 0xffffffffLL,
	0x100000000LL, S64_MAX, S64_MIN, (s64)0xffffffff00000000ULL,
};

static const char * const flt_fast_ops[] = { "==", "!=", "<", "<=", ">", ">=", "&" };

/* Set the field at @off of @size bytes of @r to @v, cut to its size. */
static void flt_fast_set(struct flt_rec *r, unsigned int off, unsigned int size, s64 v)
{
	memcpy((u8 *)r + off, &v, size);	/* little-endian: the low bytes */
}

static void flt_fast_one(struct kunit *test, struct flt_rec *r,
			 const struct rbtr_field *fl, const char *op, s64 val)
{
	struct rbtr_filter_err err;
	struct rbtr_filter *f;
	char text[64];
	unsigned int i, sizes[] = { sizeof(*r), fl->offset + fl->size, fl->offset + fl->size - 1 };
	unsigned int j;

	if (fl->is_signed)
		snprintf(text, sizeof(text), "%s %s %lld", fl->name, op, val);
	else
		snprintf(text, sizeof(text), "%s %s %llu", fl->name, op,
			 fl->size == 8 ? (u64)val : (u64)val & (BIT_ULL(fl->size * 8) - 1));
	f = flt_parse(test, text, &err);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "'%s' refused", text);
	KUNIT_ASSERT_PTR_EQ_MSG(test, f->fast, &f->preds[0], "'%s' not fast", text);
	for (i = 0; i < ARRAY_SIZE(flt_fast_vals); i++) {
		flt_fast_set(r, fl->offset, fl->size, flt_fast_vals[i]);
		for (j = 0; j < ARRAY_SIZE(sizes); j++)
			KUNIT_EXPECT_EQ_MSG(test, rbtr_filter_match_fast(f, r, sizes[j]),
					    rbtr_filter_match(f, r, sizes[j]),
					    "'%s' on %lld, record of %u bytes", text,
					    flt_fast_vals[i], sizes[j]);
	}
	rbtr_filter_free(f);
}

static void rbtrace_filter_fast_agrees(struct kunit *test)
{
	static const char * const slow[] = {
		"common_pid == 1234", "common_type != 77", "common_flags & 8",
		"u8v == 200 && s8v < 0", "!(u8v == 200)", "(u8v == 200) || x == 1",
		"arr == 1", "comm == \"x\"", "dloc ~ \"h*\"", "ptr == \"x\"",
		"COMM == \"x\"", "CPU == 0",
	};
	struct flt_rec *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	const struct rbtr_field *fl;
	struct rbtr_filter_err err;
	struct rbtr_filter *f;
	unsigned int i, o, v;

	KUNIT_ASSERT_NOT_NULL(test, r);
	flt_fill(r);
	for (i = 0; i < ARRAY_SIZE(flt_fast_names); i++) {
		fl = flt_field(flt_fast_names[i]);
		KUNIT_ASSERT_NOT_NULL(test, fl);
		for (o = 0; o < ARRAY_SIZE(flt_fast_ops); o++)
			for (v = 0; v < ARRAY_SIZE(flt_fast_vals); v++)
				flt_fast_one(test, r, fl, flt_fast_ops[o], flt_fast_vals[v]);
	}
	/* Anything else takes the program: common fields, two predicates, strings. */
	for (i = 0; i < ARRAY_SIZE(slow); i++) {
		f = flt_parse(test, slow[i], &err);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "'%s' refused", slow[i]);
		KUNIT_EXPECT_NULL_MSG(test, f->fast, "'%s' fast", slow[i]);
		rbtr_filter_free(f);
	}
}

static int rbtrace_filter_suite_init(struct kunit_suite *suite)
{
	return rbt_nest_init();
}

static void rbtrace_filter_suite_exit(struct kunit_suite *suite)
{
	rbt_nest_exit();
}

static struct kunit_case rbtrace_filter_cases[] = {
	KUNIT_CASE(rbtrace_filter_ops_on_every_kind),
	KUNIT_CASE(rbtrace_filter_cpu_and_comm),
	KUNIT_CASE(rbtrace_filter_precedence),
	KUNIT_CASE(rbtrace_filter_malformed_refused),
	KUNIT_CASE(rbtrace_filter_long_operand),
	KUNIT_CASE(rbtrace_filter_page_long),
	KUNIT_CASE(rbtrace_filter_deep_nesting),
	KUNIT_CASE(rbtrace_filter_data_loc_bounds),
	KUNIT_CASE(rbtrace_filter_glob),
	KUNIT_CASE(rbtrace_filter_in_nmi),
	KUNIT_CASE(rbtrace_filter_fast_agrees),
	{}
};

static struct kunit_suite rbtrace_filter_suite = {
	.name = "rbtrace_filter",
	.suite_init = rbtrace_filter_suite_init,
	.suite_exit = rbtrace_filter_suite_exit,
	.test_cases = rbtrace_filter_cases,
};

kunit_test_suite(rbtrace_filter_suite);
