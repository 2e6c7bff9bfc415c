// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace dynamic probes: the event name and the fetch arguments of a
 * kprobe_events line, with ftrace's syntax, default names, field types,
 * print fmt and text (kernel/trace/trace_kprobe.c, trace_probe.c), so
 * that a probe's events/ directory, format file and records read as the
 * kernel's own kprobe event of the same definition.
 *
 *	[NAME=]FETCHARG[:TYPE]
 *	FETCHARG: %REG, $argN, $retval, $stack, $stackN, $comm, \IMM,
 *		  +|-OFF(FETCHARG)
 *	TYPE:	  u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 string
 *
 * Fetching runs in the probe's handler, in any context (NMI included):
 * memory is read only through the *_nofault copies, nothing is allocated
 * and no lock is taken.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/ptrace.h>
#include <linux/seq_buf.h>
#include "event.h"
#include "kprobe.h"

#define RBTR_KP_FAULT_STRING	"(fault)"
/* ftrace's KRETPROBE_MAXACTIVE_MAX (not in a header) */
#define RBTR_KP_MAXACTIVE_MAX	4096

#define RBTR_KP_INT(n, ft, f, sz, sg, hx) \
	{ .name = (n), .fmttype = (ft), .fmt = (f), .size = (sz), \
	  .is_signed = (sg), .is_hex = (hx) }

/*
 * ftrace's probe_fetch_types[], as far as rbtrace fetches them. The
 * 64-bit conversions are ftrace's "%Lu", "%Ld", "0x%Lx", spelt with
 * '\114' for the 'L': only a format file prints them.
 */
static const struct rbtr_kp_ftype rbtr_kp_types[] = {
	{ .name = "string", .fmttype = "__data_loc char[]", .fmt = "\\\"%s\\\"",
	  .size = 4, .is_signed = true, .is_string = true },
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
};

/* ftrace's default: x64 (x32 on 32-bit kernels). */
#define RBTR_KP_DEFAULT_TYPE	(BITS_PER_LONG == 64 ? "x64" : "x32")

#ifdef CONFIG_X86_64
#define RBTR_KP_REG(r)	{ .name = #r, .offset = offsetof(struct pt_regs, r) }
/* The names of arch/x86/kernel/ptrace.c's regoffset_table (not exported). */
static const struct {
	const char	*name;
	unsigned int	offset;
} rbtr_kp_regs[] = {
	RBTR_KP_REG(r15), RBTR_KP_REG(r14), RBTR_KP_REG(r13), RBTR_KP_REG(r12),
	RBTR_KP_REG(bp), RBTR_KP_REG(bx), RBTR_KP_REG(r11), RBTR_KP_REG(r10),
	RBTR_KP_REG(r9), RBTR_KP_REG(r8), RBTR_KP_REG(ax), RBTR_KP_REG(cx),
	RBTR_KP_REG(dx), RBTR_KP_REG(si), RBTR_KP_REG(di), RBTR_KP_REG(orig_ax),
	RBTR_KP_REG(ip), RBTR_KP_REG(cs), RBTR_KP_REG(flags), RBTR_KP_REG(sp),
	RBTR_KP_REG(ss),
};

static int rbtr_kp_reg_offset(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rbtr_kp_regs); i++)
		if (!strcmp(rbtr_kp_regs[i].name, name))
			return rbtr_kp_regs[i].offset;
	return -EINVAL;
}
#else
static int rbtr_kp_reg_offset(const char *name)
{
	return -EINVAL;
}
#endif

static const struct rbtr_kp_ftype *rbtr_kp_find_type(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rbtr_kp_types); i++)
		if (!strcmp(rbtr_kp_types[i].name, name))
			return &rbtr_kp_types[i];
	return NULL;
}

/* ftrace's is_good_name(): a C identifier. */
static bool rbtr_kp_good_name(const char *name)
{
	if (!isalpha(*name) && *name != '_')
		return false;
	while (*++name)
		if (!isalpha(*name) && !isdigit(*name) && *name != '_')
			return false;
	return true;
}

/* ---- the event's name --------------------------------------------------- */

/* A group or event name: a C identifier shorter than MAX_EVENT_NAME_LEN. */
static bool rbtr_kp_good_event_name(const char *name)
{
	return strlen(name) < RBTR_KP_NAME_MAX && rbtr_kp_good_name(name);
}

