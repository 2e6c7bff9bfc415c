// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace event filters: the matcher, run on every record of an event
 * with a filter, in the event's context (NMI included): it takes no
 * lock, allocates nothing, does not recurse, and reads nothing outside
 * the record but current->comm and, for a "const char *" field, the
 * string pointed at, through strncpy_from_kernel_nofault().
 */
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "event.h"
#include "filter.h"
#include "filter_internal.h"

/* One '[...]' class at *@pp against @c; moves *@pp past it. */
static bool rbtr_glob_class(const char **pp, char c)
{
	const char *p = *pp + 1;
	bool neg = false, hit = false;
	char lo, hi;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	/* A ']' first is a member; an unclosed class matches '[' itself. */
	do {
		if (!*p) {
			*pp += 1;
			return c == '[';
		}
		lo = *p++;
		hi = lo;
		if (p[0] == '-' && p[1] && p[1] != ']') {
			hi = p[1];
			p += 2;
		}
		if (c >= lo && c <= hi)
			hit = true;
	} while (*p != ']');
	*pp = p + 1;
	return hit != neg;
}

/**
 * rbtr_filter_glob - shell glob @pat ('*', '?', '[a-z]', '[!x]', '\\')
 *		      against the @len bytes at @str
 * @pat: the pattern, NUL-terminated
 * @str: the string, not necessarily NUL-terminated
 * @len: its length
 *
 * One backtracking point (the last '*'): linear space, O(len * |pat|).
 *
 * Return: true if the whole string matches.
 */
bool rbtr_filter_glob(const char *pat, const char *str, size_t len)
{
	const char *star = NULL, *p = pat, *np;
	size_t i = 0, star_i = 0;
	bool ok;

	while (i < len) {
		np = p;
		switch (*p) {
		case '*':
			star = ++p;
			star_i = i;
			continue;
		case '?':
			ok = true;
			np = p + 1;
			break;
		case '[':
			ok = rbtr_glob_class(&np, str[i]);
			break;
		case '\\':
			if (p[1])
				np++;
			fallthrough;
		default:
			ok = *np && *np == str[i];
			np++;
			break;
		}
		if (ok) {
			p = np;
			i++;
			continue;
		}
		if (!star)
			return false;
		/* Let the last '*' take one more character. */
		p = star;
		i = ++star_i;
	}
	while (*p == '*')
		p++;
	return !*p;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_glob);
#endif

/* Does the string @s (@n bytes, no NUL) match @p's pattern? */
static bool rbtr_fm_string(const struct rbtr_fpred *p, const char *s, size_t n)
{
	bool hit;

	n = strnlen(s, n);
	switch (p->match) {
	case RBTR_FM_FRONT:
		hit = n >= p->plen && !memcmp(s, p->pattern, p->plen);
		break;
	case RBTR_FM_MIDDLE:
		hit = !!strnstr(s, p->pattern, n);
		break;
	case RBTR_FM_END:
		hit = n >= p->plen && !memcmp(s + n - p->plen, p->pattern, p->plen);
		break;
	case RBTR_FM_GLOB:
		hit = rbtr_filter_glob(p->pattern, s, n);
		break;
	default:
		hit = n == p->plen && !memcmp(s, p->pattern, n);
		break;
	}
	return hit != p->not;
}

/* A __data_loc (@rel false) or __rel_loc string, within the record. */
static bool rbtr_fm_loc(const struct rbtr_fpred *p, const u8 *rec, unsigned int size,
			bool rel)
{
	unsigned int off, len;
	u32 loc;

	if (p->offset + sizeof(loc) > size)
		return false;
	memcpy(&loc, rec + p->offset, sizeof(loc));
	off = (loc & 0xffff) + (rel ? p->offset + sizeof(loc) : 0);
	len = loc >> 16;
	if (off > size || len > size - off)
		return false;
	return rbtr_fm_string(p, rec + off, len);
}

/*
 * The string at @ptr into @buf (@size bytes, NUL included), a page at a
 * time so that a short string before an unmapped page reads well:
 * strncpy_from_kernel_nofault() is not exported to modules.
 */
