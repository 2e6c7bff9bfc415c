// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace dynamic probes: the event name and the fetch arguments of a
 * kprobe_events line, with ftrace's syntax and default names
 * (kernel/trace/trace_kprobe.c, trace_probe.c), and their fetch, so that
 * a probe's events/ directory and records read as the kernel's own
 * kprobe event of the same definition. The types (":u32"), the fields,
 * print fmt and text they make are kprobe_types.c's.
 *
 *	[NAME=]FETCHARG[:TYPE]
 *	FETCHARG: %REG, $argN, $retval, $stack, $stackN, $comm, \IMM, @ADDR,
 *		  +|-OFF(FETCHARG)
 *	TYPE:	  u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 char symbol
 *		  string ustring symstr, bW@O/S (a bitfield); TYPE[N] an array
 *
 * Fetching runs in the probe's handler, in any context (NMI included):
 * memory is read only through the *_nofault copies, nothing is allocated
 * and no lock is taken.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/ptrace.h>
#include "event.h"
#include "kprobe.h"
#include "kprobe_internal.h"

/* ftrace's KRETPROBE_MAXACTIVE_MAX (not in a header) */
#define RBTR_KP_MAXACTIVE_MAX	4096

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
	case '@':
		/*
		 * @ADDR: the memory at an address, ftrace's IMM then DEREF.
		 * @SYM would need kallsyms_lookup_name(), not exported.
		 */
		if (!isdigit(s[1]) || arg->nr_deref >= RBTR_KP_MAX_DEREF)
			return -EINVAL;
		arg->base = RBTR_KP_IMM;
		arg->off[arg->nr_deref++] = 0;
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

/*
 * Does @arg's fetch suit its type? As ftrace's parse_probe_arg_type() and
 * finalize_fetch_insn(): $comm only as "string"; a string read at an
 * address; a symstr of a value (not $stack, \IMM, $comm); an array read
 * from memory, never a symstr.
 */
static bool rbtr_kp_type_fits(const struct rbtr_kp_arg *arg)
{
	const struct rbtr_kp_xtype *x = rbtr_kp_x(arg);

	if (arg->base == RBTR_KP_COMM)
		return x->kind == RBTR_KP_K_STRING && !x->count && !arg->nr_deref;
	if (x->count && (!arg->nr_deref || x->kind == RBTR_KP_K_SYMSTR))
		return false;
	if (x->kind == RBTR_KP_K_SYMSTR)
		return arg->nr_deref ||
		       (arg->base != RBTR_KP_STACK && arg->base != RBTR_KP_IMM);
	return !x->t.is_string || arg->nr_deref;
}

/**
 * rbtr_kp_parse_arg - parse one fetch argument of a probe definition
 * @arg: filled in; its strings and type are allocated (rbtr_kp_free_arg())
 * @text: "[NAME=]FETCHARG[:TYPE]"
 * @idx: its index from 0 (the default name is "arg<idx + 1>")
 * @is_return: of a kretprobe ($retval allowed, $argN not)
 * @at_entry: the probe is at a function's entry ($argN allowed)
 *
 * Return: 0; -EINVAL for bad syntax, a bad name, an unknown register,
 * variable or type, a bad bitfield or array, a fetch the type does not
 * allow; -ENOMEM.
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
	if (!colon)
		colon = arg->base == RBTR_KP_COMM ? "string" : RBTR_KP_DEFAULT_TYPE;
	ret = rbtr_kp_parse_type(arg, colon);
	if (!ret && !rbtr_kp_type_fits(arg))
		ret = -EINVAL;
	if (ret)
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
	rbtr_kp_free_type(arg);
	kfree(arg->name);
	kfree(arg->comm);
	arg->name = NULL;
	arg->comm = NULL;
}

/*
 * ftrace's probe_mem_read(): below TASK_SIZE is user memory; @user (a
 * ustring's probe_mem_read_user()) reads user memory wherever.
 */