/* "[GRP/]NAME": -EINVAL for a bad name, as ftrace's NAME_TOO_LONG, BAD_EVENT_NAME. */
static int rbtr_kp_parse_event(const char *ev, char **group, char **name)
{
	const char *slash = strchr(ev, '/');

	if (!*ev)
		return 0;
	if (slash) {
		*group = kstrndup(ev, slash - ev, GFP_KERNEL);
		if (!*group)
			return -ENOMEM;
		if (!rbtr_kp_good_event_name(*group))
			return -EINVAL;
		ev = slash + 1;
		if (!*ev)
			return 0;
	}
	*name = kstrdup(ev, GFP_KERNEL);
	if (!*name)
		return -ENOMEM;
	return rbtr_kp_good_event_name(*name) ? 0 : -EINVAL;
}

/**
 * rbtr_kp_parse_head - "p", "p:EV", "r", "r10:EV": the kind and the event name
 * @head: the definition's first word
 * @is_return: set for a kretprobe ('r')
 * @maxactive: set to the number after 'r', 0 without one
 * @group: set to a copy of the event's group, left NULL without one
 * @name: set to a copy of its name, left NULL without one ("p", "p:GRP/"):
 *        the caller makes ftrace's default one (rbtr_kp_default_name())
 *
 * Return: 0, -EINVAL for bad syntax or a bad name (as ftrace's
 * NAME_TOO_LONG and BAD_EVENT_NAME), -E2BIG past KRETPROBE_MAXACTIVE_MAX,
 * -ENOMEM. What was set is the caller's to free, on an error too.
 */
int rbtr_kp_parse_head(const char *head, bool *is_return, int *maxactive, char **group,
		       char **name)
{
	const char *p = head + 1;
	unsigned int n = 0;

	*is_return = *head == 'r';
	while (*is_return && isdigit(*p)) {
		n = n * 10 + *p++ - '0';
		if (n > RBTR_KP_MAXACTIVE_MAX)
			return -E2BIG;
	}
	*maxactive = n;
	if (*p == ':')
		return rbtr_kp_parse_event(p + 1, group, name);
	return *p ? -EINVAL : 0;
}

/**
 * rbtr_kp_default_name - ftrace's name of a probe defined without one
 * @is_return: a kretprobe
 * @symbol: the probed symbol
 * @off: the offset into it
 *
 * "p_SYM_OFF" ("r_SYM_0" for a kretprobe) cut to MAX_EVENT_NAME_LEN - 1
 * bytes, as __trace_kprobe_create()'s snprintf() into a buffer of
 * MAX_EVENT_NAME_LEN cuts it (6.1 and 6.12 alike): two probes on symbols
 * alike in their first 59 bytes clash (-EEXIST) in both. Then its
 * sanitize_event_name(), which makes ':', '.' and '*' '_', the only
 * bytes other than [A-Za-z0-9_] in the kernel's symbols; any other is
 * made '_' here too, so that the name is always one rbtrace can take.
 *
 * Return: the name, for kfree(), or NULL without memory.
 */
char *rbtr_kp_default_name(bool is_return, const char *symbol, unsigned long off)
{
	char name[RBTR_KP_NAME_MAX], *c;

	snprintf(name, sizeof(name), "%c_%s_%lu", is_return ? 'r' : 'p', symbol, off);
	for (c = name; *c; c++)
		if (!isalnum(*c))
			*c = '_';
	return kstrdup(name, GFP_KERNEL);
}

/* ---- fetch arguments ------------------------------------------------------ */

/* $argN, $retval, $stack, $stackN, $comm (ftrace's parse_probe_vars()). */
static int rbtr_kp_parse_var(struct rbtr_kp_arg *arg, const char *var, bool is_return,
			     bool at_entry)
{
	unsigned long n;

	if (!strcmp(var, "retval")) {
		if (!is_return)
			return -EINVAL;
		arg->base = RBTR_KP_RETVAL;
		return 0;
	}
	if (!strcmp(var, "comm") || !strcmp(var, "COMM")) {
		arg->base = RBTR_KP_COMM;
		return 0;
	}
	if (!strcmp(var, "stack")) {
		arg->base = RBTR_KP_STACK;
		return 0;
	}
	if (str_has_prefix(var, "stack")) {
		if (kstrtoul(var + 5, 10, &n) || n > PAGE_SIZE / sizeof(long))
			return -EINVAL;
		arg->base = RBTR_KP_STACKN;
		arg->param = n;
		return 0;
	}
	/* Function arguments are where the ABI puts them only at entry. */
	if (str_has_prefix(var, "arg") && !is_return && at_entry) {
		if (kstrtoul(var + 3, 10, &n) || !n || n > PAGE_SIZE / sizeof(long))
			return -EINVAL;
		arg->base = RBTR_KP_ARG;
		arg->param = n;
		return 0;
	}
	return -EINVAL;
}

