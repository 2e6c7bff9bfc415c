// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace dynamic probes: the fetch types of kprobe_events' arguments
 * (":u32", ":symbol", ":b4@2/8", ":string[3]"), as ftrace's
 * (kernel/trace/trace_probe.c): parsed into an argument's own type, and
 * what follows from it: the argument's field in the format file, the
 * print fmt, and the text of a record's value. kprobe_args.c parses and
 * fetches the rest.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/seq_buf.h>
#include "event.h"
#include "kprobe.h"
#include "kprobe_internal.h"

#define RBTR_KP_FAULT_STRING	"(fault)"
/* ftrace's MAX_ARRAY_LEN: elements of a :TYPE[N] */
#define RBTR_KP_MAX_ARRAY	64

#define RBTR_KP_TYPE(n, ft, f, sz, sg, hx, str, k) \
	{ .t = { .name = (n), .fmttype = (ft), .fmt = (f), .size = (sz), \
		 .is_signed = (sg), .is_hex = (hx), .is_string = (str) }, \
	  .kind = (k) }
#define RBTR_KP_INT(n, ft, f, sz, sg, hx) \
	RBTR_KP_TYPE(n, ft, f, sz, sg, hx, false, RBTR_KP_K_INT)
#define RBTR_KP_STR(n, k) \
	RBTR_KP_TYPE(n, "__data_loc char[]", "\\\"%s\\\"", 4, true, false, true, k)

/*
 * ftrace's probe_fetch_types[]. The 64-bit conversions are ftrace's
 * "%Lu", "%Ld", "0x%Lx", spelt with '\114' for the 'L': only a format
 * file prints them. A symbol's field is ADDR_FETCH_TYPE, u64 or u32.
 * The strings' "signed" is ftrace's for them.
 */
static const struct rbtr_kp_xtype rbtr_kp_types[] = {
	RBTR_KP_STR("string", RBTR_KP_K_STRING),
	RBTR_KP_STR("ustring", RBTR_KP_K_USTRING),
	RBTR_KP_STR("symstr", RBTR_KP_K_SYMSTR),
	RBTR_KP_INT("u8", "u8", "%u", 1, false, false),
	RBTR_KP_INT("u16", "u16", "%u", 2, false, false),
	RBTR_KP_INT("u32", "u32", "%u", 4, false, false),
	RBTR_KP_INT("u64", "u64", "%\114u", 8, false, false),
	RBTR_KP_INT("s8", "s8", "%d", 1, true, false),
	RBTR_KP_INT("s16", "s16", "%d", 2, true, false),
	RBTR_KP_INT("s32", "s32", "%d", 4, true, false),
	RBTR_KP_INT("s64", "s64", "%\114d", 8, true, false),
	RBTR_KP_INT("x8", "u8", "0x%x", 1, false, true),
	RBTR_KP_INT("x16", "u16", "0x%x", 2, false, true),
	RBTR_KP_INT("x32", "u32", "0x%x", 4, false, true),
	RBTR_KP_INT("x64", "u64", "0x%\114x", 8, false, true),
	RBTR_KP_TYPE("char", "u8", "'%c'", 1, false, false, false, RBTR_KP_K_CHAR),
	RBTR_KP_TYPE("symbol", BITS_PER_LONG == 64 ? "u64" : "u32", "%pS",
		     sizeof(long), false, false, false, RBTR_KP_K_SYMBOL),
};

static const struct rbtr_kp_xtype *rbtr_kp_find_type(const char *name)
{
	unsigned int i;

	/*
	 * ftrace's char came in 6.2, the release that made char unsigned
	 * (-funsigned-char), which a module sees: 6.1 refuses it, as there.
	 */
	for (i = 0; i < ARRAY_SIZE(rbtr_kp_types); i++) {
		if (strcmp(rbtr_kp_types[i].t.name, name))
			continue;
		if (rbtr_kp_types[i].kind == RBTR_KP_K_CHAR && is_signed_type(char))
			return NULL;
		return &rbtr_kp_types[i];
	}
	return NULL;
}

/*
 * "bW@O/S" (ftrace's find_fetch_type() and __parse_bitfield_probe_arg()):
 * W bits at bit O of a uS container. Return: the container's type, the
 * shifts in @x, or NULL.
 */