static int rbtr_kp_read(void *dst, unsigned long addr, size_t size, bool user)
{
	if (user || addr < TASK_SIZE)
		return copy_from_user_nofault(dst, (const void __user *)addr, size);
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/*
 * Copy the string at @addr into @dst (room for @max bytes, NUL included),
 * a page at most at a time so that no read crosses into a page the
 * string does not reach. Return: its length with the NUL, 0 on a fault.
 */
static unsigned int rbtr_kp_read_string(char *dst, unsigned long addr, unsigned int max,
					bool user)
{
	unsigned int done = 0, n;
	char *nul;

	while (done < max - 1) {
		n = min_t(unsigned long, max - 1 - done,
			  PAGE_SIZE - offset_in_page(addr + done));
		if (rbtr_kp_read(dst + done, addr + done, n, user))
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

/*
 * The base value through every dereference but the outermost, which the
 * caller does as its type wants (@arg->off[0]). Return: 0, or a fault.
 */
static int rbtr_kp_walk(const struct rbtr_kp_arg *arg, struct pt_regs *regs,
			unsigned long *val)
{
	int i;

	*val = rbtr_kp_base_value(arg, regs);
	for (i = arg->nr_deref - 1; i > 0; i--)
		if (rbtr_kp_read(val, *val + arg->off[i], sizeof(*val), false))
			return -EFAULT;
	return 0;
}

/*
 * Store @val in @size bytes at @dst, a bitfield's bits only (ftrace's
 * fetch_apply_bitfield(): shifted in the container's width). memcpy:
 * fields of a probe's record are packed, at any alignment.
 */
static void rbtr_kp_store_int(void *dst, u64 val, const struct rbtr_kp_xtype *x)
{
	union { u8 b; u16 h; u32 w; u64 d; } v;

	switch (x->esize) {
	case 1:
		v.b = (u8)(val << x->lshift) >> x->rshift;
		break;
	case 2:
		v.h = (u16)(val << x->lshift) >> x->rshift;
		break;
	case 4:
		v.w = (u32)(val << x->lshift) >> x->rshift;
		break;
	default:
		v.d = (val << x->lshift) >> x->rshift;
		break;
	}
	memcpy(dst, &v, x->esize);
}

/*
 * An argument other than a string into @dst: the value itself, or what
 * is read at the last dereference, element by element for an array. A
 * fault stores zero.
 */
static void rbtr_kp_fetch_val(const struct rbtr_kp_arg *arg, const struct rbtr_kp_xtype *x,
			      struct pt_regs *regs, void *dst)
{
	unsigned int i, n = x->count ?: 1;
	unsigned long val;
	u64 v;

	if (rbtr_kp_walk(arg, regs, &val)) {
		memset(dst, 0, x->t.size);
		return;
	}
	if (!arg->nr_deref) {
		rbtr_kp_store_int(dst, val, x);
		return;
	}
	for (i = 0; i < n; i++) {
		if (rbtr_kp_read(&v, val + arg->off[0] + i * x->esize, x->esize, false))
			v = 0;
		rbtr_kp_store_int(dst + i * x->esize, rbtr_kp_load(&v, x->esize, false), x);
	}
}

/*
 * Element @i of a string argument into @dst (@max bytes): a string at
 * the last dereference's address or, for an array, at the @i-th pointer
 * there (ftrace's FETCH_OP_LP_ARRAY); a symstr's "sym+off/size" of the
 * value. Return: its length with the NUL, 0 on a fault.
 */
static unsigned int rbtr_kp_fetch_str(const struct rbtr_kp_arg *arg,
				      const struct rbtr_kp_xtype *x, struct pt_regs *regs,
				      unsigned int i, char *dst, unsigned int max)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long val;
	int len;

	if (arg->base == RBTR_KP_COMM) {
		max = min_t(unsigned int, max, TASK_COMM_LEN);
		len = strscpy(dst, current->comm, max);
		return len < 0 ? max : len + 1;
	}
	if (rbtr_kp_walk(arg, regs, &val))
		return 0;
	if (x->kind == RBTR_KP_K_SYMSTR) {
		if (arg->nr_deref &&
		    rbtr_kp_read(&val, val + arg->off[0], sizeof(val), false))
			return 0;
		len = sprint_symbol(sym, val);
		if (len < 0)
			return 0;
		len = strscpy(dst, sym, max);
		return len < 0 ? max : len + 1;
	}
	if (!x->count)
		val += arg->off[0];
	else if (rbtr_kp_read(&val, val + arg->off[0] + i * sizeof(long), sizeof(val), false))
		return 0;
	return rbtr_kp_read_string(dst, val, max, x->kind == RBTR_KP_K_USTRING);
}

/*
 * ftrace stores a symstr without its NUL (fetch_store_symstring() counts
 * sprint_symbol()'s length), so that the next string overwrites it, and
 * leaves its __data_loc's length at what is left of the dynamic area,
 * sized with the NULs: a symstr prints with the strings after it, in
 * trace and in trace-cmd. The same lengths here, once all are fetched.
 */
static void rbtr_kp_symstr_locs(const struct rbtr_kp_arg *args, unsigned int nr, void *rec)
{
	unsigned int pass, i, j, n, left = 0;
	bool sym;
	u32 loc;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nr; i++) {
			const struct rbtr_kp_xtype *x = rbtr_kp_x(&args[i]);

			for (j = 0; x->t.is_string && j < (x->count ?: 1); j++) {
				memcpy(&loc, rec + args[i].offset + j * sizeof(loc), sizeof(loc));
				n = loc >> 16;
				sym = n && x->kind == RBTR_KP_K_SYMSTR;
				if (!pass) {
					left += n + sym;
					continue;
				}
				if (sym) {
					loc = left << 16 | (loc & 0xffff);
					memcpy(rec + args[i].offset + j * sizeof(loc), &loc,
					       sizeof(loc));
				}
				left -= n;
			}
		}
	}
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
 * faulted has a __data_loc of length 0, as ftrace's. An array of strings
 * has a __data_loc per element.
 *
 * Return: the size of the record.
 */
unsigned int rbtr_kp_fetch_args(const struct rbtr_kp_arg *args, unsigned int nr,
				struct pt_regs *regs, void *rec, unsigned int fixed,
				unsigned int room)
{
	unsigned int i, j, len, end = fixed, nul = 0;
	bool symstr = false;
	u32 loc;

	for (i = 0; i < nr; i++) {
		const struct rbtr_kp_xtype *x = rbtr_kp_x(&args[i]);
		void *dst = rec + args[i].offset;

		if (!x->t.is_string) {
			rbtr_kp_fetch_val(&args[i], x, regs, dst);
			continue;
		}
		for (j = 0; j < (x->count ?: 1); j++) {
			len = 0;
			if (end < room)
				len = rbtr_kp_fetch_str(&args[i], x, regs, j, rec + end,
							min(room - end, RBTR_KP_STR_MAX));
			if (len) {
				/* A symstr's NUL: the next string's, or kept at the end */
				nul = x->kind == RBTR_KP_K_SYMSTR;
				len -= nul;
				symstr |= nul;
			}
			loc = len << 16 | end;
			memcpy(dst + j * sizeof(loc), &loc, sizeof(loc));
			end += len;
		}
	}
	if (symstr)
		rbtr_kp_symstr_locs(args, nr, rec);
	return end + nul;
}