/*
 * One FETCHARG, without its type. "+OFF(INNER)" adds a dereference and
 * parses INNER; its last character must be the matching ')'.
 */
static int rbtr_kp_parse_fetch(struct rbtr_kp_arg *arg, char *s, bool is_return,
			       bool at_entry)
{
	char *open, *end;
	long off;
	int ret;

	switch (*s) {
	case '%':
		ret = rbtr_kp_reg_offset(s + 1);
		if (ret < 0)
			return ret;
		arg->base = RBTR_KP_REG;
		arg->param = ret;
		return 0;
	case '$':
		return rbtr_kp_parse_var(arg, s + 1, is_return, at_entry);
	case '\\':
		arg->base = RBTR_KP_IMM;
		return kstrtoul(s + 1, 0, &arg->param) ? -EINVAL : 0;
	case '+':
	case '-':
		open = strchr(s, '(');
		end = s + strlen(s) - 1;
		if (!open || end <= open || *end != ')' ||
		    arg->nr_deref >= RBTR_KP_MAX_DEREF)
			return -EINVAL;
		*open = '\0';
		*end = '\0';
		if (kstrtol(s, 0, &off))
			return -EINVAL;
		arg->off[arg->nr_deref++] = off;
		return rbtr_kp_parse_fetch(arg, open + 1, is_return, at_entry);
	default:
		return -EINVAL;
	}
}

/**
 * rbtr_kp_parse_arg - parse one fetch argument of a probe definition
 * @arg: filled in; its strings are allocated (rbtr_kp_free_arg())
 * @text: "[NAME=]FETCHARG[:TYPE]"
 * @idx: its index from 0 (the default name is "arg<idx + 1>")
 * @is_return: of a kretprobe ($retval allowed, $argN not)
 * @at_entry: the probe is at a function's entry ($argN allowed)
 *
 * Return: 0; -EINVAL for bad syntax, a bad name, an unknown register,
 * variable or type, a fetch the type does not allow; -ENOMEM.
 */
int rbtr_kp_parse_arg(struct rbtr_kp_arg *arg, const char *text, unsigned int idx,
		      bool is_return, bool at_entry)
{
	const char *body = strchr(text, '=');
	char *fetch, *colon;
	int ret = -EINVAL;

	memset(arg, 0, sizeof(*arg));
	if (body) {
		arg->name = kstrndup(text, body - text, GFP_KERNEL);
		body++;
	} else {
		arg->name = kasprintf(GFP_KERNEL, "arg%u", idx + 1);
		body = text;
	}
	arg->comm = kstrdup(body, GFP_KERNEL);
	fetch = kstrdup(body, GFP_KERNEL);
	if (!arg->name || !arg->comm || !fetch) {
		ret = -ENOMEM;
		goto fail;
	}
	if (!rbtr_kp_good_name(arg->name) || str_has_prefix(arg->name, "common_") ||
	    str_has_prefix(arg->name, "__probe_"))
		goto fail;
	colon = strchr(fetch, ':');
	if (colon)
		*colon++ = '\0';
	ret = rbtr_kp_parse_fetch(arg, fetch, is_return, at_entry);
	if (ret)
		goto fail;
	ret = -EINVAL;
	if (!colon)
		colon = arg->base == RBTR_KP_COMM ? "string" : RBTR_KP_DEFAULT_TYPE;
	arg->type = rbtr_kp_find_type(colon);
	if (!arg->type)
		goto fail;
	/* A string is read at an address (+OFF(...)), or is $comm; $comm only that. */
	if (arg->type->is_string && arg->base != RBTR_KP_COMM && !arg->nr_deref)
		goto fail;
	if (arg->base == RBTR_KP_COMM && (!arg->type->is_string || arg->nr_deref))
		goto fail;
	kfree(fetch);
	return 0;
fail:
	kfree(fetch);
	rbtr_kp_free_arg(arg);
	return ret;
}