static const struct rbtr_kp_xtype *rbtr_kp_bitfield(char *t, struct rbtr_kp_xtype *x)
{
	char *at = strchr(t, '@'), *slash = strchr(t, '/');
	unsigned int bw, bo, bits;
	char name[4];

	if (!at || !slash || slash < at || !isdigit(t[1]) || !isdigit(at[1]))
		return NULL;
	*at = '\0';
	*slash = '\0';
	if (kstrtouint(t + 1, 0, &bw) || kstrtouint(at + 1, 0, &bo) ||
	    kstrtouint(slash + 1, 0, &bits) ||
	    (bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
	    !bw || bw > bits || bo > bits - bw)
		return NULL;
	x->lshift = bits - (bw + bo);
	x->rshift = bits - bw;
	snprintf(name, sizeof(name), "u%u", bits);
	return rbtr_kp_find_type(name);
}

/**
 * rbtr_kp_parse_type - parse an argument's type, as ftrace's
 * parse_probe_arg_type()
 * @arg: the argument, its name set; its type is set to a copy of its own
 *       (rbtr_kp_free_type()), resized for an array, with the format
 *       file's strings of one
 * @t: "TYPE", "TYPE[N]", "bW@O/S", "bW@O/S[N]"; cut up
 *
 * Return: 0, -EINVAL for an unknown type, a bad bitfield or array size,
 * -ENOMEM.
 */
int rbtr_kp_parse_type(struct rbtr_kp_arg *arg, char *t)
{
	const struct rbtr_kp_xtype *base;
	struct rbtr_kp_xtype bf = { }, *x;
	char *open = strchr(t, '['), *close;
	unsigned int count = 0, i, size;
	struct seq_buf s;

	if (open) {
		*open++ = '\0';
		close = strchr(open, ']');
		if (!close || close[1])
			return -EINVAL;
		*close = '\0';
		if (kstrtouint(open, 0, &count) || !count || count > RBTR_KP_MAX_ARRAY)
			return -EINVAL;
	}
	base = *t == 'b' ? rbtr_kp_bitfield(t, &bf) : rbtr_kp_find_type(t);
	if (!base)
		return -EINVAL;
	x = kmemdup(base, sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	arg->type = &x->t;
	x->lshift = bf.lshift;
	x->rshift = bf.rshift;
	x->esize = base->t.size;
	x->count = count;
	if (!count)
		return 0;
	x->t.size = count * x->esize;
	/*
	 * ftrace's field type "u32[3]" shows as "u32 a[]" (f_show(): a field
	 * it defined without a length, 6.1 stable as 6.12), and a string
	 * array's "__data_loc char[][3]" as it is.
	 */
	if (x->t.is_string) {
		x->ftype = kasprintf(GFP_KERNEL, "%s[%u]", base->t.fmttype, count);
		x->t.fmttype = x->ftype;
	} else {
		x->fname = kasprintf(GFP_KERNEL, "%s[]", arg->name);
	}
	size = count * (strlen(base->t.fmt) + 1) + 2;
	x->afmt = kmalloc(size, GFP_KERNEL);
	if ((!x->ftype && !x->fname) || !x->afmt)
		return -ENOMEM;
	x->t.fmt = x->afmt;
	seq_buf_init(&s, x->afmt, size);
	for (i = 0; i < count; i++)
		seq_buf_printf(&s, "%c%s", i ? ',' : '{', base->t.fmt);
	seq_buf_printf(&s, "}");
	seq_buf_str(&s);
	return 0;
}

/**
 * rbtr_kp_free_type - free an argument's type (rbtr_kp_parse_type())
 * @arg: the argument; its type is left NULL
 */
void rbtr_kp_free_type(struct rbtr_kp_arg *arg)
{
	struct rbtr_kp_xtype *x;

	if (!arg->type)
		return;
	x = container_of(arg->type, struct rbtr_kp_xtype, t);
	kfree(x->fname);
	kfree(x->ftype);
	kfree(x->afmt);
	kfree(x);
	arg->type = NULL;
}

/**
 * rbtr_kp_arg_field - the format file's field of an argument
 * @arg: the argument, its @offset set
 * @f: filled in; its strings point into @arg and its type
 *
 * An array of integers is shown as bytes by the generic printer, which
 * has no kind for it; kprobe records are printed by rbtr_kp_print_args().
 */
void rbtr_kp_arg_field(const struct rbtr_kp_arg *arg, struct rbtr_field *f)
{
	const struct rbtr_kp_xtype *x = rbtr_kp_x(arg);

	f->type = x->t.fmttype;
	f->name = x->fname ?: arg->name;
	f->offset = arg->offset;
	f->size = x->t.size;
	f->is_signed = x->t.is_signed;
	if (x->count)
		f->kind = RBTR_FIELD_BYTES;
	else if (x->t.is_string)
		f->kind = RBTR_FIELD_STRLOC;
	else
		f->kind = x->t.is_hex || x->kind == RBTR_KP_K_SYMBOL ? RBTR_FIELD_HEX :
			  RBTR_FIELD_NUM;
}

/**
 * rbtr_kp_print_fmt - the "print fmt:" of a probe, as ftrace's __set_print_fmt()
 * @args: its arguments
 * @nr: their number
 * @is_return: a kretprobe
 *
 * Return: the string (kfree()), or NULL when out of memory.
 */
char *rbtr_kp_print_fmt(const struct rbtr_kp_arg *args, unsigned int nr, bool is_return)
{
	struct seq_buf s;
	unsigned int i, size = 64;
	char *buf;

	for (i = 0; i < nr; i++)
		size += (rbtr_kp_x(&args[i])->count + 2) * (strlen(args[i].name) + 20) +
			strlen(args[i].type->fmt);
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	seq_buf_init(&s, buf, size);
	seq_buf_printf(&s, "\"%s", is_return ? "(%lx <- %lx)" : "(%lx)");
	for (i = 0; i < nr; i++)
		seq_buf_printf(&s, " %s=%s", args[i].name, args[i].type->fmt);
	seq_buf_printf(&s, "\"%s", is_return ? ", REC->__probe_func, REC->__probe_ret_ip" :
		       ", REC->__probe_ip");
	for (i = 0; i < nr; i++) {
		const char *f = args[i].type->is_string ? ", __get_str(%s" : ", REC->%s";
		unsigned int j, n = rbtr_kp_x(&args[i])->count;

		/* An array's elements one by one: "REC->a[0], REC->a[1]" */
		for (j = 0; j < (n ?: 1); j++) {
			seq_buf_printf(&s, f, args[i].name);
			if (n)
				seq_buf_printf(&s, "[%u]", j);
			if (args[i].type->is_string)
				seq_buf_printf(&s, ")");
		}
	}
	seq_buf_str(&s);
	return buf;
}

/* One value (one element of an array) at @p, as ftrace's print functions. */
static void rbtr_kp_print_val(struct seq_buf *s, const struct rbtr_kp_xtype *x,
			      const void *p, const void *rec, unsigned int len)
{
	unsigned int off, n;
	u64 v;
	u32 loc;

	if (x->t.is_string) {
		memcpy(&loc, p, sizeof(loc));
		off = loc & 0xffff;
		n = loc >> 16;
		/* To its NUL, as ftrace's "%s": a symstr's runs on (see above). */
		if (!n || off >= len)
			seq_buf_printf(s, "%s", RBTR_KP_FAULT_STRING);
		else
			seq_buf_printf(s, "\"%.*s\"", (int)strnlen(rec + off, len - off),
				       (const char *)rec + off);
		return;
	}
	v = rbtr_kp_load(p, x->esize, x->t.is_signed);
	if (x->kind == RBTR_KP_K_CHAR)
		seq_buf_printf(s, "'%c'", (u8)v);
	else if (x->kind == RBTR_KP_K_SYMBOL)
		seq_buf_printf(s, "%pS", (void *)(unsigned long)v);
	else if (x->t.is_hex)
		seq_buf_printf(s, "0x%llx", v);
	else if (x->t.is_signed)
		seq_buf_printf(s, "%lld", (s64)v);
	else
		seq_buf_printf(s, "%llu", v);
}

/**
 * rbtr_kp_print_args - " name=value" for each argument, as ftrace prints them
 * @s: where to print
 * @args: the probe's arguments
 * @nr: their number
 * @rec: the record
 * @len: its size in the buffer
 *
 * An array is printed "{a,b,c}", as ftrace's print_probe_args().
 */
void rbtr_kp_print_args(struct seq_buf *s, const struct rbtr_kp_arg *args,
			unsigned int nr, const void *rec, unsigned int len)
{
	const struct rbtr_kp_xtype *x;
	unsigned int i, j;

	for (i = 0; i < nr; i++) {
		x = rbtr_kp_x(&args[i]);
		if (args[i].offset + x->t.size > len)
			break;
		seq_buf_printf(s, " %s=", args[i].name);
		if (!x->count) {
			rbtr_kp_print_val(s, x, rec + args[i].offset, rec, len);
			continue;
		}
		for (j = 0; j < x->count; j++) {
			seq_buf_printf(s, "%c", j ? ',' : '{');
			rbtr_kp_print_val(s, x, rec + args[i].offset + j * x->esize, rec, len);
		}
		seq_buf_printf(s, "}");
	}
}