static long rbtr_fm_copy_str(char *buf, const char *ptr, size_t size)
{
	size_t done = 0, n;
	const char *nul;

	while (done < size - 1) {
		n = min_t(size_t, size - 1 - done,
			  PAGE_SIZE - offset_in_page((unsigned long)(ptr + done)));
		if (copy_from_kernel_nofault(buf + done, ptr + done, n))
			return -EFAULT;
		nul = memchr(buf + done, '\0', n);
		if (nul)
			return nul - buf;
		done += n;
	}
	buf[done] = '\0';
	return done;
}

/* A "const char *" field: the string it points at, bounded and faultless. */
static noinline bool rbtr_fm_ptr(const struct rbtr_fpred *p, const u8 *rec,
				 unsigned int size)
{
	char buf[RBTR_FILTER_MAX_STR];
	const char *ptr;
	long n;

	if (p->offset + sizeof(ptr) > size)
		return false;
	memcpy(&ptr, rec + p->offset, sizeof(ptr));
	n = rbtr_fm_copy_str(buf, ptr, sizeof(buf));
	if (n < 0)
		return false;
	return rbtr_fm_string(p, buf, n);
}

/* ftrace's CPU predicate: no '&' (never true), no "!=" inversion flag. */
static bool rbtr_fm_cpu(const struct rbtr_fpred *p)
{
	int cpu = raw_smp_processor_id(), v = (int)p->val;

	switch (p->op) {
	case RBTR_FOP_EQ: return cpu == v;
	case RBTR_FOP_NE: return cpu != v;
	case RBTR_FOP_LT: return cpu < v;
	case RBTR_FOP_LE: return cpu <= v;
	case RBTR_FOP_GT: return cpu > v;
	case RBTR_FOP_GE: return cpu >= v;
	default: return false;
	}
}

static bool rbtr_fm_pred(const struct rbtr_fpred *p, const u8 *rec, unsigned int size)
{
	switch (p->kind) {
	case RBTR_FP_NUM:
		return rbtr_fm_num(p, rec, size);
	case RBTR_FP_CPU:
		return rbtr_fm_cpu(p);
	case RBTR_FP_COMM:
		return rbtr_fm_string(p, current->comm, TASK_COMM_LEN);
	case RBTR_FP_STR:
		if (p->offset + p->size > size)
			return false;
		return rbtr_fm_string(p, (const char *)rec + p->offset, p->size);
	case RBTR_FP_DYNSTR:
		return rbtr_fm_loc(p, rec, size, false);
	case RBTR_FP_RELSTR:
		return rbtr_fm_loc(p, rec, size, true);
	case RBTR_FP_PTRSTR:
		return rbtr_fm_ptr(p, rec, size);
	}
	return false;
}

/**
 * rbtr_filter_match - does the record pass the filter?
 * @f: a filter from rbtr_filter_parse()
 * @rec: the record
 * @size: its size
 *
 * The program is postfix; its operands live on a stack of bits, as deep
 * as the parser allowed (RBTR_FILTER_MAX_DEPTH): bit d of @stk is the
 * d-th operand from the bottom.
 *
 * Return: true to keep the record.
 */
bool notrace rbtr_filter_match(const struct rbtr_filter *f, const void *rec, unsigned int size)
{
	DECLARE_BITMAP(stk, RBTR_FILTER_MAX_DEPTH);
	unsigned int i, d = 0;
	bool a, b;
	u16 op;

	for (i = 0; i < f->nr_prog; i++) {
		op = f->prog[i];
		if (op < RBTR_FPROG_NOT) {
			__assign_bit(d++, stk, rbtr_fm_pred(&f->preds[op], rec, size));
			continue;
		}
		if (op == RBTR_FPROG_NOT) {
			__change_bit(d - 1, stk);
			continue;
		}
		b = test_bit(--d, stk);
		a = test_bit(d - 1, stk);
		__assign_bit(d - 1, stk, op == RBTR_FPROG_AND ? a && b : a || b);
	}
	return test_bit(0, stk);
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_match);
#endif