/**
 * rbtr_kp_free_arg - free what rbtr_kp_parse_arg() allocated
 * @arg: the argument
 */
void rbtr_kp_free_arg(struct rbtr_kp_arg *arg)
{
	kfree(arg->name);
	kfree(arg->comm);
	arg->name = NULL;
	arg->comm = NULL;
}

/**
 * rbtr_kp_arg_field - the format file's field of an argument
 * @arg: the argument, its @offset set
 * @f: filled in; its strings point into @arg and its type
 */
void rbtr_kp_arg_field(const struct rbtr_kp_arg *arg, struct rbtr_field *f)
{
	const struct rbtr_kp_ftype *t = arg->type;

	f->type = t->fmttype;
	f->name = arg->name;
	f->offset = arg->offset;
	f->size = t->size;
	f->is_signed = t->is_signed;
	f->kind = t->is_string ? RBTR_FIELD_STRLOC : t->is_hex ? RBTR_FIELD_HEX : RBTR_FIELD_NUM;
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
		size += 2 * strlen(args[i].name) + strlen(args[i].type->fmt) + 20;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	seq_buf_init(&s, buf, size);
	seq_buf_printf(&s, "\"%s", is_return ? "(%lx <- %lx)" : "(%lx)");
	for (i = 0; i < nr; i++)
		seq_buf_printf(&s, " %s=%s", args[i].name, args[i].type->fmt);
	seq_buf_printf(&s, "\"%s", is_return ? ", REC->__probe_func, REC->__probe_ret_ip" :
		       ", REC->__probe_ip");
	for (i = 0; i < nr; i++)
		seq_buf_printf(&s, args[i].type->is_string ? ", __get_str(%s)" : ", REC->%s",
			       args[i].name);
	seq_buf_str(&s);
	return buf;
}

/* ftrace's probe_mem_read(): below TASK_SIZE is user memory. */
static int rbtr_kp_read(void *dst, unsigned long addr, size_t size)
{
	if (addr < TASK_SIZE)
		return copy_from_user_nofault(dst, (const void __user *)addr, size);
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/*
 * Copy the string at @addr into @dst (room for @max bytes, NUL included),
 * a page at most at a time so that no read crosses into a page the
 * string does not reach. Return: its length with the NUL, 0 on a fault.
 */
static unsigned int rbtr_kp_read_string(char *dst, unsigned long addr, unsigned int max)
{
	unsigned int done = 0, n;
	char *nul;

	while (done < max - 1) {
		n = min_t(unsigned long, max - 1 - done,
			  PAGE_SIZE - offset_in_page(addr + done));
		if (rbtr_kp_read(dst + done, addr + done, n))
			return 0;
		nul = memchr(dst + done, '\0', n);
		if (nul)
			return nul - dst + 1;
		done += n;
	}
	dst[done] = '\0';
	return done + 1;
}

static unsigned long rbtr_kp_base_value(const struct rbtr_kp_arg *arg, struct pt_regs *regs)
{
	switch (arg->base) {
	case RBTR_KP_REG:
		return *(unsigned long *)((char *)regs + arg->param);
	case RBTR_KP_ARG:
		return regs_get_kernel_argument(regs, arg->param - 1);
	case RBTR_KP_RETVAL:
		return regs_return_value(regs);
	case RBTR_KP_STACK:
		return kernel_stack_pointer(regs);
	case RBTR_KP_STACKN:
		return regs_get_kernel_stack_nth(regs, arg->param);
	case RBTR_KP_IMM:
		return arg->param;
	default:
		return 0;
	}
}

/* memcpy: fields of a probe's record are packed, at any alignment. */
static void rbtr_kp_store_int(void *dst, unsigned long val, unsigned int size)
{
	union { u8 b; u16 h; u32 w; u64 d; } v;

	switch (size) {
	case 1:
		v.b = val;
		break;
	case 2:
		v.h = val;
		break;
	case 4:
		v.w = val;
		break;
	default:
		v.d = val;
		break;
	}
	memcpy(dst, &v, size);
}

/*
 * The value of @arg into @dst (its type's size), or for a string the
 * address of the string into @addr. Dereferences go innermost first; the
 * last reads the type's size, or gives a string its address. A fault
 * stores zero, or leaves the string without an address (@addr 0).
 */
static void rbtr_kp_fetch_one(const struct rbtr_kp_arg *arg, struct pt_regs *regs,
			      void *dst, unsigned long *addr)
{
	unsigned long val = rbtr_kp_base_value(arg, regs);
	unsigned int size = arg->type->size;
	int i;

	for (i = arg->nr_deref - 1; i > 0; i--)
		if (rbtr_kp_read(&val, val + arg->off[i], sizeof(val)))
			goto fault;
	if (arg->type->is_string) {
		*addr = val + arg->off[0];
		return;
	}
	if (!arg->nr_deref) {
		rbtr_kp_store_int(dst, val, size);
		return;
	}
	if (!rbtr_kp_read(dst, val + arg->off[0], size))
		return;
fault:
	*addr = 0;
	if (!arg->type->is_string)
		memset(dst, 0, size);
}

/**
 * rbtr_kp_fetch_args - fetch a probe's arguments into its record
 * @args: the arguments, their offsets set
 * @nr: their number
 * @regs: the registers at the probe
 * @rec: the record being built (from its struct rbtr_entry on)
 * @fixed: where its fixed part ends and strings go
 * @room: the size of @rec
 *
 * Strings are appended after @fixed and cut to fit @room; one that
 * faulted has a __data_loc of length 0, as ftrace's.
 *
 * Return: the size of the record.
 */
unsigned int rbtr_kp_fetch_args(const struct rbtr_kp_arg *args, unsigned int nr,
				struct pt_regs *regs, void *rec, unsigned int fixed,
				unsigned int room)
{
	unsigned int i, len, end = fixed;
	unsigned long addr;
	u32 loc;

	for (i = 0; i < nr; i++) {
		void *dst = rec + args[i].offset;

		rbtr_kp_fetch_one(&args[i], regs, dst, &addr);
		if (!args[i].type->is_string)
			continue;
		len = 0;
		if (end < room) {
			if (args[i].base == RBTR_KP_COMM) {
				len = min_t(unsigned int, room - end, TASK_COMM_LEN);
				len = strscpy(rec + end, current->comm, len);
				len = (int)len < 0 ? room - end : len + 1;
			} else if (addr) {
				len = rbtr_kp_read_string(rec + end, addr,
							  min(room - end, RBTR_KP_STR_MAX));
			}
		}
		loc = len << 16 | end;
		memcpy(dst, &loc, sizeof(loc));
		end += len;
	}
	return end;
}

static void rbtr_kp_print_one(struct seq_buf *s, const struct rbtr_kp_arg *arg,
			      const void *rec, unsigned int len)
{
	const struct rbtr_kp_ftype *t = arg->type;
	const void *p = rec + arg->offset;
	union { s8 b; s16 h; s32 w; u64 d; } u = { .d = 0 };
	unsigned int off, n;
	u64 v;
	u32 loc;

	if (t->is_string) {
		memcpy(&loc, p, sizeof(loc));
		off = loc & 0xffff;
		n = loc >> 16;
		if (!n || off + n > len)
			seq_buf_printf(s, "%s", RBTR_KP_FAULT_STRING);
		else
			seq_buf_printf(s, "\"%.*s\"", (int)strnlen(rec + off, n),
				       (const char *)rec + off);
		return;
	}
	memcpy(&u, p, t->size);
	switch (t->size) {
	case 1:
		v = t->is_signed ? (u64)(s64)u.b : (u8)u.b;
		break;
	case 2:
		v = t->is_signed ? (u64)(s64)u.h : (u16)u.h;
		break;
	case 4:
		v = t->is_signed ? (u64)(s64)u.w : (u32)u.w;
		break;
	default:
		v = u.d;
		break;
	}
	if (t->is_hex)
		seq_buf_printf(s, "0x%llx", v);
	else if (t->is_signed)
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
 */
void rbtr_kp_print_args(struct seq_buf *s, const struct rbtr_kp_arg *args,
			unsigned int nr, const void *rec, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (args[i].offset + args[i].type->size > len)
			break;
		seq_buf_printf(s, " %s=", args[i].name);
		rbtr_kp_print_one(s, &args[i], rec, len);
	}
}
